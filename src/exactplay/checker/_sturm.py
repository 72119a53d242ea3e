"""Polynomials over Q with the standard library: Sturm counts and algebraic endpoints.

The checker's polynomials are lists of :class:`~fractions.Fraction` coefficients, lowest
degree first, without trailing zeros (``[]`` is 0).  For signs and root counts each is scaled
by a positive rational to a primitive integer polynomial (same signs everywhere), and signs at
``x = n/d`` are read from ``d**deg * f(n/d)``, all in integers.  Shares no code with the solvers.

Sturm's theorem: with ``f_0 = f``, ``f_1 = f'`` and ``f_{k+1}`` a positive multiple of
``-rem(f_{k-1}, f_k)``, ``V(x)`` the number of sign changes of ``f_0(x), f_1(x), ...`` (zeros
skipped), ``V(a) - V(b)`` is the number of distinct real roots of ``f`` in ``(a, b)`` when
neither ``a`` nor ``b`` is a root (multiple roots included).

>>> f = [F(-2), F(0), F(1)]                    # p^2 - 2
>>> count_roots(f, F(0), F(2)), count_roots(f, F(-2), F(2)), count_roots(f, F(3, 2), F(2))
(1, 2, 0)
>>> a = Endpoint(f, F(1), F(2)); a.check("x"); a.refine(); (a.lo, a.hi)
(Fraction(1, 1), Fraction(3, 2))
>>> no_root_between([F(0), F(1)], F(0), a), no_root_between(f, F(0), F(3, 2))
(True, False)
"""

from __future__ import annotations

from fractions import Fraction as F
from math import gcd as igcd, lcm

from ..errors import VerificationError

__all__ = ["evaluate", "sign", "sub", "count_roots", "Endpoint", "no_root_between", "integer_poly"]

MAX_REFINE = 400  # bisections of an endpoint's interval before giving up


def trim(f: list) -> list:
    while f and f[-1] == 0:
        f = f[:-1]
    return f


def evaluate(f: list, x) -> F:
    acc = F(0)
    for c in reversed(f):
        acc = acc * x + c
    return acc


def sub(f: list, g: list) -> list:
    n = max(len(f), len(g))
    return trim([(f[i] if i < len(f) else 0) - (g[i] if i < len(g) else 0) for i in range(n)])


# ------------------------------------------------------------------ integer polynomials


def integer_poly(f: list) -> list[int]:
    """``f`` times a positive rational: integer, primitive (same signs as ``f``)."""
    if not f:
        return []
    d = lcm(*(F(c).denominator for c in f))
    g = [int(F(c) * d) for c in f]
    return _primitive(g)


