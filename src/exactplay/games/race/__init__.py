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


from exactplay.errors import UsageError
from exactplay.numbers.backends import Backend, get_backend
from exactplay.progress import SILENT
from exactplay.games import Game, Param, Report, game_model, heavy_note, positive_int
from exactplay.present.render.solve import solve_report
from exactplay.solve_result import Decision, Fact, SolveResult
from exactplay.games.race import model
from exactplay.games.race.audit import (_audit_limit, a_priori_bound, audit_result, longest_chain,  # noqa: F401
                                        run_audit, value_iteration)
from exactplay.games.race.claims import CLAIMS  # noqa: F401 (the ledger reads GAME's module)
from exactplay.games.race.result import RaceTable  # noqa: F401
from exactplay.games.race.table import (MAX_AUDIT_TARGET, MAX_BALL_TARGET, MAX_TARGET,  # noqa: F401
                                        SHADOW_SLACK,
                                        TINY, candidate, fill_cells, solve_table,
                                        start_table, t_limit, t_zero)


# ------------------------------------------------------------------ API used by the CLI


def _first_choices(table: RaceTable) -> dict:
    N = table.target
    out = {"after_player1_scores": table.best_t[(N - 1, N)] if N > 1 else None,
           "after_player1_misses": table.best_t[(N, N)]}
    return out


def _decisions(table: RaceTable) -> list[Decision]:
    """Player 2's first choice of ``T``: at ``F(N, N)`` (Player 1's first toss missed) and
    ``F(N-1, N)`` (it scored)."""
    N = table.target
    cells = [((N, N), "Player 1's first toss misses")] + ([((N - 1, N), "it scores")] if N > 1 else [])
    name = game_model("race")(N).state_label  # the model's state names (games/race/model.py)
    return [Decision(name(("P2", a, b)), table.best_t[(a, b)], text=f"T = {table.best_t[(a, b)]}",
                     note=f"F({a},{b}): {note}") for (a, b), note in cells]


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
    if B.name == "ball" and B.prec == 53 and not B.prec_default:  # float64 intervals (interval_report.py)
        from .interval_report import solve_interval

        return solve_interval(target, digits, progress)
    if B.prec_default:  # no --prec: the fastest method that certifies, then the next (default_method.py)
        from .default_method import solve_default

        return solve_default(target, B, digits, progress)
    if B.prec is not None:
        from .ball import solve_ball

        return solve_ball(target, B, digits, progress)
    _exact_target(target, B)
    if solver is None:
        table = solve_table(target, backend, progress=progress, keep_table=False)
    else:
        table = solver(target, backend, progress=progress)
    return solve_report(solve_result(table, digits, full))


def solve_result(table: RaceTable, digits: int = 8, full: bool = False) -> SolveResult:
    """The solve of the Race from its exact table (``best_t`` at ``(N, N)`` and ``(N-1, N)`` read)."""
    target = table.target
    return SolveResult(
        "race", {"target": target}, table.backend,
        f"The Race, target {target}: Player 2 wins with probability G({target},{target})",
        f"G({target},{target})", table.answer, digits, full, decisions=_decisions(table),
        facts=[Fact("first_choice_T", None, _first_choices(table))])


def audit(target: int = 100, backend: Backend | str = "mpq", digits: int = 8, progress=SILENT):
    """The audit of the published program (an :class:`~exactplay.audit.result.AuditResult`; a ball
    audit's :class:`~exactplay.audit.enclosure_result.EnclosureResult` with ``--backend ball|auto``)."""
    B = get_backend(backend)
    if B.prec is not None:
        from .ball import audit_ball

        return audit_ball(target, B, digits, progress)
    _exact_target(target, B)
    return audit_result(run_audit(target, backend, digits, progress))


def value_table(target: int = 100, backend: Backend | str = "mpq", progress=SILENT):
    """The exact F(a, b), 1 <= a, b <= N, for auditing a user's float table."""
    _audit_limit(target, "--table")
    return solve_table(target, backend, progress=progress).F_map(), TABLE_COLUMNS, TABLE_VALUE


