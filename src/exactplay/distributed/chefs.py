"""Chef Showdown's alive sets on Dask: groups of alive sets split on the last chefs.

An alive set ``M`` of size q needs only the sets ``M \\ {j}`` of size q - 1 (a layer
needs the layer below).  Split on the last ``k`` chefs: the **group** of ``M`` is
``H = M`` restricted to chefs ``n-k .. n-1``, and tile ``(H, q)`` is the group's sets of
size q.  Removing one of the first ``n - k`` chefs stays in the group, which lives on one
worker (its layer q - 1 is already there); only removing one of the last chefs leaves
it, to group ``H \\ {h}``.  So the **boundary** of tile ``(H, q)`` is the layer q of
group H, sent to the at most ``k - |H|`` groups ``H + {h}`` (as GMP binary when they
live on another worker, as the objects themselves when on the same, see
:class:`LayerPayload`) -- each
worker keeps its own groups' layers and receives only its neighbours' in the
``k``-cube of groups.  Groups go to workers by estimated work (largest first).

Every set is solved by the serial solver's own ``fast._solve_mask`` from the same
numbers, so values, targets, ties and counters equal :func:`fast.solve_fast`'s.
"""

from __future__ import annotations

import math
import pickle
import time

from exactplay.distributed import store
from exactplay.distributed.tiles import Tile, new_run, run_tiles
from exactplay.distributed.wire import pack_numbers, unpack_numbers
from exactplay.games.chefs import fast
from exactplay.games.chefs.cycle import TIE_RULES, masks_of_size, members
from exactplay.progress import SILENT


def default_split(n: int, workers: int) -> int:
    """``log2(workers) + 1`` chefs (two groups per worker), at most n - 1.

    >>> default_split(14, 2), default_split(14, 32), default_split(2, 32)
    (2, 6, 1)
    """
    return max(1, min(n - 1, math.ceil(math.log2(max(workers, 1))) + 1))


def group_sizes(n: int, k: int, H: int) -> range:
    """The sizes q of the alive sets in group H (its low part has 0 .. n - k chefs, q >= 1)."""
    h = bin(H).count("1")
    return range(max(1, h), h + n - k + 1)


def group_masks(n: int, k: int, H: int, q: int) -> list[int]:
    """The alive sets of size q in group H, in increasing order of members."""
    return [(H << (n - k)) | low for low in masks_of_size(n - k, q - bin(H).count("1"))]


def owners(n: int, k: int, workers: int) -> dict[int, int]:
    """Group -> worker: largest estimated work first, each to the least loaded worker.

    The work of a set of size q is taken as q^3 (q^2 numbers of about q times a set's bits).
    """
    work = {H: sum(math.comb(n - k, q - bin(H).count("1")) * q**3 for q in group_sizes(n, k, H))
            for H in range(2**k)}
    load = [0] * workers
    out = {}
    for H in sorted(work, key=lambda g: (-work[g], g)):
        w = min(range(workers), key=lambda i: (load[i], i))
        out[H] = w
        load[w] += work[H]
    return out


class _Group:
    """One group's state on its worker: the layer below, and the group's share of the solution."""

    def __init__(self, spec):
        skills, tie, reduce, keep_policy, n = spec
        self.consts = fast.integer_skills(skills)
        self.sol = fast.FastSolution(n, tie)
        self.layer = {}
        self.stats = {}  # q -> (sets, bits of the numbers held, bits of the values computed)
        self.cpu = 0.0  # seconds of CPU in the tiles' own work (solving)


def pack_layer(layer: dict, with_target: bool = False) -> bytes:
    """A layer's sets as ``(masks, enclosures, targets, numbers)``: den, w, d as GMP binary."""
    masks = list(layer)
    nums = []
    for m in masks:
        st = layer[m]
        nums.append(st.den)
        for row in st.w:
            nums.extend(row)
        nums.extend(st.d)
    meta = (masks, [layer[m].prev_win for m in masks], [layer[m].target for m in masks] if with_target else None)
    return pickle.dumps((meta, pack_numbers(nums)), protocol=pickle.HIGHEST_PROTOCOL)


def unpack_layer(data: bytes) -> dict:
    (masks, prev_wins, targets), blob = pickle.loads(data)
    nums = unpack_numbers(blob)
    out, pos = {}, 0
    for i, m in enumerate(masks):
        mem = members(m)
        q = len(mem)
        den = nums[pos]
        w = [nums[pos + 1 + r * q:pos + 1 + (r + 1) * q] for r in range(q)]
        d = nums[pos + 1 + q * q:pos + 1 + q * q + q]
        pos += 1 + q * q + q
        out[m] = fast.FastMask(mem, den, w, d, targets[i] if targets else [None] * q, prev_wins[i])
    return out


class LayerPayload:
    """A group's layer as a tile's result: the objects themselves for a tile on the same worker,
    GMP binary (:func:`pack_layer`) only when Dask sends it to another worker (pickling)."""

    def __init__(self, layer: dict, run: str = ""):
        self.layer, self.run = layer, run

    def __reduce__(self):
        start = time.thread_time()
        data = pack_layer(self.layer)
        store.count(self.run, len(data), time.thread_time() - start)
        return (_received_layer, (data,))


def _received_layer(data: bytes) -> LayerPayload:
    return LayerPayload(unpack_layer(data))


