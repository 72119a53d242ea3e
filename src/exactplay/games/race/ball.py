"""The Race in balls: certified enclosures and decisions at targets exact arithmetic cannot reach.

:func:`ball_run` evaluates the recurrence of :mod:`exactplay.games.race` (the
same :func:`~exactplay.games.race._float_cell`: every candidate
``F_t = (2 q_t S_t + (1 - q_t) F(a-1, b)) / (1 + q_t)`` and :func:`~exactplay.numbers.best_of`)
in the ball field, keeping only two rows (memory ``O(N)``, not ``O(N^2)``).
Each ``F(a, b)`` is a ball containing the exact value; the best ``t`` of a cell
is *certified* when its candidate's ball lies above every other candidate's
ball, otherwise *unresolved at this precision* (the exact gaps shrink like
``3^-a``, so a cell needs about ``a log2 3`` bits).

A ball certificate stores each ball's exact ends ``mid -+ rad``
(:func:`~exactplay.balls.endpoints`): exactly the intervals the later cells
were computed from, so the checker's exact interval re-evaluation of each cell
from the stored ends lies inside the stored interval
(:mod:`exactplay.checker.race_ball`).

With ``with_float`` the published float program runs alongside, row by row,
and is judged against the balls: each float value's error is enclosed
(``|float - ball|``), and each float decision is *certified correct* (the
ball's certified winner), *wrong* (some other candidate's ball lies above the
float choice's ball) or *unresolved*.
"""

from __future__ import annotations

import time
from collections import Counter
from dataclasses import dataclass, field
from fractions import Fraction

from flint import arb

from exactplay.balls import endpoints, ziv_decimal
from exactplay.numbers import Backend, get_backend
from exactplay.progress import SILENT

from .interval_report import first_line as _first_line
from .table import _float_cell, t_limit

CORRECT, WRONG, UNRESOLVED = "certified correct", "wrong", "unresolved"
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


# ------------------------------------------------------------------ reports (solve, audit, --backend auto)

AUTO_ROUNDS = 3  # precision raises --backend auto tries before exact arithmetic


def needed_prec(run: BallRun) -> int:
    """A precision that should settle the unresolved rows: the exact gaps at row ``a`` are
    about ``3^-a``, i.e. ``a log2(3) < 1.6 a`` bits, plus 64 bits of headroom."""
    worst = max(run.unresolved_by_row, default=0)
    return max(2 * run.prec, int(1.6 * worst) + 64)


def settle(target: int, prec: int, auto: bool, progress=SILENT, with_float: bool = False) -> tuple[BallRun, dict]:
    """A ball run; with ``auto``, rerun at a higher precision while decisions stay unresolved
    (at most :data:`AUTO_ROUNDS` times), then decide what is left exactly if the target fits."""
    run = ball_run(target, prec, with_float=with_float, progress=progress)
    history = [{"prec_bits": run.prec, "certified": run.certified, "unresolved": run.unresolved_count,
                "seconds": round(run.seconds, 3)}]
    exact_settled = None
    if auto:
        for _ in range(AUTO_ROUNDS):
            if not run.unresolved_count:
                break
            run = ball_run(target, needed_prec(run), with_float=with_float, progress=progress)
            history.append({"prec_bits": run.prec, "certified": run.certified, "unresolved": run.unresolved_count,
                            "seconds": round(run.seconds, 3)})
        if run.unresolved_count:
            from .table import MAX_TARGET, solve_table

            if target <= MAX_TARGET:
                exact = solve_table(target, "mpq", progress=progress)
                exact_settled = run.unresolved_count
                for key in run.first:
                    a, b = (target, target) if key == "after_player1_misses" else (target - 1, target)
                    run.first[key] = (exact.best_t[(a, b)], True)
    return run, {"rounds": history, "settled_by_exact": exact_settled}


def _enclosure(x: arb) -> dict:
    from exactplay.numbers import format_pq

    lo, hi = endpoints(x)
    return {"lower": format_pq(lo), "upper": format_pq(hi), "width": float(hi - lo)}


def _decision_lines(run: BallRun, extra: dict) -> tuple[dict, list]:
    data = {"total": run.decisions, "certified": run.certified, "unresolved": run.unresolved_count,
            "unresolved_sample": [list(c) for c in run.unresolved], "precision_rounds": extra["rounds"],
            "settled_by_exact": extra["settled_by_exact"]}
    lines = []
    for r in extra["rounds"]:
        lines.append(f"decisions   : {r['certified']:,} of {run.decisions:,} certified at {r['prec_bits']} bits, "
                     f"{r['unresolved']:,} unresolved at this precision ({r['seconds']:.1f} s)")
    if run.unresolved:
        lines.append(f"              unresolved, e.g. {', '.join(map(str, run.unresolved[:4]))}")
    if extra["settled_by_exact"]:
        lines.append(f"              {extra['settled_by_exact']:,} left to exact arithmetic (--backend auto)")
    return data, lines


