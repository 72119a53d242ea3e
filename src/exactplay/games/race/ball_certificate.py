"""Ball certificates of the Race: every F(a, b) as an exact dyadic interval.

A row ``[a, b, [m_lo, e_lo], [m_hi, e_hi], t, certified]`` says
``m_lo 2^e_lo <= F(a, b) <= m_hi 2^e_hi`` and that ``t`` is the best gamble,
*certified* (its candidate's interval lies above every other candidate's) or
not.  The intervals are the exact ends ``mid -+ rad`` of the balls the later
cells were computed from, so re-evaluating a cell in exact interval arithmetic
from the stored intervals stays inside the stored interval; that is what the
stdlib checker (:mod:`exactplay.checker.ball`) proves, cell by cell.
"""

from __future__ import annotations

import hashlib
import json

from exactplay import __version__
from exactplay.numbers.balls import ziv_decimal
from exactplay.errors import UsageError
from exactplay.progress import SILENT

from .ball import ball_run

MAX_CERT_TARGET = 1000  # ~1M rows of two ~40-digit mantissas at 128 bits: ~120 MB of JSON
COLUMNS = ["a", "b", "F_lower", "F_upper", "best_t", "certified"]


def _dyadic(x) -> list:
    """An exact dyadic rational (Fraction with a power-of-two denominator) as ``[m, e]``."""
    d = x.denominator
    e = d.bit_length() - 1
    if d != 1 << e:  # pragma: no cover - ends of balls are dyadic
        raise ValueError(f"{x} is not dyadic")
    return [x.numerator, -e]


def rows_digest(rows) -> str:
    """SHA-256 of the rows as compact JSON (the checker recomputes it)."""
    return hashlib.sha256(json.dumps(rows, separators=(",", ":"), allow_nan=False).encode()).hexdigest()


def certify_ball(target: int, prec: int, progress=SILENT) -> dict:
    """The ball certificate of the Race at ``target`` from one ``prec``-bit ball run."""
    if target > MAX_CERT_TARGET:
        raise UsageError(f"ball certificates go up to target {MAX_CERT_TARGET} (one row of exact dyadic ends per "
                         f"cell); target {target} would write ~{target * target * 120 / 1e6:.0f} MB")
    run = ball_run(target, prec, keep_rows=True, progress=progress)
    rows = [[a, b, _dyadic(lo), _dyadic(hi), t, bool(sure)] for a, b, lo, hi, t, sure in run.rows]
    z = ziv_decimal(lambda p: run.answer, 8, prec, prec)  # the decimal this run's enclosure certifies, if any
    return {
        "format": "exactplay-certificate",
        "version": 2,
        "kind": "ball",
        "recurrence": "race",
        "params": {"target": target},
        "prec_bits": prec,
        "tool_version": __version__,
        "answer": {"name": f"G({target},{target})", "lower": _dyadic(z.lower), "upper": _dyadic(z.upper),
                   "digits": 8, "decimal": z.rounded},
        "columns": COLUMNS,
        "rows": rows,
        "decisions": {"certified": run.certified, "unresolved": run.unresolved_count},
        "table_sha256": rows_digest(rows),
        "notes": "[m, e] means m * 2^e. F(a,b): Player 2's winning probability at Player 2's turn, a and b points "
                 "still needed; G = (F(a-1,b)+F(a,b))/2; F(0,b) = 0, F(a,0) = 1.",
    }
