"""War's hand-written recurrence (:func:`exactplay.games.war.distributions`) as the engine's Solution.

The recurrence runs forward: from a deck it gives the distribution of the
decks after each turn A wins, and the sweep probability is the mass left
after the last turn.  The value of each state of the model (a deck) is that
recurrence started from the deck (decks with the same counts share one run); the
model has no choices.  A run per deck: meant for the conformance suite's small decks.
"""

from __future__ import annotations

from exactplay.engine import Solution
from exactplay.engine.from_values import solution_from_values
from exactplay.model import build_model

from . import distributions
from .model import make_game


def fast_solution(ranks=13, suits=4, abstract=False, backend: str = "mpq") -> Solution:
    game = make_game(ranks, suits, abstract)
    model = build_model(game)
    values = {}
    memo: dict = {}
    for i, deck in enumerate(model.states):
        if model.terminal[i] is not None:
            continue
        counts = _deck(deck)
        key = tuple(sorted(c for c in counts if c))
        if key not in memo:
            memo[key] = sum(distributions(key, backend)[-1].values())
        values[i] = (memo[key],)
    return solution_from_values(model, values, backend)


def _deck(label: str) -> tuple[int, ...]:
    """The counts of a state label ``deck counts (2, 1, ...)``."""
    inner = label.removeprefix("deck counts (").removesuffix(")")
    return tuple(int(x) for x in inner.split(",") if x.strip())


def small_params(st):
    """Hypothesis strategy (``st`` is ``hypothesis.strategies``) of small instances."""
    return st.fixed_dictionaries({"ranks": st.integers(1, 4), "suits": st.integers(1, 4),
                                  "abstract": st.booleans()}).filter(lambda p: p["ranks"] * p["suits"] % 2 == 0)
