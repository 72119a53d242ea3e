"""Pig, as a user writes it for exactplay.

Two players race to ``goal`` points.  On your turn you roll a die: a 1 ends
the turn and loses the turn total; 2-6 adds to it.  After a roll you may hold,
banking the turn total.  Reaching the goal (score + turn total >= goal) wins
at once.  State: (player to move, score of player 0, score of player 1, turn
total).  Player 0 wins with the payoff (1, 0), player 1 with (0, 1).

    exactplay solve --game examples/pig.py:make_game --param goal=20
"""

from fractions import Fraction


class Pig:
    num_players = 2
    player_names = ["first player", "second player"]

    def __init__(self, goal: int = 100, faces: int = 6):
        if goal < 1 or faces < 2:
            raise ValueError("goal >= 1 and faces >= 2")
        self.goal = goal
        self.faces = faces
        self.face = Fraction(1, faces)  # the probability of each face
        self.name = f"Pig to {goal}" + ("" if faces == 6 else f" with a {faces}-sided die")

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

    def transitions(self, s, action):
        player, a, b, turn = s
        other = 1 - player
        if action == "hold":  # bank the turn total
            return [(1, (other, a + turn, b, 0) if player == 0 else (other, a, b + turn, 0))]
        p = self.face  # each face: 1 / faces
        mine = a if player == 0 else b
        out = [(p, (other, a, b, 0))]  # a 1: the turn total is lost
        for face in range(2, self.faces + 1):
            if mine + turn + face >= self.goal:
                out.append((p, ("won", player)))
            else:
                out.append((p, (player, a, b, turn + face)))
        return out

    def state_label(self, s):
        if s[0] == "won":
            return f"player {s[1]} won"
        return f"(to move {s[0]}, scores {s[1]}-{s[2]}, turn {s[3]})"


def make_game(goal=100, faces=6):
    return Pig(int(goal), int(faces))
