"""The audit layer: judge a float table against an exact one.

Nothing here knows any game.  The inputs are plain mappings:

* ``exact``  -- state -> exact rational (``mpq`` or ``Fraction``);
* ``approx`` -- state -> float, the table of the program under audit;
* for decisions, per state, the candidate values of every choice, exact and
  float, and the choice the float program made.

For a float value ``y`` of an exact value ``x``:

* absolute error ``|y - x|`` and relative error ``|y - x| / |x|``, computed
  exactly and rounded once at the end;
* error in ulps ``|y - x| / ulp(y)``, ``ulp`` the spacing of doubles at ``y``.

A measure with no double value -- the relative error when ``x = 0`` and
``y != 0``, an ulp count beyond the largest double (``y = 0`` has the ulp
4.9e-324), a bound-over-measured ratio beyond the largest double -- is a
:class:`~exactplay.strict_json.NonFinite`: it compares as ``inf``, prints as
``inf (exact value 0 ...)`` and is written to JSON as ``null`` with a sibling
``<field>_reason`` (see :mod:`exactplay.strict_json`).  Game code makes such
measures with :func:`relative_error`, :func:`ulp_error` and :func:`ratio`.

A decision is classified against a bound ``e`` on the error of each float
candidate: if the exact gap between the best and the runner-up exceeds ``2e``
no rounding can reorder them, so a float choice equal to the exact best is
**certified**; an exact gap of 0 is an **exact tie**; a float choice that is not
an exact best although the gap exceeds ``2e`` is **wrong** (a bug, not
rounding); everything else is **float-unresolvable**.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any, Hashable, Mapping

try:
    from gmpy2 import mpq as _mpq
except ImportError:  # pragma: no cover
    _mpq = None

from ..numbers.decimals import decimal_digits
from ..numbers.backends import as_fraction
from ..strict_json import INFINITE, OUT_OF_RANGE, NonFinite, json_ready
from .rounding import RoundingReport, float_digits_certain, rounding_report  # noqa: F401 (re-exported)

__all__ = [
    "CERTIFIED",
    "EXACT_TIE",
    "UNRESOLVABLE",
    "WRONG",
    "DecisionAudit",
    "RoundingReport",
    "ValueAudit",
    "audit_decisions",
    "audit_values",
    "best_and_gap",
    "decimal_digits",
    "exact_minus_float",
    "float_digits_certain",
    "ratio",
    "relative_error",
    "rounding_report",
    "state_json",
    "ulp_error",
]

CERTIFIED = "certified"
UNRESOLVABLE = "float-unresolvable"
EXACT_TIE = "exact tie"
WRONG = "wrong"
CLASSES = (CERTIFIED, UNRESOLVABLE, EXACT_TIE, WRONG)


def state_json(state: Hashable) -> Any:
    """A state as JSON: a tuple as a list."""
    return list(state) if isinstance(state, tuple) else state


def exact_minus_float(y: float, x: Any) -> Any:
    """``y - x`` exactly, in the exact type of ``x`` (mpq stays mpq: it is faster)."""
    if _mpq is not None and type(x) is type(_mpq(0)):
        return _mpq(y) - x
    return Fraction(y) - as_fraction(x)


def _to_float(q: Any) -> float:
    """An exact rational as a double; ``inf`` (with its sign) beyond the double range."""
    try:
        return float(q)
    except OverflowError:
        return math.inf if q > 0 else -math.inf


def _rel_measure(rel: float, x: Any, y: float) -> float:
    """``rel`` as it is, or the :class:`NonFinite` saying why it has no double value."""
    if math.isfinite(rel):
        return rel
    if x == 0:
        return NonFinite(INFINITE, f"exact value 0, float {y!r}")
    return NonFinite(OUT_OF_RANGE, f"exact value about {_to_float(x):.3e}, float {y!r}")


def _ulp_measure(ulps: float, y: float) -> float:
    if math.isfinite(ulps):
        return ulps
    return NonFinite(OUT_OF_RANGE, f"float {y!r}, whose ulp is {math.ulp(y):.3g}")


def relative_error(y: float, x: Any) -> float:
    """``|y - x| / |x|`` rounded once; 0 when both are 0; a :class:`NonFinite` when ``x = 0 != y``.

    >>> relative_error(0.5, 0), relative_error(0.0, 0)
    (inf (exact value 0, float 0.5), 0.0)
    """
    diff = exact_minus_float(y, x)
    if x == 0:
        return 0.0 if diff == 0 else _rel_measure(math.inf, x, y)
    return _rel_measure(abs(_to_float(diff / x)), x, y)


def ulp_error(y: float, x: Any) -> float:
    """``|y - x| / ulp(y)`` rounded once, or a :class:`NonFinite` beyond the largest double.

    >>> ulp_error(1.0, 1), ulp_error(0.0, 1)
    (0.0, > 1.8e+308 (float 0.0, whose ulp is 4.94e-324))
    """
    diff = abs(exact_minus_float(y, x))
    u = math.ulp(y)
    u_exact = _mpq(u) if _mpq is not None and type(diff) is type(_mpq(0)) else Fraction(u)
    return _ulp_measure(_to_float(diff / u_exact), y)


def ratio(num: float, den: float, zero_reason: str) -> float:
    """``num / den`` for a bound over a measured error; :class:`NonFinite` when ``den`` is 0 or it overflows."""
    if den == 0:
        return NonFinite(INFINITE, zero_reason)
    q = num / den
    if not math.isfinite(q):
        return NonFinite(OUT_OF_RANGE, f"{num:.3e} / {den:.3e}")
    return q


@dataclass
class ValueAudit:
    """Worst errors of a float table against the exact one, and where they are."""

    cells: int
    max_abs: float
    max_abs_at: Hashable
    max_rel: float
    max_rel_at: Hashable
    max_ulps: float
    max_ulps_at: Hashable
    bound: float | None = None
    bound_label: str = ""

    @property
    def bound_ratio(self) -> float | None:
        """How many times the a-priori bound exceeds the measured maximum.

        None (not applicable) without a bound or when the table is exact (measured error 0);
        a :class:`NonFinite` when the ratio is beyond the largest double (a subnormal error).
        """
        if self.bound is None or self.max_abs == 0:
            return None
        return ratio(self.bound, self.max_abs, "measured error 0: the float table is exact")

    @property
    def within_bound(self) -> bool | None:
        return None if self.bound is None else self.max_abs <= self.bound

    def to_dict(self) -> dict:
        """JSON-ready (strict): an infinite measure is ``null`` plus ``<field>_reason``."""
        return json_ready({
            "cells": self.cells,
            "max_abs_error": self.max_abs,
            "max_abs_error_at": state_json(self.max_abs_at),
            "max_rel_error": self.max_rel,
            "max_rel_error_at": state_json(self.max_rel_at),
            "max_ulps": self.max_ulps,
            "max_ulps_at": state_json(self.max_ulps_at),
            "a_priori_bound": self.bound,
            "a_priori_bound_derivation": self.bound_label,
            "bound_over_measured": self.bound_ratio,
            "within_bound": self.within_bound,
        })


def audit_values(
    exact: Mapping[Hashable, Any],
    approx: Mapping[Hashable, float],
    bound: float | None = None,
    bound_label: str = "",
) -> ValueAudit:
    """Compare every state of ``exact`` with ``approx`` (which must cover it).

    Raises ``KeyError`` naming the first state missing from ``approx`` and
    ``TypeError`` for a non-float entry: a user's table is checked, not trusted.
    """
    worst_abs = worst_rel = worst_ulp = -1.0
    at_abs = at_rel = at_ulp = None
    n = 0
    for state, x in exact.items():
        if state not in approx:
            raise KeyError(f"float table has no value for state {state}")
        y = approx[state]
        if not isinstance(y, float) or isinstance(y, bool):
            if isinstance(y, int) and not isinstance(y, bool):
                y = float(y)
            else:
                raise TypeError(f"float table value at state {state} is {type(y).__name__}")
        if not math.isfinite(y):
            raise ValueError(f"float table value at state {state} is {y}")
        n += 1
        diff = exact_minus_float(y, x)
        err = abs(_to_float(diff))
        if err > worst_abs:
            worst_abs, at_abs = err, state
        # exact ratio: float(x) may underflow to 0 for a tiny nonzero exact value
        rel = abs(_to_float(diff / x)) if x != 0 else (0.0 if diff == 0 else math.inf)
        if rel > worst_rel:
            worst_rel, at_rel = rel, state
        ulps = err / math.ulp(y)  # inf beyond the largest double: made a NonFinite below
        if ulps > worst_ulp:
            worst_ulp, at_ulp = ulps, state
    if n == 0:
        raise ValueError("nothing to audit: the exact table is empty")
    worst_rel = _rel_measure(worst_rel, exact[at_rel], float(approx[at_rel]))
    worst_ulp = _ulp_measure(worst_ulp, float(approx[at_ulp]))
    return ValueAudit(n, worst_abs, at_abs, worst_rel, at_rel, worst_ulp, at_ulp, bound, bound_label)


def _exact_as_float(q: Any) -> float:
    """An exact number's float, or a :class:`NonFinite` beyond the double range."""
    f = _to_float(q)
    if math.isfinite(f):
        return f
    return NonFinite(OUT_OF_RANGE, "beyond the largest double; the exact value is in the p/q field")


