"""The pieces of a report: figures, the game's report, and the files written.

Both :mod:`exactplay.present.report` and :mod:`exactplay.present.report.html` import these, so
they live apart from either.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any


@dataclass
class Figure:
    """One picture: ``name`` is the PNG file stem; ``caption`` says what to look at."""

    name: str
    title: str
    caption: str
    figure: Any  # matplotlib.figure.Figure


@dataclass
class GameReport:
    title: str
    summary: list[str]
    figures: list[Figure]
    notes: list[str] = field(default_factory=list)
    audit: Any = None  # an AuditResult, rendered as tables in the HTML (exactplay.present.render.audit)
    solution: Any = None  # a solution's Report (data, lines), rendered as a table (exactplay.present.render.solution)


@dataclass
class ReportFiles:
    html: Path
    pngs: list[Path]
    report: GameReport
