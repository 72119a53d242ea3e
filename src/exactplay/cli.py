"""The ``exactplay`` command line.  It only wraps the Python API.

Exit statuses: 0 success; 1 a certificate, answer file or check failed;
2 bad usage or bad input.  Errors are one line on stderr, never a traceback.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import sys
from pathlib import Path

from . import __version__
from .distributed import DISTRIBUTED_GAMES
from .distributed.options import add_options as add_distributed_options, requested as distributed_requested
from .errors import EXIT_FAILED, EXIT_OK, EXIT_USAGE, ExactplayError, UsageError
from .games import Game, game_names, get_game
from .paths import check_writable
from .numbers import BACKEND_NAMES, DEFAULT_BALL_PREC, get_backend, int_option, refuse_non_ascii_digits
from .progress import heavy_notice, make_progress
from .strict_json import dumps

EPILOG = """--json prints strict JSON (no NaN or Infinity), exact numbers as "p/q"; an error
measure with no double value (a relative error against an exact 0, an ulp count
beyond 1.8e308) is null, with a sibling "<field>_reason" starting "infinite:" or
"out of range:".
exit status: 0 success; 1 a certificate, answer file or check failed;
2 bad usage or bad input (one line on stderr says what was wrong)."""


class _Parser(argparse.ArgumentParser):
    """argparse with our exit status 2 and a one-line error."""

    def error(self, message: str):  # noqa: D401 - argparse API
        # main() prints the one "exactplay: error: " prefix; name only the subcommand here
        where = self.prog.removeprefix("exactplay").strip()
        raise UsageError(f"{where}: {message}" if where else message)


def _load_games() -> tuple[list[Game], dict[str, str]]:
    """The games that load, and why the others do not (one broken game must not break the CLI)."""
    games, missing = [], {}
    for name in game_names():
        try:
            games.append(get_game(name))
        except UsageError:
            missing[name] = "not available in this version"
        except Exception as exc:  # a game module that fails to import
            missing[name] = f"fails to load: {type(exc).__name__}: {exc}"
    return games, missing


def _available_games() -> list[Game]:
    return _load_games()[0]


def _add_common(p: argparse.ArgumentParser, backend: bool = True, backend_help: str | None = None) -> None:
    p.add_argument("--json", action="store_true",
                   help="print strict JSON (exact numbers as \"p/q\"; an infinite error is null "
                        "with a \"<field>_reason\")")
    p.add_argument("--quiet", "-q", action="store_true", help="no progress display")
    if backend:
        p.add_argument(
            "--backend",
            choices=[b for b in BACKEND_NAMES if b != "float"] + ["auto"],
            default="mpq",
            help=backend_help or "exact arithmetic: gmpy2 mpq (default) or fractions.Fraction; "
                                 "ball: certified enclosures in python-flint arb balls (games that offer it); "
                                 "auto: balls first, exact only for what they leave unresolved",
        )
        p.add_argument("--prec", type=int_option, default=None, metavar="BITS",
                       help=f"working precision of --backend ball|auto in bits (default {DEFAULT_BALL_PREC})")


def _param_help(text: str, default) -> str:
    """The parameter's help, plus its default unless there is none or the help already says it."""
    if default is None or "default" in text:
        return text
    if isinstance(default, (list, tuple)):
        default = " ".join(map(str, default))
    return f"{text} (default: {default})"


def _add_game_params(p: argparse.ArgumentParser, game: Game) -> None:
    for param in game.params:
        if param.positional:
            p.add_argument(param.name, nargs="*", default=None, help=param.help, metavar=param.metavar)
        else:
            p.add_argument(
                f"--{param.name.replace('_', '-')}",
                dest=param.name,
                default=None,
                help=_param_help(param.help, param.default),
                metavar=param.metavar or param.name.upper(),
            )


