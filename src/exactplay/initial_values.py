"""The values of a model's initial states, when it has several (a DRN file may mark many states ``init``).

Storm reports the range of the values over the initial states; QVBS references take the largest.
:func:`initial_range` gives each initial state's value and the smallest and the largest (the first
initial state, in the model's order, attaining each); solve, certify and crosscheck show it beside
the answer (which stays the first initial state's value, ``Model.initial``).

>>> from fractions import Fraction as F
>>> r = initial_range([0, 2, 1], lambda s: [F(1, 2), F(1, 3), F(1, 3)][s])
>>> r.smallest, r.largest
((2, Fraction(1, 3)), (0, Fraction(1, 2)))
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Callable

from .decimals import decimal_digits
from .numbers import format_pq

__all__ = ["InitialRange", "initial_range", "one_initial_state"]


@dataclass
class InitialRange:
    states: list[int]
    values: list[Fraction]
    smallest: tuple[int, Fraction]  # (state, value): the first initial state with the least value
    largest: tuple[int, Fraction]

    def summary(self, name: Callable[[int], str], digits: int) -> str:
        """``512; values in [a, b] (smallest at state s, largest at state t)`` (after ``initial states: ``)."""
        (s, lo), (t, hi) = self.smallest, self.largest
        if lo == hi:
            return f"{len(self.states):,}, all of value {decimal_digits(lo, digits)}"
        return (f"{len(self.states):,}; values in [{decimal_digits(lo, digits)}, {decimal_digits(hi, digits)}] "
                f"(smallest at state {name(s)}, largest at state {name(t)})")

    def to_json(self, name: Callable[[int], str], number: Callable[[int], int] = int, digits: int = 8) -> dict:
        """``count``, ``smallest``/``largest`` (state, name, exact value, decimal) and ``values`` per initial state."""
        def one(s: int, v: Fraction) -> dict:
            return {"state": number(s), "name": name(s), "value": format_pq(v), "decimal": decimal_digits(v, digits)}

        return {"count": len(self.states), "smallest": one(*self.smallest), "largest": one(*self.largest),
                "values": [{"state": number(s), "name": name(s), "value": format_pq(v)}
                           for s, v in zip(self.states, self.values)]}


def initial_range(states: list[int], value: Callable[[int], Fraction]) -> InitialRange | None:
    """The values ``value(s)`` of the initial ``states`` and their range; None for one initial state."""
    if len(states) < 2:
        return None
    values = [Fraction(int(v.numerator), int(v.denominator)) for v in map(value, states)]
    lo = min(range(len(states)), key=lambda i: (values[i], i))
    hi = min(range(len(states)), key=lambda i: (-values[i], i))
    return InitialRange(list(states), values, (states[lo], values[lo]), (states[hi], values[hi]))


def one_initial_state(model, what: str) -> None:
    """Refuse a model with several initial states where ``what`` covers only one (one line)."""
    from .model import ModelError

    if len(model.initial_states) > 1:
        raise ModelError(f"{what} reports one initial state, and this model has {len(model.initial_states):,}: "
                         "use --backend mpq (the exact engine reports every initial state's value)")