def best_and_gap(candidates: Mapping[Hashable, Any]):
    """Exact best choices (all of them, when tied) and the gap to the runner-up.

    Returns ``(best_choices, best_value, gap)``; with a single candidate the gap
    is ``None`` (there is nothing to choose).
    """
    items = list(candidates.items())
    if not items:
        raise ValueError("a state with no candidate choices")
    best_value = max(v for _, v in items)
    best = [c for c, v in items if v == best_value]
    others = [v for _, v in items if v != best_value]
    if len(best) > 1:
        gap = best_value - best_value  # zero in the exact type
    elif others:
        gap = best_value - max(others)
    else:
        gap = None
    return best, best_value, gap


@dataclass
class DecisionAudit:
    """Per-state classification of the float decisions."""

    flip_threshold: float
    counts: dict = field(default_factory=lambda: {c: 0 for c in CLASSES})
    classes: dict = field(default_factory=dict)  # state -> class
    exact_best: dict = field(default_factory=dict)  # state -> list of best choices
    gaps: dict = field(default_factory=dict)  # state -> exact gap (None: one choice)
    float_choice: dict = field(default_factory=dict)
    smallest_gap: Any = None
    smallest_gap_at: Hashable = None
    unresolvable_on_best: int = 0  # float-unresolvable states whose float pick is still an exact best
    decisions_differ: int = 0  # states whose float pick is not an exact best
    worst: list = field(default_factory=list)  # the states with the smallest gaps
    beyond_bound: list = field(default_factory=list)  # wrong picks whose float candidates are off by more than the bound

    def to_dict(self, worst: int = 10) -> dict:
        from ..numbers.backends import format_pq

        def gap_json(g):
            return None if g is None else format_pq(g)

        def gap_float(g):
            return None if g is None else _exact_as_float(g)

        return json_ready({
            "states": sum(self.counts.values()),
            "flip_threshold": self.flip_threshold,
            "counts": dict(self.counts),
            "float_unresolvable_but_on_exact_best": self.unresolvable_on_best,
            "float_decisions_not_exact_best": self.decisions_differ,
            "wrong_with_float_candidates_beyond_bound": len(self.beyond_bound),
            "smallest_gap": gap_json(self.smallest_gap),
            "smallest_gap_float": gap_float(self.smallest_gap),
            "smallest_gap_at": state_json(self.smallest_gap_at),
            "worst_cells": [
                {
                    "state": state_json(s),
                    "class": self.classes[s],
                    "gap": gap_json(self.gaps[s]),
                    "gap_float": gap_float(self.gaps[s]),
                    "exact_best": [state_json(c) for c in self.exact_best[s]],
                    "float_choice": state_json(self.float_choice.get(s)),
                }
                for s in self.worst[:worst]
            ],
            "non_certified_cells": [
                state_json(s) for s, c in self.classes.items() if c != CERTIFIED
            ][:worst],
        })


