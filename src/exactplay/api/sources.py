"""What :func:`exactplay.solve` is given, read into a model and the states its results are keyed by.

A game is one of:

* a Python object following the protocol of :mod:`exactplay.model.protocol` (its results are keyed
  by the game's own state objects);
* ``"path/file.py:factory"`` or ``"module:factory"``, called with the keyword parameters;
* a built-in game's name (``"race"``, ``"hold"``, ``"chefs"``, ``"coins"``, ``"war"``) with the
  parameters ``exactplay list`` shows (``target=``, ``faces=``, ...), solved as the game's model by
  the engine (keyed by that model's states);
* a model file: explicit JSON (keyed by the state names), Storm's DRN (``.drn``, ``.drn.gz``, with
  ``objective=``, ``target=``, ``avoid=``, ``reward=``; keyed by the DRN state numbers), PRISM,
  PRISM-games or JANI (``.prism``, ``.pm``, ``.nm``, ``.smg``, ``.jani``, with ``prop=``,
  ``const=``, ``props=``, ``fix_deadlocks=``; keyed by the variable valuations as text).

Each source says which options it takes; any other is refused in one line (a
:class:`~exactplay.errors.UsageError`), as the command line does.

>>> source_kind("examples/pig.py:make_game"), source_kind("race"), source_kind("m.drn.gz")
('factory', 'builtin', 'drn')
>>> source_kind("dice.prism"), source_kind("model.json"), source_kind("exactplay.games.race.model:make_game")
('symbolic', 'json', 'factory')
"""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction
from pathlib import Path
from typing import Any

from ..errors import UsageError

__all__ = ["Source", "load_source", "source_kind", "MODEL_OPTIONS", "BUILTIN_ANSWERS"]

# the options each kind of source takes besides its parameters
MODEL_OPTIONS = {
    "drn": ("objective", "target", "avoid", "reward"),
    "symbolic": ("prop", "const", "props", "fix_deadlocks"),
    "json": (),
}

# Each built-in game's answer: the component of the initial state's value and its name, as the
# game's certificate names them (each game's ``certify`` in ``games/<name>/model.py``; tests/test_api.py holds the two together).
BUILTIN_ANSWERS = {
    "race": lambda p, m: (1, f"G({p['target']},{p['target']})"),
    "hold": lambda p, m: (0, "V(0,0)"),
    "chefs": lambda p, m: (m.num_players - 1, f"E({m.num_players - 1})"),
    "coins": lambda p, m: (0, f"V(0,{_row_end(m)})"),
    "war": lambda p, m: (0, "P(A wins every turn)"),
}


def _row_end(model) -> int:
    """The last coin's position of a coin-row model (its initial state is ``coins 0..n-1``)."""
    return int(str(model.states[model.initial]).split("..")[-1].split()[0])


@dataclass
class Source:
    """A game read into a model: ``keys[i]`` is what the results call state ``i`` (None: the
    model's state names), ``component`` the payoff component the answer is (None: the first one
    solved), ``answer`` its name (None: "value of <initial state> to <player>")."""

    kind: str  # "object", "factory", "builtin", "json", "drn", "symbolic"
    model: Any
    shown: str  # how the game is named in a repr
    keys: list | None = None
    params: dict = field(default_factory=dict)
    builtin: str | None = None
    component: int | None = None
    answer: str | None = None
    loaded: Any = None  # a PRISM/JANI model's Loaded (its property, for the certificate's source)


def source_kind(game: Any) -> str:
    """``"object"``, ``"factory"``, ``"builtin"``, ``"json"``, ``"drn"`` or ``"symbolic"``."""
    if not isinstance(game, (str, Path)):
        return "object"
    text = str(game)
    from ..registry import GAME_MODULES
    from .model_source import is_drn

    if text in GAME_MODULES:
        return "builtin"
    if is_drn(text):
        return "drn"
    low = text.lower()
    if low.endswith((".json", ".json.gz")):
        return "json"
    from ..interop.file_kind import PRISM_SUFFIXES, is_symbolic

    if low.endswith(PRISM_SUFFIXES + (".jani",)) or (Path(text).is_file() and is_symbolic(text)):
        return "symbolic"
    if ":" in text:
        return "factory"
    if Path(text).exists():
        raise UsageError(f"{text}: not a model file exactplay reads (.json, .drn, .drn.gz, .prism, .pm, .nm, .smg, "
                         ".jani)")
    raise UsageError(f"{text[:80]!r} is neither a built-in game ({', '.join(GAME_MODULES)}), a FILE.py:FACTORY or "
                     "MODULE:FACTORY, nor a model file (.json, .drn, .prism, .jani)")


