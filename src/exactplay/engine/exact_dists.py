"""The engine's exact distributions: the model's, with every probability a number of the engine's backend.

``DistributionConverter(trans, num)`` converts the model's ``trans``: :meth:`~DistributionConverter.state`
gives state ``s``'s list of actions, each a tuple of ``(successor, probability)`` pairs;
:meth:`~DistributionConverter.action` one action alone.  The engine keeps the converted states in a
plain list (the fastest to index in its hot loops) and leaves out the states it solves without reading
all of their actions -- a self-loop state whose float bounds rule most actions out (:mod:`.selfloop`)
converts only the actions it compares exactly.

The model's probabilities are mostly a few shared objects: each object is converted once, by its
``id`` (the model keeps them alive while the engine runs, so the ids are stable).

>>> from fractions import Fraction
>>> half = Fraction(1, 2)
>>> conv = DistributionConverter([[((0, half), (1, half)), ((1, Fraction(1)),)]], lambda p: ("num", p))
>>> conv.action(0, 1)
((1, ('num', Fraction(1, 1))),)
>>> d = conv.state(0)
>>> d[0]
((0, ('num', Fraction(1, 2))), (1, ('num', Fraction(1, 2))))
>>> d[0][0][1] is d[0][1][1]  # one conversion per probability object
True
>>> conv.states() == [d], conv.states({0})
(True, [None])
"""

from __future__ import annotations

from typing import Any, Callable

__all__ = ["DistributionConverter"]


class DistributionConverter:
    """The model's distributions converted to the engine's numbers (the module's docstring)."""

    def __init__(self, trans: list, num: Callable[[Any], Any]) -> None:
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

    def state(self, s: int) -> list:
        """Every action of ``s``, converted."""
        get, prob = self._by_id.get, self.prob  # probabilities are positive: a converted one is never falsy
        return [tuple([(t, get(id(p)) or prob(p)) for t, p in d]) for d in self.trans[s]]

    def states(self, unconverted=frozenset()) -> list:
        """:meth:`state` of every state in order, ``None`` for the states in ``unconverted`` (one pass,
        without a call per state)."""
        get, prob = self._by_id.get, self.prob
        return [None if s in unconverted else [tuple([(t, get(id(p)) or prob(p)) for t, p in d]) for d in acts]
                for s, acts in enumerate(self.trans)]

    def action(self, s: int, a: int) -> tuple:
        """Action ``a`` of ``s`` alone."""
        prob = self.prob
        return tuple([(t, prob(p)) for t, p in self.trans[s][a]])
