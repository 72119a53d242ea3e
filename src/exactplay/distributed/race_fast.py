"""The Race's fast exact table on Dask: unreduced numerators, tile by tile.

The serial fast path (:mod:`exactplay.games.race.exact`) keeps ``F(a, b) = n / D`` with
``D = prod p^e_p`` over the primes of the numbers ``2^t + 1``, never reduced, and solves
one anti-diagonal ``a + b = s`` at a time.  Here the table is cut as in
:mod:`exactplay.distributed.race`: strips of ``h`` rows on one worker each (strip I on
worker ``I mod W``), blocks of ``w`` columns; tile ``(I, J)`` runs
:func:`~exactplay.games.race.exact.antidiagonal` restricted to its rows and columns, for
its anti-diagonals in increasing order (a tile taller than the serial run's band of rows
in bands of that many rows, one after the other).  A cell reads ``F(a-1, b)`` (the row above) and
``H(a, b - d)``, ``G(a, b - d)`` (its own row, to the left: this worker's), so the only
values crossing workers are the **boundary** of a tile, the last row of its strip on its
columns, and it travels as

* the numerators ``n`` as GMP binary (:mod:`~exactplay.distributed.wire`);
* the exponent vectors ``e`` of the denominators (packed integers, fixed-width bytes);
  the receiver rebuilds ``D = prod p^e_p`` (:func:`denominator`), so the wire carries
  ``n`` and a few bytes per cell instead of ``n`` and ``D``;
* the float shadows ``F`` and ``1 - F`` as their IEEE bytes.

Every worker keeps one :class:`~exactplay.games.race.exact.RaceState` per run (its
strips' rows; the boundary rows it received), so each cell sees the inputs the serial run
gives it, and values, choices and candidates are the serial run's.  The one piece of state
that is global in the serial run, the smallest shadow written so far (it only switches on
the subnormal guard of :func:`~exactplay.games.race.exact.shadow_filter`), is lowered by
every boundary received too: the guard is on wherever an input can be tiny.
"""

from __future__ import annotations

import time
from array import array

import numpy as np
from gmpy2 import mpz

from exactplay.distributed import store
from exactplay.distributed.tiles import Tile, bounds, new_run, run_tiles, with_none
from exactplay.distributed.wire import pack_numbers, unpack_numbers
from exactplay.games.race import exact
from exactplay.games.race.denominators import LANE
from exactplay.games.race.fast_table import table_of
from exactplay.progress import SILENT


def denominator(e: int, primes) -> mpz:
    """``prod p^e_p`` for the packed exponent vector ``e`` (lane i: the exponent of ``primes[i]``).

    >>> from exactplay.games.race.denominators import pack
    >>> denominator(pack((2, 0, 1)), (3, 5, 17))
    mpz(153)
    """
    v, mask = mpz(1), (1 << LANE) - 1
    for p in primes:
        k = e & mask
        if k:
            v *= mpz(p) ** k
        e >>= LANE
        if not e:
            break
    return v


def _exp_width(primes) -> int:
    return (LANE * len(primes) + 7) // 8


def pack_exponents(es, primes) -> bytes:
    """Packed exponent vectors as fixed-width little-endian bytes.

    >>> unpack_exponents(pack_exponents([0, 5, 1 << 47], (3, 5)), (3, 5))
    [0, 5, 140737488355328]
    """
    w = _exp_width(primes)
    return b"".join(int(e).to_bytes(w, "little") for e in es)


def unpack_exponents(data: bytes, primes) -> list[int]:
    w = _exp_width(primes)
    return [int.from_bytes(data[i:i + w], "little") for i in range(0, len(data), w)]


class _Worker:
    """One worker's share of a run: a RaceState holding its strips' rows (and received boundaries)."""

    def __init__(self, spec):
        N, t_max, keep_candidates, keep_table, strips = spec
        self.st = exact.RaceState.start(N, t_max, keep_candidates)
        self.st.keep_table = keep_table
        self.strips_left = strips  # strips of this worker not yet collected
        self.cpu = 0.0  # seconds of CPU in the tiles' own work (unpacking, solving, packing)
        self.sent = 0  # bytes of boundary returned


