"""The explicit JSON model as canonical text, state by state, without building it as objects.

:func:`model_text` gives the text of ``json.dumps(model_to_json(model), sort_keys=True,
separators=(",", ":"))`` -- the bytes a certificate's ``model_sha256`` is the SHA-256 of -- in
pieces: a head, one piece per state, a tail, so that

    head + ",".join(states) + tail == json.dumps(model_to_json(model), sort_keys=True, separators=(",", ":"))

A writer can then hash the pieces and write them (one state per line: JSON ignores the newlines
between them) in one pass, with neither a dict per state nor a second encoding for the digest.  A
model read into arrays (:class:`~exactplay.model.sparse.ArrayModel`: PRISM, JANI, DRN) is written
from its arrays, each distinct probability, payoff and reward turned into text once; any other
:class:`~exactplay.model.compiled.Model` through its per-state lists, exactly as
:func:`~exactplay.model.explicit.model_to_json` reads them.  ``tests/test_model_text.py`` holds the
two equal, byte for byte.

Strings are encoded by the function ``json.dumps`` itself uses (``ensure_ascii``); a value that is
neither a string nor an integer (an action named by a list, say) by ``json.dumps`` with the same
options.
"""

from __future__ import annotations

import json
from json.encoder import encode_basestring_ascii as _string
from typing import Any, Iterator

from ..numbers.backends import format_pq
from .compiled import Model
from .explicit_read import FORMAT

__all__ = ["model_text"]


def _value(x: Any) -> str:
    """``json.dumps(x, sort_keys=True, separators=(",", ":"))``, strings and integers directly."""
    t = type(x)
    if t is str:
        return _string(x)
    if t is int:
        return int.__repr__(x)
    return json.dumps(x, sort_keys=True, separators=(",", ":"), allow_nan=False)


def _pq(x) -> str:
    return '"' + format_pq(x) + '"'  # (as model_to_json writes it: integers of any size)


def _numbers(vec) -> str:
    return "[" + ",".join(_pq(x) for x in vec) + "]"


def model_text(model: Model) -> tuple[str, Iterator[str], str]:
    """``(head, states, tail)``: the canonical text of the explicit model (the module's docstring);
    ``states`` yields state ``0, 1, ...``'s object in turn."""
    head = ['{"format":', _string(FORMAT), ',"initial":', str(model.initial)]
    if len(model.initial_states) > 1:
        head += [',"initial_states":', "[" + ",".join(str(s) for s in model.initial_states) + "]"]
    head += [',"name":', _value(model.name)]
    if model.never_ending != "zero":
        head += [',"never_ending":', _value(model.never_ending)]
    head += [',"objective":', _value(model.objective), ',"players":',
             "[" + ",".join(_value(p) for p in model.player_names) + "]", ',"states":[']
    from .sparse import ArrayModel

    states = _array_states(model) if isinstance(model, ArrayModel) else _list_states(model)
    return "".join(head), states, '],"version":1}'


def _labels(labels) -> str:
    return ',"labels":[' + ",".join(_value(x) for x in labels) + "]"


def _list_states(model: Model) -> Iterator[str]:
    """The states of a model with per-state lists, as :func:`model_to_json` writes them (no order)."""
    labels = model.labels
    for s in range(len(model)):
        name = _value(model.state_name(s))
        lab = _labels(labels[s]) if labels and labels[s] else ""
        pay = model.terminal[s]
        if pay is not None:
            yield f'{{"id":{s}{lab},"name":{name},"payoff":{_numbers(pay)}}}'
            continue
        mover = model.mover[s]
        acts = []
        for a, dist in enumerate(model.trans[s]):
            act = '{"name":' + _value(model.actions[s][a]) + "," if mover is not None else "{"
            act += '"next":[' + ",".join(f"[{_pq(p)},{t}]" for t, p in dist) + "]"
            reward = model.rewards[s][a]
            if reward is not None:
                act += ',"reward":' + _numbers(reward)
            acts.append(act + "}")
        yield (f'{{"actions":[{",".join(acts)}],"id":{s}{lab},"mover":{"null" if mover is None else mover},'
               f'"name":{name}}}')


def _array_states(model) -> Iterator[str]:
    """The states of an :class:`~exactplay.model.sparse.ArrayModel`, from its arrays (the same text as
    :func:`_list_states` gives for its per-state lists)."""
    sp = model.sparse
    d = model.__dict__
    names, action_names, labels = d["_state_names"], d["_action_names"], d["_labels"]
    first, start, succ, pk, mover, pay, rew = sp.first, sp.start, sp.succ, sp.pk, sp.mover, sp.pay, sp.rew
    prob = [_pq(x) for x in sp.probs]  # each distinct number once
    outcome = ["[" + x + "," for x in prob]
    payoff = [',"payoff":' + _numbers(v) + "}" for v in sp.payoffs]
    reward = [',"reward":' + _numbers(v) for v in sp.rewards]
    each_name = iter(names) if names is not None else None  # (a lazy sequence makes them all at once faster)
    for s in range(sp.n):
        name = _value(str(next(each_name))) if each_name is not None else f'"{s}"'
        lab = labels[s] if labels is not None else None
        lab = _labels(lab) if lab else ""
        if pay[s] >= 0:
            yield f'{{"id":{s}{lab},"name":{name}{payoff[pay[s]]}'
            continue
        m = mover[s]
        a0, a1 = first[s], first[s + 1]
        acts = []
        for a in range(a0, a1):
            if m < 0:
                act = '{"next":['
            elif action_names is None:
                act = f'{{"name":"{a - a0}","next":['
            else:
                act = '{"name":' + _value(action_names[a]) + ',"next":['
            k0, k1 = start[a], start[a + 1]
            if k1 - k0 == 1:
                act += outcome[pk[k0]] + str(succ[k0]) + "]]"
            else:
                act += ",".join([outcome[pk[k]] + str(succ[k]) + "]" for k in range(k0, k1)]) + "]"
            r = rew[a]
            acts.append(act + reward[r] + "}" if r >= 0 else act + "}")
        yield (f'{{"actions":[{",".join(acts)}],"id":{s}{lab},"mover":{"null" if m < 0 else m},'
               f'"name":{name}}}')
