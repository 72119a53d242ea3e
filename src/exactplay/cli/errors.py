"""One error line for every failure, and the hint for an option of another game."""

from __future__ import annotations

import argparse

from .inputs import INTEROP_COMMANDS, game_takes as _takes, owner_hint
from ..registry import get_game


def error_line(exc: Exception) -> str:
    """The one line an error prints: one ``exactplay: error: `` prefix, no program name repeated."""
    text = " ".join(str(exc).split("\n")).strip()
    while text.startswith("exactplay: error: "):
        text = text[len("exactplay: error: "):]
    if text.startswith("exactplay: "):
        text = text[len("exactplay: "):]
    elif text.startswith("exactplay ") and ":" in text:  # "exactplay solve: ..." -> "solve: ..."
        text = text[len("exactplay "):]
    return f"exactplay: error: {text}"


def _choices(parser: argparse.ArgumentParser) -> dict:
    """The subcommand parsers of ``parser`` by name (empty if it has none): the table itself, which builds
    a parser when it is looked up (``get`` builds one, ``items`` every one)."""
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            return action._name_parser_map  # (argparse's choices, or a GAME action's table of parsers)
    return {}


def leaf_parser(parser: argparse.ArgumentParser, args) -> argparse.ArgumentParser:
    """The parser that parsed ``args`` last: ``exactplay COMMAND [GAME]``'s own."""
    game = getattr(args, "builtin", getattr(args, "game", None))  # (judge: game; the others' --game is a factory)
    for name in (getattr(args, "command", None), game):
        sub = _choices(parser).get(name) if isinstance(name, str) else None
        if sub is None:
            break
        parser = sub
    return parser


def _flags(parser: argparse.ArgumentParser) -> list[str]:
    """The options of ``parser`` (argparse's own -h/--help left out)."""
    return [o for a in parser._actions for o in a.option_strings
            if o not in ("-h", "--help") and a.help != argparse.SUPPRESS and not getattr(a, "needs", None)]


def _is_option(word: str) -> bool:
    if not word.startswith("-") or len(word) < 2:
        return False
    try:
        float(word)  # -1 or -0.5: a value, not an option
    except ValueError:
        return True
    return False


def unrecognized_message(parser: argparse.ArgumentParser, args, extras: list[str]) -> str:
    """One line for options argparse did not recognise, with a hint when another game
    or another command takes the option (built from the registry and the parser)."""
    command, game = getattr(args, "command", None), getattr(args, "builtin", getattr(args, "game", None))
    game = game if isinstance(game, str) else None
    where = " ".join(w for w in (command, game) if w)
    base = f"{where + ': ' if where else ''}unrecognized arguments: {' '.join(extras)[:80]}"
    flag = next((e.split("=", 1)[0] for e in extras if _is_option(e)), None)
    commands = _choices(parser)
    if flag is None or command not in commands:
        return base
    game_parsers = _choices(commands[command])
    if not game_parsers:  # a command without games (check, claims, list): who takes the option, if anyone
        return owner_hint(flag, command) or f"{base} (exactplay {command} --help)"
    if game is None:
        return f"{base} (name a game first: exactplay {command} GAME ...)"
    mine = None
    try:
        mine = _takes(get_game(game))
    except Exception:
        pass
    if mine is not None:  # another game's parameter, or an option of a --game factory or a --model file
        hint = owner_hint(flag, command, game=game)
        if hint is not None:
            return hint
    others = [c for c, cp in commands.items() if c != command and c not in INTEROP_COMMANDS and game in _choices(cp)
              and flag in _flags(_choices(cp)[game])]  # (export and crosscheck: a game's model, not its solver)
    if others:
        return (f"{flag} is an option of {' and '.join(others)} (exactplay {others[0]} {game} {flag} ...), "
                f"not of {command}")
    return f"{base} ({game} takes {mine}; exactplay {command} {game} --help)" if mine else base
