"""``exactplay solve|audit|certify GAME``: a built-in game's own solver, audit and certificate."""

from __future__ import annotations

import contextlib
import sys

from ..distributed import DISTRIBUTED_GAMES
from ..distributed.options import add_options as add_distributed_options, requested as distributed_requested
from ..errors import EXIT_OK, UsageError
from ..numbers.backends import get_backend, int_option
from ..paths import check_writable
from ..present.render import emit
from ..progress import heavy_notice, make_progress
from ..registry import get_game
from ..strict_json import dumps
from . import sources
from .parsing import _add_common, _add_game_params, _available_games, _game_params

OWN_EXTRAS = True  # run(args, extras, parser): a GAME, a --game factory or a --model file (cli.sources)
COMMANDS = {  # name: its line in exactplay --help
    "solve": "compute the exact answer and the optimal policy",
    "audit": "run the published float solver and judge it against the exact one",
    "certify": "write a certificate (JSON) for an instance",
}


def add_parser(sub, command: str) -> None:
    help_text = COMMANDS[command]
    sources.add_command(sub, command, f"{help_text[0].upper()}{help_text[1:]} of a built-in GAME (exactplay "
                        f"{command} GAME --help lists its options), or of your own game: --game MODULE:FACTORY "
                        f"[--param NAME=VALUE ...] | --model FILE.", _add_game_options)


def _add_game_options(gp, game, command: str) -> None:
    """A built-in GAME's options under ``command``: its parameters, then the command's."""
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


def run(args, extras: list[str], parser) -> int:
    return sources.run(args, extras, parser, run_builtin)


def run_builtin(args) -> int:
    """``COMMAND GAME``, its options checked (:func:`exactplay.cli.sources.run`)."""
    game = get_game(args.builtin)
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

