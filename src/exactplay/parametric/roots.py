"""Exact real roots: irreducible factors (python-flint) and isolating intervals (sympy).

A breakpoint is an :class:`Algebraic` number: a root of an irreducible integer polynomial ``F``
(its minimal polynomial, primitive with a positive leading coefficient) together with an
interval ``(lo, hi)`` with rational ends that contains that root and no other root of ``F``.
Two roots of distinct irreducible polynomials are distinct, so comparing them only needs the
intervals refined (bisection on the sign of ``F`` at rational midpoints) until they are disjoint.

>>> f = fmpq_poly([-2, 0, 1])                      # p^2 - 2
>>> [r.decimal(6) for r in real_roots(f, Fraction(0), Fraction(2))]
['1.414214']
>>> a = real_roots(f, Fraction(0), Fraction(2))[0]
>>> a < Fraction(3, 2), a > Fraction(7, 5)
(True, True)
"""

from __future__ import annotations

from fractions import Fraction
from typing import Iterable

from flint import fmpq, fmpq_poly, fmpz_poly

from ..numbers.backends import format_pq
from ..numbers.decimals import decimal_digits

__all__ = ["Algebraic", "irreducible_factors", "real_roots", "integer_poly", "sign_at", "roots_of_irreducible"]


def integer_poly(f: fmpq_poly) -> fmpz_poly:
    """``f`` scaled to a primitive integer polynomial with a positive leading coefficient."""
    g = fmpz_poly([int(c) for c in (f * f.denom()).numer().coeffs()]) if not f.is_zero() else fmpz_poly([])
    if g.is_zero():
        return g
    c = g.content()
    g = fmpz_poly([x // c for x in g.coeffs()])
    return -g if g.leading_coefficient() < 0 else g


def irreducible_factors(polys: Iterable[fmpq_poly]) -> list[fmpz_poly]:
    """The distinct non-constant irreducible factors of the given polynomials (flint's factoring)."""
    seen: dict[tuple, fmpz_poly] = {}
    for f in polys:
        if f.is_zero() or f.degree() < 1:
            continue
        g = integer_poly(f)
        key = tuple(int(c) for c in g.coeffs())
        if key in seen:
            continue
        seen[key] = None  # placeholder: this whole polynomial was factored
        for h, _ in g.factor()[1]:
            h = -h if h.leading_coefficient() < 0 else h
            seen.setdefault(("f",) + tuple(int(c) for c in h.coeffs()), h)
    return [h for k, h in seen.items() if k and k[0] == "f"]


def sign_at(f, r: Fraction) -> int:
    v = f(fmpq(r.numerator, r.denominator))
    return (v > 0) - (v < 0)


class Algebraic:
    """The unique root of ``poly`` in the open interval ``(lo, hi)`` (rational when ``poly`` is linear)."""

    __slots__ = ("poly", "lo", "hi", "exact")

    def __init__(self, poly: fmpz_poly, lo: Fraction, hi: Fraction) -> None:
        self.poly = poly
        self.exact = None
        if poly.degree() == 1:
            c0, c1 = poly.coeffs()
            self.exact = Fraction(-int(c0), int(c1))
        self.lo, self.hi = lo, hi

    def refine(self) -> None:
        """Halve the isolating interval."""
        if self.exact is not None:
            w = (self.hi - self.lo) / 4
            self.lo, self.hi = self.exact - w, self.exact + w
            return
        mid = (self.lo + self.hi) / 2
        if sign_at(self.poly, mid) == sign_at(self.poly, self.lo):
            self.lo = mid
        else:
            self.hi = mid

    def _cmp(self, other) -> int:
        if isinstance(other, Algebraic):
            if self.exact is not None and other.exact is not None:
                return (self.exact > other.exact) - (self.exact < other.exact)
            if self.poly == other.poly:
                # each interval holds one simple root: the same root iff it lies in the intersection
                a, b = max(self.lo, other.lo), min(self.hi, other.hi)
                if a < b and sign_at(self.poly, a) != sign_at(self.poly, b):
                    return 0
            while True:
                if self.hi <= other.lo:
                    return -1
                if other.hi <= self.lo:
                    return 1
                self.refine()
                other.refine()
        x = Fraction(other)
        if self.exact is not None:
            return (self.exact > x) - (self.exact < x)
        while True:
            if self.hi <= x:
                return -1
            if x <= self.lo:
                return 1
            self.refine()  # x is rational, the root is not (degree >= 2, irreducible)

    def __lt__(self, o):
        return self._cmp(o) < 0

    def __gt__(self, o):
        return self._cmp(o) > 0

    def __le__(self, o):
        return self._cmp(o) <= 0

    def __ge__(self, o):
        return self._cmp(o) >= 0

    def decimal(self, digits: int = 12) -> str:
        """The root rounded to ``digits`` decimals (refines a copy: the stored interval stays as it is)."""
        if self.exact is not None:
            return decimal_digits(self.exact, digits)
        c = Algebraic(self.poly, self.lo, self.hi)
        while decimal_digits(c.lo, digits) != decimal_digits(c.hi, digits):
            c.refine()
        return decimal_digits(c.lo, digits)

    def to_json(self, digits: int) -> dict:
        """``poly`` (integer coefficients, ``"c/1"``), the isolating ``interval`` and the ``decimal``."""
        return {"poly": [f"{int(c)}/1" for c in self.poly.coeffs()],
                "interval": [format_pq(self.lo), format_pq(self.hi)], "decimal": self.decimal(digits)}

    def __repr__(self) -> str:
        return f"root of {self.poly} in ({self.lo}, {self.hi})"


def real_roots(f, lo: Fraction, hi: Fraction) -> list[Algebraic]:
    """The real roots of ``f`` in the open interval ``(lo, hi)``, increasing, each with the
    irreducible factor it is a root of (so each is a distinct number)."""
    g = f if isinstance(f, fmpz_poly) else integer_poly(f)
    out = []
    for h in irreducible_factors([fmpq_poly(g)]):
        out.extend(roots_of_irreducible(h, lo, hi))
    out.sort()
    return out


def roots_of_irreducible(h: fmpz_poly, lo: Fraction, hi: Fraction, method: str = "flint") -> list[Algebraic]:
    """The roots of the irreducible ``h`` in the open ``(lo, hi)``, each with an isolating interval.

    ``method="flint"`` (default): Descartes' rule of signs with bisection (Vincent-Collins-Akritas),
    the Taylor shifts done by python-flint; ``"sympy"``: sympy's continued-fraction isolation
    (``Poly.intervals``), kept as an independent implementation for the tests and the benchmark.
    """
    if h.degree() == 1:
        c0, c1 = (int(c) for c in h.coeffs())
        x = Fraction(-c0, c1)
        if lo < x < hi:
            w = min(x - lo, hi - x) / 2
            return [Algebraic(h, x - w, x + w)]
        return []
    if method == "flint":
        return [Algebraic(h, a, b) for a, b in _isolate(h, lo, hi)]
    import sympy

    poly = sympy.Poly.from_list([int(c) for c in reversed(h.coeffs())], sympy.Symbol("p"))
    out = []
    for (a, b), _ in poly.intervals(inf=sympy.Rational(lo.numerator, lo.denominator),
                                    sup=sympy.Rational(hi.numerator, hi.denominator)):
        a = Fraction(int(a.p), int(a.q))
        b = Fraction(int(b.p), int(b.q))
        if a == b:  # cannot happen for an irreducible polynomial of degree >= 2
            raise ArithmeticError(f"rational root {a} of the irreducible {h}")
        out.append(Algebraic(h, a, b))
    return out


def descartes_bound(h: fmpz_poly, a: Fraction, b: Fraction) -> int:
    """Sign variations of ``(1 + y)^n h((a + b y) / (1 + y))``: an upper bound on the roots of ``h`` in
    ``(a, b)`` with the same parity; 0 or 1 is exact.

    >>> descartes_bound(fmpz_poly([-2, 0, 1]), Fraction(0), Fraction(2)), descartes_bound(fmpz_poly([-2, 0, 1]), Fraction(2), Fraction(3))
    (1, 0)
    """
    g = fmpq_poly(h)(fmpq_poly([fmpq(a.numerator, a.denominator), fmpq((b - a).numerator, (b - a).denominator)]))
    cs = g.coeffs()
    cs += [0] * (h.degree() + 1 - len(cs))
    k = fmpq_poly(list(reversed(cs)))(fmpq_poly([1, 1]))
    signs = [c > 0 for c in k.coeffs() if c != 0]
    return sum(1 for x, y in zip(signs, signs[1:]) if x != y)


def _isolate(h: fmpz_poly, lo: Fraction, hi: Fraction) -> list[tuple[Fraction, Fraction]]:
    """Isolating intervals of the roots of the square-free ``h`` (no rational roots) in ``(lo, hi)``."""
    out = []
    stack = [(lo, hi)]
    while stack:
        a, b = stack.pop()
        v = descartes_bound(h, a, b)
        if v == 0:
            continue
        if v == 1:
            out.append((a, b))
            continue
        m = (a + b) / 2
        stack.append((m, b))
        stack.append((a, m))
    out.sort()
    return out
