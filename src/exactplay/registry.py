"""The game registry, on the ground floor: every layer finds a game here by name, and the game's
package (``games/<name>/``) is imported only when the game is used, so no import climbs back up
into :mod:`exactplay.games` and ``exactplay --help`` stays fast.

Every game package defines one ``GAME = Game(...)`` describing its parameters and the functions
the CLI calls; they take the parsed parameters as keyword arguments plus:

* ``solve(backend, digits, full, progress, **params) -> Report``: the game's typed
  :class:`~exactplay.solve_result.SolveResult` rendered by :mod:`exactplay.present.render.solve` (a ball
  solve, ``--backend ball|auto``, an :class:`~exactplay.audit.enclosure_result.EnclosureResult` rendered by
  :mod:`exactplay.present.render.enclosure`)
* ``audit(backend, digits, progress, **params) -> AuditResult`` (:mod:`exactplay.audit.result`;
  rendered by :mod:`exactplay.present.render`); with ``--backend ball|auto`` both return an
  :class:`~exactplay.audit.enclosure_result.EnclosureResult`
* ``certify(backend, progress, store, solver, **params) -> dict`` (a certificate: the game's model
  solved, ``games/<name>/model.py``'s ``certify``)

A :class:`~exactplay.present.rendered.Report` carries both renderings of a result: ``data`` (JSON-ready,
exact numbers as ``"p/q"``) and ``lines`` (what a person reads).
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass
from typing import Any, Callable

from .errors import UsageError

GAME_MODULES = {
    "race": "exactplay.games.race",
    "hold": "exactplay.games.hold",
    "chefs": "exactplay.games.chefs",
    "coins": "exactplay.games.coins",
    "war": "exactplay.games.war",
}


@dataclass(frozen=True)
class Param:
    """One game parameter: ``--name VALUE`` (or positional words if ``positional``)."""

    name: str
    parse: Callable[[str], Any]
    default: Any
    help: str
    positional: bool = False  # takes the remaining words (e.g. coin values)
    metavar: str | None = None


@dataclass(frozen=True)
class Game:
    name: str
    title: str
    params: tuple[Param, ...]
    solve: Callable[..., Any]  # -> a Report (exactplay.present.rendered)
    audit: Callable[..., Any]  # -> a Report
    certify: Callable[..., dict]
    description: str = ""
    # instances to keep certificates of in proofs/<game>/: list of (filename, params) (model.PROOFS)
    proofs: tuple[tuple[str, dict], ...] = ()
    # optional contest judge: judge_arguments(argparse parser) adds its options,
    # judge(args, backend) -> exit status runs it (``exactplay judge GAME``)
    judge: Callable[..., int] | None = None
    judge_arguments: Callable[..., None] | None = None
    # optional: value_table(backend, progress, **params) -> (exact {state: value},
    # state coordinate names, what the value is), to audit a user's float table
    # (``exactplay audit GAME --float-table FILE``)
    value_table: Callable[..., tuple] | None = None
    # the float table's state coordinates (the columns before the value) and what the value
    # is, known without computing: ``exactplay list`` shows them, a table is read before solving
    table_columns: tuple[str, ...] = ()
    table_value: str = ""
    # optional: heavy(command, params) -> a one-line note (e.g. "takes about 3 minutes and
    # 1.5 GB") when the command at these parameters takes minutes, else None; the CLI
    # prints it on stderr before it starts
    heavy: Callable[[str, dict], str | None] | None = None
    # optional: what --backend means for this game (which solver each backend runs)
    backend_help: str | None = None
    # optional: prec_help(command) -> the --prec help of that command (what runs without --prec, and why)
    prec_help: Callable[[str], str] | None = None
    # solve/audit (and certify, if ball certificates exist) run with --backend ball|auto
    ball: bool = False


def _package(name: str) -> str:
    """The package of game ``name``; a :class:`UsageError` if there is none."""
    if name not in GAME_MODULES:
        raise UsageError(f"unknown game {name!r}: choose one of {', '.join(GAME_MODULES)}")
    return GAME_MODULES[name]


def game_model(name: str) -> Callable[..., Any]:
    """The factory of game ``name`` written as a model of the engine (``games/<name>/model.py``).

    ``game_model("race")(target=2)`` is a game object for :func:`exactplay.engine.solve`.
    """
    return importlib.import_module(_package(name) + ".model").make_game


def fast_path(name: str) -> Any | None:
    """The game's optional hand-written fast path, ``games/<name>/fast_solution.py``, or None.

    The module defines ``fast_solution(**params, backend="mpq") -> Solution`` (the parameters of the
    model factory; the engine's typed solution of that model, computed by the hand-written solver) and
    ``small_params(st)``, a hypothesis strategy of small parameters (``st`` is ``hypothesis.strategies``)
    for the conformance suite.  A game without one is solved by the engine.
    """
    module = _package(name) + ".fast_solution"
    try:
        return importlib.import_module(module)
    except ModuleNotFoundError as exc:
        if exc.name == module:
            return None
        raise


class _Models(dict):
    """``MODELS[name]`` is :func:`game_model` of ``name``, imported on first use."""

    def __missing__(self, name: str) -> Callable[..., Any]:
        if name not in GAME_MODULES:
            raise KeyError(name)
        self[name] = factory = game_model(name)
        return factory

    def __iter__(self):
        return iter(GAME_MODULES)

    def __len__(self) -> int:
        return len(GAME_MODULES)

    def __contains__(self, name: object) -> bool:
        return name in GAME_MODULES

    def items(self):
        return [(name, self[name]) for name in GAME_MODULES]

    def keys(self):
        return list(GAME_MODULES)

    def values(self):
        return [self[name] for name in GAME_MODULES]


MODELS: dict[str, Callable[..., Any]] = _Models()
"""The registry's game models by name, each imported on first use."""


def game_names() -> list[str]:
    return list(GAME_MODULES)


def get_game(name: str) -> Game:
    """The registered game ``name``; a :class:`UsageError` if there is none."""
    package = _package(name)
    try:
        module = importlib.import_module(package)
    except ModuleNotFoundError as exc:  # a game not built yet
        if exc.name == package:
            raise UsageError(f"game {name!r} is not available in this version") from None
        raise
    return module.GAME
