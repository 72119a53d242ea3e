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

__all__ = ["certificate_of", "write_certificate_of"]


def certificate_of(sol, store: str = "auto", digits: int = 8) -> dict:
    """The certificate v2 of ``sol`` (a :class:`~exactplay.api.solution.Solution`)."""
    src = sol.source
    if src.kind == "builtin":
        return _builtin(sol, store, digits)
    from ..certify.model import model_certificate

    return model_certificate(sol.engine, digits, **_model_fields(sol, store))


def write_certificate_of(sol, path: str, store: str = "auto", digits: int = 8) -> None:
    """Write :func:`certificate_of`'s certificate to ``path`` with the command line's writer: a model
    certificate the same bytes as ``exactplay certify`` writes (the model one state per line, hashed as it
    is written), a built-in game's as its ``certify``."""
    if sol.source.kind == "builtin":
        from ..certify.write import write_certificate

        write_certificate(_builtin(sol, store, digits), path)
        return
    from ..certify.model import write_certificate_file

    write_certificate_file(sol.engine, str(path), digits=digits, **_model_fields(sol, store))


def _builtin(sol, store: str, digits: int) -> dict:
    from ..errors import UsageError
    from ..certify.game import already_solved
    from ..registry import get_game

    _check_store(store)
    src = sol.source
    if digits != 8:
        raise UsageError(f"a {src.builtin} certificate states its answer with the game's own digits; "
                         "digits= is for other games' certificates")
    with already_solved(sol.engine):
        return get_game(src.builtin).certify(**src.params, store=store)


def _model_fields(sol, store: str) -> dict:
    """The model certificate's fields beside the solution: ``store`` (``auto`` is ``values``, as the command
    line's default), a factory's recorded parameters, a PRISM/JANI model's ``source``."""
    _check_store(store)
    src = sol.source
    fields = {"store": "values" if store == "auto" else store}
    if src.kind == "symbolic":
        from .symbolic import source_block

        return {**fields, "source": source_block(src.loaded, sol.engine)}
    from .model_source import record_params

    return {**fields, "params": record_params(src.params) if src.kind == "factory" else {}}


def _check_store(store: str) -> None:
    from ..errors import UsageError
    from ..certify.game import STORES

    if store not in STORES:
        raise UsageError(f"store must be one of {', '.join(STORES)}, not {store!r}")
