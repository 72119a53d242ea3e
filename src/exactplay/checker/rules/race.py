"""The Race (Project Euler 232), rebuilt from its rules for the checker.

Player 1 tosses a fair coin once per turn (heads: one point); Player 2 picks
``T >= 1`` and tosses ``T`` times, scoring ``2^(T-1)`` if all are heads; Player 1
starts; the first to reach the target ``N`` wins; Player 2 maximises its
chance.  ``T`` ranges over ``1 .. t0(N) + 4`` (``t0(b)``: the least ``T`` with
``2^(T-1) >= b``), the published programs' range.

States: Player 1 about to toss with ``(a, b)`` points still needed (only the
start is one: elsewhere Player 1's toss is folded into Player 2's turn), Player 2
about to pick ``T``, and the two ends.  Player 2's pick ``T`` at ``(a, b)``: with
``q = 2^-T`` all heads, and then if ``2^(T-1) >= b`` Player 2 has won; otherwise
Player 1 tosses at ``(a, b - 2^(T-1))``, each side with ``q/2``; with ``1 - q``
a miss, then Player 1 tosses at ``(a, b)``, each side ``(1-q)/2``.  Player 1's
toss at ``(a, b)``: heads (``1/2``) wins at ``a = 1``, else Player 2 picks at
``(a-1, b)``; tails (``1/2``) Player 2 picks at ``(a, b)``.  The answer
``G(N,N)`` is Player 2's chance of winning (component 1) from the start.
"""

from __future__ import annotations

from fractions import Fraction

from .._strict import fail

PARAMS = ("target",)
MAX_TARGET = 500  # certify's limit, restated (solve goes to 2000 but writes no certificate)


def state_bound(params) -> int:
    return (params["target"] + 1) ** 2 + 3


def read_params(params) -> dict:
    n = params["target"]
    if type(n) is not int or not 1 <= n <= MAX_TARGET:
        fail(f"target must be an integer 1..{MAX_TARGET}", "params.target")
    return {"target": n}


class Rules:
    players = ("Player 1", "Player 2")
    objective = "auto"

    def __init__(self, target: int):
        self.n = target
        self.name = f"The Race to {target}"
        self.answer_name, self.answer_component = f"G({target},{target})", 1
        least = 1
        while 2 ** (least - 1) < target:
            least += 1
        # per T: the points, all heads (2^-T), its half and half a miss
        self.picks = [(t, 2 ** (t - 1), Fraction(1, 2**t), Fraction(1, 2 ** (t + 1)), (1 - Fraction(1, 2**t)) / 2)
                      for t in range(1, least + 5)]

    def initial(self):
        return ("toss", self.n, self.n)

    def label(self, s) -> str:
        if s[0] == "end":
            return f"P{s[1]} won"
        who = "Player 1 to toss" if s[0] == "toss" else "Player 2 to choose T"
        return f"{who}, needs {s[1]} / {s[2]}"

    @staticmethod
    def _toss(a: int, b: int, p: Fraction):
        """Player 1's toss at (a, b), reached with probability 2p: (p, heads), (p, tails)."""
        return [(p, ("end", 1) if a == 1 else ("pick", a - 1, b)), (p, ("pick", a, b))]

    def step(self, s):
        if s[0] == "end":
            return "end", (1, 0) if s[1] == 1 else (0, 1)
        kind, a, b = s
        if kind == "toss":
            return None, [(None, self._toss(a, b, Fraction(1, 2)), None)]
        actions = []
        for t, points, q, half_q, half_miss in self.picks:
            hit = [(q, ("end", 2))] if points >= b else self._toss(a, b - points, half_q)
            actions.append((t, hit + self._toss(a, b, half_miss), None))
        return 1, actions
