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

The modules: :mod:`.deck`, :mod:`.recurrence`, :mod:`.brute` (brute force),
:mod:`.bound` (the a-priori float bound), :mod:`.printed` (the seed's printed
figures), :mod:`.audit`, :mod:`.claims`; this module holds the command-line
entry points and ``GAME``.
"""

from __future__ import annotations

from exactplay.numbers.backends import Backend, get_backend
from exactplay.progress import SILENT
from exactplay.present.render.solve import solve_report
from exactplay.solve_result import ExactQuantity, Fact, SolveResult
from exactplay.games import Game, Param, Report, heavy_note, positive_int
# the submodules (the names other code and tests use are re-exported from here)
from exactplay.games.war import model
from exactplay.games.war.audit import audit_result, places, run_audit
from exactplay.games.war.bound import UNIT_ROUNDOFF, _sum_depth, gamma, rounding_depths
from exactplay.games.war.brute import arrangements, brute_force, brute_force_counts, seed_p_sweeps, sweep
from exactplay.games.war.claims import CLAIMS
from exactplay.games.war.deck import (MAX_CARDS, MAX_RANKS, MAX_SUITS, AbDeck, abstract_decks, make_abdeck, make_deck,
                                      remove, validate_deck)
from exactplay.games.war.printed import (SEED_24_51, SEED_EIGHT_CARD, SEED_GAMES, SEED_P, SEED_RATIO,
                                         SEED_SMALL_DECKS, SEED_TURNS, compare_printed_turns, correct_digits)
from exactplay.games.war.recurrence import (distributions, expected_games, play_turn, sweep_probability,
                                            turn_distributions)


# ------------------------------------------------------------------ CLI


def solve(ranks: int = 13, suits: int = 4, backend: Backend | str = "mpq", digits: int = 8, full: bool = False,
          progress=SILENT) -> Report:
    validate_deck(ranks, suits)
    dists = turn_distributions(ranks, suits, backend, progress)
    return solve_report(solve_result(ranks, suits, dists, get_backend(backend).name, digits, full))


def solve_result(ranks: int, suits: int, dists: list, backend: str, digits: int = 8, full: bool = False) -> SolveResult:
    """The solve of War from the distributions of abstract decks after each turn (``dists``)."""
    p = sum(dists[-1].values())
    # decimals of tiny probabilities need more places: print significant digits
    return SolveResult(
        "war", {"ranks": ranks, "suits": suits}, backend,
        f"War, {ranks} ranks x {suits} suits ({ranks * suits} cards, {ranks * suits // 2} turns): "
        "probability that A wins every turn", "P(A wins every turn)", p, digits, full, places=_places(p, digits),
        quantities=[ExactQuantity("expected_games_until_a_sweep", "expected games until A or B sweeps, 1/(2p):",
                                  expected_games(p) if p else None, missing="a sweep is impossible with this deck (p = 0)")],
        facts=[Fact("abstract_states", "abstract decks visited", sum(len(P) for P in dists))])


_places = places  # the name other modules used


def audit(ranks: int = 13, suits: int = 4, backend: Backend | str = "mpq", digits: int = 8, progress=SILENT):
    """The audit of the seed's float program (an :class:`~exactplay.audit.result.AuditResult`)."""
    return audit_result(run_audit(ranks, suits, backend, progress), ranks, suits, digits)


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
    certify=model.certify,
    description="Each player flips the top card of a half-deck per turn; the higher rank wins the turn.",
    proofs=model.PROOFS,
    heavy=heavy,
)
