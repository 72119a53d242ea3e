"""War in a sweep (538 Riddler Classic, 28 August 2020).

Two players are dealt ``n / 2`` cards each from a deck of ``R`` ranks times
``S`` suits and flip one card each per turn; the higher rank wins the turn.
``p`` is the probability that player A wins every turn.

The abstract deck (the seed's ``AbDeck``) is the sorted tuple of the counts of
the ranks still in the deck.  A turn that A wins removes one card of two
*different* ranks ``i < j`` (index order); of the two ways to deal them exactly
one is a win for A, so, with ``n = sum(deck)``::

    P_{t+1}(remove(d, i, j)) += P_t(d) * d[i] / n * d[j] / (n - 1)

over ``i < j`` (the seed's ``combinations``), starting from ``P_0 = {deck: 1}``,
and ``p = sum(P_{n/2})``.  The sweep probability from a deck does not depend on
which rank has which count (the number of ways to split a multiset into
decreasing pairs is invariant under renaming the ranks), which is why the
sorted counts suffice.

:func:`turn_distributions` is that recurrence written once over a number
backend.  In ``float`` it *is* the published program (the same dictionary
insertion order, the same left-to-right ``P * d[i] / n * d[j] / (n - 1)``); in
``mpq`` or ``Fraction`` it is exact.  :func:`brute_force` counts sweeps over the
distinct arrangements of the deck, independently of the DP.
"""

from __future__ import annotations

import functools
import math
import statistics
from fractions import Fraction
from itertools import combinations, permutations
from typing import Any, Iterator

from exactplay.audit import audit_values, ratio, relative_error, rounding_report, ulp_error
from exactplay.certificate import build_certificate
from exactplay.claims import Claim, verdict
from exactplay.errors import UsageError
from exactplay.numbers import Backend, as_fraction, format_pq, get_backend
from exactplay.progress import SILENT
from exactplay.render import exact_number
from exactplay.strict_json import INFINITE, NonFinite
from exactplay.games import Game, Param, Report, heavy_note, positive_int

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


# ------------------------------------------------------------------ the recurrence


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


# ------------------------------------------------------------------ brute force


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


# ------------------------------------------------------------------ a-priori float bound

UNIT_ROUNDOFF = 2.0**-53
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


def answer_rounding_depth(ranks: int, suits: int) -> int:
    """``L`` of the final ``sum(P.values())`` (``M - 1`` more additions)."""
    return _sum_depth(rounding_depths(ranks, suits)[-1])


def _sum_depth(last: dict) -> int:
    """``L`` of ``sum(P.values())`` over the final decks; 0 when no sweep is possible (p = 0)."""
    return max(last.values()) + len(last) - 1 if last else 0


# ------------------------------------------------------------------ the seed's printed figures

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


# ------------------------------------------------------------------ audit


def run_audit(ranks: int, suits: int, backend: Backend | str = "mpq", progress=SILENT) -> dict:
    """Exact and float distributions, their errors, and the a-priori bound."""
    validate_deck(ranks, suits)
    exact = turn_distributions(ranks, suits, backend, progress)
    flt = turn_distributions(ranks, suits, "float")
    p = sum(exact[-1].values())
    pf = sum(flt[-1].values())
    depths = rounding_depths(ranks, suits)
    emap = {(t, d): v for t, P in enumerate(exact) for d, v in P.items()}
    fmap = {(t, d): v for t, P in enumerate(flt) for d, v in P.items()}
    if set(emap) != set(fmap):  # pragma: no cover - the same code builds both
        raise AssertionError("float and exact runs reached different decks")
    # per-entry bound gamma_L * value; the table-wide absolute bound is their maximum
    over = 0
    abs_bound = 0.0
    worst_bound_ratio = 0.0
    for key, x in emap.items():
        b = gamma(depths[key[0]][key[1]]) * float(x) * (1 + 2.0**-40)
        abs_bound = max(abs_bound, b)
        err = abs(float(Fraction(fmap[key]) - as_fraction(x)))
        if err > b:
            over += 1
        if b:
            worst_bound_ratio = max(worst_bound_ratio, err / b)
    L = _sum_depth(depths[-1])
    rel_bound = gamma(L)
    values = audit_values(emap, fmap, abs_bound,
                          "per entry gamma_L * P, L = 4 roundings per term along the chain + (k-1) additions")
    err = abs(Fraction(pf) - as_fraction(p))
    return {
        "exact": exact, "float": flt, "p": p, "p_float": pf,
        "p_abs_error": float(err), "p_rel_error": relative_error(pf, p), "p_ulps": ulp_error(pf, p),
        "p_rel_bound": rel_bound, "p_rounding_depth": L,
        "entries_over_bound": over, "worst_error_over_bound": worst_bound_ratio,
        "values": values, "states": len(emap),
    }


