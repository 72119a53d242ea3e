"""The answer to a property, in the model's own terms: the exact value of each initial state and,
for a threshold (``P>=b [..]``), its exact truth value there and the exact distance ``value - b``.

A property with a threshold holds for the model when it holds in every initial state (Storm's and
PRISM's reading of a model with several initial states).  An expected reward can be +infinity
(Storm's semantics: a strategy that does not reach the target with probability 1): its value is
None, ``P>=b``/``P>b`` hold there and ``P<=b``/``P<b`` do not, with no finite distance.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from ..numbers.backends import format_pq
from .query import Query

__all__ = ["InitialAnswer", "initial_answers", "answers_json", "threshold_text"]


@dataclass
class InitialAnswer:
    state: int  # the model's state number
    name: str
    value: Fraction | None  # None: +infinity
    holds: bool | None = None  # the threshold's truth value (None: no threshold)
    distance: Fraction | None = None  # value - bound (None: no threshold, or an infinite value)
    reason: str | None = None  # why the value is infinite


def _fraction(x) -> Fraction:
    return x if isinstance(x, Fraction) else Fraction(int(x.numerator), int(x.denominator))


def initial_answers(sol, initial: list[int], query: Query, component: int = 0) -> list[InitialAnswer]:
    """One :class:`InitialAnswer` per initial state of the solution ``sol`` (its values' certified
    ``component`` at position ``component`` = 0; None: +infinity)."""
    out = []
    for k in initial:
        if sol.values[k] is None:
            holds = None if query.comparison is None else query.comparison in (">=", ">")
            out.append(InitialAnswer(k, sol.model.state_name(k), None, holds, None, sol.infinite_reason(k)))
            continue
        v = _fraction(sol.values[k][component])
        holds = query.holds(v)
        out.append(InitialAnswer(k, sol.model.state_name(k), v, holds, None if holds is None else v - query.bound))
    return out


def answers_json(answers: list[InitialAnswer]) -> list[dict]:
    rows = []
    for a in answers:
        row = {"state": a.state, "name": a.name, "value": None if a.value is None else format_pq(a.value)}
        if a.value is None:
            row["value_reason"] = a.reason
        if a.holds is not None:
            row["holds"] = a.holds
            row["distance"] = None if a.distance is None else format_pq(a.distance)
        rows.append(row)
    return rows


def short_pq(x: Fraction | None) -> str:
    """``x`` as p/q, long numerators and denominators shortened; +inf for None."""
    from ..present.render import shorten

    if x is None:
        return "+inf"
    num, den = str(x.numerator), str(x.denominator)
    return shorten(num) if den == "1" else f"{shorten(num)}/{shorten(den)}"


def _e(x: Fraction | None) -> str:
    if x is None:
        return "+inf"
    try:
        return f"{float(x):+.3e}"
    except OverflowError:
        return "beyond 1.8e308"


def threshold_text(query: Query, answers: list[InitialAnswer]) -> str:
    """``true: 1283/2592 >= 4949845679012345/10^16 at every initial state (distance +1.2e-17 = p/q)``."""
    verdict = all(a.holds for a in answers)
    parts = []
    for a in answers[:3]:
        rel = query.comparison if a.holds else {">=": "<", ">": "<=", "<=": ">", "<": ">="}[query.comparison]
        parts.append(f"{a.name}: {short_pq(a.value)} {rel} {short_pq(query.bound)}, distance value - bound "
                     f"{_e(a.distance)} = {short_pq(a.distance)}")
    more = f"; ... {len(answers) - 3} more initial states" if len(answers) > 3 else ""
    return f"{'true' if verdict else 'false'} (exactly): " + "; ".join(parts) + more
