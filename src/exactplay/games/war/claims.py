"""The seed's claims about War in a sweep (``war.md``), each with a check that can fail."""

from __future__ import annotations

import math
from fractions import Fraction

from exactplay.claims import Claim, verdict
from exactplay.numbers.backends import as_fraction
from exactplay.games.war.brute import brute_force, seed_p_sweeps
from exactplay.games.war.deck import abstract_decks
from exactplay.games.war.printed import (SEED_24_51, SEED_EIGHT_CARD, SEED_GAMES, SEED_P, SEED_RATIO,
                                         SEED_SMALL_DECKS, SEED_TURNS, compare_printed_turns, correct_digits)
from exactplay.games.war.recurrence import expected_games, sweep_probability, turn_distributions


def _exact_p():
    return as_fraction(sweep_probability(13, 4, "mpq"))


def _claim_p():
    p = _exact_p()
    pf = sweep_probability(13, 4, "float")
    return verdict(SEED_P == pf and correct_digits(SEED_P, p) > 14,
                   f"exact {float(p)!r}; the float program gives {pf!r}; seed prints {SEED_P!r} "
                   f"({correct_digits(SEED_P, p):.1f} correct digits)")


def _claim_games():
    g = expected_games(_exact_p())
    port = 1 / (2 * sweep_probability(13, 4, "float"))
    return verdict(port == SEED_GAMES and abs(Fraction(SEED_GAMES) - g) < 1e-6,
                   f"exact 1/(2p) = {float(g)!r}; seed {SEED_GAMES!r} (the float port gives {port!r}); "
                   f"abs error {float(abs(Fraction(SEED_GAMES) - g)):.3e}, "
                   f"{correct_digits(SEED_GAMES, g):.1f} correct digits")


def _claim_24_51():
    x = Fraction(24, 51)
    return verdict(SEED_24_51 == float(x),
                   f"correctly rounded 24/51 is {float(x)!r}; seed's float {SEED_24_51!r} is "
                   f"{float(abs(Fraction(SEED_24_51) - x) / Fraction(math.ulp(SEED_24_51))):.0f} ulps off "
                   "(78 rounded additions of 16/2652)")


def _claim_ratio():
    ratio = _exact_p() / Fraction(24, 51) ** 26
    port = sweep_probability(13, 4, "float") / ((24 / 51) ** 26)
    return verdict(port == SEED_RATIO and abs(Fraction(SEED_RATIO) - ratio) < Fraction(1, 10**12)
                   and 1 < ratio < Fraction(102, 100),
                   f"exact p/(24/51)^26 = {float(ratio)!r}; seed {SEED_RATIO!r} (float port {port!r}); "
                   f"{correct_digits(SEED_RATIO, ratio):.1f} correct digits")


def _claim_turns():
    exact = turn_distributions(13, 4, "mpq")[:5]
    flt = turn_distributions(13, 4, "float")[:5]
    rows = compare_printed_turns(exact, flt)
    worst = min(x["correct_digits"] for x in rows)
    same_decks = all(set(SEED_TURNS[t]) == set(exact[t]) for t in SEED_TURNS)
    return verdict(same_decks and all(x["port_reproduces_printed"] for x in rows) and worst > 14,
                   f"printed decks {'are' if same_decks else 'are NOT'} exactly the reachable ones; "
                   f"{len(rows)} printed floats, all reproduced by the float port; "
                   f"{sum(x['correctly_rounded'] for x in rows)} correctly rounded; "
                   f"worst {worst:.1f} correct digits")


def _claim_small_decks():
    bad = [rs for rs, text in SEED_SMALL_DECKS.items() if f"{float(brute_force(*rs)):.4f}" != text]
    return verdict(not bad, f"4-decimal p of all {len(SEED_SMALL_DECKS)} listed decks against the exact brute "
                            f"force: mismatches {bad}")


def _nonzero_delta(brute) -> list:
    """The listed decks where ``brute(ranks, suits)`` differs from the float DP, with ``|Delta|``."""
    pairs = [(rs, brute(*rs), sweep_probability(*rs, "float")) for rs in SEED_SMALL_DECKS]
    return [(rs, abs(p1 - p2)) for rs, p1, p2 in pairs if p1 != p2]


def _claim_delta_zero():
    # what statistics.mean returns: exact sum, one rounding
    nonzero = _nonzero_delta(lambda r, s: float(brute_force(r, s)))
    return verdict(not nonzero, "float DP == correctly rounded brute force in every listed deck" if not nonzero
                   else f"Delta prints 0.000000000 but is not 0 for {[(rs, f'{d:.1e}') for rs, d in nonzero]}")


def _claim_delta_zero_slow():
    nonzero = _nonzero_delta(seed_p_sweeps)
    return verdict(not nonzero, f"seed's own p_sweeps over all permutations vs float DP: nonzero Delta at {nonzero}")


