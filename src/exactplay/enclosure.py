"""Certified comparison: balls that contain exact values, exact arithmetic only where they overlap.

A decision between actions needs the exact values only of the actions that
can be the best or the runner-up.  :func:`ball` encloses an exact rational in
a ball of python-flint's ``arb`` (midpoint and radius, every operation
rounded outwards, exponents unbounded: no overflow, no underflow); the value
of an action, ``r + sum p * V(t)``, is then a ball computed from the balls of
``p`` and ``V(t)`` that is **guaranteed to contain** the exact value.  An
action whose ball lies entirely below the balls of two other actions is
neither the best nor the runner-up, whatever the exact values are; every
other action is evaluated exactly (:func:`may_be_top_two`).  Nothing is
decided by a float: the balls only rule out, and the exact comparison decides.

How a ball is made without reading a huge number whole: with ``P`` = 64 and
``k = max(0, bits(n) - P)``, ``a = floor(n / 2^k)`` gives ``a 2^k <= n < (a+1) 2^k``,
so ``n`` lies in the ball ``(a + 1/2) 2^k +- 2^(k-1)`` (exactly ``a`` when k = 0);
the same for the denominator, and the quotient of two balls contains ``n/d``.

>>> from fractions import Fraction
>>> b = ball(Fraction(1, 3))
>>> bool(b.lower() < arb(1) / 3 < b.upper()) or b.contains(arb(1) / 3)
True
>>> may_be_top_two([ball(Fraction(1)), ball(Fraction(1, 2)), ball(Fraction(1, 3))])
[0, 1]
"""

from __future__ import annotations

from typing import Any, Sequence

from flint import arb

__all__ = ["ball", "may_be_top_two", "PRECISION_BITS"]

PRECISION_BITS = 64
_TWO = arb(2)


def _int_ball(n: int) -> arb:
    """A ball containing the non-negative integer ``n``, from its leading bits only."""
    k = max(0, int(n.bit_length()) - PRECISION_BITS)
    if k == 0:
        return arb(int(n))
    a = int(n >> k)
    # a 2^k <= n < (a + 1) 2^k
    return arb(2 * a + 1, 1) * (_TWO ** (k - 1))


def ball(x: Any) -> arb:
    """A ball containing the exact rational ``x`` (``int``, ``Fraction`` or gmpy2 ``mpq``)."""
    if isinstance(x, int):
        n, d = x, 1
    else:
        n, d = x.numerator, x.denominator
    if n == 0:
        return arb(0)
    neg = n < 0
    b = _int_ball(-n if neg else n) / _int_ball(d)
    return -b if neg else b


def may_be_top_two(balls: Sequence[arb]) -> list[int]:
    """Indices of the balls that can hold the largest or the second-largest value.

    Ball ``i`` is ruled out only when two other balls lie entirely above it.
    """
    if len(balls) <= 2:
        return list(range(len(balls)))
    lowers = sorted(((b.lower(), i) for i, b in enumerate(balls)), key=lambda t: t[0], reverse=True)
    out = []
    for i, b in enumerate(balls):
        above = 0
        up = b.upper()
        for lo, j in lowers:
            if not lo > up:
                break
            if j != i:
                above += 1
                if above == 2:
                    break
        if above < 2:
            out.append(i)
    return out
