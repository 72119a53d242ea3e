"""The garbage-collector settings of the big passes (exactplay.model.collector): a solve freezes the
objects that exist when it starts (the model) out of the collector's reach while it runs, and every
setting is as it was afterwards, whatever happens."""

from __future__ import annotations

import gc
import importlib
import threading
import weakref

import pytest

from exactplay.engine.solve import solve_model
from exactplay.games import MODELS
from exactplay.model import build_model
from exactplay.model.collector import fewer_collections

solve_module = importlib.import_module("exactplay.engine.solve")


def test_the_outermost_block_freezes_and_unfreezes_and_restores_the_thresholds():
    before = gc.get_threshold()
    with fewer_collections(freeze=True):
        frozen = gc.get_freeze_count()
        assert frozen > 0 and gc.get_threshold() == (max(before[0], 100_000), max(before[1], 1000), max(before[2], 1000))
        # (a frozen object may still be freed by its reference count while the block runs: the count can
        # fall a little, never rise or reach 0 inside)
        with fewer_collections(freeze=True):  # nested: nothing frozen again
            assert 0 < gc.get_freeze_count() <= frozen
        assert 0 < gc.get_freeze_count() <= frozen  # the inner block did not unfreeze
    assert gc.get_freeze_count() == 0 and gc.get_threshold() == before


def test_a_block_without_freeze_freezes_nothing_and_keeps_the_older_thresholds():
    before = gc.get_threshold()
    with fewer_collections():
        assert gc.get_freeze_count() == 0 and gc.get_threshold()[1:] == before[1:]


def _cyclic_garbage() -> tuple[list, list]:
    """A reference cycle (only the cyclic collector frees it) held by the returned list alone, and the
    list its finalizer appends ``True`` to."""
    class Node:
        pass

    a, b = Node(), Node()
    a.other, b.other = b, a
    gone: list = []
    weakref.finalize(a, gone.append, True)
    return [a], gone


def test_objects_the_program_froze_itself_stay_frozen():
    holder, gone = _cyclic_garbage()
    gc.freeze()  # the program's own freeze (a server before it forks)
    try:
        holder.clear()
        with fewer_collections(freeze=True):
            pass
        gc.collect()
        assert not gone and gc.get_freeze_count() > 0  # still frozen: the block did not unfreeze
    finally:
        gc.unfreeze()
    gc.collect()
    assert gone == [True]


def test_garbage_frozen_during_a_block_is_collected_after_it():
    holder, gone = _cyclic_garbage()
    with fewer_collections(freeze=True):
        holder.clear()
        gc.collect()
        assert not gone  # frozen: out of the collector's reach
    gc.collect()
    assert gone == [True]


def test_a_solve_leaves_nothing_frozen_and_the_thresholds_as_they_were():
    before = gc.get_threshold()
    model = build_model(MODELS["hold"](target=8, faces=4))
    assert solve_model(model).value is not None
    assert gc.get_freeze_count() == 0 and gc.get_threshold() == before


def test_a_solve_that_fails_leaves_nothing_frozen(monkeypatch):
    before = gc.get_threshold()
    seen = []

    def failing_run(self):
        seen.append(gc.get_freeze_count())
        raise RuntimeError("boom")

    monkeypatch.setattr(solve_module.Run, "run", failing_run)
    with pytest.raises(RuntimeError, match="boom"):
        solve_model(build_model(MODELS["race"](target=6)))
    assert seen and seen[0] > 0  # the solve ran frozen
    assert gc.get_freeze_count() == 0 and gc.get_threshold() == before


def test_solves_in_several_threads_leave_nothing_frozen():
    before = gc.get_threshold()
    models = [build_model(MODELS["hold"](target=8, faces=4)), build_model(MODELS["race"](target=8))]
    values, errors = [], []

    def run(m):
        try:
            values.append(solve_model(m).value)
        except Exception as e:  # pragma: no cover - reported by the assertion below
            errors.append(e)

    threads = [threading.Thread(target=run, args=(models[i % 2],)) for i in range(6)]
    for th in threads:
        th.start()
    for th in threads:
        th.join()
    assert not errors and len(values) == 6
    assert gc.get_freeze_count() == 0 and gc.get_threshold() == before