def fast_tile(run: str, spec: tuple, owner: int, i0: int, i1: int, b0: int, b1: int, above, _left) -> tuple:
    """Solve rows ``i0..i1-1`` on columns ``b0..b1-1``; return the last row's boundary.

    ``above``: the boundary of tile ``(I-1, J)`` (None on the first strip: row 0 is in the
    state); ``_left``: tile ``(I, J-1)``, only for the order (its rows are already here).
    """
    start = time.process_time()
    wk = store.state(run, owner, lambda: _Worker(spec))
    st = wk.st
    N, last = st.N, i1 - 1
    if b0 == 1:
        st.open_rows(i0, last)
    if above is not None:
        _receive(st, i0 - 1, b0, b1, above)
    band = exact.default_band(N)  # rows solved together, as in the serial run (a tall tile in bands)
    for a0 in range(i0, i1, band):
        a1 = min(last, a0 + band - 1)
        for s in range(a0 + b0, a1 + b1):
            exact.antidiagonal(st, s, (a0, a1), (b0, b1 - 1))
    FC = st.shadow[0]
    out = (pack_numbers(st.Fn[last][b0:b1]), pack_exponents(st.Fe[last][b0:b1], st.primes),
           np.ascontiguousarray(FC[:, last, b0:b1]).tobytes())
    if not st.keep_table and last < N - 1:  # read by the next strip only, from the boundary
        st.Fn[last][b0:b1] = st.FD[last][b0:b1] = [None] * (b1 - b0)
    if b1 == N + 1:  # H is read inside its own row only
        for a in range(i0, i1):
            st.Hn[a] = st.He[a] = None
    wk.sent += sum(map(len, out))
    wk.cpu += time.process_time() - start
    return out


def _receive(st, row: int, b0: int, b1: int, boundary) -> None:
    """Row ``row`` of F on columns ``b0..b1-1`` from another tile's boundary."""
    nums, exps, floats = boundary
    N = st.N
    if st.Fn[row] is None:
        st.Fn[row], st.FD[row], st.Fe[row] = [None] * (N + 1), [None] * (N + 1), [0] * (N + 1)
    es = unpack_exponents(exps, st.primes)
    st.Fn[row][b0:b1] = unpack_numbers(nums)
    st.Fe[row][b0:b1] = es
    st.FD[row][b0:b1] = [denominator(e, st.primes) for e in es]
    shadows = np.frombuffer(floats, dtype=np.float64).reshape(2, b1 - b0)
    st.shadow[0][:, row, b0:b1] = shadows
    if shadows.size:
        st.smallest = min(st.smallest, float(shadows.min()))


def fast_collect(run: str, owner: int, i0: int, i1: int, rows: tuple, _last) -> tuple:
    """The strip's results: F as ``(n, D)`` on the rows in ``rows``, every cell's chosen t, and the
    candidates when kept; the worker's state is dropped with its last strip."""
    wk = store.state(run, owner, lambda: None)
    st = wk.st
    N = st.N
    mine = [a for a in range(i0, i1) if a in rows]
    values = pack_numbers([x for a in mine for x in st.Fn[a][1:] + st.FD[a][1:]])
    best = array("B", (t for a in range(i0, i1) for t in st.best_t[a][1:])).tobytes()
    cands = None
    if st.keep_candidates:  # {t: (n, D)} per cell, row-major
        cs = [st.cands.pop((a, b)) for a in range(i0, i1) for b in range(1, N + 1)]
        cands = (array("B", map(len, cs)).tobytes(), array("B", (t for c in cs for t in c)).tobytes(),
                 pack_numbers([x for c in cs for nD in c.values() for x in nD]))
    for a in range(i0, i1):  # this strip's rows (the boundary row above may be another strip's, here too)
        st.Fn[a] = st.FD[a] = st.Fe[a] = None
    stats = (wk.cpu, wk.sent)
    wk.cpu, wk.sent = 0.0, 0
    wk.strips_left -= 1
    if not wk.strips_left:
        store.take(run, owner)
    return mine, values, best, cands, stats


