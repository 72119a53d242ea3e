"""The ``exactplay`` command line.  It only wraps the Python API.

Exit statuses: 0 success; 1 a certificate, answer file or check failed;
2 bad usage or bad input.  Errors are one line on stderr, never a traceback.
"""

from __future__ import annotations

import argparse
import contextlib
import sys

from .. import __version__
from ..distributed import DISTRIBUTED_GAMES
from ..distributed.options import add_options as add_distributed_options, requested as distributed_requested
from ..errors import EXIT_OK, EXIT_USAGE, ExactplayError, UsageError
from ..numbers.decimals import all_digits
from ..registry import game_names, get_game
from ..paths import check_writable
from ..present.render import emit
from ..numbers.backends import get_backend, int_option
from ..progress import heavy_notice, make_progress
from ..strict_json import dumps
from .check import _cmd_check
from .errors import error_line, leaf_parser, unrecognized_message
from .inputs import INTEROP_COMMANDS, given_options, refuse_unneeded
from .parsing import (EPILOG, _add_common, _add_game_params, _available_games, _exact_only,
                          _game_params, _load_games, _param_help, _Parser)
from .ux import _add_ux_parsers, _cmd_claims, _cmd_report

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

    p = sub.add_parser("list", help="the games, their parameters and defaults", epilog=EPILOG)
    p.add_argument("--json", action="store_true", help="print JSON")

    for command, help_text in (
        ("solve", "compute the exact answer and the optimal policy"),
        ("audit", "run the published float solver and judge it against the exact one"),
        ("certify", "write a certificate (JSON) for an instance"),
    ):
        p = sub.add_parser(command, help=help_text, epilog=EPILOG, description=(
            f"{help_text[0].upper()}{help_text[1:]} of a built-in GAME, or of your own game: "
            f"exactplay {command} --game MODULE:FACTORY [--param NAME=VALUE ...] | --model FILE "
            f"(exactplay {command} --game X --help lists those options)."))
        gsub = p.add_subparsers(dest="game", metavar="GAME", parser_class=_Parser)
        for game in games:
            gp = gsub.add_parser(game.name, help=game.title, description=game.description, epilog=EPILOG)
            _add_game_params(gp, game)
            prec_help = getattr(game, "prec_help", None)
            _add_common(gp, backend_help=getattr(game, "backend_help", None),
                        prec_help=prec_help(command) if prec_help else None)
            if command in ("solve", "audit"):
                gp.add_argument("--digits", type=int_option, default=8, help="decimals to print (default 8)")
            if command == "audit" and game.value_table is not None:
                gp.add_argument("--float-table", metavar="FILE", default=None,
                                help="audit this float table (rows '" + " ".join(game.table_columns or ("state...",))
                                     + " value', text or JSON; '-': standard input) instead of the published solver")
            if command == "solve":
                gp.add_argument("--full", action="store_true", help="print long numbers in full")
            if command == "certify":
                gp.add_argument("-o", "--output", required=True, metavar="FILE",
                                help="certificate file to write ('-': standard output)")
                gp.add_argument("--store", choices=("auto", "values", "policy"), default="auto",
                                help="store every state's values and margins, or the policy only (the checker "
                                     "evaluates it exactly); auto (default): the values when their text is at most "
                                     "1,000,000 characters. The certificate is the game's model solved by the "
                                     "engine, checked on the checker's own rebuild of the rules (up to 3,000,000 "
                                     "states); with --backend ball|auto: the ball certificate")
            if command in ("solve", "certify") and game.name in DISTRIBUTED_GAMES:
                add_distributed_options(gp)

    _add_ux_parsers(sub, games)

    from .interop import add_interop_parsers

    add_interop_parsers(sub)
    p = sub.add_parser(
        "check", help="re-verify certificates (files or directories)", epilog=EPILOG,
        description="Re-verify certificates with the independent checker. Every field is verified, except the "
                    "informational ones it names (audit, notes, tool_version); an unknown field fails.")
    p.add_argument("paths", nargs="+", metavar="PATH")
    p.add_argument("--stdlib", action="store_true",
                   help="use Python's own integers only (by default the checker multiplies huge integers with "
                        "gmpy2 when it is installed: the same arithmetic, several times faster)")
    p.add_argument("--expect", action="append", default=[], metavar="KEY=VALUE",
                   help="fail (exit 1) unless the certificate's parameter KEY is VALUE, e.g. --expect target=100, "
                        "--expect skills=1/4,1/2,1 (numbers compared exactly: 0.25 = 1/4); repeatable. KEY is a "
                        "built-in game's parameter or your factory's (--param goal=5: --expect goal=5, as its "
                        "certificate records it); a KEY the certificate lacks fails, naming the keys it has")
    p.add_argument("--json", action="store_true", help="print JSON")
    p.add_argument("--quiet", "-q", action="store_true", help="print only failures")

    judges = [g for g in games if getattr(g, "judge", None) is not None]
    if judges:
        p = sub.add_parser("judge", help="answer a contest input exactly", epilog=EPILOG)
        jsub = p.add_subparsers(dest="game", metavar="GAME", parser_class=_Parser)
        for game in judges:
            jp = jsub.add_parser(game.name, help=game.title, epilog=EPILOG)
            game.judge_arguments(jp)
            _add_common(jp)
    return parser


