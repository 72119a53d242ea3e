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
"""

from __future__ import annotations

import math
import random
from functools import cached_property
from fractions import Fraction
from pathlib import Path
from typing import Any, Sequence

from exactplay.audit import audit_decisions, audit_values, rounding_report
from exactplay.certificate import build_certificate
from exactplay.claims import Claim, verdict
from exactplay.errors import UsageError
from exactplay.numbers import Backend, as_fraction, format_pq, get_backend, read_rational
from exactplay.progress import SILENT
from exactplay.render import exact_number, shorten
from exactplay.games import Game, Param, Report

MAX_COINS = 1000
LEFT, RIGHT = "left", "right"

# ------------------------------------------------------------------ input


def parse_coin(text: str) -> Fraction:
    """One coin: an integer, a decimal (``0.1``, ``1e-3``) or a fraction (``1/3``), exactly."""
    return read_rational(text, "coin")


def _split(words: Sequence[str]) -> list[str]:
    out = []
    for w in words:
        out.extend(p for p in str(w).replace(",", " ").split() if p)
    return out


def parse_coins(words: Sequence[str] | str) -> tuple[Fraction, ...]:
    """Coin values from command-line words (commas also separate)."""
    if isinstance(words, str):
        words = [words]
    coins = tuple(parse_coin(w) for w in _split(words))
    if not coins:
        raise UsageError("empty row: give at least one coin value")
    if len(coins) > MAX_COINS:
        raise UsageError(f"{len(coins)} coins is beyond the supported limit {MAX_COINS}")
    return coins


def read_coin_file(path: str) -> tuple[Fraction, ...]:
    """Coin values from a text file (``-``: standard input): whitespace or commas
    between values, ``#`` starts a comment."""
    import sys

    try:
        text = sys.stdin.read() if path == "-" else Path(path).read_text(encoding="utf-8")
    except OSError as exc:
        raise UsageError(f"cannot read coin file {path}: {exc.strerror or exc}") from None
    except UnicodeDecodeError:
        raise UsageError(f"cannot read coin file {path}: not UTF-8 text") from None
    words = []
    for line in text.splitlines():
        words.extend(_split([line.split("#", 1)[0]]))
    if not words:
        raise UsageError(f"empty row: coin file {path} has no coin values")
    return parse_coins(words)


def resolve_row(coins=None, file=None) -> tuple[Fraction, ...]:
    """The row from either the positional coins or ``--file``, not both, not neither."""
    if coins and file:
        raise UsageError("give the coins on the command line or with --file, not both")
    row = file if file else coins
    if not row:
        raise UsageError("empty row: give at least one coin value (or --file FILE)")
    for c in row:
        as_fraction(c)  # raises on a float that slipped in through the Python API
    return tuple(row)


def to_backend(B: Backend, row: Sequence[Any]) -> list:
    """The coins in the field of ``B`` (for float: each rounded once, correctly)."""
    out = []
    for c in row:
        f = as_fraction(c)
        out.append(B.q(f.numerator, f.denominator))
    return out


# ------------------------------------------------------------------ the exact solver


class CoinTable:
    """``V``, both candidates and the choice of every state ``i <= j`` (0-based).

    Kept as triangular lists (``Vt[i][j]``, ``Lt[i][j]``, ``Rt[i][j]``); the
    mappings ``V``, ``candidates`` and ``choice`` keyed by ``(i, j)`` are built
    on first use.
    """

    def __init__(self, coins: list, backend: str, Vt: list, Lt: list, Rt: list):
        self.coins, self.backend, self.Vt, self.Lt, self.Rt = coins, backend, Vt, Lt, Rt

    @property
    def n(self) -> int:
        return len(self.coins)

    @property
    def answer(self) -> Any:
        return self.Vt[0][self.n - 1]

    def states(self):
        """``(i, j)`` with two coins or more, by increasing length."""
        n = self.n
        return ((i, i + k) for k in range(1, n) for i in range(n - k))

    @cached_property
    def V(self) -> dict:
        n = self.n
        return {(i, j): self.Vt[i][j] for k in range(n) for i in range(n - k) for j in (i + k,)}

    @cached_property
    def candidates(self) -> dict:
        return {(i, j): {LEFT: self.Lt[i][j], RIGHT: self.Rt[i][j]} for i, j in self.states()}

    @cached_property
    def choice(self) -> dict:
        out = {(i, i): LEFT for i in range(self.n)}
        for i, j in self.states():
            a, b = self.Lt[i][j], self.Rt[i][j]
            out[(i, j)] = "tie" if a == b else (LEFT if a > b else RIGHT)
        return out

    def ties(self) -> list:
        return [s for s in self.states() if self.Lt[s[0]][s[1]] == self.Rt[s[0]][s[1]]]

    def gap(self, state) -> Any:
        i, j = state
        return abs(self.Lt[i][j] - self.Rt[i][j])


