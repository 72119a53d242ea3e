"""The kinds of input the commands read, and the options each one consumes, declared once.

A command that reads a game reads it as one kind of input: a built-in GAME (its parameters are
declared by the game registry, :mod:`exactplay.games`), a ``--game`` factory, or a ``--model`` file
(explicit JSON, Storm's DRN, PRISM or JANI).  :data:`INPUT_KINDS` says which options each kind consumes beyond the
command's own (``--json``, ``--digits``, ``-o`` ...).  :func:`refuse_unconsumed` refuses, in one
line naming who takes it, every option given that the kind of this input does not consume, and
:func:`owner_hint` builds the same line for an option argparse does not know (a built-in game's
parser has none of these options).  Both are applied after argparse has parsed the whole command line
(:mod:`exactplay.cli.sources`: one parser per command, with every input's options).  A new kind of input is one more :class:`InputKind`; a new
option of a kind is one more flag in its ``options``.  :data:`NEEDS` declares the options that are
used only together with another (``--tile`` with ``--workers``).
"""

from __future__ import annotations

import argparse
from dataclasses import dataclass, field
from typing import Callable

from ..errors import UsageError
from .builtin_model import BUILTIN_FACTORY  # the games' own models (export GAME, solve GAME --param-symbol p)

__all__ = ["InputKind", "INPUT_KINDS", "INPUT_OPTIONS", "BUILTIN_FACTORY", "NEEDS", "given_options", "kind_of",
           "refuse_unconsumed", "refuse_unneeded", "owner_hint", "builtin_of", "game_takes", "unrecognized",
           "unrecognized_builtin"]

GAME_COMMANDS = ("solve", "audit", "certify", "report")  # a built-in GAME, a --game factory or a --model file
INTEROP_COMMANDS = ("export", "crosscheck")  # built-in games as their models, factories, model files


@dataclass(frozen=True)
class InputKind:
    """One kind of input: what it is called, how it is named on the command line, what it consumes."""

    name: str
    what: str  # "a DRN model": how a message names it
    usage: str  # "--model FILE.drn": how a command line names it
    options: tuple[str, ...]  # the options it consumes, beyond the command's own
    source: str = "--model"  # the option that names the input: --game or --model
    suffixes: tuple[str, ...] = ()  # --model files of this kind, by suffix (lower case); () = any other file
    needs: str | None = None  # the option that selects this kind (a --game factory with --param-symbol)
    commands: tuple[str, ...] = GAME_COMMANDS + INTEROP_COMMANDS  # the commands that read it
    unused: dict = field(default_factory=dict)  # options of the command this kind does not use -> why
    matches: Callable[[str], bool] | None = None  # --model files of this kind, by their name or contents

    def takes(self) -> str:
        return " ".join(self.options) if self.options else "no further options"


# the options of one command for a PRISM/JANI model only (audit and report: PRISM's float iteration;
# solve: the QVBS result file): every other kind refuses them, saying who takes them
PRISM_ONLY = {
    "--float-method": "PRISM's float iteration is for a PRISM or JANI model (exactplay audit --model FILE.prism ...)",
    "--epsilon": "PRISM's float iteration is for a PRISM or JANI model (exactplay audit --model FILE.prism ...)",
    "--max-iterations": "PRISM's float iteration is for a PRISM or JANI model (exactplay audit --model FILE.prism ...)",
    "--qvbs-result": "a QVBS result is written for a PRISM, JANI or DRN model (exactplay solve --model FILE.prism ...)",
}
NOT_DRN = {k: v for k, v in PRISM_ONLY.items() if k != "--qvbs-result"}  # (a DRN model writes QVBS results too)

