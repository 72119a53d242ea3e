"""The Race in balls: certified enclosures and decisions at targets exact arithmetic cannot reach.

:func:`ball_run` evaluates the recurrence of :mod:`exactplay.games.race` (the
same :func:`~exactplay.games.race._float_cell`: every candidate
``F_t = (2 q_t S_t + (1 - q_t) F(a-1, b)) / (1 + q_t)`` and :func:`~exactplay.numbers.backends.best_of`)
in the ball field, keeping only two rows (memory ``O(N)``, not ``O(N^2)``).
Each ``F(a, b)`` is a ball containing the exact value; the best ``t`` of a cell
is *certified* when its candidate's ball lies above every other candidate's
ball, otherwise *unresolved at this precision* (the exact gaps shrink like
``3^-a``, so a cell needs about ``a log2 3`` bits).

A ball certificate stores each ball's exact ends ``mid -+ rad``
(:func:`~exactplay.numbers.balls.endpoints`): exactly the intervals the later cells
were computed from, so the checker's exact interval re-evaluation of each cell
from the stored ends lies inside the stored interval
(:mod:`exactplay.checker.race_ball`).

With ``with_float`` the published float program runs alongside, row by row,
and is judged against the balls: each float value's error is enclosed
(``|float - ball|``), and each float decision is *certified correct* (the
ball's certified winner), *wrong* (some other candidate's ball lies above the
float choice's ball) or *unresolved*.

:func:`solve_ball` and :func:`audit_ball` (``--backend ball|auto``) return an
:class:`~exactplay.audit.enclosure_result.EnclosureResult`, rendered by :mod:`exactplay.present.render.enclosure`.
"""

from __future__ import annotations

import time
from collections import Counter
from dataclasses import dataclass, field
from fractions import Fraction

from flint import arb

from exactplay.audit.result import Fact
from exactplay.numbers.balls import endpoints, finite_ends, ziv_decimal
from exactplay.audit.enclosure_result import (CORRECT, UNRESOLVED, WRONG, AnswerEnclosure, DecisionCertificates,
                                        EnclosureResult, FloatJudgement, PrecisionRound, lower_measure,
                                        upper_measure, width_summary)
from exactplay.numbers.backends import Backend, get_backend
from exactplay.progress import SILENT

from .interval_report import first_choice_fact
from .table import _float_cell, t_limit
SAMPLE = 10  # unresolved cells listed by name


@dataclass
class BallRun:
    """What a ball run of the Race found (``rows`` only with ``keep_rows``)."""

    target: int
    prec: int
    answer: arb  # G(N, N)
    first: dict  # "after_player1_misses"/"after_player1_scores" -> (t, certified)
    decisions: int = 0
    certified: int = 0
    unresolved: list = field(default_factory=list)  # the first SAMPLE unresolved cells
    unresolved_by_row: Counter = field(default_factory=Counter)
    seconds: float = 0.0
    rows: list | None = None  # [a, b, lower, upper, t, certified] with Fraction ends
    float_answer: float | None = None
    float_classes: Counter = field(default_factory=Counter)
    float_wrong: list = field(default_factory=list)
    float_unresolved: list = field(default_factory=list)  # every (cell, float t) the balls left open
    float_wrong_loss: float = 0.0  # the largest certified loss F_best - F_float over the wrong decisions
    float_error_upper: float = 0.0  # every float F is within this of its exact value
    float_error_upper_at: tuple | None = None
    float_error_lower: float = 0.0  # some float F is at least this far from its exact value
    float_error_lower_at: tuple | None = None
    float_seconds: float = 0.0
    widest: arb | None = None  # the largest radius of a ball F(a, b), and where
    widest_at: tuple | None = None

    @property
    def unresolved_count(self) -> int:
        return self.decisions - self.certified


def ball_run(target: int, prec: int, with_float: bool = False, keep_rows: bool = False,
             progress=SILENT) -> BallRun:
    """The table by rows in ``prec``-bit balls (see the module docstring)."""
    B = get_backend("ball", prec)
    with B.precision():
        return _run(B, target, with_float, keep_rows, progress)


