"""The coin row, rebuilt from its rules for the checker.

A row of coins; two players alternately take the first or the last coin and
receive its value; each maximises its own total.  The answer ``V(0,n-1)`` is the
first player's total from the full row (component 0).

State: the remaining row ``i..j`` (or the empty row, the only terminal, payoff
0); the mover is the parity of the coins gone; actions ``left`` then ``right``
(one action ``left`` for a single coin), each a reward of the coin's value to
the mover.
"""

from __future__ import annotations

from .._strict import fail, rational

PARAMS = ("coins",)
MAX_COINS = 1000  # the solver's limit, restated
EMPTY = "empty"


def state_bound(params) -> int:
    return len(params["coins"]) ** 2 + 1


def read_params(params) -> dict:
    coins = params["coins"]
    if not isinstance(coins, list) or not 1 <= len(coins) <= MAX_COINS:
        fail(f"coins must be a list of 1..{MAX_COINS} 'p/q' values", "params.coins")
    return {"coins": [rational(c, "params.coins") for c in coins]}


class Rules:
    players = ("first player", "second player")
    objective = "auto"
    answer_component = 0

    def __init__(self, coins):
        self.coins = coins
        self.name = f"coin row of {len(coins)}"
        self.answer_name = f"V(0,{len(coins) - 1})"

    def initial(self):
        return (0, len(self.coins))  # the half-open row [0, n)

    def label(self, s) -> str:
        return "empty row" if s == EMPTY else f"coins {s[0]}..{s[1] - 1}"

    def step(self, s):
        if s == EMPTY:
            return "end", (0, 0)
        lo, hi = s
        mover = (len(self.coins) - (hi - lo)) % 2

        def take(value, rest):
            return [(1, rest if rest[0] < rest[1] else EMPTY)], (value, 0) if mover == 0 else (0, value)

        left = take(self.coins[lo], (lo + 1, hi))
        actions = [("left", *left)]
        if hi - lo > 1:
            actions.append(("right", *take(self.coins[hi - 1], (lo, hi - 1))))
        return mover, actions
