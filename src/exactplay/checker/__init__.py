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

Certificates of version 2 (``"kind": "model"``: any game written as a model,
with its explicit model inside) are checked by :mod:`exactplay.checker.model`,
which verifies everything except ``notes`` and ``tool_version``.
"""

from __future__ import annotations

import importlib
from pathlib import Path

from ..errors import UsageError, VerificationError
from ._load import Table, load_certificate, rational

CHECKERS = {
    "race": "exactplay.checker.race",
    "hold": "exactplay.checker.hold",
    "chefs": "exactplay.checker.chefs",
    "coins": "exactplay.checker.coins",
    "war": "exactplay.checker.war",
}

UNVERIFIED_FIELDS = ("audit", "notes", "tool_version")

__all__ = ["check_certificate", "check_file", "verify_file", "certificate_paths", "Table"]


def _is_v2(cert: dict) -> bool:
    return type(cert.get("version")) is int and cert["version"] == 2


def check_certificate(cert: dict, source: str = "<certificate>") -> str:
    """Verify a parsed certificate; return a summary line or raise."""
    if _is_v2(cert):
        if cert.get("kind") != "model":
            raise VerificationError(f"{source}: unknown kind {str(cert.get('kind'))[:40]!r} of a version 2 "
                                    "certificate (this checker knows 'model')", field="kind")
        from . import model

        return model.verify(cert)
    table = Table.from_certificate(cert)
    game = cert["game"]
    if game not in CHECKERS:
        raise VerificationError(f"{source}: unknown game {game!r}", field="game")
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
    except VerificationError as exc:
        raise type(exc)(f"{path}: {exc}") from None
    except (KeyError, TypeError, ValueError, IndexError, AttributeError) as exc:
        raise VerificationError(f"{path}: malformed certificate ({type(exc).__name__}: {exc})") from None
    answer = cert["answer"] if isinstance(cert["answer"], dict) else {}
    if _is_v2(cert):  # everything, the decimal included, was verified by checker.model
        from .model import UNVERIFIED

        return {
            "game": cert["model"].get("name", "model"),
            "params": {},
            "answer": {k: answer.get(k) for k in ("name", "value", "decimal")},
            "summary": summary,
            "unverified_fields": [f for f in UNVERIFIED if f in cert],
        }
    _check_decimal(answer, path)
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


def _check_decimal(answer: dict, path) -> None:
    """The stored decimal must be the verified exact value, correctly rounded."""
    if "value" not in answer or "decimal" not in answer:
        return
    value = rational(answer["value"], "answer.value")
    text = answer["decimal"]
    digits = len(text.partition(".")[2]) if isinstance(text, str) else 0
    scaled = round(value * 10**digits)
    sign = "-" if scaled < 0 else ""
    body = str(abs(scaled)).rjust(digits + 1, "0")
    expected = f"{sign}{body[:-digits]}.{body[-digits:]}" if digits else f"{sign}{body}"
    if text != expected:
        raise VerificationError(f"{path}: stored decimal {text!r} is not the exact value rounded ({expected})",
                                field="answer.decimal")
