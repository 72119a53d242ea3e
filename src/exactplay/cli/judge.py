"""``exactplay judge GAME``: a contest input answered exactly (the games that offer a judge)."""

from __future__ import annotations

from ..errors import UsageError
from ..numbers.backends import get_backend
from ..registry import get_game
from .parsing import EPILOG, _add_common, _available_games, _exact_only, _Parser

COMMANDS = {"judge": "answer a contest input exactly"}


def add_parser(sub, command: str) -> None:
    p = sub.add_parser(command, epilog=EPILOG)
    jsub = p.add_subparsers(dest="game", metavar="GAME", parser_class=_Parser)
    for game in _available_games():
        if getattr(game, "judge", None) is not None:
            jp = jsub.add_parser(game.name, help=game.title, epilog=EPILOG)
            game.judge_arguments(jp)
            _add_common(jp)


def run(args) -> int:
    if not args.game:
        raise UsageError("judge: name a game")
    game = get_game(args.game)
    backend = get_backend(_exact_only(args, "judge"))
    return game.judge(args, backend)
