"""The vocabulary of certificates v2 and the strict readers of their JSON values.

Standard library only.  Each reader accepts exactly one canonical spelling and
raises :class:`~exactplay.errors.VerificationError` naming the field (and the
state, by index, where there is one) otherwise; the text helpers keep messages
short whatever the input.
"""

from __future__ import annotations

import json
from fractions import Fraction
from typing import Any

from ..errors import VerificationError
from ._ints import ratio, read_int

MAX_STATES = 3_000_000
MAX_NUMBER_CHARS = 1_000_000  # characters of one "p/q"
MAX_DIGITS = 100_000  # answer.digits

STATE_KEYS = ("id", "name", "labels", "payoff", "mover", "actions", "next")
ACTION_KEYS = ("name", "next", "reward")
SOLUTION_KEYS = ("objective", "witness", "components", "values", "policy", "ranks", "margins", "ties")
ANSWER_KEYS = ("name", "state", "component", "value", "decimal", "digits")
OBJECTIVES = ("auto", "max", "zero-sum", "min")
OBJECTIVE_PLAYERS = {"zero-sum": 2, "min": 1}  # the players these objectives are for (auto and max: any)
MAX_PLAYERS = 1000
INF = float("inf")

_DIGITS = frozenset("0123456789")


class Where:
    """The field being read, so that an unforeseen error still names it."""

    field = "certificate"
    state: Any = None


def fail(message: str, field: str, state: Any = None):
    raise VerificationError(message, field=field, state=state)


def rational(x: Any, field: str, state: Any = None) -> Fraction:
    """Canonical ``"p/q"``: q >= 1, lowest terms, no sign on 0, no leading zeros."""
    if not isinstance(x, str):
        fail(f"expected a 'p/q' string, found {type(x).__name__}", field, state)
    if len(x) > MAX_NUMBER_CHARS:
        fail(f"number of {len(x):,} characters is longer than the {MAX_NUMBER_CHARS:,} allowed", field, state)
    num, slash, den = x.partition("/")
    body = num[1:] if num.startswith("-") else num
    if (not slash or not body or not den or not set(body) <= _DIGITS or not set(den) <= _DIGITS
            or (len(body) > 1 and body[0] == "0") or den[0] == "0"):
        fail(f"{x[:40]!r} is not a canonical 'p/q' rational", field, state)
    p, q = read_int(num), read_int(den)
    if body == "0" and (num != "0" or q != 1):
        fail(f"{x[:40]!r}: zero is written '0/1'", field, state)
    value = ratio(p, q)  # gmpy2's mpq when installed (check --stdlib: Fraction); the same exact value
    if value.denominator != q:
        fail(f"rational {x[:40]!r} is not in lowest terms", field, state)
    return value


def integer(x: Any, field: str, state: Any = None) -> int:
    if not isinstance(x, int) or isinstance(x, bool):
        fail(f"expected an integer, found {show(x)}", field, state)
    return x


def keys(obj: Any, required: tuple, optional: tuple, field: str, state: Any = None) -> dict:
    if not isinstance(obj, dict):
        fail(f"expected an object, found {type(obj).__name__}", field, state)
    unknown = [k for k in obj if k not in required and k not in optional]
    if unknown:
        fail(f"unknown key(s) {', '.join(sorted(map(str, unknown)))[:80]}", field, state)
    missing = [k for k in required if k not in obj]
    if missing:
        fail(f"missing key(s) {', '.join(missing)}", field, state)
    return obj


MAX_PARAMS = 100  # recorded factory parameters
MAX_PARAM_CHARS = 1000  # characters of a parameter's name or text, digits of an integer


