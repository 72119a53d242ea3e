"""The range of the parameter: where every probability stays strictly between 0 and 1.

On an open interval where no probability polynomial ``q`` vanishes or reaches 1 the model has
the same successors at every ``p`` (a constant graph), so one structural analysis holds for the
whole interval.  The default range is the one open interval, with rational ends, where every
non-constant probability lies in ``(0, 1)``.
"""

from __future__ import annotations

from fractions import Fraction

from flint import fmpq_poly

from ..errors import UsageError
from .build import PModel
from .poly import poly_text, to_fraction
from .roots import Algebraic, real_roots

__all__ = ["default_range", "check_range", "parse_range"]


def parse_range(text: str) -> tuple[Fraction, Fraction]:
    """``"0,1"`` or ``"1/4,3/4"`` -> ``(a, b)`` with ``a < b``.

    >>> parse_range("1/4, 3/4")
    (Fraction(1, 4), Fraction(3, 4))
    """
    from ..model.load import parse_value

    parts = [x.strip() for x in text.split(",")]
    if len(parts) != 2:
        raise UsageError(f"--range {text!r}: write A,B (two exact rationals, e.g. 0,1 or 1/4,3/4)")
    ends = []
    for x in parts:
        v = parse_value(x)
        if isinstance(v, bool) or not isinstance(v, (int, Fraction)):
            raise UsageError(f"--range {text!r}: {x!r} is not an exact rational")
        ends.append(Fraction(v))
    if not ends[0] < ends[1]:
        raise UsageError(f"--range {text!r}: the first end must be below the second")
    return ends[0], ends[1]


def _where(pm: PModel, q: fmpq_poly) -> str:
    for s, acts in enumerate(pm.trans):
        for a, d in enumerate(acts):
            if any(x == q for _, x in d):
                act = "" if pm.mover[s] is None else f", action {pm.actions[s][a]!r}"
                return f"state {pm.states[s]}{act}"
    return "?"


def check_range(pm: PModel, lo: Fraction, hi: Fraction) -> None:
    """Every non-constant probability is in ``(0, 1)`` on the open interval ``(lo, hi)`` (one line if not)."""
    qs = pm.probabilities()
    if not qs:
        raise UsageError(f"the parameter {pm.symbol} appears in no probability of the model")
    mid = (lo + hi) / 2
    for q in qs:
        for bound, f in ((0, q), (1, q - 1)):
            roots = real_roots(f, lo, hi)
            v = _at(q, mid)
            bad = roots[0] if roots else (mid if not 0 < v < 1 else None)
            if bad is not None:
                at = bad.decimal(6) if isinstance(bad, Algebraic) else str(bad)
                raise UsageError(
                    f"probability {poly_text(q, pm.symbol)} ({_where(pm, q)}) is not in (0, 1) on the whole range "
                    f"({lo}, {hi}): it reaches {bound if roots else v} at {pm.symbol} = {at} "
                    f"(choose --range inside the interval where every probability is in (0, 1))")


def _at(q: fmpq_poly, r: Fraction) -> Fraction:
    from flint import fmpq

    return to_fraction(q(fmpq(r.numerator, r.denominator)))


def default_range(pm: PModel) -> tuple[Fraction, Fraction]:
    """The open interval where every non-constant probability is in ``(0, 1)``, if it is one interval
    with rational ends."""
    qs = pm.probabilities()
    if not qs:
        raise UsageError(f"the parameter {pm.symbol} appears in no probability of the model")
    bound = Fraction(1)
    for q in qs:  # Cauchy's bound on the roots of q and q - 1
        for f in (q, q - 1):
            c = f.coeffs()
            lead = abs(to_fraction(c[-1]))
            bound = max(bound, 1 + max(abs(to_fraction(x)) for x in c[:-1]) / lead if len(c) > 1 else 1)
    cuts: list = [-bound - 1]
    for q in qs:
        for f in (q, q - 1):
            cuts.extend(real_roots(f, -bound - 1, bound + 1))
    cuts.append(bound + 1)
    cuts.sort()
    good = []
    for a, b in zip(cuts, cuts[1:]):
        if not a < b:
            continue
        x = _between(a, b)
        if all(0 < _at(q, x) < 1 for q in qs):
            good.append((a, b))
    if len(good) != 1:
        raise UsageError(f"the probabilities are in (0, 1) on {len(good)} separate intervals of {pm.symbol}: "
                         "choose one with --range A,B")
    a, b = good[0]
    ends = []
    for x in (a, b):
        if isinstance(x, Algebraic):
            if x.exact is None:
                raise UsageError(f"the interval where every probability is in (0, 1) ends at an irrational "
                                 f"{pm.symbol} = {x.decimal(6)}...: choose --range A,B with rational ends inside it")
            x = x.exact
        ends.append(x)
    if ends[0] <= -bound or ends[1] >= bound:
        raise UsageError(f"the probabilities stay in (0, 1) for arbitrarily large |{pm.symbol}|: choose --range A,B")
    return ends[0], ends[1]


def _between(a, b) -> Fraction:
    """A rational strictly between two numbers (rationals or algebraic)."""
    lo = a.hi if isinstance(a, Algebraic) else a
    hi = b.lo if isinstance(b, Algebraic) else b
    while isinstance(a, Algebraic) and isinstance(b, Algebraic) and not lo < hi:
        a.refine()
        b.refine()
        lo, hi = a.hi, b.lo
    while not lo < hi:
        if isinstance(a, Algebraic):
            a.refine()
            lo = a.hi
        if isinstance(b, Algebraic):
            b.refine()
            hi = b.lo
    return (lo + hi) / 2
