"""Polynomials in one parameter ``p`` with rational coefficients, as a game's code sees them.

A factory called with ``--param-symbol p`` receives :class:`Param` objects instead of a
rational for ``p``: ``1 - p``, ``p*p``, ``p**3``, ``Fraction(1, 6)*p``, ``p/2`` and sums of them
stay polynomials in ``Q[p]`` (python-flint's ``fmpq_poly`` underneath).  Floats are refused,
and so is anything that would need the value of ``p`` (comparisons, ``bool``, ``int``, division
by a polynomial): the model's structure must not depend on ``p``.

>>> p = Param.symbol("p")
>>> q = 1 - p * p / 2
>>> q
1 - 1/2*p^2
>>> q.at(Fraction(1, 2))
Fraction(7, 8)
>>> coeff_strings(q.poly)
['1/1', '0/1', '-1/2']
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from flint import fmpq, fmpq_poly

__all__ = ["Param", "ParamError", "as_poly", "coeff_strings", "poly_text", "to_fraction"]

MAX_DEGREE = 10_000


class ParamError(TypeError):
    """A parametric probability was used in a way that needs the value of the parameter."""


def to_fraction(x: Any) -> Fraction:
    """A flint ``fmpq`` (or int) as a :class:`Fraction`."""
    if isinstance(x, fmpq):
        return Fraction(int(x.p), int(x.q))
    return Fraction(x)


def _scalar(x: Any) -> fmpq | None:
    """An exact scalar as ``fmpq``; ``None`` for what is not one (floats raise)."""
    if isinstance(x, bool):
        return None
    if isinstance(x, float):
        raise ParamError(f"{x!r} is a float: give an exact rational (int or Fraction)")
    if isinstance(x, int):
        return fmpq(x)
    if isinstance(x, Fraction):
        return fmpq(x.numerator, x.denominator)
    if isinstance(x, fmpq):
        return x
    num, den = getattr(x, "numerator", None), getattr(x, "denominator", None)
    if isinstance(num, int) or type(num).__name__ == "mpz":  # gmpy2 mpq / mpz
        return fmpq(int(num), int(den))
    return None


def as_poly(x: Any) -> fmpq_poly | None:
    """``x`` as a polynomial (a :class:`Param` or an exact scalar), else ``None``."""
    if isinstance(x, Param):
        return x.poly
    c = _scalar(x)
    return None if c is None else fmpq_poly([c])


class Param:
    """A polynomial in the parameter: arithmetic with exact rationals and other ``Param``."""

    __slots__ = ("poly", "name")

    def __init__(self, poly: fmpq_poly, name: str = "p") -> None:
        if poly.degree() > MAX_DEGREE:
            raise ParamError(f"a polynomial of degree {poly.degree()} in {name} (at most {MAX_DEGREE})")
        self.poly = poly
        self.name = name

    @classmethod
    def symbol(cls, name: str = "p") -> "Param":
        return cls(fmpq_poly([0, 1]), name)

    def _other(self, x: Any) -> fmpq_poly:
        q = as_poly(x)
        if q is None:
            raise ParamError(f"cannot combine the parameter {self.name} with {type(x).__name__} {x!r}")
        return q

    def __add__(self, x):
        return Param(self.poly + self._other(x), self.name)

    __radd__ = __add__

    def __sub__(self, x):
        return Param(self.poly - self._other(x), self.name)

    def __rsub__(self, x):
        return Param(self._other(x) - self.poly, self.name)

    def __mul__(self, x):
        return Param(self.poly * self._other(x), self.name)

    __rmul__ = __mul__

    def __neg__(self):
        return Param(-self.poly, self.name)

    def __pos__(self):
        return self

    def __truediv__(self, x):
        q = self._other(x)
        if q.degree() > 0:
            raise ParamError(f"division by a polynomial in {self.name}: probabilities must be polynomials in "
                             f"{self.name} (write the model so that they are)")
        if q.is_zero():
            raise ZeroDivisionError("division by zero")
        return Param(self.poly / q[0], self.name)

    def __rtruediv__(self, x):
        if self.poly.degree() > 0:
            raise ParamError(f"division by a polynomial in {self.name}: probabilities must be polynomials in "
                             f"{self.name} (write the model so that they are)")
        return Param(self._other(x) / self.poly[0], self.name)

    def __pow__(self, k):
        if isinstance(k, bool) or not isinstance(k, int) or k < 0:
            raise ParamError(f"{self.name} ** {k!r}: only non-negative integer powers keep a polynomial")
        if self.poly.degree() * k > MAX_DEGREE:
            raise ParamError(f"{self.name} ** {k}: degree above {MAX_DEGREE}")
        return Param(self.poly ** k, self.name)

    def __eq__(self, x):
        q = as_poly(x)
        return q is not None and self.poly == q

    def __hash__(self):
        return hash(tuple(int(c.p) * 7919 + int(c.q) for c in self.poly.coeffs()))

    def _needs_value(self, *_):
        raise ParamError(f"the game's code compares or converts the parameter {self.name} ({self}): the "
                         f"model's structure must not depend on {self.name}")

    __lt__ = __le__ = __gt__ = __ge__ = _needs_value
    __bool__ = __int__ = __float__ = __index__ = _needs_value

    def at(self, r: Fraction) -> Fraction:
        return to_fraction(self.poly(fmpq(r.numerator, r.denominator)))

    def __repr__(self) -> str:
        return poly_text(self.poly, self.name)

    __str__ = __repr__


def poly_text(f: fmpq_poly, name: str = "p") -> str:
    """Readable text, lowest degree first.

    >>> poly_text(fmpq_poly([1, -2, 0, 3]))
    '1 - 2*p + 3*p^3'
    """
    terms = []
    for k, c in enumerate(f.coeffs()):
        if c == 0:
            continue
        mag = -c if c < 0 else c
        coef = "" if (mag == 1 and k > 0) else str(mag)
        mono = "" if k == 0 else (name if k == 1 else f"{name}^{k}")
        body = coef + ("*" if coef and mono else "") + mono
        terms.append(("-" if c < 0 else "+", body))
    if not terms:
        return "0"
    out = ("-" if terms[0][0] == "-" else "") + terms[0][1]
    for sign, body in terms[1:]:
        out += f" {sign} {body}"
    return out


def coeff_strings(f: fmpq_poly) -> list[str]:
    """Coefficients, lowest degree first, as ``"p/q"`` (the zero polynomial is ``[]``)."""
    return [f"{int(c.p)}/{int(c.q)}" for c in f.coeffs()]