def recorded_params(x: Any, field: str = "params") -> dict:
    """A factory's parameters as a certificate of a user's model records them (``--param goal=5``;
    informational: the checker has no factory to run again, so nothing ties them to the model):
    at most :data:`MAX_PARAMS` names (Python identifiers), each an integer, a boolean or a text (a
    fraction is the text ``"p/q"``); a float, a list, an object or null is refused."""
    if not isinstance(x, dict):
        fail(f"expected an object of the factory's parameters, found {type(x).__name__}", field)
    if len(x) > MAX_PARAMS:
        fail(f"{len(x):,} parameters, more than {MAX_PARAMS}", field)
    for name, value in x.items():
        if not name.isidentifier() or len(name) > MAX_PARAM_CHARS:
            fail(f"parameter name {show(name)} is not a Python identifier", field)
        if isinstance(value, int) and not isinstance(value, bool):
            if value.bit_length() > 4 * MAX_PARAM_CHARS:
                fail(f"{show(value)} is longer than {MAX_PARAM_CHARS} digits", f"{field}.{name}")
        elif isinstance(value, str):
            if len(value) > MAX_PARAM_CHARS:
                fail(f"a text of {len(value):,} characters, more than {MAX_PARAM_CHARS}", f"{field}.{name}")
        elif not isinstance(value, bool):
            fail(f"expected an integer, a boolean or a text, found {show(value)}", f"{field}.{name}")
    return x


def listed(x: Any, field: str, state: Any = None, length: int | None = None) -> list:
    if not isinstance(x, list):
        fail(f"expected a list, found {type(x).__name__}", field, state)
    if length is not None and len(x) != length:
        fail(f"expected {length} entries, found {len(x)}", field, state)
    return x


def show(x: Any) -> str:
    if isinstance(x, int) and x.bit_length() > 200:
        return f"an integer of {x.bit_length():,} bits"
    if isinstance(x, (list, dict)):
        text = json.dumps(x, allow_nan=False)[:60] if len(x) < 20 else f"a {type(x).__name__} of {len(x):,} entries"
        return text if len(text) <= 40 else text[:37] + "..."
    text = repr(x)
    return text if len(text) <= 40 else text[:37] + "..."


def pq(x: Fraction) -> str:
    """``x`` for a message: exact when short, else about 12 significant digits and its size."""
    if x.numerator.bit_length() + x.denominator.bit_length() <= 200:
        return f"{x.numerator}/{x.denominator}"
    return f"{approx(x)} (a p/q of {x.numerator.bit_length() + x.denominator.bit_length():,} bits)"


def approx(x, digits: int = 12) -> str:
    """``x`` with ``digits`` significant digits, never raising and never 0 for a non-zero value: beyond
    the range of doubles (``10^400``, ``2^-1050``) from its exact base-10 exponent."""
    x = Fraction(int(x.numerator), int(x.denominator))
    if not x:
        return "0"
    try:
        f = float(x)  # correctly rounded; OverflowError past ~1.8e308, 0.0 or subnormal below ~1e-308
    except OverflowError:
        f = 0.0
    if f and abs(f) >= 1e-300:
        return f"{f:.{digits}g}"
    sign = "-" if x < 0 else ""
    a = abs(x)
    e = int((a.numerator.bit_length() - a.denominator.bit_length()) * 0.30102999566398120)
    m = a / Fraction(10) ** e
    while m >= 10:
        m, e = m / 10, e + 1
    while m < 1:
        m, e = m * 10, e - 1
    mant = f"{float(m):.{digits - 1}f}"
    if mant.startswith("10"):
        mant, e = f"{1.0:.{digits - 1}f}", e + 1
    return f"{sign}{mant}e{e:+d}"


def decimal(x: Fraction, digits: int) -> str:
    """``x`` correctly rounded to ``digits`` decimals, half to even, as text."""
    n = int(round(x * 10**digits))  # Fraction's and mpq's round: exact, half to even
    sign = "-" if n < 0 else ""
    s = str(abs(n)).rjust(digits + 1, "0")
    return f"{sign}{s[:-digits]}.{s[-digits:]}" if digits > 0 else f"{sign}{s}"

