"""Exact rationals correctly rounded to decimals (no dependence on the rest of exactplay)."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

__all__ = ["decimal_digits"]


def _exact(x: Any) -> Fraction:
    """``x`` (int, Fraction or gmpy2 mpq) as a Fraction; floats and bools are refused."""
    if isinstance(x, bool) or isinstance(x, float):
        raise TypeError(f"{type(x).__name__} value {x!r} is not an exact rational")
    if isinstance(x, (int, Fraction)):
        return Fraction(x)
    num, den = getattr(x, "numerator", None), getattr(x, "denominator", None)
    if num is None or den is None or isinstance(num, float):
        raise TypeError(f"{type(x).__name__} value {x!r} is not an exact rational")
    return Fraction(int(num), int(den))


def decimal_digits(x: Any, digits: int) -> str:
    """``x`` correctly rounded to ``digits`` decimals (ties to even), as text.

    >>> decimal_digits(Fraction(71, 135), 8)
    '0.52592593'
    >>> decimal_digits(Fraction(-5, 2), 0), decimal_digits(Fraction(1, 8), 2)
    ('-2', '0.12')
    """
    f = _exact(x)
    scaled = f * 10**digits
    n = round(scaled)  # Fraction.__round__ rounds half to even, exactly
    sign = "-" if n < 0 else ""
    s = str(abs(n)).rjust(digits + 1, "0")
    return f"{sign}{s[:-digits]}.{s[-digits:]}" if digits > 0 else f"{sign}{s}"
