"""Chef Showdown (Project Euler 481), rebuilt from its rules for the checker.

``n`` chefs sit in a cycle; chef ``k`` succeeds with probability ``p_k``; each
turn is one dish: the chef to move attempts, and on success eliminates a
surviving opponent of its choice; the turn then passes to the next surviving
chef after it; the last chef left wins.  Each chef maximises its own chance of
winning; the answer ``E(n)`` is the expected number of dishes from the full
table, chef 1 first (component ``n``, the dishes, which never move).

States: an attempt (chance: success ``p_t``, then the choice; failure ``1 - p_t``,
then the next chef attempts; a reward of one dish), a choice after a success
(targets in increasing cyclic distance from the chooser, so the earliest of
tied actions is the nearest), and the wins.  Skills: ``"fibonacci"``
(``p_k = F_k / F_(n+1)``) or ``"p/q"`` values in (0, 1], one per chef.
"""

from __future__ import annotations

from fractions import Fraction

from .._strict import fail, rational

PARAMS = ("n", "skills")
MIN_N, MAX_N = 2, 15  # certify's limits, restated (solve goes to 16 but writes no certificate)


def state_bound(params) -> int:
    n = params["n"]
    return 2 * n * 2**n + n


def read_params(params) -> dict:
    n, skills = params["n"], params["skills"]
    if type(n) is not int or not MIN_N <= n <= MAX_N:
        fail(f"n must be an integer {MIN_N}..{MAX_N}", "params.n")
    if skills == "fibonacci":
        fib = [0, 1]
        while len(fib) < n + 2:
            fib.append(fib[-1] + fib[-2])
        values = [Fraction(fib[k], fib[n + 1]) for k in range(1, n + 1)]
    else:
        if not isinstance(skills, str) or len(skills) > 100_000:
            fail("skills are 'fibonacci' or 'p/q' values separated by commas", "params.skills")
        values = [rational(x, "params.skills") for x in skills.split(",")]
        if len(values) != n or not all(0 < p <= 1 for p in values):
            fail(f"skills: {n} values in (0, 1] expected", "params.skills")
    return {"n": n, "skills": values}


class Rules:
    objective = "auto"

    def __init__(self, n: int, skills):
        self.n, self.skills = n, skills
        self.players = tuple(f"chef {k}" for k in range(1, n + 1)) + ("dishes",)
        self.name = f"Chef Showdown, {n} chefs"
        self.answer_name, self.answer_component = f"E({n})", n
        self.dish = (0,) * n + (1,)
        self.miss = [1 - p for p in skills]  # made once: the same number objects in every state
        self.around = [self._around(chef) for chef in range(n)]
        self.wins = [tuple(int(i == chef) for i in range(n)) + (0,) for chef in range(n)]

    def initial(self):
        return ("attempt", frozenset(range(self.n)), 0)

    def label(self, s) -> str:
        if s[0] == "won":
            return f"chef {s[1] + 1} won"
        alive = ",".join(str(i + 1) for i in sorted(s[1]))
        return f"{{{alive}}}, chef {s[2] + 1} " + ("to attempt" if s[0] == "attempt" else "hit, to choose the target")

    def _around(self, chef: int):
        """The other seats in cyclic order after ``chef``, then ``chef`` itself."""
        return [(chef + d) % self.n for d in range(1, self.n + 1)]

    def step(self, s):
        if s[0] == "won":
            return "end", self.wins[s[1]]
        kind, alive, chef = s
        around = self.around[chef]
        if kind == "attempt":
            following = next(c for c in around if c in alive)
            outcomes = [(self.skills[chef], ("choose", alive, chef)), (self.miss[chef], ("attempt", alive, following))]
            return None, [(None, outcomes, self.dish)]
        actions = []
        for target in around[:-1]:
            if target not in alive:
                continue
            left = alive - {target}
            if len(left) == 1:
                after = ("won", chef)
            else:
                after = ("attempt", left, next(c for c in around if c in left))
            actions.append((target, [(1, after)], None))
        return chef, actions
