"""``exactplay report GAME``: an HTML report with figures (and the PNGs) of a built-in game."""

from __future__ import annotations

from ..errors import EXIT_OK
from ..numbers.backends import get_backend
from ..progress import heavy_notice, make_progress
from ..registry import get_game
from . import sources
from .parsing import _add_common, _add_game_params, _exact_only, _game_params

OWN_EXTRAS = True  # run(args, extras, parser): a GAME, a --game factory or a --model file (cli.sources)
COMMANDS = {"report": "write an HTML report with figures (and the PNGs) for a game"}
DESCRIPTION = ("Compute a game's exact values and audit, draw the figures, and write DIR/GAME-report.html "
               "(self-contained: images embedded) plus DIR/GAME-FIGURE.png. Builds without a display.")


def add_parser(sub, command: str) -> None:
    sources.add_command(sub, command, DESCRIPTION, _add_game_options)


def _add_game_options(gp, game, command: str) -> None:
    _add_game_params(gp, game)
    _add_common(gp)
    gp.add_argument("-o", "--output", required=True, metavar="DIR", help="directory for the HTML file and PNGs")
    gp.add_argument("--no-claims", action="store_true", help="leave the claims table out of the report")


def run(args, extras: list[str], parser) -> int:
    return sources.run(args, extras, parser, run_builtin)


def run_builtin(args) -> int:
    """``report GAME``, its options checked (:func:`exactplay.cli.sources.run`)."""
    from ..present.report import build_report, check_output_dir

    game = get_game(args.builtin)
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
