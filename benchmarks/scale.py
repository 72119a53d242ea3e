"""Benchmark: serial vs a 2-worker Dask LocalCluster, and a paper estimate for 32 workers.

For race (the ``solve`` path on the fast exact table: rows N-1 and N brought back; at
``--race`` and ``--race-large``, and once the reference recurrence on Dask, what the
distributed race ran before), hold (the float table, then the exact one guided by it)
and chefs (the fast solver), prints for the serial run and for each tile size on a
LocalCluster of 2 worker processes:

  wall      wall-clock seconds (the cluster's start-up is printed once, apart)
  cpu       CPU seconds: serial = this process; Dask = client + scheduler + both workers
  tile cpu  CPU inside the tile functions (race: unpack, the game's per-cell code, pack;
            hold: storing the other workers' values in this worker's replica -- printed
            apart -- the float and exact pairs, pack; chefs: the per-set code -- a layer
            is packed when Dask sends it, "packing")
  overhead  Dask cpu - serial cpu, in all and per tile (scheduling, transfers, packing), and
            the part an idle cluster would spend in the same wall-clock time (heartbeats)
  sent      boundary bytes delivered to other workers
  speed-up  serial wall / Dask wall;  cpu ratio  serial cpu / Dask cpu

The machine is shared (its load average is printed): wall-clock figures move with the load,
CPU figures much less (``--repeat R`` keeps each configuration's run with the least CPU).
Then the arithmetic for chefs n = 18 on 32 workers, from figures measured in this run
(chefs only).

Measured on 2026-11-30 (2 cores, load average 8 to 11 from other users: wall-clock
figures are the machine's, not Dask's; ``--chefs 0 --race-large 0 --repeat 3``, then
``--chefs 0 --race 0 --hold 0``).  Idle cluster: 0.054 s of CPU per wall-clock second.

  race 400    serial 1.67 s cpu; tile 25: 4.32 s (256 tiles, +2.66 s, 10 ms/tile, 2.8 MB),
              50: 2.88 s (64, +1.21 s), 100: 2.12 s (16, +0.45 s), 200: 1.83 s (4, +0.16 s,
              0.4 MB); the reference recurrence on Dask (before), tile 200: 15.06 s
  race 1000   serial 21.61 s cpu; tile 125: 25.04 s (64 tiles, tile cpu 22.78 s, +3.43 s of
              which 2.25 s idle cluster, 10.4 MB), 250: 25.26 s (16), 500: 25.87 s (4)
  hold 100/6  serial 8.57 s cpu; 5 pairs a tile: 18.96 s (1050 tiles, +10.40 s), 10: 17.07 s
              (550, +8.50 s), 25: 15.75 s (250, +7.19 s), 50: 13.94 s (150, +5.38 s; tile
              cpu 10.79 s, of which 1.58 s storing others' values); 26.0 MB sent each

So on two cores the distributed runs cost more CPU than the serial ones, as expected:
race +10% to +20% (tiles of 100 cells or more; at 1000 the tiles themselves take 5-6% more
than the serial run) to +160% (tiles of 25: the per-anti-diagonal numpy step works on
25 cells instead of up to 128, and ~10 ms of Dask per tile); hold +63% at the default
(50 pairs a tile): the replicas (every worker stores every value the other computed:
rebuilding an ``mpq`` from GMP binary costs its gcd, ~1.6 s) and ~13 ms of Dask per tile
beyond the idle share.  Wall-clock on this loaded machine: 0.5x to 1.1x of serial.

    python benchmarks/scale.py [--race N] [--race-large N] [--race-tiles 25,50,..] [--race-reference TILE]
                               [--hold T] [--hold-faces F] [--hold-sizes 5,10,..]
                               [--chefs n] [--chefs-splits 1,2,..] [--engine MOD:FACTORY NAME=VALUE ...]
                               [--repeat R]
"""

from __future__ import annotations

import argparse
import math
import os
import time

from exactplay.distributed import chefs as dchefs
from exactplay.distributed import race as drace
from exactplay.distributed.cluster import dask_client
from exactplay.games import race
from exactplay.games.chefs import fast, fibonacci_skills

GROWTH_TIME_PER_CHEF = 3.9  # issue 13: chefs time grows x3.9 per chef (measured on main)
GROWTH_MEMORY_PER_CHEF = 3.0  # and memory x3
LINK_BYTES_PER_S = 1.25e9  # 10 Gbit/s Ethernet per worker