def _cmd_list(args) -> int:
    """Every registered game: title, parameters with defaults, and the commands it supports."""
    from ..claims import all_claims

    rows = []
    games, missing = _load_games()
    by_name = {g.name: g for g in games}
    for name in game_names():
        if name in missing:
            rows.append({"game": name, "available": False, "reason": missing[name]})
            continue
        game = by_name[name]
        commands = ["solve", "audit", "certify", "report"] + (["judge"] if game.judge is not None else [])
        claims = all_claims(name)
        rows.append(
            {
                "game": game.name,
                "available": True,
                "title": game.title,
                "params": [
                    {"name": p.name, "default": p.default, "help": p.help, "positional": p.positional}
                    for p in game.params
                ],
                "commands": commands,
                "claims": len(claims),
                "slow_claims": sum(1 for c in claims if c.slow),
                "float_table": None if game.value_table is None else {
                    "columns": list(game.table_columns), "value": game.table_value},
            }
        )
    if args.json:
        print(dumps(rows, default=list))
        return EXIT_OK
    for row in rows:
        if not row["available"]:
            print(f"{row['game']:6}  ({row['reason']})")
            continue
        print(f"{row['game']:6}  {row['title']}")
        for p in row["params"]:
            flag = p["name"].upper() + "..." if p["positional"] else f"--{p['name'].replace('_', '-')}"
            print(f"        {flag:14} {_param_help(p['help'], p['default'])}")
        if row["float_table"] and row["float_table"]["columns"]:
            ft = row["float_table"]
            print(f"        --float-table rows: {' '.join(ft['columns'])} value; value = {ft['value']}")
        print(f"        commands: {', '.join(row['commands'])}; {row['claims']} seed claims "
              f"({row['slow_claims']} slow): exactplay claims --game {row['game']}")
    first = next((r["game"] for r in rows if r["available"]), None)
    if first:
        print(f"\ntry: exactplay audit {first}    (exactplay COMMAND GAME --help for the options)")
    print("your own game: exactplay solve --game path/to/game.py:make_game --param goal=20  "
          "(or --model FILE.json; see examples/)")
    return EXIT_OK


def _backend(args, game):
    """The backend of ``--backend`` (and ``--prec``); balls only where a game supports them."""
    from ..numbers.backends import Backend

    name, prec = args.backend, getattr(args, "prec", None)
    ball_games = [g.name for g in _available_games() if g.ball]
    if name not in ("ball", "auto"):
        if prec is not None:
            raise UsageError(f"--prec sets the precision of --backend ball or auto, not of {name}")
        return get_backend(name)
    if not game.ball:
        raise UsageError(f"--backend {name} is available for {', '.join(ball_games)} and user models, not {game.name}")
    if getattr(args, "float_table", None):
        raise UsageError(f"--float-table is judged against exact values: use --backend mpq, not {name}")
    B = get_backend("ball", prec)
    return B if name == "ball" else Backend("auto", B.kind, False, B.make, B.prec, B.prec_default)


