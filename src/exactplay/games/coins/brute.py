"""Independent references: brute-force minimax, the naive recursions' call counts, greedy play."""

from __future__ import annotations

from fractions import Fraction
from typing import Any, Sequence

from exactplay.numbers.backends import as_fraction
from exactplay.games.coins.row import RIGHT
from exactplay.games.coins.solver import solve_row


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