INPUT_KINDS: tuple[InputKind, ...] = (
    InputKind("parametric", "a --game factory with --param-symbol", "--game MOD:FACTORY --param-symbol NAME",
              ("--param", "--param-symbol", "--range", "--component", "--max-states"), source="--game",
              needs="--param-symbol", commands=("solve", "certify", "report"),
              unused={"--digits": "the regions, breakpoints and values are printed exactly",
                      "--prec": "parametric solving runs in exact arithmetic",
                      "--workers": "parametric solving runs on one machine",
                      "--scheduler": "parametric solving runs on one machine", **PRISM_ONLY}),
    InputKind("factory", "a --game factory", "--game MOD:FACTORY", ("--param", "--max-states"), source="--game",
              unused=PRISM_ONLY),
    InputKind("drn", "a DRN model", "--model FILE.drn", ("--objective", "--target", "--avoid", "--reward",
                                                          "--max-states"), suffixes=(".drn", ".drn.gz"),
              unused=NOT_DRN),
    InputKind("prism", "a PRISM or JANI model", "--model FILE.prism|FILE.jani",
              ("--const", "--prop", "--props", "--fix-deadlocks", "--max-states"), matches=lambda path: _symbolic(path),
              unused={"--workers": "a PRISM or JANI model is solved on one machine",
                      "--scheduler": "a PRISM or JANI model is solved on one machine"}),
    InputKind("json", "an explicit model file", "--model FILE.json", ("--max-states",), unused=PRISM_ONLY),
)


def _symbolic(path: str) -> bool:
    from ..interop.file_kind import is_symbolic

    return is_symbolic(path)

INPUT_OPTIONS: tuple[str, ...] = tuple(dict.fromkeys(o for k in INPUT_KINDS for o in k.options))


def game_takes(game) -> str:
    """What a built-in game's command line takes (its registry parameters): ``--target`` or ``COINS... --file``."""
    words = [p.name.upper() + "..." if p.positional else f"--{p.name.replace('_', '-')}" for p in game.params]
    return " ".join(words) if words else "no parameters"


def builtin_of(spec: str | None) -> str | None:
    """The built-in game a ``--game`` spec stands for (:data:`BUILTIN_FACTORY`), or None."""
    from ..registry import game_names

    for game in game_names():
        if spec == BUILTIN_FACTORY.format(game=game):
            return game
    return None


def _long(action: argparse.Action) -> str:
    return next((o for o in action.option_strings if o.startswith("--")), action.option_strings[0])


def given_options(parser: argparse.ArgumentParser, args: argparse.Namespace) -> dict:
    """The options given on the command line, by their long flag: those whose value is not the
    parser's default (an option given its default value changes nothing, so it is not counted)."""
    out = {}
    for action in parser._actions:
        if not action.option_strings or isinstance(action, (argparse._HelpAction, argparse._VersionAction)):
            continue
        value = getattr(args, action.dest, None)
        if value is not None and value != [] and value != parser.get_default(action.dest):
            out[_long(action)] = value
    return out


def kind_of(args: argparse.Namespace, given: dict) -> InputKind:
    """The kind of input ``args`` names (``--game`` or ``--model``, its suffix, a selecting option)."""
    source = "--game" if getattr(args, "game", None) else "--model"
    named = str(getattr(args, "model", None) or "")
    path = named.lower()
    for kind in INPUT_KINDS:
        if kind.source != source or (kind.needs is not None and kind.needs not in given):
            continue
        if kind.matches is not None:
            if source == "--model" and kind.matches(named):
                return kind
            continue
        if source == "--game" or not kind.suffixes or path.endswith(kind.suffixes):
            return kind
    raise AssertionError(f"no input kind for {source}")  # pragma: no cover - json takes every other file


def _factory_names(spec: str | None) -> list[str] | None:
    """The keyword parameters of the factory ``spec``, or None when it cannot be looked at."""
    if not spec:
        return None
    import inspect

    from ..model.load import load_factory

    try:
        sig = inspect.signature(load_factory(spec))
    except Exception:  # noqa: BLE001 - a hint only: the command itself reports a factory that fails
        return None
    kinds = (inspect.Parameter.POSITIONAL_OR_KEYWORD, inspect.Parameter.KEYWORD_ONLY)
    return [p.name for p in sig.parameters.values() if p.kind in kinds]


