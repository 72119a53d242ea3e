"""The commands that read a game (``solve``, ``audit``, ``certify``, ``report``): one parser each, which
knows every option the command takes for every kind of input, then the run of the input named.

::

    exactplay COMMAND GAME [GAME's options]                              a built-in game, its own solver
    exactplay COMMAND (--game MOD:FACTORY [--param k=v] | --model FILE) [options]
    exactplay solve|certify|report (GAME ... | --game ...) --param-symbol NAME [--range A,B]

The command's parser has the options of a ``--game`` factory and of a ``--model`` file
(:func:`exactplay.cli.model.add_options`) and ``--param-symbol`` (:func:`exactplay.cli.parametric.add_options`);
each GAME's parser (a subparser of the command's) has the game's parameters and its own options.  What the
input named does not consume is refused after parsing, in one line naming who takes it
(:func:`exactplay.cli.inputs.refuse_unconsumed`).
"""

from __future__ import annotations

import argparse

from ..errors import UsageError
from . import model, parametric
from .errors import leaf_parser, unrecognized_message
from .inputs import given_options, refuse_unconsumed, refuse_unneeded, unrecognized
from ..registry import game_names
from .parsing import EPILOG, _available_games, _OptionalGames, _Parser

__all__ = ["add_command", "run"]


def add_command(sub, command: str, description: str, add_game_options) -> None:
    """``exactplay COMMAND``'s parser: the options of a --game factory and a --model file, then a
    GAME's parser for each built-in game (``add_game_options(parser, game, command)``: its options)."""
    p = sub.add_parser(command, epilog=EPILOG, description=f"{description} {model.DESCRIPTION[command]}")
    model.add_options(p, command)
    if command in parametric.COMMANDS:
        parametric.add_options(p, command)
    games = p.add_subparsers(dest="builtin", metavar="GAME", parser_class=_Parser, action=_OptionalGames)

    def build(action, game) -> None:
        gp = action.add_parser(game.name, description=game.description, epilog=EPILOG)
        add_game_options(gp, game, command)
        if command in parametric.COMMANDS:
            parametric.add_builtin_options(gp, game, command)

    games.add_games(build)


def _refuse_needing(parser, game_parser, args) -> None:
    """The options a GAME's parser has for --param-symbol only (--range, race's --coin) are refused
    without it, and --param always, as the game's own options refuse a word they do not know."""
    for flag, value in given_options(game_parser, args).items():
        needs = getattr(game_parser._option_string_actions[flag], "needs", None)
        if needs is not None and (needs != parametric.SYMBOL or getattr(args, "param_symbol", None) is None):
            words = [flag] + ([] if isinstance(value, bool) else list(map(str, value)) if isinstance(value, list)
                              else [str(value)])
            raise UsageError(unrecognized_message(parser, args, words))


def _unrecognized(parser, args, command: str, extras: list[str]) -> str:
    """:func:`~exactplay.cli.inputs.unrecognized`, and for an option of the command that this kind of
    input does not use (a GAME's parser with --param-symbol has none of them), why."""
    from .inputs import _first_flag, kind_of

    flag, _ = _first_flag(extras)
    kind = kind_of(args, given_options(parser, args))
    if flag in kind.unused and flag in parser._option_string_actions:
        return f"{flag} is not used with {kind.what}: {kind.unused[flag]}"
    return unrecognized(parser, args, command, extras)


def run(args, extras: list[str], parser: argparse.ArgumentParser, run_builtin) -> int:
    """Run ``args`` (``parser``: the main one): a built-in GAME by ``run_builtin(args)``, else the
    --game factory or --model file (parametrically with --param-symbol), each after its options are
    checked against what the input consumes."""
    command, name = args.command, args.builtin
    own = leaf_parser(parser, argparse.Namespace(command=command))
    if name is not None:
        if args.game is not None or args.model is not None or any(
                w.partition("=")[0] in ("--game", "--model") for w in extras):  # (a GAME's parser has neither)
            raise UsageError(f"{command}: name a built-in GAME or give --game or --model, not both")
        _OptionalGames.refuse_before(args, command, name)
        game_parser = leaf_parser(parser, args)
        symbol = getattr(args, "param_symbol", None) is not None
        if extras and not symbol:
            raise UsageError(unrecognized_message(parser, args, extras))
        _refuse_needing(parser, game_parser, args)
        if not symbol:
            refuse_unneeded(given_options(game_parser, args), args)  # --tile without --workers ...
            return run_builtin(args)
        parametric.from_builtin(args, game_parser, own, command)  # the game's model, solved parametrically
        if extras:
            raise UsageError(_unrecognized(own, args, command, extras))
    elif args.game is None and args.model is None:
        if extras and not extras[0].startswith("-"):  # a GAME that is none (argparse's own words)
            raise UsageError(f"{command}: argument GAME: invalid choice: {extras[0]!r} (choose from "
                             f"{', '.join(repr(g.name) for g in _available_games())})")
        if extras:
            raise UsageError(unrecognized_message(parser, args, extras))
        raise UsageError(f"{command}: name a game ({', '.join(game_names())})")
    elif command in ("certify", "report") and args.output is None:
        raise UsageError(f"{command}: the following arguments are required: -o/--output")
    elif extras:
        raise UsageError(unrecognized(own, args, command, extras))
    refuse_unconsumed(own, args, command)  # before anything is read or computed
    if getattr(args, "param_symbol", None) is not None:
        return parametric.run(args, own)
    return model.run(args, own)
