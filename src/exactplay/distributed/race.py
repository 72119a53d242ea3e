"""The Race's table on Dask: strips of rows, blocks of columns.

Cell ``(a, b)`` reads ``F(a-1, b)`` (the row above, same column) and ``G(a, b - d_t)``
(its own row, to the left).  Cut rows ``1..N`` into strips of ``h`` rows and columns
into blocks of ``w``: tile ``(I, J)`` is strip I's rows on block J's columns.  Strip I
lives on worker ``I mod W`` (its rows of F, G and the float shadows stay there), so the
leftward reads are local, and the only value crossing workers is the **boundary**: the
last row of tile ``(I, J)`` -- ``F`` and its float shadows ``F``, ``1 - F`` on ``w``
columns -- which tile ``(I+1, J)`` reads.  Tiles ``(I, J)`` with equal ``I + J`` are
independent (anti-diagonals of tiles), so W workers work in a pipelined wavefront.

Each cell is filled by the serial solver's own :func:`exactplay.games.race.fill_cells`
from the same inputs (exact numbers as GMP binary, floats as their bits), so every value,
choice and candidate equals the serial run's.
"""

from __future__ import annotations

import time
from array import array

from exactplay.distributed import store
from exactplay.distributed.tiles import Tile, bounds, new_run, run_tiles, with_none
from exactplay.distributed.wire import pack_floats, pack_numbers, unpack_floats, unpack_numbers
from exactplay.games import race as _race
from exactplay.numbers.backends import Backend, get_backend
from exactplay.progress import SILENT


