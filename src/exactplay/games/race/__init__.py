"""The Race (Project Euler 232).

Player 1 tosses a fair coin once per turn (heads: one point).  Player 2 picks
``T = t`` and tosses ``t`` times; all heads (probability ``q_t = 2**-t``) scores
``d_t = 2**(t-1)``.  Player 1 starts; the first to the target wins.

States ``(a, b)`` are the points still needed.  ``F(a, b)`` is Player 2's
winning probability at Player 2's turn, ``G(a, b)`` at Player 1's::

    G(a, b) = (F(a-1, b) + F(a, b)) / 2
    F(a, b) = max_t  q_t S_t + (1 - q_t) G(a, b),   S_t = 1 if d_t >= b else G(a, b - d_t)

with ``F(0, b) = 0`` and ``F(a, 0) = G(a, 0) = 1``.  Eliminating the self-loop
(fix ``t`` while the game stays at ``(a, b)``) gives the candidate values::

    F_t(a, b) = (2 q_t S_t + (1 - q_t) F(a-1, b)) / (1 + q_t)

and ``F(a, b) = max_t F_t(a, b)``; the answer is ``G(N, N)``.

:func:`solve_table` is that recurrence, written once over a number backend.
In ``float`` it *is* the published program (first form of ``F_t``,
``t = 1 .. t0(N) + 4``, strict ``>`` keeping the smallest ``t``).  In exact
arithmetic it evaluates the same candidates, but only those that a float shadow
cannot rule out (see :func:`_exact_cell`), which is what makes it fast.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass, field
from fractions import Fraction as _Fraction
from typing import Any

from exactplay.audit import audit_decisions, audit_values, rounding_report
from exactplay.certificate import build_certificate
from exactplay.claims import NOT_CHECKABLE, Claim, Verdict, verdict
from exactplay.enclosure import top_two_threshold
from exactplay.errors import UsageError
from exactplay.numbers import Backend, as_fraction, best_of, format_pq, get_backend
from exactplay.progress import SILENT
from exactplay.render import exact_number
from exactplay.games import Game, Param, Report, heavy_note, positive_int

MAX_TARGET = 2000  # solve: the fast exact table (games/race/exact.py), measured in benchmarks/bigexact.py
MAX_BALL_TARGET = 20_000  # --backend ball|auto keeps two rows of balls: time ~N^2, memory ~N
# audit, report, certify and --table hold every exact value of the table and its candidates
# (memory grows as N^3: ~1.6 GB at 500 for the audit, ~5 GB for certify), so they stop here;
# the checker's bound (checker/_bounds.py RACE_MAX_TARGET) is this one.
MAX_AUDIT_TARGET = 500


def _audit_limit(target: int, what: str) -> None:
    if target > MAX_AUDIT_TARGET:
        raise UsageError(f"race {what} keeps every exact value (memory grows as target^3, ~5 GB for certify at "
                         f"{MAX_AUDIT_TARGET}): target {target} is beyond its limit {MAX_AUDIT_TARGET} "
                         f"(solve goes to {MAX_TARGET}; --backend ball goes to {MAX_BALL_TARGET})")

# A float shadow candidate is computed from correctly rounded exact inputs by
# sums and products of nonnegative numbers (five roundings in all), so it is
# within a relative 6 * 2^-53 of the exact candidate; SHADOW_SLACK is a far
# wider relative margin (see _exact_cell).  The 6 * 2^-53 needs normal floats: up to target 500
# the smallest F, G, 1 - F, 1 - G is 1 - F(500, 1) ~ 2^-792 and a term q S is at most t_max = 14
# bits smaller, far above 2^-1022 (tested, slow: tests/test_race_hold_shadows.py); past ~600,
# cells reading an input below TINY evaluate every candidate exactly instead.
SHADOW_SLACK = 2.0**-40
# For :func:`exactplay.enclosure.top_two_threshold`: F_j (1 - slack) > F_i proves the exact F_j > F_i
# (each within a relative 6 * 2^-53, far below the slack); the same for the complements, upwards.
_BELOW, _ABOVE = 1 - SHADOW_SLACK, 1 + SHADOW_SLACK
TINY = 2.0**-960  # shadow inputs below this may be subnormal: such cells skip the filter


def t_zero(b: int) -> int:
    """Smallest t with 2**(t-1) >= b: the smallest gamble that wins at once."""
    return (b - 1).bit_length() + 1


def t_limit(target: int) -> int:
    """The published programs' range of T: ``t0(target) + 4``."""
    return t_zero(target) + 4


