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

from contextlib import contextmanager
from contextvars import ContextVar

from . import __version__
from .engine import solve
from .errors import UsageError
from .games import MODELS
from .model.canonical import canonical_model, canonical_order, model_digest
from .model_certificate import solution_fields
from .progress import SILENT

__all__ = ["game_certificate", "refuse_if_too_large", "default_format_only", "already_solved", "BeyondDefault",
           "MAX_STATES", "DEFAULT_STATES", "VALUES_LIMIT", "STORES"]

MAX_STATES = 3_000_000  # the checker's limit on a version 2 certificate's states (checker._strict.MAX_STATES)
DEFAULT_STATES = 100_000  # certify without --format: version 2 up to this state bound, else version 1
VALUES_LIMIT = 1_000_000  # store="auto": the values are stored when their text is at most this many characters
STORES = ("auto", "values", "policy")


class BeyondDefault(UsageError):
    """Raised (before any computing) by :func:`refuse_if_too_large` inside :func:`default_format_only`:
    the instance is too large for version 2 as the default format; the CLI writes version 1."""


_default_only: ContextVar[bool] = ContextVar("default_only", default=False)
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


@contextmanager
def default_format_only():
    """Within: an instance whose model may have more than :data:`DEFAULT_STATES` states raises
    :class:`BeyondDefault` instead of being solved (``certify`` without ``--format``)."""
    token = _default_only.set(True)
    try:
        yield
    finally:
        _default_only.reset(token)


def refuse_if_too_large(game: str, params: dict, bound: int) -> None:
    """A one-line :class:`UsageError`, before any computing, when the instance may have more states
    (``bound``, the same formula the checker uses) than a certificate v2 is checked with; within
    :func:`default_format_only`, :class:`BeyondDefault` past :data:`DEFAULT_STATES`."""
    shown = " ".join(f"{k}={v if not isinstance(v, list) else len(v)}" for k, v in params.items())
    if bound > MAX_STATES:
        raise UsageError(f"certify {game} {shown}: a version 2 certificate needs the whole model, up to "
                         f"{bound:,} states here, more than the checker's {MAX_STATES:,}; use --format v1")
    if bound > DEFAULT_STATES and _default_only.get():
        raise BeyondDefault(f"certify {game} {shown}: up to {bound:,} states, more than the {DEFAULT_STATES:,} "
                            "a version 2 certificate is written for by default (its exact margins, and the check, "
                            "grow past what proofs/ can hold); writing version 1 (--format v2 to insist)")


def game_certificate(game: str, params: dict, model_params: dict, answer_name: str, component: int,
                     digits: int = 8, progress=None, notes: str = "", store: str = "auto",
                     backend: str = "mpq") -> dict:
    """Solve ``MODELS[game](**model_params)`` with the engine and write its certificate v2.

    ``params`` are stored (the version 1 certificate's spelling); ``answer_name`` and
    ``component`` say which value of the initial state is the answer.  ``store``: ``"values"``
    (every state's values), ``"policy"`` (the policy, margins, ties and ranks without the values:
    the checker evaluates the policy exactly) or ``"auto"``: the values when their text is at most
    :data:`VALUES_LIMIT` characters, else the policy only.  ``backend``: the engine's exact numbers
    (``"mpq"`` or ``"fraction"``: the same certificate).
    """
    progress = SILENT if progress is None else progress
    sol = _solved.get()  # a solution already computed (exactplay.api's Solution.certify), else the engine's
    if sol is None:
        sol = solve(MODELS[game](**model_params), backend=backend, progress=progress)  # every number is written
    progress.start("writing the certificate v2 (canonical order, digest)", None)
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