def _claim_eight():
    got = {rs: float(brute_force(*rs)) for rs in SEED_EIGHT_CARD}
    return verdict(got == SEED_EIGHT_CARD,
                   f"exact {brute_force(8, 1)} and {brute_force(4, 2)}; printed {SEED_EIGHT_CARD}")


def _claim_abdecks():
    two, four = abstract_decks(2), abstract_decks(4)
    ok = two == [(1, 1), (2,)] and four == [(1, 1, 1, 1), (1, 1, 2), (1, 3), (2, 2), (4,)]
    return verdict(ok, f"2 cards: {two}; 4 cards: {four}")


def _claim_first_turn_odds():
    win = sum(as_fraction(x) for x in turn_distributions(13, 4, "fraction")[1].values())
    tie = Fraction(3, 51)
    return verdict(win == Fraction(24, 51) and win + win + tie == 1,
                   f"exact P(A wins turn 1) = {win}, P(tie) = {tie}, P(B wins) = {1 - win - tie}")


def _claim_sampling():
    p = _exact_p()
    N = 10_000
    lower = 1 - N * p  # Bernoulli: (1 - p)^N >= 1 - N p
    return verdict(lower > Fraction(99, 100),
                   f"P(no sweep in {N} samples) = (1-p)^{N} >= 1 - {N}p = {float(lower):.8f}: zero sweeps is expected; "
                   f"a relative standard error of 10% (1%) on p needs about 100/p = {float(100 / p):.1e} "
                   f"({float(10_000 / p):.1e}) samples")


def _claim_naive():
    q = Fraction(1, 2) ** 26
    r = Fraction(24, 51) ** 26
    return verdict(14e-9 < q < 16e-9 and 2.5e-9 < r < 3.5e-9,
                   f"(1/2)^26 = {float(q):.4g}, (24/51)^26 = {float(r):.4g}")


_SEED = "war.md"
CLAIMS = (
    Claim("war.p-sweep", "war", _SEED + ", p_sweep(deck)", "p_sweep(deck) = 3.132436174322299e-09",
          "exact abstract-deck DP over mpq vs the float port and the printed value", _claim_p),
    Claim("war.expected-games", "war", _SEED + ", 1 / (2 * p_sweep(deck))", "159620171.70491105 games",
          "exact 1/(2p)", _claim_games),
    Claim("war.first-turn", "war", _SEED + ", Turn 1", "24/51 = 0.47058823529411703",
          "is the printed float the correctly rounded double of 24/51?", _claim_24_51),
    Claim("war.ratio", "war", _SEED + ", gaining confidence", "p_sweep(deck) / (24/51)**26 = 1.0167508045532485, differing by less than 2%",
          "exact ratio", _claim_ratio),
    Claim("war.turns-1-4", "war", _SEED + ", play four turns", "the printed PDist of turns 1..4",
          "every printed float against the exact value and the float port", _claim_turns),
    Claim("war.small-decks", "war", _SEED + ", brute force table", "p to 4 decimals for decks of up to 10 cards",
          "exact brute force over the distinct arrangements of each deck",
          _claim_small_decks),
    Claim("war.delta-zero", "war", _SEED + ", brute force table", "Delta = |p_sweeps - p_sweep| = 0 for every small deck",
          "correctly rounded exact brute force (what statistics.mean returns) vs float DP", _claim_delta_zero),
    Claim("war.delta-zero-permutations", "war", _SEED + ", brute force table",
          "Delta = 0, with the seed's own p_sweeps over all permutations (10! for 10-card decks)",
          "run the seed's brute force literally", _claim_delta_zero_slow, slow=True),
    Claim("war.eight-card-decks", "war", _SEED + ", brute force", "p_sweeps: 0.0625 for (8,1), 0.03571428571428571 for (4,2)",
          "exact brute force", _claim_eight),
    Claim("war.abstract-decks", "war", _SEED + ", AbDeck", "2 cards: two abstract cases; 4 cards: 5 abstract decks",
          "enumerate partitions with parts <= suits, at most 13 parts", _claim_abdecks),
    Claim("war.first-turn-odds", "war", _SEED + ", approaches", "first turn: tie 3/51, A wins 24/51, B wins 24/51",
          "exact total of the turn-1 distribution", _claim_first_turn_odds),
    Claim("war.sampling", "war", _SEED + ", simulation",
          "10,000 sampled deals gave zero sweeps; trillions of deals would be needed",
          "exact lower bound on P(no sweep in 10,000 deals)", _claim_sampling),
    Claim("war.naive", "war", _SEED + ", approaches", "(1/2)^26 about 15 in a billion; (24/51)^26 about 3 in a billion",
          "exact powers", _claim_naive),
)