def candidate(B: Backend, t: int, S: Any, F_prev: Any) -> Any:
    """First form of F_t: ``(2 q_t S + (1 - q_t) F') / (1 + q_t)``, in the field of ``B``."""
    q, one_minus_q, one_plus_q = _constants(B, t)
    return (2 * q * S + one_minus_q * F_prev) / one_plus_q


@functools.lru_cache(maxsize=256)
def _constants(B: Backend, t: int) -> tuple:
    """``q_t``, ``1 - q_t``, ``1 + q_t`` in the field of ``B`` (made once per field and t)."""
    with B.precision():
        q = B.q(1, 2**t)
        return q, B.one - q, B.one + q


@dataclass
class RaceTable:
    """F and G for ``0 <= a, b <= N``, the chosen T per cell, and candidates."""

    target: int
    backend: str
    t_max: int
    F: list
    G: list
    best_t: dict = field(default_factory=dict)  # (a, b) -> t
    candidates: dict = field(default_factory=dict)  # (a, b) -> {t: value}
    unresolved: set = field(default_factory=set)  # ball backend: cells whose best t is not certified

    @property
    def answer(self) -> Any:
        return self.G[self.target][self.target]

    def cells(self):
        N = self.target
        return [(a, b) for a in range(1, N + 1) for b in range(1, N + 1)]

    def F_map(self) -> dict:
        return {(a, b): self.F[a][b] for a, b in self.cells()}


def solve_table(
    target: int,
    backend: Backend | str = "mpq",
    t_max: int | None = None,
    keep_candidates: bool = False,
    progress=SILENT,
    shadow: bool = True,
    reference: bool = False,
    keep_table: bool = True,
) -> RaceTable:
    """Fill F and G row by row (a = 1..N, then b = 1..N), as in Section 8.

    ``keep_candidates`` stores the candidate values of every cell: all of them in
    float; in exact arithmetic those evaluated exactly, which always include
    every exact best and the exact runner-up.  ``shadow=False`` makes the exact
    run evaluate every candidate exactly too (the plain port, for benchmarks).

    In ``mpq`` (unless ``reference``) the table is computed by
    :mod:`exactplay.games.race.exact` -- unreduced integer numerators over
    products of the factors ``2^t + 1``, one anti-diagonal at a time -- with the
    same values, choices and candidates; an ``mpq`` in lowest terms is made when
    a value is read; with ``keep_table=False`` it keeps only rows N-1 and N of F
    and G (the answer) -- memory O(128 N) numbers instead of O(N^2).
    ``fraction`` and ``reference=True`` run the recurrence below, every value kept
    in lowest terms (the reference path; it ignores ``keep_table``).
    """
    B = get_backend(backend)
    if B.name == "mpq" and shadow and not reference:
        from exactplay.games.race.fast_table import solve_table_fast

        return solve_table_fast(target, B, t_limit(target) if t_max is None else t_max, keep_candidates,
                                progress, keep_table)
    with B.precision():  # the ball field's working precision (a no-op otherwise)
        return _fill_table(B, target, t_max, keep_candidates, progress, shadow)


def _fill_table(B: Backend, target: int, t_max, keep_candidates: bool, progress, shadow: bool) -> RaceTable:
    N = target
    table, tables, gains = start_table(B, N, t_max, shadow)
    progress.start(f"race target {N} ({B.name})", N)
    for a in range(1, N + 1):
        fill_cells(B, table, tables, a, 1, N + 1, gains, keep_candidates)
        progress.advance()
    return table


def start_table(B: Backend, target: int, t_max: int | None = None, shadow: bool = True, rows=None):
    """An empty table ``(table, tables, gains)``: ``F(a, 0) = G(a, 0) = 1``, every other entry 0.

    ``tables`` are the float shadows F, G, 1 - F, 1 - G (None unless ``B`` is exact and
    ``shadow``), ``gains`` the pairs ``(t, d_t)``, ``t = 1..t_max``.  ``rows`` (a range;
    default all ``0..N``): only these rows are made, the others are None (a tile of rows).
    """
    N = target
    rows = range(N + 1) if rows is None else rows
    t_max = t_limit(N) if t_max is None else t_max
    zero, one = B.zero, B.one
    F = [[zero] * (N + 1) if a in rows else None for a in range(N + 1)]
    G = [[zero] * (N + 1) if a in rows else None for a in range(N + 1)]
    for a in rows[1:] if 0 in rows else rows:
        F[a][0] = G[a][0] = one
    table = RaceTable(N, B.name, t_max, F, G)
    gains = [(t, 2 ** (t - 1)) for t in range(1, t_max + 1)]
    tables = None  # float F, G, 1 - F, 1 - G of the exact values, correctly rounded
    if B.exact and shadow:
        tables = tuple([[v] * (N + 1) if a in rows else None for a in range(N + 1)] for v in (0.0, 0.0, 1.0, 1.0))
        for a in rows[1:] if 0 in rows else rows:
            tables[0][a][0] = tables[1][a][0] = 1.0
            tables[2][a][0] = tables[3][a][0] = 0.0
    return table, tables, gains