def _tail(kind: InputKind, flag: str, value, spec: str | None) -> str:
    """What this input takes instead: its options; for a factory, how its parameters are given."""
    if "--param" not in kind.options:
        return f"{kind.what} takes {kind.takes()}"
    name = flag.lstrip("-").replace("-", "_")
    shown = value if isinstance(value, str) and value else "VALUE"
    names = _factory_names(spec)
    number = shown.replace("/", "").replace(".", "").lstrip("-").isdigit()
    others = " ".join(o for o in kind.options if o != "--param")
    also = f"; also {others}" if others else ""
    if names and name in names:
        return f"{spec} takes its parameters as --param NAME=VALUE: here --param {name}={shown}{also}"
    if names:
        return (f"{spec} takes its parameters as --param NAME=VALUE ({', '.join(names)}: e.g. "
                f"--param {names[0]}={shown if number else 'VALUE'}){also}")
    return f"{kind.what} takes its parameters as --param NAME=VALUE (e.g. --param {name}={shown}){also}"


def _owners(flag: str, command: str, mine: InputKind | None, game: str | None) -> tuple[str | None, bool]:
    """``(who, elsewhere)``: who takes ``flag`` (``a hold option (exactplay solve hold --faces ...)``,
    ``an option of a DRN model (...)``; built-in games from the registry, input kinds from
    :data:`INPUT_KINDS`), and whether only other commands do (``--param-symbol`` in ``audit``)."""
    from ..registry import get_game, game_names

    cmd = command if command in GAME_COMMANDS + INTEROP_COMMANDS else "solve"
    name = flag.lstrip("-").replace("-", "_")
    games = []
    for other in game_names():
        if other == game:
            continue
        try:
            if any(p.name == name and not p.positional for p in get_game(other).params):
                games.append(other)
        except Exception:  # noqa: BLE001 - a game that does not load gives no hint
            continue
    kinds = [k for k in INPUT_KINDS if flag in k.options and k is not mine and cmd in k.commands]
    elsewhere = not kinds and not games and command in GAME_COMMANDS + INTEROP_COMMANDS
    if not kinds and not games:  # taken by other commands only (--param-symbol: solve, certify, report)
        kinds = [k for k in INPUT_KINDS if flag in k.options]
        cmd = kinds[0].commands[0] if kinds else cmd
    # a kind selected by an option (--param-symbol) is named only for the options no other kind takes
    kinds = [k for k in kinds if k.needs is None or not any(j.needs is None for j in kinds)]
    parts = []
    if games:
        head = f"a {games[0]} option" if len(games) == 1 else f"an option of {' and '.join(games)}"
        parts.append(f"{head} (exactplay {cmd} {games[0]} {flag} ...)")
    if kinds:
        whats = " and ".join(k.what for k in kinds)
        if elsewhere:
            cmds = kinds[0].commands
            whats += f" in {', '.join(cmds[:-1])} and {cmds[-1]}" if len(cmds) > 1 else f" in {cmds[0]}"
        usage = kinds[0].usage + ("" if flag in kinds[0].usage.split() else f" {flag}")
        parts.append(f"{'an option of ' if not parts else 'of '}{whats} (exactplay {cmd} {usage} ...)")
    return (" and ".join(parts) if parts else None), elsewhere and bool(parts)


def owner_hint(flag: str, command: str, kind: InputKind | None = None, game: str | None = None,
               value=None, spec: str | None = None) -> str | None:
    """One line for ``flag`` given to ``command`` on an input that does not take it: who takes it,
    and what this input takes (``kind``: an input kind; ``game``: a built-in game), or None when no
    input takes ``flag``."""
    game = game or builtin_of(spec)
    owners, elsewhere = _owners(flag, command, kind, game)
    if owners is None:
        return None
    if elsewhere or (kind is None and game is None):
        return f"{flag} is {owners}, not of {command}" + ("" if elsewhere else f" (exactplay {command} --help)")
    if kind is not None and builtin_of(spec) is None:
        return f"{flag} is {owners}; {_tail(kind, flag, value, spec)}"
    from ..registry import get_game

    return f"{flag} is {owners}; {game} takes {game_takes(get_game(game))}"