def _run(B: Backend, N: int, with_float: bool, keep_rows: bool, progress) -> BallRun:
    Fl = get_backend("float")
    gains = [(t, 2 ** (t - 1)) for t in range(1, t_limit(N) + 1)]
    one, half = B.one, B.q(1, 2)
    prev_F = [B.zero] * (N + 1)
    f_prev = [0.0] * (N + 1)
    run = BallRun(N, B.prec, None, {})
    run.rows = [] if keep_rows else None
    widest = arb(0)
    start = time.perf_counter()
    float_time = 0.0
    progress.start(f"race target {N} in {B.prec}-bit balls" + (" and float" if with_float else ""), N)
    for a in range(1, N + 1):
        Fa, Ga = [one] * (N + 1), [one] * (N + 1)
        if with_float:
            fFa, fGa = [1.0] * (N + 1), [1.0] * (N + 1)
        for b in range(1, N + 1):
            best, bt, cands, sure = _float_cell(B, Fa, Ga, prev_F, b, gains, one, with_float)
            Fa[b] = best
            Ga[b] = (prev_F[b] + best) * half
            if widest.is_finite() and not best.rad() <= widest:  # exact radii; an unbounded ball's is [+/- inf]
                widest, run.widest_at = best.rad(), (a, b)
            run.decisions += 1
            if sure:
                run.certified += 1
            else:
                run.unresolved_by_row[a] += 1
                if len(run.unresolved) < SAMPLE:
                    run.unresolved.append((a, b))
            if keep_rows:
                lo, hi = endpoints(best)
                run.rows.append([a, b, lo, hi, bt, sure])
            if a == N and b == N:
                run.first["after_player1_misses"] = (bt, sure)
            if a == N - 1 and b == N:
                run.first["after_player1_scores"] = (bt, sure)
            if with_float:
                t0 = time.perf_counter()
                fbest, ft, _, _ = _float_cell(Fl, fFa, fGa, f_prev, b, gains, 1.0, False)
                fFa[b] = fbest
                fGa[b] = (f_prev[b] + fbest) * 0.5
                float_time += time.perf_counter() - t0
                _judge_float(run, (a, b), fbest, ft, best, bt, sure, cands)
        if with_float:
            f_prev = fFa
            if a == N:
                run.float_answer = fGa[N]
        prev_F = Fa
        if a == N:
            run.answer = Ga[N]
        progress.advance()
    run.seconds = time.perf_counter() - start - float_time
    run.float_seconds = float_time
    run.widest = widest
    return run


def _judge_float(run: BallRun, cell, fvalue: float, ft: int, ball: arb, bt: int, sure: bool, cands: dict) -> None:
    err = arb(fvalue) - ball  # exact float minus a ball around the exact value
    up, low = float(err.abs_upper()), float(err.abs_lower())
    if up > run.float_error_upper:
        run.float_error_upper, run.float_error_upper_at = up, cell
    if low > run.float_error_lower:
        run.float_error_lower, run.float_error_lower_at = low, cell
    mine = cands[ft]
    if sure:
        cls = CORRECT if ft == bt else WRONG
    elif any(v > mine for t, v in cands.items() if t != ft):
        cls = WRONG
    else:
        cls = UNRESOLVED
    run.float_classes[cls] += 1
    if cls == UNRESOLVED:
        run.float_unresolved.append((cell, ft))
    if cls == WRONG:
        if len(run.float_wrong) < SAMPLE:
            run.float_wrong.append(cell)
        loss = max(float((v - mine).lower()) for v in cands.values())  # a certified lower bound
        run.float_wrong_loss = max(run.float_wrong_loss, loss)


def answer_decimal(target: int, prec: int, digits: int, first: arb | None = None, max_prec: int | None = None):
    """Ziv's loop on ``G(N, N)``: rerun the table at doubled precision until the decimal is certain."""

    def evaluate(p: int) -> arb:
        if p == prec and first is not None:
            return first
        return ball_run(target, p).answer

    return ziv_decimal(evaluate, digits, prec, max_prec)


# ------------------------------------------------------------------ results (solve, audit, --backend auto)

AUTO_ROUNDS = 3  # precision raises --backend auto tries before exact arithmetic
SOLVER_UNDER_AUDIT = "published program: first form of F_t, t = 1..t0(N)+4, strict > keeps smallest t"


def needed_prec(run: BallRun) -> int:
    """A precision that should settle the unresolved rows: the exact gaps at row ``a`` are
    about ``3^-a``, i.e. ``a log2(3) < 1.6 a`` bits, plus 64 bits of headroom."""
    worst = max(run.unresolved_by_row, default=0)
    return max(2 * run.prec, int(1.6 * worst) + 64)


def _round(run: BallRun) -> PrecisionRound:
    return PrecisionRound(run.prec, run.certified, run.unresolved_count, run.seconds)


def settle(target: int, prec: int, auto: bool, progress=SILENT,
           with_float: bool = False) -> tuple[BallRun, list[PrecisionRound], int | None]:
    """A ball run; with ``auto``, rerun at a higher precision while decisions stay unresolved
    (at most :data:`AUTO_ROUNDS` times), then decide the first choices exactly if the target fits.
    Returns the last run, every round, and how many unresolved decisions went to exact arithmetic."""
    run = ball_run(target, prec, with_float=with_float, progress=progress)
    rounds = [_round(run)]
    exact_settled = None
    if auto:
        for _ in range(AUTO_ROUNDS):
            if not run.unresolved_count:
                break
            run = ball_run(target, needed_prec(run), with_float=with_float, progress=progress)
            rounds.append(_round(run))
        if run.unresolved_count:
            from .table import MAX_TARGET, solve_table

            if target <= MAX_TARGET:
                exact = solve_table(target, "mpq", progress=progress)
                exact_settled = run.unresolved_count
                for key in run.first:
                    a, b = (target, target) if key == "after_player1_misses" else (target - 1, target)
                    run.first[key] = (exact.best_t[(a, b)], True)
    return run, rounds, exact_settled


