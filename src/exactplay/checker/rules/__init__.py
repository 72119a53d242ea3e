"""Each built-in game's rules, rebuilt for the checker from the game's statement alone.

One small module per game (standard library only, sharing no code with the
solvers or the engine's models): ``PARAMS`` (the certificate's parameter
names), ``read_params`` (their values, within the solver's limits),
``state_bound`` (an upper bound on the states, known before enumerating) and
``Rules`` (``name``, ``players``, ``objective``, ``answer_name``,
``answer_component``, ``initial()``, ``label(state)``, ``step(state)``: see
:mod:`.canonical`, which turns them into the canonical explicit model and its
digest).
"""

from __future__ import annotations

import importlib

RULES = ("race", "hold", "chefs", "coins", "war")


def rules_module(game: str):
    return importlib.import_module(f"{__name__}.{game}")
