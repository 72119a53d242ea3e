"""``exactplay check``: every certificate given, verified by the standalone checker, then one summary."""

from __future__ import annotations

import sys

from ..errors import EXIT_FAILED, EXIT_OK, ExactplayError, UsageError
from ..numbers.backends import refuse_non_ascii_digits
from ..progress import heavy_notice, make_progress
from ..api.checking import ok_message
from ..strict_json import dumps
from .parsing import EPILOG

COMMANDS = {"check": "re-verify certificates (files or directories)"}


def add_parser(sub, command: str) -> None:
    p = sub.add_parser(
        command, epilog=EPILOG,
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


def _parse_expect(items: list[str]) -> dict:
    """``--expect KEY=VALUE`` options as a dict.  KEY is any parameter name (a built-in game's, or
    a factory's as its certificate records it): each certificate says which keys it has."""
    expect = {}
    for item in items:
        key, eq, value = item.partition("=")
        key, value = key.strip(), value.strip()
        if not eq or not key or not value:
            raise UsageError(f"check: --expect needs KEY=VALUE, got {item[:60]!r}")
        if not key.isidentifier():
            raise UsageError(f"check: --expect {key[:40]!r}: a parameter's name is a word (a Python identifier), "
                             "e.g. --expect target=100")
        refuse_non_ascii_digits(value, f"check: --expect {key}")  # the checker would read '١٠' as 10
        if key in expect and expect[key] != value:
            raise UsageError(f"check: --expect {key} given twice with different values")
        expect[key] = value
    return expect


def run(args) -> int:
    """Check every file given (directories: every ``*.json`` below), then one summary line.

    Exit 1 if any certificate does not verify or cannot be read as one (corrupt, truncated,
    tampered); exit 2 only for usage errors (no such path, bad option).
    """
    from ..checker import UNVERIFIED_FIELDS, certificate_paths, load_certificate, verify_certificate
    from ..checker.readers import use_stdlib, using_gmpy2

    use_stdlib(args.stdlib)
    results = []
    expect = _parse_expect(args.expect)
    paths = certificate_paths(args.paths)
    failed = 0
    progress = make_progress(args.quiet, args.json)
    try:
        for number, path in enumerate(paths, 1):
            progress.start(f"checking {path} ({number}/{len(paths)})")
            try:
                cert = load_certificate(path)
                if not using_gmpy2():
                    heavy_notice(_slow_without_gmpy2(path, cert), args.quiet, args.json)
                found = verify_certificate(cert, str(path), expect)
            except ExactplayError as exc:
                failed += 1
                results.append({"path": str(path), "ok": False, "error": str(exc)})
                if not args.json:
                    progress.print(f"FAIL {exc}", err=True)
                continue
            results.append({"path": str(path), "ok": True, **found})
            if not args.json and not args.quiet:
                progress.print(ok_message(path, found))
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


SLOW_WITHOUT_GMPY2 = 200_000  # states (the rules' bound) from which Python's own integers take minutes


def _slow_without_gmpy2(path, cert: dict) -> str | None:
    """A note before checking a large built-in game's certificate with Python's own integers
    (``--stdlib``, or no gmpy2): its huge numbers then take minutes, not seconds."""
    from ..checker.rules import RULES, rules_module

    game, params = cert.get("game"), cert.get("params")
    if cert.get("kind") != "game" or game not in RULES or not isinstance(params, dict):
        return None
    try:
        module = rules_module(game)
        bound = module.state_bound(module.read_params(params))
    except Exception:  # noqa: BLE001 - a malformed certificate: its check says what is wrong
        return None
    if bound < SLOW_WITHOUT_GMPY2:
        return None
    return (f"checking {path} with Python's own integers (--stdlib or no gmpy2) takes minutes (up to {bound:,} "
            "states); with gmpy2 seconds")
