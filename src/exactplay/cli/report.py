"""``exactplay report GAME``: an HTML report with figures (and the PNGs) of a built-in game."""

from __future__ import annotations

from ..errors import EXIT_OK, UsageError
from ..numbers.backends import get_backend
from ..progress import heavy_notice, make_progress
from ..registry import game_names, get_game
from .parsing import EPILOG, _add_common, _add_game_params, _available_games, _exact_only, _game_params, _Parser

COMMANDS = {"report": "write an HTML report with figures (and the PNGs) for a game"}


def add_parser(sub, command: str) -> None:
    p = sub.add_parser(
        command,
        description="Compute a game's exact values and audit, draw the figures, and write DIR/GAME-report.html "
        "(self-contained: images embedded) plus DIR/GAME-FIGURE.png. Builds without a display.",
        epilog=EPILOG,
    )
    gsub = p.add_subparsers(dest="game", metavar="GAME", parser_class=_Parser)
    for game in _available_games():
        gp = gsub.add_parser(game.name, help=game.title, description=game.description, epilog=EPILOG)
        _add_game_params(gp, game)
        _add_common(gp)
        gp.add_argument("-o", "--output", required=True, metavar="DIR", help="directory for the HTML file and PNGs")
        gp.add_argument("--no-claims", action="store_true", help="leave the claims table out of the report")


def run(args) -> int:
    if not args.game:
        raise UsageError(f"report: name a game ({', '.join(game_names())})")
    from ..present.report import build_report

    from ..present.report import check_output_dir

    game = get_game(args.game)
    params = _game_params(args, game)
    get_backend(_exact_only(args, "report"))
    check_output_dir(args.output)  # before any computing
    if game.heavy is not None:
        heavy_notice(game.heavy("report", {**params, "backend": args.backend}), args.quiet, args.json)
    progress = make_progress(args.quiet, args.json)
    try:
        files = build_report(game.name, params, args.output, args.backend, progress, with_claims=not args.no_claims)
    finally:
        progress.close()
    from ..present.report.html import print_files

    print_files(files, args.json)
    return EXIT_OK
