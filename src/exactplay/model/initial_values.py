"""The values of a model's initial states, when it has several (a DRN file may mark many states ``init``).

Storm reports the range of the values over the initial states; QVBS references take the largest.
:func:`initial_range` gives each initial state's value and the smallest and the largest (the first
initial state, in the model's order, attaining each); solve, certify and crosscheck show it beside
the answer (which stays the first initial state's value, ``Model.initial``).  A value may be
``None``: +infinity (an expected reward under Storm's semantics, :mod:`exactplay.proper`).

>>> from fractions import Fraction as F
>>> r = initial_range([0, 2, 1], lambda s: [F(1, 2), F(1, 3), F(1, 3)][s])
>>> r.smallest, r.largest
((2, Fraction(1, 3)), (0, Fraction(1, 2)))
>>> initial_range([0, 1], lambda s: [F(1), None][s]).largest
(1, None)
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Callable, Sequence

from ..numbers.decimals import decimal_digits
from ..numbers.backends import format_pq

__all__ = ["InitialRange", "initial_range", "extremes", "one_initial_state"]

INFINITE = "infinite"  # the reason of a null value in JSON


def _key(v: Fraction | None):
    return (1, 0) if v is None else (0, v)  # None (+infinity) above every number


def extremes(items: Sequence[tuple[int, Fraction | None]]) -> tuple[tuple, tuple]:
    """``(smallest, largest)`` of ``(state, value)`` pairs, each the first attaining it (None: +infinity)."""
    lo = min(range(len(items)), key=lambda i: (_key(items[i][1]), i))
    top = max(_key(v) for _, v in items)
    hi = next(i for i, (_, v) in enumerate(items) if _key(v) == top)
    return items[lo], items[hi]


def _decimal(v: Fraction | None, digits: int) -> str:
    return "inf" if v is None else decimal_digits(v, digits)


def _exact(v: Fraction | None) -> dict:
    return {"value": None, "value_reason": INFINITE} if v is None else {"value": format_pq(v)}


@dataclass
class InitialRange:
    states: list[int]
    values: list[Fraction | None]
    smallest: tuple[int, Fraction | None]  # (state, value): the first initial state with the least value
    largest: tuple[int, Fraction | None]

    def summary(self, name: Callable[[int], str], digits: int) -> str:
        """``512; values in [a, b] (smallest at state s, largest at state t)`` (after ``initial states: ``)."""
        (s, lo), (t, hi) = self.smallest, self.largest
        if lo == hi:
            return f"{len(self.states):,}, all of value {_decimal(lo, digits)}"
        return (f"{len(self.states):,}; values in [{_decimal(lo, digits)}, {_decimal(hi, digits)}] "
                f"(smallest at state {name(s)}, largest at state {name(t)})")

    def to_json(self, name: Callable[[int], str], number: Callable[[int], int] = int, digits: int = 8) -> dict:
        """``count``, ``smallest``/``largest`` (state, name, exact value, decimal) and ``values`` per initial
        state; an infinite value is ``null`` with ``value_reason`` and the decimal ``inf``."""
        def one(s: int, v) -> dict:
            return {"state": number(s), "name": name(s), **_exact(v), "decimal": _decimal(v, digits)}

        return {"count": len(self.states), "smallest": one(*self.smallest), "largest": one(*self.largest),
                "values": [{"state": number(s), "name": name(s), **_exact(v)} for s, v in zip(self.states, self.values)]}

    def decimal(self, v: Fraction | None, digits: int) -> str:
        return _decimal(v, digits)


def initial_range(states: list[int], value: Callable[[int], Fraction | None]) -> InitialRange | None:
    """The values ``value(s)`` of the initial ``states`` and their range; None for one initial state."""
    if len(states) < 2:
        return None
    values = [None if v is None else Fraction(int(v.numerator), int(v.denominator)) for v in map(value, states)]
    lo, hi = extremes(list(zip(states, values)))
    return InitialRange(list(states), values, lo, hi)


def one_initial_state(model, what: str) -> None:
    """Refuse a model with several initial states where ``what`` covers only one (one line)."""
    from . import ModelError

    if len(model.initial_states) > 1:
        raise ModelError(f"{what} reports one initial state, and this model has {len(model.initial_states):,}: "
                         "use --backend mpq (the exact engine reports every initial state's value)")
