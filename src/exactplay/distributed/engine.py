"""The engine's condensation on Dask: components of equal level, on the workers.

The engine solves the strongly connected components sinks first, and a component reads
only the values ``V`` and ranks of its successors' states.  The **level** of a component is
0 for a sink and otherwise one more than the highest level among its successors, so
components of one level are independent.  Each component goes to one worker (per level,
largest first to the least loaded, cost = states + transitions); tile ``(L, w)`` is
worker w's components of level L, solved by the engine's own ``solve_component`` in one
engine instance per worker, which keeps every value it computed.  The **boundary** of a
tile is ``V`` and the rank of its states that components on *other* workers read; a tile
waits only for the tiles whose boundary it reads (and the worker's previous tile).

The workers' margins, ties and action values are put back in the serial run's order (by
component, then as the component made them), so the :class:`Solution` -- and a model
certificate made from it -- equals the serial one.
"""

from __future__ import annotations

import time
from array import array

from exactplay.distributed import store
from exactplay.distributed.tiles import Tile, new_run, run_tiles
from exactplay.distributed.wire import pack_numbers, unpack_numbers
from exactplay.engine.run import Run
from exactplay.engine.solution import SCCStats, Solution
from exactplay.model.sparse import Sparse
from exactplay.numbers.backends import get_backend
from exactplay.progress import SILENT

_MAX_STATS = ("largest", "largest_dense", "max_rounds")


def levels(comps: list[list[int]], succ) -> list[int]:
    """Each component's level (sinks 0), for components in sink-first order.

    >>> levels([[0], [1], [2, 3]], [[], [0], [1, 3], [2, 0]])
    [0, 1, 2]
    """
    comp_of = {s: i for i, comp in enumerate(comps) for s in comp}
    out = []
    for i, comp in enumerate(comps):
        out.append(1 + max((out[comp_of[t]] for s in comp for t in succ[s] if comp_of[t] != i), default=-1))
    return out


def _pack_optional(xs) -> tuple:
    """Exact numbers or None: a mask and the numbers (GMP binary or integer pairs)."""
    return (array("B", (x is not None for x in xs)).tobytes(), pack_numbers([x for x in xs if x is not None]))


def _unpack_optional(data) -> list:
    mask, nums = data
    it = iter(unpack_numbers(nums))
    return [next(it) if present else None for present in mask]


def _ints(xs) -> bytes:
    return array("q", (-1 if x is None else x for x in xs)).tobytes()


def _unints(data) -> list:
    a = array("q")
    a.frombytes(data)
    return [None if x < 0 else x for x in a]


class _Worker:
    """One engine on one worker, with the order in which it made its dictionaries' entries."""

    def __init__(self, model, backend, filter, witness, components):
        self.engine = Run(model, Sparse.from_model(model), get_backend(backend), SILENT)
        self.engine.setup(witness, components)
        self.cpu = 0.0
        self.sent = 0


def _pack_states(eng, states) -> tuple:
    P = eng.P
    return (list(states), pack_numbers([x for s in states for x in eng.V[s]]) if P and states else b"",
            _ints(eng.ranks[s] for s in states), P)


def _unpack_states(eng, payload) -> None:
    states, nums, ranks, P = payload
    vals = unpack_numbers(nums) if nums else []
    for i, (s, r) in enumerate(zip(states, _unints(ranks))):
        eng.V[s] = tuple(vals[i * P:(i + 1) * P])
        eng.ranks[s] = r


def engine_tile(run, model, spec, w, comps, send, has_local, *deps):
    """Solve ``comps`` (``[(states, has_ec)]``) on worker w; return the states others read."""
    start = time.process_time()
    st = store.state(run, w, lambda: _Worker(model, *spec))
    eng = st.engine
    for payload in deps[1:] if has_local else deps:
        if payload is not None:
            _unpack_states(eng, payload)
    st_ = eng.stats
    for comp, has_ec in comps:
        st_.largest = max(st_.largest, len(comp))
        st_.with_end_component += bool(has_ec)
        eng.component(comp, has_ec)
    out = _pack_states(eng, send) if send else None
    st.sent += 0 if out is None else len(out[1]) + len(out[2])
    st.cpu += time.process_time() - start
    return out


def engine_collect(run, w, states, _last):
    """Everything worker w computed for its ``states`` (its engine dropped)."""
    st = store.take(run, w)
    eng = st.engine
    P = eng.P
    values = pack_numbers([x for s in states for x in eng.V[s]]) if P and states else b""
    margins = (list(eng.margins), _pack_optional(list(eng.margins.values())))
    q = (list(eng.q), [len(v) for v in eng.q.values()], _pack_optional([x for v in eng.q.values() for x in v]))
    return (values, _ints(eng.policy[s] for s in states), _ints(eng.ranks[s] for s in states), margins,
            list(eng.ties.items()), q, eng.stats.to_dict(), (st.cpu, st.sent))


def assign(comps, level, succ, model_trans, workers: int) -> list[int]:
    """Component -> worker: per level, largest cost first to the least loaded worker."""
    owner = [0] * len(comps)
    by_level: dict[int, list[int]] = {}
    for i, L in enumerate(level):
        by_level.setdefault(L, []).append(i)
    for L, ids in by_level.items():
        load = [0] * workers
        cost = {i: sum(1 + sum(len(d) for d in model_trans[s]) for s in comps[i]) for i in ids}
        for i in sorted(ids, key=lambda i: (-cost[i], i)):
            w = min(range(workers), key=lambda x: (load[x], x))
            owner[i] = w
            load[w] += cost[i]
    return owner


