"""The compiled model: numbered states with exact transitions.

State ``0`` is the initial state (``initial_states`` lists every initial state, ``0`` first, when a
model has several: a DRN file may).  For every state ``s``:

* ``terminal[s]`` is its payoff vector (a tuple of :class:`Fraction`, one per
  player) or ``None`` if play goes on;
* ``mover[s]`` is the choosing player, or ``None`` at chance states;
* ``actions[s]`` are the action names (``[None]`` at chance states);
* ``trans[s][i]`` is the distribution of action ``i``: ``((t, p), ...)`` with
  distinct successors ``t`` and ``p > 0`` summing to exactly 1;
* ``rewards[s][i]`` is the reward vector of action ``i`` or ``None`` (zero).

Objectives.  ``keys[player] = (component, sign)``: at a state of ``player``
the chosen action maximises ``sign * V[component]``.  By default player ``i``
maximises its own payoff ``(i, +1)``; ``objective = "zero-sum"`` makes
player 1 minimise player 0's payoff ``(0, -1)``; ``"min"`` makes the single
player minimise its payoff.

A play that never ends is worth 0 (``never_ending = "zero"``, the default), or, with
``never_ending = "infinite"`` (one player), +infinity: a strategy that does not end play with
probability 1 is worth +infinity, the expected total reward until a terminal state of Storm's
``R[F "terminal"]`` (:mod:`exactplay.proper`).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction
from functools import partial
from itertools import chain, compress
from operator import is_, is_not
from typing import Any, Hashable

from ..graph import end_component_states, tarjan
from .collector import fewer_collections

__all__ = ["Model", "ModelError", "OBJECTIVES", "NEVER_ENDING", "MAX_STATES", "MAX_PLAYERS", "check_objective",
           "exact_vector"]

OBJECTIVES = ("auto", "max", "zero-sum", "min")
NEVER_ENDING = ("zero", "infinite")  # what a play that never ends is worth
MAX_STATES = 3_000_000  # default ceiling on reachable states (about 3-6 GB of exact values)
# Players of one game: each state's values are a vector of this many rationals, and a model file
# may declare the number alone ("players": 1000000000 took 3.9 GB before failing).  The checker's
# limit too (checker/explicit.py), so that every model solved can be certified.
MAX_PLAYERS = 1000


_is_none, _not_none = partial(is_, None), partial(is_not, None)


class ModelError(ValueError):
    """The model is not finite, not well formed, too large, or not solvable as stated."""


def check_objective(objective: str, num_players: int) -> None:
    """Refuse an objective that does not fit the number of players: ``zero-sum`` is two players
    (player 1 minimises player 0's payoff), ``min`` one player (who minimises its payoff); ``auto``
    and ``max`` fit any number (each mover maximises its own payoff).

    >>> check_objective("zero-sum", 1)
    Traceback (most recent call last):
    ...
    exactplay.model.compiled.ModelError: objective 'zero-sum' is for two players (player 1 minimises player 0's payoff); this game has 1
    """
    if objective == "zero-sum" and num_players != 2:
        raise ModelError(f"objective 'zero-sum' is for two players (player 1 minimises player 0's payoff); "
                         f"this game has {num_players}")
    if objective == "min" and num_players != 1:
        raise ModelError(f"objective 'min' is for one player (who minimises its payoff); this game has {num_players}")


def exact_vector(x: Any, n: int | None, what: str, where: str) -> tuple[Fraction, ...]:
    """A payoff or reward vector read exactly (a bare number for one player); ``n`` players, if known.

    >>> exact_vector(["1/2", 1], 2, "payoff", "state s")
    (Fraction(1, 2), Fraction(1, 1))
    """
    from .protocol import to_rational

    items = x if isinstance(x, (list, tuple)) else [x]
    try:
        vec = tuple(to_rational(v, what) for v in items)
    except (TypeError, ValueError) as exc:
        raise ModelError(f"{where}: {exc}") from None
    if n is not None and len(vec) != n:
        raise ModelError(f"{where}: {what} has {len(vec)} components, the game has {n} players")
    return vec


@dataclass
class Model:
    name: str
    num_players: int
    player_names: list[str]
    objective: str
    states: list[Hashable]  # the user's state values (or labels), for display
    terminal: list[tuple[Fraction, ...] | None]
    mover: list[int | None]
    actions: list[list[Any]]
    trans: list[list[tuple[tuple[int, Fraction], ...]]]
    rewards: list[list[tuple[Fraction, ...] | None]]
    labels: list[list[str]] = field(default_factory=list)  # per state: atomic propositions (DRN / PRISM)
    initial: int = 0
    never_ending: str = "zero"  # what a play that never ends is worth: "zero" or "infinite" (NEVER_ENDING)
    # every initial state, ``initial`` first (a DRN file may mark several; the engine solves every state
    # anyway, and the commands report each one's value); left empty it is ``[initial]``
    initial_states: list[int] = field(default_factory=list)

    def __post_init__(self) -> None:
        if not self.initial_states:
            self.initial_states = [self.initial]

    def __len__(self) -> int:
        return len(self.states)

    def __repr__(self) -> str:  # short whatever the size (the fields hold every state)
        return f"Model({self.name[:60]!r}, {len(self):,} states, {self.num_players} players, objective {self.objective})"

    def action_name(self, s: int, a: int) -> Any:
        """The name of action ``a`` of state ``s``."""
        return self.actions[s][a]

    def plain(self) -> "Model":
        """The model with its lists (itself; an :class:`~exactplay.model.sparse.ArrayModel` makes them)."""
        return self

    @property
    def has_rewards(self) -> bool:
        return any(r is not None for rs in self.rewards for r in rs)

    def keys(self) -> list[tuple[int, int]]:
        """``(component, sign)`` that each player's choice maximises."""
        obj = self.resolved_objective()
        if obj == "zero-sum":
            return [(0, 1), (0, -1)]
        if obj == "min":
            return [(0, -1)]
        return [(i, 1) for i in range(self.num_players)]

    def resolved_objective(self) -> str:
        """``auto`` becomes ``zero-sum`` for a two-player game whose payoffs sum to a constant, whose
        rewards sum to zero and where every play ends (a play that never ends is worth 0 to both, so
        the sum is not constant there: such a game must declare ``zero-sum``), else ``max``."""
        if self.objective != "auto":
            return self.objective
        cached = self.__dict__.get("_resolved_auto")  # the model is not changed once compiled
        if cached is None:
            zero_sum = self.num_players == 2 and self.is_constant_sum() and self.every_play_ends()
            cached = self.__dict__["_resolved_auto"] = "zero-sum" if zero_sum else "max"
        return cached

    def surely_ending(self, forever: set[int] | None = None) -> set[int]:
        """States from which every play ends with probability 1, whatever the players choose:
        those that cannot reach an end component (a set where some choice of actions keeps play
        forever).  Any state that can reach one can, under some strategies, stay there forever.

        ``forever``: the states of the end components, if the caller has them already.  Else the
        states that cannot reach the staying core of the whole model (what :meth:`has_end_component`
        leaves: it holds every end component and each of its states reaches one, so the same states
        reach it), walking back along the pass's own predecessor lists.

        >>> from fractions import Fraction as F
        >>> m = Model("m", 1, ["p"], "max", ["a", "b", "end"], [None, None, (F(1),)], [0, 0, None], [["go", "stay"], ["go"], []],
        ...           [[((1, F(1)),), ((0, F(1)),)], [((2, F(1)),)], []], [[None, None], [None], []])
        >>> sorted(m.surely_ending()), sorted(m.surely_ending({0}))
        ([1, 2], [1, 2])
        """
        cached = self.__dict__.get("_surely_ending")
        if cached is not None:
            return cached
        n = len(self.states)
        if forever is None:
            with fewer_collections():
                count, stays, preds, owner = self._staying_pass()
            sources = [s for s in range(n) if stays[s]]
        elif forever:
            sources, owner = list(forever), None
            preds = [[] for _ in range(n)]
            for s, acts in enumerate(self.trans):
                for d in acts:
                    for t, _ in d:
                        preds[t].append(s)
        if forever is not None and not forever or forever is None and not sources:
            out = set(range(n))  # no end component: every play ends (no walk)
        else:
            reached = bytearray(n)
            for s in sources:
                reached[s] = 1
            stack = sources
            while stack:
                for g in preds[stack.pop()] or ():
                    s = g if owner is None else owner[g]
                    if not reached[s]:
                        reached[s] = 1
                        stack.append(s)
            out = {s for s in range(n) if not reached[s]}
        self.__dict__["_surely_ending"] = out
        return out

    def end_component_states(self) -> set[int]:
        """The states of the maximal end components, refined one strongly connected component at a time."""
        n = len(self.states)
        adj = [[t for d in self.trans[s] for t, _ in d] for s in range(n)]
        out: set[int] = set()
        for comp in tarjan(adj):
            if len(comp) == 1:
                s = comp[0]
                if any(len(d) == 1 and d[0][0] == s for d in self.trans[s]):
                    out.add(s)
            else:
                out |= end_component_states(comp, lambda s: [{t for t, _ in d} for d in self.trans[s]])
        return out

    def every_play_ends(self) -> bool:
        """Whether every play ends with probability 1 whatever the players choose: exactly when the
        model has no end component (:meth:`has_end_component`, one linear pass); the states that
        surely end are then all of them, remembered for :meth:`surely_ending`."""
        cached = self.__dict__.get("_surely_ending")
        if cached is None and not self.has_end_component():
            cached = self.__dict__["_surely_ending"] = set(range(len(self.states)))
        return len(self.surely_ending() if cached is None else cached) == len(self.states)

    def has_end_component(self) -> bool:
        """Whether some way of choosing actions keeps play forever in some set of states.

        The attractor of leaving: drop every state none of whose actions keeps all its successors
        among the states not dropped (a terminal state is dropped from the start), until none
        drops.  What is left, if anything, is closed under some choice of actions, so it holds a
        bottom strongly connected component of that choice: an end component; and no state of an
        end component is ever dropped.  One pass over the transitions, with a count per state of
        its actions that may still stay.

        >>> from fractions import Fraction as F
        >>> half = F(1, 2)
        >>> loop = Model("m", 1, ["p"], "max", ["a", "end"], [None, (F(1),)], [0, None], [["stay", "go"], []],
        ...              [[((0, F(1)),), ((1, F(1)),)], []], [[None, None], []])
        >>> loop.has_end_component()
        True
        >>> loop.trans[0][0] = ((0, half), (1, half))  # staying now leaves with probability 1/2
        >>> loop.has_end_component()
        False
        """
        with fewer_collections():
            return self._has_end_component()

    def _has_end_component(self) -> bool:
        return self._staying_pass()[0] < len(self.states)

    def _staying_pass(self) -> tuple[int, bytearray, list, list[int]]:
        """:meth:`has_end_component`'s pass: the number of states dropped, ``stays[s]`` (not
        dropped), and per state the actions (numbered across the model) that can move into it,
        with ``owner[g]`` the state of action ``g``."""
        n = len(self.states)
        terminal, trans = self.terminal, self.trans
        staying = [0] * n  # per state: its actions all of whose successors are still in
        owner: list[int] = []  # per action (numbered across the model): its state
        left: list[bool] = []  # per action: some successor has been dropped
        preds: list[list[int] | None] = [None] * n  # per state: the actions that can move into it
        stays = bytearray(b"\x01") * n
        dropped = []
        for s in range(n):
            if terminal[s] is not None:
                dropped.append(s)
                continue
            for dist in trans[s]:
                g = len(owner)
                owner.append(s)
                left.append(False)
                staying[s] += 1
                for t, _ in dist:
                    into = preds[t]
                    if into is None:
                        preds[t] = [g]
                    else:
                        into.append(g)
            if not staying[s]:
                dropped.append(s)
        count = 0
        while dropped:
            t = dropped.pop()
            stays[t] = 0
            count += 1
            for g in preds[t] or ():
                if not left[g]:
                    left[g] = True
                    s = owner[g]
                    staying[s] -= 1
                    if not staying[s]:
                        dropped.append(s)
        return count, stays, preds, owner

    def is_constant_sum(self) -> bool:
        sums = {p[0] + p[1] for p in self.terminal if p is not None}
        rewards_ok = all(r is None or r[0] + r[1] == 0 for rs in self.rewards for r in rs)
        return len(sums) <= 1 and rewards_ok

    def state_name(self, s: int) -> str:
        x = self.states[s]
        return str(x)

    def choice_states(self) -> list[int]:
        return [s for s in range(len(self.states)) if self.mover[s] is not None and len(self.actions[s]) > 1]

    def successors(self, s: int) -> set[int]:
        return {t for dist in self.trans[s] for t, _ in dist}

    def _plainly_valid(self, n_keys: int, widths_read: bool = False) -> bool:
        """A sufficient condition, in a few passes over whole lists, for :meth:`validate` without
        ``distributions`` to pass: every payoff has ``num_players`` components; among the states
        that go on, every mover is ``None`` or ``0 .. n_keys - 1``, every state has an action, has a
        reward entry (``None`` or ``num_players`` components) per action.  ``widths_read``: the
        builder read every payoff and reward against ``num_players`` and gave every state that goes
        on its actions and a reward entry per action, so the movers alone are looked at (every
        mover ``None`` or ``0 .. n_keys - 1``).  ``False`` (something else, or an error) leaves the
        answer to the state by state checks and their messages.

        >>> from fractions import Fraction as F
        >>> m = Model("m", 1, ["p"], "max", ["a", "end"], [None, (F(1),)], [0, None], [["go"], []],
        ...           [[((1, F(1)),)], []], [[None], []])
        >>> m._plainly_valid(1), m._plainly_valid(0), m._plainly_valid(1, True), m._plainly_valid(0, True)
        (True, False, True, False)
        """
        try:
            players = {None, *range(n_keys)}
            if widths_read:
                return players.issuperset(self.mover)
            going = list(map(_is_none, self.terminal))  # per state: play goes on
            width = {self.num_players}
            if not width.issuperset(map(len, filter(_not_none, self.terminal))):
                return False
            if not players.issuperset(compress(self.mover, going)):
                return False
            trans, rewards = list(compress(self.trans, going)), list(compress(self.rewards, going))
            if not all(trans) or list(map(len, trans)) != list(map(len, rewards)):
                return False
            return width.issuperset(map(len, filter(_not_none, chain.from_iterable(rewards))))
        except Exception:  # something no builder makes: the checks below say what
            return False

    def validate(self, distributions: bool = True, widths_read: bool = False) -> None:
        """Structural checks.  ``distributions=False`` skips re-adding every action's probabilities
        (for the builders, which refuse a distribution that does not sum to exactly 1 as they read it);
        ``widths_read`` with it: the builder also read every payoff and reward against ``num_players``
        and gave each state that goes on its actions and rewards (:meth:`_plainly_valid`)."""
        n = len(self.states)
        check_objective(self.objective, self.num_players)
        if self.never_ending not in NEVER_ENDING:
            raise ModelError(f"never_ending {self.never_ending!r} is not one of {', '.join(NEVER_ENDING)}")
        if self.never_ending == "infinite" and (self.num_players != 1 or self.objective not in ("auto", "max", "min")):
            raise ModelError("never_ending 'infinite' (a strategy that does not end play with probability 1 is worth "
                             "+infinity) is for one player who maximises or minimises")
        starts = self.initial_states
        if (starts[0] != self.initial or len(set(starts)) != len(starts)
                or not all(isinstance(s, int) and 0 <= s < n for s in starts)):
            raise ModelError(f"initial states {starts[:5]}: distinct states of the model, the initial state "
                             f"{self.initial} first")
        # len(self.keys()) without resolving "auto" (which alone would cost the end-component search):
        # "auto" is "zero-sum" only for two players, where both give two keys
        n_keys = {"zero-sum": 2, "min": 1}.get(self.objective, self.num_players)
        if not distributions and self._plainly_valid(n_keys, widths_read):
            return
        for s in range(n):
            if self.terminal[s] is not None:
                if len(self.terminal[s]) != self.num_players:
                    raise ModelError(f"state {self.state_name(s)}: payoff has {len(self.terminal[s])} "
                                     f"components, the game has {self.num_players} players")
                continue
            m = self.mover[s]
            if m is not None and not 0 <= m < n_keys:
                raise ModelError(f"state {self.state_name(s)}: mover {m} is not a player of this game "
                                 f"(0..{n_keys - 1} for objective {self.resolved_objective()!r})")
            if not self.trans[s]:
                raise ModelError(f"state {self.state_name(s)}: not terminal and has no action")
            for i, dist in enumerate(self.trans[s]):
                if not distributions:
                    r = self.rewards[s][i]
                    if r is not None and len(r) != self.num_players:
                        raise ModelError(f"state {self.state_name(s)}: reward has {len(r)} components, "
                                         f"the game has {self.num_players} players")
                    continue
                total = sum(p for _, p in dist)
                if total != 1:
                    raise ModelError(f"state {self.state_name(s)}, action {self.actions[s][i]!r}: "
                                     f"probabilities sum to {total}, not exactly 1")
                for t, p in dist:
                    if p <= 0:
                        raise ModelError(f"state {self.state_name(s)}: probability {p} is not positive")
                    if not 0 <= t < n:
                        raise ModelError(f"state {self.state_name(s)}: unknown successor {t}")
                r = self.rewards[s][i]
                if r is not None and len(r) != self.num_players:
                    raise ModelError(f"state {self.state_name(s)}: reward has {len(r)} components, "
                                     f"the game has {self.num_players} players")