def _game_params(args: argparse.Namespace, game: Game) -> dict:
    """Parse each parameter's text with the game's own parser (one-line errors)."""
    out = {}
    for param in game.params:
        raw = getattr(args, param.name, None)
        if raw is None or raw == []:
            out[param.name] = param.default
        else:
            out[param.name] = param.parse(raw)
    return out


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
            _add_common(gp, backend_help=getattr(game, "backend_help", None))
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
                gp.add_argument("--format", choices=("v1", "v2"), default="v1", dest="cert_format",
                                help="v1 (default): the game's own recurrence, table and float audit; v2: the "
                                     "game's model solved by the engine, checked by the generic checker on its own "
                                     "rebuild of the rules (no audit; instances up to 3,000,000 states)")
            if command in ("solve", "certify") and game.name in DISTRIBUTED_GAMES:
                add_distributed_options(gp)

    _add_ux_parsers(sub, games)

    # handled by exactplay.interop_cli before this parser runs; listed here for --help
    sub.add_parser("export", help="write a game as JSON, Storm's DRN or PRISM (exactplay export --help)")
    sub.add_parser("crosscheck", help="compare exact values with Storm's exact engine (needs stormpy)")
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
                        "--expect skills=1/4,1/2,1 (numbers compared exactly: 0.25 = 1/4); repeatable. A KEY that "
                        "is no parameter of any game is bad usage (exit 2); one the certificate lacks fails")
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


def _emit(report, as_json: bool) -> None:
    if as_json:
        print(dumps(report.data))
    else:
        for line in report.lines:
            print(line)


def _cmd_list(args) -> int:
    """Every registered game: title, parameters with defaults, and the commands it supports."""
    from .claims import all_claims

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


def _exact_only(args, command: str) -> str:
    """``--backend`` of a command that runs in exact arithmetic only."""
    if args.backend in ("ball", "auto") or getattr(args, "prec", None) is not None:
        raise UsageError(f"{command} runs in exact arithmetic: --backend mpq or fraction, without --prec")
    return args.backend


def _backend(args, game):
    """The backend of ``--backend`` (and ``--prec``); balls only where a game supports them."""
    from .numbers import Backend

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
    return B if name == "ball" else Backend("auto", B.kind, False, B.make, B.prec)


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
    if game.heavy is not None and not float_table and getattr(args, "cert_format", "v1") != "v2":
        heavy_notice(game.heavy(args.command, {**params, "backend": args.backend}), args.quiet, args.json)
    progress = make_progress(args.quiet, args.json)
    cluster = contextlib.ExitStack()
    try:
        progress.start(f"{args.command} {game.name}", None)  # a running clock until the game says more
        extra = {}  # solver=: the levels on Dask (--workers / --scheduler)
        if distributed_requested(args):
            from .distributed.options import distributed_solver

            progress.start("starting the Dask cluster" if args.scheduler is None else "connecting to the scheduler")
            extra = cluster.enter_context(distributed_solver(game.name, args.command, params, args))
        if args.command == "solve":
            report = game.solve(backend=backend, digits=args.digits, full=args.full, progress=progress,
                                **params, **extra)
        elif args.command == "audit":
            if float_table:
                from .float_table import audit_float_table

                report = audit_float_table(game, float_table, backend, progress, **params)
            else:
                report = game.audit(backend=backend, digits=args.digits, progress=progress, **params)
        else:
            from .certificate import write_certificate

            if getattr(args, "cert_format", "v1") == "v2":
                if extra:
                    raise UsageError("--format v2 solves the game's model serially: drop --workers/--scheduler")
                from .games import certify_v2

                cert = certify_v2(game.name)(progress=progress, **params)
            else:
                cert = game.certify(backend=backend, progress=progress, **params, **extra)
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
            digest = {k: cert[k] for k in ("table_sha256", "model_sha256") if k in cert}
            print(dumps({"written": str(path), "game": game.name, "params": cert["params"],
                         "version": cert["version"], "answer": cert["answer"], **digest}))
        else:
            print(f"wrote {path}: {game.name} {cert['params']} answer {cert['answer'].get('decimal', '')}")
    else:
        _emit(report, args.json)
    return EXIT_OK