def fill_cells(B: Backend, table: RaceTable, tables, a: int, b_lo: int, b_hi: int, gains, keep_candidates: bool):
    """Fill the cells ``(a, b)`` for ``b_lo <= b < b_hi`` of row ``a``, in order of ``b``.

    Reads ``F[a-1][b]`` (and its shadows) and row ``a`` left of ``b`` (``G[a][b - d]``):
    the per-tile step :func:`solve_table` runs on whole rows and a distributed run on
    blocks of rows and columns.  ``tables`` are the float shadows (None: no shadow).
    """
    F, G, one, half = table.F, table.G, B.one, B.q(1, 2)
    Fa, Ga, F_prev_row = F[a], G[a], F[a - 1]
    for b in range(b_lo, b_hi):
        if tables is None:
            best, bt, cands, sure = _float_cell(B, Fa, Ga, F_prev_row, b, gains, one, keep_candidates)
            if not sure:
                table.unresolved.add((a, b))
        else:
            best, bt, cands = _exact_cell(B, tables, a, Ga, F_prev_row, b, gains, one)
        Fa[b] = best
        Ga[b] = (F_prev_row[b] + best) * half
        table.best_t[(a, b)] = bt
        if keep_candidates:
            table.candidates[(a, b)] = cands
        if B.exact:
            B.check(best, (a, b))
        if tables is not None:
            tables[0][a][b], tables[2][a][b] = float(best), float(one - best)
            tables[1][a][b], tables[3][a][b] = float(Ga[b]), float(one - Ga[b])


def _float_cell(B, Fa, Ga, F_prev_row, b, gains, one, keep):
    """Every candidate, strict ``>`` so the smallest t wins ties (the published loop).

    Returns ``(F, t, candidates, certified)``; through :func:`best_of`, so in the
    ball field ``F`` encloses the max and ``certified`` says whether ``t`` is sure.
    """
    F_prev = F_prev_row[b]
    values = [candidate(B, t, one if d >= b else Ga[b - d], F_prev) for t, d in gains]
    best, i, sure = best_of(B, values)
    cands = {t: v for (t, _), v in zip(gains, values)} if keep else None
    return best, gains[i][0], cands, sure


def _exact_cell(B, tables, a, Ga, F_prev_row, b, gains, one):
    """The same candidates, exactly, for those the float shadow cannot rule out.

    The shadow evaluates every candidate twice in float from correctly rounded
    exact inputs: ``F_t`` itself, and its complement
    ``1 - F_t = (2 q (1 - S) + (1 - q)(1 - F')) / (1 + q)``, which keeps its
    relative precision where every F is close to 1.  Both are averages of
    nonnegative terms, so each is within a relative ``6 * 2**-53`` of the exact
    value.  A candidate whose shadow lies more than a relative ``SHADOW_SLACK``
    below the second-largest F shadow (or above the second-smallest complement)
    is exactly below two other candidates: neither a best nor the runner-up
    (:func:`exactplay.enclosure.top_two_threshold`, the tool's one certified comparison).
    The bound needs normal floats: a cell with an input below ``TINY`` (which may
    be subnormal, or 0 in float though not exactly; only past target ~600, where
    ``1 - F(a, 1) = 3^-a`` falls below 2^-960) evaluates every candidate exactly.
    """
    sF, sG, cF, cG = tables
    f_prev, c_prev = sF[a - 1][b], cF[a - 1][b]
    approx = []
    tiny = (a > 1 and f_prev < TINY) or c_prev < TINY
    for t, d in gains:
        S, Sc = (1.0, 0.0) if d >= b else (sG[a][b - d], cG[a][b - d])
        tiny = tiny or (d < b and (S < TINY or Sc < TINY))
        q = 2.0**-t
        approx.append(((2 * q * S + (1 - q) * f_prev) / (1 + q), (2 * q * Sc + (1 - q) * c_prev) / (1 + q), t, d))
    if len(approx) > 2 and not tiny:  # the certified comparison: low ends F (1 - slack), high ends 1 - F (1 + slack)
        second_F = top_two_threshold(v[0] for v in approx) * _BELOW
        second_C = top_two_threshold((v[1] for v in approx), smallest=True) * _ABOVE
        approx = [v for v in approx if v[0] >= second_F and v[1] <= second_C]
    F_prev = F_prev_row[b]
    cands = {}
    for _, _, t, d in approx:
        S = one if d >= b else Ga[b - d]
        cands[t] = candidate(B, t, S, F_prev)
    best_t = min(cands, key=lambda t: (-cands[t], t))  # largest value, then smallest t
    return cands[best_t], best_t, cands


