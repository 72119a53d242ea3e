"""Strict JSON for every ``--json`` output and every certificate.

JSON (RFC 8259) has no infinity and no NaN, and exactplay writes only strict
JSON: :func:`dumps` is the one encoder the commands and the certificate writer
use, and it always passes ``allow_nan=False``.

**Encoding of infinite or out-of-range error measures.**  Some error measures
have no double value: the relative error ``|y - x| / |x|`` when the exact value
``x`` is 0 and the float ``y`` is not, an ulp count beyond the largest double
(a float of 0 has an ulp of 4.9e-324), a bound-over-measured ratio beyond the
largest double (a subnormal measured error).  The audit layer makes such a measure as a
:class:`NonFinite` (a ``float`` subclass, ``inf``, that carries its reason), and
in JSON it is written as::

    "max_rel_error": null,
    "max_rel_error_reason": "infinite: exact value 0 (float 1e-300)"

that is, the field is ``null`` and a sibling field ``<name>_reason`` says why.
The reason starts with ``infinite:`` (a true division by zero) or
``out of range:`` (finite, but beyond the largest double, about 1.8e308).  A
``null`` without a ``_reason`` field means "not applicable" (e.g. no a-priori
bound).  In text output the same measure reads ``inf (exact value 0 (float
1e-300))`` or ``> 1.8e+308 (...)``.

Any other non-finite float in an output is a bug: :func:`dumps` refuses it with
a one-line error naming the field, instead of writing ``Infinity`` or ``NaN``.
"""

from __future__ import annotations

import json
import math
from typing import Any

from .errors import ExactplayError
from .numbers.decimals import all_digits

__all__ = ["INFINITE", "OUT_OF_RANGE", "NonFinite", "NonFiniteOutput", "dumps", "json_ready"]

INFINITE = "infinite"
OUT_OF_RANGE = "out of range"


class NonFinite(float):
    """An error measure with no double value (``inf``), and the reason why.

    It compares and sorts as ``inf``; formatted (``f"{m:.3e}"``) it reads
    ``inf (reason)`` or ``> 1.8e+308 (reason)``, whatever the format spec.

    >>> m = NonFinite(INFINITE, "exact value 0")
    >>> f"{m:.3e}", m > 1e308, m.json_reason
    ('inf (exact value 0)', True, 'infinite: exact value 0')
    """

    kind: str
    reason: str

    def __new__(cls, kind: str, reason: str) -> "NonFinite":
        if kind not in (INFINITE, OUT_OF_RANGE):
            raise ValueError(f"unknown kind {kind!r}")
        obj = super().__new__(cls, math.inf)
        obj.kind = kind
        obj.reason = reason
        return obj

    @property
    def json_reason(self) -> str:
        return f"{self.kind}: {self.reason}"

    def __format__(self, spec: str) -> str:
        shown = "inf" if self.kind == INFINITE else f"> {math.nextafter(math.inf, 0):.1e}"
        return f"{shown} ({self.reason})"

    __str__ = __repr__ = lambda self: self.__format__("")

    def __reduce__(self):
        return (NonFinite, (self.kind, self.reason))


class NonFiniteOutput(ExactplayError):
    """A non-finite float that no audit measure explains reached an output (a bug)."""


class _Bad(Exception):
    """A non-finite value found while walking; ``path`` is filled in on the way up."""

    def __init__(self, value: float) -> None:
        self.value = value
        self.path: list[str] = []


def _walk(obj: Any) -> Any:
    kind = type(obj)
    if kind is str or kind is int or kind is bool or obj is None:
        return obj
    if isinstance(obj, dict):
        out = {}
        for key, value in obj.items():
            if isinstance(value, NonFinite):
                out[key] = None
                out[f"{key}_reason"] = value.json_reason
                continue
            try:
                out[key] = _walk(value)
            except _Bad as bad:
                bad.path.insert(0, f"[{key!r}]")
                raise
        return out
    if isinstance(obj, (list, tuple)):
        out_list = []
        for i, value in enumerate(obj):
            try:
                out_list.append(_walk(value))
            except _Bad as bad:
                bad.path.insert(0, f"[{i}]")
                raise
        return out_list
    if isinstance(obj, float) and not math.isfinite(obj):
        raise _Bad(obj)
    return obj


def json_ready(obj: Any) -> Any:
    """``obj`` with every :class:`NonFinite` dict value written as ``null`` plus ``<key>_reason``.

    Containers are copied (tuples become lists); other values are returned as
    they are.  Raises :class:`NonFiniteOutput` for a plain ``inf``/``nan`` or a
    :class:`NonFinite` outside a dict (it has no field to carry its reason).

    >>> json_ready({"rel": NonFinite(INFINITE, "exact value 0"), "abs": 0.5})
    {'rel': None, 'rel_reason': 'infinite: exact value 0', 'abs': 0.5}
    """
    try:
        return _walk(obj)
    except _Bad as bad:
        where = "".join(bad.path) or "(top level)"
        raise NonFiniteOutput(
            f"internal error: the output has the non-finite number {float(bad.value)} at {where}; "
            "this is a bug in exactplay, please report it") from None


COMPACT_FROM = 1 << 18  # characters: a larger output of a command is printed without indentation


def dumps(obj: Any, indent: int | None = 2, compact_from: int | None = None, **kwargs: Any) -> str:
    """``obj`` as strict JSON (see the module docstring for infinite measures).

    The common case (every float finite) is one ``json.dumps``; only output
    with a non-finite float is walked by :func:`json_ready`.  ``compact_from``:
    an output of more characters (every state of a big model) is written without
    indentation, by Python's C encoder, 10-20 times faster (the indenting encoder
    is pure Python); a command's ``--json`` output uses :data:`COMPACT_FROM`.  Integers of any
    size are written (:func:`~exactplay.numbers.decimals.all_digits`).
    """
    with all_digits():
        try:
            return _dumps(obj, indent, compact_from, kwargs)
        except ValueError:  # a non-finite float: encode the measures, refuse anything else
            return _dumps(json_ready(obj), indent, compact_from, kwargs)


def _dumps(obj: Any, indent: int | None, compact_from: int | None, kwargs: dict) -> str:
    if indent is None:
        return json.dumps(obj, allow_nan=False, **kwargs)
    if compact_from is not None:
        compact = json.dumps(obj, allow_nan=False, **kwargs)
        if len(compact) > compact_from:
            return compact
    return json.dumps(obj, indent=indent, allow_nan=False, **kwargs)
