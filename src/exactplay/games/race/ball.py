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

from flint import arb

from exactplay.balls import endpoints, ziv_decimal
from exactplay.numbers import Backend, get_backend
from exactplay.progress import SILENT

from . import _float_cell, t_limit

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
    if cls == WRONG and len(run.float_wrong) < SAMPLE:
        run.float_wrong.append(cell)


def answer_decimal(target: int, prec: int, digits: int, first: arb | None = None, max_prec: int | None = None):
    """Ziv's loop on ``G(N, N)``: rerun the table at doubled precision until the decimal is certain."""

    def evaluate(p: int) -> arb:
        if p == prec and first is not None:
            return first
        return ball_run(target, p).answer

    return ziv_decimal(evaluate, digits, prec, max_prec)