def worker_cpu(client) -> float:
    return sum(client.run(time.process_time).values())


def serial_run(f):
    w, c = time.perf_counter(), time.process_time()
    out = f()
    return out, time.perf_counter() - w, time.process_time() - c


REPEAT = {"n": 1}  # runs of each configuration; the one with the least CPU is printed (the machine is shared)


def serial_best(f):
    return min((serial_run(f) for _ in range(REPEAT["n"])), key=lambda r: r[2])


def dask_run(client, f):
    runs = []
    for _ in range(REPEAT["n"]):
        before = worker_cpu(client)
        out, wall, cpu = serial_run(f)
        runs.append((out, wall, cpu + worker_cpu(client) - before))
    return min(runs, key=lambda r: r[2])


IDLE = {"rate": 0.0}  # CPU seconds per wall second of the idle cluster (client + scheduler + workers)


def idle_rate(client, seconds: float = 5.0) -> float:
    """CPU per wall second of the cluster doing nothing (heartbeats, event loops): a part of every
    run's overhead that grows with its wall-clock time, not with its tiles."""
    before, mine = worker_cpu(client), time.process_time()
    time.sleep(seconds)
    return (worker_cpu(client) - before + time.process_time() - mine) / seconds


def row(label, wall, cpu, serial=None, stats=None):
    line = f"  {label:<22} wall {wall:8.2f} s  cpu {cpu:8.2f} s"
    if stats:
        over = cpu - serial[1]
        line += (f"  tile cpu {stats['tile_cpu']:8.2f} s  tiles {stats['tiles']:5d}  overhead {over:+7.2f} s "
                 f"({1000 * over / stats['tiles']:+7.1f} ms/tile; idle cluster {IDLE['rate'] * wall:.2f} s)  "
                 f"sent {stats['boundary_bytes'] / 1e6:8.1f} MB"
                 + (f" (packing {stats['pack_cpu']:.2f} s)" if "pack_cpu" in stats else "")
                 + (f" (storing in the replicas {stats['store_cpu']:.2f} s)" if "store_cpu" in stats else "") + "  "
                 f"speed-up {serial[0] / wall:4.2f}x  cpu ratio {serial[1] / cpu:4.2f}")
    print(line, flush=True)


def bench_race(client, N, tiles, reference_tile=None):
    print(f"race, target {N} (solve: the fast exact table, rows N-1 and N brought back)")
    table, *s = serial_best(lambda: race.solve_table(N, keep_table=False))
    row("serial", *s)
    for t in tiles:
        d, wall, cpu = dask_run(client, lambda: drace.solve_table(N, client=client, tile=t, rows=(N - 1, N)))
        assert d.answer == table.answer and d.best_t == table.best_t, "distributed result differs"
        row(f"dask 2 workers tile {t}", wall, cpu, s, d.dask_stats)
    if reference_tile:  # what the distributed race ran before it had the fast table
        d, wall, cpu = dask_run(client, lambda: drace.solve_table(N, client=client, tile=reference_tile,
                                                                  rows=(N - 1, N), reference=True))
        assert d.answer == table.answer and d.best_t == table.best_t, "distributed result differs"
        row(f"reference recurrence, tile {reference_tile}", wall, cpu, s, d.dask_stats)


def bench_hold(client, T, F, sizes):
    from exactplay.distributed import hold as dhold
    from exactplay.games.hold import solver

    print(f"hold, target {T}, faces {F} (solve: the float table, then the exact one guided by it)")

    def serial():
        guide = solver.solve_table(T, F, "float")
        return solver.solve_table(T, F, "mpq", guide=guide)

    table, *s = serial_best(serial)
    row("serial", *s)
    for k in sizes:
        d, wall, cpu = dask_run(client, lambda: dhold.solve_table(T, F, client=client, size=k))
        assert d.V == table.V and d.policy == table.policy, "distributed result differs"
        row(f"dask 2 workers {k} pairs/tile", wall, cpu, s, d.dask_stats)


