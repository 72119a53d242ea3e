"""A-priori bounds on the error of the seed's two programs run in float.

With ``u = 2^-53`` and ``A = sum |v_i|``: the first DP's error is at most
``(n + 1) u A``, the second's at most ``(n^2 + 2n) u A``.
"""

from __future__ import annotations

import math
from fractions import Fraction
from typing import Any, Sequence

from exactplay.numbers.backends import UNIT_ROUNDOFF, as_fraction

SLACK = 1 + 2.0**-30  # covers the rounding of the bound itself and |float partial sums| > A


def abs_sum(row: Sequence[Any]) -> float:
    """``A = sum |v|`` rounded up (as a float)."""
    A = sum((abs(as_fraction(c)) for c in row), Fraction(0))
    a = float(A)
    return a if Fraction(a) >= A else math.nextafter(a, math.inf)


def bound_dp_min(row: Sequence[Any]) -> tuple[float, str]:
    """First DP: a cell adds one rounded coin and one rounded addition (each <= u A) to
    the error of a cell two shorter; ``min``/``max`` never increase an error.  So
    ``E(len) <= E(len - 2) + 2 u A`` and ``E(n) <= (n + 1) u A``."""
    n = len(row)
    A = abs_sum(row)
    return (n + 1) * UNIT_ROUNDOFF * A * SLACK, f"(n+1) u A, n = {n}, A = sum|v| = {A:.6g}"


def bound_dp_sum(row: Sequence[Any]) -> tuple[float, str]:
    """Second DP: ``Sum(len)`` carries ``<= 2 len u A`` (coins and additions), and
    ``C(len) = Sum - C(len - 1)`` adds one more rounding: ``E(len) <= (len^2 + 2 len) u A``."""
    n = len(row)
    A = abs_sum(row)
    return (n * n + 2 * n) * UNIT_ROUNDOFF * A * SLACK, f"(n^2+2n) u A, n = {n}, A = sum|v| = {A:.6g}"
