"""The Race (Project Euler 232), written as a game model from the rules.

Rules (the seed article ``shared/seeds/race.md``, Problem Summary): Player 1 tosses a fair
coin once per turn, heads scores one point; Player 2 chooses ``T`` and tosses
``T`` times, scoring ``2**(T-1)`` points if all are heads.  Player 1 starts; the
first to reach the target wins.  Player 2 maximises its winning probability.

States are the points still needed, ``(a, b)``.  The rules allow every ``T >= 1``;
a finite model needs a bound: ``T = 1 .. t_max``, by default the published
programs' range ``t0(target) + 4`` (``t0(b)`` the smallest ``T`` that wins at once;
a larger ``T`` only succeeds less often), so the model's choices are exactly the
hand-written solver's candidates.

Two shapes, the same game:

* ``merged=True`` (default): a state is Player 2 about to choose at ``(a, b)``;
  Player 1's toss that follows Player 2's turn is folded into the transition.  A
  failed gamble followed by a tail returns to the same state: a self-loop,
  which the engine solves by its closed form.
* ``merged=False``: one chance state per Player 1 toss and one choice state per
  Player 2 turn, literally; the loop is then a 2-state cycle.

Optional bias: ``p`` is the probability that a coin lands heads (default 1/2), for Player 1's
coin, Player 2's or both (``coin``); with ``--param-symbol p`` it is a polynomial in ``p``
(:mod:`exactplay.parametric`).

Payoffs: ``(1, 0)`` when Player 1 wins, ``(0, 1)`` when Player 2 wins.  Player 2's
winning probability (the Project Euler answer ``G(N, N)``) is component 1 of the
initial state's value; at ``("P2", a, b)`` it is ``F(a, b)``.
"""

from __future__ import annotations

from fractions import Fraction

HALF = Fraction(1, 2)
P1_WON, P2_WON = ("P1 won",), ("P2 won",)


def t_zero(b: int) -> int:
    """Smallest ``T`` with ``2**(T-1) >= b``."""
    return (b - 1).bit_length() + 1


