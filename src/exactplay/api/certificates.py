"""The certificate of an :class:`~exactplay.api.solution.Solution`, written by the command line's writers.

* a built-in game: its certificate of kind ``game`` (:mod:`exactplay.certify.game`: the
  parameters and the digest of the game's canonical model; the checker rebuilds the model from its
  own statement of the rules), from the solution already computed;
* a PRISM or JANI model: the model certificate with its ``source`` (the file's SHA-256, the
  constants, the property and its answer at each initial state);
* any other game: the model certificate (:mod:`exactplay.certify.model`: the explicit model
  inside, the factory's parameters recorded).
"""

from __future__ import annotations

__all__ = ["certificate_of"]


def certificate_of(sol, store: str = "auto", digits: int = 8) -> dict:
    """The certificate v2 of ``sol`` (a :class:`~exactplay.api.solution.Solution`)."""
    from ..errors import UsageError
    from ..certify.game import STORES

    if store not in STORES:
        raise UsageError(f"store must be one of {', '.join(STORES)}, not {store!r}")
    src = sol.source
    if src.kind == "builtin":
        if digits != 8:
            raise UsageError(f"a {src.builtin} certificate states its answer with the game's own digits; "
                             "digits= is for other games' certificates")
        from ..certify.game import already_solved
        from ..registry import get_game

        with already_solved(sol.engine):
            return get_game(src.builtin).certify(**src.params, store=store)
    from ..certify.model import model_certificate

    if store == "policy":  # (as the command line: a model certificate holds the model and every value)
        raise UsageError("a model certificate stores every value (store='policy' is for the built-in games)")
    if src.kind == "symbolic":
        from .symbolic import source_block

        return model_certificate(sol.engine, digits, source=source_block(src.loaded, sol.engine))
    from .model_source import record_params

    return model_certificate(sol.engine, digits, params=record_params(src.params) if src.kind == "factory" else {})
