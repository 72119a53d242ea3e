"""The ball field: python-flint ``arb`` at a working precision, and what balls can certify.

A ball ``m +- r`` is an interval ``[m - r, m + r]``; every ``arb`` operation
rounds outwards, so a value computed from balls that contain exact inputs
contains the exact result.  Comparisons of python-flint balls are *certain or
False*: for overlapping balls ``a < b``, ``a > b``, ``a == b`` are all False,
so ``not (a > b)`` does not mean ``a <= b``.  Every decision is therefore made
by :func:`ball_best_of`: certified when the winner's ball lies strictly above
all others, otherwise *unresolved at this precision*.

Printed decimals are certified by a Ziv loop (:func:`ziv_decimal`): evaluate
at ``p`` bits, and if the ball's two ends do not round to the same decimal (or
the ball is unbounded), evaluate again at ``2p`` bits, up to a cap; rounding is monotone, so when both
ends round to the same string the exact value does too.

>>> with working_precision(64):
...     x = ball_make(1, 3)
>>> lo, hi = endpoints(x)
>>> lo < Fraction(1, 3) < hi and hi.denominator & (hi.denominator - 1) == 0
True
"""

from __future__ import annotations

from contextlib import contextmanager
from dataclasses import dataclass
from fractions import Fraction
from typing import Callable, Sequence

from flint import arb, ctx, fmpq

from ..errors import UsageError

__all__ = ["BALL_TYPE", "ball_make", "check_prec", "ball_best_of", "working_precision", "endpoints", "dyadic", "ZivDecimal", "ziv_decimal", "finite_ends", "certain_decimals", "MIN_PREC", "MAX_PREC"]

MIN_PREC = 16
MAX_PREC = 1 << 20  # bits; a ball of a million bits is already slower than most exact runs


@contextmanager
def working_precision(bits: int):
    """Set python-flint's (global) working precision to ``bits`` for the block."""
    old = ctx.prec
    ctx.prec = bits
    try:
        yield
    finally:
        ctx.prec = old


def _ball_make(p: int, q: int) -> arb:
    return arb(fmpq(p, q))  # rounded once to the working precision, outwards


BALL_TYPE = arb


def ball_make(p: int, q: int) -> arb:
    """The ball of p/q at the working precision (what ``Backend.make`` is for ``ball``)."""
    return _ball_make(p, q)


def check_prec(prec: int) -> int:
    """``prec`` if it is a whole number of bits in 16 .. 2^20, else a :class:`UsageError`."""
    if not isinstance(prec, int) or isinstance(prec, bool) or not MIN_PREC <= prec <= MAX_PREC:
        raise UsageError(f"--prec must be a whole number of bits between {MIN_PREC} and {MAX_PREC}, got {prec!r}")
    return prec


def ball_best_of(values: Sequence[arb]) -> tuple[arb, int, bool]:
    """``(enclosure of the max, index, certified)`` -- see :func:`exactplay.numbers.backends.best_of`.

    >>> with working_precision(53):
    ...     v, i, ok = ball_best_of([arb(1), arb(2), arb("2 +/- 0.5")])
    >>> i, ok
    (1, False)
    >>> with working_precision(53):
    ...     print(ball_best_of([arb(1), arb(3), arb("2 +/- 0.5")])[1:])
    (1, True)
    """
    best = values[0]
    index, top = 0, values[0].mid()
    for i in range(1, len(values)):
        v = values[i]
        best = best.max(v)
        m = v.mid()
        if m > top:
            index, top = i, m
    win = values[index]
    certified = all(win > v for j, v in enumerate(values) if j != index)
    return best, index, certified


def dyadic(x: arb) -> tuple[int, int]:
    """An exact point ball ``m * 2^e`` as the integers ``(m, e)``."""
    m, e = x.man_exp()
    return int(m), int(e)


def _fraction(m: int, e: int) -> Fraction:
    return Fraction(m * (1 << e)) if e >= 0 else Fraction(m, 1 << -e)


def endpoints(x: arb) -> tuple[Fraction, Fraction]:
    """The ball's ends ``mid -+ rad`` as exact (dyadic) rationals (no rounding, any precision)."""
    if not x.is_finite():
        raise ArithmeticError(f"ball {x} is not finite")
    m, r = _fraction(*dyadic(x.mid())), _fraction(*dyadic(x.rad()))
    return m - r, m + r


def certain_decimals(lo: Fraction, hi: Fraction, digits: int) -> int:
    """How many decimals (0..digits) round the same at both ends; -1 if not even the integer part."""
    from .decimals import decimal_digits

    k = -1
    for d in range(digits + 1):
        if decimal_digits(lo, d) != decimal_digits(hi, d):
            break
        k = d
    return k


@dataclass
class ZivDecimal:
    """The outcome of :func:`ziv_decimal`: a certified decimal, or how many digits are certain.

    ``lower``/``upper``: the last ball's exact ends, None when that ball is unbounded (a division
    by a ball that contains 0, at a precision too low for the instance).  Shown by
    :mod:`exactplay.present.render.enclosure`.
    """

    digits: int
    rounded: str | None  # the exact value's rounding to ``digits`` decimals, if certified
    certain_digits: int  # decimals that round the same at both ends of the last ball (-1: none)
    prec: int  # the precision of the last evaluation
    lower: Fraction | None
    upper: Fraction | None
    evaluations: int


def finite_ends(x: arb) -> tuple[Fraction, Fraction] | tuple[None, None]:
    """:func:`endpoints`, or ``(None, None)`` for an unbounded ball (python-flint prints it ``nan``).

    >>> with working_precision(16):
    ...     finite_ends(arb(1) / (arb(1) - arb(fmpq(1048575, 1048576))))
    (None, None)
    """
    return endpoints(x) if x.is_finite() else (None, None)


def ziv_decimal(evaluate: Callable[[int], arb], digits: int, prec: int, max_prec: int | None = None) -> ZivDecimal:
    """Ziv's loop: ``evaluate(p)`` (a ball containing the exact value) at ``p = prec, 2 prec, ...``
    until both ends of the ball round to the same ``digits`` decimals, or ``p`` passes ``max_prec``.

    >>> z = ziv_decimal(lambda p: arb(fmpq(2, 3)), 8, 64)
    >>> z.rounded, z.evaluations
    ('0.66666667', 1)
    """
    from .decimals import decimal_digits

    max_prec = max(prec, 8 * prec if max_prec is None else max_prec)
    p, n = prec, 0
    while True:
        with working_precision(p):
            x = evaluate(p)
        n += 1
        lo, hi = finite_ends(x)
        if lo is not None:
            r_lo = decimal_digits(lo, digits)
            if r_lo == decimal_digits(hi, digits):
                return ZivDecimal(digits, r_lo, digits, p, lo, hi, n)
        if 2 * p > max_prec:
            return ZivDecimal(digits, None, -1 if lo is None else certain_decimals(lo, hi, digits), p, lo, hi, n)
        p *= 2
