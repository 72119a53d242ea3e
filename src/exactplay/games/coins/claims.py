"""The seed's claims about the coin row (``coins.md``), each with a check that can fail."""

from __future__ import annotations

import random
from fractions import Fraction

from exactplay.claims import Claim, verdict
from exactplay.numbers.backends import as_fraction
from exactplay.games.coins.brute import brute_force, greedy_vs_optimal, naive_min_calls, naive_sum_calls
from exactplay.games.coins.row import LEFT, RIGHT, _show
from exactplay.games.coins.seed import seed_dp_min, seed_dp_sum
from exactplay.games.coins.solver import line_of_play, solve_row

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
