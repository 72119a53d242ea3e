"""The games: one package each (``games/<name>/``: its model, its fast path, its report), found by
name through :mod:`exactplay.registry` (re-exported here), and the helpers their parameters share.
"""

from __future__ import annotations

from typing import Callable

from ..errors import UsageError
from ..numbers.backends import read_int
from ..present.rendered import Report  # noqa: F401 (re-exported: games return it)
from ..registry import (GAME_MODULES, MODELS, Game, Param, fast_path, game_model, game_names,  # noqa: F401
                        get_game)

# ------------------------------------------------------------ param parsers


def positive_int(limit: int, what: str = "value") -> Callable[[str], int]:
    """A parser for an integer in 1..limit, with a one-line error otherwise."""

    def parse(text: str) -> int:
        n = read_int(text, what)
        if n < 1:
            raise UsageError(f"{what} must be at least 1, got {n}")
        if n > limit:
            raise UsageError(f"{what} {n} is beyond the supported limit {limit}")
        return n

    parse.__name__ = f"int_1_to_{limit}"
    return parse


# ------------------------------------------------------------ heavy commands

HEAVY_SECONDS = 45.0  # a command estimated to take at least this much CPU says so before it starts


def heavy_note(what: str, seconds: float, memory_mb: float | None = None) -> str | None:
    """The one-line note for ``what`` if its measured-and-scaled CPU time ``seconds`` is at
    least :data:`HEAVY_SECONDS`, else None.

    >>> heavy_note("solve x", 10) is None
    True
    >>> heavy_note("audit x", 217, 2105)
    'audit x takes about 4 minutes of CPU and about 2.1 GB of memory (estimated from runs on the 2-core test machine)'
    """
    if seconds < HEAVY_SECONDS:
        return None
    minutes = round(seconds / 60)
    took = "about a minute" if minutes <= 1 else f"about {minutes} minutes"
    mem = ""
    if memory_mb is not None:
        size = f"{memory_mb / 1024:.1f} GB" if memory_mb >= 1024 else f"{memory_mb:.0f} MB"
        mem = f" and about {size} of memory"
    return f"{what} takes {took} of CPU{mem} (estimated from runs on the 2-core test machine)"
