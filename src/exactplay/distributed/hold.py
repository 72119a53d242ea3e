"""Hold or Continue? on Dask: the score pairs of equal sum, two sums at a time.

The serial solver (:func:`exactplay.games.hold.solver.solve_table`) solves the pairs
``{c, h}`` by decreasing ``c + h``: a hold from ``(c, h)`` with turn total ``x >= 2``
leads to ``(h, c + x)``, so pair ``{c, h}`` reads ``V(h, y)`` for ``y >= c + 2`` and
``V(c, y)`` for ``y >= h + 2`` -- pairs of score sum at least ``c + h + 2`` -- and its
own two values (the 2-cycle it solves).  So the pairs of sums ``2g + 1`` and ``2g``
(**group** g) depend only on groups above g, and a group's pairs are independent.

A run cuts each group into **tiles** of at most ``size`` pairs (taken with a stride, so
that long and short turns mix), placed round-robin on the workers.  A pair reads rows
``c`` and ``h`` of V at every column above, and the pairs of one row are spread over
every tile, so there is no smaller boundary than the values themselves: every worker
keeps a **replica** of V (and of the fixed-point shadow), and a tile's **boundary** is
its pairs' two exact values (GMP binary), delivered once to each other worker, where the
first tile that needs them stores them.  A tile of group g waits for the tiles of
higher groups on the other workers not yet delivered to its worker, and for its worker's
previous tile (whose inputs are then already stored).  The serial run first solves the
whole game in float (policy iteration per pair, from the pass value 1/2) and uses the
float policies as the exact solver's first guesses; the float pairs have the same
dependencies, so a tile solves each of its pairs in float first (on a float replica;
float values travel too, as their IEEE bytes), then exactly from that guess.

Each pair is solved by the serial solver's own :func:`~exactplay.games.hold.solver.solve_pair`
from the same values, so values, policies, policy rounds, repairs and exact fallbacks are
the serial run's.
"""

from __future__ import annotations

import time
from array import array

from exactplay.distributed import store
from exactplay.distributed.tiles import Tile, new_run, run_tiles
from exactplay.distributed.wire import pack_floats, pack_numbers, unpack_floats, unpack_numbers
from exactplay.games.hold.recurrence import alive_scores
from exactplay.games.hold.solver import Fixed, HoldTable, pair_order, solve_pair, store_pair
from exactplay.numbers.backends import get_backend
from exactplay.progress import SILENT