def solve_row(row: Sequence[Any], backend: Backend | str = "mpq", progress=SILENT) -> CoinTable:
    """By increasing ``j - i``, with ``Sum`` from prefix sums::

        left = Sum(i, j) - V(i+1, j),  right = Sum(i, j) - V(i, j-1),  V = max(left, right)

    (``v_i + Sum(i+1, j) = Sum(i, j)``: the mover keeps what the opponent cannot take)."""
    B = get_backend(backend)
    v = to_backend(B, row)
    n = len(v)
    prefix = [B.zero]
    for x in v:
        prefix.append(prefix[-1] + x)
    Vt = [[None] * n for _ in range(n)]
    Lt = [[None] * n for _ in range(n)]
    Rt = [[None] * n for _ in range(n)]
    for i in range(n):
        Vt[i][i] = B.check(v[i], (i, i))
    progress.start(f"coins n={n} ({B.name})", max(n - 1, 0))
    for k in range(1, n):
        for i in range(n - k):
            j = i + k
            S = prefix[j + 1] - prefix[i]
            left = S - Vt[i + 1][j]
            right = S - Vt[i][j - 1]
            Lt[i][j], Rt[i][j] = left, right
            Vt[i][j] = left if left >= right else right
        progress.advance()
    if B.exact:
        B.check(Vt[0][n - 1], (0, n - 1))  # every cell is built from the checked coins by + and -
    return CoinTable(v, B.name, Vt, Lt, Rt)


def line_of_play(table: CoinTable) -> list[dict]:
    """Both players optimal from the whole row; a tie takes the left coin (and says so)."""
    i, j = 0, table.n - 1
    moves = []
    turn = 0
    while i <= j:
        c = table.choice[(i, j)]
        side = RIGHT if c == RIGHT else LEFT
        pos = i if side == LEFT else j
        moves.append({"move": turn + 1, "player": 1 + turn % 2, "state": [i, j], "side": side,
                      "position": pos, "coin": table.coins[pos], "tie": c == "tie"})
        if side == LEFT:
            i += 1
        else:
            j -= 1
        turn += 1
    return moves


# ------------------------------------------------------------------ the seed's programs


def seed_dp_min(row: Sequence[Any], backend: Backend | str = "float", keep: bool = False):
    """The seed's first ``getMaxCoin``, in the field of ``backend``.

    ``left = maxCoin[i+2][j]`` if ``i+2 <= j`` else 0, ``bottom = maxCoin[i][j-2]``
    if ``j-2 >= i`` else 0, and ``maxCoin[i+1][j-1]`` read from the (zero) lower
    triangle when ``k = 1``.  Returns ``(value, M, candidates)``; ``candidates``
    (if ``keep``) maps ``(i, j)`` to ``{left: coins[i] + min(...), right: coins[j] + min(...)}``.
    """
    B = get_backend(backend)
    coins = to_backend(B, row)
    n = len(coins)
    M = [[B.zero] * n for _ in range(n)]
    cands = {} if keep else None
    for i in range(n):
        M[i][i] = coins[i]
    for k in range(1, n):
        i, j = 0, k
        while i < n - k:
            left = M[i + 2][j] if i + 2 <= j else B.zero
            bottom = M[i][j - 2] if j - 2 >= i else B.zero
            a = coins[i] + min(left, M[i + 1][j - 1])
            b = coins[j] + min(M[i + 1][j - 1], bottom)
            M[i][j] = max(a, b)
            if keep:
                cands[(i, j)] = {LEFT: a, RIGHT: b}
            i += 1
            j += 1
    return M[0][n - 1], M, cands


