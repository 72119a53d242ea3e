"""A solved game as a Python user reads it: exact values, policy and margins keyed by the game's own states.

The numbers are the engine's (:class:`exactplay.engine.Solution`, kept as ``.engine``), read as
:class:`fractions.Fraction`.  ``value`` is the initial state's value in one payoff component: the
game's answer for a built-in game (the Race's ``G(N,N)``, Player 2's chance), else the first
component solved (the first player's, or the player of a one-player game); ``player=`` picks
another one solved.  A value of +infinity (an expected reward some strategy never collects,
``never_ending = "infinite"``) reads as ``math.inf``.

A margin is the exact gap, in the mover's own objective, between the best action's one-step value
``Q_a = r_a + sum_t p(t) V(t)`` and the runner-up's (0 on an exact tie); ``ties`` lists the states
where several actions are exactly best, ``policy`` the action taken (the earlier one on a tie).

>>> import exactplay as xp
>>> sol = xp.solve("race", target=2)
>>> sol.value, sol.decimal(8), sol.answer, sol.player
(Fraction(71, 135), '0.52592593', 'G(2,2)', 'Player 2')
>>> sol.initial, sol.policy[("P2", 2, 2)], sol.margin(("P2", 2, 2)), len(sol.policy)
(('P1', 2, 2), 1, Fraction(1, 135), 4)
"""

from __future__ import annotations

import math
from fractions import Fraction
from pathlib import Path
from typing import Any, Hashable

from .states import StateIndex, StateMap

__all__ = ["Solution"]


def _exact(x: Any) -> Fraction | float:
    """An engine number as a Fraction (None, +infinity: ``math.inf``)."""
    if x is None:
        return math.inf
    from ..numbers.backends import as_fraction

    return as_fraction(x)