def exact_gap(cands: dict) -> Any:
    """Best minus runner-up among candidate values (0 when the best is tied)."""
    values = sorted(cands.values(), reverse=True)
    return values[0] - values[1]


# ------------------------------------------------------------------ the seed's verifier


def value_iteration(target: int, tol: float = 1e-14, max_sweeps: int = 5000):
    """The C++ program's ``solve_value_iteration``: sweeps of the raw equations.

    Keeps G (``p1``) and F (``p2``); each sweep first computes the new G from the
    old F, then F as the max over t of ``q_t S_t + (1 - q_t) G``; stops when the
    largest change in a sweep is below ``tol``.  Returns ``(F, G, sweeps)``.
    """
    N = target
    t_max = t_limit(N)
    p2 = [[0.0] * (N + 1) for _ in range(N + 1)]
    p1 = [[0.0] * (N + 1) for _ in range(N + 1)]
    for a in range(1, N + 1):
        p1[a][0] = p2[a][0] = 1.0
    sweeps = 0
    while sweeps < max_sweeps:
        sweeps += 1
        change = 0.0
        new_p1 = [row[:] for row in p1]
        for a in range(1, N + 1):
            for b in range(1, N + 1):
                new_p1[a][b] = 0.5 * (p2[a - 1][b] + p2[a][b])
                change = max(change, abs(new_p1[a][b] - p1[a][b]))
        p1 = new_p1
        for a in range(1, N + 1):
            for b in range(1, N + 1):
                best = 0.0
                for t in range(1, t_max + 1):
                    q = 2.0**-t
                    d = 2 ** (t - 1)
                    S = 1.0 if d >= b else p1[a][b - d]
                    best = max(best, q * S + (1 - q) * p1[a][b])
                change = max(change, abs(best - p2[a][b]))
                p2[a][b] = best
        if change < tol:
            break
    return p2, p1, sweeps


# ------------------------------------------------------------------ a-priori bound


def longest_chain(target: int) -> int:
    """Length of the longest dependency chain ending in G(N, N).

    F(a, b) depends on F(a-1, b) and, through S_t, on F(a, b-d) and F(a-1, b-d);
    the final G(N, N) adds one step.  Computed over the actual dependency graph.
    """
    N = target
    t_max = t_limit(N)
    depth = [[0] * (N + 1) for _ in range(N + 1)]
    for a in range(1, N + 1):
        for b in range(1, N + 1):
            deps = [depth[a - 1][b]]
            for t in range(1, t_max + 1):
                d = 2 ** (t - 1)
                if d < b:
                    deps += [depth[a][b - d], depth[a - 1][b - d]]
            depth[a][b] = 1 + max(deps)
    return 1 + max(depth[N - 1][N], depth[N][N])


ROUNDINGS_PER_CANDIDATE = 4  # G's sum, (1 - q) F', the numerator's sum, the division
MAX_MAGNITUDE = 2.0  # every intermediate is at most 2
UNIT_ROUNDOFF = 2.0**-53


def a_priori_bound(target: int) -> tuple[float, str]:
    """Section 12's argument: per-cell new error times the longest chain.

    Each candidate is an average of earlier values with weights summing to 1, so
    old errors are not amplified; a cell adds at most ``4 * 2 * 2**-53``.
    """
    per_cell = ROUNDINGS_PER_CANDIDATE * MAX_MAGNITUDE * UNIT_ROUNDOFF
    chain = longest_chain(target)
    label = (
        f"{ROUNDINGS_PER_CANDIDATE} roundings x magnitude {MAX_MAGNITUDE:g} x 2^-53 per cell "
        f"= {per_cell:.3g}, times the longest dependency chain {chain}"
    )
    return per_cell * chain, label


# ------------------------------------------------------------------ API used by the CLI


def _params(target: int) -> dict:
    return {"target": target}


def _first_choices(table: RaceTable) -> dict:
    N = table.target
    out = {"after_player1_scores": table.best_t[(N - 1, N)] if N > 1 else None,
           "after_player1_misses": table.best_t[(N, N)]}
    return out


def _exact_target(target: int, B: Backend) -> None:
    """Exact (and float) tables are held whole: targets beyond MAX_TARGET need ``--backend ball``."""
    if target > MAX_TARGET:
        raise UsageError(f"target {target} is beyond the exact limit {MAX_TARGET} of backend {B.name}: "
                         f"use --backend ball or auto (up to {MAX_BALL_TARGET})")


