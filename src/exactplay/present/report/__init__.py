"""Reports a person can look at: one self-contained HTML file plus PNG figures.

``build_report(game, params, out_dir)`` asks the game's figure module
(``exactplay.present.report.<game>``) for a :class:`GameReport` -- summary lines and
:class:`Figure` objects, each with a title, axis labels and a one-line caption
saying what to look at -- then :mod:`exactplay.present.report.html` writes the PNG
files and one HTML page with the same images embedded as base64.

Figures are drawn on :class:`matplotlib.figure.Figure` objects with the Agg
renderer (never ``pyplot``), so a report builds without a display.
"""

from __future__ import annotations

import importlib
from pathlib import Path

from ...errors import UsageError
from ...registry import GAME_MODULES, get_game
from ...progress import SILENT
from .pieces import Figure, GameReport, ReportFiles  # noqa: F401  (re-exported: the game reports import them from here)

REPORT_MODULES = {name: f"{module}.report" for name, module in GAME_MODULES.items()}


def game_report(game: str, params: dict, backend: str = "mpq", progress=SILENT) -> GameReport:
    """The figures and summary of ``game`` at ``params`` (UsageError if unavailable)."""
    get_game(game)  # unknown or not-yet-built games fail here with one line
    try:
        module = importlib.import_module(REPORT_MODULES[game])
    except ModuleNotFoundError as exc:
        if exc.name == REPORT_MODULES[game]:
            raise UsageError(f"game {game!r} is not available for reports in this version") from None
        raise
    return module.build(backend=backend, progress=progress, **params)


def check_output_dir(out_dir: str | Path) -> None:
    """One clear error before any computing if ``out_dir`` cannot be the report's directory.

    Writing is tried, not guessed from permission bits (which say nothing for root or on a
    read-only file system): a probe file in ``out_dir`` if it exists, else a probe directory
    in its nearest existing ancestor; both are removed again.
    """
    import tempfile

    out = Path(out_dir)
    if not str(out_dir):
        raise UsageError("-o: name a directory for the report")
    if out.exists() and not out.is_dir():
        raise UsageError(f"-o {out}: exists and is not a directory; name a directory for the report")
    probe = out
    while not probe.exists():
        probe = probe.parent
    if not probe.is_dir():
        raise UsageError(f"-o {out}: {probe} is a file, not a directory")
    try:
        if probe == out:
            with tempfile.TemporaryFile(dir=out):
                pass
        else:
            Path(tempfile.mkdtemp(dir=probe, prefix=".exactplay-probe-")).rmdir()
    except OSError as exc:
        raise UsageError(f"-o {out}: cannot write there ({exc.strerror or exc})") from None


def build_report(game: str, params: dict, out_dir: str | Path, backend: str = "mpq", progress=SILENT,
                 with_claims: bool = True) -> ReportFiles:
    """Compute, draw and write ``<game>-report.html`` and ``<game>-<figure>.png`` into ``out_dir``."""
    from .html import write_report

    out = Path(out_dir)
    if out.exists() and not out.is_dir():
        raise UsageError(f"-o {out}: exists and is not a directory; name a directory for the report")
    rep = game_report(game, params, backend, progress)
    findings = None
    if with_claims:
        from .ledger import run_ledger, select_claims

        findings = run_ledger(select_claims(game, fast=True), progress)
    try:
        out.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise UsageError(f"-o {out}: cannot create the directory ({exc.strerror})") from None
    try:
        return write_report(out, game, params, backend, rep, findings, progress)
    except OSError as exc:
        raise UsageError(f"-o {out}: cannot write the report there ({exc.strerror or exc})") from None
