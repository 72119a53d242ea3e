"""Exact rationals correctly rounded to decimals, and the digits of big integers (no dependence on
the rest of exactplay)."""

from __future__ import annotations

import sys
from contextlib import contextmanager
from fractions import Fraction
from typing import Any

__all__ = ["all_digits", "decimal_digits", "sci", "GUARDED_BITS"]

# An int of more bits than this may have more than 4,300 decimal digits (Python's default guard on
# int <-> str conversion, ``sys.get_int_max_str_digits``): 4300 / log10(2) = 14,284 bits.
GUARDED_BITS = 14_000


@contextmanager
def all_digits():
    """Python's guard on int <-> str conversion lifted inside the block, and set back after it.

    The guard is for untrusted text, which never reaches ``int()`` unbounded here (every reader
    checks a number's length first; certificates are read with the checker's own bound); exact
    values routinely have more digits, and the writers of ``"p/q"``, of decimals and of JSON, and
    the command line, convert them inside this block.  ``import exactplay`` changes nothing.

    >>> import sys
    >>> before = sys.get_int_max_str_digits()
    >>> with all_digits():
    ...     len(str(10**5000))
    5001
    >>> sys.get_int_max_str_digits() == before
    True
    """
    if not hasattr(sys, "get_int_max_str_digits"):  # Python < 3.11: no guard
        yield
        return
    old = sys.get_int_max_str_digits()
    sys.set_int_max_str_digits(0)
    try:
        yield
    finally:
        sys.set_int_max_str_digits(old)


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
    if n.bit_length() > GUARDED_BITS:
        with all_digits():
            s = str(abs(n)).rjust(digits + 1, "0")
    else:
        s = str(abs(n)).rjust(digits + 1, "0")
    return f"{sign}{s[:-digits]}.{s[-digits:]}" if digits > 0 else f"{sign}{s}"


def sci(x: Any) -> str:
    """``x`` shown in scientific notation (3 digits, through its float), never raising on values beyond
    the double range.

    >>> sci(Fraction(1, 3)), sci(Fraction(10**400)), sci(-Fraction(10**400))
    ('3.333e-01', 'beyond +1.8e+308', 'beyond -1.8e+308')
    """
    try:
        return f"{float(x):.3e}"
    except OverflowError:
        return "beyond +1.8e+308" if x > 0 else "beyond -1.8e+308"
