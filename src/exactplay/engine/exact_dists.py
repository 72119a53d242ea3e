"""The engine's exact distributions, converted from the model's on first read.

``ExactDistributions(trans, num)[s]`` is state ``s``'s list of actions, each a tuple of
``(successor, probability)`` pairs, the model's ``trans[s]`` with every probability made a number of the
engine's backend by ``num``.  A state is converted when it is first read (a ``dict`` whose
``__missing__`` converts: a later read is one look-up), so a state the engine solves without reading
all of its actions -- a self-loop state whose float bounds rule most actions out (:mod:`.selfloop`) --
pays only for the actions it reads (:meth:`ExactDistributions.action`).

The model's probabilities are mostly a few shared objects: each object is converted once, by its
``id`` (the model keeps them alive while the engine runs, so the ids are stable).

>>> from fractions import Fraction
>>> half = Fraction(1, 2)
>>> d = ExactDistributions([[((0, half), (1, half)), ((1, Fraction(1)),)]], lambda p: ("num", p))
>>> d.action(0, 1), 0 in d
(((1, ('num', Fraction(1, 1))),), False)
>>> d[0][0]
((0, ('num', Fraction(1, 2))), (1, ('num', Fraction(1, 2))))
>>> d[0][0][0][1] is d[0][0][1][1]  # one conversion per probability object
True
"""

from __future__ import annotations

from typing import Any, Callable

__all__ = ["ExactDistributions"]


class ExactDistributions(dict):
    """State -> its actions' exact distributions, converted on first read (the module's docstring)."""

    def __init__(self, trans: list, num: Callable[[Any], Any]) -> None:
        super().__init__()
        self.trans = trans
        self._num = num
        self._by_id: dict[int, Any] = {}
        self.converted = self._by_id.get  # id of a probability object -> its number, None if not converted yet

    def prob(self, p) -> Any:
        """The backend number of the model's probability object ``p`` (converted once per object)."""
        v = self._by_id.get(id(p))
        if v is None:
            v = self._by_id[id(p)] = self._num(p)
        return v

    def __missing__(self, s: int) -> list:
        get, prob = self._by_id.get, self.prob  # probabilities are positive: a converted one is never falsy
        v = self[s] = [tuple([(t, get(id(p)) or prob(p)) for t, p in d]) for d in self.trans[s]]
        return v

    def action(self, s: int, a: int) -> tuple:
        """Action ``a`` of ``s`` alone (the whole state is not converted unless it was read before)."""
        got = self.get(s)
        if got is not None:
            return got[a]
        prob = self.prob
        return tuple([(t, prob(p)) for t, p in self.trans[s][a]])
