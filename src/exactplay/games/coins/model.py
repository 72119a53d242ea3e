"""The coin-row game, written as a game model from the rules.

Rules (the seed article ``shared/seeds/coins.md``): a row of coins ``v_1 .. v_n``; two
players alternately take the first or the last coin and receive its value; the
opponent is as clever.  The answer is what the first player can guarantee.

A state is the remaining row ``(i, j)`` (0-based; one state ``END`` when empty); the
player to move is fixed by how many coins are gone.  Taking a coin is a reward
of its value to the mover (``(v, 0)`` or ``(0, v)``), so each player's value is
the total it takes from there on; play ends when the row is empty (payoff 0).
The game is constant-sum (the totals add up to the row's sum), so each player
maximising its own total is the same as the first player maximising its total
against a minimising opponent; the engine treats it as "each maximises its own"
because its zero-sum test asks rewards to add up to 0 per step.

Actions ``left``, ``right`` (the earlier wins exact ties, as the hand-written
solver's ``left >= right``); a single coin has the one action ``left``.
"""

from __future__ import annotations

from fractions import Fraction

from exactplay.model.protocol import to_rational

END = ("empty",)


class CoinRow:
    num_players = 2
    player_names = ["first player", "second player"]

    def __init__(self, coins):
        self.coins = tuple(to_rational(c, "coin") for c in coins)
        if not self.coins:
            raise ValueError("empty row")
        self.name = f"coin row of {len(self.coins)}"

    def initial_state(self):
        return (0, len(self.coins) - 1)

    def is_terminal(self, s):
        return s == END

    def payoff(self, s):
        return (0, 0)

    def mover(self, s):
        gone = len(self.coins) - (s[1] - s[0] + 1)
        return gone % 2

    def actions(self, s):
        return ["left"] if s[0] == s[1] else ["left", "right"]

    def transitions(self, s, a):
        i, j = s
        t = (i + 1, j) if a == "left" else (i, j - 1)
        return [(1, END if t[0] > t[1] else t)]

    def reward(self, s, a):
        v = self.coins[s[0] if a == "left" else s[1]]
        return (v, Fraction(0)) if self.mover(s) == 0 else (Fraction(0), v)

    def state_label(self, s):
        return "empty row" if s == END else f"coins {s[0]}..{s[1]}"


def make_game(coins=(10, 20, 8, 7)):
    if isinstance(coins, str):
        coins = [c for c in coins.replace(",", " ").split() if c]
    elif not isinstance(coins, (list, tuple)):
        coins = [coins]  # one coin (``--param coins=3``)
    return CoinRow(coins)


# ---------------------------------------------------------------- certificate

# the instances whose certificate is kept in proofs/<game>/ (tests/test_proofs_current.py)
PROOFS = (
    ("coins-seed-example.json", {"coins": (10, 20, 8, 7)}),
    ("coins-decimals.json", {"coins": tuple(Fraction(k, 10) for k in (1, 2, 3, 4, 4, 3, 2, 1))}),
    ("coins-near-tie.json", {"coins": (Fraction(3, 10), Fraction(1, 10), Fraction(1, 5),
                                       Fraction(30000000000000001, 100000000000000000))}),
)


def certify(coins=None, file=None, progress=None, store="auto", backend="mpq", solver=None) -> dict:
    """The certificate (``exactplay certify coins``): this model solved by the engine (or by
    ``solver``); the answer ``V(0,n-1)`` is the first player's total (component 0)."""
    from exactplay.certify.game import game_certificate, refuse_if_too_large
    from exactplay.games.coins.row import _pq_list, resolve_row
    from exactplay.numbers.backends import get_backend

    row = resolve_row(coins, file)
    params = {"coins": _pq_list(row)}
    refuse_if_too_large("coins", params, len(row) ** 2 + 1)
    return game_certificate("coins", params, {"coins": row}, f"V(0,{len(row) - 1})", 0, progress=progress,
                            store=store, backend=get_backend(backend).name, solver=solver)
