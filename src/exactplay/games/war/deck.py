"""Decks: the seed's concrete deck and the abstract deck (sorted counts per rank)."""

from __future__ import annotations

from exactplay.errors import UsageError

MAX_RANKS = 26
MAX_SUITS = 8
MAX_CARDS = 104

AbDeck = tuple


def make_deck(ranks: int = 13, suits: int = 4) -> list[int]:
    """The seed's concrete deck: rank ``r + 1`` repeated ``suits`` times."""
    return [r + 1 for r in range(ranks) for _ in range(suits)]


def make_abdeck(ranks: int = 13, suits: int = 4) -> AbDeck:
    """The abstract deck: ``(suits,) * ranks``."""
    return AbDeck([suits] * ranks)


def remove(deck: AbDeck, *indexes: int) -> AbDeck:
    """Remove one card at each of ``indexes``; drop empty ranks; sort the counts."""
    counts = [c - indexes.count(i) for i, c in enumerate(deck)]
    return AbDeck(sorted(c for c in counts if c > 0))


def validate_deck(ranks: int, suits: int) -> None:
    """Raise :class:`UsageError` unless the deck deals into two equal hands."""
    if (ranks * suits) % 2:
        raise UsageError(f"a deck of {ranks} ranks x {suits} suits has {ranks * suits} cards: "
                         "War needs an even number of cards")
    if ranks * suits > MAX_CARDS:
        raise UsageError(f"{ranks * suits} cards is beyond the supported limit {MAX_CARDS}")


def abstract_decks(cards: int, ranks: int = 13, suits: int = 4) -> list[AbDeck]:
    """All abstract decks of ``cards`` cards: partitions into at most ``ranks`` parts of size at most ``suits``."""
    out = []

    def parts(left: int, largest: int, acc: list):
        if left == 0:
            out.append(AbDeck(sorted(acc)))
            return
        if len(acc) == ranks:
            return
        for c in range(min(left, largest), 0, -1):
            parts(left - c, c, acc + [c])

    parts(cards, suits, [])
    return sorted(out)
