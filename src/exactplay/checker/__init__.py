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
"""

from __future__ import annotations

import importlib
from pathlib import Path

from ..errors import UsageError, VerificationError
from ._load import Table, load_certificate

CHECKERS = {
    "race": "exactplay.checker.race",
    "hold": "exactplay.checker.hold",
    "chefs": "exactplay.checker.chefs",
    "coins": "exactplay.checker.coins",
    "war": "exactplay.checker.war",
}

__all__ = ["check_certificate", "check_file", "certificate_paths", "Table"]


def check_certificate(cert: dict, source: str = "<certificate>") -> str:
    """Verify a parsed certificate; return a summary line or raise."""
    table = Table.from_certificate(cert)
    game = cert["game"]
    if game not in CHECKERS:
        raise VerificationError(f"{source}: unknown game {game!r}", field="game")
    module = importlib.import_module(CHECKERS[game])
    return module.verify(cert, table)


def check_file(path: str | Path) -> str:
    """Load and verify one certificate file."""
    cert = load_certificate(path)
    try:
        return check_certificate(cert, str(path))
    except VerificationError as exc:
        raise VerificationError(f"{path}: {exc}") from None


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
