"""Piglet, as a user writes it for exactplay: Pig with a fair coin instead of a die.

Two players race to ``goal`` points.  On your turn you flip a fair coin:
tails ends the turn and loses the turn total; heads adds 1 to it.  After a
flip you may hold, banking the turn total.  Reaching the goal (score + turn
total >= goal) wins at once.  State: (player to move, score of player 0,
score of player 1, turn total); player 0 wins with the payoff (1, 0), player 1
with (0, 1).  Every play ends with probability 1 (each hold banks at least 1
point), so the constant-sum payoffs make the game zero-sum.

    exactplay solve --game examples/piglet.py:make_game --param goal=10
"""

from fractions import Fraction

HALF = Fraction(1, 2)


class Piglet:
    num_players = 2
    player_names = ["first player", "second player"]

    def __init__(self, goal: int = 10):
        if goal < 1:
            raise ValueError("goal >= 1")
        self.goal = goal
        self.name = f"Piglet to {goal}"

    def initial_state(self):
        return (0, 0, 0, 0)

    def is_terminal(self, s):
        return s[0] == "won"

    def payoff(self, s):
        return (1, 0) if s[1] == 0 else (0, 1)

    def mover(self, s):
        return s[0]

    def actions(self, s):
        return ["flip", "hold"] if s[3] > 0 else ["flip"]

    def transitions(self, s, action):
        player, a, b, turn = s
        mine = a if player == 0 else b
        other = 1 - player
        if action == "hold":
            a2, b2 = (a + turn, b) if player == 0 else (a, b + turn)
            return [(1, (other, a2, b2, 0))]
        tails = (HALF, (other, a, b, 0))
        if mine + turn + 1 >= self.goal:
            return [tails, (HALF, ("won", player))]
        return [tails, (HALF, (player, a, b, turn + 1))]

    def state_label(self, s):
        if s[0] == "won":
            return f"player {s[1]} won"
        return f"(to move {s[0]}, scores {s[1]}-{s[2]}, turn {s[3]})"


def make_game(goal=10):
    return Piglet(int(goal))
