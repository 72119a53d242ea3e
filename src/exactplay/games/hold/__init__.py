"""Hold or Continue? (ICPC Latin America 2019, problem H): exact game, judge, audit.

The rules and equations are in :mod:`.hold_model`, the pair-by-pair solver in
:mod:`.hold_solver`, the published float program in :mod:`.hold_seed`, the
contest judge in :mod:`.hold_judge`.  This module is the API the CLI calls and
the ledger of the article's claims.

Findings (target 75, six faces; each is a test and a registered claim):

* the sample answers are ``C H H`` exactly, but the published program prints
  ``C H C``: its bisection solves ``A = f(A)`` (a lost turn worth ``A``)
  instead of the game's 2-cycle and drives ``dp[c][h]`` to ``~1`` for ``c < h``
  (value error up to 0.949); its decision is wrong (not a rounding matter) in
  105,688 of the 205,350 query states;
* a correct float solver (policy iteration per pair) has value errors below
  5e-15 and every decision certified;
* ``dp[c][h] + dp[h][c] = 1`` is false: the mover is not the non-mover, and
  ``V(c, h) + V(h, c)`` ranges over ``[1.0175, 1.1459]`` on pairs of alive
  scores (0 at 74-74, where nobody can win); the true identity is
  ``P(mover wins) + P(non-mover wins) = 1`` (both alive: the game ends);
* equal scores are not worth 1/2: ``V(c, c)`` lies in ``[0.5269, 0.5730]``,
  ``V(0, 0) = 0.52692187...``, ``V(73, 73) = 6/11``;
* the promised 1e-5 separation fails on 60 of the 205,350 query states; the
  smallest exact margin is about ``3.0e-8`` at ``(10, 69, 47)``;
* the edge cases of the article (``73 0 2``, ``72 0 2``, ``72 0 3``,
  ``73 73 2``) are answered as it says.
"""

from __future__ import annotations

from exactplay.numbers.backends import Backend, get_backend
from exactplay.progress import SILENT
from exactplay.games import Game, Param, Report, game_model, heavy_note
from exactplay.present.render.solve import solve_report
from exactplay.solve_result import Decision, Fact, SolveResult
from exactplay.games.hold import model
from exactplay.games.hold.audit import (SEPARATION, UNIT_ROUNDOFF, _sample,  # noqa: F401
                                        a_priori_bound, audit_result, policy_runs, run_audit)
from exactplay.games.hold.claims import CLAIMS, SEED  # noqa: F401
from exactplay.games.hold.judge import judge, judge_arguments
from exactplay.games.hold.recurrence import PRECISION, fixed_error, hold_values, turn_affine # noqa: F401 (re-exported)
from exactplay.games.hold.seed import BISECTION_STEPS, seed_candidates, seed_solve # noqa: F401 (re-exported)
from exactplay.games.hold.solver import HoldTable, solve_table, turn_of # noqa: F401 (re-exported)
from exactplay.games.hold.tables import (MAX_FACES, MAX_TARGET, exact_table, float_table,  # noqa: F401
                                         parse_faces, parse_target, seed_table)


# ------------------------------------------------------------------ solve


def solve(target: int = 75, faces: int = 6, backend: Backend | str = "mpq", digits: int = 8,
          full: bool = False, progress=SILENT, solver=None) -> Report:
    """``solver``: the exact table's maker (default the serial one; see :func:`exact_table`)."""
    if get_backend(backend).prec is not None:
        from exactplay.games.hold.ball_report import solve_ball

        return solve_ball(target, faces, get_backend(backend), digits, progress)
    return solve_report(solve_result(exact_table(target, faces, backend, progress, solver), faces, digits, full))


def solve_result(table: HoldTable, faces: int, digits: int = 8, full: bool = False) -> SolveResult:
    """The solve of Hold or Continue? from its exact table."""
    target = len(table.V)
    dead = [s for s, ok in enumerate(table.alive) if not ok]
    first = table.policy[0][0]
    runs = policy_runs(first)
    action = {"C": "continue", "H": "hold"}[first[0]]  # the model's action at turn total 2 (ties hold)
    state = game_model("hold")(target, faces).state_label((0, 0, 0, 2))
    return SolveResult(
        "hold", {"target": target, "faces": faces}, table.backend,
        f"Hold or Continue?, target {target}, faces 1..{faces}: the first player wins with probability V(0,0)",
        "V(0,0)", table.V[0][0], digits, full,
        decisions=[Decision(state, action, note="the game's first choice")], facts=[
            Fact("dead_scores", "dead scores (the target can no longer be hit exactly)", dead,
                 str(dead) if dead else "none"),
            Fact("policy_at_0_0", None, first),
            Fact("policy_runs_at_0_0", "first turn at 0-0, by turn total x", runs, ", ".join(
                f"{a} x={lo}" + (f"..{hi}" if hi > lo else "") for a, lo, hi in runs)),
            Fact("repairs", None, table.repairs), Fact("exact_fallbacks", None, table.exact_fallbacks)])