def groups(target: int) -> list[list[tuple[int, int]]]:
    """The pairs ``(c, h)``, ``c <= h``, in the serial order, cut into groups of sums ``2g + 1, 2g``.

    >>> groups(3)
    [[(2, 2)], [(1, 2), (0, 2), (1, 1)], [(0, 1), (0, 0)]]
    """
    out: dict = {}
    for c, h in pair_order(target):
        out.setdefault((c + h) // 2, []).append((c, h))
    return [out[g] for g in sorted(out, reverse=True)]


def default_size(target: int, workers: int) -> int:
    """Pairs per tile: one tile per worker in the largest group.

    >>> default_size(100, 2), default_size(3, 4)
    (50, 1)
    """
    return max(1, -(-target // workers))


def plan(target: int, workers: int, size: int) -> list[tuple]:
    """The tiles ``(key, group, owner, pairs, deps)`` in submission order.

    ``deps``: the worker's previous tile (none for its first), then the other workers'
    tiles of higher groups not yet delivered to this worker.
    """
    tiles, last, pending = [], {}, {w: [] for w in range(workers)}
    for g, pairs in enumerate(groups(target)):
        k = -(-len(pairs) // size)
        for i in range(k):
            w = (g + i) % workers
            key = ("p", g, i)
            deps = ([last[w]] if w in last else []) + [d for d in pending[w] if d[1] < g]
            pending[w] = [d for d in pending[w] if d[1] == g]
            tiles.append((key, g, w, tuple(pairs[i::k]), tuple(deps)))
            last[w] = key
            for v in range(workers):
                if v != w:
                    pending[v].append(key)
    return tiles


class _Replica:
    """One worker's copy of V and of its fixed-point shadow, and its own pairs' results."""

    def __init__(self, spec):
        T, F, backend = spec
        self.B = get_backend(backend)
        self.F = F
        self.alive = alive_scores(T, F)
        self.V = [[self.B.zero] * T for _ in range(T)]
        self.fx = Fixed(T, self.alive) if self.B.exact else None
        self.Bf = get_backend("float")
        self.Vf = [[0.0] * T for _ in range(T)]  # the float solver's table, the first guesses'
        self.own = []  # (c, h, pol_c, pol_h, rounds, repaired), in the order solved
        self.cpu = 0.0  # seconds of CPU in the tiles (storing others' values, solving, packing)
        self.store_cpu = 0.0  # of which storing the other workers' values into the replica
        self.sent = 0  # bytes of boundary delivered to other workers


def float_guess(rp: "_Replica", c: int, h: int):
    """Pair ``{c, h}`` solved in float as the serial run's float table does (stored in the float
    replica); its two policies, the exact solver's first guess."""
    U, W, pol_c, pol_h, *_ = solve_pair(rp.Bf, rp.F, rp.Vf, rp.alive, None, c, h, None)
    store_pair(rp.Bf, rp.Vf, None, c, h, U, W)
    return pol_c, pol_h


def hold_tile(run: str, spec: tuple, owner: int, pairs: tuple, receivers: int, has_prev: bool, *deps) -> tuple:
    """Solve ``pairs`` (in float, then exactly) on this worker's replica; return their values.

    ``deps``: the previous tile on this worker (when ``has_prev``; its values are here
    already), then the boundaries of other workers' tiles, stored into the replica first.
    """
    start = time.process_time()
    rp = store.state(run, owner, lambda: _Replica(spec))
    B, V, fx, alive = rp.B, rp.V, rp.fx, rp.alive
    for boundary in deps[1:] if has_prev else deps:
        _store(rp, *boundary)
    rp.store_cpu += time.process_time() - start
    out = []
    for c, h in pairs:
        guess = float_guess(rp, c, h)
        guess = guess if alive[c] and alive[h] else None
        U, W, pol_c, pol_h, _, _, rounds, repaired = solve_pair(B, rp.F, V, alive, fx, c, h, guess)
        store_pair(B, V, fx, c, h, U, W)
        rp.own.append((c, h, pol_c, pol_h, rounds, repaired))
        out += (U, W)
    result = (array("H", (x for p in pairs for x in p)).tobytes(), pack_numbers(out),
              pack_floats([x for c, h in pairs for x in (rp.Vf[c][h], rp.Vf[h][c])]))
    rp.sent += sum(map(len, result)) * receivers
    rp.cpu += time.process_time() - start
    return result


def _store(rp: _Replica, cs: bytes, values: bytes, floats: bytes) -> None:
    idx = array("H")
    idx.frombytes(cs)
    vals, fvals = unpack_numbers(values), unpack_floats(floats)
    for k in range(0, len(idx), 2):
        store_pair(rp.B, rp.V, rp.fx, idx[k], idx[k + 1], vals[k], vals[k + 1])
        store_pair(rp.Bf, rp.Vf, None, idx[k], idx[k + 1], fvals[k], fvals[k + 1])


def hold_collect(run: str, owner: int, _last) -> tuple:
    """This worker's pairs: their values, policies, rounds and repairs; its exact fallbacks (state dropped)."""
    rp = store.take(run, owner)
    own = rp.own
    values = pack_numbers([x for c, h, *_ in own for x in (rp.V[c][h], rp.V[h][c])])
    return own_rows(own), values, (rp.fx.fallbacks if rp.fx is not None else 0), (rp.cpu, rp.sent, rp.store_cpu)


def own_rows(own) -> tuple:
    """``own`` as compact columns: pairs (uint16), policy strings, rounds (uint8), repairs."""
    return (array("H", (x for c, h, *_ in own for x in (c, h))).tobytes(),
            "\n".join(f"{pc}\n{ph}" for _, _, pc, ph, _, _ in own),
            array("B", (r for *_, r, _ in own)).tobytes(), sum(o[5] for o in own))


def solve_table(target: int, faces: int = 6, backend="mpq", progress=SILENT, *, client,
                size: int | None = None) -> HoldTable:
    """:func:`exactplay.games.hold.tables.exact_table` (float policies as first guesses, then the
    exact pairs) on the workers of ``client``, ``size`` pairs per tile: the same :class:`HoldTable`."""
    from exactplay.distributed.cluster import worker_addresses

    B = get_backend(backend)
    T, F = target, faces
    addresses = worker_addresses(client)
    W = len(addresses)
    size = size or default_size(T, W)
    spec = (T, F, B.name)
    run = new_run("hold")
    steps = plan(T, W, size)
    owner = {key: w for key, _, w, _, _ in steps}
    receivers = {}
    for key, _, w, _, deps in steps:
        for d in deps:
            if owner[d] != w:
                receivers[d] = receivers.get(d, 0) + 1
    tiles = []
    for key, g, w, pairs, deps in steps:
        has_prev = bool(deps) and owner[deps[0]] == w
        tiles.append(Tile(key, hold_tile, (run, spec, w, pairs, receivers.get(key, 0), has_prev), w, deps))
    lasts = {w: key for key, _, w, _, _ in steps}
    tiles += [Tile(("c", w), hold_collect, (run, w), w, (lasts[w],), keep=True) for w in sorted(lasts)]
    title = f"hold {T}/{F} on {W} Dask workers: {len(steps)} tiles of <= {size} pairs"
    kept = run_tiles(client, run, tiles, addresses, progress, title)
    progress.start("gathering the table from the workers", None)
    parts = client.gather([kept[("c", w)] for w in sorted(lasts)], direct=True)
    table = _assemble(B, T, F, parts)
    table.dask_stats = {"workers": W, "tile": size, "tiles": len(steps), "groups": len(groups(T)),
                        "tile_cpu": sum(p[3][0] for p in parts), "boundary_bytes": sum(p[3][1] for p in parts),
                        "store_cpu": sum(p[3][2] for p in parts)}
    return table


def _assemble(B, T, F, parts) -> HoldTable:
    alive = alive_scores(T, F)
    V = [[B.zero] * T for _ in range(T)]
    policy = [[""] * T for _ in range(T)]
    table = HoldTable(T, F, B.name, alive, V, policy)
    rounds = {}
    for (cs, pols, rs, repairs), values, fallbacks, _ in parts:
        idx, rr = array("H"), array("B")
        idx.frombytes(cs)
        rr.frombytes(rs)
        vals, ps = unpack_numbers(values), pols.split("\n") if pols else []
        for k in range(len(rr)):
            c, h = idx[2 * k], idx[2 * k + 1]
            V[c][h], V[h][c] = vals[2 * k], vals[2 * k + 1]
            policy[c][h], policy[h][c] = ps[2 * k], ps[2 * k + 1]
            if rr[k]:
                rounds[(c, h)] = rr[k]
        table.repairs += repairs
        table.exact_fallbacks += fallbacks
    table.rounds = {p: rounds[p] for p in pair_order(T) if p in rounds}  # the serial run's order
    return table
