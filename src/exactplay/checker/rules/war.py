"""War in a sweep (538 Riddler Classic, 28 August 2020), rebuilt from its rules for the checker.

A deck of ``ranks x suits`` cards is shuffled and dealt into two hands; each
turn both players flip their top card; a sweep is player A winning every turn
(a strictly higher rank).  Chance only: the answer ``P(A wins every turn)`` is
the sweep's probability (component 0).

Flipping the top cards of a random deal is drawing A's card and then B's at
random from the ``m`` cards not yet flipped.  Two cards of different ranks with
``a`` and ``b`` cards left can be drawn in ``2ab`` ordered ways, and in exactly
half of them A's card is the higher; whichever of the two wins, the same two
cards leave the deck.  So the chance that A wins the turn *and* one card of each
of those ranks leaves is ``ab / (m (m - 1))``, which depends on the counts
only, not on which rank holds which count: the state is the multiset of the
counts of the ranks still in the deck, written sorted (the seed's abstract
deck).  A turn A does not win (a tie in rank, or B's card higher) ends the sweep
(``lost``, payoff 0); an emptied deck is the sweep (``swept``, payoff 1).
"""

from __future__ import annotations

from fractions import Fraction
from math import comb

from .._strict import fail

PARAMS = ("ranks", "suits")
MAX_RANKS, MAX_SUITS, MAX_CARDS = 26, 8, 104  # the solver's limits, restated


def state_bound(params) -> int:
    """Sorted tuples of at most ``ranks`` counts in ``1..suits`` (multisets), and the two ends."""
    return comb(params["ranks"] + params["suits"], params["suits"]) + 2


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
        pairs = m * (m - 1)
        won, total = [], Fraction(0)
        for i in range(len(s)):
            for j in range(i + 1, len(s)):
                p = Fraction(s[i] * s[j], pairs)
                rest = list(s)
                rest[i] -= 1
                rest[j] -= 1
                rest = tuple(sorted(c for c in rest if c))
                won.append((p, rest if rest else "swept"))
                total += p
        lost = 1 - total
        return None, [(None, won + ([(lost, "lost")] if lost else []), None)]