def default_tile(target: int, workers: int) -> int:
    """Tile side: about 4 strips per worker, at least 8 rows.

    >>> default_tile(400, 2), default_tile(10, 2)
    (50, 8)
    """
    return max(8, -(-target // (4 * workers)))


class _Strip:
    """Rows ``i0-1 .. i1-1`` of the table on one worker (row ``i0-1``: the boundary above)."""

    def __init__(self, spec, i0: int, i1: int):
        target, backend, t_max, shadow, keep = spec
        self.B = get_backend(backend)
        self.keep = keep
        self.i0, self.i1 = i0, i1
        self.table, self.tables, self.gains = _race.start_table(self.B, target, t_max, shadow, range(i0 - 1, i1))
        self.cpu = 0.0  # seconds of CPU in the tiles' own work (unpacking, filling, packing)
        self.sent = 0  # bytes of boundary returned


def race_tile(run: str, spec: tuple, i0: int, i1: int, b0: int, b1: int, above, _left) -> bytes:
    """Fill rows ``i0..i1-1`` on columns ``b0..b1-1``; return the last row's boundary.

    ``above``: the boundary of the tile above (None for the first strip: row 0 is 0).
    ``_left``: the tile to the left (only orders the tasks; its state is already here).
    """
    start = time.process_time()
    st = store.state(run, i0, lambda: _Strip(spec, i0, i1))
    F, tables = st.table.F, st.tables
    if above is not None:
        nums, floats = above
        F[i0 - 1][b0:b1] = unpack_numbers(nums)
        if tables is not None:
            sf = unpack_floats(floats)
            w = b1 - b0
            tables[0][i0 - 1][b0:b1], tables[2][i0 - 1][b0:b1] = sf[:w], sf[w:]
    for a in range(i0, i1):
        _race.fill_cells(st.B, st.table, tables, a, b0, b1, st.gains, st.keep)
    last = i1 - 1
    floats = b"" if tables is None else pack_floats(tables[0][last][b0:b1] + tables[2][last][b0:b1])
    out = pack_numbers(F[last][b0:b1]), floats
    st.sent += len(out[0]) + len(out[1])
    st.cpu += time.process_time() - start
    return out


def race_collect(run: str, i0: int, rows: tuple, _last) -> tuple:
    """The strip's results (and its state dropped): F and G on the rows in ``rows``,
    every cell's chosen t, and the candidates when kept."""
    st = store.take(run, i0)
    N = st.table.target
    mine = [a for a in range(st.i0, st.i1) if a in rows]
    values = pack_numbers([x for a in mine for x in st.table.F[a][1:] + st.table.G[a][1:]])
    best = array("B", (st.table.best_t[(a, b)] for a in range(st.i0, st.i1) for b in range(1, N + 1))).tobytes()
    cands = None
    if st.keep:
        order = [(a, b) for a in range(st.i0, st.i1) for b in range(1, N + 1)]
        ts = [list(st.table.candidates[c]) for c in order]
        cands = (array("B", map(len, ts)).tobytes(), array("B", (t for x in ts for t in x)).tobytes(),
                 pack_numbers([v for c in order for v in st.table.candidates[c].values()]))
    return mine, values, best, cands, (st.cpu, st.sent)


def solve_table(target: int, backend: Backend | str = "mpq", t_max: int | None = None, keep_candidates: bool = False,
                progress=SILENT, shadow: bool = True, reference: bool = False, *, client, tile: int | None = None,
                rows=None) -> _race.RaceTable:
    """:func:`exactplay.games.race.solve_table` on the workers of ``client``.

    ``tile``: the side of a tile (default :func:`default_tile`).  ``rows``: the rows of F
    and G brought back (default all; the others are None -- ``solve`` needs only N-1, N).
    The chosen t of every cell, and the candidates when kept, always come back.
    In ``mpq`` (unless ``reference`` or ``shadow=False``, as in the serial
    :func:`~exactplay.games.race.solve_table`) the tiles run the fast exact table
    (:mod:`exactplay.distributed.race_fast`); otherwise the reference recurrence below.
    """
    from exactplay.distributed.cluster import worker_addresses

    B = get_backend(backend)
    N = target
    addresses = worker_addresses(client)
    W = len(addresses)
    size = tile or default_tile(N, W)
    t_max = _race.t_limit(N) if t_max is None else t_max
    if B.name == "mpq" and shadow and not reference:  # the serial run's fast path, tile by tile
        from exactplay.distributed import race_fast

        return race_fast.solve_table(N, B, t_max, keep_candidates, progress, client=client, size=size, rows=rows)
    spec = (N, B.name, t_max, shadow, keep_candidates)
    strips, blocks = bounds(N, size), bounds(N, size)
    run = new_run("race")
    tiles = []
    for I, (i0, i1) in enumerate(strips):
        for J, (b0, b1) in enumerate(blocks):
            deps = (("t", I - 1, J) if I else None, ("t", I, J - 1) if J else None)
            tiles.append(Tile(("t", I, J), with_none(race_tile, deps), (run, spec, i0, i1, b0, b1), I % W,
                              tuple(d for d in deps if d)))
        tiles.append(Tile(("c", I), race_collect, (run, i0, tuple(range(N + 1) if rows is None else rows)), I % W,
                          (("t", I, len(blocks) - 1),), keep=True))
    title = (f"race target {N} ({B.name}) on {W} Dask workers: {len(strips)}x{len(blocks)} tiles "
             f"of {size}x{size} cells")
    kept = run_tiles(client, run, tiles, addresses, progress, title)
    progress.start("gathering the table from the workers", None)
    parts = client.gather([kept[("c", I)] for I in range(len(strips))], direct=True)
    table = _assemble(B, N, t_max, keep_candidates, strips, parts)
    table.dask_stats = {"workers": W, "tile": size, "tiles": len(strips) * len(blocks),
                        "tile_cpu": sum(p[4][0] for p in parts), "boundary_bytes": sum(p[4][1] for p in parts)}
    return table


def _assemble(B, N, t_max, keep, strips, parts) -> _race.RaceTable:
    F = [None] * (N + 1)
    G = [None] * (N + 1)
    F[0] = [B.zero] * (N + 1)
    G[0] = [B.zero] * (N + 1)
    table = _race.RaceTable(N, B.name, t_max, F, G)
    for (i0, i1), (mine, values, best, cands, _) in zip(strips, parts):
        vals = unpack_numbers(values) if mine else []
        for k, a in enumerate(mine):
            row = vals[2 * N * k:2 * N * (k + 1)]
            F[a] = [B.one] + row[:N]
            G[a] = [B.one] + row[N:]
        bt = array("B")
        bt.frombytes(best)
        order = [(a, b) for a in range(i0, i1) for b in range(1, N + 1)]
        table.best_t.update(zip(order, bt))
        if keep:
            counts, ts, nums = array("B"), array("B"), unpack_numbers(cands[2])
            counts.frombytes(cands[0])
            ts.frombytes(cands[1])
            pos = 0
            for cell, n in zip(order, counts):
                table.candidates[cell] = dict(zip(ts[pos:pos + n], nums[pos:pos + n]))
                pos += n
    return table
