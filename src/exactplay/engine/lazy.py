"""Lazy containers of a :class:`~exactplay.engine.solution.Solution`: exact numbers computed on first access.

The engine may leave the exact value of a state, or the exact margin and action values of a
choice state, *pending*: the slot holds a :class:`Pending` that names the unit of work (one
component, :class:`Unit`) computing it.  The first read of any pending slot runs that unit,
which writes every slot of its component; later reads are plain reads.  The containers are a
``list`` (:class:`LazyValues`) and a ``dict`` (:class:`LazyDict`) subclass, so indexing,
iteration, ``len``, ``items()``, ``==``, ``dict(...)``, ``json`` and ``pickle`` behave as for the
plain containers holding the computed numbers:

>>> class Twice(Unit):
...     def compute(self):
...         values[1] = 2 * values[0]
>>> values = LazyValues([21, None])
>>> u = Twice()
>>> values[1] = Pending(u)
>>> values.pending_count(), values[1], values.pending_count(), list(values)
(1, 42, 0, [21, 42])

A unit may read other pending slots (a component reads its successors' values): :func:`run`
forces the units it depends on first, with an explicit stack (no deep recursion).
"""

from __future__ import annotations

from typing import Any, Iterable

from ..model.collector import fewer_collections

__all__ = ["Pending", "Unit", "LazyValues", "LazyDict", "MappedValues", "run", "materialize"]


class Unit:
    """One unit of deferred work; :meth:`compute` fills every pending slot it owns."""

    done = False
    depends: tuple = ()  # the units whose slots :meth:`compute` reads (forced first)

    def compute(self) -> None:  # pragma: no cover - abstract
        raise NotImplementedError


class Pending:
    """A slot's placeholder: the unit that computes it."""

    __slots__ = ("unit",)

    def __init__(self, unit: Unit) -> None:
        self.unit = unit

    def __repr__(self) -> str:
        return "<pending>"


def run(unit: Unit) -> None:
    """Run ``unit`` after the units it depends on (depth first, iteratively), with the garbage
    collector's settings of the solve (:func:`~exactplay.model.collector.fewer_collections`)."""
    if unit.done:
        return
    with fewer_collections(freeze=True):
        _run(unit)


def _run(unit: Unit) -> None:
    stack = [(unit, False)]
    while stack:
        u, expanded = stack.pop()
        if u.done:
            continue
        if expanded:
            u.done = True
            u.compute()
            continue
        stack.append((u, True))
        for d in u.depends:
            if not d.done:
                stack.append((d, False))


def _force(v: Any) -> None:
    run(v.unit)


def _filled(v: Any) -> Any:
    if type(v) is Pending:
        raise RuntimeError("internal error: a unit of the lazy engine left a slot it owns pending")
    return v


class LazyValues(list):
    """A list whose ``Pending`` entries are computed on first read."""

    __slots__ = ()

    def __getitem__(self, i):
        v = list.__getitem__(self, i)
        if type(v) is Pending:
            _force(v)
            return _filled(list.__getitem__(self, i))
        if type(i) is slice:
            if any(type(x) is Pending for x in v):
                self.materialize()
                return list.__getitem__(self, i)
        return v

    def raw(self, i: int) -> Any:
        """The slot as stored (a ``Pending`` is not forced)."""
        return list.__getitem__(self, i)

    def is_pending(self, i: int) -> bool:
        return type(list.__getitem__(self, i)) is Pending

    def pending_count(self) -> int:
        return sum(1 for x in list.__iter__(self) if type(x) is Pending)

    def materialize(self) -> "LazyValues":
        for i in range(len(self)):
            v = list.__getitem__(self, i)
            if type(v) is Pending:
                _force(v)
        return self

    def __iter__(self):
        for i in range(len(self)):
            yield self[i]

    def __reversed__(self):
        for i in range(len(self) - 1, -1, -1):
            yield self[i]

    def __contains__(self, x) -> bool:
        return list.__contains__(self.materialize(), x)

    def index(self, *args):
        return list.index(self.materialize(), *args)

    def count(self, x) -> int:
        return list.count(self.materialize(), x)

    def copy(self) -> list:
        return list(self)

    def __eq__(self, other) -> bool:
        if isinstance(other, LazyValues):
            other.materialize()
        return list.__eq__(self.materialize(), other)

    def __ne__(self, other) -> bool:
        return not self == other

    __hash__ = None  # type: ignore[assignment]

    def __add__(self, other) -> list:
        return list(self) + list(other)

    def __repr__(self) -> str:
        return list.__repr__(self.materialize())

    def __reduce_ex__(self, protocol):
        return (list, (list(self),))


class MappedValues(LazyValues):
    """``f(base[i])`` for every ``i``, computed when first read (``base`` may be lazy)."""

    __slots__ = ("base", "f")

    def __init__(self, base: LazyValues, f) -> None:
        super().__init__(None if v is None else _Mapped for v in list.__iter__(base))
        self.base, self.f = base, f

    def __getitem__(self, i):
        if type(i) is slice:
            self.materialize()
            return list.__getitem__(self, i)
        v = list.__getitem__(self, i)
        if v is _Mapped:
            v = self.f(self.base[i])
            list.__setitem__(self, i, v)
        return v

    def materialize(self) -> "MappedValues":
        for i in range(len(self)):
            self[i]
        return self

    def is_pending(self, i: int) -> bool:
        return list.__getitem__(self, i) is _Mapped

    def pending_count(self) -> int:
        return sum(1 for x in list.__iter__(self) if x is _Mapped)


_Mapped = object()  # a slot of MappedValues not yet computed


class LazyDict(dict):
    """A dict whose ``Pending`` values are computed on first read."""

    __slots__ = ()

    def __getitem__(self, k):
        v = dict.__getitem__(self, k)
        if type(v) is Pending:
            _force(v)
            return _filled(dict.__getitem__(self, k))
        return v

    def get(self, k, default=None):
        if k in self:
            return self[k]
        return default

    def is_pending(self, k) -> bool:
        return type(dict.get(self, k)) is Pending

    def pending_count(self) -> int:
        return sum(1 for x in dict.values(self) if type(x) is Pending)

    def materialize(self) -> "LazyDict":
        for k in list(dict.keys(self)):
            v = dict.__getitem__(self, k)
            if type(v) is Pending:
                _force(v)
        return self

    def __iter__(self):  # defined here so that dict(x) and {**x} read through __getitem__
        return dict.__iter__(self)

    def items(self):
        return dict.items(self.materialize())

    def values(self):
        return dict.values(self.materialize())

    def copy(self) -> dict:
        return dict(self.materialize())

    def pop(self, k, *default):
        if k in self:
            self[k]
        return dict.pop(self, k, *default)

    def popitem(self):
        return dict.popitem(self.materialize())

    def setdefault(self, k, default=None):
        if k in self:
            return self[k]
        dict.__setitem__(self, k, default)
        return default

    def __eq__(self, other) -> bool:
        if isinstance(other, LazyDict):
            other.materialize()
        return dict.__eq__(self.materialize(), other)

    def __ne__(self, other) -> bool:
        return not self == other

    __hash__ = None  # type: ignore[assignment]

    def __or__(self, other) -> dict:
        return dict(self.materialize()) | dict(other)

    def __repr__(self) -> str:
        return dict.__repr__(self.materialize())

    def __reduce_ex__(self, protocol):
        return (dict, (dict(self.materialize()),))


def materialize(*containers: Iterable) -> None:
    """Compute every pending slot of the given lazy containers (others are left as they are)."""
    for c in containers:
        m = getattr(c, "materialize", None)
        if m is not None:
            m()
