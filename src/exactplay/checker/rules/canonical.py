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
from fractions import Fraction

from .._ints import ratio
from .._strict import fail


class _Numbers:
    """Each distinct exact number once: its checker value (gmpy2's mpq or Fraction) and its text."""

    def __init__(self):
        self.memo: dict = {}

    def __call__(self, x) -> tuple:
        key = (x.numerator, x.denominator) if not isinstance(x, int) else (x, 1)
        got = self.memo.get(key)
        if got is None:
            num, den = key
            got = self.memo[key] = (ratio(num, den), f"{num}/{den}")
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


def rebuild(rules, max_states: int) -> Rebuilt:
    """Enumerate the rules' reachable states (refusing more than ``max_states``), number them
    canonically and compute the canonical digest."""
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
            dist: dict[int, Fraction] = {}
            for p, t in outcomes:
                if not p:
                    continue
                j = index.get(t)
                if j is None:
                    if len(keys) >= max_states:
                        fail(f"the rules of this instance have more than {max_states:,} states, the limit of a "
                             "version 2 certificate (check its version 1 certificate)", "params")
                    j = index[t] = len(keys)
                    keys.append(t)
                dist[j] = dist[j] + p if j in dist else p
            acts.append((aname, dist, reward if reward is not None and any(reward) else None))
        steps.append((kind, acts))
    names = [rules.label(key) for key in keys]
    order = sorted(range(len(keys)), key=names.__getitem__)
    number = [0] * len(keys)
    for i, old in enumerate(order):
        number[old] = i
    for a, b in zip(order, order[1:]):
        if names[a] == names[b]:
            fail(f"two states of the rules are both named {names[a][:60]!r}", "params")
    out = Rebuilt()
    out.name, out.player_names, out.declared_objective = rules.name, list(rules.players), rules.objective
    out.initial = number[0]
    out.state_names = [names[old] for old in order]
    out.payoff, out.mover, out.trans, out.rewards = [], [], [], []
    states = []
    num = _Numbers()
    for i, old in enumerate(order):
        mover, body = steps[old]
        st = {"id": i, "name": names[old]}
        if mover == "end":
            pay = [num(x) for x in body]
            st["payoff"] = [text for _, text in pay]
            out.payoff.append(tuple(x for x, _ in pay))
            out.mover.append(None)
            out.trans.append([])
            out.rewards.append([])
            states.append(st)
            continue
        m = mover
        st["mover"] = m
        acts, dists, rews = [], [], []
        for aname, dist, reward in body:
            pairs = sorted((number[t], num(p)) for t, p in dist.items())
            act = {} if m is None else {"name": aname}
            act["next"] = [[text, t] for t, (_, text) in pairs]
            dists.append([(t, p) for t, (p, _) in pairs])
            if reward is not None:
                rew = [num(x) for x in reward]
                act["reward"] = [text for _, text in rew]
                reward = tuple(x for x, _ in rew)
            acts.append(act)
            rews.append(reward)
        st["actions"] = acts
        out.payoff.append(None)
        out.mover.append(m)
        out.trans.append(dists)
        out.rewards.append(rews)
        states.append(st)
    model = {"format": "exactplay-model", "version": 1, "name": out.name, "players": out.player_names,
             "objective": out.declared_objective, "initial": out.initial, "states": states}
    raw = json.dumps(model, sort_keys=True, separators=(",", ":"), allow_nan=False).encode("utf-8")
    out.digest = hashlib.sha256(raw).hexdigest()
    return out