def _parse_expect(items: list[str]) -> dict:
    """``--expect KEY=VALUE`` options as a dict; a key no game has is bad usage."""
    from .checker import PARAMS

    known = sorted({k for keys in PARAMS.values() for k in keys})
    expect = {}
    for item in items:
        key, eq, value = item.partition("=")
        key, value = key.strip(), value.strip()
        if not eq or not key or not value:
            raise UsageError(f"check: --expect needs KEY=VALUE, got {item[:60]!r}")
        if key not in known:
            raise UsageError(f"check: --expect {key[:40]}: no game has this parameter (known: {', '.join(known)})")
        refuse_non_ascii_digits(value, f"check: --expect {key}")  # the checker would read '١٠' as 10
        if key in expect and expect[key] != value:
            raise UsageError(f"check: --expect {key} given twice with different values")
        expect[key] = value
    return expect


def _cmd_check(args) -> int:
    """Check every file given (directories: every ``*.json`` below), then one summary line.

    Exit 1 if any certificate does not verify or cannot be read as one (corrupt, truncated,
    tampered); exit 2 only for usage errors (no such path, bad option).
    """
    from .checker import UNVERIFIED_FIELDS, _ints, certificate_paths, verify_file

    _ints.use_stdlib(args.stdlib)
    results = []
    expect = _parse_expect(args.expect)
    paths = certificate_paths(args.paths)
    slow = _marked_slow(paths) if not _ints.using_gmpy2() else []  # with gmpy2 they take seconds
    if slow:
        heavy_notice(f"checking {', '.join(map(str, slow[:3]))}{' ...' if len(slow) > 3 else ''} takes minutes "
                     f"(marked slow_check; {SLOW_CHECK_NOTE}); the other certificates take seconds",
                     args.quiet, args.json)
    failed = 0
    progress = make_progress(args.quiet, args.json)
    try:
        for number, path in enumerate(paths, 1):
            progress.start(f"checking {path} ({number}/{len(paths)})")
            try:
                found = verify_file(path, expect)
            except ExactplayError as exc:
                failed += 1
                results.append({"path": str(path), "ok": False, "error": str(exc)})
                if not args.json:
                    progress.print(f"FAIL {exc}", err=True)
                continue
            results.append({"path": str(path), "ok": True, **found})
            if not args.json and not args.quiet:
                params = "".join(f" {k}={v}" for k, v in found["params"].items())
                ans = found["answer"]
                progress.print(f"ok   {path}\n     {found['game']}{params}: {ans['name']} = {ans['decimal']}\n"
                               f"     {found['summary']}")
    finally:
        progress.close()
    summary = (f"{len(paths) - failed} of {len(paths)} certificate(s) verified" if not failed
               else f"{failed} of {len(paths)} certificate(s) failed")
    if args.json:
        print(dumps({"certificates": results, "checked": len(paths), "failed": failed,
                     "unverified_fields": list(UNVERIFIED_FIELDS), "summary": summary}))
    elif failed:
        print(summary, file=sys.stderr)
    elif not args.quiet:
        unverified = sorted({f for r in results for f in r.get("unverified_fields", ())})
        print(f"{summary}; informational fields not re-verified: {', '.join(unverified) or 'none'}")
    return EXIT_FAILED if failed else EXIT_OK


SLOW_CHECK_NOTE = ("with Python's own integers (--stdlib or no gmpy2) chefs n = 14 alone takes minutes; "
                   "with gmpy2 all of proofs/ takes about 21 s of CPU and 0.7 GB")


def _marked_slow(paths) -> list:
    """The certificates that say they take the checker minutes (``"slow_check": true``), by a
    cheap look at their text: the checker proper reads and verifies every field later."""
    out = []
    for path in paths:
        try:
            if Path(path).stat().st_size > 64 * 2**20:
                continue
            if b'"slow_check": true' in Path(path).read_bytes():
                out.append(path)
        except OSError:
            continue  # the checker reports it
    return out


def _cmd_judge(args) -> int:
    if not args.game:
        raise UsageError("judge: name a game")
    game = get_game(args.game)
    backend = get_backend(_exact_only(args, "judge"))
    return game.judge(args, backend)

# ------------------------------------------------------------------ claims, report


