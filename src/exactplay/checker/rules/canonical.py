"""The canonical explicit model of a built-in game, rebuilt by the checker from its own rules.

This is the checker's implementation of the canonical serialization; the tool's
is :mod:`exactplay.model.canonical`.  They share no code: each computes the
digest on its own (the tool from the engine's compiled model, the checker from
the rules in this package), and a certificate v2 of kind ``"game"`` is accepted
only when the two agree.

**The canonical serialization of an explicit model** (defined once, here):

1. The states are those reachable from the initial state.  Every state has a
   name (a string); the names are pairwise distinct.
2. The states are numbered in increasing order of their names (Python's
   ``str`` order: by code points).  ``id`` is that number.
3. The model is the JSON object ``{"format": "exactplay-model", "version": 1,
   "name", "players": [player names], "objective": the declared objective
   ("auto", "max", "zero-sum" or "min"), "initial": the initial state's number,
   "states": [...]}``; a state is ``{"id", "name", "payoff": [...]}`` when
   terminal, else ``{"id", "name", "mover": player or null, "actions": [...]}``;
   an action is ``{"name", "next", "reward"}`` where ``name`` is omitted at a
   chance state (mover null, exactly one action), ``next`` lists
   ``["p/q", successor number]`` in increasing successor number, one entry per
   successor (duplicate outcomes merged by adding their probabilities,
   zero-probability outcomes dropped), and ``reward`` is present only when some
   component is non-zero.  Numbers are ``"p/q"`` in lowest terms with ``q >= 1``
   (``"1/1"``, ``"0/1"``, ``"-3/2"``).
4. Its bytes are ``json.dumps(model, sort_keys=True, separators=(",", ":"))``
   (ASCII, the ``json`` module's default escaping) and ``model_sha256`` is their
   SHA-256 in hexadecimal -- the same digest a certificate of kind ``"model"``
   stores for the model it carries.

A game's rules (a module of this package) give: ``name``, ``players``,
``objective``, ``initial()``, ``label(state)`` and ``step(state)``, which is
``("end", payoff)`` at a terminal state, else ``(mover, [(action name,
[(probability, next state), ...], reward or None), ...])``.
"""

from __future__ import annotations

import hashlib
import json
from json.encoder import encode_basestring_ascii as _json_text  # json.dumps of a str (C when available)

from .._ints import ratio
from .._strict import fail

_CHUNK = 1 << 16  # states whose JSON text is hashed at once


class _Numbers:
    """Each distinct exact number once: its checker value (gmpy2's mpq or Fraction) and its text.

    The rules hand the same number object out many times (a die's face, a skill): it is looked up by
    identity first (the object is kept, so its identity is not reused), then by value."""

    def __init__(self):
        self.memo: dict = {}
        self.by_id: dict = {}

    def __call__(self, x) -> tuple:
        got = self.by_id.get(id(x))
        if got is not None:
            return got
        key = (x.numerator, x.denominator) if not isinstance(x, int) else (x, 1)
        got = self.memo.get(key)
        if got is None:
            num, den = key
            got = self.memo[key] = (ratio(num, den), f"{num}/{den}", x)
        self.by_id[id(x)] = got if got[2] is x else (got[0], got[1], x)
        return got


class Rebuilt:
    """The explicit model of one instance, in canonical order, and its digest."""

    name: str
    player_names: list
    declared_objective: str
    initial: int
    state_names: list
    payoff: list
    mover: list
    trans: list
    rewards: list
    digest: str


def _json(x) -> str:
    """``json.dumps(x, sort_keys=True, separators=(",", ":"))``, quickly for a str or an int."""
    if isinstance(x, str):
        return _json_text(x)
    if type(x) is int:
        return str(x)
    return json.dumps(x, sort_keys=True, separators=(",", ":"), allow_nan=False)


