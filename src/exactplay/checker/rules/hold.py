"""Hold or Continue? (ICPC Latin America 2019, H), rebuilt from its rules for the checker.

Two players alternate turns with a fair die of faces ``1..F``; a turn starts
with a roll; a 1 ends the turn with nothing; a face ``d >= 2`` adds ``d`` to the
turn total, unless it would take the mover's score plus the total past the
target ``T`` (a bust: the turn ends with nothing).  After a roll that keeps the
turn the mover holds (banks the total; exactly ``T`` wins) or continues (rolls).
Zero-sum: the first player maximises its chance of winning, the second
minimises it; the answer ``V(0,0)`` is that chance from the start (component 0).

State: the mover, both scores and the turn total (0 before the turn's first
roll, where the only action is ``roll``); actions ``hold`` then ``continue``.
"""

from __future__ import annotations

from fractions import Fraction

from .._strict import fail

PARAMS = ("target", "faces")
MAX_TARGET, MAX_FACES = 150, 12  # the solver's limits, restated


def state_bound(params) -> int:
    return 2 * (params["target"] + 1) ** 3 + 2


def read_params(params) -> dict:
    for key, low, high in (("target", 2, MAX_TARGET), ("faces", 2, MAX_FACES)):
        if type(params[key]) is not int or not low <= params[key] <= high:
            fail(f"{key} must be an integer {low}..{high}", f"params.{key}")
    return dict(params)


class Rules:
    players = ("first player", "second player")
    objective = "zero-sum"
    answer_name, answer_component = "V(0,0)", 0

    def __init__(self, target: int, faces: int):
        self.target, self.faces = target, faces
        self.name = f"Hold or Continue? to {target} with a {faces}-sided die"
        self.face = Fraction(1, faces)
        self.lose = [Fraction(faces - keep, faces) for keep in range(faces)]  # the turn ends: keep faces do not

    def initial(self):
        return (0, 0, 0, 0)

    def label(self, s) -> str:
        if s[0] == "won":
            return f"player {s[1]} won"
        return f"(to move {s[0]}, scores {s[1]}-{s[2]}, turn total {s[3]})"

    def _with_score(self, s, score: int):
        """The turn passes: the mover's score becomes ``score``."""
        mover, first, second, _ = s
        return (1 - mover, score, second, 0) if mover == 0 else (1 - mover, first, score, 0)

    def step(self, s):
        if s[0] == "won":
            return "end", (1, 0) if s[1] == 0 else (0, 1)
        mover, total = s[0], s[3]
        score = s[1 + mover]
        # a roll: a 1, or a face d >= 2 past the target, passes the turn with nothing; d <= room adds d
        room = self.target - score - total
        keep = max(0, min(self.faces, room) - 1)  # the faces 2..min(F, room) keep the turn
        roll = [(self.lose[keep], self._with_score(s, score))]
        for d in range(2, keep + 2):
            roll.append((self.face, s[:3] + (total + d,)))
        if total == 0:
            return mover, [("roll", roll, None)]
        banked = score + total
        hold = [(1, ("won", mover) if banked == self.target else self._with_score(s, banked))]
        return mover, [("hold", hold, None), ("continue", roll, None)]
