"""The Race's table: the recurrence of :mod:`exactplay.games.race`, written once over a number
backend (the published float program in ``float``; in ``mpq`` the fast exact path of
:mod:`.exact` unless ``reference``), the float shadows and the certified filter of candidates."""

from __future__ import annotations

import functools
from typing import Any

from exactplay.audit.enclosure import top_two_threshold
from exactplay.games.race.result import RaceTable
from exactplay.numbers.backends import Backend, best_of, get_backend
from exactplay.progress import SILENT


MAX_TARGET = 2000  # solve: the fast exact table (games/race/exact.py), measured in benchmarks/bigexact.py
# --backend ball|auto: arb balls keep two rows (~25 us of CPU per cell at 128 bits: ~3 h at 20,000);
# solve --backend ball --prec 53: float64 intervals in bands (interval.py), ~2 us per cell, memory ~300 MB
MAX_BALL_TARGET = 20_000


# audit, report, certify and --table hold every exact value of the table and its candidates
# (memory grows as N^3: ~1.6 GB at 500 for the audit, ~5 GB for certify), so they stop here;
# the checker's bound (checker/_bounds.py RACE_MAX_TARGET) is this one.
MAX_AUDIT_TARGET = 500

# A float shadow candidate is computed from correctly rounded exact inputs by
# sums and products of nonnegative numbers (five roundings in all), so it is
# within a relative 6 * 2^-53 of the exact candidate; SHADOW_SLACK is a far
# wider relative margin (see _exact_cell).  The 6 * 2^-53 needs normal floats: up to target 500
# the smallest F, G, 1 - F, 1 - G is 1 - F(500, 1) ~ 2^-792 and a term q S is at most t_max = 14
# bits smaller, far above 2^-1022 (tested, slow: tests/test_race_hold_shadows.py); past ~600,
# cells reading an input below TINY evaluate every candidate exactly instead.
SHADOW_SLACK = 2.0**-40
# For :func:`exactplay.audit.enclosure.top_two_threshold`: F_j (1 - slack) > F_i proves the exact F_j > F_i
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
    (:func:`exactplay.audit.enclosure.top_two_threshold`, the tool's one certified comparison).
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