def chefs_tile(run: str, spec: tuple, k: int, H: int, q: int, has_local: bool, send: bool, *deps):
    """Solve group H's sets of size q; return them packed for the groups above (if ``send``)."""
    start = time.process_time()
    n = spec[-1]
    g = store.state(run, H, lambda: _Group(spec))
    prev = g.layer
    for payload in deps[1:] if has_local else deps:  # the layers q - 1 of the groups H - {h}
        prev = {**prev, **payload.layer}
    F, a, c, Fpow = g.consts
    _, tie, reduce, keep_policy, _ = spec
    layer = {}
    for mask in group_masks(n, k, H, q):
        mem = members(mask)
        layer[mask] = (fast.singleton(mem[0]) if q == 1 else
                       fast._solve_mask(mask, mem, q, prev, a, c, F, Fpow, tie == "farthest", reduce, g.sol,
                                        keep_policy))
    bits = [int(m.den.bit_length()) for m in layer.values()]
    g.stats[q] = (len(layer), sum(bits) * (q * q + q + 1), sum(bits) * (q * q + q))
    g.layer = layer  # layer q - 1 of this group is no longer needed here
    g.cpu += time.process_time() - start
    return LayerPayload(layer, run) if send else None


def chefs_collect(run: str, H: int, full: bool, _last) -> tuple:
    """The group's ties, policy, counters and layer statistics (and the full set if it is here)."""
    g = store.take(run, H)
    return (g.sol.ties, g.sol.policy, g.sol.exact_compares, g.stats,
            pack_layer(g.layer, with_target=True) if full else None, g.cpu)


def solve_fast(skills, tie: str = "nearest", reduce: bool = False, keep_policy: bool = False, visit=None,
               progress=SILENT, *, client, split: int | None = None) -> fast.FastSolution:
    """:func:`exactplay.games.chefs.fast.solve_fast` on the workers of ``client``.

    ``split``: the number k of last chefs the groups are split on (2^k groups; default
    :func:`default_split`).  ``visit`` is not available (the layers stay on the workers).
    """
    from exactplay.distributed.cluster import worker_addresses

    if tie not in TIE_RULES:
        raise ValueError(f"tie rule must be one of {TIE_RULES}")
    if visit is not None:
        raise ValueError("a distributed run keeps the layers on the workers: no visit")
    skills = list(skills)
    n = len(skills)
    if n == 1:
        return fast.solve_fast(skills, tie, reduce, keep_policy, progress=progress)
    addresses = worker_addresses(client)
    W = len(addresses)
    k = default_split(n, W) if split is None else max(1, min(split, n - 1))
    owner = owners(n, k, W)
    spec = (skills, tie, reduce, keep_policy, n)
    top = 2**k - 1
    run = new_run("chefs")
    tiles = []
    for q in range(1, n + 1):
        for H in range(2**k):
            if q not in group_sizes(n, k, H):
                continue
            local = (("t", H, q - 1),) if q - 1 in group_sizes(n, k, H) else ()
            remote = tuple(("t", H & ~(1 << i), q - 1) for i in range(k) if H >> i & 1 and q >= 2)
            tiles.append(Tile(("t", H, q), chefs_tile, (run, spec, k, H, q, bool(local), H != top), owner[H],
                              local + remote))
    for H in range(2**k):
        last = max(group_sizes(n, k, H))
        tiles.append(Tile(("c", H), chefs_collect, (run, H, H == top), owner[H], (("t", H, last),), keep=True))
    title = f"chefs n={n} (fast exact) on {W} Dask workers: {2**k} groups of alive sets, {len(tiles) - 2**k} tiles"
    kept = run_tiles(client, run, tiles, addresses, progress, title)
    progress.start("gathering the solution from the workers", None)
    parts = client.gather([kept[("c", H)] for H in range(2**k)], direct=True)
    sol = _assemble(n, tie, parts)
    sent = client.run(store.take_count, run).values()  # every transfer is over: the workers' tallies
    sol.dask_stats = {"workers": W, "split": k, "groups": 2**k, "tiles": len(tiles) - 2**k,
                      "tile_cpu": sum(p[5] for p in parts), "boundary_bytes": sum(b for b, _ in sent),
                      "pack_cpu": sum(t for _, t in sent)}
    return sol


def _order(mask: int, t: int) -> tuple:
    """The serial solver's order of states: by size, members, mover."""
    mem = members(mask)
    return (len(mem), mem, t)


def _assemble(n: int, tie: str, parts) -> fast.FastSolution:
    sol = fast.FastSolution(n, tie)
    stats = {}
    for ties, policy, compares, group_stats, full, _ in parts:
        sol.ties.extend(ties)
        sol.policy.update(policy)
        sol.exact_compares += compares
        for q, s in group_stats.items():
            stats[q] = tuple(x + y for x, y in zip(stats.get(q, (0, 0, 0)), s))
        if full is not None:
            sol.full = unpack_layer(full)[(1 << n) - 1]
    sol.ties.sort(key=lambda x: _order(x[0], x[1]))
    sol.policy = dict(sorted(sol.policy.items(), key=lambda kv: _order(*kv[0])))
    for q in range(2, n + 1):  # the serial counters: values computed, and the largest two layers
        sol.value_bits += stats[q][2]
        nums = stats[q][0] * (q * q + q + 1) + stats[q - 1][0] * ((q - 1) ** 2 + q)
        if nums > sol.peak_numbers:
            sol.peak_numbers = nums
            sol.peak_bits = stats[q][1] + stats[q - 1][1]
    return sol
