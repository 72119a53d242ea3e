"""Pass forever: a two-player game whose plays need not end.

The player to move either *passes* (the turn goes to the other player) or
*gambles*: it wins with probability ``p`` (player 0) or ``q`` (player 1),
otherwise the other player wins.  If both players always pass, play never
ends, and a play that never ends is worth 0 to both players.

With ``zero_sum=True`` (the default) the game declares ``objective =
"zero-sum"``: player 1 minimises player 0's winning probability, so passing
forever is good for player 1 and player 0 must gamble: the value is ``p`` when
player 0 moves and ``min(p, 1 - q)`` when player 1 moves.  Without the
declaration each player maximises its own payoff; the payoffs (1, 0) and
(0, 1) are constant-sum but the never-ending play (0, 0) is not, so the game
is not zero-sum.

    exactplay solve --game examples/pass_forever.py:make_game --param p=1/3
"""

from fractions import Fraction


class PassForever:
    num_players = 2
    player_names = ["player 0", "player 1"]

    def __init__(self, p=Fraction(1, 3), q=None, zero_sum=True):
        self.p = Fraction(p)
        self.q = self.p if q is None else Fraction(q)
        for x in (self.p, self.q):
            if not 0 <= x <= 1:
                raise ValueError("p and q are probabilities")
        if zero_sum:
            self.objective = "zero-sum"
        self.name = f"pass forever (p={self.p}, q={self.q}{', zero-sum' if zero_sum else ''})"

    def initial_state(self):
        return 0

    def is_terminal(self, s):
        return isinstance(s, str)

    def payoff(self, s):
        return (1, 0) if s == "0 won" else (0, 1)

    def mover(self, s):
        return s

    def actions(self, s):
        return ["pass", "gamble"]

    def transitions(self, s, action):
        if action == "pass":
            return [(1, 1 - s)]
        win = self.p if s == 0 else self.q
        return [(win, f"{s} won"), (1 - win, f"{1 - s} won")]


def make_game(p=Fraction(1, 3), q=None, zero_sum=True):
    if isinstance(zero_sum, str):
        zero_sum = zero_sum.strip().lower() not in ("0", "false", "no")
    return PassForever(p, q, bool(zero_sum))