def rebuild(rules, max_states: int) -> Rebuilt:
    """Enumerate the rules' reachable states (refusing more than ``max_states``), number them
    canonically and compute the canonical digest (its JSON text is hashed as it is written, never
    held whole)."""
    start = rules.initial()
    index = {start: 0}
    keys = [start]
    steps = []
    k = 0
    while k < len(keys):
        kind, body = rules.step(keys[k])
        k += 1
        if kind == "end":
            steps.append(("end", body))
            continue
        acts = []
        for aname, outcomes, reward in body:
            targets: list[int] = []
            probs: list = []
            for p, t in outcomes:
                if not p:
                    continue
                j = index.get(t)
                if j is None:
                    if len(keys) >= max_states:
                        fail(f"the rules of this instance have more than {max_states:,} states, the limit of a "
                             "certificate", "params")
                    j = index[t] = len(keys)
                    keys.append(t)
                if j in targets:  # the same state twice: one outcome, the probabilities added
                    i = targets.index(j)
                    probs[i] = probs[i] + p
                else:
                    targets.append(j)
                    probs.append(p)
            acts.append((aname, targets, probs, reward if reward is not None and any(reward) else None))
        steps.append((kind, acts))
    del index
    names = [rules.label(key) for key in keys]
    del keys
    order = sorted(range(len(names)), key=names.__getitem__)
    number = [0] * len(names)
    for i, old in enumerate(order):
        number[old] = i
    for a, b in zip(order, order[1:]):
        if names[a] == names[b]:
            fail(f"two states of the rules are both named {names[a][:60]!r}", "params")
    out = Rebuilt()
    out.name, out.player_names, out.declared_objective = rules.name, list(rules.players), rules.objective
    out.initial = number[0]
    out.state_names = [names[old] for old in order]
    del names
    payoff, movers, trans, rewards = [None] * len(order), [None] * len(order), [()] * len(order), [()] * len(order)
    num = _Numbers()
    digest = hashlib.sha256()
    texts = ['{"format":"exactplay-model","initial":', str(out.initial), ',"name":', _json(out.name),
             ',"objective":', _json(out.declared_objective), ',"players":',
             json.dumps(out.player_names, separators=(",", ":"), allow_nan=False), ',"states":[']
    state_names = out.state_names
    heads: dict = {}  # an action's name as JSON, once per name
    for i, old in enumerate(order):
        mover, body = steps[old]
        steps[old] = None
        if i:
            texts.append(",")
        if mover == "end":
            pay = [num(x) for x in body]
            payoff[i] = tuple(x[0] for x in pay)
            texts.append(f'{{"id":{i},"name":{_json_text(state_names[i])},"payoff":['
                         + ",".join(f'"{x[1]}"' for x in pay) + "]}")
            continue
        movers[i] = mover
        dists, rews, acts = [], [], []
        for aname, targets, probs, reward in body:
            head = '{"next":[' if mover is None else heads.get(aname)
            if head is None:
                head = heads[aname] = f'{{"name":{_json(aname)},"next":['
            if len(targets) == 1:  # one outcome (of probability 1)
                t, q = number[targets[0]], num(probs[0])
                act = f'{head}["{q[1]}",{t}]]'
                dists.append(((t, q[0]),))
            else:
                pairs = sorted(zip([number[t] for t in targets], map(num, probs)), key=_first)
                act = head + ",".join([f'["{q[1]}",{t}]' for t, q in pairs]) + "]"
                dists.append(tuple([(t, q[0]) for t, q in pairs]))
            if reward is not None:
                rew = [num(x) for x in reward]
                act += ',"reward":[' + ",".join(f'"{x[1]}"' for x in rew) + "]"
                reward = tuple(x[0] for x in rew)
            acts.append(act + "}")
            rews.append(reward)
        trans[i], rewards[i] = tuple(dists), tuple(rews)
        texts.append('{"actions":[' + ",".join(acts) + f'],"id":{i},"mover":{"null" if mover is None else mover},'
                     f'"name":{_json_text(state_names[i])}}}')
        if len(texts) > _CHUNK:
            digest.update("".join(texts).encode("ascii"))
            texts = []
    texts.append('],"version":1}')
    digest.update("".join(texts).encode("ascii"))
    out.payoff, out.mover, out.trans, out.rewards = payoff, movers, trans, rewards
    out.digest = digest.hexdigest()
    return out


def _first(pair):
    return pair[0]