def seed_dp_sum(row: Sequence[Any], backend: Backend | str = "float", keep: bool = False):
    """The seed's second ``getMaxCoin``: ``T[j][i] = T[j-1][i] + coins[j]`` (sums),
    ``T[i][j] = max(T[j][i] - T[i+1][j], T[j][i] - T[i][j-1])``."""
    B = get_backend(backend)
    coins = to_backend(B, row)
    n = len(coins)
    T = [[B.zero] * n for _ in range(n)]
    cands = {} if keep else None
    for i in range(n):
        T[i][i] = coins[i]
    for k in range(1, n):
        i, j = 0, k
        while i < n - k:
            T[j][i] = T[j - 1][i] + coins[j]
            a = T[j][i] - T[i + 1][j]
            b = T[j][i] - T[i][j - 1]
            T[i][j] = max(a, b)
            if keep:
                cands[(i, j)] = {LEFT: a, RIGHT: b}
            i += 1
            j += 1
    return T[0][n - 1], T, cands


def upper_map(M: list) -> dict:
    """``{(i, j): M[i][j]}`` for ``i <= j``: the maxCoin part of a seed matrix."""
    n = len(M)
    return {(i, j): M[i][j] for i in range(n) for j in range(i, n)}


def float_choices(cands: dict) -> dict:
    """The side the float values prefer (``>=`` keeps left, like ``max(a, b)`` returning ``a``)."""
    return {s: (LEFT if c[LEFT] >= c[RIGHT] else RIGHT) for s, c in cands.items()}


# ------------------------------------------------------------------ brute force and the naive recursions


def brute_force(row: Sequence[Any]) -> Fraction:
    """Plain minimax over the whole game tree: first player maximises, second minimises
    the first player's total.  Exponential; small rows only."""
    v = [as_fraction(c) for c in row]

    def play(i: int, j: int, first: bool) -> Fraction:
        if i > j:
            return Fraction(0)
        if first:
            return max(v[i] + play(i + 1, j, False), v[j] + play(i, j - 1, False))
        return min(play(i + 1, j, True), play(i, j - 1, True))

    return play(0, len(v) - 1, True)


def naive_min_calls(n: int) -> int:
    """Calls made by the seed's first recursive ``maxCoin`` (four recursive calls per state)."""
    calls = 0

    def rec(i: int, j: int):
        nonlocal calls
        calls += 1
        if j - i <= 1:
            return
        rec(i + 2, j), rec(i + 1, j - 1), rec(i + 1, j - 1), rec(i, j - 2)

    rec(0, n - 1)
    return calls


def naive_sum_calls(n: int) -> int:
    """Calls made by the seed's second recursion (two recursive calls per state)."""
    calls = 0

    def rec(i: int, j: int):
        nonlocal calls
        calls += 1
        if j - i <= 1:
            return
        rec(i + 1, j), rec(i, j - 1)

    rec(0, n - 1)
    return calls


def greedy_vs_optimal(row: Sequence[Any]) -> Fraction:
    """First player takes the larger end coin every turn (left on equality); the
    opponent plays optimally.  The first player's total."""
    table = solve_row(row, "fraction")
    v = [as_fraction(c) for c in row]
    i, j, total, mine = 0, len(v) - 1, Fraction(0), True
    while i <= j:
        if mine:
            take_left = v[i] >= v[j]
        else:
            take_left = table.choice[(i, j)] != RIGHT
        if mine:
            total += v[i] if take_left else v[j]
        if take_left:
            i += 1
        else:
            j -= 1
        mine = not mine
    return total


# ------------------------------------------------------------------ a-priori float bounds

UNIT_ROUNDOFF = 2.0**-53
SLACK = 1 + 2.0**-30  # covers the rounding of the bound itself and |float partial sums| > A


def abs_sum(row: Sequence[Any]) -> float:
    """``A = sum |v|`` rounded up (as a float)."""
    A = sum((abs(as_fraction(c)) for c in row), Fraction(0))
    a = float(A)
    return a if Fraction(a) >= A else math.nextafter(a, math.inf)


