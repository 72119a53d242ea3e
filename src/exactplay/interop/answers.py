"""The answer to a property, in the model's own terms: the exact value of each initial state and,
for a threshold (``P>=b [..]``), its exact truth value there and the exact distance ``value - b``.

A property with a threshold holds for the model when it holds in every initial state (Storm's and
PRISM's reading of a model with several initial states).
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from ..numbers import format_pq
from .query import Query

__all__ = ["InitialAnswer", "initial_answers", "answers_json", "threshold_text"]


@dataclass
class InitialAnswer:
    state: int  # the model's state number
    name: str
    value: Fraction
    holds: bool | None = None  # the threshold's truth value (None: no threshold)
    distance: Fraction | None = None  # value - bound


def _fraction(x) -> Fraction:
    return x if isinstance(x, Fraction) else Fraction(int(x.numerator), int(x.denominator))


def initial_answers(model, values, initial: list[int], query: Query, component: int = 0) -> list[InitialAnswer]:
    """One :class:`InitialAnswer` per initial state (``values[k][i]``: the solution's values, the
    certified ``component`` at position ``i`` = 0)."""
    out = []
    for k in initial:
        v = _fraction(values[k][component])
        holds = query.holds(v)
        out.append(InitialAnswer(k, model.state_name(k), v, holds, None if holds is None else v - query.bound))
    return out


def answers_json(answers: list[InitialAnswer]) -> list[dict]:
    rows = []
    for a in answers:
        row = {"state": a.state, "name": a.name, "value": format_pq(a.value)}
        if a.holds is not None:
            row["holds"] = a.holds
            row["distance"] = format_pq(a.distance)
        rows.append(row)
    return rows


def _short(x: Fraction) -> str:
    from ..render import shorten

    num, den = str(x.numerator), str(x.denominator)
    return shorten(num) if den == "1" else f"{shorten(num)}/{shorten(den)}"


def _e(x: Fraction) -> str:
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
        parts.append(f"{a.name}: {_short(a.value)} {rel} {_short(query.bound)}, distance value - bound "
                     f"{_e(a.distance)} = {_short(a.distance)}")
    more = f"; ... {len(answers) - 3} more initial states" if len(answers) > 3 else ""
    return f"{'true' if verdict else 'false'} (exactly): " + "; ".join(parts) + more
