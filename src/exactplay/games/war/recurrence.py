"""The sweep recurrence over abstract decks, written once over a number backend.

A turn that A wins removes one card of two different ranks ``i < j``; with
``n = sum(deck)``::

    P_{t+1}(remove(d, i, j)) += P_t(d) * d[i] / n * d[j] / (n - 1)

over ``i < j``, from ``P_0 = {deck: 1}``; ``p = sum(P_{n/2})``.  In ``float`` it
*is* the published program (same insertion order, same evaluation order).
"""

from __future__ import annotations

from itertools import combinations
from typing import Any

from exactplay.numbers.backends import Backend, get_backend
from exactplay.progress import SILENT
from exactplay.games.war.deck import AbDeck, make_abdeck, remove


def play_turn(P: dict, B: Backend | None = None) -> dict:
    """One turn: ``P1[remove(d, i, j)] += P[d] * d[i] / n * d[j] / (n - 1)`` for ``i < j``.

    The seed's ``play_turn``; the same iteration and evaluation order, so in
    float it rounds exactly as the published program does.
    """
    P1: dict = {}
    for deck in P:
        n = sum(deck)
        for i, j in combinations(range(len(deck)), 2):
            key = remove(deck, i, j)
            P1[key] = P1.get(key, 0) + P[deck] * deck[i] / n * deck[j] / (n - 1)
    if B is not None and B.exact:
        for key, value in P1.items():
            B.check(value, key)
    return P1


def turn_distributions(ranks: int = 13, suits: int = 4, backend: Backend | str = "mpq",
                       progress=SILENT) -> list[dict]:
    """``[P_0, P_1, ..., P_T]``, ``T = ranks * suits // 2``: deck -> probability of
    reaching it with A having won every turn so far."""
    return distributions(make_abdeck(ranks, suits), backend, progress)


def distributions(deck: AbDeck, backend: Backend | str = "mpq", progress=SILENT) -> list[dict]:
    """``[P_0, ..., P_T]`` from any abstract deck (counts in any order, sorted here)."""
    B = get_backend(backend)
    deck = AbDeck(sorted(c for c in deck if c > 0))
    P = {deck: B.one}
    out = [P]
    turns = sum(deck) // 2
    progress.start(f"war {deck} ({B.name})", turns)
    for _ in range(turns):
        P = play_turn(P, B)
        out.append(P)
        progress.advance()
    return out


def sweep_probability(ranks: int = 13, suits: int = 4, backend: Backend | str = "mpq", progress=SILENT) -> Any:
    """``p = sum(P_T.values())`` (the seed's ``p_sweep``)."""
    return sum(turn_distributions(ranks, suits, backend, progress)[-1].values())


def expected_games(p: Any) -> Any:
    """Games until either player sweeps: ``1 / (2 p)`` (A and B sweep disjointly)."""
    return 1 / (2 * p)
