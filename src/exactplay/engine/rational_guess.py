"""Exact values from float ones, when they are simple: guess the simplest nearby fractions, then prove.

For the system ``x_i = b_i + sum_j q_ij x_j`` of a component under a policy (``I - Q`` invertible), a
vector that satisfies every equation exactly is *the* solution.  So float values (from a sparse LU)
rounded to the simplest fractions within a relative ``1e-9`` (continued fractions, denominators up to
``2^32``) and checked equation by equation, in the exact numbers, are exact values whenever the check
passes: one sparse product instead of an elimination.  Where the true values have long denominators
(the dice games' hundreds of digits) the guess fails at the first equation and the caller eliminates.
This is Storm's "rational search" (Bauer et al., FMSD 2020), here with the check that makes it exact.

>>> simplest_near(0.3333333333333333), simplest_near(192.0000000001), simplest_near(0.1 + 0.2)
((1, 3), (192, 1), (3, 10))
"""

from __future__ import annotations

from math import floor
from typing import Any

__all__ = ["simplest_near", "verified_guess", "MAX_DEN"]

MAX_DEN = 2 ** 32
REL = 1e-9


def simplest_near(x: float, rel: float = REL, max_den: int = MAX_DEN) -> tuple[int, int] | None:
    """The first continued-fraction convergent ``p/q`` of ``x`` within ``rel * max(1, |x|)``, or ``None``
    when its denominator would pass ``max_den`` first (or ``x`` is not finite)."""
    if x != x or x in (float("inf"), float("-inf")):
        return None
    tol = rel * max(1.0, abs(x))
    a = floor(x)
    p0, q0, p1, q1 = 1, 0, a, 1
    r = x - a
    while abs(x - p1 / q1) > tol:
        if r == 0.0 or q1 > max_den:
            return None
        r = 1.0 / r
        a = floor(r)
        r -= a
        p0, q0, p1, q1 = p1, q1, a * p1 + p0, a * q1 + q0
    return (p1, q1) if q1 <= max_den else None


def verified_guess(rows: list[dict[int, Any]], b: list[list[Any]], xf, make) -> list[list[Any]] | None:
    """The exact solution of ``x_i = b_i + sum_j rows[i][j] x_j`` (one component: ``b_i = [number]``) from the
    floats ``xf``, if their simplest nearby fractions satisfy every equation exactly; else ``None``."""
    x = []
    for f in xf:
        g = simplest_near(float(f))
        if g is None:
            return None
        x.append(make(*g))
    for i, row in enumerate(rows):
        acc = b[i][0]
        for j, w in row.items():
            acc = acc + w * x[j]
        if acc != x[i]:
            return None
    return [[v] for v in x]
