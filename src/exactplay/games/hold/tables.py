"""The game's tables, cached: the float solver's, the exact one, the published program's; and the
two parameters' parsers.  :mod:`exactplay.games.hold.judge` and the package's entry points both use
them.
"""

from __future__ import annotations

from exactplay.errors import UsageError
from exactplay.numbers.backends import Backend, get_backend, read_int
from exactplay.progress import SILENT
from exactplay.games.hold.seed import seed_solve
from exactplay.games.hold.solver import HoldTable, solve_table

MAX_TARGET = 150  # solve time grows fast: ~2 s at 75, ~14 s at 100, about a minute at 150
MAX_FACES = 12


def parse_target(text) -> int:
    n = read_int(text, "target")
    if not 2 <= n <= MAX_TARGET:
        raise UsageError(f"target must be between 2 and {MAX_TARGET}, got {n}")
    return n


def parse_faces(text) -> int:
    n = read_int(text, "faces")
    if not 2 <= n <= MAX_FACES:
        raise UsageError(f"faces must be between 2 and {MAX_FACES}, got {n}")
    return n


# ------------------------------------------------------------------ tables


def float_table(target: int = 75, faces: int = 6, progress=SILENT) -> HoldTable:
    """The correct float solver (cached): policy iteration per pair, from the pass value 1/2."""
    return _cached(_FLOAT_CACHE, (target, faces), 4, lambda: solve_table(target, faces, "float", progress=progress))


_FLOAT_CACHE: dict = {}
_EXACT_CACHE: dict = {}
_SEED_CACHE: dict = {}


def _cached(cache: dict, key, size: int, make):
    """A small cache like ``functools.lru_cache`` whose builder may take a progress display."""
    if key in cache:
        cache[key] = cache.pop(key)  # most recently used last
        return cache[key]
    value = make()
    cache[key] = value
    while len(cache) > size:
        del cache[next(iter(cache))]
    return value


def exact_table(target: int = 75, faces: int = 6, backend: Backend | str = "mpq", progress=SILENT,
                solver=None) -> HoldTable:
    """The exact game (cached): float policies as first guesses, verified exactly.

    ``solver(target, faces, backend, progress=...)``: another maker of the same table (a
    distributed one, see ``exactplay.distributed``); its table replaces the cached one."""
    name = get_backend(backend).name
    if solver is not None:
        _EXACT_CACHE.pop((target, faces, name), None)
        return _cached(_EXACT_CACHE, (target, faces, name), 4, lambda: solver(target, faces, name, progress=progress))

    def make():
        guide = float_table(target, faces, progress)  # float policies as first guesses
        return solve_table(target, faces, name, guide=guide, progress=progress)

    return _cached(_EXACT_CACHE, (target, faces, name), 4, make)


def seed_table(target: int = 75, faces: int = 6, progress=SILENT):
    """The published program's table (cached)."""
    return _cached(_SEED_CACHE, (target, faces), 2, lambda: seed_solve(target, faces, progress=progress))
