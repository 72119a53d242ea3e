"""Pig with a loaded die, as a user writes it for exactplay: the probability of a 1 is ``p``.

The rules are those of ``examples/pig.py``: two players race to ``goal`` points; on your turn
you roll; a 1 ends the turn and loses the turn total, any other face adds to it; after a roll
you may hold.  Here the die is loaded: a 1 comes up with probability ``p`` (default 1/6) and
each of the other ``faces - 1`` faces with probability ``(1 - p) / (faces - 1)``.

With ``--param-symbol p`` the factory receives a polynomial ``p`` and the same code builds
the parametric model: the value as a rational function of ``p`` and the exact ``p`` where
holding becomes better than rolling somewhere:

    exactplay solve --game examples/pig_loaded.py:make_game --param goal=4 --param-symbol p
"""

from fractions import Fraction


class LoadedPig:
    num_players = 2
    player_names = ["first player", "second player"]

    def __init__(self, goal: int = 20, faces: int = 6, p=Fraction(1, 6)):
        if goal < 1 or faces < 2:
            raise ValueError("goal >= 1 and faces >= 2")
        self.goal, self.faces = goal, faces
        self.one = p  # the probability of a 1: a Fraction, or a polynomial in p
        self.other = (1 - p) / (faces - 1)
        self.name = f"Pig to {goal}, a 1 with probability {p}"

    def initial_state(self):
        return (0, 0, 0, 0)

    def is_terminal(self, s):
        return s[0] == "won"

    def payoff(self, s):
        return (1, 0) if s[1] == 0 else (0, 1)

    def mover(self, s):
        return s[0]

    def actions(self, s):
        return ["roll", "hold"] if s[3] > 0 else ["roll"]

    def _view(self, s):
        player, a, b, turn = s
        return (player, a, b, turn) if player == 0 else (player, b, a, turn)

    def _state(self, player, mine, theirs, turn):
        return (player, mine, theirs, turn) if player == 0 else (player, theirs, mine, turn)

    def transitions(self, s, action):
        player, mine, theirs, turn = self._view(s)
        other = 1 - player
        if action == "hold":
            return [(1, self._state(other, theirs, mine + turn, 0))]
        out = [(self.one, self._state(other, theirs, mine, 0))]  # a 1: the turn total is lost
        for face in range(2, self.faces + 1):
            if mine + turn + face >= self.goal:
                out.append((self.other, ("won", player)))
            else:
                out.append((self.other, self._state(player, mine, theirs, turn + face)))
        return out

    def state_label(self, s):
        if s[0] == "won":
            return f"player {s[1]} won"
        return f"(to move {s[0]}, scores {s[1]}-{s[2]}, turn {s[3]})"


def make_game(goal=20, faces=6, p=Fraction(1, 6)):
    return LoadedPig(int(goal), int(faces), p)
