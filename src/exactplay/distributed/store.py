"""The tiles' state on a worker, between the tasks that fill them.

A tile task finds its tile's state here by ``(run, part)`` (``run``: one distributed
solve; ``part``: the tile's row strip, alive-set group, ...), creates it on its first
task and drops it when the run collects it.  The state never leaves the worker except as
boundary values and the final collection.  One process may hold several workers
(``LocalCluster(processes=False)``): the keys keep them apart.
"""

from __future__ import annotations

import threading

_STATE: dict = {}
_LOCK = threading.Lock()


def state(run: str, part, make):
    """The state of ``(run, part)``, made by ``make()`` the first time."""
    key = (run, part)
    with _LOCK:
        if key not in _STATE:
            _STATE[key] = make()
        return _STATE[key]


def take(run: str, part):
    """Remove and return the state of ``(run, part)`` (a KeyError if there is none)."""
    with _LOCK:
        return _STATE.pop((run, part))


def release(run: str) -> int:
    """Drop every state of ``run`` on this worker (after a failure); the number dropped."""
    with _LOCK:
        keys = [k for k in _STATE if k[0] == run]
        for k in keys:
            del _STATE[k]
    return len(keys)


_COUNTS: dict = {}


def count(run: str, nbytes: int, seconds: float) -> None:
    """Add bytes serialized for another worker, and the CPU seconds that took, to ``run``'s tally."""
    with _LOCK:
        b, t = _COUNTS.get(run, (0, 0.0))
        _COUNTS[run] = (b + nbytes, t + seconds)


def take_count(run: str) -> tuple:
    """This worker's tally of ``run`` (bytes, seconds), and forget it."""
    with _LOCK:
        return _COUNTS.pop(run, (0, 0.0))
