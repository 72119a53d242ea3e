"""Policy evaluation: the exact values of the Markov chain a pure stationary profile induces.

Under a profile (one action per non-terminal state) a model is a Markov chain;
its value vector solves ``x_s = r_s + sum_t p_st x_t`` on the states that can
reach a terminal state or a reward, ``x_t`` = the payoff at terminal states, and is 0
where neither is reachable (a play that never ends is worth the rewards it collected).

>>> from exactplay.model import build_model
>>> class Flip:  # heads: win 1; tails: toss again
...     num_players = 1
...     def initial_state(self): return "toss"
...     def is_terminal(self, s): return s == "won"
...     def payoff(self, s): return (1,)
...     def mover(self, s): return None
...     def transitions(self, s, a): return [("1/2", "won"), ("1/2", "toss")]
>>> policy_values(build_model(Flip()), lambda s: 0)[0]
(Fraction(1, 1),)
"""

from __future__ import annotations

from fractions import Fraction
from typing import Callable, Sequence

__all__ = ["choice_states", "reaches_terminal", "chain_values", "policy_values"]


def choice_states(model) -> list[int]:
    return [s for s in range(len(model)) if model.terminal[s] is None and len(model.trans[s]) > 1]


def reaches_terminal(model, profile, comps=None) -> set[int]:
    """States from which a terminal state is reachable under ``profile`` -- or, with ``comps``, a terminal
    state or a profile action with a non-zero reward in ``comps`` (a play that never ends keeps the rewards
    it collected)."""
    preds: dict[int, list[int]] = {}
    for s in range(len(model)):
        if model.terminal[s] is None:
            for t, _ in model.trans[s][profile[s]]:
                preds.setdefault(t, []).append(s)
    good = {s for s in range(len(model)) if model.terminal[s] is not None or (
        comps is not None and (r := model.rewards[s][profile[s]]) is not None and any(r[c] for c in comps))}
    stack = list(good)
    while stack:
        t = stack.pop()
        for s in preds.get(t, ()):
            if s not in good:
                good.add(s)
                stack.append(s)
    return good


def chain_values(model, profile, comps) -> list[tuple[Fraction, ...]]:
    """Exact values (components ``comps``) of every state of the Markov chain ``profile`` induces.

    ``x_s = r_s + sum_t p_st x_t`` for the non-terminal states that can reach a
    terminal state or a reward, ``x_t`` = payoff at terminal states, 0 where neither is
    reachable; solved by Gaussian elimination (no pivoting: ``I - Q`` restricted to
    transient states is a non-singular M-matrix, so every pivot is positive; a reward on
    a closed class, an infinite total, is refused by an assertion).
    """
    n = len(model)
    k = len(comps)
    good = reaches_terminal(model, profile, comps)
    zero = (Fraction(0),) * k
    val: list = [None] * n
    rows: dict[int, list] = {}  # s -> [rhs list, coef dict]
    users: dict[int, set[int]] = {}
    for s in range(n):
        if model.terminal[s] is not None:
            val[s] = tuple(model.terminal[s][c] for c in comps)
        elif s not in good:
            val[s] = zero
    for s in range(n):
        if val[s] is not None:
            continue
        a = profile[s]
        r = model.rewards[s][a]
        rhs = [r[c] if r is not None else Fraction(0) for c in comps]
        coef: dict[int, Fraction] = {}
        for t, p in model.trans[s][a]:
            if val[t] is not None:
                for i in range(k):
                    rhs[i] += p * val[t][i]
            else:
                coef[t] = coef.get(t, Fraction(0)) + p
                users.setdefault(t, set()).add(s)
        rows[s] = [rhs, coef]
    order = list(rows)
    for s in order:
        rhs, coef = rows[s]
        a = coef.pop(s, Fraction(0))
        if a:
            assert a != 1, "singular chain: a state that cannot leave was not set to 0"
            d = 1 - a
            rhs[:] = [x / d for x in rhs]
            for t in coef:
                coef[t] /= d
        users.get(s, set()).discard(s)
        for u in users.pop(s, set()):
            urhs, ucoef = rows[u]
            b = ucoef.pop(s, None)
            if b is None:
                continue
            for i in range(k):
                urhs[i] += b * rhs[i]
            for t, c in coef.items():
                ucoef[t] = ucoef.get(t, Fraction(0)) + b * c
                users.setdefault(t, set()).add(u)
        for t in coef:
            users.setdefault(t, set())
    for s in reversed(order):
        rhs, coef = rows[s]
        out = list(rhs)
        for t, c in coef.items():
            for i in range(k):
                out[i] += c * val[t][i]
        val[s] = tuple(out)
    return val


def policy_values(model, choice: Callable[[int], int], comps: Sequence[int] | None = None) -> list[tuple[Fraction, ...]]:
    """:func:`chain_values` of the profile ``choice(s)`` at choice states (action 0 elsewhere), all
    payoff components unless ``comps`` says which."""
    profile = [None if model.terminal[s] is not None else (choice(s) if len(model.trans[s]) > 1 else 0)
               for s in range(len(model))]
    return chain_values(model, profile, list(range(model.num_players)) if comps is None else list(comps))
