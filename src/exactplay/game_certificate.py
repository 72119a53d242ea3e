"""Certificate v2 of a built-in game: parameters, model digest and the engine's solution.

::

    format        "exactplay-certificate"
    version       2
    kind          "game"
    game          the game's name, e.g. "race"
    params        its parameters, as the version 1 certificate states them
    model_sha256  SHA-256 of the game's canonical explicit model
                  (exactplay.checker.rules.canonical defines the serialization)
    solution      as in a certificate of kind "model" (exactplay.model_certificate),
                  indexed by the canonical state numbers
    answer        {"name", "state", "component", "value": "p/q", "decimal", "digits"}:
                  the version 1 answer (name, digits), the initial state's value
                  in the component the game names
    smallest_margin {"value": "p/q", "state": s} or null
    tool_version, notes   informational

The model is not stored: the checker rebuilds it from its own statement of the
rules (:mod:`exactplay.checker.rules`) and compares digests.  The solution is
the engine's (:func:`exactplay.engine.solve` on ``MODELS[game](**params)``), so
this writer names no game: each game's ``certify_v2`` says what to solve and
how its answer is named.
"""

from __future__ import annotations

from . import __version__
from .engine import solve
from .errors import UsageError
from .games import MODELS
from .model.canonical import canonical_model, canonical_order, model_digest
from .model_certificate import solution_fields
from .progress import SILENT

__all__ = ["game_certificate", "refuse_if_too_large", "MAX_STATES"]

MAX_STATES = 3_000_000  # the checker's limit on a version 2 certificate's states (checker._strict.MAX_STATES)


def refuse_if_too_large(game: str, params: dict, bound: int) -> None:
    """A one-line :class:`UsageError`, before any computing, when the instance may have more states
    (``bound``, the same formula the checker uses) than a certificate v2 is checked with."""
    if bound > MAX_STATES:
        shown = " ".join(f"{k}={v if not isinstance(v, list) else len(v)}" for k, v in params.items())
        raise UsageError(f"certify {game} {shown}: a version 2 certificate needs the whole model, up to "
                         f"{bound:,} states here, more than the checker's {MAX_STATES:,}; use --format v1")


def game_certificate(game: str, params: dict, model_params: dict, answer_name: str, component: int,
                     digits: int = 8, progress=None, notes: str = "") -> dict:
    """Solve ``MODELS[game](**model_params)`` with the engine and write its certificate v2.

    ``params`` are stored (the version 1 certificate's spelling); ``answer_name`` and
    ``component`` say which value of the initial state is the answer.
    """
    progress = SILENT if progress is None else progress
    sol = solve(MODELS[game](**model_params), progress=progress)
    progress.start("writing the certificate v2 (canonical order, digest)", None)
    order = canonical_order(sol.model)
    model_json = canonical_model(sol.model, order)
    return {
        "format": "exactplay-certificate",
        "version": 2,
        "kind": "game",
        "game": game,
        "params": params,
        "model_sha256": model_digest(model_json),
        **solution_fields(sol, order, component, answer_name, digits),
        "tool_version": __version__,
        "notes": notes,
    }
