"""Chef Showdown (Project Euler 481), written as a game model from the rules.

Rules (the seed article ``shared/seeds/chefs.md``): ``n`` chefs in cyclic order; chef ``k``
succeeds on any chosen target with probability ``p_k``; every turn produces
one dish; the current chef chooses a surviving opponent and tries to eliminate
it (on success it is removed); the turn passes to the next surviving chef
after the current one; the game ends when one chef remains.  Each chef
maximises its own probability of winning; ``E(n)`` is the expected number of
dishes from the full table with chef 1 to move.

Players: the ``n`` chefs (0-based) and one more component, ``dishes``, which
never moves: its payoff is 0 and every turn is a reward of one dish to it, so
its value is the expected number of remaining dishes ``D``; chef ``i``'s value is
its winning probability ``W(i)``.

Shape.  ``split=True`` (default): the turn of chef ``t`` at alive set ``M`` is a
chance state (the attempt: success with ``p_t``) followed, on success, by the
choice of the target (``("hit", M, t)``).  The failure branch is the same for
every target, so choosing before or after the attempt is the same game, and
the choice then lies outside the cycle of failed attempts.  ``split=False``
is the literal order (choose, then attempt): every choice state lies on that
cycle; see the tests for what the engine does with it.

Targets are listed by increasing cyclic distance from the mover, so the
engine's tie rule (the earlier action) is the seed's (the nearest).
"""

from __future__ import annotations

from exactplay.games.chefs.skills import fibonacci_skills
from exactplay.model.protocol import to_rational


class Chefs:
    def __init__(self, skills, split: bool = True):
        self.skills = tuple(s if _symbolic(s) else to_rational(s, "skill") for s in skills)
        n = len(self.skills)
        if n < 2 or not all(_symbolic(p) or 0 < p <= 1 for p in self.skills):
            raise ValueError("at least 2 chefs, skills in (0, 1]")
        self.n, self.split = n, split
        self.fail = tuple(1 - p for p in self.skills)  # each chef's probability of failing, made once
        self.dish = (0,) * n + (1,)  # one dish served: the reward of an attempt
        # per mover t: the others by increasing cyclic distance (the order of its targets)
        self._order = [[(t + d) % n for d in range(1, n)] for t in range(n)]
        self._alive: dict[int, str] = {}  # the label of each alive set
        self.num_players = n + 1
        self.player_names = [f"chef {k + 1}" for k in range(n)] + ["dishes"]
        self.name = f"Chef Showdown, {n} chefs"

    def _next(self, mask: int, t: int) -> int:
        """The first chef of ``mask`` after ``t`` in cyclic order (the lowest bit above ``t``, else the lowest)."""
        later = mask >> (t + 1)
        if later:
            return t + (later & -later).bit_length()
        if not mask:
            raise AssertionError("empty alive set")
        return (mask & -mask).bit_length() - 1

    def _after(self, mask: int, t: int, j: int):
        rest = mask & ~(1 << j)
        if rest & (rest - 1) == 0:
            return ("won", t)
        return ("turn", rest, self._next(rest, t))

    def initial_state(self):
        return ("turn", (1 << self.n) - 1, 0)

    def is_terminal(self, s):
        return s[0] == "won"

    def payoff(self, s):
        return tuple(int(i == s[1]) for i in range(self.n)) + (0,)

    def mover(self, s):
        if s[0] == "turn" and self.split:
            return None
        return s[2]

    def actions(self, s):
        _, mask, t = s
        return [u for u in self._order[t] if mask >> u & 1]

    def transitions(self, s, a):
        kind, mask, t = s
        if kind == "hit":  # self._after(mask, t, a), written out
            rest = mask & ~(1 << a)
            if rest & (rest - 1) == 0:
                return [(1, ("won", t))]
            later = rest >> (t + 1)
            return [(1, ("turn", rest, t + (later & -later).bit_length() if later else (rest & -rest).bit_length() - 1))]
        later = mask >> (t + 1)  # the next chef after a failure: self._next(mask, t), written out (mask has t)
        fail = ("turn", mask, t + (later & -later).bit_length() if later else (mask & -mask).bit_length() - 1)
        if self.split:
            return [(self.skills[t], ("hit", mask, t)), (self.fail[t], fail)]
        return [(self.skills[t], self._after(mask, t, a)), (self.fail[t], fail)]

    def reward(self, s, a):
        return self.dish if s[0] == "turn" else None

    def state_label(self, s):
        if s[0] == "won":
            return f"chef {s[1] + 1} won"
        alive = self._alive.get(s[1])
        if alive is None:
            alive = self._alive[s[1]] = ",".join(str(i + 1) for i in range(self.n) if s[1] >> i & 1)
        what = "to attempt" if s[0] == "turn" else "hit, to choose the target"
        return f"{{{alive}}}, chef {s[2] + 1} {what}"


def _symbolic(x) -> bool:
    """A skill that is a polynomial in a parameter (:mod:`exactplay.parametric`), checked there."""
    from exactplay.parametric.poly import Param

    return isinstance(x, Param)


def make_game(n=None, skills=None, split=True, p=None, chef=1):
    """``p`` (optional): the skill of chef number ``chef`` (1-based), replacing its default."""
    if skills is None:
        skills = fibonacci_skills(14 if n is None else int(n))
    elif isinstance(skills, str):
        skills = [x for x in skills.split(",") if x.strip()]
    skills = list(skills)
    if n is not None and int(n) != len(skills):
        raise ValueError(f"{len(skills)} skills but n = {n}")
    if p is not None:
        if not 1 <= int(chef) <= len(skills):
            raise ValueError(f"chef {chef}: choose 1..{len(skills)}")
        skills[int(chef) - 1] = p
    game = Chefs(skills, split)
    if p is not None:
        game.name += f", chef {int(chef)} with skill {p}"
    return game


# ---------------------------------------------------------------- certificate

# the instances whose certificate is kept in proofs/<game>/ (tests/test_proofs_current.py)
PROOFS = (
    ("chefs-s-1_4-1_2-1.json", {"skills": "1/4,1/2,1"}),
    ("chefs-fib-3.json", {"n": 3}),
    ("chefs-fib-4.json", {"n": 4}),
    ("chefs-fib-7.json", {"n": 7}),
    ("chefs-fib-10.json", {"n": 10}),  # from here on policy only (the values would be 21 MB)
    ("chefs-fib-12.json", {"n": 12}),
    ("chefs-fib-14.json", {"n": 14}),
)


def certify(n=None, skills=None, progress=None, store="auto", backend="mpq", solver=None) -> dict:
    """The certificate (``exactplay certify chefs``): this model solved by the engine (or by ``solver``,
    e.g. its levels on Dask); the answer ``E(n)`` is the expected number of dishes, component ``n``
    of the start's value."""
    from exactplay.errors import UsageError
    from exactplay.certify.game import game_certificate, refuse_if_too_large
    from exactplay.games.chefs.instance import MAX_CERTIFY_N, _params, instance
    from exactplay.numbers.backends import get_backend

    n, skills, fib = instance(n, skills)
    if n > MAX_CERTIFY_N:  # the checker's limit (solve goes further, but writes no certificate)
        raise UsageError(f"certify chefs: n {n} is beyond the certificates' limit {MAX_CERTIFY_N}")
    params = _params(n, skills, fib)
    refuse_if_too_large("chefs", params, 2 * n * 2**n + n)
    return game_certificate("chefs", params, {"skills": skills}, f"E({n})", n, progress=progress,
                            store=store, backend=get_backend(backend).name, solver=solver)