# ------------------------------------------------------------------ CLI


def _params(ranks: int, suits: int) -> dict:
    return {"ranks": ranks, "suits": suits}


def solve(ranks: int = 13, suits: int = 4, backend: Backend | str = "mpq", digits: int = 8, full: bool = False,
          progress=SILENT) -> Report:
    validate_deck(ranks, suits)
    dists = turn_distributions(ranks, suits, backend, progress)
    p = sum(dists[-1].values())
    games = expected_games(p) if p else None
    # decimals of tiny probabilities need more places: print significant digits
    pdata, plines = exact_number(p, _places(p, digits), full)
    data = {"game": "war", "params": _params(ranks, suits), "backend": get_backend(backend).name,
            "answer_name": "P(A wins every turn)", "answer": pdata,
            "abstract_states": sum(len(P) for P in dists),
            "expected_games_until_a_sweep": None}
    lines = [f"War, {ranks} ranks x {suits} suits ({ranks * suits} cards, {ranks * suits // 2} turns): "
             "probability that A wins every turn"] + plines
    if games is not None:
        gdata, glines = exact_number(games, digits, full)
        data["expected_games_until_a_sweep"] = gdata
        lines.append("expected games until A or B sweeps, 1/(2p):")
        lines += glines
    else:
        lines.append("a sweep is impossible with this deck (p = 0)")
    lines.append(f"abstract decks visited: {data['abstract_states']}")
    return Report(data, lines)


def _places(x: Any, digits: int) -> int:
    """Decimal places showing ``digits`` significant digits of ``0 < x < 1``."""
    f = as_fraction(x)
    if f <= 0 or f >= 1:
        return digits
    lead = 0
    while f * 10 ** (lead + 1) < 1:
        lead += 1
    return lead + digits


def audit(ranks: int = 13, suits: int = 4, backend: Backend | str = "mpq", digits: int = 8,
          progress=SILENT) -> Report:
    r = run_audit(ranks, suits, backend, progress)
    values = r["values"]
    p, pf = r["p"], r["p_float"]
    rr = rounding_report(p, _places(p, digits), pf, r["p_rel_bound"] * pf)
    data = {
        "game": "war", "params": _params(ranks, suits),
        "solver_under_audit": "seed's p_sweep/play_turn/remove in float: P[deck] * deck[i] / n * deck[j] / (n - 1)",
        "p_exact": format_pq(p), "p_float": pf, "p_float_correctly_rounded": pf == float(as_fraction(p)),
        "p_abs_error": r["p_abs_error"], "p_rel_error": r["p_rel_error"], "p_ulps": r["p_ulps"],
        "p_rel_bound": r["p_rel_bound"], "p_rounding_depth": r["p_rounding_depth"],
        "distribution_entries": r["states"], "entries_over_their_bound": r["entries_over_bound"],
        "worst_error_over_bound": r["worst_error_over_bound"],
        "values": values.to_dict(), "rounding": rr.to_dict(),
    }
    lines = [
        f"Audit of the seed's War program, {ranks} x {suits} ({r['states']} (turn, abstract deck) entries)",
        f"p exact       : {float(p)!r} = {format_pq(p) if len(format_pq(p)) < 80 else '(long fraction)'}",
        f"p float       : {pf!r}  ({'correctly rounded' if data['p_float_correctly_rounded'] else 'NOT the correctly rounded double'})",
        f"p error       : abs {r['p_abs_error']:.3e}, rel {r['p_rel_error']:.3e}, {r['p_ulps']:.1f} ulps",
        f"a-priori bound: rel {r['p_rel_bound']:.3e} (gamma_L, L = {r['p_rounding_depth']} roundings along the "
        f"longest chain: 4 per term + additions); bound/measured "
        + f"{ratio(r['p_rel_bound'], r['p_rel_error'], 'measured error 0: the float p is exact'):.1f}",
        f"per-turn tables: max abs {values.max_abs:.3e} at {values.max_abs_at}, max rel {values.max_rel:.3e} at "
        f"{values.max_rel_at}, max {values.max_ulps:.1f} ulps",
        f"entries beyond their own a-priori bound: {r['entries_over_bound']} "
        f"(worst error/bound {r['worst_error_over_bound']:.3f})",
    ]
    if (ranks, suits) == (13, 4):
        rows = compare_printed_turns(r["exact"], r["float"])
        data["seed_printed_turns"] = rows
        same = sum(x["port_reproduces_printed"] for x in rows)
        cr = sum(x["correctly_rounded"] for x in rows)
        lines.append(f"seed's turn 1..4 printout: {len(rows)} floats; our float port reproduces {same}; "
                     f"{cr} are the correctly rounded double of the exact value")
        for x in rows:
            lines.append(f"  turn {x['turn']} {tuple(x['deck'])}: printed {x['printed']!r}, "
                         f"{x['ulps']:.1f} ulps, {x['correct_digits']:.1f} correct digits")
        lines.append(f"seed's p {SEED_P!r}: {correct_digits(SEED_P, p):.1f} correct digits; "
                     f"1/(2p) {SEED_GAMES!r}: exact {float(expected_games(as_fraction(p)))!r}")
    return Report(data, lines)