def _add_ux_parsers(sub, games: list[Game]) -> None:
    """``exactplay claims`` and ``exactplay report GAME``."""
    p = sub.add_parser(
        "claims",
        help="check every registered claim of the seeds: confirmed / refuted / not checkable",
        description="Run the claims ledger. A refuted claim is a finding, not a failure: the exit status is 0 "
        "unless a check could not run (status 'error', exit 1).",
        epilog=EPILOG,
    )
    p.add_argument("--game", metavar="GAME", help=f"only this game ({', '.join(game_names())})")
    p.add_argument("--id", dest="ids", action="append", metavar="CLAIM", help="only this claim id (repeatable)")
    p.add_argument("--fast", action="store_true", help="skip the slow claims")
    out = p.add_mutually_exclusive_group()
    out.add_argument("--json", action="store_true", help="print JSON")
    out.add_argument("--markdown", action="store_true", help="print the Markdown table of the README's findings")
    p.add_argument("--verbose", "-v", action="store_true", help="also print each claim as stated and how it is checked")
    p.add_argument("--quiet", "-q", action="store_true", help="no progress display")
    p.add_argument("--update-readme", metavar="README",
                   help="replace the findings section of this Markdown file (between the findings markers)")

    p = sub.add_parser(
        "report",
        help="write an HTML report with figures (and the PNGs) for a game",
        description="Compute a game's exact values and audit, draw the figures, and write DIR/GAME-report.html "
        "(self-contained: images embedded) plus DIR/GAME-FIGURE.png. Builds without a display.",
        epilog=EPILOG,
    )
    gsub = p.add_subparsers(dest="game", metavar="GAME", parser_class=_Parser)
    for game in games:
        gp = gsub.add_parser(game.name, help=game.title, description=game.description, epilog=EPILOG)
        _add_game_params(gp, game)
        _add_common(gp)
        gp.add_argument("-o", "--output", required=True, metavar="DIR", help="directory for the HTML file and PNGs")
        gp.add_argument("--no-claims", action="store_true", help="leave the claims table out of the report")


def _cmd_claims(args) -> int:
    from .claims import ERROR
    from .report.ledger import (json_rows, markdown_table, replace_section, run_ledger, select_claims,
                                summary_line, text_table)

    if args.game is not None:
        get_game(args.game)  # one-line error for an unknown or unavailable game
    claims = select_claims(args.game, args.fast, args.ids)
    skipped = len(select_claims(args.game, False, args.ids)) - len(claims)
    if not claims:
        raise UsageError("no claims registered" + (f" for game {args.game!r}" if args.game else "")
                         + (" (all are slow: drop --fast)" if skipped else ""))
    if args.update_readme:
        _check_readme(Path(args.update_readme), replace_section)  # before the ledger runs
    slow = [c.id for c in claims if c.slow]
    if slow:
        heavy_notice(f"{len(slow)} slow claim{'s' * (len(slow) != 1)} ({', '.join(slow[:4])}"
                     f"{', ...' if len(slow) > 4 else ''}) take minutes; --fast skips them", args.quiet, args.json)
    progress = make_progress(args.quiet, args.json)
    try:
        findings = run_ledger(claims, progress)
    finally:
        progress.close()
    if args.update_readme:
        path = Path(args.update_readme)
        text = _check_readme(path, replace_section)
        try:
            path.write_text(replace_section(text, markdown_table(findings)), encoding="utf-8")
        except OSError as exc:
            raise UsageError(f"--update-readme {path}: cannot write it ({exc.strerror or exc})") from None
        print(f"updated the findings section of {path} ({len(findings)} claims)", file=sys.stderr)
    if args.json:
        print(dumps(json_rows(findings)))
    elif args.markdown:
        print(markdown_table(findings))
    elif not args.update_readme:
        color = sys.stdout.isatty() and not os.environ.get("NO_COLOR")
        for line in text_table(findings, verbose=args.verbose, color=color):
            print(line)
        print()
        print(summary_line(findings, skipped))
    errors = [f for f in findings if f.status == ERROR]
    for f in errors:
        print(f"exactplay: error: claim {f.claim.id} could not be checked: {f.verdict.figure}", file=sys.stderr)
    return EXIT_FAILED if errors else EXIT_OK