TABLE_COLUMNS = ("a", "b")
TABLE_VALUE = ("F(a,b), Player 2's winning probability at Player 2's turn, a and b points still needed "
               "(1 <= a, b <= target)")


# Measured CPU seconds and peak MB at target 500 on the 2-core test machine (mpq); time grows
# about as target^3.  solve: the fast table keeping two rows of F (benchmarks/bigexact.py: 3.7 s,
# 264 MB; 28 s at 1000).  certify solves the game's model with the engine, every number kept
# (145 s and 6.1 GB at 500, 4 s at 100: time about target^2.2, memory ~N^3); report runs the
# audit.  (audit, report: measured with the reference mpq table, before the fast one: upper bounds.)
HEAVY_AT_500 = {"solve": (3.7, 264), "audit": (66.0, 1590), "certify": (145.0, 6110), "report": (66.0, 1590)}


def heavy(command: str, params: dict) -> str | None:
    """A note for the CLI when ``command`` at this target takes about a minute or more."""
    N = params.get("target") or 100
    if (params.get("backend") in ("ball", "auto") and params.get("prec") in (None, 53) and command == "solve"
            and not (params.get("backend") == "auto" and params.get("prec") == 53)):  # intervals (first)
        from .interval_report import CPU_SECONDS_AT_10000, MEGABYTES

        return heavy_note(f"solve race at target {N} in float64 intervals", CPU_SECONDS_AT_10000 * (N / 10000) ** 2.25,
                          MEGABYTES)
    if params.get("backend") in ("ball", "auto"):  # measured: ~0.6 s per 10^4 cells at 128 bits, two rows kept
        return heavy_note(f"{command} race at target {N} in balls", 0.6 * (N / 100) ** 2 * (2 if command == "audit"
                          else 1), 50 + N * 0.05)
    if command != "solve":
        _audit_limit(N, command if command in ("audit", "report", "certify") else "--table")
    elif N > MAX_TARGET:  # refused before any note (solve says why)
        return None
    seconds, mb = HEAVY_AT_500.get(command, HEAVY_AT_500["solve"])
    if command == "solve":  # measured: 3.7 s / 264 MB at 500, 25 s / 635 MB at 1000, 309 s / 1.6 GB at 2000
        return heavy_note(f"solve race at target {N}", seconds * (N / 500) ** 3.2, mb * (N / 500) ** 1.35)
    mb *= (N / 500) ** (3 if command == "certify" else 2)
    return heavy_note(f"{command} race at target {N}", seconds * (N / 500) ** (2.2 if command == "certify" else 3), mb)


def prec_help(command: str) -> str:
    """``--prec``'s help: what ``--backend ball|auto`` runs without it (measured: default_method.py)."""
    head = "working precision of --backend ball|auto in bits. "
    if command == "solve":
        return head + ("Without it the fastest method that certifies runs: float64 intervals (= --prec 53; ~10x "
                       "less CPU than arb balls, every decision certified up to target 2,000, all but one at "
                       "10,000; benchmarks/ball_default.py), then, if they leave the printed decimals uncertain "
                       "(auto: or a decision open), arb balls at 128 bits; --prec 53 runs the intervals alone, other BITS "
                       "arb balls at BITS")
    return head + (f"Default 128: {command} runs arb balls (the float64 intervals are solve's only; 64 bits cost "
                   "the same and certify fewer decisions)")


GAME = Game(
    name="race",
    title="The Race (Project Euler 232): Player 2's winning probability",
    params=(Param("target", positive_int(MAX_BALL_TARGET, "target"), 100,
                  f"points to win, 1..{MAX_TARGET} (1..{MAX_BALL_TARGET} with --backend ball|auto; solve "
                  f"--backend ball runs float64 intervals first, ~10x less CPU than arb balls: see --prec)"),),
    solve=solve,
    audit=audit,
    certify=model.certify,
    description="Player 1 tosses once per turn; Player 2 chooses T and scores 2^(T-1) if T tosses are all heads.",
    proofs=model.PROOFS,
    value_table=value_table,
    heavy=heavy,
    table_columns=TABLE_COLUMNS,
    table_value=TABLE_VALUE,
    ball=True,
    prec_help=prec_help,
)
