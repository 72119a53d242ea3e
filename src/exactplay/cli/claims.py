"""``exactplay claims``: the seeds' claims ledger (confirmed / refuted / not checkable)."""

from __future__ import annotations

import os
import sys
from pathlib import Path

from ..errors import EXIT_FAILED, EXIT_OK, UsageError
from ..progress import heavy_notice, make_progress
from ..registry import game_names, get_game
from ..strict_json import dumps
from .parsing import EPILOG

COMMANDS = {"claims": "check every registered claim of the seeds: confirmed / refuted / not checkable"}


def add_parser(sub, command: str) -> None:
    p = sub.add_parser(
        command,
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


def run(args) -> int:
    from ..claims import ERROR
    from ..present.report.ledger import (json_rows, markdown_table, replace_section, run_ledger, select_claims,
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
