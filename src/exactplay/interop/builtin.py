"""Built-in games written as game models (the protocol of :mod:`exactplay.model.protocol`), so that
they can be exported for PRISM and Storm and cross-checked against Storm's exact engine.

The games' own solvers (:mod:`exactplay.games`) use their own recurrences; these models follow the
rules and are solved by the generic engine, and the tests compare the three: the built-in solver,
the engine on this model, and Storm.

    exactplay crosscheck --game exactplay.interop.builtin:race --param target=10
"""

from __future__ import annotations

from fractions import Fraction

__all__ = ["race", "Race", "hold", "coins", "Coins", "war", "chefs", "Chefs"]


class Race:
    """The Race (Project Euler 232) as an MDP: Player 2 chooses ``t`` (toss ``t`` coins, all heads
    scores ``2**(t-1)``, probability ``2**-t``); Player 1 tosses one coin per turn (chance).  The
    payoff is 1 when Player 2 wins: the value at the start is ``G(N, N)`` of :mod:`exactplay.games.race`.
    ``t`` ranges over ``1 .. t0(N) + 4`` as in the built-in solver.
    """

    num_players = 1
    player_names = ["Player 2"]

    def __init__(self, target: int = 10):
        from ..games.race import t_limit

        if target < 1:
            raise ValueError("target >= 1")
        self.target = target
        self.t_max = t_limit(target)
        self.name = f"The Race to {target}"

    def initial_state(self):
        return ("p1", self.target, self.target)

    def is_terminal(self, s):
        return s[0] == "won"

    def payoff(self, s):
        return [1 if s[1] == 2 else 0]

    def mover(self, s):
        return None if s[0] == "p1" else 0

    def actions(self, s):
        return list(range(1, self.t_max + 1))

    def transitions(self, s, t):
        who, a, b = s
        if who == "p1":
            heads = ("won", 1, 0) if a == 1 else ("p2", a - 1, b)
            return [(Fraction(1, 2), heads), (Fraction(1, 2), ("p2", a, b))]
        q = Fraction(1, 2**t)
        gain = 2 ** (t - 1)
        win = ("won", 2, 0) if gain >= b else ("p1", a, b - gain)
        return [(q, win), (1 - q, ("p1", a, b))]

    def state_label(self, s):
        if s[0] == "won":
            return f"player {s[1]} won"
        return f"({s[0]} to move, needs {s[1]} and {s[2]})"


def race(target=10):
    return Race(int(target))


def hold(target=10, faces=6):
    """Hold or Continue? as a two-player zero-sum game: the rules' model in
    :mod:`exactplay.games.hold.model`."""
    from ..games.hold.model import make_game

    return make_game(target, faces)


class Coins:
    """The coin-row game: players alternately take the first or the last coin; each keeps what it
    takes.  Payoffs ``(first player's total, second player's total)`` (constant sum: zero-sum); the
    first player's value is ``V(0, n-1)`` of :func:`exactplay.games.coins.solve_row`.  Nothing is
    random: Storm checks it as an expected total reward with one player fixed at a time."""

    num_players = 2
    player_names = ["first player", "second player"]
    objective = "zero-sum"

    def __init__(self, row):
        self.row = [Fraction(x) for x in row]
        self.name = "coin row " + " ".join(str(x) for x in self.row)

    def initial_state(self):
        return (0, len(self.row) - 1, Fraction(0), Fraction(0))  # (i, j, first's total, second's total)

    def is_terminal(self, s):
        return s[0] > s[1]

    def payoff(self, s):
        return (s[2], s[3])

    def mover(self, s):
        return (len(self.row) - 1 - (s[1] - s[0])) % 2  # coins taken so far, by parity

    def actions(self, s):
        return ["left", "right"] if s[0] < s[1] else ["left"]

    def transitions(self, s, action):
        i, j, a, b = s
        coin = self.row[i] if action == "left" else self.row[j]
        i, j = (i + 1, j) if action == "left" else (i, j - 1)
        return [(1, (i, j, a + coin, b) if self.mover(s) == 0 else (i, j, a, b + coin))]


def coins(row="1 2 3 4"):
    return Coins(str(row).replace(",", " ").split())


def war(ranks=4, suits=2):
    """War in a sweep as a Markov chain (payoff 1 when A wins every turn): the rules' model in
    :mod:`exactplay.games.war.model`, with the deck's sorted rank counts as the state."""
    from ..games.war.model import make_game

    return make_game(ranks, suits, abstract=True)


class Chefs:
    """Chef Showdown (Project Euler 481) as an n-player game: chef ``k`` (to move) succeeds with
    probability ``S(k)`` and then eliminates the chef of its choice (each chef maximises its own
    winning probability; exact ties go to the smallest cyclic distance, the seed's rule, by the
    order of the actions), or fails and the next chef moves.  The last chef wins.  The winner
    vector from the start is ``W1`` of :func:`exactplay.games.chefs.solve_exact`."""

    def __init__(self, skills):
        self.skills = [Fraction(x) for x in skills]
        self.num_players = len(self.skills)
        self.player_names = [f"chef {k + 1}" for k in range(self.num_players)]
        self.name = f"Chef Showdown with {self.num_players} chefs"

    def initial_state(self):
        return (tuple(range(self.num_players)), 0, False)  # (alive chefs, mover, has succeeded)

    def is_terminal(self, s):
        return len(s[0]) == 1

    def payoff(self, s):
        return [1 if k == s[0][0] else 0 for k in range(self.num_players)]

    def mover(self, s):
        return s[1] if s[2] else None

    def _next(self, alive, k):
        i = alive.index(k)
        return alive[(i + 1) % len(alive)]

    def actions(self, s):
        alive, k, _ = s
        i = alive.index(k)
        return [alive[(i + d) % len(alive)] for d in range(1, len(alive))]  # nearest first

    def transitions(self, s, target):
        alive, k, succeeded = s
        if not succeeded:
            p = self.skills[k]
            return [(p, (alive, k, True)), (1 - p, (alive, self._next(alive, k), False))]
        rest = tuple(c for c in alive if c != target)
        return [(1, (rest, self._next(rest, k) if len(rest) > 1 else k, False))]

    def state_label(self, s):
        alive, k, succeeded = s
        chefs = "{" + ",".join(str(c + 1) for c in alive) + "}"
        return f"{chefs}, chef {k + 1} " + ("chooses" if succeeded else "to cook")


def chefs(n=4, skills=None):
    from ..games.chefs import fibonacci_skills

    values = str(skills).replace(",", " ").split() if skills else fibonacci_skills(int(n))
    return Chefs(values)
