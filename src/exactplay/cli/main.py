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
from .errors import error_line, leaf_parser, unrecognized_message
from .inputs import given_options, refuse_unneeded
from .parsing import EPILOG, _Commands, _Parser

# the command table, in the order --help lists it: the module of each command (imported when the command
# runs or its help line is shown: ``solve --model X.drn`` imports no other command's module), which names
# its commands (COMMANDS: name -> the line --help shows), adds one's parser when it is needed
# (add_parser(sub, name): exactplay --help builds none) and runs it (run(args); with OWN_EXTRAS,
# run(args, extras, parser): the words argparse left over are the command's to judge, parser the main one).
# No word of argv is looked at before argparse.
COMMAND_TABLE = {"list": "listing", "solve": "game_commands", "audit": "game_commands", "certify": "game_commands",
                 "claims": "claims", "report": "report", "export": "export", "crosscheck": "crosscheck",
                 "check": "check", "judge": "judge"}


def command_module(name: str):
    """The module of command ``name`` (:data:`COMMAND_TABLE`), imported on first use."""
    import importlib

    return importlib.import_module(f"{__package__}.{COMMAND_TABLE[name]}")


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(
        prog="exactplay",
        description="Exact optimal-play values of games of chance, and audits of the float programs that compute them.",
        epilog=EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--version", action="version", version=f"exactplay {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser, action=_Commands)
    for name in COMMAND_TABLE:
        sub.add_lazy(name, lambda name=name: command_module(name).COMMANDS[name],
                        lambda sub, name: command_module(name).add_parser(sub, name))
    return parser


def main(argv: list[str] | None = None) -> int:
    """Run one command; its exit status.  Exact values are printed with all their digits
    (:func:`~exactplay.numbers.decimals.all_digits`, for this run only)."""
    with all_digits():
        return _run(argv)


def _run(argv: list[str] | None) -> int:
    try:
        parser = build_parser()
        args, extras = parser.parse_known_args(sys.argv[1:] if argv is None else list(argv))
        module = None if args.command is None else command_module(args.command)
        if getattr(module, "OWN_EXTRAS", False):  # a GAME, a --game factory or a --model file: the input judges
            return module.run(args, extras, parser)
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

