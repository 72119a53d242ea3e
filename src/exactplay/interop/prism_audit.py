"""The audit of PRISM's float answer to a property, judged against the exact one.

On top of the generic audit of a model's float solution (:func:`~exactplay.audit.model.audit_model`:
every state's value error, the decisions), for each initial state:

* the float as PRISM prints it (Java's ``Double.toString``: the shortest decimal that reads back as
  the same double, as Python's ``repr``), its significant digits that agree with the exact decimal
  expansion and those that do not, and how many doubles lie between it and the double nearest to
  the exact value (0: the float is the best a double can do);
* with a threshold (``P>=b``), the float's truth value against the exact one, and the bounds ``b``
  whose answer the float gets wrong: every ``b`` between the float and the exact value (for ``>=``:
  ``(min, max]``; for ``>``: ``[min, max)``; the same for ``<`` and ``<=`` mirrored).
"""

from __future__ import annotations

import struct
from decimal import Decimal
from fractions import Fraction

from ..audit.result import Fact
from ..numbers.backends import format_pq
from .query import Query

__all__ = ["printed_digits", "doubles_between", "threshold_flips", "prism_facts"]


def doubles_between(y: float, x: Fraction) -> int:
    """How many doubles from ``y`` to the double nearest to ``x`` (0: ``y`` is it).

    >>> doubles_between(0.49498456790123446, Fraction(1283, 2592))
    2
    """
    nearest = float(x)

    def key(f: float) -> int:
        bits = struct.unpack("<q", struct.pack("<d", f))[0]
        return bits if bits >= 0 else -(bits & 0x7FFFFFFFFFFFFFFF)

    return abs(key(y) - key(nearest))


def printed_digits(y: float, x: Fraction) -> dict:
    """The float's printed text and how many of its significant digits are the exact value's.

    >>> d = printed_digits(0.49498456790123446, Fraction(1283, 2592))
    >>> d["printed"], d["exact_decimal"], d["correct_digits"], d["wrong_digits"]
    ('0.49498456790123446', '0.49498456790123456', 15, '46')
    >>> d = printed_digits(0.02295, Fraction(459, 20000))  # zeros after the point (once shown as 229.5)
    >>> d["exact_decimal"], d["correct_digits"], printed_digits(1e-20, Fraction(1, 10**20))["exact_decimal"]
    ('0.02295', 4, '0.00000000000000000001')
    """
    printed = repr(float(y))
    sign, digits, exp = Decimal(printed).as_tuple()
    places = max(-exp, 0)
    shown = "".join(map(str, digits)) + "0" * max(exp, 0)
    ax = abs(x)
    exact_int = ax.numerator * 10 ** places // ax.denominator
    exact = str(exact_int).rjust(len(shown), "0")
    width = max(len(shown), len(exact))
    shown, exact = shown.rjust(width, "0"), exact.rjust(width, "0")
    first = next((i for i, (a, b) in enumerate(zip(shown, exact)) if a != "0" or b != "0"), width)
    same = first
    while same < width and shown[same] == exact[same]:
        same += 1
    if (y < 0) != (x < 0) and x != 0 and y != 0:
        same = first
    exact_text = _decimal_text(exact, places, x < 0)
    return {"printed": printed, "exact_decimal": exact_text, "correct_digits": same - first,
            "wrong_digits": shown[same:].lstrip() if same < width else "",
            "significant_digits": width - first}


def _decimal_text(digits: str, places: int, negative: bool) -> str:
    """The decimal of the integer ``digits`` times ``10^-places`` (the zeros after the point kept).

    >>> _decimal_text("2295", 5, False), _decimal_text("500", 4, False), _decimal_text("120", 1, True)
    ('0.02295', '0.0500', '-12.0')
    """
    digits = digits.rjust(places + 1, "0")
    whole = digits[:len(digits) - places] if places else digits
    frac = digits[len(digits) - places:] if places else ""
    whole = whole.lstrip("0") or "0"
    return ("-" if negative else "") + whole + (f".{frac}" if frac else "")


_HOLDS = {">=": lambda v, b: v >= b, ">": lambda v, b: v > b, "<=": lambda v, b: v <= b, "<": lambda v, b: v < b}


def threshold_flips(y: float, x: Fraction, comparison: str) -> str | None:
    """The bounds ``b`` for which the float answers ``value <comparison> b`` wrongly, as an interval
    (None when the float is exact).

    The float's end is shown as PRISM prints the double; the exact end as ``p/q``.

    >>> threshold_flips(0.25, Fraction(1, 3), ">=")
    '(0.25, 1/3]'
    """
    f = Fraction(y)
    if f == x:
        return None
    ends = sorted([(f, repr(float(y))), (x, format_pq(x))])
    (lo, lo_text), (hi, hi_text) = ends
    closed_high = comparison in (">=", "<")
    return f"({lo_text}, {hi_text}]" if closed_high else f"[{lo_text}, {hi_text})"


def prism_facts(query: Query, initial: list[int], names, exact: list[Fraction], floats: list[float]) -> tuple[list[Fact], dict]:
    """The facts of the audit about the initial states (text and JSON), and a summary dict."""
    rows, lines = [], []
    for k, x, y in zip(initial, exact, floats):
        digits = printed_digits(y, x)
        row = {"state": k, "name": names(k), "exact": format_pq(x), "float": y, **digits,
               "doubles_from_nearest": doubles_between(y, x)}
        text = (f"{names(k)}: PRISM prints {digits['printed']}, exact {digits['exact_decimal']}...: "
                f"{digits['correct_digits']} significant digits right"
                + (f", then {digits['wrong_digits']!r} wrong" if digits["wrong_digits"] else "")
                + f"; {row['doubles_from_nearest']} doubles from the nearest one")
        if query.comparison is not None:
            exact_holds = _HOLDS[query.comparison](x, query.bound)
            float_holds = _HOLDS[query.comparison](Fraction(y), query.bound)
            row.update({"exact_holds": exact_holds, "float_holds": float_holds,
                        "float_answer_right": exact_holds == float_holds})
            text += (f"; {query.operator}{query.comparison}bound: exactly {str(exact_holds).lower()}, "
                     f"the float says {str(float_holds).lower()}"
                     + ("" if exact_holds == float_holds else " (WRONG)"))
        flips = threshold_flips(y, x, query.comparison or ">=")
        row["wrong_thresholds"] = flips
        if flips is not None:
            text += f"; the float answers {query.operator}{query.comparison or '>='}b wrongly for every b in {flips}"
        rows.append(row)
        lines.append(text)
    facts = [Fact("initial_states", "initial states", rows, "\n  ".join([""] + lines))]
    return facts, {"rows": rows}