def solve_model(model, backend: str = "mpq", progress=SILENT, filter: bool = True, *, client) -> Solution:
    """:func:`exactplay.engine.solve_model` with the condensation's levels on ``client``'s workers."""
    from exactplay.distributed.cluster import worker_addresses

    sp = Sparse.from_model(model)
    driver = Run(model, sp, get_backend(backend), SILENT)
    progress.start(f"condensation of {len(model):,} states", None)
    driver.prepare()
    comps, ec = driver.comps, driver.ec
    witness, components = driver.witness_name, driver.reported
    succ = [sorted({sp.succ[k] for k in range(sp.start[sp.first[s]], sp.start[sp.first[s + 1]])})
            for s in range(sp.n)]
    level = levels(comps, succ)
    addresses = worker_addresses(client)
    W = len(addresses)
    owner = assign(comps, level, succ, model.trans, W)
    comp_of = [0] * len(model)
    for i, comp in enumerate(comps):
        for s in comp:
            comp_of[s] = i
    tile_of = {}  # component -> tile key
    tiles_at: dict[tuple, list[int]] = {}
    for i in sorted(range(len(comps)), key=lambda i: (level[i], i)):
        key = ("t", level[i], owner[i])
        tile_of[i] = key
        tiles_at.setdefault(key, []).append(i)
    # what each tile must send: its states read by a component on another worker
    send: dict[tuple, set[int]] = {k: set() for k in tiles_at}
    reads: dict[tuple, set[tuple]] = {k: set() for k in tiles_at}
    for i, comp in enumerate(comps):
        for s in comp:
            for t in succ[s]:
                j = comp_of[t]
                if owner[j] != owner[i]:
                    send[tile_of[j]].add(t)
                    reads[tile_of[i]].add(tile_of[j])
    model_future = client.scatter(model, broadcast=True, direct=True)
    spec = (backend, filter, witness, components)
    run = new_run("engine")
    tiles, last = [], {}
    for key in sorted(tiles_at, key=lambda k: (k[1], k[2])):
        w = key[2]
        local = (last[w],) if w in last else ()
        remote = tuple(sorted(reads[key], key=lambda k: (k[1], k[2])))
        comps_here = [(comps[i], ec[i]) for i in tiles_at[key]]
        tiles.append(Tile(key, engine_tile, (run, model_future, spec, w, comps_here, sorted(send[key]), bool(local)),
                          w, local + remote))
        last[w] = key
    mine = {w: [s for i in range(len(comps)) if owner[i] == w for s in comps[i]] for w in last}
    for w, key in last.items():
        tiles.append(Tile(("c", w), engine_collect, (run, w, mine[w]), w, (key,), keep=True))
    title = (f"engine: {len(model):,} states, {len(comps):,} components on {max(level) + 1 if level else 0} levels, "
             f"{W} Dask workers, {len(tiles) - len(last)} tiles")
    kept = run_tiles(client, run, tiles, addresses, progress, title)
    progress.start("gathering the solution from the workers", None)
    parts = dict(zip(last, client.gather([kept[("c", w)] for w in last], direct=True)))
    sol = _assemble(driver, comps, comp_of, mine, parts)
    sol.dask_stats = {"workers": W, "levels": max(level) + 1 if level else 0, "tiles": len(tiles) - len(last),
                      "tile_cpu": sum(p[7][0] for p in parts.values()),
                      "boundary_bytes": sum(p[7][1] for p in parts.values())}
    return sol


def _assemble(eng, comps, comp_of, mine, parts) -> Solution:
    P = eng.P
    margins, ties, q = [], [], []
    stats = SCCStats()
    stats.components = len(comps)
    for w, (values, policy, ranks, (m_keys, m_vals), tie_items, (q_keys, q_lens, q_vals), st, _) in parts.items():
        states = mine[w]
        vals = unpack_numbers(values) if values else []
        for i, (s, a, r) in enumerate(zip(states, _unints(policy), _unints(ranks))):
            eng.V[s] = tuple(vals[i * P:(i + 1) * P])
            eng.policy[s], eng.ranks[s] = a, r
        margins += [(comp_of[s], w, n, s, v) for n, (s, v) in enumerate(zip(m_keys, _unpack_optional(m_vals)))]
        ties += [(comp_of[s], w, n, s, v) for n, (s, v) in enumerate(tie_items)]
        flat, pos = _unpack_optional(q_vals), 0
        for n, (s, k) in enumerate(zip(q_keys, q_lens)):
            q.append((comp_of[s], w, n, s, flat[pos:pos + k]))
            pos += k
        for name, v in st.items():
            if name in _MAX_STATS:
                setattr(stats, name, max(getattr(stats, name), v))
            elif name != "components":
                setattr(stats, name, getattr(stats, name) + v)
    # a component is solved on one worker: by component, then in that worker's order = the serial order
    eng.margins = {s: v for *_, s, v in sorted(margins, key=lambda x: x[:3])}
    eng.ties = {s: v for *_, s, v in sorted(ties, key=lambda x: x[:3])}
    eng.q = {s: v for *_, s, v in sorted(q, key=lambda x: x[:3])}
    eng.stats = stats
    return eng.solution()