class Race:
    num_players = 2
    player_names = ["Player 1", "Player 2"]

    def __init__(self, target: int = 100, t_max: int | None = None, merged: bool = True,
                 p=HALF, coin: str = "both"):
        if target < 1:
            raise ValueError("target >= 1")
        if coin not in ("both", "1", "2"):
            raise ValueError("coin is 'both', '1' or '2' (whose coin lands heads with probability p)")
        self.target = target
        self.t_max = t_zero(target) + 4 if t_max is None else t_max
        if self.t_max < 1:
            raise ValueError("t_max >= 1")
        self.merged = merged
        self._actions = tuple(range(1, self.t_max + 1))  # T = 1 .. t_max at every choice (made once)
        self.name = f"The Race to {target}"
        # heads probability of each player's coin (p may be a polynomial: see exactplay.parametric)
        self.heads1 = p if coin in ("both", "1") else HALF
        heads2 = p if coin in ("both", "2") else HALF
        if p != HALF:
            self.name += f", coin{'s' if coin == 'both' else ' of Player ' + coin} heads with probability {p}"
        h1, t1 = self.heads1, 1 - self.heads1
        self.tails1 = t1  # made once: Player 1's toss is in every transition
        # per T: q_t, 1 - q_t, and both times Player 1's heads and tails (his toss folded in), made once
        self._p = {}
        for t in range(1, self.t_max + 1):
            q = heads2**t
            self._p[t] = (q, 1 - q, (q * h1, q * t1), ((1 - q) * h1, (1 - q) * t1), 2 ** (t - 1))
        # the same numbers flat, for the merged shape: T -> (gain, q heads, q tails, miss heads, miss tails, q)
        self._merged = {t: (g, qh, qt, mh, mt, q) for t, (q, _, (qh, qt), (mh, mt), g) in self._p.items()}

    # Player 1's toss at (a, b): heads -> (a-1, b), tails -> (a, b); P1 wins at a = 0
    def _p1_toss(self, a: int, b: int):
        heads = P1_WON if a == 1 else ("P2", a - 1, b)
        return [(self.heads1, heads), (self.tails1, ("P2", a, b))]

    def initial_state(self):
        return ("P1", self.target, self.target)

    def is_terminal(self, s):
        return len(s) == 1

    def payoff(self, s):
        return (1, 0) if s == P1_WON else (0, 1)

    def mover(self, s):
        return None if s[0] == "P1" else 1

    def actions(self, s):
        return self._actions

    def transitions(self, s, a):
        kind, need1, need2 = s
        if kind == "P1":
            return self._p1_toss(need1, need2)
        if not self.merged:
            q, miss, _, _, gain = self._p[a]  # gain = 2^(a-1)
            return [(q, P2_WON if gain >= need2 else ("P1", need1, need2 - gain)), (miss, ("P1", need1, need2))]
        # merged: Player 1's toss follows Player 2's turn (heads -> a - 1, P1 wins at 0; tails -> a)
        gain, q_heads, q_tails, miss_heads, miss_tails, q = self._merged[a]
        if gain >= need2:
            return [(q, P2_WON), (miss_heads, P1_WON if need1 == 1 else ("P2", need1 - 1, need2)), (miss_tails, s)]
        rest = need2 - gain
        if need1 == 1:
            return [(q_heads, P1_WON), (q_tails, ("P2", 1, rest)), (miss_heads, P1_WON), (miss_tails, s)]
        return [(q_heads, ("P2", need1 - 1, rest)), (q_tails, ("P2", need1, rest)),
                (miss_heads, ("P2", need1 - 1, need2)), (miss_tails, s)]

    def state_label(self, s):
        if len(s) == 1:
            return s[0]
        who = "Player 1 to toss" if s[0] == "P1" else "Player 2 to choose T"
        return f"{who}, needs {s[1]} / {s[2]}"


def make_game(target=100, t_max=None, merged=True, p=HALF, coin="both"):
    """``p``: the heads probability of the coin of Player 1, 2 or ``both`` (``coin``); default 1/2."""
    return Race(int(target), None if t_max is None else int(t_max), merged in (True, "1", "true", "True"),
                p, str(coin))


# ---------------------------------------------------------------- certificate

# the instances whose certificate is kept in proofs/<game>/ (tests/test_proofs_current.py)
PROOFS = tuple((f"race-{n}.json", {"target": n}) for n in (1, 2, 3, 4, 10, 100))  # 100: policy only


def certify(target: int = 100, progress=None, store="auto", backend="mpq", solver=None) -> dict:
    """The certificate (``exactplay certify race``): this model solved by the engine (or by ``solver``,
    e.g. its levels on Dask); the answer ``G(N,N)`` is Player 2's winning probability, component 1
    of the start's value.  ``--backend ball|auto``: the ball certificate instead."""
    from exactplay.errors import UsageError
    from exactplay.certify.game import game_certificate, refuse_if_too_large
    from exactplay.games.race.table import MAX_AUDIT_TARGET
    from exactplay.numbers.backends import get_backend

    target = int(target)
    B = get_backend(backend)
    if B.prec is not None:
        from exactplay.dyadic.certificate import refuse_unverified

        from .ball_certificate import certify_ball

        cert = certify_ball(target, B.prec, progress)
        refuse_unverified(cert, progress, "exactplay.games.race.ball_certificate")  # before it is written
        return cert
    if target > MAX_AUDIT_TARGET:  # the checker's limit (solve goes further, but writes no certificate)
        raise UsageError(f"certify race: target {target} is beyond the certificates' limit {MAX_AUDIT_TARGET}")
    refuse_if_too_large("race", {"target": target}, (target + 1) ** 2 + 3)
    return game_certificate("race", {"target": target}, {"target": target}, f"G({target},{target})", 1,
                            progress=progress, store=store, backend=B.name, solver=solver)
