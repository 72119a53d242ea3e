"""``exactplay solve race --backend ball --prec 53``: the Race in float64 intervals (:mod:`.interval`).

At 53 bits the race runs in numpy arrays of interval ends, outward rounded, one
anti-diagonal at a time, with each complement ``1 - F`` kept as its own interval on
a wide exponent: every value is an enclosure of the exact one and every decision is
certified or *unresolved at 53 bits*, as with arb balls, for about a tenth of the CPU time
of 128-bit arb balls and with more decisions certified than arb at 1024 bits (measured:
benchmarks/race_interval.py).  Other
precisions run the arb balls of :mod:`.ball`.

The printed decimals: the enclosure's two ends are rounded to ``digits`` decimals;
when they agree the decimal is certified (rounding is monotone), otherwise the result
says how many decimals are certain at 53 bits (raise ``--prec`` for arb balls).
:func:`solve_interval` returns an :class:`~exactplay.audit.enclosure_result.EnclosureResult`
(no per-cell widths: the run keeps none), rendered by :mod:`exactplay.present.render.enclosure`.
"""

from __future__ import annotations

from fractions import Fraction

from exactplay.audit.result import Fact
from exactplay.numbers.balls import ZivDecimal, certain_decimals
from exactplay.numbers.decimals import decimal_digits
from exactplay.audit.enclosure_result import AnswerEnclosure, DecisionCertificates, EnclosureResult, PrecisionRound
from exactplay.progress import SILENT

from .interval import interval_run

INTERVAL_PREC = 53  # --prec of --backend ball that runs this path
METHOD = "float64 intervals, outward rounded, by anti-diagonals; 1 - F on a wide exponent"
# measured CPU: 8.3 s at 2,000 and 296 s at 10,000 (time ~N^2.25: bands of fewer rows past ~3,000);
# memory ~330 MB at every target (the bands hold ~3M numbers per array)
CPU_SECONDS_AT_10000, MEGABYTES = 296.0, 330


def answer_decimal(lo: float, hi: float, digits: int) -> ZivDecimal:
    """The decimal both ends of ``[lo, hi]`` round to, if they agree (one evaluation at 53 bits).

    >>> answer_decimal(0.52592592592592535, 0.5259259259259266, 8).rounded
    '0.52592593'
    >>> z = answer_decimal(0.12341, 0.12349, 8)
    >>> z.rounded, z.certain_digits
    (None, 3)
    """
    flo, fhi = Fraction(lo), Fraction(hi)
    r = decimal_digits(flo, digits)
    if r == decimal_digits(fhi, digits):
        return ZivDecimal(digits, r, digits, INTERVAL_PREC, flo, fhi, 1)
    return ZivDecimal(digits, None, certain_decimals(flo, fhi, digits), INTERVAL_PREC, flo, fhi, 1)


def solve_interval(target: int, digits: int = 8, progress=SILENT) -> EnclosureResult:
    """The ``solve`` result of the Race from one float64 interval run."""
    return interval_result(interval_run(target, progress=progress), digits)


def interval_result(run, digits: int = 8, backend: str = "ball") -> EnclosureResult:
    """The ``solve`` result of a float64 interval run (``backend``: the name asked for, ball or auto)."""
    target = run.target
    lo, hi = run.answer
    z = answer_decimal(lo, hi, digits)
    (mlo, elo), (mhi, ehi) = run.answer_complement_wide
    decisions = DecisionCertificates(
        run.decisions, [PrecisionRound(INTERVAL_PREC, run.certified, run.unresolved_count, run.seconds)],
        list(run.unresolved_cells), sample_note=" (cells (a, b)); --prec 128 or more runs arb balls",
        facts=[Fact("unresolved_rows_sample", None, [list(r) for r in run.unresolved_sample()]),
               Fact("prec_bits", None, INTERVAL_PREC)])
    complement = {"lower": [mlo, elo], "upper": [mhi, ehi], "meaning": "[m, e]: m * 2^e"}
    return EnclosureResult(
        "race", {"target": target}, f"The Race, target {target}: Player 2 wins with probability G({target},{target})",
        backend, INTERVAL_PREC, arithmetic=f"{backend}: 53-bit float64 intervals",
        answer=AnswerEnclosure(f"G({target},{target})", Fraction(lo), Fraction(hi), INTERVAL_PREC, z),
        decisions=decisions, headline=[Fact("method", None, METHOD)],
        facts=[Fact("answer_complement", None, complement), first_choice_fact(run),
               Fact("seconds", None, round(run.seconds, 3)), Fact("cpu_seconds", None, round(run.cpu_seconds, 3)),
               Fact("band_rows", None, run.rows_per_band),
               Fact("band_megabytes", None, round(run.band_bytes / 1e6, 1))])


def first_choice_fact(run) -> Fact:
    """The first choice of the run (an interval or a ball run): ``T`` after Player 1's first toss
    (JSON ``first_choice_T``: ``{"t", "certified"}`` per outcome of that toss)."""
    def say(key):
        t, sure = run.first.get(key, (None, True))
        return f"T = {t}" + ("" if sure else " (unresolved)")

    text = (f"{say('after_player1_misses')} if Player 1's first toss misses, {say('after_player1_scores')} if it "
            f"scores" if run.target > 1 else say("after_player1_misses"))
    return Fact("first_choice_T", "first choice", {k: {"t": t, "certified": s} for k, (t, s) in run.first.items()},
                text)