def _check_readme(path: Path, replace_section) -> str:
    """The text of an existing, writable Markdown file with a findings section; else one line."""
    if path.is_dir():
        raise UsageError(f"--update-readme {path}: is a directory; name the Markdown file")
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as exc:
        raise UsageError(f"--update-readme {path}: cannot read it ({exc.strerror or exc})") from None
    except UnicodeDecodeError:
        raise UsageError(f"--update-readme {path}: not UTF-8 text") from None
    try:
        with open(path, "a", encoding="utf-8"):  # writable? (opening to append changes nothing)
            pass
    except OSError as exc:
        raise UsageError(f"--update-readme {path}: cannot write it ({exc.strerror or exc})") from None
    try:
        replace_section(text, "")
    except UsageError as exc:
        raise UsageError(f"--update-readme {path}: {exc}") from None
    return text


def _cmd_report(args) -> int:
    if not args.game:
        raise UsageError(f"report: name a game ({', '.join(game_names())})")
    from .report import build_report

    from .report import check_output_dir

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
    from .report.html import print_files

    print_files(files, args.json)
    return EXIT_OK


def main(argv: list[str] | None = None) -> int:
    try:
        argv = sys.argv[1:] if argv is None else list(argv)
        from .model_cli import run_model_command, wants_model

        if wants_model(argv):
            return run_model_command(argv, _Parser)
        if argv and argv[0] in ("export", "crosscheck"):
            from .interop_cli import run_interop_command

            return run_interop_command(argv, _Parser)
        parser = build_parser()
        args, extras = parser.parse_known_args(argv)
        if extras:
            raise UsageError(unrecognized_message(parser, args, extras))
        if args.command is None:
            parser.print_help()
            return EXIT_USAGE
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
    """The subcommand parsers of ``parser`` by name (empty if it has none)."""
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            return dict(action.choices)
    return {}


def _flags(parser: argparse.ArgumentParser) -> list[str]:
    """The options of ``parser`` (argparse's own -h/--help left out)."""
    return [o for a in parser._actions for o in a.option_strings
            if o not in ("-h", "--help") and a.help != argparse.SUPPRESS]


def _takes(game: Game) -> str:
    """What a game's command line takes, for a hint: ``--target`` or ``COINS... --file``."""
    words = [p.name.upper() + "..." if p.positional else f"--{p.name.replace('_', '-')}" for p in game.params]
    return " ".join(words) if words else "no parameters"


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
    command, game = getattr(args, "command", None), getattr(args, "game", None)
    game = game if isinstance(game, str) else None
    where = " ".join(w for w in (command, game) if w)
    base = f"{where + ': ' if where else ''}unrecognized arguments: {' '.join(extras)[:80]}"
    flag = next((e.split("=", 1)[0] for e in extras if _is_option(e)), None)
    commands = _choices(parser)
    if flag is None or command not in commands:
        return base
    game_parsers = _choices(commands[command])
    if not game_parsers:  # a command without games (check, claims, list)
        return f"{base} (exactplay {command} --help)"
    name = flag.lstrip("-").replace("-", "_")
    owners = []
    for other, gp in game_parsers.items():
        if other != game and flag in _flags(gp):
            try:
                if any(p.name == name and not p.positional for p in get_game(other).params):
                    owners.append(other)
            except Exception:  # a game that does not load gives no hint
                continue
    mine = None
    if game is not None:
        try:
            mine = _takes(get_game(game))
        except Exception:
            pass
    takes = f"; {game} takes {mine}" if mine is not None else ""
    if owners:
        whose = f"a {owners[0]} option" if len(owners) == 1 else f"an option of {' and '.join(owners)}"
        return f"{flag} is {whose} (exactplay {command} {owners[0]} {flag} ...){takes}"
    if game is None:
        return f"{base} (name a game first: exactplay {command} GAME ...)"
    others = [c for c, cp in commands.items() if c != command and game in _choices(cp)
              and flag in _flags(_choices(cp)[game])]
    if others:
        return (f"{flag} is an option of {' and '.join(others)} (exactplay {others[0]} {game} {flag} ...), "
                f"not of {command}")
    return f"{base} ({game} takes {mine}; exactplay {command} {game} --help)" if mine else base


def entry() -> None:  # console_scripts
    sys.exit(main())


if __name__ == "__main__":  # pragma: no cover
    entry()
