"""Exact policy evaluation by the cut values, then one shared-denominator sum per state.

The eager engine's evaluation of one payoff component in gmpy2 ``mpq`` (:mod:`.cyclic`).  The
full elimination (:mod:`.linear_int`) writes every value as an integer over ``D K``, ``D`` the lcm
of the outside denominators and ``K`` a product of probability denominators along the state's
chain (``6^k`` in Hold): in Hold or Pig those numerators are half again as long as the reduced
values, and the one gcd per value is most of the solve.  Here:

1. the cut states' values (:func:`.cuts.cut_values`: the same reduction, once per cut);
2. every other state in post-order (successors first, each successor a cut, outside, or done):
   ``V(v) = r + sum p V(t)`` by :func:`exact_sum` over the reduced successor values -- one gcd at
   about the reduced size -- and a sure move (no reward, one successor) is its successor's value,
   no arithmetic at all.

The values are exact, so they are the same canonical rationals as the full elimination's.

>>> from gmpy2 import mpq
>>> vals, m = evaluate_by_cuts([0, 1], lambda s: [(1 - s, mpq(1, 2)), (2, mpq(1, 2))],
...     lambda s: None, lambda t: (mpq(1, 3),))
>>> vals[0], vals[1], m
((mpq(1,3),), (mpq(1,3),), 1)
"""

from __future__ import annotations

from math import lcm as small_lcm
from typing import Any, Callable, Sequence

from gmpy2 import lcm, mpq

from .cuts import cut_values
from .linear import _feedback_order

__all__ = ["evaluate_by_cuts", "exact_sum"]

_ONE = mpq(1)
_ZERO = mpq(0)


def exact_sum(r: Any, d: Sequence[tuple[int, Any]], val: Callable[[int], Any]) -> Any:
    """``r + sum_{(t, p) in d} p val(t)`` as a reduced ``mpq`` (``r``: ``None`` for no reward).

    One common denominator ``L`` (the lcm of the values' denominators, a divisibility test first:
    in a component they mostly differ by small factors) times ``Kp`` (the lcm of the probabilities'
    denominators, small): ``sum p.num (Kp / p.den) x.num (L / x.den) / (L Kp)``, one gcd at the end
    instead of one per addition of reduced rationals.

    >>> exact_sum(mpq(1, 2), [(0, mpq(1, 3)), (1, mpq(2, 3))], [mpq(1, 4), mpq(3, 8)].__getitem__)
    mpq(5,6)
    """
    terms = [(_ONE, r)] if r else []
    for t, p in d:
        x = val(t)
        if x:
            terms.append((p, x))
    if not terms:
        return _ZERO
    if len(terms) == 1:
        p, x = terms[0]
        return x if p == 1 else p * x
    L = None
    Kp = 1
    for p, x in terms:
        b = x.denominator
        if L is None:
            L = b
        elif L % b:
            L = lcm(L, b)
        pd = int(p.denominator)
        if Kp % pd:
            Kp = small_lcm(Kp, pd)
    N = 0
    for p, x in terms:
        pd = int(p.denominator)
        f = p.numerator * (Kp // pd) if pd != Kp else p.numerator
        b = x.denominator
        N += f * x.numerator * (L // b) if b != L else f * x.numerator
    return mpq(N, L * Kp)


def evaluate_by_cuts(nodes: Sequence[int], dist: Callable[[int], Sequence[tuple[int, Any]]],
                     reward: Callable[[int], Sequence[Any] | None], known: Callable[[int], Sequence[Any]]
                     ) -> tuple[dict[int, tuple], int]:
    """Values (1-tuples) of ``nodes`` (all able to leave the component) under a fixed policy, and the
    number of cuts: :func:`.linear.evaluate_component`'s values for one payoff component."""
    in_s = set(nodes)
    order = _feedback_order(nodes, dist, in_s)
    cuts, post, m = cut_values(nodes, dist, reward, known, 1, mpq, (), order, in_s)
    out: dict[int, tuple] = dict(cuts)
    get = out.get

    def value(t: int) -> Any:
        x = get(t)
        return (known(t) if x is None else x)[0]

    for v in post:
        if v in cuts:
            continue
        r = reward(v)
        d = dist(v)
        if r is None and len(d) == 1:  # a sure move: the successor's value itself
            out[v] = (value(d[0][0]),)
        else:
            out[v] = (exact_sum(None if r is None else r[0], d, value),)
    return out, m
