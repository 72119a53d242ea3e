"""The five built-in games written as models of the engine's protocol.

Each module derives the game from its rules (the seeds), not from the
hand-written recurrence; ``MODELS[name](**params)`` builds a game object for
:func:`exactplay.engine.solve`, with the parameters the CLI takes (race
``target``; hold ``target``, ``faces``; chefs ``n`` or ``skills``; coins ``coins``;
war ``ranks``, ``suits``).  ``tests/test_game_models.py`` is the conformance suite
(issue 11, item 2): each model, solved by the engine, agrees exactly with the
hand-written solver.
"""

from __future__ import annotations

from . import chefs, coins, hold, race, war

MODELS = {
    "race": race.make_game,
    "hold": hold.make_game,
    "chefs": chefs.make_game,
    "coins": coins.make_game,
    "war": war.make_game,
}

__all__ = ["MODELS"]
