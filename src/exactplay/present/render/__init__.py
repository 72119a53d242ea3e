"""Showing results to people and to machines: the one presentation of exactplay.

* :func:`exact_number` -- an exact rational as JSON fields and text lines;
* :func:`audit_json`, :func:`audit_lines`, :func:`audit_html` -- an
  :class:`~exactplay.audit.result.AuditResult` (any game's, a float table's, a user model's)
  as strict-JSON-ready data, text lines and an HTML fragment, laid out the same way for all;
* :func:`enclosure_json`, :func:`enclosure_lines`, :func:`enclosure_html` -- an
  :class:`~exactplay.audit.enclosure_result.EnclosureResult` (balls and intervals, ``--backend ball|auto``);
* :func:`emit` -- what a command prints (``--json`` or text).
"""

from __future__ import annotations

import sys
from typing import Any

from ... import lazy_attributes
from ...errors import EXIT_OK
from ...numbers.backends import InfiniteValue, as_fraction, format_pq
from ...strict_json import COMPACT_FROM, dumps

# re-exported, imported on first use (a model's solve prints neither an audit nor an enclosure)
_LAZY = {"audit_html": ".audit", "audit_json": ".audit", "audit_lines": ".audit",
         "enclosure_html": ".enclosure", "enclosure_json": ".enclosure", "enclosure_lines": ".enclosure"}


__getattr__ = lazy_attributes(__name__, _LAZY)[0]


def _instance(report, module: str, cls: str) -> bool:
    """``isinstance(report, module.cls)``, False without importing ``module`` (none of its objects exist then)."""
    m = sys.modules.get(module)
    return m is not None and isinstance(report, getattr(m, cls))


def shorten(digits: str, keep: int = 12) -> str:
    """``123456...7890`` for long digit strings; short ones unchanged."""
    if len(digits) <= 2 * keep + 3:
        return digits
    return f"{digits[:keep]}...{digits[-keep:]}"


def exact_number(x: Any, digits: int = 8, full: bool = False) -> tuple[dict, list[str]]:
    """JSON fields and text lines describing the exact rational ``x``.

    The decimal is correctly rounded from the exact value, so its digits are
    certain unless the value lies exactly on a rounding boundary; the distance
    to the nearest boundary says how close that came.  An :class:`~exactplay.numbers.backends.InfiniteValue`
    is ``"value": null`` with its ``value_reason`` and the decimal ``inf``.
    """
    if isinstance(x, InfiniteValue):
        why = x.reason.removeprefix("infinite: ")
        return ({"value": None, "value_reason": x.reason, "decimal": "inf", "digits": digits},
                [f"exact value : infinite ({why})", "decimal     : inf"])
    from ...audit.judge import rounding_report

    f = as_fraction(x)
    num, den = str(abs(f.numerator)), str(f.denominator)
    sign = "-" if f < 0 else ""
    rr = rounding_report(f, digits)
    data = {
        "value": format_pq(f),
        "numerator_digits": len(num),
        "denominator_digits": len(den),
        "decimal": rr.rounded,
        "digits": digits,
        "decimal_certain": rr.certain,
        "distance_to_rounding_boundary": float(rr.distance),
    }
    shown = f"{sign}{num}/{den}" if full else f"{sign}{shorten(num)}/{shorten(den)}"
    lines = [
        f"exact value : {shown}",
        f"              (numerator {len(num)} digits, denominator {len(den)} digits)",
    ]
    certainty = (
        "all digits certain" if rr.certain else "exact value lies ON a rounding boundary (ties to even)"
    )
    lines.append(
        f"decimal     : {rr.rounded}  ({certainty}; {float(rr.distance):.2e} from the nearest rounding boundary)"
    )
    return data, lines


def as_report(result: AuditResult):
    """An :class:`AuditResult` as a :class:`~exactplay.present.rendered.Report` (its JSON data and text lines)."""
    from ..rendered import Report
    from .audit import audit_json, audit_lines

    return Report(audit_json(result), audit_lines(result))


def emit(report, as_json: bool) -> int:
    """Print a report (``data`` as strict JSON with ``--json``, else its ``lines``; an
    :class:`AuditResult` or :class:`EnclosureResult` by its renderer); exit status 0."""
    if _instance(report, "exactplay.audit.result", "AuditResult"):
        from .audit import audit_json, audit_lines

        print(dumps(audit_json(report)) if as_json else "\n".join(audit_lines(report)))
        return EXIT_OK
    if _instance(report, "exactplay.audit.enclosure_result", "EnclosureResult"):
        from .enclosure import enclosure_json, enclosure_lines

        print(dumps(enclosure_json(report)) if as_json else "\n".join(enclosure_lines(report)))
        return EXIT_OK
    if as_json:
        print(dumps(report.data, compact_from=COMPACT_FROM))
    else:
        for line in report.lines:
            print(line)
    return EXIT_OK
