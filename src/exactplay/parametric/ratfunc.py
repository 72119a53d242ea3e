"""Rational functions in one variable over Q, always reduced: ``num / den``, ``gcd = 1``, ``den`` monic.

The field operations the engine's exact linear algebra (:mod:`exactplay.engine.elimination`) uses:
``+ - * /``, ``1 / x``, ``==`` and truthiness, so a fixed policy is evaluated over ``Q(p)`` by the
same code that evaluates it over ``Q``.

>>> p = RatFunc(fmpq_poly([0, 1]))
>>> x = (1 - p) / (1 + p) + 2 * p / (1 + p)
>>> x.num, x.den
(1, 1)
>>> (p / (p * p)).den
x
>>> (1 / (2 - 2 * p)).at(Fraction(1, 3))
Fraction(3, 4)
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from flint import fmpq, fmpq_poly

__all__ = ["RatFunc", "ONE", "ZERO"]

_ONE_POLY = fmpq_poly([1])


def _lift(x: Any) -> "RatFunc":
    if isinstance(x, RatFunc):
        return x
    if isinstance(x, fmpq_poly):
        return RatFunc(x)
    if isinstance(x, Fraction):
        return RatFunc(fmpq_poly([fmpq(x.numerator, x.denominator)]))
    if isinstance(x, (int, fmpq)) and not isinstance(x, bool):
        return RatFunc(fmpq_poly([x]))
    return NotImplemented


class RatFunc:
    __slots__ = ("num", "den")

    def __init__(self, num: fmpq_poly, den: fmpq_poly = _ONE_POLY, reduced: bool = False) -> None:
        if den.is_zero():
            raise ZeroDivisionError("rational function with zero denominator")
        if not reduced and not den.is_one():
            if num.is_zero():
                den = _ONE_POLY
            else:
                g = num.gcd(den)  # monic
                if not g.is_one():
                    num, den = _exact_div(num, g), _exact_div(den, g)
            lc = den.leading_coefficient()
            if lc != 1:
                num, den = num / lc, den / lc
        self.num, self.den = num, den

    # arithmetic ----------------------------------------------------------
    def __add__(self, x):
        y = _lift(x)
        if y is NotImplemented:
            return y
        if self.den == y.den:
            return RatFunc(self.num + y.num, self.den)
        if self.den.is_one():
            return RatFunc(self.num * y.den + y.num, y.den, reduced=True)
        if y.den.is_one():
            return RatFunc(self.num + y.num * self.den, self.den, reduced=True)
        g = self.den.gcd(y.den)
        if g.is_one():
            return RatFunc(self.num * y.den + y.num * self.den, self.den * y.den, reduced=True)
        a, b = _exact_div(self.den, g), _exact_div(y.den, g)
        return RatFunc(self.num * b + y.num * a, a * y.den)

    __radd__ = __add__

    def __neg__(self):
        return RatFunc(-self.num, self.den, reduced=True)

    def __sub__(self, x):
        y = _lift(x)
        return y if y is NotImplemented else self + (-y)

    def __rsub__(self, x):
        y = _lift(x)
        return y if y is NotImplemented else y + (-self)

    def __mul__(self, x):
        y = _lift(x)
        if y is NotImplemented:
            return y
        if self.num.is_zero() or y.num.is_zero():
            return ZERO
        if self.den.is_one() and y.den.is_one():
            return RatFunc(self.num * y.num, _ONE_POLY, reduced=True)
        g1, g2 = self.num.gcd(y.den), y.num.gcd(self.den)
        n1, d2 = (_exact_div(self.num, g1), _exact_div(y.den, g1)) if not g1.is_one() else (self.num, y.den)
        n2, d1 = (_exact_div(y.num, g2), _exact_div(self.den, g2)) if not g2.is_one() else (y.num, self.den)
        return RatFunc(n1 * n2, d1 * d2, reduced=True)._monic()

    __rmul__ = __mul__

    def inverse(self) -> "RatFunc":
        if self.num.is_zero():
            raise ZeroDivisionError("inverse of the zero rational function")
        return RatFunc(self.den, self.num, reduced=True)._monic()

    def __truediv__(self, x):
        y = _lift(x)
        return y if y is NotImplemented else self * y.inverse()

    def __rtruediv__(self, x):
        y = _lift(x)
        return y if y is NotImplemented else y * self.inverse()

    def _monic(self) -> "RatFunc":
        lc = self.den.leading_coefficient()
        if lc != 1:
            self.num, self.den = self.num / lc, self.den / lc
        return self

    # comparisons with zero only (the linear algebra needs no more) -------
    def __eq__(self, x):
        y = _lift(x)
        if y is NotImplemented:
            return NotImplemented
        return self.num == y.num and self.den == y.den

    def __ne__(self, x):
        r = self.__eq__(x)
        return r if r is NotImplemented else not r

    __hash__ = None

    def __bool__(self) -> bool:
        return not self.num.is_zero()

    def at(self, r: Fraction) -> Fraction:
        q = fmpq(r.numerator, r.denominator)
        d = self.den(q)
        if d == 0:
            raise ZeroDivisionError(f"denominator vanishes at {r}")
        v = self.num(q) / d
        return Fraction(int(v.p), int(v.q))

    def degree(self) -> int:
        return max(self.num.degree(), self.den.degree())

    def __repr__(self) -> str:
        return f"({self.num}) / ({self.den})"


def _exact_div(a: fmpq_poly, b: fmpq_poly) -> fmpq_poly:
    q, r = divmod(a, b)
    assert r.is_zero()
    return q


ZERO = RatFunc(fmpq_poly([]))
ONE = RatFunc(fmpq_poly([1]))