def _primitive(g: list[int]) -> list[int]:
    c = 0
    for x in g:
        c = igcd(c, x)
        if c == 1:
            return g
    return [x // c for x in g] if c > 1 else g


def _isign(g: list[int], x: F) -> int:
    """The sign of ``g(x)``: ``d**deg * g(n/d)`` by Horner in integers."""
    n, d = x.numerator, x.denominator
    acc = g[-1]
    dp = 1
    for c in reversed(g[:-1]):
        dp *= d
        acc = acc * n + c * dp
    return (acc > 0) - (acc < 0)


def sign(f: list, x: F) -> int:
    v = evaluate(f, x)
    return (v > 0) - (v < 0)


def _iderivative(g: list[int]) -> list[int]:
    return [k * c for k, c in enumerate(g)][1:]


def _iprem(a: list[int], b: list[int]) -> list[int]:
    """A positive multiple of ``rem(a, b)``, primitive (``[]`` if 0)."""
    r = list(a)
    lb = b[-1]
    s, m = (1 if lb > 0 else -1), abs(lb)
    db = len(b) - 1
    while len(r) - 1 >= db and r:
        k = len(r) - 1 - db
        lr = r[-1]
        r = [m * x for x in r]
        for i, y in enumerate(b):
            r[i + k] -= s * lr * y
        r = trim(r)
        if r:
            r = _primitive(r)
    return r


def _igcd_poly(a: list[int], b: list[int]) -> list[int]:
    a, b = trim(list(a)), trim(list(b))
    while b:
        a, b = b, _iprem(a, b)
    return _primitive(a) if a else []


def _isturm(g: list[int]) -> list[list[int]]:
    seq = [g]
    d = _iderivative(g)
    if trim(d):
        seq.append(_primitive(trim(d)))
        while True:
            r = _iprem(seq[-2], seq[-1])
            if not r:
                break
            seq.append([-x for x in r])
    return seq


def _changes(seq: list[list[int]], x: F) -> int:
    signs = [s for s in (_isign(g, x) for g in seq) if s]
    return sum(1 for a, b in zip(signs, signs[1:]) if a != b)


def _deflate(g: list[int], r: F) -> list[int]:
    """``g`` divided by ``(d x - n)`` (``r = n/d``) as often as ``r`` is a root."""
    n, d = r.numerator, r.denominator
    while len(g) > 1 and _isign(g, r) == 0:
        # g = (d x - n) q: solve from the top coefficient down
        q = [0] * (len(g) - 1)
        carry = list(g)
        for i in range(len(g) - 1, 0, -1):
            q[i - 1] = carry[i] // d
            carry[i - 1] += n * q[i - 1]
        g = _primitive(trim(q))
    return g


def _count(g: list[int], a: F, b: F, seq: list[list[int]] | None = None) -> int:
    """Distinct real roots of the integer polynomial ``g`` in ``(a, b]``."""
    if len(g) <= 1 or not a < b:
        return 0
    extra = 0
    if _isign(g, b) == 0:
        g, extra, seq = _deflate(g, b), 1, None
    if _isign(g, a) == 0:
        g, seq = _deflate(g, a), None
    if len(g) <= 1:
        return extra
    seq = seq or _isturm(g)
    return _changes(seq, a) - _changes(seq, b) + extra


def count_roots(f: list, a: F, b: F) -> int:
    """Distinct real roots of ``f`` (not 0) in the half-open ``(a, b]``."""
    if not f:
        raise ValueError("the zero polynomial has every number as a root")
    return _count(integer_poly(f), a, b)


class Endpoint:
    """An algebraic number: the one root of the square-free ``poly`` in the open ``(lo, hi)``."""

    def __init__(self, poly: list, lo: F, hi: F) -> None:
        self.poly, self.lo, self.hi = poly, lo, hi
        self.g = integer_poly(poly)
        self._seq: list[list[int]] | None = None

    def check(self, field: str) -> None:
        g = self.g
        if len(g) < 2:
            raise VerificationError("the breakpoint's polynomial is constant", field=field)
        if not self.lo < self.hi:
            raise VerificationError(f"isolating interval ({self.lo}, {self.hi}) is empty", field=field)
        if len(_igcd_poly(g, _iderivative(g))) > 1:
            raise VerificationError("the breakpoint's polynomial is not square-free", field=field)
        if _isign(g, self.lo) == 0 or _isign(g, self.hi) == 0:
            raise VerificationError("the polynomial vanishes at an end of the isolating interval", field=field)
        n = _count(g, self.lo, self.hi, self.seq())
        if n != 1:
            raise VerificationError(f"the isolating interval ({self.lo}, {self.hi}) holds {n} roots of the "
                                    "polynomial, not exactly 1", field=field)

    def seq(self) -> list[list[int]]:
        if self._seq is None:
            self._seq = _isturm(self.g)
        return self._seq

    def refine(self) -> None:
        mid = (self.lo + self.hi) / 2
        s = _isign(self.g, mid)
        if s == 0:  # a rational root: keep an interval around it
            w = (self.hi - self.lo) / 4
            self.lo, self.hi = mid - w, mid + w
        elif s == _isign(self.g, self.lo):
            self.lo = mid
        else:
            self.hi = mid

    def is_root_of(self, g: list[int]) -> bool:
        """Whether ``g(self) == 0``: their gcd has a root in ``(lo, hi)`` (the only root of ``poly`` there)."""
        h = _igcd_poly(self.g, g)
        return len(h) > 1 and _count(h, self.lo, self.hi) == 1


def no_root_between(f: list, left, right) -> bool:
    """Whether ``f`` (not 0) has no real root in the open interval ``(left, right)``; each end is a
    rational or an :class:`Endpoint` (refined in place), with ``left < right``."""
    g = integer_poly(f)
    if len(g) <= 1:
        return True
    seq = _isturm(g)
    u = _inner(g, left, seq, +1)
    v = _inner(g, right, seq, -1)
    if u is None or v is None or u > v:
        return False
    if isinstance(left, Endpoint) and _isign(g, u) == 0:  # u lies inside the interval
        return False
    if u == v:
        return True
    inside = _count(g, u, v, seq) - (1 if not isinstance(right, Endpoint) and _isign(g, v) == 0 else 0)
    return inside == 0


def _inner(g: list[int], end, seq: list[list[int]], direction: int):
    """A rational ``u`` past ``end`` (toward the inside) such that ``g`` has no root strictly between
    ``end`` and ``u``: ``end`` itself when rational; ``None`` if refining does not find one."""
    if not isinstance(end, Endpoint):
        return end
    at_end = end.is_root_of(g)
    for _ in range(MAX_REFINE):
        n = _count(g, end.lo, end.hi, seq) + (1 if _isign(g, end.lo) == 0 else 0)
        if n == (1 if at_end else 0):
            return end.hi if direction > 0 else end.lo
        end.refine()
    return None
