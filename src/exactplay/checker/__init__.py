"""The independent certificate checker.

This package re-verifies certificates written by :mod:`exactplay.certificate`
using only the standard library (``fractions.Fraction``, ``json``, ``gzip``,
``hashlib``).  It imports nothing from the solvers, so a bug in a solver cannot
hide itself by being shared with the check.

Each game has a module here with one function, ``verify(cert, table)``, which
receives the parsed certificate and its decoded, digest-checked table, checks
the game's optimality equations in every state and raises
:class:`~exactplay.errors.VerificationError` naming the field and the state of
the first failure.  It returns a one-line summary.

What is *not* re-verified: ``audit`` (the float-audit summary, which would need
the float programs the checker must not share), ``notes`` and ``tool_version``.
They are reported as unverified (:data:`UNVERIFIED_FIELDS`).
"""

from __future__ import annotations

import importlib
from pathlib import Path

from ..errors import MalformedCertificate, UsageError, VerificationError
from ._bounds import instance_bounds
from ._load import Table, clip, digit_limit, load_certificate, rational

CHECKERS = {
    "race": "exactplay.checker.race",
    "hold": "exactplay.checker.hold",
    "chefs": "exactplay.checker.chefs",
    "coins": "exactplay.checker.coins",
    "war": "exactplay.checker.war",
}

UNVERIFIED_FIELDS = ("audit", "notes", "tool_version")

__all__ = ["check_certificate", "check_file", "verify_file", "certificate_paths", "Table"]


MAX_MESSAGE_CHARS = 400  # an error line is cut to this length (values are clipped before, this is a backstop)
MAX_DECIMAL_DIGITS = 10_000  # decimals of answer.decimal (the CLI's --digits limit)


def check_certificate(cert: dict, source: str = "<certificate>") -> str:
    """Verify a parsed certificate; return a summary line or raise.

    The instance's bounds (parameters within the solver's limits, table size,
    digits per number) are checked before the table is decoded or parsed.
    """
    game = cert["game"]
    if not isinstance(game, str) or game not in CHECKERS:
        raise VerificationError(f"{source}: unknown game {clip(game)}", field="game")
    bounds = instance_bounds(cert)
    with digit_limit(bounds.digits):
        table = Table.from_certificate(cert, bounds.max_bytes, bounds.max_values)
        bounds.check_rows(table)
        module = importlib.import_module(CHECKERS[game])
        return module.verify(cert, table)


def check_file(path: str | Path) -> str:
    """Load and verify one certificate file; return the checker's summary."""
    return verify_file(path)["summary"]


def verify_file(path: str | Path) -> dict:
    """Load and verify one certificate file.

    Returns the game, its parameters, the verified answer (``name``, ``value``
    as ``"p/q"`` and ``decimal`` as stored) and the checker's summary line.
    """
    cert = load_certificate(path)
    try:
        summary = check_certificate(cert, str(path))
        answer = cert["answer"] if isinstance(cert["answer"], dict) else {}
        _check_decimal(answer)
    except VerificationError as exc:
        raise type(exc)(_one_line(f"{path}: {exc}")) from None
    except (KeyError, TypeError, ValueError, IndexError, AttributeError, OverflowError, RecursionError) as exc:
        raise VerificationError(_one_line(f"{path}: malformed certificate ({type(exc).__name__}: "
                                          f"{clip(str(exc), 120)})")) from None
    except MemoryError:
        raise MalformedCertificate(f"{path}: out of memory while checking; not verified") from None
    return {
        "game": cert["game"],
        "params": cert["params"],
        "answer": {k: answer.get(k) for k in ("name", "value", "decimal")},
        "summary": summary,
        "unverified_fields": [f for f in UNVERIFIED_FIELDS if f in cert],
    }


def certificate_paths(paths) -> list[Path]:
    """Expand directories to the ``*.json`` files below them, sorted."""
    out: list[Path] = []
    for p in paths:
        p = Path(p)
        if p.is_dir():
            found = sorted(p.rglob("*.json"))
            if not found:
                raise UsageError(f"{p}: no certificates (*.json) in this directory")
            out.extend(found)
        elif p.exists():
            out.append(p)
        else:
            raise UsageError(f"{p}: no such file or directory")
    return out


def _check_decimal(answer: dict) -> None:
    """The stored decimal must be the verified exact value, correctly rounded."""
    if "value" not in answer or "decimal" not in answer:
        return
    value = rational(answer["value"], "answer.value")
    text = answer["decimal"]
    if not isinstance(text, str) or len(text.partition(".")[2]) > MAX_DECIMAL_DIGITS \
            or len(text) > MAX_DECIMAL_DIGITS + 2 * len(answer["value"]) + 2:
        raise VerificationError(f"stored decimal {clip(text)} is not a string of at most "
                                f"{MAX_DECIMAL_DIGITS} decimals", field="answer.decimal")
    digits = len(text.partition(".")[2])
    scaled = round(value * 10**digits)
    sign = "-" if scaled < 0 else ""
    body = str(abs(scaled)).rjust(digits + 1, "0")
    expected = f"{sign}{body[:-digits]}.{body[-digits:]}" if digits else f"{sign}{body}"
    if text != expected:
        raise VerificationError(f"stored decimal {clip(text)} is not the exact value rounded "
                                f"({clip(expected)})", field="answer.decimal")


def _one_line(message: str) -> str:
    """The message on one line, at most :data:`MAX_MESSAGE_CHARS` characters."""
    message = " ".join(message.split())
    if len(message) > MAX_MESSAGE_CHARS:
        half = MAX_MESSAGE_CHARS // 2 - 10
        message = f"{message[:half]} ...[{len(message) - 2 * half} characters cut]... {message[-half:]}"
    return message