def solve_ball(target: int, B: Backend, digits: int = 8, progress=SILENT):
    from exactplay.games import Report

    auto = B.name == "auto"
    run, extra = settle(target, B.prec, auto, progress)
    progress.start("certifying the printed decimals (Ziv's loop)", None)
    z = answer_decimal(target, run.prec, digits, run.answer)
    dec_data, dec_lines = _decision_lines(run, extra)
    data = {"game": "race", "params": {"target": target}, "backend": B.name, "prec_bits": run.prec,
            "answer_name": f"G({target},{target})", "answer": {**_enclosure(run.answer), **z.to_dict()},
            "decisions": dec_data,
            "first_choice_T": {k: {"t": t, "certified": s} for k, (t, s) in run.first.items()}}
    lo, hi = endpoints(run.answer)
    lines = [f"The Race, target {target}: Player 2 wins with probability G({target},{target})  "
             f"[{B.name}: {run.prec}-bit balls]",
             f"enclosure   : [{float(lo):.17g}, {float(hi):.17g}] contains the exact value "
             f"(width {float(hi - lo):.2e})", z.line()] + dec_lines + [_first_line(run)]
    return Report(data, lines)


def audit_ball(target: int, B: Backend, digits: int = 8, progress=SILENT):
    """The published float program judged against balls: its values' errors enclosed, its
    printed answer against the Ziv-certified decimal, each decision certified correct, wrong or unresolved."""
    from exactplay.audit import decimal_digits
    from exactplay.games import Report

    auto = B.name == "auto"
    run, extra = settle(target, B.prec, auto, progress, with_float=True)
    z = answer_decimal(target, run.prec, digits, run.answer)
    by_exact = _exact_verdicts(target, run) if auto and run.float_unresolved else None
    printed = decimal_digits(Fraction(run.float_answer), digits)
    agree = None if z.rounded is None else printed == z.rounded
    cls = {k: run.float_classes.get(k, 0) for k in (CORRECT, WRONG, UNRESOLVED)}
    data = {"game": "race", "params": {"target": target}, "backend": B.name, "prec_bits": run.prec,
            "solver_under_audit": "published program: first form of F_t, t = 1..t0(N)+4, strict > keeps smallest t",
            "float_error_upper": run.float_error_upper, "float_error_upper_at": list(run.float_error_upper_at or ()),
            "float_error_lower": run.float_error_lower, "float_error_lower_at": list(run.float_error_lower_at or ()),
            "float_answer": run.float_answer, "float_decimal": printed, "ball_decimal": z.to_dict(),
            "float_decimal_agrees": agree, "float_decisions": cls,
            "float_wrong_sample": [list(c) for c in run.float_wrong],
            "float_wrong_largest_certified_loss": run.float_wrong_loss,
            "seconds": {"ball": round(run.seconds, 3), "float": round(run.float_seconds, 3)}}
    verdict = {True: "agree (certified)", False: "DIFFER (certified)", None: "not decided at this precision"}[agree]
    lines = [f"Audit of the published Race solver against {run.prec}-bit balls, target {target} "
             f"({run.decisions:,} cells F(a,b))",
             f"float values  : every float F(a,b) within {run.float_error_upper:.3e} of the exact value "
             f"(largest at {run.float_error_upper_at}); certainly off by >= {run.float_error_lower:.3e} "
             f"at {run.float_error_lower_at}",
             f"float answer  : prints {printed}; balls certify {z.rounded or '(not certified)'}: {verdict}",
             "float decisions: " + ", ".join(f"{k} {v:,}" for k, v in cls.items()),
             f"time          : balls {run.seconds:.1f} s, float program {run.float_seconds:.1f} s"]
    if run.float_wrong:
        lines.append(f"                wrong, e.g. {', '.join(map(str, run.float_wrong[:4]))}; the largest certified "
                     f"loss F_best - F_float >= {run.float_wrong_loss:.1e}")
    if by_exact is not None:
        data["float_unresolved_by_exact"] = by_exact
        lines.append("                the unresolved ones, decided exactly (--backend auto): "
                     + ", ".join(f"{k} {v:,}" for k, v in by_exact.items()))
    return Report(data, lines)


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
