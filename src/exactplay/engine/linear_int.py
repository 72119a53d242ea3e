"""Exact policy evaluation of one component in integers over one common denominator.

The same equations and the same elimination as :func:`.linear.evaluate_component` (cut states
from a depth-first search, affine forms in post-order, a small dense system for the cuts), with
one change of number representation.  A reduced rational costs a gcd per addition, and with
the long denominators of dice games (thousands of digits) the gcds are most of the work.  Here:

* ``D`` is a common multiple of the denominators of every value outside the component and
  every reward the policy uses, one ``D`` per payoff component (an lcm, built with a divisibility test first: in games whose
  values nest, ``D`` is the largest denominator and costs one division per value);
* every number of the elimination is an integer numerator over ``D * k`` with ``k`` a product
  of probability denominators (small): a state's constant ``N / (D k)``, and the coefficients
  of the cuts, which involve only probabilities, stay small rationals;
* the cuts' system ``(I - A) x = c`` is solved through the exact inverse of the small matrix
  ``I - A``: ``x_k = sum_j inv[k][j] c_j``, again numerators over ``D * k``;
* each value is reduced once, at the end: ``mpq(N, D k)``, one gcd per value (the same
  canonical rational as before, so every comparison downstream is unchanged).

Only for gmpy2 ``mpq`` numbers (their numerators are ``mpz``); other backends use
:mod:`.linear`.

>>> from gmpy2 import mpq
>>> vals, m = evaluate_component_int([0, 1], lambda s: [(1 - s, mpq(1, 2)), (2, mpq(1, 2))],
...     lambda s: None, lambda t: (mpq(1, 3),), 1, mpq)
>>> vals[0], vals[1], m
((mpq(1,3),), (mpq(1,3),), 1)
"""

from __future__ import annotations

from math import lcm as small_lcm
from typing import Any, Callable, Sequence

from gmpy2 import lcm, mpz

from .linear import _feedback_order, gauss_solve

__all__ = ["evaluate_component_int", "eliminate"]


def evaluate_component_int(
    nodes: Sequence[int],
    dist: Callable[[int], Sequence[tuple[int, Any]]],
    reward: Callable[[int], Sequence[Any] | None],
    known: Callable[[int], Sequence[Any]],
    n_comp: int,
    mpq: Callable,
) -> tuple[dict[int, tuple], int]:
    """Values of ``nodes`` (all able to leave the component) under a fixed policy, and the
    number of cuts: :func:`.linear.evaluate_component` for ``mpq`` numbers."""
    in_s = set(nodes)
    unknown, post = _feedback_order(nodes, dist, in_s)
    R = range(n_comp)
    # 1. the common denominator D and every outside value / reward as numerators over D
    outside: dict[int, Any] = {}
    rewards: dict[int, Any] = {}
    dens: list[dict] = [{} for _ in R]  # per payoff component: the denominators met
    for v in post:
        r = reward(v)
        if r is not None:
            rewards[v] = r
            for c in R:
                if r[c]:
                    dens[c][r[c].denominator] = None
        for t, _ in dist(v):
            if t not in in_s and t not in outside:
                kv = outside[t] = known(t)
                for c in R:
                    if kv[c]:
                        dens[c][kv[c].denominator] = None
    Ds = []  # one common denominator per payoff component (their values' denominators differ a lot)
    for c in R:
        D = mpz(1)
        for b in sorted(dens[c], key=lambda b: b.bit_length(), reverse=True):
            if D % b:
                D = lcm(D, b)
        Ds.append(D)
    over: list[dict] = [{} for _ in R]  # per component: denominator -> D_c // denominator

    def numerators(vec) -> list:
        out = []
        for c in R:
            x = vec[c]
            if x:
                b = x.denominator
                f = over[c].get(b)
                if f is None:
                    f = over[c][b] = Ds[c] // b
                out.append(x.numerator * f)
            else:
                out.append(0)
        return out

    out_num = {t: numerators(kv) for t, kv in outside.items()}
    rew_num = {v: numerators(r) for v, r in rewards.items()}
    nums = eliminate(post, unknown, in_s, dist, rew_num, out_num, R, mpq)
    out: dict[int, tuple] = {}
    for v in post:  # each value reduced once
        num, scale = nums[v]
        out[v] = tuple(mpq(num[c], Ds[c] * scale) if num[c] else mpq(0) for c in R)
    return out, len(unknown)


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