def bench_chefs(client, n, splits):
    print(f"chefs, n = {n} (fast exact solver)")
    marks = {}
    sol, *s = serial_run(lambda: fast.solve_fast(list(fibonacci_skills(n)),
                                                 visit=lambda q, _: marks.setdefault(q, time.process_time())))
    row("serial", *s)
    runs = {}
    for k in splits:
        d, wall, cpu = dask_run(client, lambda: dchefs.solve_fast(list(fibonacci_skills(n)), client=client, split=k))
        assert d.E == sol.E and d.ties == sol.ties, "distributed result differs"
        row(f"dask 2 workers split {k} ({2 ** k} groups)", wall, cpu, s, d.dask_stats)
        runs[k] = (d.dask_stats, cpu)
    return sol, s, runs


def bench_engine(client, spec: str, params: list[str]):
    from exactplay.distributed import engine as dengine
    from exactplay.engine import solve_model
    from exactplay.model import build_model
    from exactplay.model.load import make_game, parse_params

    model = build_model(make_game(spec, parse_params(params)))
    print(f"engine, {spec} {' '.join(params)} ({len(model):,} states)")
    sol, *s = serial_run(lambda: solve_model(model))
    row("serial", *s)
    d, wall, cpu = dask_run(client, lambda: dengine.solve_model(model, client=client))
    assert d.values == sol.values and d.policy == sol.policy, "distributed result differs"
    row(f"dask 2 workers, {d.dask_stats['levels']} levels", wall, cpu, s, d.dask_stats)


def makespan(n, k, W, cost) -> tuple[float, float]:
    """List schedule of the tile DAG of chefs n with 2^k groups on W workers (no transfer time):
    (makespan, total work), in the units of ``cost(q)`` per alive set of size q."""
    owner = dchefs.owners(n, k, W)
    done = {}
    free = [0.0] * W
    total = 0.0
    for q in range(1, n + 1):  # tiles of layer q after those of layer q - 1, as submitted
        for H in range(2**k):
            if q not in dchefs.group_sizes(n, k, H):
                continue
            deps = [done.get((H, q - 1), 0.0)] + [done.get((H & ~(1 << i), q - 1), 0.0)
                                                   for i in range(k) if H >> i & 1]
            work = math.comb(n - k, q - bin(H).count("1")) * cost(q)
            start = max([free[owner[H]]] + deps)
            done[(H, q)] = free[owner[H]] = start + work
            total += work
    return max(done.values()), total


def fit_overhead(runs, serial_cpu) -> tuple[float, float]:
    """Least squares ``overhead = a * tiles + b * bytes`` over the measured splits (a: s/tile, b: s/byte)."""
    import numpy as np

    A = np.array([[st["tiles"], st["boundary_bytes"]] for st, _ in runs.values()], dtype=float)
    y = np.array([cpu - serial_cpu for _, cpu in runs.values()])
    (a, b), *_ = np.linalg.lstsq(A, y, rcond=None)
    return max(a, 0.0), max(b, 0.0)