def _beyond_bound(exact: Mapping[Hashable, Any], approx: Mapping[Hashable, float], bound: float) -> bool:
    """Whether some float candidate is farther than ``bound`` from its exact value (exactly).

    >>> from fractions import Fraction
    >>> _beyond_bound({0: Fraction(1, 3)}, {0: 0.5}, 1e-3), _beyond_bound({0: Fraction(1, 2)}, {0: 0.5}, 0.0)
    (True, False)
    """
    return math.isfinite(bound) and any(not math.isfinite(approx[c]) or abs(exact_minus_float(approx[c], x))
                                        > Fraction(bound) for c, x in exact.items())


def audit_decisions(
    exact_candidates: Mapping[Hashable, Mapping[Hashable, Any]],
    float_candidates: Mapping[Hashable, Mapping[Hashable, float]] | None,
    float_choice: Mapping[Hashable, Hashable],
    bound: float,
    progress=None,
) -> DecisionAudit:
    """Classify the float program's choice in every state with a real choice.

    ``bound`` bounds the error of each float candidate value; a decision can only
    be flipped by rounding when the exact gap is at most ``2 * bound``.  When
    ``float_candidates`` is given, float candidates that compare equal make the
    state float-unresolvable even if the exact gap is large (the float program
    then decided by its tie-break, not by the values).
    States with a single candidate are not decisions and are skipped.
    ``progress`` (optional) advances once per 4096 states.
    A wrong pick whose float candidates are themselves farther than ``bound`` from the exact ones
    is also listed in ``beyond_bound``: there the program computes other values (a bug, or an
    earlier decision that differs, such as an exact tie broken the other way), not only picks.
    """
    threshold = 2.0 * bound
    out = DecisionAudit(flip_threshold=threshold)
    gaps_for_worst = []
    for done, (state, cands) in enumerate(exact_candidates.items(), 1):
        if progress is not None and done % 4096 == 0:
            progress.advance(4096)
        best, _, gap = best_and_gap(cands)
        if gap is None:
            continue
        if state not in float_choice:
            raise KeyError(f"float decisions have no choice for state {state}")
        pick = float_choice[state]
        out.exact_best[state] = best
        out.gaps[state] = gap
        out.float_choice[state] = pick
        on_best = pick in best
        float_tied = False
        if float_candidates is not None:
            fc = float_candidates[state]
            top = max(fc.values())
            float_tied = sum(1 for v in fc.values() if v == top) > 1
        if gap == 0:
            cls = EXACT_TIE
        elif gap > threshold and not float_tied:
            cls = CERTIFIED if on_best else WRONG
            if cls == WRONG and float_candidates is not None and _beyond_bound(cands, float_candidates[state], bound):
                # candidates off by more than rounding: a bug, or an earlier decision differs
                out.beyond_bound.append(state)
        else:
            cls = UNRESOLVABLE
            if on_best:
                out.unresolvable_on_best += 1
        if not on_best:
            out.decisions_differ += 1
        out.classes[state] = cls
        out.counts[cls] += 1
        if out.smallest_gap is None or gap < out.smallest_gap:
            out.smallest_gap, out.smallest_gap_at = gap, state
        gaps_for_worst.append((gap, state))
    gaps_for_worst.sort(key=lambda gs: gs[0])
    out.worst = [s for _, s in gaps_for_worst[:10]]
    return out
