"""Exact policy evaluation of one component in integers over one common denominator.

The same equations and the same elimination as :func:`.linear.evaluate_component` (cut states
from a depth-first search, affine forms in post-order, a small dense system for the cuts), with
one change of number representation.  A reduced rational costs a gcd per addition, and with
the long denominators of dice games (thousands of digits) the gcds are most of the work.  Here:

1. ``D`` is a common multiple of the denominators of every value outside the component and
   every reward the policy uses, one ``D`` per payoff component (an lcm, built with a divisibility
   test first: in games whose values nest, ``D`` is the largest denominator; :func:`common_denominator`)
   -- the caller makes it and gives every outside value and reward as numerators over ``D``;
2. every number of the elimination is an integer numerator over ``D * k`` with ``k`` a product
   of probability denominators (small): a state's constant ``N / (D k)``, and the coefficients
   of the cuts, which involve only probabilities, stay small rationals;
3. the cuts' system ``(I - A) x = c`` is solved through the exact inverse of the small matrix
   ``I - A``: ``x_k = sum_j inv[k][j] c_j``, again numerators over ``D * k``;
4. every value ``constant + sum_k a_k x_k`` as numerators over ``D * K``, not reduced.

:func:`eliminate` is steps 2-4; :func:`.raw_values.evaluate_component_raw` (several payoff
components, values kept unreduced until read) is its caller.  One payoff component goes through
:mod:`.post_values` (the cut values, then one sum per state).

>>> from gmpy2 import mpq
>>> nums = eliminate([1, 0], {0: 0}, {0, 1}, lambda s: [(1 - s, mpq(1, 2)), (2, mpq(1, 2))], {},
...                  {2: [1]}, range(1), mpq)  # V(2) = 1/3: numerator 1 over D = 3
>>> [mpq(int(n[0]), 3 * k) for n, k in (nums[0], nums[1])]
[mpq(1,3), mpq(1,3)]
"""

from __future__ import annotations

from math import lcm as small_lcm
from typing import Any, Callable, Sequence

from gmpy2 import lcm, mpz

from .linear import gauss_solve

__all__ = ["eliminate", "common_denominator"]


def common_denominator(dens) -> Any:
    """Step 1's ``D``: the lcm of the denominators ``dens`` (an ``mpz``), the longest first and each
    one only if it does not divide ``D`` already (in games whose values nest, ``D`` is the largest).

    >>> common_denominator([mpz(4), mpz(6), mpz(12)]), common_denominator([])
    (mpz(12), mpz(1))
    """
    D = mpz(1)
    for b in sorted(dens, key=lambda b: b.bit_length(), reverse=True):
        if D % b:
            D = lcm(D, b)
    return D


def eliminate(post: Sequence[int], unknown: dict[int, int], in_s: set, dist: Callable, rew_num: dict,
              out_num: dict, R: range, mpq: Callable) -> dict[int, tuple[list, int]]:
    """Steps 2-4 of the module's docstring: each state's value as ``(numerators, K)``, the value in
    payoff component ``c`` being ``numerators[c] / (D_c K)``.

    ``post``: the states, successors first, ``unknown``: the cuts (state -> index), ``in_s``: the
    component; ``rew_num[v]`` and ``out_num[t]`` the numerators over ``D_c`` of a state's reward and of
    an outside successor's value (``R``: their components)."""
    # 2. forms in post-order: constant N / (D k), coefficients of the cuts (small rationals)
    forms: dict[int, tuple[list, int, dict]] = {}
    for v in post:
        terms = []  # (scale, multiplier, numerator vector): adds multiplier * vector / (D scale)
        rn = rew_num.get(v)
        if rn is not None:
            terms.append((1, 1, rn))
        coef: dict[int, Any] = {}
        for t, p in dist(v):
            if t not in in_s:
                terms.append((int(p.denominator), p.numerator, out_num[t]))
            elif t in unknown:
                k = unknown[t]
                coef[k] = coef[k] + p if k in coef else p
            else:
                tn, tk, tc = forms[t]
                terms.append((int(p.denominator) * tk, p.numerator, tn))
                for k, a in tc.items():
                    coef[k] = coef[k] + p * a if k in coef else p * a
        forms[v] = _combine(terms, R) + (coef,)
    # 3. the cuts: x = inv(I - A) c, numerators over D * scale
    m = len(unknown)
    xs: list[tuple[list, int]] = []
    if m:
        order = sorted(unknown, key=unknown.get)
        zero, one = mpq(0), mpq(1)
        A = []
        for f in order:
            row = [zero] * m
            row[unknown[f]] = one
            for k, a in forms[f][2].items():
                row[k] = row[k] - a
            A.append(row)
        inv = gauss_solve(A, [[one if i == j else zero for j in range(m)] for i in range(m)], zero)
        for k in range(m):
            terms = []
            for j, f in enumerate(order):
                w = inv[k][j]
                if w:
                    fn, fk, _ = forms[f]
                    terms.append((int(w.denominator) * fk, w.numerator, fn))
            xs.append(_combine(terms, R))
    # 4. values: constant + sum_k a_k x_k
    out: dict[int, tuple[list, int]] = {}
    for v in post:
        k = unknown.get(v)
        if k is not None:
            out[v] = xs[k]
        else:
            fn, fk, coef = forms[v]
            if coef:
                terms = [(fk, 1, fn)]
                for j, a in coef.items():
                    xn, xk = xs[j]
                    terms.append((int(a.denominator) * xk, a.numerator, xn))
                out[v] = _combine(terms, R)
            else:
                out[v] = (fn, fk)
    return out


def _combine(terms: list, R: range) -> tuple[list, int]:
    """``sum multiplier * vector / (D * scale)`` over the terms as ``(numerators, K) / (D * K)``."""
    if not terms:
        return [0] * len(R), 1
    K = terms[0][0]
    for sc, _, _ in terms:
        if sc != K:
            K = small_lcm(K, sc)
    acc = [0] * len(R)
    for sc, mul, vec in terms:
        f = mul * (K // sc) if sc != K else mul
        for c in R:
            x = vec[c]
            if x:
                acc[c] += f * x
    return acc, K