def solve(target: int = 100, backend: Backend | str = "mpq", digits: int = 8, full: bool = False,
          progress=SILENT, solver=None) -> Report:
    """``solver``: the exact table's solver (default :func:`solve_table`, keeping only the rows it
    still reads; a distributed one needs only rows N-1 and N here, see ``exactplay.distributed``)."""
    B = get_backend(backend)
    if B.prec is not None:
        from .ball import solve_ball

        return solve_ball(target, B, digits, progress)
    _exact_target(target, B)
    if solver is None:
        table = solve_table(target, backend, progress=progress, keep_table=False)
    else:
        table = solver(target, backend, progress=progress)
    data, lines = exact_number(table.answer, digits, full)
    first = _first_choices(table)
    data = {"game": "race", "params": _params(target), "backend": table.backend,
            "answer_name": f"G({target},{target})", "answer": data, "first_choice_T": first}
    lines = [f"The Race, target {target}: Player 2 wins with probability G({target},{target})"] + lines
    if target > 1:
        lines.append(
            f"first choice: T = {first['after_player1_misses']} if Player 1's first toss misses, "
            f"T = {first['after_player1_scores']} if it scores"
        )
    else:
        lines.append(f"first choice: T = {first['after_player1_misses']}")
    return Report(data, lines)


def run_audit(target: int, backend: Backend | str = "mpq", digits: int = 8, progress=SILENT, solver=None) -> dict:
    """Everything the audit reports, as a JSON-ready dict (used by audit and certify)."""
    _audit_limit(target, "audit (also report, certify)")
    exact = (solver or solve_table)(target, backend, keep_candidates=True, progress=progress)
    flt = solve_table(target, "float", keep_candidates=True, progress=progress)
    progress.start("value errors of the float table", None)
    bound, label = a_priori_bound(target)
    values = audit_values(exact.F_map(), flt.F_map(), bound, label)
    progress.start("judging the float decisions", len(exact.candidates))
    decisions = audit_decisions(exact.candidates, flt.candidates, flt.best_t, bound, progress=progress)
    rr = rounding_report(exact.answer, digits, flt.answer, bound)
    answer_err = abs(float(exact.answer - type(exact.answer)(flt.answer)))
    return {
        "exact": exact,
        "float": flt,
        "values": values,
        "decisions": decisions,
        "rounding": rr,
        "answer_error": answer_err,
    }


def audit(target: int = 100, backend: Backend | str = "mpq", digits: int = 8, progress=SILENT) -> Report:
    B = get_backend(backend)
    if B.prec is not None:
        from .ball import audit_ball

        return audit_ball(target, B, digits, progress)
    _exact_target(target, B)
    r = run_audit(target, backend, digits, progress)
    values, decisions, rr = r["values"], r["decisions"], r["rounding"]
    data = {
        "game": "race",
        "params": _params(target),
        "solver_under_audit": "published program: first form of F_t, t = 1..t0(N)+4, strict > keeps smallest t",
        "values": values.to_dict(),
        "answer_error": r["answer_error"],
        "decisions": decisions.to_dict(),
        "rounding": rr.to_dict(),
    }
    lines = [
        f"Audit of the published Race solver, target {target} ({values.cells} cells F(a,b), 1 <= a,b <= {target})",
        f"max abs error : {values.max_abs:.3e} at {values.max_abs_at}",
        f"max rel error : {values.max_rel:.3e} at {values.max_rel_at}",
        f"max ulps      : {values.max_ulps:.2f} at {values.max_ulps_at}",
        f"a-priori bound: {values.bound:.3e} ({values.bound_label})",
        "bound/measured: " + ("inf (float table exact)" if values.bound_ratio is None else f"{values.bound_ratio:.1f}"),
        f"answer G({target},{target}) float error: {r['answer_error']:.3e}",
        "decisions     : " + ", ".join(f"{k} {v}" for k, v in decisions.counts.items()),
    ]
    if decisions.counts["float-unresolvable"]:
        lines.append(f"                float-unresolvable but still on the exact best: {decisions.unresolvable_on_best}")
    lines.append(f"                float choice differs from the exact best in {decisions.decisions_differ} cells")
    if decisions.smallest_gap is not None:
        lines.append(
            f"smallest exact gap best - runner-up: {float(decisions.smallest_gap):.3e} at {decisions.smallest_gap_at}"
            f" (flip threshold 2 x bound = {decisions.flip_threshold:.3e})"
        )
    lines.append(
        f"rounded answer: exact {rr.rounded}, float prints {rr.float_rounded} "
        f"({'agree' if rr.float_digits_agree else 'DIFFER'}); exact value {float(rr.distance):.3e} from the nearest "
        f"rounding boundary at {digits} decimals; float digits "
        f"{'certain' if rr.float_digits_certain else 'NOT certain'} from the bound alone"
    )
    return Report(data, lines)


