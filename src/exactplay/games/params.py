"""The factory parameters of a built-in game's certified model: ``make_game``'s keyword arguments at the
game's parsed registry parameters (those of ``exactplay list``), as its ``certify`` passes them.  One
function, so that ``export``/``crosscheck GAME`` (:mod:`exactplay.cli.builtin_model`) and ``xp.solve(GAME)``
build the model whose digest ``certify GAME`` writes (tests/test_export_builtin.py, tests/test_api.py).
"""

from __future__ import annotations

from ..errors import UsageError

__all__ = ["factory_params"]


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
