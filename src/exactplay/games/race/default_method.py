"""``solve race --backend ball|auto`` without ``--prec``: the fastest method that certifies, then the next.

Measured side by side (``python benchmarks/ball_default.py race 500 1000 2000``, CPU seconds on the
shared 2-core machine): float64 intervals (:mod:`.interval`) 0.85 / 3.2 / 16.9 s and every
decision certified; arb balls at 128 bits (:mod:`.ball`) 7.6 / 32.9 / ~150 s with 80% / 72% / 66%
certified (64 bits: the same time, fewer); exact mpq 3.8 / 34 s (refused past target 2,000). So the
intervals run first:

* ``ball``: they certify when both ends of ``G(N, N)``'s interval round to the same ``--digits``
  decimals; otherwise arb balls at 128 bits take over (Ziv's loop raises their precision until the
  decimals are certain).  Decisions the intervals leave open are reported, as at any precision
  (arb balls certify fewer).
* ``auto``: they certify when, in addition, every decision is certified; otherwise the arb chain of
  ``--backend auto`` (128 bits, raised where rows stay open, then exact where the target fits).

The result says which method ran and, after a fallback, why (text ``method``, JSON ``default_method``).
"""

from __future__ import annotations

from exactplay.audit.result import Fact
from exactplay.audit.enclosure_result import EnclosureResult
from exactplay.numbers.backends import Backend
from exactplay.progress import SILENT

INTERVALS = "float64 intervals (--prec 53)"


def solve_default(target: int, B: Backend, digits: int = 8, progress=SILENT) -> EnclosureResult:
    """The :class:`~exactplay.audit.enclosure_result.EnclosureResult` of the first method that certifies."""
    from .interval import interval_run
    from .interval_report import interval_result

    run = interval_run(target, progress=progress)
    result = interval_result(run, digits, B.name)
    decimal = result.answer.decimal.rounded is not None
    if decimal and (B.name == "ball" or not run.unresolved_count):
        result.headline.append(_fact(INTERVALS, [(INTERVALS, True, run.cpu_seconds, None)]))
        return result
    why = (f"its enclosure certifies {max(result.answer.decimal.certain_digits, 0)} of the {digits} decimals"
           if not decimal else f"{run.unresolved_count:,} decisions unresolved at 53 bits")
    from .ball import solve_ball

    progress.close()
    out = solve_ball(target, B, digits, progress)
    ran = f"arb balls ({out.prec} bits)"
    out.headline.append(_fact(ran, [(INTERVALS, False, run.cpu_seconds, why), (ran, True, None, None)]))
    return out


def _fact(ran: str, tried: list) -> Fact:
    text = f"{ran}: the default without --prec, the fastest method that certifies (--prec BITS chooses another)"
    first, ok, cpu, why = tried[0]
    if not ok:
        text = f"{ran}: {first} ran first ({cpu:.1f} s CPU) and did not certify ({why})"
    return Fact("default_method", "method", {"ran": ran, "tried": [
        {"method": m, "certified": c, "cpu_seconds": None if t is None else round(t, 3), "reason": w}
        for m, c, t, w in tried]}, text)
