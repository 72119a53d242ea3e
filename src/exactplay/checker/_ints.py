"""The checker's big integers: gmpy2's ``mpz`` when it is installed, Python ints otherwise.

Only the *speed* of multiplying huge integers changes (GMP multiplies 500,000-bit
numbers by FFT; CPython by Karatsuba): every check is the same integer arithmetic.
``exactplay check --stdlib`` (or :func:`use_stdlib`) forces Python ints, so
the checker can be run with the standard library alone.
"""

from __future__ import annotations

import math

try:
    import gmpy2 as _gmpy2
except ImportError:  # pragma: no cover - gmpy2 is a dependency, the stdlib path is tested with use_stdlib
    _gmpy2 = None

__all__ = ["big", "gcd", "ratio", "read_int", "use_stdlib", "using_gmpy2"]

_use_gmpy2 = _gmpy2 is not None


def use_stdlib(flag: bool = True) -> None:
    """Force Python ints (``True``) or use gmpy2 when it is installed (``False``)."""
    global _use_gmpy2
    _use_gmpy2 = (not flag) and _gmpy2 is not None


def using_gmpy2() -> bool:
    return _use_gmpy2


def big(x: int):
    """``x`` as the checker's big integer type."""
    return _gmpy2.mpz(x) if _use_gmpy2 else int(x)


def read_int(text: str):
    """The integer a checked decimal text (digits, an optional minus sign) spells: GMP's conversion
    when installed (quasi-linear: a 10^6-digit number in milliseconds), else ``int()`` (quadratic)."""
    return _gmpy2.mpz(text) if _use_gmpy2 else int(text)


def gcd(a, b):
    return _gmpy2.gcd(a, b) if _use_gmpy2 else math.gcd(a, b)


def ratio(n, d):
    """``n/d`` in lowest terms: gmpy2's ``mpq`` (GMP's fast gcd) or :class:`fractions.Fraction`.

    Both compare and add exactly with each other and with ints.
    """
    if _use_gmpy2:
        return _gmpy2.mpq(n, d)
    from fractions import Fraction

    return Fraction(int(n), int(d))
