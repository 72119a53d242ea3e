"""Hold or Continue? (ICPC Latin America 2019, problem H), written as a game model.

Rules (the seed article ``shared/seeds/hold-or-continue.md``, Problem Understanding):
two players alternate turns; a turn starts with a roll of a fair die with
faces ``1..F``; a 1 ends the turn scoring nothing; a face ``d >= 2`` adds ``d`` to
the turn total ``x``; a roll that would take ``score + x`` past the target ``T``
ends the turn scoring nothing (a bust).  After a roll that keeps the turn, the
mover holds (banks ``x``, the turn passes; banking exactly ``T`` wins) or
continues (rolls again).  Each player maximises its probability of winning.

State ``(p, s0, s1, x)``: player ``p`` to move, the scores, the turn total (0
before the turn's first roll, where the only action is ``roll``).  Actions
``hold``, ``continue`` in that order: exact ties hold, as in the hand-written
solver.  Payoffs ``(1, 0)`` / ``(0, 1)``.

Plays can go on forever (a score from which ``T`` is out of reach -- 74 of 75 --
or both players never holding): they are worth 0 to both.  The model declares
``objective = "zero-sum"``: player 1 minimises player 0's winning probability.
Where both players can still win this is player 1 maximising its own; where
player 0 can no longer win, every action of player 1 is worth 0 to player 0, so
the engine's ties there are not player 1's own preferences (see the tests).
"""

from __future__ import annotations

from fractions import Fraction

_ROLL, _HOLD_OR_CONTINUE = ("roll",), ("hold", "continue")  # the actions (made once)


class Hold:
    num_players = 2
    player_names = ["first player", "second player"]
    objective = "zero-sum"

    def __init__(self, target: int = 75, faces: int = 6):
        if target < 2 or faces < 2:
            raise ValueError("target >= 2 and faces >= 2")
        self.target, self.faces = target, faces
        self.face = Fraction(1, faces)  # the probability of each face
        self.ends = [Fraction(faces - k, faces) for k in range(faces)]  # the turn ends, k faces keep it
        self.name = f"Hold or Continue? to {target} with a {faces}-sided die"

    def initial_state(self):
        return (0, 0, 0, 0)

    def is_terminal(self, s):
        return s[0] == "won"

    def payoff(self, s):
        return (1, 0) if s[1] == 0 else (0, 1)

    def mover(self, s):
        return s[0]

    def actions(self, s):
        return _ROLL if s[3] == 0 else _HOLD_OR_CONTINUE

    def transitions(self, s, a):
        p, s0, s1, x = s
        score = s0 if p == 0 else s1
        if a == "hold":
            new = score + x
            if new == self.target:
                return [(1, ("won", p))]
            return [(1, (1, new, s1, 0) if p == 0 else (0, s0, new, 0))]
        # a roll, each face 1 / F: a 1 ends the turn, a face d <= room adds d, a larger one busts
        room = self.target - score - x
        last = self.faces if room > self.faces else room  # the largest face that keeps the turn
        if last < 2:  # no face keeps it: the turn ends surely
            return [(self.ends[0], (1 - p, s0, s1, 0))]
        # a 1 and the busts end the turn: one outcome (faces - keep) / faces, listed first (keep = last - 1)
        face = self.face
        out = [(self.ends[last - 1], (1 - p, s0, s1, 0))]
        for y in range(x + 2, x + last + 1):
            out.append((face, (p, s0, s1, y)))
        return out

    def state_label(self, s):
        if s[0] == "won":
            return f"player {s[1]} won"
        return f"(to move {s[0]}, scores {s[1]}-{s[2]}, turn total {s[3]})"


def make_game(target=75, faces=6):
    return Hold(int(target), int(faces))


# ---------------------------------------------------------------- certificate

# the instances whose certificate is kept in proofs/<game>/ (tests/test_proofs_current.py)
PROOFS = tuple((f"hold-{t}-{f}.json", {"target": t, "faces": f})
               for t, f in ((5, 3), (8, 2), (10, 6), (12, 4), (20, 6), (75, 6)))  # 75 / 6: policy only


def certify(target: int = 75, faces: int = 6, progress=None, store="auto", backend="mpq", solver=None) -> dict:
    """The certificate (``exactplay certify hold``): this model solved by the engine (or by ``solver``,
    e.g. its levels on Dask); the answer ``V(0,0)`` is the first player's winning probability
    (component 0).  ``--backend ball|auto``: the ball certificate instead."""
    from exactplay.certify.game import game_certificate, refuse_if_too_large
    from exactplay.numbers.backends import get_backend

    B = get_backend(backend)
    if B.prec is not None:
        from exactplay.dyadic.builtin import certify_hold_ball

        return certify_hold_ball(int(target), int(faces), B.prec, progress)
    params = {"target": int(target), "faces": int(faces)}
    refuse_if_too_large("hold", params, 2 * (params["target"] + 1) ** 3 + 2)
    return game_certificate("hold", params, params, "V(0,0)", 0, progress=progress,
                            store=store, backend=B.name, solver=solver)