def bound_dp_min(row: Sequence[Any]) -> tuple[float, str]:
    """First DP: a cell adds one rounded coin and one rounded addition (each <= u A) to
    the error of a cell two shorter; ``min``/``max`` never increase an error.  So
    ``E(len) <= E(len - 2) + 2 u A`` and ``E(n) <= (n + 1) u A``."""
    n = len(row)
    A = abs_sum(row)
    return (n + 1) * UNIT_ROUNDOFF * A * SLACK, f"(n+1) u A, n = {n}, A = sum|v| = {A:.6g}"


def bound_dp_sum(row: Sequence[Any]) -> tuple[float, str]:
    """Second DP: ``Sum(len)`` carries ``<= 2 len u A`` (coins and additions), and
    ``C(len) = Sum - C(len - 1)`` adds one more rounding: ``E(len) <= (len^2 + 2 len) u A``."""
    n = len(row)
    A = abs_sum(row)
    return (n * n + 2 * n) * UNIT_ROUNDOFF * A * SLACK, f"(n^2+2n) u A, n = {n}, A = sum|v| = {A:.6g}"


# ------------------------------------------------------------------ audit


def _pq_list(row) -> list[str]:
    return [format_pq(c) for c in row]


def _show(x: Any) -> str:
    f = as_fraction(x)
    return str(f.numerator) if f.denominator == 1 else f"{f.numerator}/{f.denominator}"


def audit_formulation(exact: CoinTable, row, which: str) -> dict:
    """Float run of one seed formulation against the exact table: values and decisions."""
    if which == "min":
        value, M, cands = seed_dp_min(row, "float", keep=True)
        bound, label = bound_dp_min(row)
    else:
        value, M, cands = seed_dp_sum(row, "float", keep=True)
        bound, label = bound_dp_sum(row)
    values = audit_values(exact.V, upper_map(M), bound, label)
    picks = float_choices(cands)
    decisions = audit_decisions(exact.candidates, cands, picks, bound)
    broken_ties = [s for s in exact.candidates if exact.choice[s] == "tie" and cands[s][LEFT] != cands[s][RIGHT]]
    float_ties = [s for s in exact.candidates if exact.choice[s] != "tie" and cands[s][LEFT] == cands[s][RIGHT]]
    flips = [s for s in exact.candidates if exact.choice[s] != "tie" and picks[s] != exact.choice[s]]
    err = abs(Fraction(value) - as_fraction(exact.answer))
    return {
        "formulation": which, "value": value, "values": values, "decisions": decisions,
        "answer_error": float(err), "ties_broken_by_rounding": broken_ties,
        "float_ties_not_exact": float_ties, "flipped": flips, "bound": bound,
    }


FLOAT_RANGE = (Fraction(1, 2**1000), Fraction(2**1000))  # coins the float programs can hold with room to add


def check_float_range(row) -> None:
    """A :class:`UsageError` for a coin that a double cannot hold (the exact solve still works)."""
    low, high = FLOAT_RANGE
    for k, c in enumerate(row):
        a = abs(as_fraction(c))
        if a and not low <= a <= high:
            e = len(str(a.numerator)) - len(str(a.denominator))
            raise UsageError(f"coin number {k + 1} (about 10^{e} in magnitude) is outside the range of doubles "
                             "the float programs can run on; `exactplay solve coins` works exactly")


def run_audit(row, backend: Backend | str = "mpq", digits: int = 8, progress=SILENT) -> dict:
    check_float_range(row)
    exact = solve_row(row, backend, progress)
    out = {"exact": exact}
    if exact.n < 2:
        return out
    for which in ("min", "sum"):
        try:
            out[which] = audit_formulation(exact, row, which)
        except (OverflowError, ZeroDivisionError) as exc:  # values cancel below the double range
            raise UsageError(f"the float run leaves the range of doubles ({exc}); "
                             "`exactplay solve coins` works exactly") from None
    return out


# ------------------------------------------------------------------ CLI


def _params(row) -> dict:
    return {"coins": _pq_list(row)}


def _move_line(m: dict) -> str:
    tie = "  (tie: the other end is as good)" if m["tie"] else ""
    return (f"  {m['move']:3}. player {m['player']} takes the {m['side']:5} coin {_show(m['coin'])} "
            f"(position {m['position']}, row {m['state'][0]}..{m['state'][1]}){tie}")


SHOW_TIES = 20


