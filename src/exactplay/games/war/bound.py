"""A-priori bound on the float run: every term is positive, so the float value is
the exact one times at most ``(1+u)^L``, ``|(1+u)^L - 1| <= gamma_L = L u / (1 - L u)``."""

from __future__ import annotations

from itertools import combinations

from exactplay.games.war.deck import make_abdeck, remove
from exactplay.numbers.backends import UNIT_ROUNDOFF

ROUNDINGS_PER_TERM = 4  # P * d[i], / n, * d[j], / (n - 1)


def rounding_depths(ranks: int, suits: int) -> list[dict]:
    """Per turn and deck, ``L``: the float value is the exact one times at most ``(1+u)^L``.

    All terms are positive, so relative errors never grow by cancellation: a term
    adds 4 roundings to its source's ``L``, and an entry built from ``k`` terms
    adds ``k - 1`` additions (the first ``0 + x`` is exact).
    """
    deck = make_abdeck(ranks, suits)
    L = {deck: 0}
    out = [L]
    for _ in range(sum(deck) // 2):
        worst: dict = {}
        count: dict = {}
        for d in L:
            for i, j in combinations(range(len(d)), 2):
                key = remove(d, i, j)
                worst[key] = max(worst.get(key, 0), L[d] + ROUNDINGS_PER_TERM)
                count[key] = count.get(key, 0) + 1
        L = {key: worst[key] + count[key] - 1 for key in worst}
        out.append(L)
    return out


def gamma(L: int) -> float:
    """``gamma_L = L u / (1 - L u)`` bounds ``|(1+u)^L - 1|``, slightly inflated for its own rounding."""
    return L * UNIT_ROUNDOFF / (1 - L * UNIT_ROUNDOFF) * (1 + 2.0**-40)


def _sum_depth(last: dict) -> int:
    """``L`` of ``sum(P.values())`` over the final decks; 0 when no sweep is possible (p = 0)."""
    return max(last.values()) + len(last) - 1 if last else 0
