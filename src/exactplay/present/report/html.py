"""Assembling a report: PNG files plus one self-contained HTML page.

The page embeds every PNG as a ``data:image/png;base64`` URI and its CSS
inline, so the single ``.html`` file can be mailed or archived on its own;
the PNG files are written next to it for slides and papers.
"""

from __future__ import annotations

import base64
import datetime as _dt
import html
import io
import shlex
from pathlib import Path

from ... import __version__
from ...progress import SILENT
from ..render import audit_html
from ..render.solution import solution_html
from ...strict_json import dumps
from .pieces import GameReport, ReportFiles

DPI = 110

_CSS = """
body { font-family: system-ui, -apple-system, "Segoe UI", sans-serif; max-width: 62rem; margin: 2rem auto;
       padding: 0 1rem; color: #1b1b1b; line-height: 1.45; }
h1 { font-size: 1.6rem; margin-bottom: .2rem; } h2 { font-size: 1.25rem; margin-top: 2.2rem; }
.meta { color: #555; font-size: .9rem; }
pre { background: #f5f5f2; padding: .8rem; overflow-x: auto; font-size: .85rem; border-radius: 4px; }
figure { margin: 1rem 0 2rem; } figure img { max-width: 100%; border: 1px solid #ddd; }
figcaption { font-size: .95rem; color: #333; margin-top: .3rem; }
table { border-collapse: collapse; font-size: .85rem; width: 100%; }
th, td { border-bottom: 1px solid #ddd; padding: .35rem .5rem; text-align: left; vertical-align: top; }
td.confirmed { color: #1a7f37; } td.refuted { color: #b3261e; font-weight: 600; }
td.notcheckable { color: #666; } td.error { color: #fff; background: #b3261e; }
code { font-size: .85rem; }
section.audit th { width: 16rem; font-weight: 600; } section.audit h3 { font-size: 1.05rem; }
"""


def png_bytes(fig) -> bytes:
    """The figure as PNG bytes (no timestamp metadata, so reruns give the same file)."""
    buf = io.BytesIO()
    fig.savefig(buf, format="png", dpi=DPI, metadata={"Software": None})
    return buf.getvalue()


def _params_text(params: dict) -> str:
    shown = []
    for k, v in params.items():
        if v is None:
            continue
        if isinstance(v, (list, tuple)):
            v = " ".join(map(str, v)) if len(v) <= 12 else " ".join(map(str, v[:12])) + f" ... ({len(v)} values)"
        shown.append(f"{k} = {v}")
    return ", ".join(shown) or "defaults"


def _claims_html(findings) -> str:
    if not findings:
        return "<p>No fast claims are registered for this game.</p>"
    from .ledger import summary_line

    rows = []
    for f in findings:
        cls = f.status.replace(" ", "")
        rows.append(
            "<tr><td><code>{}</code></td><td>{}</td><td>{}</td><td class=\"{}\">{}</td><td>{}</td></tr>".format(
                html.escape(f.claim.id), html.escape(f.claim.source), html.escape(f.claim.statement),
                cls, html.escape(f.status), html.escape(f.verdict.figure)))
    return (f"<p>{html.escape(summary_line(findings))} (slow claims: <code>exactplay claims --game "
            f"{html.escape(findings[0].claim.game)}</code>).</p>"
            "<table><thead><tr><th>Claim</th><th>Source</th><th>As stated</th><th>Status</th>"
            "<th>Measured</th></tr></thead><tbody>" + "".join(rows) + "</tbody></table>")