# ------------------------------------------------------------------ audit


def audit(target: int = 75, faces: int = 6, backend: Backend | str = "mpq", digits: int = 8,
          progress=SILENT):
    """The audit of both float programs (an :class:`~exactplay.audit.result.AuditResult`; a ball
    audit's :class:`~exactplay.audit.enclosure_result.EnclosureResult` with ``--backend ball|auto``)."""
    if get_backend(backend).prec is not None:
        from exactplay.games.hold.ball_report import audit_ball

        return audit_ball(target, faces, get_backend(backend), digits, progress)
    return audit_result(run_audit(target, faces, backend, progress), target, faces, digits)


# ------------------------------------------------------------------ claims


def value_table(target: int = 75, faces: int = 6, backend: Backend | str = "mpq", progress=SILENT):
    """The exact V(c, h), 0 <= c, h < T, for auditing a user's float table."""
    t = exact_table(target, faces, backend, progress)
    return {(c, h): t.V[c][h] for c, h in t.pairs()}, TABLE_COLUMNS, TABLE_VALUE


TABLE_COLUMNS = ("c", "h")
TABLE_VALUE = ("V(c,h), the mover's winning probability at the start of its turn (mover c, opponent h; "
               "0 <= c, h < target)")


# Measured CPU seconds and peak MB on the 2-core test machine (mpq, six faces): solve 66.8 s and
# 191 MB at target 150 (~2 s at 75), growing about as target^5; audit 10.7 s and 577 MB at 75,
# 31.9 s and 1.27 GB at 100 (about target^3.8; its query states, and memory, grow as target^3);
# certify (the game's model solved by the engine, every number kept) 91 s and 2.8 GB at 75, taken
# to grow as the audit does.
HEAVY_SOLVE_150 = (66.8, 191)
HEAVY_AUDIT_75 = (10.7, 577)
HEAVY_AUDIT_POWER = 3.8
HEAVY_CERTIFY_75 = (91.0, 2830)


def heavy(command: str, params: dict) -> str | None:
    """A note for the CLI when ``command`` at these parameters takes about a minute or more."""
    T = params.get("target") or 75
    F = params.get("faces") or 6
    more_faces = max(1.0, F / 6)
    if params.get("backend") in ("ball", "auto"):  # measured: 17.5 s at 75/6 in 128-bit balls, time ~T^3 F
        s = 17.5 * (T / 75) ** 3 * more_faces * (1.5 if command == "audit" else 1)
        return heavy_note(f"{command} hold at target {T} in balls", s, 100 * (T / 75) ** 2)
    solve_s = HEAVY_SOLVE_150[0] * (T / 150) ** 5 * more_faces
    audit_s = max(HEAVY_AUDIT_75[0] * (T / 75) ** HEAVY_AUDIT_POWER * more_faces, solve_s)
    audit_mb = HEAVY_AUDIT_75[1] * (T / 75) ** 3
    seconds, mb = {
        "solve": (solve_s, HEAVY_SOLVE_150[1] * (T / 150) ** 2),
        "audit": (audit_s, audit_mb),
        "certify": (HEAVY_CERTIFY_75[0] * (T / 75) ** HEAVY_AUDIT_POWER * more_faces, HEAVY_CERTIFY_75[1] * (T / 75) ** 3),
        "report": (audit_s, audit_mb),
    }.get(command, (solve_s, None))
    return heavy_note(f"{command} hold at target {T}", seconds, mb)


def prec_help(command: str) -> str:
    """``--prec``'s help: what ``--backend ball|auto`` runs without it, and why (measured)."""
    what = "the grid 2^-128 of the ball certificate" if command == "certify" else "arb balls at 128 bits"
    return ("working precision of --backend ball|auto in bits. Without it: " + what + " (measured, "
            "benchmarks/ball_default.py and ball_cert.py: 53, 64 and 128 bits cost the same and certify the same "
            "decisions, so the finest runs; the exact default --backend mpq is faster still, 10.5 s against 13 s "
            "of CPU at target 100)")


GAME = Game(
    name="hold",
    title="Hold or Continue? (ICPC LatAm 2019 H): race to exactly T with a die",
    params=(
        Param("target", parse_target, 75, f"points to hit exactly, 2..{MAX_TARGET}"),
        Param("faces", parse_faces, 6, f"faces of the die (1 ends the turn), 2..{MAX_FACES}"),
    ),
    solve=solve,
    audit=audit,
    certify=model.certify,
    description="Roll as often as you like: 1 ends the turn, 2..F add to the turn total, overshooting the target "
                "ends it; hold to bank. First to exactly the target wins.",
    proofs=model.PROOFS,
    judge=judge,
    judge_arguments=judge_arguments,
    value_table=value_table,
    heavy=heavy,
    table_columns=TABLE_COLUMNS,
    table_value=TABLE_VALUE,
    ball=True,
    prec_help=prec_help,
)
