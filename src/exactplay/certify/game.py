"""The certificate of a built-in game: parameters, model digest and the engine's solution.

::

    format        "exactplay-certificate"
    version       2
    kind          "game"
    game          the game's name, e.g. "race"
    params        its parameters
    model_sha256  SHA-256 of the game's canonical explicit model
                  (exactplay.checker.rules.canonical defines the serialization)
    solution      as in a certificate of kind "model" (exactplay.certify.model),
                  indexed by the canonical state numbers
    answer        {"name", "state", "component", "value": "p/q", "decimal", "digits"}:
                  the initial state's value in the component the game names
    smallest_margin {"value": "p/q", "state": s} or null
    tool_version, notes   informational

The model is not stored: the checker rebuilds it from its own statement of the
rules (:mod:`exactplay.checker.rules`) and compares digests.  The solution is
the engine's (:func:`exactplay.engine.solve` on ``MODELS[game](**params)``), so
this writer names no game: each game's ``certify`` (``games/<name>/model.py``)
says what to solve and how its answer is named.
"""

from __future__ import annotations

from contextlib import contextmanager
from contextvars import ContextVar

from .. import __version__
from ..checker import MAX_STATES  # the checker's limit on a certificate's states
from ..engine import solve_model
from ..errors import UsageError
from ..registry import MODELS
from ..model import build_model
from ..model.canonical import canonical_model, canonical_order, model_digest
from .model import solution_fields
from ..progress import SILENT

__all__ = ["game_certificate", "refuse_if_too_large", "already_solved", "MAX_STATES", "VALUES_LIMIT", "STORES"]

VALUES_LIMIT = 1_000_000  # store="auto": the values are stored when their text is at most this many characters
STORES = ("auto", "values", "policy")


_solved: ContextVar = ContextVar("solved", default=None)


@contextmanager
def already_solved(sol):
    """Within: :func:`game_certificate` writes ``sol``, the engine's solution of the game's model at
    the same parameters, instead of solving it again.  (Its digest is of ``sol.model``: a solution of
    other parameters fails the check, where the checker rebuilds the model from the parameters.)"""
    token = _solved.set(sol)
    try:
        yield
    finally:
        _solved.reset(token)


def refuse_if_too_large(game: str, params: dict, bound: int) -> None:
    """A one-line :class:`UsageError`, before any computing, when the instance may have more states
    (``bound``, the same formula the checker uses) than a certificate is checked with."""
    if bound > MAX_STATES:
        shown = " ".join(f"{k}={v if not isinstance(v, list) else len(v)}" for k, v in params.items())
        raise UsageError(f"certify {game} {shown}: a certificate needs the whole model, up to {bound:,} states "
                         f"here, more than the checker's {MAX_STATES:,}")


def game_certificate(game: str, params: dict, model_params: dict, answer_name: str, component: int,
                     digits: int = 8, progress=None, notes: str = "", store: str = "auto",
                     backend: str = "mpq", solver=None) -> dict:
    """Solve ``MODELS[game](**model_params)`` and write its certificate.

    ``params`` are stored; ``answer_name`` and ``component`` say which value of the initial state is
    the answer, written with ``digits`` decimals (or ``digits(value)``).  ``store``: ``"values"`` (every state's values and margins), ``"policy"`` (the policy,
    ties and ranks without the values and margins: the checker evaluates the policy exactly) or
    ``"auto"``: the values when their text is at most :data:`VALUES_LIMIT` characters, else the
    policy only.  ``backend``: the engine's exact numbers (``"mpq"`` or ``"fraction"``: the same
    certificate).  ``solver(model, backend, progress)``: another engine for the same
    :class:`~exactplay.engine.Solution` (the condensation's levels on Dask: ``--workers``); by
    default :func:`exactplay.engine.solve_model`, every number computed.
    """
    progress = SILENT if progress is None else progress
    if store not in STORES:
        raise UsageError(f"--store must be one of {', '.join(STORES)}, not {store!r}")
    sol = _solved.get()  # a solution already computed (exactplay.api's Solution.certify)
    if sol is None:
        model = build_model(MODELS[game](**model_params), MAX_STATES, progress)
        sol = (solve_model if solver is None else solver)(model, backend, progress)  # every number is written
    if callable(digits):  # the decimals the answer is shown with, from its exact value
        digits = digits(sol.values[sol.model.initial][sol.components.index(component)])
    progress.start("writing the certificate (canonical order, digest)", None)
    order = canonical_order(sol.model)
    model_json = canonical_model(sol.model, order)
    fields = solution_fields(sol, order, component, answer_name, digits, store=choose_store(store, sol))
    return {
        "format": "exactplay-certificate",
        "version": 2,
        "kind": "game",
        "game": game,
        "params": params,
        "model_sha256": model_digest(model_json),
        **fields,
        "tool_version": __version__,
        "notes": notes,
    }


def choose_store(store: str, sol) -> str:
    """``"values"`` or ``"policy"``: ``store`` itself, or for ``"auto"`` by the size of the values' text
    (counted from the numbers' bit lengths: about 0.30103 decimal digits a bit, plus the quotes)."""
    if store not in STORES:
        raise UsageError(f"--store must be one of {', '.join(STORES)}, not {store!r}")
    if store != "auto":
        return store
    total = 0
    for vec in sol.values:
        for x in vec:
            total += (int(x.numerator).bit_length() + int(x.denominator).bit_length()) * 30103 // 100000 + 6
            if total > VALUES_LIMIT:
                return "policy"
    return "values"
