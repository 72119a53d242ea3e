"""The float seed of a cyclic component: a first policy for exact strategy iteration.

The seed only guides: exact policy / strategy iteration (:mod:`.cyclic`) starts from it and
switches only on exact strict improvements, so a wrong seed costs rounds, never correctness.
Two stages, both in IEEE doubles:

1. a few Gauss-Seidel sweeps of value iteration and the greedy policy (:func:`gauss_seidel_seed`);
2. float strategy iteration from that policy (:func:`float_strategy_iteration`): each policy is
   evaluated by the same sparse elimination as the exact engine (:func:`.linear.evaluate_component`
   over floats: a handful of unknowns, one pass over the component), the minimiser answers with
   her best reply, and the maximiser switches where an action is better by more than a relative
   ``1e-12``.  Value iteration needs many sweeps where play loops with high probability (in Hold
   or Pig a turn ends with probability 1/6 and the cycle closes through the two turn starts);
   a policy evaluation solves the loop at once, so the exact iteration mostly needs one round.
"""

from __future__ import annotations

from typing import Sequence

from .linear import closed_states, evaluate_component

__all__ = ["gauss_seidel_seed", "float_strategy_iteration", "SEED_ROUNDS", "TOLERANCE"]

SEED_ROUNDS = 12  # rounds of each float strategy-iteration loop (the seed is a guide: capped)
TOLERANCE = 1e-12  # relative improvement a float switch needs
SWEEPS_BEFORE_ITERATION = 3  # Gauss-Seidel sweeps (at most) before float strategy iteration


def gauss_seidel_seed(S, fdist, signs, fval, fv, sweeps: int) -> dict[int, int]:
    """Greedy policy after at most ``sweeps`` Gauss-Seidel sweeps (``fv``: the values, updated)."""
    pol: dict[int, int] = {s: 0 for s in S}
    for sweep in range(sweeps):
        delta = 0.0
        changed = False
        for s in S:
            sign = signs[s]
            best, arg = None, 0
            for a, (d, r) in enumerate(fdist[s]):
                q = r + sum(p * fval(t) for t, p in d)
                if best is None or sign * q > sign * best:
                    best, arg = q, a
            delta = max(delta, abs(best - fv[s]))
            fv[s] = best
            if pol[s] != arg:
                pol[s] = arg
                changed = True
        if delta < 1e-12 or (sweep > 0 and not changed):
            break
    return pol


def _evaluate(S: Sequence[int], fdist, pol, outside, has_ec: bool) -> dict[int, float]:
    """Float values of ``S`` under ``pol`` (states that cannot leave ``S``: 0; none without an end component)."""
    in_s = set(S)

    def dist(s):
        return fdist[s][pol[s]][0]

    closed = closed_states(S, lambda s: [t for t, _ in dist(s)], in_s) if has_ec else set()
    val = {s: 0.0 for s in closed}
    rest = [s for s in S if s not in closed]
    if rest:
        vals, _ = evaluate_component(rest, dist, lambda s: (fdist[s][pol[s]][1],),
                                     lambda t: (val[t],) if t in val else (outside(t),), 1, 0.0, 1.0)
        for s, v in vals.items():
            val[s] = v[0]
    return val


def _switch(states, fdist, pol, val, outside, sign: int) -> bool:
    """Greedy switches by more than the tolerance; True if any."""
    switched = False
    for s in states:
        qs = []
        for d, r in fdist[s]:
            q = r
            for t, p in d:
                q += p * (val[t] if t in val else outside(t))
            qs.append(sign * q)
        best = max(qs)
        cur = qs[pol[s]]
        if best > cur + TOLERANCE * (1.0 + abs(cur)):
            pol[s] = qs.index(best)
            switched = True
    return switched


def float_strategy_iteration(S, fdist, pol, outside, has_ec, maxers, miners) -> dict[int, int]:
    """Improve ``pol`` (in place and returned) by float strategy iteration: for each maximiser
    policy, the minimiser's best reply by policy iteration; then the maximiser switches."""
    try:
        for _ in range(SEED_ROUNDS):
            for _ in range(SEED_ROUNDS):
                val = _evaluate(S, fdist, pol, outside, has_ec)
                if not miners or not _switch(miners, fdist, pol, val, outside, -1):
                    break
            if not maxers or not _switch(maxers, fdist, pol, val, outside, 1):
                break
    except (ArithmeticError, ValueError):  # a singular or overflowing float system: keep what we have
        pass
    return pol
