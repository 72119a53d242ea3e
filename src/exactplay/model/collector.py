"""The cyclic garbage collector run less often during the model's big allocation passes."""

from __future__ import annotations

import gc
import threading
from contextlib import contextmanager

__all__ = ["fewer_collections", "YOUNG_COLLECTION_EVERY", "OLDER_EVERY"]

YOUNG_COLLECTION_EVERY = 100_000  # allocations between two young-generation collections inside a block
OLDER_EVERY = 1_000  # younger collections between two of an older generation inside a freezing block


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

    ``freeze=True`` (the solve, the lazy reads): the objects that exist when the outermost block
    starts (the model: millions of tuples and Fractions) are moved out of the collector's reach
    (:func:`gc.freeze`), the older generations are collected only every 1,000 younger collections,
    and when the block ends everything (the model and the block's survivors: the solution, long-lived
    and without garbage cycles) goes into the oldest generation (:func:`gc.freeze` then
    :func:`gc.unfreeze`), walked by the next full collection only.  So the collections the solve's
    own allocations trigger walk neither the model nor the solution again (hold 75 / 6: about 3 s of
    a 14 s solve).  Nothing is lost: the young generation is still collected every 100,000
    allocations, and whatever the block freezes is collectable again after it.  If objects are frozen
    already (the program manages :func:`gc.freeze` itself), this block freezes nothing and only
    raises the young threshold."""
    with _gc_lock:
        if _gc_state["depth"] == 0:
            saved = _gc_state["saved"] = gc.get_threshold()
            _gc_state["froze"] = freeze and gc.get_freeze_count() == 0
            if _gc_state["froze"]:  # the older generations too: collected after the block
                gc.set_threshold(max(saved[0], YOUNG_COLLECTION_EVERY), max(saved[1], OLDER_EVERY),
                                 max(saved[2], OLDER_EVERY))
                gc.freeze()
            else:
                gc.set_threshold(max(saved[0], YOUNG_COLLECTION_EVERY), *saved[1:])
        _gc_state["depth"] += 1
    try:
        yield
    finally:
        with _gc_lock:
            _gc_state["depth"] -= 1
            if _gc_state["depth"] == 0:
                gc.set_threshold(*_gc_state["saved"])
                if _gc_state["froze"]:
                    gc.freeze()  # with the block's survivors (the solution: long-lived, no cycles of garbage)
                    gc.unfreeze()  # all into the oldest generation, walked by the next full collection only
                    _gc_state["froze"] = False
