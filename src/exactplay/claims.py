"""The claims ledger: every checkable claim of the seeds, and its verdict.

A game module lists its claims in a module-level ``CLAIMS`` tuple of
:class:`Claim`.  Each claim names its source (seed file and section), quotes
the claim as stated, says how it is checked, and has a ``check`` function that
returns a :class:`Verdict`: ``confirmed``, ``refuted`` or ``not checkable``,
with the measured figure.  A refutation is a finding, not a failure; a check
that raises is reported as an error.
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass
from typing import Callable

CONFIRMED = "confirmed"
REFUTED = "refuted"
NOT_CHECKABLE = "not checkable"
ERROR = "error"


@dataclass(frozen=True)
class Verdict:
    status: str
    figure: str


def verdict(holds: bool, figure: str) -> Verdict:
    return Verdict(CONFIRMED if holds else REFUTED, figure)


@dataclass(frozen=True)
class Claim:
    id: str  # short, unique, e.g. "race.float-error"
    game: str
    source: str  # e.g. "race.md, Section 12"
    statement: str  # the claim as the seed states it
    method: str  # how exactplay checks it
    check: Callable[[], Verdict]
    slow: bool = False  # takes more than a few seconds


def all_claims(game: str | None = None) -> list[Claim]:
    from .registry import GAME_MODULES

    out: list[Claim] = []
    for name, module_name in GAME_MODULES.items():
        if game is not None and name != game:
            continue
        try:
            module = importlib.import_module(module_name)
        except ModuleNotFoundError:
            continue
        out.extend(getattr(module, "CLAIMS", ()))
    return out


def run_claim(claim: Claim) -> Verdict:
    try:
        return claim.check()
    except Exception as exc:  # a check that cannot run is reported, not raised
        return Verdict(ERROR, f"{type(exc).__name__}: {exc}")
