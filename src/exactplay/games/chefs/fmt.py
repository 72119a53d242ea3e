"""Exact numbers of Chef Showdown as text, fast for values of hundreds of thousands of digits."""

from __future__ import annotations

try:
    from gmpy2 import mpq, mpz
except ImportError:  # the fraction backend still works; mpq is refused by get_backend
    mpq, mpz = None, int


def decimal_text(x, digits: int) -> str:
    """``x`` correctly rounded to ``digits`` decimals, ties to even (as
    :func:`exactplay.audit.judge.decimal_digits`), in GMP integer arithmetic."""
    num, den = mpz(x.numerator), mpz(x.denominator)
    q, r = divmod(abs(num) * 10**digits, den)
    if 2 * r > den or (2 * r == den and q % 2 == 1):
        q += 1
    sign = "-" if num < 0 and q else ""
    text = str(q).rjust(digits + 1, "0")
    return f"{sign}{text[:-digits]}.{text[-digits:]}" if digits > 0 else f"{sign}{text}"


def _decimals(xs, digits: int) -> list[str]:
    return [decimal_text(x, digits) for x in xs]
