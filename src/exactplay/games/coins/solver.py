"""The exact coin-row solver and the optimal line of play.

``V(i, j)`` is the most the player to move can guarantee from the coins
``i..j``; the game is constant-sum, so, taking a coin and leaving the rest::

    left(i, j)  = v_i + Sum(i+1, j) - V(i+1, j)
    right(i, j) = v_j + Sum(i, j-1) - V(i, j-1)
    V(i, j)     = max(left, right),       V(i, i) = v_i.

Both candidates of every state are kept, so ties are exact facts.
"""

from __future__ import annotations

from functools import cached_property
from typing import Any, Sequence

from exactplay.numbers.backends import Backend, get_backend
from exactplay.progress import SILENT
from exactplay.games.coins.row import LEFT, RIGHT, to_backend


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
