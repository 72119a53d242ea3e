"""Where an exact value sits between the rounding boundaries of its printed decimals, and whether
a float's printed digits are certain given an error bound."""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from ..numbers.decimals import decimal_digits
from ..numbers.backends import as_fraction
from ..strict_json import json_ready


@dataclass
class RoundingReport:
    """Where an exact value sits between the rounding boundaries at ``digits``."""

    digits: int
    rounded: str
    distance: Fraction  # exact distance to the nearest boundary k/10^d + 1/(2*10^d)
    float_value: float | None = None
    float_rounded: str | None = None
    float_bound: float | None = None
    exact: Fraction | None = None  # the exact value itself (to test the bound against)

    @property
    def certain(self) -> bool:
        """True when the exact value is not itself on a boundary."""
        return self.distance > 0

    @property
    def float_digits_agree(self) -> bool | None:
        return None if self.float_rounded is None else self.float_rounded == self.rounded

    @property
    def float_bound_holds(self) -> bool | None:
        """Whether the exact error ``|float - exact|`` is within the a-priori bound.  A bound
        is proved under its own hypotheses (for instance: the float program breaks exact ties
        as the exact solution does); where the exact value shows it fails, it proves nothing."""
        if self.float_value is None or self.float_bound is None:
            return None
        if self.exact is None:
            return None
        if not math.isfinite(self.float_bound):
            return True
        return abs(Fraction(self.float_value) - self.exact) <= Fraction(self.float_bound)

    @property
    def float_digits_certain(self) -> bool | None:
        """Whether the float's error bound alone proves its printed digits (never where the
        exact value shows that the bound does not hold)."""
        if self.float_value is None or self.float_bound is None:
            return None
        if self.float_bound_holds is False:
            return False
        return float_digits_certain(self.float_value, self.float_bound, self.digits)

    def to_dict(self) -> dict:
        return json_ready({
            "digits": self.digits,
            "rounded": self.rounded,
            "distance_to_rounding_boundary": float(self.distance),
            "exact_value_on_boundary": not self.certain,
            "float_value": self.float_value,
            "float_rounded": self.float_rounded,
            "float_digits_agree": self.float_digits_agree,
            "float_bound": self.float_bound,
            "float_digits_certain_from_bound": self.float_digits_certain,
        })


def _boundary_distance(f: Fraction, digits: int) -> Fraction:
    scaled = f * 10**digits
    frac = scaled - math.floor(scaled)
    return abs(frac - Fraction(1, 2)) / 10**digits


def rounding_report(
    x: Any, digits: int, float_value: float | None = None, float_bound: float | None = None
) -> RoundingReport:
    """Round ``x`` to ``digits`` decimals and measure its distance to a boundary."""
    f = as_fraction(x)
    return RoundingReport(
        digits=digits,
        rounded=decimal_digits(f, digits),
        distance=_boundary_distance(f, digits),
        float_value=float_value,
        float_rounded=None if float_value is None else decimal_digits(Fraction(float_value), digits),
        float_bound=float_bound,
        exact=f,
    )


def float_digits_certain(y: float, bound: float, digits: int) -> bool:
    """True if every value within ``bound`` of ``y`` rounds to the digits of ``y``."""
    f = Fraction(y)
    return _boundary_distance(f, digits) > Fraction(bound)
