"""The ``exactplay`` command line.  It only wraps the Python API.

Exit statuses: 0 success; 1 a certificate, answer file or check failed;
2 bad usage or bad input.  Errors are one line on stderr, never a traceback.
"""

from __future__ import annotations

import argparse
import sys

from .. import __version__
from ..errors import EXIT_OK, EXIT_USAGE, ExactplayError, UsageError
from ..numbers.decimals import all_digits
from ..registry import game_names
from .errors import error_line, leaf_parser, unrecognized_message
from .inputs import given_options, refuse_unneeded
from .parsing import EPILOG, _available_games, _Parser

# the command table, in the order --help lists it: each module declares its commands' parsers
# (add_parser(sub, games)) and runs them (run(args); with OWN_EXTRAS, run(args, extras, parser):
# the words argparse left over are the command's to judge); imported when a command other than
# solve|audit|certify|report of a --game or --model needs them (:func:`command_modules`)
COMMAND_NAMES = ("listing", "game_commands", "claims", "report", "export", "crosscheck", "check", "judge")


def command_modules() -> tuple:
    """The command modules, in the order of ``COMMAND_NAMES``."""
    import importlib

    return tuple(importlib.import_module(f"{__package__}.{name}") for name in COMMAND_NAMES)


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(
        prog="exactplay",
        description="Exact optimal-play values of games of chance, and audits of the float programs that compute them.",
        epilog=EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--version", action="version", version=f"exactplay {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)
    games = _available_games()
    for module in command_modules():
        module.add_parser(sub, games)
    return parser


def main(argv: list[str] | None = None) -> int:
    """Run one command; its exit status.  Exact values are printed with all their digits
    (:func:`~exactplay.numbers.decimals.all_digits`, for this run only)."""
    with all_digits():
        return _run(argv)


def _run(argv: list[str] | None) -> int:
    try:
        argv = sys.argv[1:] if argv is None else list(argv)
        from .model import run_model_command, wants_model
        from .parametric import builtin_argv

        argv = builtin_argv(argv, game_names())  # a built-in game's model with a symbolic probability
        if wants_model(argv):
            return run_model_command(argv, _Parser)
        parser = build_parser()
        args, extras = parser.parse_known_args(argv)
        module = {name: m for m in command_modules() for name in m.COMMANDS}.get(args.command)
        if getattr(module, "OWN_EXTRAS", False):  # export, crosscheck: a --game factory, a --model file or a GAME
            return module.run(args, extras, leaf_parser(parser, argparse.Namespace(command=args.command)))
        if extras:
            raise UsageError(unrecognized_message(parser, args, extras))
        if args.command is None:
            parser.print_help()
            return EXIT_USAGE
        refuse_unneeded(given_options(leaf_parser(parser, args), args), args)  # --tile without --workers ...
        return module.run(args)
    except ExactplayError as exc:
        print(error_line(exc), file=sys.stderr)
        return exc.exit_status
    except KeyboardInterrupt:
        print("exactplay: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        return EXIT_OK


def entry() -> None:  # console_scripts and ``python -m exactplay``
    # one BLAS thread: OpenBLAS's start-up threads spin (0.1 s of CPU at numpy's import), and the engine's
    # float solves are sparse (SuperLU) or small; a user's own setting is kept
    import os

    os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
    sys.exit(main())


if __name__ == "__main__":  # pragma: no cover
    entry()

