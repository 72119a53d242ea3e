"""A built-in game's model for ``export GAME`` and ``crosscheck GAME``: the game's own model
(``games/<name>/model.py``'s ``make_game``, the one the engine solves) at the factory parameters its
certificate is of (each game's ``certify`` says them), so what is exported and cross-checked is what
``certify GAME`` certifies: tests/test_export_builtin.py compares the canonical digests.
"""

from __future__ import annotations

from ..games.params import factory_params

__all__ = ["BUILTIN_FACTORY", "factory_params", "load_builtin"]

BUILTIN_FACTORY = "exactplay.games.{game}.model:make_game"  # the games' own models


def _shown(value) -> str:
    if isinstance(value, (list, tuple)):
        return ",".join(_shown(v) for v in value)
    return str(value)  # an integer, a text, a fraction as 3 or 1/2


def load_builtin(name: str, params: dict, limit: int, progress):
    """``(model, source)``: game ``name``'s model built (at most ``limit`` states) and how it is named."""
    from ..model import build_model
    from ..registry import MODELS

    kwargs = factory_params(name, params)
    shown = BUILTIN_FACTORY.format(game=name) + "".join(f" {k}={_shown(v)}" for k, v in kwargs.items())
    return build_model(MODELS[name](**kwargs), limit, progress), shown
