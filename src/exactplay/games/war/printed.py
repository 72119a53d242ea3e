"""The seed's printed figures and their comparison with the exact values."""

from __future__ import annotations

import math
from fractions import Fraction
from typing import Any

from exactplay.audit.judge import ulp_error
from exactplay.numbers.backends import as_fraction, format_pq
from exactplay.strict_json import INFINITE, NonFinite

SEED_P = 3.132436174322299e-09
SEED_GAMES = 159620171.70491105
SEED_RATIO = 1.0167508045532485
SEED_24_51 = 0.47058823529411703

SEED_TURNS = {
    1: {(3, 3, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4): 0.47058823529411703},
    2: {(2, 2, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4): 0.001728691476590634,
        (2, 3, 3, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4): 0.050708283313325254,
        (3, 3, 3, 3, 4, 4, 4, 4, 4, 4, 4, 4, 4): 0.16902761104441777},
    3: {(1, 1, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4): 3.065055809557862e-06,
        (1, 2, 3, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4): 0.00040458736686163773,
        (2, 2, 3, 3, 4, 4, 4, 4, 4, 4, 4, 4, 4): 0.010114684171540949,
        (1, 3, 3, 3, 4, 4, 4, 4, 4, 4, 4, 4, 4): 0.0017981660749406122,
        (2, 2, 2, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4): 0.00020229368343081884,
        (2, 3, 3, 3, 3, 4, 4, 4, 4, 4, 4, 4, 4): 0.04855048402339655,
        (3, 3, 3, 3, 3, 3, 4, 4, 4, 4, 4, 4, 4): 0.043155985798574735},
    4: {(4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4): 1.4807032896414793e-09,
        (1, 3, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4): 5.212075579538007e-07,
        (1, 1, 3, 3, 4, 4, 4, 4, 4, 4, 4, 4, 4): 3.648452905676605e-05,
        (2, 2, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4): 5.863585026980257e-07,
        (2, 3, 3, 4, 4, 4, 4, 4, 4, 4, 4, 4): 1.563622673861402e-05,
        (1, 1, 2, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4): 2.3454340107921024e-06,
        (1, 2, 2, 3, 4, 4, 4, 4, 4, 4, 4, 4, 4): 0.00018763472086336856,
        (1, 2, 3, 3, 3, 4, 4, 4, 4, 4, 4, 4, 4): 0.0016887124877703135,
        (2, 2, 2, 2, 4, 4, 4, 4, 4, 4, 4, 4, 4): 4.397688770235195e-05,
        (2, 2, 2, 3, 3, 4, 4, 4, 4, 4, 4, 4, 4): 0.0023923426910079496,
        (2, 2, 3, 3, 3, 3, 4, 4, 4, 4, 4, 4, 4): 0.014635508227342713,
        (3, 3, 3, 3, 4, 4, 4, 4, 4, 4, 4, 4): 3.127245347722804e-05,
        (1, 3, 3, 3, 3, 3, 4, 4, 4, 4, 4, 4, 4): 0.002001437022542595,
        (2, 3, 3, 3, 3, 3, 3, 4, 4, 4, 4, 4, 4): 0.02101508873669728,
        (3, 3, 3, 3, 3, 3, 3, 3, 4, 4, 4, 4, 4): 0.007005029578899085},
}

# The seed's brute-force table: (ranks, suits) -> p printed to 4 decimals, "Delta = 0.000000000".
SEED_SMALL_DECKS = {
    (2, 1): "0.5000", (4, 1): "0.2500", (2, 2): "0.1667", (6, 1): "0.1250", (3, 2): "0.0667",
    (2, 3): "0.0500", (8, 1): "0.0625", (4, 2): "0.0357", (2, 4): "0.0143", (5, 2): "0.0180",
    (2, 5): "0.0040",
}
SEED_EIGHT_CARD = {(8, 1): 0.0625, (4, 2): 0.03571428571428571}


def correct_digits(y: float, x: Any) -> float:
    """Correct significant decimal digits of ``y`` as an approximation of ``x``: ``-log10 |y - x| / |x|``.

    A :class:`~exactplay.strict_json.NonFinite` (infinitely many) when ``y`` is ``x`` exactly."""
    x = as_fraction(x)
    err = abs(Fraction(y) - x)
    if err == 0:
        return NonFinite(INFINITE, "the float equals the exact value")
    if x == 0:
        return 0.0
    return -math.log10(err / abs(x))


def compare_printed_turns(exact: list[dict], flt: list[dict]) -> list[dict]:
    """Every float the seed prints for turns 1..4 against the exact value and our float port."""
    rows = []
    for turn, printed in SEED_TURNS.items():
        for deck, y in printed.items():
            x = as_fraction(exact[turn][deck])
            ours = flt[turn].get(deck)
            rows.append({
                "turn": turn,
                "deck": list(deck),
                "printed": y,
                "exact": format_pq(x),
                "port_reproduces_printed": ours == y,
                "correctly_rounded": y == float(x),
                "ulps": ulp_error(y, x),
                "correct_digits": correct_digits(y, x),
            })
    return rows