def solve(coins=None, file=None, backend: Backend | str = "mpq", digits: int = 8, full: bool = False,
          progress=SILENT) -> Report:
    row = resolve_row(coins, file)
    table = solve_row(row, backend, progress)
    total = sum((as_fraction(c) for c in table.coins), Fraction(0))
    vdata, vlines = exact_number(table.answer, digits, full)
    moves = line_of_play(table)
    ties = table.ties()
    first = sum((as_fraction(m["coin"]) for m in moves if m["player"] == 1), Fraction(0))
    if first != as_fraction(table.answer):  # pragma: no cover - a bug, not an input
        raise AssertionError("optimal line does not attain V(0, n-1)")
    data = {
        "game": "coins", "params": _params(row), "backend": table.backend, "n": table.n,
        "answer_name": f"V(0,{table.n - 1})", "answer": vdata,
        "total": format_pq(total), "second_player": format_pq(total - as_fraction(table.answer)),
        "line_of_play": [{**m, "coin": format_pq(m["coin"])} for m in moves],
        "ties": [list(s) for s in ties], "tie_count": len(ties),
    }
    shown = " ".join(shorten(_show(c)) for c in row) if table.n <= 30 or full else \
        " ".join(shorten(_show(c)) for c in row[:12]) + f" ... ({table.n} coins)"
    lines = [f"Coin row: {shown}", "the first player can guarantee V(0, n-1) ="] + vlines
    lines.append(f"(second player gets {_show(total - as_fraction(table.answer))} of the total {_show(total)})")
    lines.append("optimal line of play (states are 0-based positions i..j, as in the seed's table):")
    shown_moves = moves if full or len(moves) <= 40 else moves[:40]
    lines += [_move_line(m) for m in shown_moves]
    if len(shown_moves) < len(moves):
        lines.append(f"  ... {len(moves) - len(shown_moves)} more moves (--full shows all)")
    lines.append(f"ties (left and right coin equally good): {len(ties)} of {len(table.candidates)} states"
                 + (" with two coins or more" if table.candidates else ""))
    listed = ties if full else ties[:SHOW_TIES]
    if listed:
        lines.append("  " + ", ".join(f"({i},{j})" for i, j in listed)
                     + ("" if len(listed) == len(ties) else f", ... (--full or --json lists all {len(ties)})"))
    return Report(data, lines)


def _formulation_lines(name: str, r: dict) -> list[str]:
    v, d = r["values"], r["decisions"]
    return [
        f"{name}: float answer {r['value']!r}, error {r['answer_error']:.3e}",
        f"  table: max abs error {v.max_abs:.3e} at {v.max_abs_at}, max {v.max_ulps:.1f} ulps; "
        f"a-priori bound {v.bound:.3e} ({v.bound_label}); "
        + ("float table exact" if v.bound_ratio is None else f"bound/measured {v.bound_ratio:.1f}"),
        "  decisions: " + ", ".join(f"{k} {c}" for k, c in d.counts.items()),
        f"  exact ties that rounding turns into a strict float preference: {len(r['ties_broken_by_rounding'])}"
        + (f" e.g. {r['ties_broken_by_rounding'][:5]}" if r["ties_broken_by_rounding"] else ""),
        f"  float ties that are not exact ties: {len(r['float_ties_not_exact'])}"
        + (f" e.g. {r['float_ties_not_exact'][:5]}" if r["float_ties_not_exact"] else ""),
        f"  decisions flipped (float prefers the strictly worse coin): {len(r['flipped'])}"
        + (f" e.g. {r['flipped'][:5]}" if r["flipped"] else ""),
    ]


def _formulation_json(r: dict) -> dict:
    return {
        "float_answer": r["value"], "answer_error": r["answer_error"],
        "values": r["values"].to_dict(), "decisions": r["decisions"].to_dict(),
        "ties_broken_by_rounding": [list(s) for s in r["ties_broken_by_rounding"]],
        "float_ties_not_exact": [list(s) for s in r["float_ties_not_exact"]],
        "flipped": [list(s) for s in r["flipped"]],
    }


