"""A fixed policy evaluated over ``Q(p)``: every state's value as a reduced rational function.

Under the policy ``sigma`` the values solve ``V(s) = r(s) + sum_t q_{s,t}(p) V(t)`` (terminal
states: their payoff).  The policy's graph is split into strongly connected components,
sink-first; each component is solved by the engine's own exact linear algebra
(:func:`exactplay.engine.elimination.solve_transient`: state elimination, the order of least fill first),
here over the field of rational functions.

Margins: at a choice state of a player with key ``(c, sign)`` the one-step value of action ``a``
is ``Q_a = r_a[c] + sum_t q_{s,a,t}(p) V_c(t)``; its margin is ``sign * (Q_sigma(s) - Q_a)``.  The
policy is optimal at ``p`` exactly when every margin is ``>= 0`` there (every play ends under all
strategies, so the Bellman optimality equations have one solution).
"""

from __future__ import annotations

from typing import Sequence

from flint import fmpq_poly

from ..engine.elimination import closed_states, solve_transient
from ..graph import tarjan
from .build import PModel
from .ratfunc import ONE, ZERO, RatFunc

__all__ = ["evaluate_policy", "margins"]


class _Probs:
    """Each distinct probability polynomial as a :class:`RatFunc`, made once."""

    def __init__(self) -> None:
        self.memo: dict[tuple, RatFunc] = {}

    def __call__(self, q: fmpq_poly) -> RatFunc:
        key = tuple(q.coeffs())
        v = self.memo.get(key)
        if v is None:
            v = self.memo[key] = RatFunc(q)
        return v


INF = float("inf")  # (rational functions are eliminated to the end: no dense rest)


def evaluate_policy(pm: PModel, policy: Sequence[int | None], components: Sequence[int],
                    probs: _Probs | None = None) -> list[tuple[RatFunc, ...]]:
    """``values[s][k]``: the value of component ``components[k]`` at state ``s`` under ``policy``."""
    probs = probs or _Probs()
    n = len(pm)
    P = len(components)
    V: list[tuple | None] = [None] * n
    dist = [None if pm.terminal[s] is not None else [(t, probs(q)) for t, q in pm.trans[s][policy[s]]]
            for s in range(n)]
    rew = []
    for s in range(n):
        r = None if pm.terminal[s] is not None else pm.rewards[s][policy[s]]
        rew.append(None if r is None else tuple(RatFunc(fmpq_poly([_q(r[c])])) for c in components))
    succ = [[] if d is None else [t for t, _ in d] for d in dist]
    for comp in tarjan(succ):
        if len(comp) == 1 and comp[0] not in succ[comp[0]]:
            s = comp[0]
            if pm.terminal[s] is not None:
                V[s] = tuple(RatFunc(fmpq_poly([_q(pm.terminal[s][c])])) for c in components)
                continue
            acc = list(rew[s]) if rew[s] is not None else [ZERO] * P
            for t, q in dist[s]:
                for k in range(P):
                    if V[t][k]:
                        acc[k] = acc[k] + q * V[t][k]
            V[s] = tuple(acc)
            continue
        members = set(comp)
        if closed_states(comp, lambda s: succ[s], members):
            raise ArithmeticError("a component of the policy's graph never ends (the termination witness failed)")
        idx = {s: i for i, s in enumerate(comp)}
        rows, b = [], []
        for s in comp:
            acc = list(rew[s]) if rew[s] is not None else [ZERO] * P
            row = {}
            for t, q in dist[s]:
                if t in members:
                    row[idx[t]] = q
                else:
                    for k in range(P):
                        if V[t][k]:
                            acc[k] = acc[k] + q * V[t][k]
            rows.append(row)
            b.append(acc)
        for s, v in zip(comp, solve_transient(rows, b, ZERO, ONE, max_fill=INF)):
            V[s] = tuple(v)
    return V  # type: ignore[return-value]


def _q(x):
    from flint import fmpq

    return fmpq(x.numerator, x.denominator)


def action_value(pm: PModel, s: int, a: int, c: int, V, probs: _Probs) -> RatFunc:
    """``Q_a = r_a[c] + sum_t q(p) V_c(t)`` (``c`` an index into the evaluated components)."""
    r = pm.rewards[s][a]
    acc = RatFunc(fmpq_poly([_q(r[c])])) if r is not None else ZERO
    for t, q in pm.trans[s][a]:
        if V[t][c]:
            acc = acc + probs(q) * V[t][c]
    return acc


def margins(pm: PModel, policy, keys, components, V, probs: _Probs | None = None) -> dict[int, dict[int, RatFunc]]:
    """``out[s][a] = sign * (Q_policy(s) - Q_a)`` at every choice state, for every other action."""
    probs = probs or _Probs()
    index = {c: k for k, c in enumerate(components)}
    out: dict[int, dict[int, RatFunc]] = {}
    for s in range(len(pm)):
        m = pm.mover[s]
        if m is None or pm.terminal[s] is not None or len(pm.trans[s]) < 2:
            continue
        c, sign = keys[m]
        k = index[c]
        chosen = action_value(pm, s, policy[s], k, V, probs)
        row = {}
        for a in range(len(pm.trans[s])):
            if a != policy[s]:
                diff = chosen - action_value(pm, s, a, k, V, probs)
                row[a] = diff if sign > 0 else -diff
        out[s] = row
    return out
