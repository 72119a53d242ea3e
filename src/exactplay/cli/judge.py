"""``exactplay judge GAME``: a contest input answered exactly (the games that offer a judge)."""

from __future__ import annotations

from ..errors import UsageError
from ..numbers.backends import get_backend
from ..registry import get_game
from .parsing import EPILOG, _add_common, _exact_only, _Parser

COMMANDS = ("judge",)


def add_parser(sub, games) -> None:
    judges = [g for g in games if getattr(g, "judge", None) is not None]
    if judges:
        p = sub.add_parser("judge", help="answer a contest input exactly", epilog=EPILOG)
        jsub = p.add_subparsers(dest="game", metavar="GAME", parser_class=_Parser)
        for game in judges:
            jp = jsub.add_parser(game.name, help=game.title, epilog=EPILOG)
            game.judge_arguments(jp)
            _add_common(jp)


def run(args) -> int:
    if not args.game:
        raise UsageError("judge: name a game")
    game = get_game(args.game)
    backend = get_backend(_exact_only(args, "judge"))
    return game.judge(args, backend)