def certify(target: int = 100, backend: Backend | str = "mpq", progress=SILENT, solver=None) -> dict:
    B = get_backend(backend)
    if B.prec is not None:
        from .ball_certificate import certify_ball

        return certify_ball(target, B.prec, progress)
    _exact_target(target, B)
    r = run_audit(target, backend, 8, progress, solver)
    exact: RaceTable = r["exact"]
    progress.start(f"encoding {target * target:,} certificate rows", None)
    rows = []
    policy = []
    for a, b in exact.cells():
        gap = exact_gap(exact.candidates[(a, b)])
        rows.append([a, b, format_pq(exact.F[a][b]), exact.best_t[(a, b)], format_pq(gap)])
    for a in range(1, target + 1):
        policy.append([exact.best_t[(a, b)] for b in range(1, target + 1)])
    d = r["decisions"]
    answer_data, _ = exact_number(exact.answer, 8)
    return build_certificate(
        game="race",
        params=_params(target),
        answer={"name": f"G({target},{target})", **answer_data},
        columns=["a", "b", "F", "best_t", "gap"],
        rows=rows,
        policy={"rows": "a = 1..N", "columns": "b = 1..N", "best_t": policy},
        smallest_gap=None if d.smallest_gap is None else {
            "value": format_pq(d.smallest_gap), "state": list(d.smallest_gap_at)},
        audit={"values": r["values"].to_dict(), "decisions": d.to_dict(), "rounding": r["rounding"].to_dict()},
        notes="F(a,b): Player 2 to move, a and b points still needed; G = (F(a-1,b)+F(a,b))/2. "
              "gap: best candidate minus runner-up over t >= 1.",
    )


def value_table(target: int = 100, backend: Backend | str = "mpq", progress=SILENT):
    """The exact F(a, b), 1 <= a, b <= N, for auditing a user's float table."""
    _audit_limit(target, "--table")
    return solve_table(target, backend, progress=progress).F_map(), TABLE_COLUMNS, TABLE_VALUE


TABLE_COLUMNS = ("a", "b")
TABLE_VALUE = ("F(a,b), Player 2's winning probability at Player 2's turn, a and b points still needed "
               "(1 <= a, b <= target)")


# Measured CPU seconds and peak MB at target 500 on the 2-core test machine (mpq); time grows
# about as target^3.  solve: the fast table keeping two rows of F (benchmarks/bigexact.py: 3.7 s,
# 264 MB; 28 s at 1000).  certify runs the audit and writes N^2 exact values of up to ~N digits
# each (memory ~N^3); report runs the audit.  (audit, certify, report: measured with the
# reference mpq table, before the fast one: upper bounds.)
HEAVY_AT_500 = {"solve": (3.7, 264), "audit": (66.0, 1590), "certify": (212.0, 5280), "report": (66.0, 1590)}


def heavy(command: str, params: dict) -> str | None:
    """A note for the CLI when ``command`` at this target takes about a minute or more."""
    N = params.get("target") or 100
    if params.get("backend") in ("ball", "auto"):  # measured: ~0.6 s per 10^4 cells at 128 bits, two rows kept
        return heavy_note(f"{command} race at target {N} in balls", 0.6 * (N / 100) ** 2 * (2 if command == "audit"
                          else 1), 50 + N * 0.05)
    if command != "solve":
        _audit_limit(N, command if command in ("audit", "report", "certify") else "--table")
    seconds, mb = HEAVY_AT_500.get(command, HEAVY_AT_500["solve"])
    if command == "solve":  # measured: 3.7 s / 264 MB at 500, 25 s / 635 MB at 1000, 309 s / 1.6 GB at 2000
        return heavy_note(f"solve race at target {N}", seconds * (N / 500) ** 3.2, mb * (N / 500) ** 1.35)
    mb *= (N / 500) ** (3 if command == "certify" else 2)
    return heavy_note(f"{command} race at target {N}", seconds * (N / 500) ** 3, mb)