def _cmd_game(args) -> int:
    if not args.game:
        raise UsageError(f"{args.command}: name a game ({', '.join(game_names())})")
    game = get_game(args.game)
    params = _game_params(args, game)
    backend = _backend(args, game)
    if args.command in ("solve", "audit") and not 0 <= args.digits <= 10000:
        raise UsageError("--digits must be between 0 and 10000")
    if args.command == "certify" and args.output != "-":
        check_writable(args.output)  # before a long computation, not after
    float_table = getattr(args, "float_table", None)
    if game.heavy is not None and not float_table:
        heavy_notice(game.heavy(args.command, {**params, "backend": args.backend, "prec": getattr(args, "prec", None)}),
                     args.quiet, args.json)
    progress = make_progress(args.quiet, args.json)
    cluster = contextlib.ExitStack()
    try:
        progress.start(f"{args.command} {game.name}", None)  # a running clock until the game says more
        extra = {}  # solver=: the levels on Dask (--workers / --scheduler)
        if distributed_requested(args):
            from ..distributed.options import distributed_solver

            progress.start("starting the Dask cluster" if args.scheduler is None else "connecting to the scheduler")
            extra = cluster.enter_context(distributed_solver(game.name, args.command, params, args))
        if args.command == "solve":
            report = game.solve(backend=backend, digits=args.digits, full=args.full, progress=progress,
                                **params, **extra)
        elif args.command == "audit":
            if float_table:
                from ..audit.float_table import audit_float_table

                report = audit_float_table(game, float_table, backend, progress, **params)
            else:
                report = game.audit(backend=backend, digits=args.digits, progress=progress, **params)
        else:
            from ..certify.write import write_certificate

            cert = game.certify(backend=backend, progress=progress, store=args.store, **params, **extra)
            progress.start("writing the certificate", None)
            if args.output == "-":  # the certificate itself on stdout, nothing else
                text = dumps(cert, indent=1) + "\n"
                progress.close()
                sys.stdout.write(text)
                return EXIT_OK
            try:
                path = write_certificate(cert, args.output)
            except OSError as exc:
                raise UsageError(f"-o {args.output}: cannot write the certificate ({exc.strerror or exc})") from None
    finally:
        cluster.close()
        progress.close()  # the bar is gone before the results are printed
    if args.command == "certify":
        if args.json:
            digest = {k: cert[k] for k in ("table_sha256", "model_sha256") if k in cert}  # ball: table_sha256
            print(dumps({"written": str(path), "game": game.name, "params": cert["params"],
                         "version": cert["version"], "answer": cert["answer"], **digest}))
        else:
            kind = (f"version 2, {'values' if 'values' in cert['solution'] else 'policy only'}"
                    if cert.get("kind") == "game" else f"version {cert['version']}"
                    + (f", {cert['kind']}" if "kind" in cert else ""))
            print(f"wrote {path}: {game.name} {cert['params']} answer {cert['answer'].get('decimal', '')} ({kind})")
    else:
        emit(report, args.json)
    return EXIT_OK


def _cmd_judge(args) -> int:
    if not args.game:
        raise UsageError("judge: name a game")
    game = get_game(args.game)
    backend = get_backend(_exact_only(args, "judge"))
    return game.judge(args, backend)

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
        if args.command in INTEROP_COMMANDS:  # a --game factory, a --model file or a built-in GAME
            from .interop import run_interop_command

            return run_interop_command(args, extras, leaf_parser(parser, argparse.Namespace(command=args.command)))
        if extras:
            raise UsageError(unrecognized_message(parser, args, extras))
        if args.command is None:
            parser.print_help()
            return EXIT_USAGE
        refuse_unneeded(given_options(leaf_parser(parser, args), args), args)  # --tile without --workers ...
        handler = {
            "list": _cmd_list,
            "solve": _cmd_game,
            "audit": _cmd_game,
            "certify": _cmd_game,
            "check": _cmd_check,
            "judge": _cmd_judge,
            "claims": _cmd_claims,
            "report": _cmd_report,
        }[args.command]
        return handler(args)
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
