"""The game-independent tile scheduler.

A run is a list of :class:`Tile` s in an order where every tile comes after the tiles it
depends on.  Each becomes one Dask task pinned to its owner worker
(``workers=[...]``, ``allow_other_workers=False``): the owner holds the tile's state
(:mod:`exactplay.distributed.store`), so consecutive tiles of one part run where their
state is, and only the results named in ``deps`` (boundary values) move, worker to
worker.  The client keeps a future only while it needs it (``keep``), so Dask frees each
boundary as soon as the tiles that read it have run.
"""

from __future__ import annotations

import uuid
from dataclasses import dataclass, field
from typing import Any, Callable

from exactplay.progress import SILENT


@dataclass
class Tile:
    """One task: ``func(*args, *results of deps)`` on worker number ``owner``."""

    key: tuple
    func: Callable
    args: tuple
    owner: int
    deps: tuple = ()  # keys of earlier tiles whose results are passed after args, in order
    keep: bool = False  # the caller wants this tile's result (run_tiles returns its future)
    label: str = field(default="", repr=False)


def new_run(prefix: str) -> str:
    """A fresh run id: the workers' state and the task keys of one run."""
    return f"{prefix}-{uuid.uuid4().hex[:12]}"


def _task_key(run: str, key: tuple) -> str:
    return f"{run}-" + "-".join(map(str, key))


def run_tiles(client, run: str, tiles: list[Tile], addresses: list[str], progress=SILENT,
              title: str = "tiles") -> dict[tuple, Any]:
    """Submit every tile, wait for all of them, and return ``{key: future}`` of the kept ones.

    A failing tile raises its exception here (after cancelling the rest); the workers'
    state of the run is dropped in that case.
    """
    from distributed import as_completed

    from exactplay.distributed import store

    futures = {}
    for tile in tiles:
        deps = [futures[k] for k in tile.deps]
        futures[tile.key] = client.submit(
            tile.func, *tile.args, *deps, key=_task_key(run, tile.key), workers=[addresses[tile.owner]],
            allow_other_workers=False, pure=False, priority=-len(futures))
    kept = {t.key: futures[t.key] for t in tiles if t.keep}
    progress.start(title, len(tiles))
    pending = as_completed(list(futures.values()), loop=client.loop)
    futures.clear()  # the scheduler keeps a boundary while a dependent still needs it
    try:
        for fut in pending:
            if fut.status == "error":
                fut.result()  # raises the tile's exception
            progress.advance()
    except BaseException:
        client.cancel(list(kept.values()))
        client.run(store.release, run)
        raise
    return kept


def bounds(target: int, size: int) -> list[tuple[int, int]]:
    """``[lo, hi)`` ranges of ``size`` covering ``1..target``.

    >>> bounds(5, 2)
    [(1, 3), (3, 5), (5, 6)]
    """
    return [(lo, min(lo + size, target + 1)) for lo in range(1, target + 1, size)]


def with_none(func, deps):
    """``func`` taking None for the absent dependencies (first strip, first block)."""
    return _Positional(func, tuple(d is not None for d in deps))


class _Positional:
    """Call ``func(*args, *deps)`` with None where a dependency is absent (picklable)."""

    def __init__(self, func, present):
        self.func, self.present = func, present

    def __call__(self, *args):
        n = sum(self.present)
        fixed, got = args[:len(args) - n], list(args[len(args) - n:])
        return self.func(*fixed, *[got.pop(0) if p else None for p in self.present])