GAME = Game(
    name="race",
    title="The Race (Project Euler 232): Player 2's winning probability",
    params=(Param("target", positive_int(MAX_BALL_TARGET, "target"), 100,
                  f"points to win, 1..{MAX_TARGET} (1..{MAX_BALL_TARGET} with --backend ball|auto)"),),
    solve=solve,
    audit=audit,
    certify=certify,
    description="Player 1 tosses once per turn; Player 2 chooses T and scores 2^(T-1) if T tosses are all heads.",
    proofs=tuple((f"race-{n}.json", {"target": n}) for n in (1, 2, 3, 4, 10, 100)),
    value_table=value_table,
    heavy=heavy,
    table_columns=TABLE_COLUMNS,
    table_value=TABLE_VALUE,
    ball=True,
)


# ------------------------------------------------------------------ the seed's claims

_SEED = "race.md"


@functools.lru_cache(maxsize=2)
def _cached_audit(target: int = 100) -> dict:
    """One audit shared by the claims that read it."""
    return run_audit(target)


def _claim_small_values():
    want = {1: _Fraction(1, 3), 2: _Fraction(71, 135), 3: _Fraction(661, 1215), 4: _Fraction(6113, 10125)}
    got = {n: as_fraction(solve_table(n).answer) for n in want}
    g10 = float(solve_table(10).answer)
    ok = got == want and round(g10, 4) == 0.6701
    return verdict(ok, ", ".join(f"G({n},{n}) = {v}" for n, v in got.items()) + f", G(10,10) = {g10:.6f}")


def _claim_always_once():
    want = {1: _Fraction(1, 3), 2: _Fraction(11, 27), 3: _Fraction(35, 81), 4: _Fraction(971, 2187)}
    got = {n: as_fraction(solve_table(n, t_max=1).answer) for n in want}
    g10 = float(solve_table(10, t_max=1).answer)
    ok = got == want and round(g10, 4) == 0.4671
    return verdict(ok, ", ".join(str(v) for v in got.values()) + f", target 10: {g10:.6f}")


def _claim_denominator():
    g = as_fraction(solve_table(100).answer)
    d = len(str(g.denominator))
    return verdict(d == 480 and f"{float(g):.8f}" == "0.83648556", f"{d}-digit denominator, G = {float(g):.8f}")


def _claim_worked_example():
    t = solve_table(2, "fraction", keep_candidates=True)
    got = [t.F[1][1], t.G[1][1], t.F[2][1], t.G[2][1], t.candidates[(1, 2)][1], t.candidates[(1, 2)][2],
           t.candidates[(2, 2)][1], t.candidates[(2, 2)][2], t.answer]
    want = [_Fraction(*p) for p in ((2, 3), (1, 3), (8, 9), (7, 9), (2, 9), (2, 5), (88, 135), (16, 25), (71, 135))]
    return verdict(got == want, "F(1,1), G(1,1), F(2,1), G(2,1), F_1(1,2), F_2(1,2), F_1(2,2), F_2(2,2), G(2,2) = "
                   + ", ".join(str(v) for v in got))


def _claim_edges():
    t = solve_table(100)
    bad = [(a, 1) for a in range(1, 101) if as_fraction(t.F[a][1]) != 1 - _Fraction(1, 3**a)]
    bad += [(1, b) for b in range(1, 101) if as_fraction(t.F[1][b]) != _Fraction(2, 2 ** t_zero(b) + 1)]
    return verdict(not bad, "exact for all a, b <= 100" if not bad else f"fails at {bad[:3]}")


def _claim_strategy():
    bt = solve_table(100).best_t
    t1 = [(a, b) for (a, b), t in bt.items() if t == 1]
    figures = (len(t1), sum(1 for a, b in t1 if b > a), sum(1 for a, b in t1 if b <= a),
               sum(1 for t in bt.values() if t == 8), bt[(100, 100)], bt[(99, 100)], bt[(6, 8)], bt[(6, 9)])
    ok = figures == (4685, 11, 4674, 500, 4, 4, 3, 1)
    return verdict(ok, "T=1 in {} cells ({} with b > a, {} with b <= a), T=8 in {}, first T {} / {}, "
                   "T at (6,8) = {}, at (6,9) = {}".format(*figures))


def _claim_float_error():
    m = _cached_audit()["values"].max_abs
    return verdict(m <= 6.7e-16, f"max float error {m:.2e} <= 6.7e-16")


def _claim_bound():
    v = _cached_audit()["values"]
    return verdict(v.bound < 2e-13 and v.max_abs <= v.bound,
                   f"a-priori bound {v.bound:.3e} (chain {longest_chain(100)}), measured {v.max_abs:.2e}")


def _claim_same_t():
    d = _cached_audit()["decisions"]
    return verdict(d.decisions_differ == 0, f"float T differs from the exact best in {d.decisions_differ} cells, but "
                   f"{d.counts['float-unresolvable']} cells are float-unresolvable (right only by the tie-break)")


