"""The checker's exact values: integer numerators over one denominator, and their fixed-point shadows.

A value is ``(nums, den)``: one integer numerator per certified component over
one positive integer denominator, not reduced (reducing would cost a gcd of two
huge numbers per state; the states of one component of the policy's graph
share one denominator object, see :mod:`._evaluate`).  ``exact(v, k)`` is
component ``k`` as a reduced rational, for the few places that need one (the
answer, an exact comparison, a message).

**Fixed point.**  Comparing two values of different denominators exactly costs
two multiplications of huge numbers.  Most comparisons are decided by a
*shadow* instead: ``fixed(v, k)``, an integer with ``0 <= x 2^P - fixed < 3``
for ``x`` the component's value and ``P`` = :data:`BITS`.  It is
``floor(nums[k] 2^P / den) - 1`` computed on the top bits of numerator and
denominator (:data:`TOP_BITS`; both shifted right by the same ``s``, floor): with
``N' = floor(N / 2^s)``, ``D' = floor(D / 2^s) >= 2^(TOP_BITS - 1)`` and
``|N'| < 2^60 D'``, ``|N / D - N' / D'| <= (1 + |N'| / D') / D' < 2^-250``, so the
floor of ``N' 2^P / D'`` is within 1 of ``x 2^P`` (exact division below that size).
A one-step value ``Q = r + sum_t p V(t)`` (``p >= 0``, ``sum p = 1``) is shadowed by
``floor(r 2^P) + sum_t floor(p fixed(V(t)))``, each term off by less than
``3 p + 1`` and the reward by less than 1, so ``0 <= Q 2^P - shadow < (number of
terms) + 4``: two one-step values whose shadows differ by more than the sum of
their bounds compare as their shadows do; otherwise they are compared exactly.
"""

from __future__ import annotations

from ._ints import big, gcd, ratio

BITS = 128  # P: the fixed point's fractional bits
TOP_BITS = 320  # a division of longer numbers is made on their top bits (see above)
FIXED_ERROR = 3  # 0 <= x 2^BITS - fixed(x) < FIXED_ERROR

__all__ = ["BITS", "FIXED_ERROR", "ExactView", "constant", "exact", "fixed", "lcm_of"]


def constant(values) -> tuple:
    """A tuple of exact rationals as ``(nums, den)``, ``den`` the least common multiple of theirs."""
    den = lcm_of([x.denominator for x in values])
    return tuple(big(x.numerator * (den // x.denominator)) for x in values), den


def lcm_of(dens) -> object:
    """The least common multiple of positive integers (the same object twice: one gcd fewer)."""
    out = big(1)
    seen: set[int] = set()
    for d in dens:
        if d == 1 or id(d) in seen:
            continue
        seen.add(id(d))
        if out == 1:
            out = big(d)
            continue
        if out % d:
            out = out // gcd(out, d) * d
    return out


def exact(v: tuple, k: int):
    """Component ``k`` of value ``v`` as a reduced rational (gmpy2's mpq or Fraction)."""
    return ratio(v[0][k], v[1])


def fixed(v: tuple, k: int) -> int:
    """A shadow of component ``k`` of value ``v``: ``0 <= x 2^BITS - fixed < FIXED_ERROR``."""
    num, den = v[0][k], v[1]
    shift = den.bit_length() - TOP_BITS
    if shift > 0:
        num, den = num >> shift, den >> shift
        if abs(num) < den << 60:
            return ((num << BITS) // den) - 1
        num, den = v[0][k], v[1]
    return (num << BITS) // den


class ExactView:
    """The values ``(numerators, denominator)`` of :mod:`._values` seen as tuples of exact rationals
    (what the checks written for stored values read: the answer, the initial states, a source)."""

    def __init__(self, W: list):
        self.W = W

    def __len__(self) -> int:
        return len(self.W)

    def __getitem__(self, s: int):
        v = self.W[s]
        return None if v is None else tuple(exact(v, k) for k in range(len(v[0])))
