"""The coin-row game: the most the first player can guarantee.

A row of coins ``v_0 .. v_{n-1}``; the players alternately take the first or
the last coin.  ``V(i, j)`` is the most the player to move can guarantee from
the coins ``i..j`` against a player as clever.  The game is constant-sum (the
opponent gets ``Sum(i, j) - V``), so, taking a coin and leaving the rest::

    left(i, j)  = v_i + Sum(i+1, j) - V(i+1, j)
    right(i, j) = v_j + Sum(i, j-1) - V(i, j-1)
    V(i, j)     = max(left, right),       V(i, i) = v_i.

:func:`solve_row` evaluates that over a number backend and records both
candidates of every state, so ties (``left == right``) are exact facts, not
rounding accidents.  The seed's two programs are ported as the solvers under
audit, each generic over the number type:

* :func:`seed_dp_min` -- ``V[i] + min(maxCoin(i+2, j), maxCoin(i+1, j-1))``,
  with ``0`` for the cells outside the table (``left``/``bottom``);
* :func:`seed_dp_sum` -- ``max(Sum(i, j) - C(i+1, j), Sum(i, j) - C(i, j-1))``,
  sums kept in the lower triangle of the same matrix.

Coins are parsed as exact rationals (``"0.1"`` is ``1/10``, never a float);
the float run rounds each coin once, as a program reading doubles would.

The modules: :mod:`.row` (input), :mod:`.solver` (the exact table and the
line of play), :mod:`.seed` (the seed's programs), :mod:`.brute` (independent
references), :mod:`.bound` (a-priori float bounds), :mod:`.audit`,
:mod:`.claims`; this module holds the command-line entry points and ``GAME``.
"""

from __future__ import annotations

from fractions import Fraction

from exactplay.numbers.backends import Backend, as_fraction, format_pq
from exactplay.progress import SILENT
from exactplay.present.render import shorten
from exactplay.games import Game, Param, Report, game_model
from exactplay.present.render.solve import solve_report
from exactplay.solve_result import Decision, Fact, Margin, SolveResult, Table
# the submodules (the names other code and tests use are re-exported from here)
from exactplay.games.coins import model
from exactplay.games.coins.audit import audit_result, run_audit
from exactplay.games.coins.bound import UNIT_ROUNDOFF, bound_dp_min, bound_dp_sum
from exactplay.games.coins.brute import brute_force, greedy_vs_optimal, naive_min_calls, naive_sum_calls
from exactplay.games.coins.claims import CLAIMS, SEED_EXAMPLE
from exactplay.games.coins.row import (LEFT, MAX_COINS, RIGHT, _pq_list, _show, parse_coin, parse_coins,
                                       read_coin_file, resolve_row, to_backend)
from exactplay.games.coins.seed import float_choices, seed_dp_min, seed_dp_sum, upper_map
from exactplay.games.coins.solver import CoinTable, line_of_play, solve_row

# ------------------------------------------------------------------ CLI


def _params(row) -> dict:
    return {"coins": _pq_list(row)}


SHOW_TIES = 20
SHOW_MOVES = 40


def _smallest_margin(table: CoinTable) -> Margin | None:
    """The smallest non-zero ``|left - right|`` over the states of two coins or more (the first
    by ``(i, j)`` among equals)."""
    best = None
    for s in sorted(table.candidates):
        g = table.gap(s)
        if g and (best is None or g < best[0]):
            best = (g, s)
    return None if best is None else Margin(best[0], list(best[1]), _state_name(best[1]))


def _state_name(state) -> str:
    """The model's name of state ``(i, j)`` (games/coins/model.py), e.g. ``coins 0..3``."""
    return game_model("coins")((1,)).state_label(tuple(state))


def solve(coins=None, file=None, backend: Backend | str = "mpq", digits: int = 8, full: bool = False,
          progress=SILENT) -> Report:
    row = resolve_row(coins, file)
    return solve_report(solve_result(row, solve_row(row, backend, progress), digits, full))