def solve_table(N: int, B, t_max: int, keep_candidates: bool, progress=SILENT, *, client, size: int,
                rows=None):
    """:func:`exactplay.games.race.fast_table.solve_table_fast` on the workers of ``client``: the
    same :class:`~exactplay.games.race.RaceTable` (F and G as ``mpq`` made when read), tiles of
    ``size`` x ``size`` cells; ``rows``: the rows of F brought back (default all)."""
    from exactplay.distributed.cluster import worker_addresses

    addresses = worker_addresses(client)
    W = len(addresses)
    strips, blocks = bounds(N, size), bounds(N, size)
    rows = tuple(range(N + 1)) if rows is None else tuple(rows)
    keep_table = any(a not in (N - 1, N) for a in rows)
    run = new_run("racefast")
    tiles = []
    for I, (i0, i1) in enumerate(strips):
        w = I % W
        spec = (N, t_max, keep_candidates, keep_table, len(range(w, len(strips), W)))
        for J, (b0, b1) in enumerate(blocks):
            deps = (("t", I - 1, J) if I else None, ("t", I, J - 1) if J else None)
            tiles.append(Tile(("t", I, J), with_none(fast_tile, deps), (run, spec, w, i0, i1, b0, b1), w,
                              tuple(d for d in deps if d)))
        tiles.append(Tile(("c", I), fast_collect, (run, w, i0, i1, rows), w, (("t", I, len(blocks) - 1),),
                          keep=True))
    title = f"race {N} on {W} Dask workers: {len(strips)}x{len(blocks)} tiles of {size}"
    kept = run_tiles(client, run, tiles, addresses, progress, title)
    progress.start("gathering the table from the workers", None)
    parts = client.gather([kept[("c", I)] for I in range(len(strips))], direct=True)
    table = _assemble(N, B, t_max, keep_candidates, strips, parts)
    table.dask_stats = {"workers": W, "tile": size, "tiles": len(strips) * len(blocks),
                        "tile_cpu": sum(p[4][0] for p in parts), "boundary_bytes": sum(p[4][1] for p in parts)}
    return table


def _assemble(N, B, t_max, keep, strips, parts):
    Fn, FD = [None] * (N + 1), [None] * (N + 1)
    Fn[0], FD[0] = [mpz(0)] * (N + 1), [mpz(1)] * (N + 1)
    best_t = [[0] * (N + 1) for _ in range(N + 1)]
    cands = {} if keep else None
    for (i0, i1), (mine, values, best, cand, _) in zip(strips, parts):
        vals = unpack_numbers(values) if mine else []
        for k, a in enumerate(mine):
            row = vals[2 * N * k:2 * N * (k + 1)]
            Fn[a], FD[a] = [mpz(1)] + row[:N], [mpz(1)] + row[N:]
        bt = array("B")
        bt.frombytes(best)
        for k, a in enumerate(range(i0, i1)):
            best_t[a][1:] = bt[N * k:N * (k + 1)]
        if keep:
            counts, ts, nums = array("B"), array("B"), unpack_numbers(cand[2])
            counts.frombytes(cand[0])
            ts.frombytes(cand[1])
            pos = 0
            for cell, n in zip(((a, b) for a in range(i0, i1) for b in range(1, N + 1)), counts):
                cands[cell] = {t: (nums[2 * j], nums[2 * j + 1]) for j, t in zip(range(pos, pos + n), ts[pos:pos + n])}
                pos += n
    return table_of(N, B, t_max, Fn, FD, best_t, cands)
