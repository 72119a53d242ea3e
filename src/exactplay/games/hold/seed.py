"""The published float solver of Hold or Continue? (the seed article), under audit.

A faithful port of the article's Python program, generalised only in its
constants (target ``T`` for 75, faces ``F`` for 6, ``T - 2`` for 73): same
table ``dp[c][h]`` for ``c <= T-2`` with the boundary columns ``dp[c][T-1] = 1``
and ``dp[c][T] = 0``, same suffix sums, same order of operations, same
50-step bisection and the same ``dp[c][c] = 0.5``.

What the article's bisection actually solves: it guesses ``A = dp[c][h]``,
sets the opponent's value to ``1 - A`` and hence the value of a lost turn to
``1 - (1 - A) = A``; so it looks for ``A = f(A)``, where ``f(L)`` is the
turn's value when a lost turn is worth ``L``.  The true equations are
``A = f(1 - W)`` with ``W = V(h, c)`` found from the opponent's own turn.
Since ``f(L) > L`` for every ``L < 1`` (the mover can always try for the
target), the bisection drifts to ``A ~ 1``: the table it builds is not the
game's.  The query step, in contrast, uses ``1 - dp[h][c]`` as the lost-turn
value, which would be right with a right table.
"""

from __future__ import annotations

from dataclasses import dataclass

from exactplay.progress import SILENT

BISECTION_STEPS = 50


@dataclass
class SeedSolution:
    target: int
    faces: int
    dp: list  # dp[c][h], c <= T-2, h <= T

    def answer(self, c: int, h: int, x: int) -> str:
        hold, cont = self.query_values(c, h, x)
        return "H" if hold > cont else "C"

    def query_values(self, c: int, h: int, x: int) -> tuple[float, float]:
        """The article's query step: ``(hold, continue_value)`` for one query."""
        return query_values(self, c, h, x, turn_states(self, c, h, self.dp[h][c]))


def _turn(dp, T: int, F: int, c: int, h: int, opponent_win: float, keep: bool):
    """``turn_value`` / ``turn_states`` of the article (they differ only in what they return)."""
    max_x = T - c
    lose_turn = 1.0 - opponent_win
    v = [0.0] * (max_x + F + 2)
    suffix = [0.0] * (max_x + F + 3)
    v[max_x] = 1.0
    suffix[max_x] = 1.0
    row = dp[h]
    for x in range(max_x - 1, 1, -1):
        hold = 1.0 - row[c + x]
        left = x + 2
        right = min(x + F, max_x)
        if left <= right:
            known = right - left + 1
            future = suffix[left] - suffix[right + 1]
        else:
            known = 0
            future = 0.0
        continue_value = (future + (F - known) * lose_turn) / float(F)
        v[x] = max(hold, continue_value)
        suffix[x] = suffix[x + 1] + v[x]
    if keep:
        return v
    left = 2
    right = min(F, max_x)
    if left <= right:
        known = right - left + 1
        future = suffix[left] - suffix[right + 1]
    else:
        known = 0
        future = 0.0
    return (future + (F - known) * lose_turn) / float(F)


def turn_value(sol: SeedSolution, c: int, h: int, opponent_win: float) -> float:
    return _turn(sol.dp, sol.target, sol.faces, c, h, opponent_win, keep=False)


def turn_states(sol: SeedSolution, c: int, h: int, opponent_win: float) -> list:
    return _turn(sol.dp, sol.target, sol.faces, c, h, opponent_win, keep=True)


def query_values(sol: SeedSolution, c: int, h: int, x: int, v: list) -> tuple[float, float]:
    """Hold and continue values of query ``(c, h, x)`` from the turn states ``v``."""
    T, F, dp = sol.target, sol.faces, sol.dp
    opponent_win = dp[h][c]
    if c + x == T:
        hold = 1.0
    else:
        hold = 1.0 - dp[h][c + x]
    lose_turn = 1.0 - opponent_win
    left = x + 2
    right = min(x + F, T - c)
    if left <= right:
        known = right - left + 1
        future = sum(v[d] for d in range(left, right + 1))
    else:
        known = 0
        future = 0.0
    continue_value = (future + (F - known) * lose_turn) / float(F)
    return hold, continue_value


def seed_solve(target: int = 75, faces: int = 6, steps: int = BISECTION_STEPS, progress=SILENT) -> SeedSolution:
    """The article's precomputation: bisection per pair, by decreasing ``c + h``."""
    T, F = target, faces
    top = T - 2  # MAX_SCORE
    progress.start(f"the published program's bisection, target {T}", 2 * top + 1)
    dp = [[0.0] * (T + 1) for _ in range(top + 1)]
    for c in range(top + 1):
        dp[c][T - 1] = 1.0
        dp[c][T] = 0.0
    sol = SeedSolution(T, F, dp)
    for total in range(2 * top, -1, -1):
        lo_c = max(0, total - top)
        hi_c = min(top, total)
        for c in range(lo_c, hi_c + 1):
            h = total - c
            if c > h:
                continue
            if c == h:
                dp[c][h] = 0.5
                continue
            lo = 0.0
            hi = 1.0
            for _ in range(steps):
                mid = (lo + hi) * 0.5
                got = turn_value(sol, c, h, 1.0 - mid)
                if got > mid:
                    lo = mid
                else:
                    hi = mid
            a = (lo + hi) * 0.5
            dp[c][h] = a
            dp[h][c] = 1.0 - a
        progress.advance()
    return sol


def seed_candidates(sol: SeedSolution, c: int, h: int) -> dict:
    """``x -> (hold, continue)`` for every query state of pair ``(c, h)`` (one turn_states call)."""
    v = turn_states(sol, c, h, sol.dp[h][c])
    return {x: query_values(sol, c, h, x, v) for x in range(2, sol.target - c + 1)}