def _answer(target: int, run: BallRun, digits: int, key: str = "answer") -> AnswerEnclosure:
    lo, hi = finite_ends(run.answer)
    z = answer_decimal(target, run.prec, digits, run.answer)
    return AnswerEnclosure(f"G({target},{target})", lo, hi, run.prec, z, key=key,
                           name_key="answer_name" if key == "answer" else None)


def _widths(run: BallRun):
    return width_summary([(run.widest_at, float(run.widest))], run.prec, "cells F(a,b)", states=run.decisions)


def _decisions(run: BallRun, rounds: list, settled: int | None, key: str = "decisions") -> DecisionCertificates:
    return DecisionCertificates(
        run.decisions, rounds, list(run.unresolved), key=key, rounds_key="precision_rounds",
        facts=[Fact("settled_by_exact", "" if settled else None, settled,
                    f"{settled or 0:,} left to exact arithmetic (--backend auto)")])


def solve_ball(target: int, B: Backend, digits: int = 8, progress=SILENT) -> EnclosureResult:
    """``solve race --backend ball|auto``: G(N, N) enclosed, its decimal certified, the decisions certified."""
    run, rounds, settled = settle(target, B.prec, B.name == "auto", progress)
    progress.start("certifying the printed decimals (Ziv's loop)", None)
    return EnclosureResult(
        "race", {"target": target}, f"The Race, target {target}: Player 2 wins with probability G({target},{target})",
        B.name, run.prec, arithmetic=f"{B.name}: {run.prec}-bit balls", answer=_answer(target, run, digits),
        widths=_widths(run), decisions=_decisions(run, rounds, settled), facts=[first_choice_fact(run)])


def audit_ball(target: int, B: Backend, digits: int = 8, progress=SILENT) -> EnclosureResult:
    """The published float program judged against balls: its values' errors enclosed, its
    printed answer against the Ziv-certified decimal, each decision certified correct, wrong or unresolved."""
    from exactplay.audit.judge import decimal_digits

    auto = B.name == "auto"
    run, rounds, settled = settle(target, B.prec, auto, progress, with_float=True)
    answer = _answer(target, run, digits, key="ball_decimal")
    z = answer.decimal
    printed = decimal_digits(Fraction(run.float_answer), digits)
    program = FloatJudgement(
        "published program", printed, None if z.rounded is None else printed == z.rounded,
        upper_measure(run.float_error_upper), run.float_error_upper_at, dict(run.float_classes),
        float_value=run.float_answer, error_lower=lower_measure(run.float_error_lower),
        error_lower_at=run.float_error_lower_at, wrong_sample=list(run.float_wrong),
        wrong_loss=lower_measure(run.float_wrong_loss),
        by_exact=_exact_verdicts(target, run) if auto and run.float_unresolved else None)
    return EnclosureResult(
        "race", {"target": target},
        f"Audit of the published Race solver against {run.prec}-bit balls, target {target} "
        f"({run.decisions:,} cells F(a,b))", B.name, run.prec, answer=answer, widths=_widths(run),
        decisions=_decisions(run, rounds, settled, key="ball_decisions"), floats=[program],
        values_name="float F(a,b)", headline=[Fact("solver_under_audit", "under audit", SOLVER_UNDER_AUDIT)],
        facts=[Fact("seconds", "time", {"ball": round(run.seconds, 3), "float": round(run.float_seconds, 3)},
                    f"balls {run.seconds:.1f} s, float program {run.float_seconds:.1f} s")])


def _exact_verdicts(target: int, run: BallRun) -> dict:
    """Exact verdicts on the float decisions balls left open (``auto``; targets exact can reach)."""
    from .table import MAX_TARGET, solve_table

    if target > MAX_TARGET:
        return {"beyond exact (target > %d)" % MAX_TARGET: len(run.float_unresolved)}
    exact = solve_table(target, "mpq", keep_candidates=True)
    out = Counter()
    for cell, ft in run.float_unresolved:
        cands = exact.candidates[cell]
        top = max(cands.values())
        if ft not in cands or cands[ft] < top:
            out["wrong"] += 1
        elif sum(1 for v in cands.values() if v == top) > 1:
            out["exact tie"] += 1
        else:
            out["correct"] += 1
    return dict(out)