def estimate_chefs_18(n, serial_cpu, sol, runs, k_used):
    print(f"\npaper estimate: chefs n = 18 on a 32-worker cluster (from chefs n = {n} measured above)")
    up = 18 - n
    stats, dcpu = runs[k_used]
    t18 = serial_cpu * GROWTH_TIME_PER_CHEF**up
    print(f"  serial cpu n=18  = {serial_cpu:.1f} s x {GROWTH_TIME_PER_CHEF}^{up} = {t18:,.0f} s ({t18 / 3600:.2f} h)")
    per_tile, per_byte = fit_overhead(runs, serial_cpu)
    print(f"  overhead fit     : Dask cpu - serial cpu = {1000 * per_tile:.1f} ms x tiles + {per_byte * 1e9:.2f} s/GB x "
          f"bytes sent (least squares over splits {', '.join(map(str, runs))}); at split {k_used}: "
          f"{sum(v[0]['boundary_bytes'] for v in [runs[k_used]]) / 1e6:.0f} MB sent")
    best = None
    for k in (5, 6, 7, 8):
        span, total = makespan(18, k, 32, lambda q: q**3)
        balance = span / (total / 32)
        compute = t18 / 32 * balance
        tiles = sum(len(dchefs.group_sizes(18, k, H)) for H in range(2**k))
        sent18 = stats["boundary_bytes"] * GROWTH_MEMORY_PER_CHEF**up * k / k_used  # data x3 per chef; ~k/2 sends
        transfer = sent18 / (32 * LINK_BYTES_PER_S)
        pack = per_byte * sent18 / 32
        dask = per_tile * tiles / 32
        wall = compute + transfer + pack + dask
        print(f"  split {k} ({2 ** k:3d} groups, {tiles} tiles): makespan/(work/32) = {balance:.2f} (list schedule of "
              f"the tile DAG, q^3 per alive set) -> compute {t18:,.0f}/32 x {balance:.2f} = {compute:,.0f} s; "
              f"sent {stats['boundary_bytes'] / 1e6:.0f} MB x {GROWTH_MEMORY_PER_CHEF}^{up} x {k}/{k_used} = "
              f"{sent18 / 1e9:.1f} GB -> transfer /(32 x {LINK_BYTES_PER_S / 1e9:.2f} GB/s) = {transfer:,.1f} s, "
              f"pack+unpack {per_byte * 1e9:.2f} s/GB / 32 = {pack:,.1f} s; Dask {1000 * per_tile:.1f} ms x {tiles} / 32"
              f" = {dask:.1f} s; total {wall:,.0f} s")
        if best is None or wall < best[0]:
            best = (wall, k)
    wall, k = best
    mem = sol.peak_bits / 8 * GROWTH_MEMORY_PER_CHEF**up
    rss = (f"; README: 0.78 GB peak RSS at n = 14 x {GROWTH_MEMORY_PER_CHEF ** up:.0f} = "
           f"{0.78 * GROWTH_MEMORY_PER_CHEF ** up:.0f} GB, {0.78 * GROWTH_MEMORY_PER_CHEF ** up / 32:.1f} GB per worker"
           if n == 14 else "")
    print(f"  two layers       = {sol.peak_bits / 8e6:.0f} MB of numbers at n={n} x {GROWTH_MEMORY_PER_CHEF}^{up} = "
          f"{mem / 1e9:.1f} GB in all, {mem / 32e9:.2f} GB per worker{rss} (+ boundaries in flight)")
    print(f"  estimate         = {wall:,.0f} s ({wall / 60:.0f} min) with split {k}, vs {t18 / 3600:.2f} h serial: "
          f"{t18 / wall:.1f}x on 32 workers")


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--race", type=int, default=400)
    ap.add_argument("--chefs", type=int, default=14)
    ap.add_argument("--race-tiles", default="25,50,100,200")
    ap.add_argument("--race-large", type=int, default=1000, metavar="N",
                    help="also race at this target, tiles N/8, N/4, N/2 (0: not)")
    ap.add_argument("--race-reference", type=int, default=200, metavar="TILE",
                    help="also the reference recurrence on Dask at this tile (0: not)")
    ap.add_argument("--hold", type=int, default=100, help="hold target (0: not)")
    ap.add_argument("--hold-faces", type=int, default=6)
    ap.add_argument("--hold-sizes", default="5,10,25,50")
    ap.add_argument("--chefs-splits", default="1,2,4,6")
    ap.add_argument("--engine", nargs="*", default=[], metavar="MOD:FACTORY NAME=VALUE",
                    help="also a game model through the engine, e.g. exactplay.games.hold.model:make_game target=20")
    ap.add_argument("--repeat", type=int, default=1, help="runs of each configuration (the least CPU is printed)")
    a = ap.parse_args()
    REPEAT["n"] = a.repeat
    print(f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")
    t = time.perf_counter()
    with dask_client(2, processes=True) as client:
        print(f"LocalCluster of 2 worker processes started in {time.perf_counter() - t:.1f} s")
        IDLE["rate"] = idle_rate(client)
        print(f"idle cluster: {IDLE['rate']:.3f} s of CPU per second of wall-clock time")
        if a.race:
            bench_race(client, a.race, [int(x) for x in a.race_tiles.split(",")], a.race_reference)
        if a.race_large:
            bench_race(client, a.race_large, [a.race_large // 8, a.race_large // 4, a.race_large // 2])
        if a.hold:
            bench_hold(client, a.hold, a.hold_faces, [int(x) for x in a.hold_sizes.split(",")])
        if a.engine:
            bench_engine(client, a.engine[0], a.engine[1:])
        if a.chefs:
            splits = [int(x) for x in a.chefs_splits.split(",")]
            sol, s, runs = bench_chefs(client, a.chefs, splits)
    print(f"load average {os.getloadavg()[0]:.1f}")
    if a.chefs:
        estimate_chefs_18(a.chefs, s[1], sol, runs, max(splits))


if __name__ == "__main__":
    main()
