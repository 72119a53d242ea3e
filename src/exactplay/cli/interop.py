"""What ``exactplay export`` and ``exactplay crosscheck`` read (:mod:`exactplay.cli.export`,
:mod:`exactplay.cli.crosscheck`: each command's own options and work): a built-in GAME (its own model,
:mod:`exactplay.cli.builtin_model`), a ``--game`` factory or a ``--model`` file (JSON, DRN, PRISM/JANI),
and the options each takes (:mod:`exactplay.cli.inputs` refuses the others, naming who takes them).

::

    exactplay COMMAND (GAME [params] | --game MOD:FACTORY [--param k=v] | --model FILE) [COMMAND's options]
    exactplay solve --model FILE.drn --objective Pmax|Pmin|Rmax|Rmin|Tmax|Tmin --target EXPR [--avoid EXPR] [--reward NAME]
"""

from __future__ import annotations

import argparse

from ..errors import UsageError
from ..model import ModelError
from ..api.model_source import add_drn_arguments, check_drn_arguments, is_drn, load_drn_model, load_model
from .builtin_model import BUILTIN_FACTORY, load_builtin
from .inputs import refuse_unconsumed, unrecognized, unrecognized_builtin

__all__ = ["add_parser", "run"]

EPILOG = "exit status: 0 success; 1 a disagreement (crosscheck); 2 bad usage or bad input."


def add_parser(sub, command: str, description: str, add_options) -> None:
    """``exactplay COMMAND`` as a subcommand of the main parser; ``add_options(parser, required)``
    declares the command's own options (on its parser and on each GAME's)."""
    _configure(sub.add_parser(command, description=description, epilog=EPILOG), command, add_options)


def standalone_parser(command: str, description: str, add_options, parser_class) -> argparse.ArgumentParser:
    """The command's parser on its own (as :func:`add_parser` adds it)."""
    p = parser_class(prog=f"exactplay {command}", description=description, epilog=EPILOG)
    _configure(p, command, add_options)
    return p


def _configure(p: argparse.ArgumentParser, command: str, add_options) -> None:
    """The command's options: a --game factory or a --model file and what they take, or a built-in
    GAME (race, hold, ...: its own parameters, as ``exactplay solve GAME``), then the command's own."""
    from .parsing import _add_game_params, _CommandParser, _OptionalGames

    src = p.add_mutually_exclusive_group()  # one of them, or a GAME (checked in run: argparse cannot say so)
    src.add_argument("--game", metavar="MOD:FACTORY", help="a Python factory: module:function or path/file.py:function")
    src.add_argument("--model", metavar="FILE", help="an explicit model file (JSON) or Storm's DRN (FILE.drn)")
    p.add_argument("--param", action="append", metavar="NAME=VALUE", help="a parameter for the factory (repeatable)")
    _add_size_options(p)
    add_drn_arguments(p)
    from .symbolic import add_symbolic_arguments

    add_symbolic_arguments(p, command)
    add_options(p, required=False)
    games = p.add_subparsers(dest="builtin", metavar="GAME", parser_class=_CommandParser, action=_OptionalGames)

    def build(action, game) -> None:
        gp = action.add_parser(game.name, description=f"{game.description} The game's own model "
                               f"({BUILTIN_FACTORY.format(game=game.name)}), as its certificate holds it.",
                               epilog=EPILOG)
        _add_game_params(gp, game)
        _add_size_options(gp)
        add_options(gp, required=True)

    games.add_games(build)


def _add_size_options(p) -> None:
    p.add_argument("--max-states", type=int, default=None, metavar="N", help="refuse games with more reachable states")
    p.add_argument("--quiet", "-q", action="store_true", help="no progress display")


def _require(args, command: str, required: tuple[str, ...]) -> None:
    """argparse's own errors for what a --game or --model command line lacks (a GAME's parser says them itself)."""
    missing = [flag for flag in required if getattr(args, flag.split("--")[-1]) is None]
    if missing:
        raise UsageError(f"{command}: the following arguments are required: {', '.join(missing)}")
    if args.game is None and args.model is None:
        raise UsageError(f"{command}: one of the arguments --game --model is required")


def _load(args, progress):
    from ..interop.file_kind import is_symbolic

    if is_symbolic(args.model):  # a PRISM/JANI model and its property (--const, --prop)
        from ..api.symbolic import load_symbolic

        loaded = load_symbolic(args)
        return loaded.model, args.model, loaded
    check_drn_arguments(args)
    if is_drn(args.model):
        model, order, drn = load_drn_model(args)
        return model, args.model, (order, drn)
    model, source = load_model(args, progress)
    return model, source, None


def run(args, extras: list[str], parser: argparse.ArgumentParser, required: tuple[str, ...], act,
        before_reading=None) -> int:
    """``export`` or ``crosscheck``, parsed by the main parser (``parser``): the input
    checked and read, then ``act(args, model, source, extra, progress)``; ``required``: the command's
    options that a --game or --model command line must give; ``before_reading()``: e.g. stormpy looked for."""
    from ..progress import make_progress

    from .errors import leaf_parser

    command, name = args.command, args.builtin
    parser = leaf_parser(parser, argparse.Namespace(command=command))  # the command's own
    if name is not None:
        if args.game is not None or args.model is not None:
            raise UsageError(f"{command}: name a built-in GAME or give --game or --model, not both")
        from .parsing import _OptionalGames

        _OptionalGames.refuse_before(args, command, name)
        if extras:
            raise UsageError(unrecognized_builtin(command, name, extras))
    else:
        _require(args, command, required)
        if extras:
            raise UsageError(unrecognized(parser, args, command, extras))
        refuse_unconsumed(parser, args, command)  # before stormpy is looked for or anything is read
    if before_reading is not None:
        before_reading()
    progress = make_progress(args.quiet, getattr(args, "json", False))
    try:
        try:
            if name is not None:
                from ..api.model_source import state_limit
                from ..registry import get_game
                from .parsing import _game_params

                params = _game_params(args, get_game(name))
                (model, source), extra = load_builtin(name, params, state_limit(args), progress), None
            else:
                model, source, extra = _load(args, progress)
            return act(args, model, source, extra, progress)
        except ModelError as exc:
            raise UsageError(str(exc)) from None
    finally:
        progress.close()
