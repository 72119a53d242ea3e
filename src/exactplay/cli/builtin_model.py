"""A built-in game's model for ``export GAME`` and ``crosscheck GAME``: the game's own model
(``games/<name>/model.py``'s ``make_game``, the one the engine solves) at the factory parameters its
certificate is of (each game's ``certify`` says them), so what is exported and cross-checked is what
``certify GAME`` certifies: tests/test_export_builtin.py compares the canonical digests.
"""

from __future__ import annotations

from ..errors import UsageError

__all__ = ["BUILTIN_FACTORY", "factory_params", "load_builtin"]

BUILTIN_FACTORY = "exactplay.games.{game}.model:make_game"  # the games' own models


def factory_params(name: str, params: dict) -> dict:
    """``make_game``'s keyword arguments for game ``name`` at its parsed registry parameters (those
    of ``exactplay list``), as its ``certify`` passes them."""
    if name == "coins":
        if not params.get("coins") and not params.get("file"):
            raise UsageError("coins: give the coin values, e.g. exactplay crosscheck coins 3 9 1 2")
        from ..games.coins import resolve_row

        return {"coins": resolve_row(params.get("coins"), params.get("file"))}
    if name == "chefs":
        from ..games.chefs.instance import instance

        return {"skills": instance(params.get("n"), params.get("skills"))[1]}
    if name == "war":
        return {"ranks": params["ranks"], "suits": params["suits"], "abstract": True}  # sorted counts
    return dict(params)  # race: target; hold: target, faces


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
