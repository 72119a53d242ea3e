"""The cyclic garbage collector run less often during the model's big allocation passes."""

from __future__ import annotations

import gc
import threading
from contextlib import contextmanager

__all__ = ["fewer_collections", "YOUNG_COLLECTION_EVERY"]

YOUNG_COLLECTION_EVERY = 100_000  # allocations between two young-generation collections inside a block


_gc_lock = threading.Lock()
_gc_state = {"depth": 0, "saved": None, "froze": False}  # blocks running (in any thread), the thresholds before them


@contextmanager
def fewer_collections(freeze: bool = False):
    """The cyclic garbage collector's young generation collected every 100,000 allocations instead of
    700 while any such block runs (in any thread), then the thresholds as they were.

    For the passes that make millions of small containers and no garbage cycles of their own (the
    model's enumeration, the end-component attractor): the collector re-walked the growing model and
    cost about as much as the enumeration itself.  It still runs (a game's own cyclic garbage is
    collected), 1/140th as often.

    ``freeze=True`` (the solve): the objects that exist when the outermost block starts (the model:
    millions of tuples and Fractions) are moved out of the collector's reach (:func:`gc.freeze`) until
    it ends (:func:`gc.unfreeze`), so the full collections the solve's own allocations trigger do not
    walk the model again (hold 75 / 6: 2.5 s of a 14 s solve).  Nothing is lost: the frozen objects
    are only not collected while the block runs, and go back to the oldest generation after it.  If
    objects are frozen already (the program manages :func:`gc.freeze` itself), nothing is frozen."""
    with _gc_lock:
        if _gc_state["depth"] == 0:
            saved = _gc_state["saved"] = gc.get_threshold()
            gc.set_threshold(max(saved[0], YOUNG_COLLECTION_EVERY), *saved[1:])
            _gc_state["froze"] = freeze and gc.get_freeze_count() == 0
            if _gc_state["froze"]:
                gc.freeze()
        _gc_state["depth"] += 1
    try:
        yield
    finally:
        with _gc_lock:
            _gc_state["depth"] -= 1
            if _gc_state["depth"] == 0:
                gc.set_threshold(*_gc_state["saved"])
                if _gc_state["froze"]:
                    gc.unfreeze()
                    _gc_state["froze"] = False
