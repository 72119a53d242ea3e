"""Brute force: sweeps counted over the distinct arrangements of the deck, independently of the DP."""

from __future__ import annotations

import functools
import math
import statistics
from fractions import Fraction
from itertools import permutations
from typing import Iterator

from exactplay.games.war.deck import make_deck


def arrangements(counts: dict) -> Iterator[list]:
    """Every distinct ordering of the multiset ``{rank: count}``, each once."""
    total = sum(counts.values())
    word: list = [None] * total

    def extend(k: int):
        if k == total:
            yield word
            return
        for rank in counts:
            if counts[rank]:
                counts[rank] -= 1
                word[k] = rank
                yield from extend(k + 1)
                counts[rank] += 1

    yield from extend(0)


def sweep(deck) -> bool:
    """The seed's test: A (even positions) beats B (odd positions) on every turn."""
    return all(deck[i] > deck[i + 1] for i in range(0, len(deck), 2))


@functools.lru_cache(maxsize=64)
def brute_force(ranks: int, suits: int) -> Fraction:
    """The sweep probability of the ``ranks x suits`` deck by :func:`brute_force_counts`."""
    return brute_force_counts([suits] * ranks)


def brute_force_counts(counts) -> Fraction:
    """``#sweeping arrangements / #arrangements`` over the distinct arrangements of
    the deck with ``counts[r]`` cards of rank ``r + 1``.

    Every distinct arrangement stands for ``prod(c!)`` equally likely
    permutations of the cards, so the ratio is the sweep probability.
    """
    multiset = {r + 1: c for r, c in enumerate(counts) if c > 0}
    good = total = 0
    for word in arrangements(multiset):
        total += 1
        if sweep(word):
            good += 1
    expected_total = math.factorial(sum(counts))
    for c in counts:
        expected_total //= math.factorial(c)
    if total != expected_total:  # pragma: no cover - a bug in arrangements()
        raise AssertionError(f"{total} arrangements, expected {expected_total}")
    return Fraction(good, total)


def seed_p_sweeps(ranks: int, suits: int) -> float:
    """The seed's ``p_sweeps(permutations(make_deck(r, s)))``: a float mean of bools.

    ``statistics.mean`` sums exactly and rounds once, so this is the correctly
    rounded double of the exact probability (checked by the tests).
    """
    return statistics.mean(sweep(deck) for deck in permutations(make_deck(ranks, suits)))