class Solution:
    """The exact solution of one game (see the module's text); made by :func:`exactplay.solve`."""

    def __init__(self, source, engine, player: int | str | None = None):
        self.source = source
        self.engine = engine
        self.model = engine.model
        self._index = StateIndex(source.keys if source.keys is not None else self.model.states)
        self.component = self._component(source.component if player is None else player)

    def _component(self, player) -> int:
        from ..errors import UsageError

        comps, names = self.engine.components, self.model.player_names
        if player is None:
            return comps[0]
        if isinstance(player, str):
            if player not in names:
                raise UsageError(f"player {player!r}: the players are {', '.join(map(repr, names))}")
            player = names.index(player)
        if isinstance(player, bool) or not isinstance(player, int) or player not in comps:
            solved = ", ".join(f"{c} ({names[c]})" for c in comps)
            raise UsageError(f"player {player!r}: the values solved are those of {solved}")
        return player

    # ------------------------------------------------------------ what was solved

    @property
    def player(self) -> str:
        """The name of the player whose value ``value`` and ``values()`` are."""
        return self.model.player_names[self.component]

    @property
    def answer(self) -> str:
        """What ``value`` is: the game's name for it (``"G(2,2)"``), or ``value of S to P``."""
        named = self.engine.components[0] if self.source.component is None else self.source.component
        if self.source.answer is not None and self.component == named:
            return self.source.answer
        return f"value of {self.model.state_name(self.model.initial)} to {self.player}"

    @property
    def states(self) -> list:
        """Every state, as the game names it, in the model's order (the initial state first)."""
        return list(self._index.keys)

    @property
    def initial(self) -> Hashable:
        return self._index.keys[self.model.initial]

    @property
    def witness(self) -> str:
        """How the values are pinned down (:data:`exactplay.engine.solution.WITNESSES`)."""
        return self.engine.witness

    def __len__(self) -> int:
        return len(self.model)

    def key(self, number: int) -> Hashable:
        """The state the model numbers ``number``."""
        return self._index.keys[number]

    def number(self, state: Hashable) -> int:
        """The model's number of ``state`` (a :class:`KeyError` if it is none)."""
        return self._index.number(state)

    # ------------------------------------------------------------ exact numbers

    def _k(self, player) -> int:
        c = self.component if player is None else self._component(player)
        return self.engine.components.index(c)

    @property
    def value(self) -> Fraction | float:
        """The initial state's exact value (``math.inf``: +infinity)."""
        v = self.engine.values[self.model.initial]
        return _exact(None if v is None else v[self._k(None)])

    def value_of(self, state: Hashable, player: int | str | None = None) -> Fraction | float:
        v = self.engine.values[self.number(state)]
        return _exact(None if v is None else v[self._k(player)])

    def values(self, player: int | str | None = None) -> StateMap:
        """``state -> exact value`` (a Fraction; ``math.inf`` for +infinity) for every state."""
        k, vals = self._k(player), self.engine.values
        return StateMap(self._index, range(len(self.model)), lambda i: _exact(None if vals[i] is None else vals[i][k]))

    def decimal(self, digits: int = 8) -> str:
        """``value`` correctly rounded to ``digits`` decimals (``"inf"`` for +infinity)."""
        from ..numbers.decimals import decimal_digits

        if not isinstance(digits, int) or isinstance(digits, bool) or not 0 <= digits <= 10000:
            from ..errors import UsageError

            raise UsageError(f"digits must be an integer from 0 to 10000, not {digits!r}")
        v = self.value
        return "inf" if v == math.inf else decimal_digits(v, digits)

    @property
    def policy(self) -> StateMap:
        """``state -> action name`` at every state where a player moves."""
        m, pol = self.model, self.engine.policy
        movers = [s for s in range(len(m)) if m.terminal[s] is None and m.mover[s] is not None]
        return StateMap(self._index, movers, lambda s: m.action_name(s, pol[s]))

    @property
    def margins(self) -> StateMap:
        """``state -> margin`` (exact, best minus runner-up in the mover's objective; 0 on a tie)
        at every state with a choice."""
        mg = self.engine.margins
        return StateMap(self._index, sorted(mg), lambda s: _exact(mg[s]))

    def margin(self, state: Hashable) -> Fraction | None:
        """The exact margin at ``state`` (None where there is no choice)."""
        x = self.engine.margins.get(self.number(state))
        return None if x is None else _exact(x)

    @property
    def ties(self) -> StateMap:
        """``state -> the exactly best actions`` (two or more) at every state with an exact tie."""
        m, ties = self.model, self.engine.ties
        return StateMap(self._index, sorted(ties), lambda s: tuple(m.action_name(s, a) for a in ties[s]))

    @property
    def smallest_margin(self) -> tuple[Fraction, Hashable] | None:
        """``(margin, state)``: the smallest non-zero margin and the first state with it (None: none)."""
        found = self.engine.smallest_margin()
        return None if found is None else (_exact(found[0]), self.key(found[1]))

    # ------------------------------------------------------------ certificate

    def certificate(self, store: str = "auto", digits: int = 8) -> dict:
        """The certificate (version 2) of this solution, as the command line's ``certify`` writes it:
        a built-in game's checked on the checker's own rebuild of its rules, any other with its
        explicit model inside (a PRISM/JANI model's with its ``source``)."""
        from .certificates import certificate_of

        return certificate_of(self, store, digits)

    def certify(self, path: str | Path, store: str = "auto", digits: int = 8) -> Path:
        """Write :meth:`certificate` to ``path`` (JSON, the bytes ``exactplay certify`` writes;
        ``exactplay check PATH`` re-verifies it)."""
        from .certificates import write_certificate_of

        write_certificate_of(self, str(path), store, digits)
        return Path(path)

    # ------------------------------------------------------------ display

    def __repr__(self) -> str:
        from .display import solution_repr

        return solution_repr(self)

    def _repr_html_(self) -> str:
        from .display import solution_html

        return solution_html(self)