def _claim_no_tie():
    d = _cached_audit()["decisions"]
    return verdict(d.counts["exact tie"] == 0, f"{d.counts['exact tie']} exact ties; smallest gap "
                   f"{float(d.smallest_gap):.2e} at {d.smallest_gap_at}")


def _claim_boundary():
    rr = _cached_audit()["rounding"]
    dist = float(rr.distance)
    return verdict(abs(dist - 8.5e-10) < 0.05e-10 and rr.float_digits_agree,
                   f"exact value {dist:.3e} from the nearest rounding boundary; float prints {rr.float_rounded}")


def _claim_sweeps():
    got = {n: value_iteration(n)[2] for n in (5, 10, 20)}
    return verdict(got == {5: 50, 10: 71, 20: 103}, f"sweeps: {got}")


def _claim_t_max():
    t = solve_table(100)
    worst = max(t.best_t.values())
    over = sum(1 for (a, b), bt in t.best_t.items() if bt > t_zero(b))
    return verdict(worst == 8 and over == 0 and t_limit(100) == 12,
                   f"largest optimal T = {worst}, cells with T > t0(b): {over}, published range 1..{t_limit(100)}")


def _claim_simulation():
    return Verdict(NOT_CHECKABLE, "the article's random streams are not published; the test suite runs its own "
                   "seeded simulation of the literal rules (within 4 standard errors)")


CLAIMS = (
    Claim("race.small-targets", "race", f"{_SEED}, Section 11", "G = 1/3, 71/135, 661/1215, 6113/10125 for n = 1..4; "
          "about 0.6701 for n = 10", "exact table", _claim_small_values),
    Claim("race.always-once", "race", f"{_SEED}, Section 11", "always T=1: 1/3, 11/27, 35/81, 971/2187; about 0.4671 "
          "for n = 10", "exact table with T restricted to 1", _claim_always_once),
    Claim("race.denominator", "race", f"{_SEED}, Complexity and Verification",
          "G(100,100) = 0.83648556, a fraction with a 480-digit denominator", "exact table", _claim_denominator),
    Claim("race.worked-example", "race", f"{_SEED}, Section 9", "F(2,1) = 8/9, F_1(1,2) = 2/9, F_2(1,2) = 2/5, "
          "F_1(2,2) = 88/135, F_2(2,2) = 16/25, G(2,2) = 71/135", "exact candidates", _claim_worked_example),
    Claim("race.edge-formulas", "race", f"{_SEED}, Section 10", "F(a,1) = 1 - 3^-a and F(1,b) = 2/(2^t0(b)+1) "
          "(checked by the article for a, b <= 30)", "exact table, a, b <= 100", _claim_edges),
    Claim("race.strategy", "race", f"{_SEED}, Section 11", "T=1 in 4685 cells, 11 with b > a, 4674 of 5050 with b <= a; "
          "T=8 in 500; first T = 4; T=3 at (6,8), T=1 at (6,9)", "exact policy", _claim_strategy),
    Claim("race.largest-t", "race", f"{_SEED}, Sections 6 and How the Code Works", "t0(b) <= 8 for b <= 100; "
          "t = 9..12 are never optimal", "exact policy", _claim_t_max),
    Claim("race.float-error", "race", f"{_SEED}, Complexity and Verification", "every double differs from the exact "
          "value by at most 6.7e-16", "audit of the published program", _claim_float_error),
    Claim("race.error-bound", "race", f"{_SEED}, Section 12", "every entry is within 2e-13 (a chain has at most 200 "
          "steps, one cell adds below 8 * 2^-53)", "bound computed from the dependency graph", _claim_bound),
    Claim("race.same-t", "race", f"{_SEED}, Complexity and Verification", "the programs pick the same t in every cell",
          "audit of decisions", _claim_same_t),
    Claim("race.no-tie", "race", f"{_SEED}, Complexity and Verification", "the exact maximum is never tied",
          "exact gaps", _claim_no_tie),
    Claim("race.rounding", "race", f"{_SEED}, Section 12", "the exact answer lies about 8.5e-10 from the nearest "
          "rounding boundary, so the printed digits are correct", "exact distance to the boundary", _claim_boundary),
    Claim("race.value-iteration", "race", f"{_SEED}, How the Code Works", "the verifier stops after 50, 71 and 103 "
          "sweeps for targets 5, 10, 20", "port of solve_value_iteration", _claim_sweeps),
    Claim("race.simulation", "race", f"{_SEED}, Complexity and Verification", "10^7 simulated games per target 1, 2, "
          "3, 100 differ from the computed probabilities by 1.34, 0.81, -1.15 and 1.29 standard errors",
          "not reproducible without the article's random numbers", _claim_simulation),
)