def audit(coins=None, file=None, backend: Backend | str = "mpq", digits: int = 8, progress=SILENT) -> Report:
    row = resolve_row(coins, file)
    r = run_audit(row, backend, digits, progress)
    exact: CoinTable = r["exact"]
    data = {"game": "coins", "params": _params(row), "n": exact.n, "exact_answer": format_pq(exact.answer),
            "exact_ties": len(exact.ties())}
    lines = [f"Audit of the seed's two coin-row programs in float, {exact.n} coin{'s' if exact.n != 1 else ''} "
             f"(each coin rounded once to a double)",
             f"exact V(0,{exact.n - 1}) = {_show(exact.answer)}; exact ties: {len(exact.ties())} of "
             f"{len(exact.candidates)} states"]
    if exact.n < 2:
        lines.append("one coin: nothing to compute, nothing to decide")
        return Report(data, lines)
    for key, name in (("min", "first DP  V[i] + min(...)"), ("sum", "second DP Sum - C(...)")):
        data["dp_" + key] = _formulation_json(r[key])
        lines += _formulation_lines(name, r[key])
        rr = rounding_report(exact.answer, digits, r[key]["value"], r[key]["bound"])
        data["dp_" + key]["rounding"] = rr.to_dict()
        lines.append(f"  rounded to {digits} decimals: exact {rr.rounded}, float {rr.float_rounded} "
                     f"({'agree' if rr.float_digits_agree else 'DIFFER'})")
    return Report(data, lines)


def certify(coins=None, file=None, backend: Backend | str = "mpq", progress=SILENT) -> dict:
    row = resolve_row(coins, file)
    r = run_audit(row, backend, 8, progress)
    exact: CoinTable = r["exact"]
    rows = []
    smallest = None
    for (i, j), value in sorted(exact.V.items(), key=lambda kv: (kv[0][1] - kv[0][0], kv[0][0])):
        if i == j:
            rows.append([i, j, format_pq(value), format_pq(value), format_pq(value), "single"])
            continue
        c = exact.candidates[(i, j)]
        rows.append([i, j, format_pq(value), format_pq(c[LEFT]), format_pq(c[RIGHT]), exact.choice[(i, j)]])
        g = exact.gap((i, j))
        if g and (smallest is None or g < smallest[0]):
            smallest = (g, [i, j])
    moves = line_of_play(exact)
    answer_data, _ = exact_number(exact.answer, 8)
    audit_json = {k: _formulation_json(r[k]) for k in ("min", "sum") if k in r}
    return build_certificate(
        game="coins",
        params=_params(row),
        answer={"name": f"V(0,{exact.n - 1})", **answer_data},
        columns=["i", "j", "V", "left", "right", "choice"],
        rows=rows,
        policy={"line_of_play": [[m["state"][0], m["state"][1], m["side"]] for m in moves],
                "ties": [list(s) for s in exact.ties()],
                "tie_rule": "on a tie the line of play takes the left coin"},
        smallest_gap=None if smallest is None else {"value": format_pq(smallest[0]), "state": smallest[1]},
        audit=audit_json,
        notes="V(i,j): the most the player to move can guarantee from coins i..j (0-based). "
              "left = v_i + Sum(i+1,j) - V(i+1,j), right = v_j + Sum(i,j-1) - V(i,j-1). "
              "choice: left, right, tie (equal), single (one coin).",
    )


# ------------------------------------------------------------------ the seed's claims

SEED_EXAMPLE = (10, 20, 8, 7)
_SEED = "coins.md"


def _claim_example():
    t = solve_row(SEED_EXAMPLE, "fraction")
    return verdict(t.answer == 27, f"V(0,3) = {_show(t.answer)}")


def _claim_line():
    t = solve_row(SEED_EXAMPLE, "fraction")
    moves = line_of_play(t)
    mine = [as_fraction(m["coin"]) for m in moves if m["player"] == 1]
    # the opponent's tie at (0, 2) does not change what the first player gets
    alt = 7 + 20
    unique_first = t.choice[(0, 3)] == RIGHT
    return verdict(mine == [7, 20] and unique_first and sum(mine) == alt,
                   f"first player takes {[_show(x) for x in mine]}; first move 7 is the unique best "
                   f"(left gives {_show(t.candidates[(0, 3)][LEFT])}); the opponent's reply at (0,2) is a "
                   f"tie ({t.choice[(0, 2)]}), after which 20 is taken either way")


