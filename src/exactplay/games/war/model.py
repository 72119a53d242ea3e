"""War in a sweep (538 Riddler Classic, 28 August 2020), written as a game model.

Rules (the seed article ``shared/seeds/war.md``): a deck of ``ranks x suits`` cards is
shuffled and dealt into two hands; each turn both players flip their top card
and the higher rank wins the turn.  A *sweep* is player A winning every turn.
There is no choice: the model is chance only, one player (A) with payoff 1 for
a sweep, 0 otherwise.

Flipping the top cards of a random deal is drawing two cards at random from
the cards not yet flipped: A's card has rank ``r`` with probability
``c_r / n``, B's then rank ``s`` with probability ``(c_s - [s = r]) / (n - 1)``.
A state is the tuple of the counts of each rank still in the deck (rank order
kept, since it decides who wins); a turn A does not win ends the sweep.

``abstract=True`` stores the sorted counts instead (the seed's AbDeck: the sweep
probability does not depend on which rank has which count), far fewer states.
"""

from __future__ import annotations

from fractions import Fraction

SWEPT, LOST = ("swept",), ("lost",)


class War:
    num_players = 1
    player_names = ["A"]

    def __init__(self, ranks: int = 13, suits: int = 4, abstract: bool = False):
        if ranks < 1 or suits < 1 or (ranks * suits) % 2:
            raise ValueError("ranks, suits >= 1 and an even number of cards")
        self.ranks, self.suits, self.abstract = ranks, suits, abstract
        self.name = f"War sweep, {ranks} ranks x {suits} suits"

    def initial_state(self):
        return tuple([self.suits] * self.ranks)

    def is_terminal(self, s):
        return s in (SWEPT, LOST)

    def payoff(self, s):
        return (1,) if s == SWEPT else (0,)

    def mover(self, s):
        return None

    def transitions(self, s, a):
        n = sum(s)
        out, lost = [], Fraction(0)
        for r, cr in enumerate(s):
            if not cr:
                continue
            for t, ct in enumerate(s):
                k = ct - (t == r)
                if not k:
                    continue
                p = Fraction(cr, n) * Fraction(k, n - 1)
                if t < r:  # ranks in increasing order: A's card is higher
                    out.append((p, self._after(s, r, t)))
                else:
                    lost += p
        if lost:
            out.append((lost, LOST))
        return out

    def _after(self, s, r, t):
        d = list(s)
        d[r] -= 1
        d[t] -= 1
        if not any(d):
            return SWEPT
        if self.abstract:
            return tuple(sorted(c for c in d if c))
        return tuple(d)

    def state_label(self, s):
        return s[0] if len(s) == 1 and isinstance(s[0], str) else f"deck counts {s}"


def make_game(ranks=13, suits=4, abstract=False):
    return War(int(ranks), int(suits), abstract in (True, "1", "true", "True"))


# ---------------------------------------------------------------- certificate

# the instances whose certificate is kept in proofs/<game>/ (tests/test_proofs_current.py)
PROOFS = tuple((f"war-{r}x{s}.json", {"ranks": r, "suits": s}) for r, s in ((4, 2), (5, 2), (2, 5), (13, 4)))


def certify(ranks: int = 13, suits: int = 4, progress=None, store="auto", backend="mpq", solver=None) -> dict:
    """The certificate (``exactplay certify war``): the abstract model (sorted counts: 1,200 states
    for the full 13 x 4 deck, where the rank-ordered counts have 610,350,368) solved by the engine;
    the answer is the sweep's probability (component 0)."""
    from math import comb

    from exactplay.certify.game import game_certificate, refuse_if_too_large
    from exactplay.games.war.audit import places
    from exactplay.numbers.backends import get_backend

    params = {"ranks": int(ranks), "suits": int(suits)}
    refuse_if_too_large("war", params, comb(params["ranks"] + params["suits"], params["suits"]) + 2)
    return game_certificate("war", params, {**params, "abstract": True}, "P(A wins every turn)", 0,
                            digits=lambda p: places(p, 8),
                            progress=progress, store=store, backend=get_backend(backend).name, solver=solver)