def load_source(game: Any, params: dict, max_states: int | None = None) -> Source:
    """The model of ``game`` and what its results are keyed by (see the module's text)."""
    from ..model.compiled import MAX_STATES

    limit = MAX_STATES if max_states is None else int(max_states)
    if limit < 1:
        raise UsageError("max_states must be at least 1")
    kind = source_kind(game)
    options = MODEL_OPTIONS.get(kind, ())
    if kind in MODEL_OPTIONS:
        unknown = sorted(set(params) - set(options))
        if unknown:
            takes = f"it takes {', '.join(o + '=' for o in options)}" if options else "it takes no options"
            raise UsageError(f"{game}: {', '.join(unknown)} is not an option of a {_KIND_NAMES[kind]} ({takes})")
    if kind == "object":
        return _from_object(game, params, limit)
    if kind == "factory":
        from ..model.load import make_game

        src = _from_object(make_game(str(game), dict(params)), {}, limit)
        src.kind, src.shown, src.params = "factory", str(game) + _shown_params(params), dict(params)
        return src
    if kind == "builtin":
        return _builtin(str(game), params, limit)
    path = str(game)
    if not Path(path).is_file():
        raise UsageError(f"{path}: no such model file")
    if kind == "json":
        from ..model import load_model_file

        return Source("json", load_model_file(path, limit), Path(path).name)
    if kind == "drn":
        return _drn(path, params, limit)
    return _symbolic(path, params, limit)


_KIND_NAMES = {"drn": "DRN model", "symbolic": "PRISM or JANI model", "json": "JSON model"}


def _shown_params(params: dict) -> str:
    return "".join(f" {k}={v}" for k, v in params.items())


def _from_object(game: Any, params: dict, limit: int) -> Source:
    if params:
        raise UsageError(f"parameters {', '.join(sorted(params))} go to a factory (\"file.py:make_game\"); a game "
                         "object is solved as it is")
    from ..model.build import build_model_with_states

    model, objects = build_model_with_states(game, limit)
    return Source("object", model, model.name, keys=objects)


def _builtin(name: str, params: dict, limit: int) -> Source:
    """A built-in game's model, with the parameters of its registry entry (``exactplay list``)."""
    from ..registry import MODELS, get_game
    from ..model.build import build_model_with_states

    entry = get_game(name)
    known = {p.name: p for p in entry.params}
    unknown = sorted(set(params) - set(known))
    if unknown:
        raise UsageError(f"{name}: {', '.join(unknown)} is not a parameter of {name} (its parameters: "
                         f"{', '.join(known) or 'none'})")
    given = {}
    for key, value in params.items():
        if isinstance(value, float):
            raise UsageError(f"{name}: {key}={value!r} is a float; give an exact number (int, Fraction or 'p/q')")
        # text is read as on the command line, an int checked by the same parser (its range); a row of
        # coins or a list of skills is the factory's to check
        plain_int = isinstance(value, int) and not isinstance(value, bool)
        given[key] = known[key].parse(str(value) if plain_int else value) if plain_int or isinstance(value, str) \
            else value
    full = {p.name: given.get(p.name, p.default) for p in entry.params}
    from ..games.params import factory_params  # the certified model's parameters (war: its sorted counts)

    kwargs = factory_params(name, {k: v for k, v in full.items() if v is not None})
    model, objects = build_model_with_states(MODELS[name](**kwargs), limit)
    component, answer = BUILTIN_ANSWERS[name](full, model)
    return Source("builtin", model, name + _shown_params(given), keys=objects, params=given, builtin=name,
                  component=component, answer=answer)


def _drn(path: str, params: dict, limit: int) -> Source:
    from types import SimpleNamespace

    from .model_source import check_drn_arguments, load_drn_model

    args = SimpleNamespace(model=path, max_states=limit, **{k: params.get(k) for k in MODEL_OPTIONS["drn"]})
    check_drn_arguments(args)
    model, order, _ = load_drn_model(args)
    return Source("drn", model, Path(path).name, keys=list(order), params=dict(params))


def _symbolic(path: str, params: dict, limit: int) -> Source:
    from ..interop.symbolic_model import load

    const = params.get("const")
    if isinstance(const, dict):
        const = ",".join(f"{k}={_constant(k, v)}" for k, v in const.items())
    loaded = load(path, const, None if params.get("prop") is None else str(params["prop"]), params.get("props"),
                  bool(params.get("fix_deadlocks")))
    if len(loaded.model) > limit:
        raise UsageError(f"{path}: {len(loaded.model):,} states is more than max_states {limit:,}")
    return Source("symbolic", loaded.model, loaded.describe(), params=dict(params), loaded=loaded,
                  answer=loaded.property_text)


def _constant(name: str, value: Any) -> str:
    """A PRISM constant's value as Storm reads it exactly (a float is refused).

    >>> _constant("p", Fraction(1, 5)), _constant("N", 3), _constant("b", True)
    ('1/5', '3', 'true')
    """
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float):
        raise UsageError(f"const {name}={value!r} is a float; give an exact number (int, Fraction or 'p/q')")
    if isinstance(value, Fraction):
        from ..numbers.backends import format_pq

        return format_pq(value)
    return str(value)