def solve_result(row, table: CoinTable, digits: int = 8, full: bool = False) -> SolveResult:
    """The solve of the coin row ``row`` from its exact table."""
    total = sum((as_fraction(c) for c in table.coins), Fraction(0))
    moves = line_of_play(table)
    ties = table.ties()
    first = sum((as_fraction(m["coin"]) for m in moves if m["player"] == 1), Fraction(0))
    if first != as_fraction(table.answer):  # pragma: no cover - a bug, not an input
        raise AssertionError("optimal line does not attain V(0, n-1)")
    n = table.n
    second = total - as_fraction(table.answer)
    start = moves[0]
    shown = " ".join(shorten(_show(c)) for c in row) if n <= 30 or full else \
        " ".join(shorten(_show(c)) for c in row[:12]) + f" ... ({n} coins)"
    listed = ties if full else ties[:SHOW_TIES]
    return SolveResult(
        "coins", _params(row), table.backend, f"Coin row: {shown}", f"V(0,{n - 1})", table.answer, digits, full,
        answer_label="the first player can guarantee V(0, n-1) =",
        decisions=[Decision(_state_name((0, n - 1)), start["side"], table.gap((0, n - 1)) if n > 1 else None,
                            text=f"take the {start['side']} coin {_show(start['coin'])}", note="the whole row")] if n > 1 else [],
        smallest_margin=_smallest_margin(table),
        facts=[
            Fact("n", None, n), Fact("total", None, format_pq(total)),
            Fact("second_player", "second player gets", format_pq(second),
                 f"{_show(second)} of the total {_show(total)}"),
            Table("line_of_play", "optimal line of play (states are 0-based positions i..j, as in the seed's table;"
                  " a tie takes the left coin):", ("move", "player", "side", "coin", "position", "state", "tie"),
                  [{**m, "coin": format_pq(m["coin"])} for m in moves], SHOW_MOVES,
                  template="{move:>3}. player {player} takes the {side:5} coin {coin} (position {position}, "
                           "row {state}; tie: {tie})"),
            Fact("ties", None, [list(s) for s in ties]),
            Fact("tie_count", "ties (left and right coin equally good)", len(ties),
                 f"{len(ties)} of {len(table.candidates)} states" + (" with two coins or more" if table.candidates
                                                                     else ""))
            ] + ([Fact(None, "tied states", None, ", ".join(f"({i},{j})" for i, j in listed) + (
                "" if len(listed) == len(ties) else f", ... (--full or --json lists all {len(ties)})"))]
                 if listed else []))


def audit(coins=None, file=None, backend: Backend | str = "mpq", digits: int = 8, progress=SILENT):
    """The audit of the seed's two programs (an :class:`~exactplay.audit.result.AuditResult`)."""
    row = resolve_row(coins, file)
    return audit_result(row, run_audit(row, backend, digits, progress), digits)


def value_table(coins=None, file=None, backend: Backend | str = "mpq", progress=SILENT):
    """The exact V(i, j), 0 <= i <= j < n (0-based), for auditing a user's float table."""
    table = solve_row(resolve_row(coins, file), backend, progress)
    return table.V, TABLE_COLUMNS, TABLE_VALUE


TABLE_COLUMNS = ("i", "j")
TABLE_VALUE = "V(i,j), the most the player to move can guarantee from coins i..j (0-based, 0 <= i <= j < n)"


GAME = Game(
    name="coins",
    title="Coin row: the most the first player can guarantee",
    params=(
        Param("coins", parse_coins, None, "coin values: integers, decimals (0.1) or fractions (1/3); negative ones after --",
              positional=True, metavar="COIN"),
        Param("file", read_coin_file, None, "read the coin values from a file ('-': standard input)",
              metavar="FILE"),
    ),
    solve=solve,
    audit=audit,
    certify=model.certify,
    description="Players alternately take the first or the last coin of a row; both play optimally.",
    proofs=model.PROOFS,
    value_table=value_table,
    table_columns=TABLE_COLUMNS,
    table_value=TABLE_VALUE,
)