def render_html(game: str, params: dict, backend: str, rep: GameReport, images: list[tuple], findings,
                command: list[str]) -> str:
    """The page; ``images`` is a list of ``(Figure, png_bytes, file_name)``; ``command``: the words
    after ``exactplay`` that reproduce it (printed quoted for a POSIX shell)."""
    parts = [
        "<!DOCTYPE html>",
        '<html lang="en"><head><meta charset="utf-8">',
        '<meta name="viewport" content="width=device-width, initial-scale=1">',
        f"<title>{html.escape(rep.title)}</title><style>{_CSS}</style></head><body>",
        f"<h1>{html.escape(rep.title)}</h1>",
        f'<p class="meta">exactplay {html.escape(__version__)} &middot; game <code>{html.escape(game)}</code> '
        f"&middot; {html.escape(_params_text(params))} &middot; exact backend {html.escape(backend)} &middot; "
        f"built {_dt.datetime.now(_dt.timezone.utc).strftime('%Y-%m-%d %H:%M UTC')}</p>",
        "<h2>Summary</h2>",
    ]
    if rep.summary:
        parts.append("<pre>" + html.escape("\n".join(rep.summary)) + "</pre>")
    if rep.solution is not None:
        parts.append(solution_html(rep.solution))
    if rep.audit is not None:
        parts.append(audit_html(rep.audit))
    for note in rep.notes:
        parts.append(f"<p>{html.escape(note)}</p>")
    for i, (fig, data, file_name) in enumerate(images, 1):
        b64 = base64.b64encode(data).decode("ascii")
        parts += [
            f'<h2 id="{html.escape(fig.name)}">Figure {i}. {html.escape(fig.title)}</h2>',
            "<figure>",
            f'<img alt="{html.escape(fig.title)}" src="data:image/png;base64,{b64}">',
            f"<figcaption>{html.escape(fig.caption)} "
            f'<span class="meta">(also <code>{html.escape(file_name)}</code>)</span></figcaption>',
            "</figure>",
        ]
    if findings is not None:
        parts += ["<h2>The seed's claims (fast checks)</h2>", _claims_html(findings)]
    parts += [
        "<h2>Reproduce</h2>",
        "<pre>" + html.escape(shlex.join(["exactplay", *command])) + "</pre>",
        "</body></html>",
    ]
    return "\n".join(parts) + "\n"


def builtin_command(game: str, params: dict, backend: str, with_claims: bool = True) -> list[str]:
    """The words after ``exactplay`` that reproduce the report of a built-in game: its parameters
    written as its command line takes them (the registry says which are positional words)."""
    from ...registry import get_game

    words = ["report", game]
    for p in get_game(game).params:
        value = params.get(p.name)
        if value is None:
            continue
        if p.positional:
            words += [str(x) for x in value]
        else:
            text = ",".join(map(str, value)) if isinstance(value, (list, tuple)) else str(value)
            words += [f"--{p.name.replace('_', '-')}", text]
    if backend != "mpq":
        words += ["--backend", backend]
    if not with_claims:
        words.append("--no-claims")
    return words + ["-o", "DIR"]


def write_report(out: Path, game: str, params: dict, backend: str, rep: GameReport, findings,
                 progress=SILENT, command: list[str] | None = None) -> ReportFiles:
    """Draw the figures and write the page; ``command`` reproduces it (default: a built-in
    ``game``'s report with ``params``, :func:`builtin_command`)."""
    if command is None:
        command = builtin_command(game, params, backend, findings is not None)
    images, pngs = [], []
    progress.start(f"drawing {len(rep.figures)} figures", len(rep.figures))
    for fig in rep.figures:
        data = png_bytes(fig.figure)
        file_name = f"{game}-{fig.name}.png"
        (out / file_name).write_bytes(data)
        pngs.append(out / file_name)
        images.append((fig, data, file_name))
        progress.advance()
    page = out / f"{game}-report.html"
    page.write_text(render_html(game, params, backend, rep, images, findings, command), encoding="utf-8")
    return ReportFiles(page, pngs, rep)


def files_json(files: ReportFiles) -> str:
    return dumps({"html": str(files.html), "png": [str(p) for p in files.pngs],
                  "figures": [{"name": f.name, "title": f.title, "caption": f.caption}
                              for f in files.report.figures]})


def print_files(files: ReportFiles, as_json: bool) -> None:
    """What ``report`` prints: the files it wrote (JSON with ``--json``)."""
    if as_json:
        print(files_json(files))
        return
    print(f"wrote {files.html}")
    for png in files.pngs:
        print(f"      {png}")


__all__ = ["render_html", "write_report", "builtin_command", "png_bytes", "files_json", "print_files"]
