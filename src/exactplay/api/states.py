"""Results keyed by a game's own states: a read-only mapping over the model's state numbers.

>>> m = StateMap(["a", "b", "c"], [0, 2], lambda i: i * 10)
>>> dict(m), m["c"], "b" in m, len(m)
({'a': 0, 'c': 20}, 20, False, 2)
>>> m["z"]
Traceback (most recent call last):
...
KeyError: "'z' is not a state of this game (its states are like 'a')"
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Callable, Hashable, Iterator, Sequence

__all__ = ["StateMap", "StateIndex"]


class StateIndex:
    """The model's number of each state key (built on first use), and the key of each number."""

    def __init__(self, keys: Sequence[Hashable]):
        self.keys = keys
        self._number: dict | None = None

    def number(self, key: Hashable) -> int:
        """The model's number of state ``key``; a :class:`KeyError` that shows a state if it is none."""
        if self._number is None:
            self._number = {k: i for i, k in enumerate(self.keys)}
        try:
            return self._number[key]
        except (KeyError, TypeError):
            example = repr(self.keys[0])[:60] if len(self.keys) else "none"
            raise KeyError(f"{key!r} is not a state of this game (its states are like {example})") from None

    def __len__(self) -> int:
        return len(self.keys)


class StateMap(Mapping):
    """``state -> value_of(number)`` over the model states ``numbers`` (in that order), computed when
    read: a million-state result is not copied into a dict."""

    def __init__(self, keys: Sequence[Hashable] | StateIndex, numbers: Sequence[int], value_of: Callable[[int], Any]):
        self._index = keys if isinstance(keys, StateIndex) else StateIndex(keys)
        self._numbers = numbers
        self._value_of = value_of
        self._members: set | None = None

    def _has(self, i: int) -> bool:
        if self._members is None:
            self._members = set(self._numbers)
        return i in self._members

    def __getitem__(self, key: Hashable) -> Any:
        i = self._index.number(key)
        if not self._has(i):
            raise KeyError(f"{key!r} has no entry here")
        return self._value_of(i)

    def __contains__(self, key: object) -> bool:
        try:
            return self._has(self._index.number(key))
        except KeyError:
            return False

    def __iter__(self) -> Iterator[Hashable]:
        keys = self._index.keys
        return (keys[i] for i in self._numbers)

    def __len__(self) -> int:
        return len(self._numbers)

    def __repr__(self) -> str:
        shown = []
        for n, key in enumerate(self):
            if n == 3:
                shown.append("...")
                break
            shown.append(f"{key!r}: {self[key]!r}"[:80])
        return f"<{len(self):,} states: {{{', '.join(shown)}}}>"