def certify(ranks: int = 13, suits: int = 4, backend: Backend | str = "mpq", progress=SILENT) -> dict:
    r = run_audit(ranks, suits, backend, progress)
    rows = [[t, list(d), format_pq(v)] for t, P in enumerate(r["exact"]) for d, v in P.items()]
    p = r["p"]
    answer_data, _ = exact_number(p, _places(p, 8))
    extra = {"expected_games": None if not p else format_pq(expected_games(p))}
    return build_certificate(
        game="war",
        params=_params(ranks, suits),
        answer={"name": "P(A wins every turn)", **answer_data},
        columns=["turn", "deck", "P"],
        rows=rows,
        policy=None,
        smallest_gap=None,
        audit={"values": r["values"].to_dict(), "p_float": r["p_float"], "p_abs_error": r["p_abs_error"],
               "p_rel_bound": r["p_rel_bound"]},
        notes="Row (t, d, P): probability that after t turns, all won by A, the abstract deck "
              "(sorted counts per rank) is d. No choices: War has no strategy. "
              "expected_games = 1/(2p).",
        extra=extra,
    )


# ------------------------------------------------------------------ the seed's claims


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


def _claim_delta_zero():
    nonzero = []
    for rs in SEED_SMALL_DECKS:
        p1 = float(brute_force(*rs))  # what statistics.mean returns: exact sum, one rounding
        p2 = sweep_probability(*rs, "float")
        if p1 != p2:
            nonzero.append((rs, abs(p1 - p2)))
    return verdict(not nonzero, "float DP == correctly rounded brute force in every listed deck" if not nonzero
                   else f"Delta prints 0.000000000 but is not 0 for {[(rs, f'{d:.1e}') for rs, d in nonzero]}")


def _claim_delta_zero_slow():
    nonzero = []
    for rs in SEED_SMALL_DECKS:
        p1 = seed_p_sweeps(*rs)
        p2 = sweep_probability(*rs, "float")
        if p1 != p2:
            nonzero.append((rs, abs(p1 - p2)))
    return verdict(not nonzero, f"seed's own p_sweeps over all permutations vs float DP: nonzero Delta at {nonzero}")


def _claim_eight():
    got = {rs: float(brute_force(*rs)) for rs in SEED_EIGHT_CARD}
    return verdict(got == SEED_EIGHT_CARD,
                   f"exact {brute_force(8, 1)} and {brute_force(4, 2)}; printed {SEED_EIGHT_CARD}")


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


# Measured CPU seconds and peak MB of audit on the 2-core test machine at the largest decks
# (104 cards): 13 ranks x 8 suits 51.5 s and 131 MB, 26 x 4 33 s and 42 MB (13 x 4: 0.65 s);
# the cost grows steeply with the number of cards, faster with more suits.
HEAVY_AT_104 = {"many suits": (51.5, 131), "few suits": (33.0, 42)}


def heavy(command: str, params: dict) -> str | None:
    """A note for the CLI when ``command`` on this deck takes about a minute or more."""
    ranks, suits = params.get("ranks") or 13, params.get("suits") or 4
    seconds, mb = HEAVY_AT_104["many suits" if suits >= 6 else "few suits"]
    return heavy_note(f"{command} war with {ranks} ranks x {suits} suits", seconds * (ranks * suits / 104) ** 6, mb)


GAME = Game(
    name="war",
    title="War: probability that player A wins every turn (a sweep)",
    params=(
        Param("ranks", positive_int(MAX_RANKS, "ranks"), 13, f"number of ranks, 1..{MAX_RANKS}"),
        Param("suits", positive_int(MAX_SUITS, "suits"), 4, f"cards per rank, 1..{MAX_SUITS}"),
    ),
    solve=solve,
    audit=audit,
    certify=certify,
    description="Each player flips the top card of a half-deck per turn; the higher rank wins the turn.",
    proofs=tuple((f"war-{r}x{s}.json", {"ranks": r, "suits": s}) for r, s in ((4, 2), (5, 2), (2, 5), (13, 4))),
    heavy=heavy,
)