def _claim_greedy():
    g = greedy_vs_optimal(SEED_EXAMPLE)
    return verdict(g < 27, f"greedy first player gets {_show(g)} against an optimal opponent, optimal play 27")


def _random_rows(count: int, lengths, seed: int = 5):
    rng = random.Random(seed)
    for _ in range(count):
        n = rng.choice(lengths)
        yield [Fraction(rng.randint(-20, 40), rng.choice((1, 1, 2, 10))) for _ in range(n)]


def _claim_dp_min_odd():
    bad = []
    rows = list(_random_rows(300, [1, 3, 5, 7, 9, 11])) + list(_random_rows(200, [2, 4, 6, 8, 10], 6))
    for row in rows:
        if as_fraction(seed_dp_min(row, "fraction")[0]) != brute_force(row):
            bad.append(row)
    return verdict(not bad, f"{len(rows)} random rows (odd and even n <= 11, negative and fractional coins): "
                            f"{len(bad)} disagree with brute-force minimax")


def _claim_dp_sum():
    bad = [row for row in _random_rows(300, list(range(1, 12)), 7)
           if as_fraction(seed_dp_sum(row, "fraction")[0]) != brute_force(row)]
    return verdict(not bad, f"300 random rows, n = 1..11: {len(bad)} disagree with brute-force minimax")


def _claim_exponential():
    r1 = [naive_min_calls(n + 2) / naive_min_calls(n) for n in range(10, 16)]
    r2 = [naive_sum_calls(n + 1) / naive_sum_calls(n) for n in range(10, 18)]
    ok = all(4 < x < 4.01 for x in r1) and all(2 < x < 2.01 for x in r2)  # 4 + 1/C(n), 2 + 1/C(n)
    return verdict(ok, f"calls grow by {r1[-1]:.4f} per two more coins (first recursion) and by "
                       f"{r2[-1]:.4f} per coin (second): both Theta(2^n)")


def _claim_quadratic():
    n = 50
    cells = len(seed_dp_min(list(range(n)), "fraction", keep=True)[2])
    return verdict(cells == n * (n - 1) // 2, f"{cells} cells filled for n = {n}: n(n-1)/2")


CLAIMS = (
    Claim("coins.example-27", "coins", _SEED + ", Solution - Recursion", "(10, 20, 8, 7): the maximum amount is 27",
          "exact solver", _claim_example),
    Claim("coins.example-line", "coins", _SEED + ", Solution - Recursion", "the maximum amount is 7+20=27",
          "optimal line of play with the first player's coins", _claim_line),
    Claim("coins.greedy", "coins", _SEED + ", Solution - Recursion",
          "picking max(V[i], V[j]) each round may not give the overall maximum",
          "greedy first player against an optimal opponent on (10, 20, 8, 7)", _claim_greedy),
    Claim("coins.dp-min-odd-even", "coins", _SEED + ", Solution - DP",
          "This algorithm works for both cases where n is even or odd",
          "the first DP (with its 0 edges) vs brute-force minimax on random odd and even rows", _claim_dp_min_odd),
    Claim("coins.dp-sum", "coins", _SEED + ", Solution - Another DP",
          "the Sum - C formulation, no need to consider odd and even cases",
          "the second DP vs brute-force minimax on random rows", _claim_dp_sum),
    Claim("coins.recursion-exponential", "coins", _SEED + ", recursions",
          "both recursions run in O(2^n) (T(n) = 4T(n-2), T(n) = 2T(n-1))",
          "count the calls of the naive recursions", _claim_exponential),
    Claim("coins.dp-quadratic", "coins", _SEED + ", Solution - DP", "O(n^2) time and space",
          "count the table cells filled", _claim_quadratic),
)


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
    certify=certify,
    description="Players alternately take the first or the last coin of a row; both play optimally.",
    proofs=(
        ("coins-seed-example.json", {"coins": tuple(Fraction(c) for c in SEED_EXAMPLE)}),
        ("coins-decimals.json", {"coins": parse_coins("0.1 0.2 0.3 0.4 0.4 0.3 0.2 0.1".split())}),
        ("coins-near-tie.json", {"coins": parse_coins("0.3 0.1 0.2 0.30000000000000001".split())}),
    ),
    value_table=value_table,
    table_columns=TABLE_COLUMNS,
    table_value=TABLE_VALUE,
)