def _first_flag(extras: list[str]) -> tuple[str | None, str | None]:
    """The first option among argparse's leftover words, and the value given with it."""
    for i, word in enumerate(extras):
        if word.startswith("--") and len(word) > 2:
            flag, eq, value = word.partition("=")
            after = extras[i + 1] if i + 1 < len(extras) else ""
            return flag, value if eq else (after if after and not after.startswith("-") else None)
    return None, None


def unrecognized(parser: argparse.ArgumentParser, args: argparse.Namespace, command: str, extras: list[str]) -> str:
    """The line for words argparse did not recognise on a command reading a --game or --model input:
    who takes the option (:func:`owner_hint`), or how a factory takes its parameters."""
    base = f"{command}: unrecognized arguments: {' '.join(extras)[:80]}"
    flag, value = _first_flag(extras)
    if flag is None:
        return base
    kind = kind_of(args, given_options(parser, args))
    spec = getattr(args, "game", None)
    hint = owner_hint(flag, command, kind, value=value, spec=spec)
    if hint is not None:
        return hint
    if "--param" in kind.options and builtin_of(spec) is None:
        return f"{base} ({_tail(kind, flag, value, spec)})"
    return f"{base} (exactplay {command} --help)"


def unrecognized_builtin(command: str, game: str, extras: list[str]) -> str:
    """The line for words argparse did not recognise on ``export|crosscheck GAME``: who takes the
    option (:func:`owner_hint`: another game, an input kind), else the command's help."""
    base = f"{command}: unrecognized arguments: {' '.join(extras)[:80]}"
    flag, value = _first_flag(extras)
    if flag is None:
        return base
    return owner_hint(flag, command, game=game, value=value) or f"{base} (exactplay {command} --help)"


def refuse_unconsumed(parser: argparse.ArgumentParser, args: argparse.Namespace, command: str) -> InputKind:
    """The kind of input of ``args``; an option given that it does not consume is refused (one line)."""
    given = given_options(parser, args)
    kind = kind_of(args, given)
    spec = getattr(args, "game", None)
    for flag, value in given.items():
        if flag in INPUT_OPTIONS and flag not in kind.options:
            raise UsageError(owner_hint(flag, command, kind, value=value, spec=spec))
        if flag in kind.unused:
            raise UsageError(f"{flag} is not used with {kind.what}: {kind.unused[flag]}")
    refuse_unneeded(given, args)
    return kind


@dataclass(frozen=True)
class Need:
    """``option`` is used only when ``holds(args)``; ``why`` says what it needs."""

    option: str
    why: str
    holds: Callable[[argparse.Namespace], bool]


def _distributed(args) -> bool:
    return getattr(args, "workers", None) is not None or getattr(args, "scheduler", None) is not None


def _exact(args) -> bool:
    return getattr(args, "backend", "mpq") not in ("ball", "auto")


NEEDS: tuple[Need, ...] = (
    Need("--tile", "it sizes the tiles of a distributed run: add --workers N or --scheduler ADDRESS", _distributed),
    Need("--workers", "a distributed run is exact (--backend mpq or fraction); balls run on one machine", _exact),
    Need("--scheduler", "a distributed run is exact (--backend mpq or fraction); balls run on one machine", _exact),
    Need("--store", "it chooses what an exact certificate stores; --backend ball writes the ball certificate",
         _exact),
)


def refuse_unneeded(given: dict, args: argparse.Namespace) -> None:
    """Refuse an option given without what it needs (:data:`NEEDS`)."""
    for need in NEEDS:
        if need.option in given and not need.holds(args):
            raise UsageError(f"{need.option} is not used here: {need.why}")
