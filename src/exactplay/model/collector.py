"""The cyclic garbage collector run less often during the model's big allocation passes."""

from __future__ import annotations

import gc
import threading
from contextlib import contextmanager

__all__ = ["fewer_collections", "YOUNG_COLLECTION_EVERY"]

YOUNG_COLLECTION_EVERY = 100_000  # allocations between two young-generation collections inside a block


_gc_lock = threading.Lock()
_gc_state = {"depth": 0, "saved": None}  # blocks running (in any thread), the thresholds before them


@contextmanager
def fewer_collections():
    """The cyclic garbage collector's young generation collected every 100,000 allocations instead of
    700 while any such block runs (in any thread), then the thresholds as they were.

    For the passes that make millions of small containers and no garbage cycles of their own (the
    model's enumeration, the end-component attractor): the collector re-walked the growing model and
    cost about as much as the enumeration itself.  It still runs (a game's own cyclic garbage is
    collected), 1/140th as often."""
    with _gc_lock:
        if _gc_state["depth"] == 0:
            saved = _gc_state["saved"] = gc.get_threshold()
            gc.set_threshold(max(saved[0], YOUNG_COLLECTION_EVERY), *saved[1:])
        _gc_state["depth"] += 1
    try:
        yield
    finally:
        with _gc_lock:
            _gc_state["depth"] -= 1
            if _gc_state["depth"] == 0:
                gc.set_threshold(*_gc_state["saved"])
