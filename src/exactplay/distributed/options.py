"""The command line's ``--workers N`` / ``--scheduler ADDRESS`` / ``--tile SIZE``.

:func:`add_options` adds them to ``solve`` and ``certify`` of the games in
``DISTRIBUTED_GAMES`` and of your own games (``--game`` / ``--model``: the engine's
condensation levels, no ``--tile``); :func:`distributed_solver` turns them into the
``solver=`` keyword the game's ``solve``/``certify`` take (a cluster that lives as long
as the context: ``solve`` runs the game's own tables on it, ``certify`` the engine's levels
of the game's model, so its certificate is the serial run's, byte for byte),
:func:`engine_solution` solves a model.  Without the options nothing here imports Dask.
"""

from __future__ import annotations

import contextlib
from functools import partial

from exactplay.errors import UsageError
from exactplay.numbers.backends import get_backend, int_option


def add_options(p, tile: bool = True) -> None:
    """``--workers``, ``--scheduler`` and (for the built-in games) ``--tile``."""
    g = p.add_argument_group("distributed run (Dask; the results are identical to the serial run's)")
    g.add_argument("--workers", type=int_option, default=None, metavar="N",
                   help="run the levels on a local Dask cluster of N worker processes")
    g.add_argument("--scheduler", metavar="ADDRESS", default=None,
                   help="run them on a running Dask cluster (e.g. tcp://host:8786); every worker needs "
                        "this version of exactplay and gmpy2")
    if not tile:
        return
    g.add_argument("--tile", type=int_option, default=None, metavar="SIZE",
                   help="race: the side of a tile in cells (default target / (4 x workers)); chefs: split "
                        "the alive sets on the last SIZE chefs, 2^SIZE groups (default log2(workers) + 1); "
                        "hold: score pairs per tile (default target / workers)")


def requested(args) -> bool:
    """Whether the command line asks for a distributed run."""
    return getattr(args, "workers", None) is not None or getattr(args, "scheduler", None) is not None


def _check(args) -> None:
    if args.scheduler is not None and not args.scheduler.strip():
        raise UsageError("--scheduler needs an address, e.g. tcp://host:8786")
    if args.workers is not None and args.scheduler is not None:
        raise UsageError("--workers and --scheduler: give one (--workers N starts a local cluster)")
    if args.workers is not None and not 1 <= args.workers <= 256:
        raise UsageError("--workers must be between 1 and 256")


def engine_solution(model, args, progress):
    """The engine's solution of ``model`` with its condensation levels on Dask."""
    from exactplay.distributed import engine
    from exactplay.distributed.cluster import dask_client

    _check(args)
    progress.start("starting the Dask cluster" if args.scheduler is None else "connecting to the scheduler")
    with dask_client(args.workers, args.scheduler) as client:
        return engine.solve_model(model, args.backend, progress, client=client)


@contextlib.contextmanager
def distributed_solver(game: str, command: str, params: dict, args):
    """Yield ``{"solver": ...}`` for ``game.solve`` / ``game.certify`` on a Dask cluster."""
    from exactplay.distributed.cluster import dask_client

    _check(args)
    if args.tile is not None and args.tile < 1:
        raise UsageError("--tile must be at least 1")
    if command == "certify":
        if args.tile is not None:
            raise UsageError("--tile splits the tables of a distributed solve; certify runs the engine's levels of "
                             "the game's model (drop --tile)")
        if not get_backend(args.backend).exact:
            raise UsageError(f"a distributed certify is exact: --backend mpq or fraction, not {args.backend}")
    elif game == "chefs" and get_backend(args.backend).name != "mpq":
        raise UsageError("chefs: a distributed run uses the fast integer solver (--backend mpq)")
    with dask_client(args.workers, args.scheduler) as client:
        if command == "certify":  # the game's model, its condensation's levels on the workers
            from exactplay.distributed import engine

            yield {"solver": lambda model, backend, progress: engine.solve_model(model, backend, progress,
                                                                                  client=client)}
        elif game == "race":
            from exactplay.distributed import race

            N = params["target"]
            rows = (N - 1, N) if command == "solve" else None  # solve prints G(N, N) and two choices
            yield {"solver": partial(race.solve_table, client=client, tile=args.tile, rows=rows)}
        elif game == "chefs":
            from exactplay.distributed import chefs

            yield {"solver": partial(chefs.solve_fast, client=client, split=args.tile)}
        elif game == "hold":
            from exactplay.distributed import hold

            yield {"solver": partial(hold.solve_table, client=client, size=args.tile)}
        else:  # pragma: no cover - the options are only added for DISTRIBUTED_GAMES
            raise UsageError(f"{game}: no distributed solver")
