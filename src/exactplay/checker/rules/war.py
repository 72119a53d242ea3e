"""War in a sweep (538 Riddler Classic, 28 August 2020), rebuilt from its rules for the checker.

A deck of ``ranks x suits`` cards is shuffled and dealt into two hands; each
turn both players flip their top card; a sweep is player A winning every turn
(a strictly higher rank).  Chance only: the answer ``P(A wins every turn)`` is
the sweep's probability (component 0).

State: how many cards of each rank (in rank order) are not yet flipped.  A
turn draws A's card (rank ``r`` with probability ``c_r / m``) and then B's (rank
``t`` with ``(c_t - [t = r]) / (m - 1)``); A wins it when ``t < r``; any other turn
ends the sweep (state ``lost``, payoff 0); an emptied deck is the sweep
(``swept``, payoff 1).
"""

from __future__ import annotations

from fractions import Fraction

from .._strict import fail

PARAMS = ("ranks", "suits")
MAX_RANKS, MAX_SUITS, MAX_CARDS = 26, 8, 104  # the solver's limits, restated


def state_bound(params) -> int:
    return (params["suits"] + 1) ** params["ranks"] + 2


def read_params(params) -> dict:
    for key, high in (("ranks", MAX_RANKS), ("suits", MAX_SUITS)):
        if type(params[key]) is not int or not 1 <= params[key] <= high:
            fail(f"{key} must be an integer 1..{high}", f"params.{key}")
    cards = params["ranks"] * params["suits"]
    if cards % 2 or cards > MAX_CARDS:
        fail(f"the deck must have an even number of cards, at most {MAX_CARDS}", "params")
    return dict(params)


class Rules:
    players = ("A",)
    objective = "auto"
    answer_name, answer_component = "P(A wins every turn)", 0

    def __init__(self, ranks: int, suits: int):
        self.name = f"War sweep, {ranks} ranks x {suits} suits"
        self.deck = (suits,) * ranks

    def initial(self):
        return self.deck

    def label(self, s) -> str:
        return s if isinstance(s, str) else f"deck counts {s}"

    def step(self, s):
        if isinstance(s, str):
            return "end", (1,) if s == "swept" else (0,)
        m = sum(s)
        won, lost = [], Fraction(0)
        for a, count_a in enumerate(s):
            for b, count_b in enumerate(s):
                p = Fraction(count_a, m) * Fraction(count_b - (a == b), m - 1)
                if b < a and p:
                    rest = list(s)
                    rest[a] -= 1
                    rest[b] -= 1
                    won.append((p, tuple(rest) if any(rest) else "swept"))
                else:
                    lost += p
        return None, [(None, won + ([(lost, "lost")] if lost else []), None)]
