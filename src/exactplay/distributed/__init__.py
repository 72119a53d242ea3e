"""Levels of the built-in games on Dask: tiles that exchange only boundary values.

Every recurrence here has *levels* whose cells do not depend on each other (race's
anti-diagonals, chefs' alive sets of one size, hold's score pairs of one sum).  A distributed run cuts the table into
**tiles** that live on one worker each (``store``: the worker holds the tile's state
between tasks); a tile task computes its cells with the game's own per-cell function and
returns only what other tiles need (its *boundary*), which Dask moves worker to worker,
as GMP binary (``wire``).  The scheduler sees task keys, never values.

* ``cluster``: a ``LocalCluster`` (``--workers N``) or a running scheduler (``--scheduler``).
* ``tiles``: the game-independent tile scheduler (``Tile``, ``run_tiles``).
* ``race`` (``race_fast``: the fast exact table), ``chefs``, ``hold``: one adapter per game,
  each a drop-in for the serial solver.
* ``cli``: the ``--workers`` / ``--scheduler`` options of ``solve`` and ``certify``.

Importing this package does not import Dask (the CLI stays fast without the options).
"""

DISTRIBUTED_GAMES = ("race", "chefs", "hold")
