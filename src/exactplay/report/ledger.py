"""The claims ledger as a table: run the registered claims and render them.

One :class:`Finding` per claim (the claim, its verdict, the seconds it took).
Three renderings of the same findings:

* :func:`text_table` -- what ``exactplay claims`` prints,
* :func:`json_rows` -- what ``exactplay claims --json`` prints,
* :func:`markdown_table` -- the README's findings section, kept in step by a
  test: the text between :data:`FINDINGS_START` and :data:`FINDINGS_END`
  equals ``markdown_table`` of the fast claims (see :func:`replace_section`).

The Markdown never contains timings, so it is the same on every machine.
"""

from __future__ import annotations

import shutil
import textwrap
import time
from dataclasses import dataclass

from ..claims import CONFIRMED, ERROR, NOT_CHECKABLE, REFUTED, Claim, Verdict, all_claims, run_claim
from ..errors import UsageError
from ..progress import SILENT

FINDINGS_START = "<!-- findings:start -->"
FINDINGS_END = "<!-- findings:end -->"
STATUS_ORDER = (CONFIRMED, REFUTED, NOT_CHECKABLE, ERROR)


@dataclass(frozen=True)
class Finding:
    claim: Claim
    verdict: Verdict
    seconds: float

    @property
    def status(self) -> str:
        return self.verdict.status


def select_claims(game: str | None = None, fast: bool = False, ids: list[str] | None = None) -> list[Claim]:
    """The registered claims of ``game`` (all games if None), optionally only the fast ones or given ids."""
    claims = all_claims(game)
    if fast:
        claims = [c for c in claims if not c.slow]
    if ids:
        known = {c.id for c in all_claims(game)}
        unknown = [i for i in ids if i not in known]
        if unknown:
            raise UsageError(f"unknown claim id {unknown[0]!r}: `exactplay claims` lists the ids")
        claims = [c for c in claims if c.id in ids]
    return claims


def run_ledger(claims: list[Claim], progress=SILENT) -> list[Finding]:
    """Run every claim (a check that raises becomes an ``error`` verdict)."""
    progress.start(f"checking {len(claims)} claims", len(claims))
    out = []
    for claim in claims:
        t0 = time.perf_counter()
        v = run_claim(claim)
        if v.status not in STATUS_ORDER:
            v = Verdict(ERROR, f"check returned an unknown status {v.status!r}: {v.figure}")
        out.append(Finding(claim, v, time.perf_counter() - t0))
        progress.advance()
    return out


def counts(findings: list[Finding]) -> dict:
    c = {s: 0 for s in STATUS_ORDER}
    for f in findings:
        c[f.status] += 1
    return c


def summary_line(findings: list[Finding], skipped_slow: int = 0) -> str:
    c = counts(findings)
    parts = [f"{n} {s}" for s, n in c.items() if n or s in (CONFIRMED, REFUTED)]
    line = f"{len(findings)} claims: " + ", ".join(parts)
    if skipped_slow:
        line += f" ({skipped_slow} slow claim{'s' if skipped_slow != 1 else ''} skipped: drop --fast to run them)"
    return line


def json_rows(findings: list[Finding]) -> list[dict]:
    return [
        {
            "id": f.claim.id,
            "game": f.claim.game,
            "source": f.claim.source,
            "statement": f.claim.statement,
            "method": f.claim.method,
            "slow": f.claim.slow,
            "status": f.status,
            "figure": f.verdict.figure,
            "seconds": round(f.seconds, 3),
        }
        for f in findings
    ]


def _width() -> int:
    return max(80, min(160, shutil.get_terminal_size((100, 24)).columns))


def text_table(findings: list[Finding], verbose: bool = False, width: int | None = None) -> list[str]:
    """A fixed-column table: status, claim id, source, measured figure (wrapped).

    ``verbose`` adds the claim as stated and how it is checked under each row.
    """
    width = width or _width()
    if not findings:
        return ["no claims registered"]
    w_status = max(len("STATUS"), *(len(f.status) for f in findings))
    w_id = max(len("CLAIM"), *(len(f.claim.id) for f in findings))
    w_src = min(30, max(len("SOURCE"), *(len(f.claim.source) for f in findings)))
    indent = w_status + w_id + w_src + 6
    w_fig = max(30, width - indent)
    lines = [f"{'STATUS':<{w_status}}  {'CLAIM':<{w_id}}  {'SOURCE':<{w_src}}  MEASURED"]
    for f in findings:
        src = textwrap.wrap(f.claim.source, w_src) or [""]
        fig = textwrap.wrap(f.verdict.figure, w_fig) or [""]
        for i in range(max(len(src), len(fig))):
            left = f"{f.status:<{w_status}}  {f.claim.id:<{w_id}}" if i == 0 else " " * (w_status + w_id + 2)
            s = src[i] if i < len(src) else ""
            g = fig[i] if i < len(fig) else ""
            lines.append(f"{left}  {s:<{w_src}}  {g}".rstrip())
        if verbose:
            pad = " " * (w_status + 2)
            for label, text in (("claim ", f.claim.statement), ("method", f.claim.method)):
                wrapped = textwrap.wrap(text, max(30, width - len(pad) - 8)) or [""]
                lines.append(f"{pad}{label}: {wrapped[0]}")
                lines.extend(f"{pad}        {w}" for w in wrapped[1:])
    return lines


def _md_cell(text: str) -> str:
    return " ".join(str(text).split()).replace("|", "\\|")


_MD_STATUS = {CONFIRMED: "confirmed", REFUTED: "**refuted**", NOT_CHECKABLE: "not checkable", ERROR: "**error**"}


def markdown_table(findings: list[Finding]) -> str:
    """The findings as a GitHub Markdown table (no timings: reproducible)."""
    lines = [
        "| Claim | Source | As stated | Status | Measured |",
        "|---|---|---|---|---|",
    ]
    for f in findings:
        lines.append(
            "| `{}` | {} | {} | {} | {} |".format(
                f.claim.id,
                _md_cell(f.claim.source),
                _md_cell(f.claim.statement),
                _MD_STATUS[f.status],
                _md_cell(f.verdict.figure),
            )
        )
    return "\n".join(lines)


def marked_section(text: str) -> str | None:
    """The text strictly between the findings markers (stripped), or None without markers."""
    start, end = text.find(FINDINGS_START), text.find(FINDINGS_END)
    if start < 0 or end < 0 or end < start:
        return None
    return text[start + len(FINDINGS_START): end].strip()


def replace_section(text: str, table: str) -> str:
    """``text`` with the findings section replaced by ``table``; UsageError without markers."""
    start, end = text.find(FINDINGS_START), text.find(FINDINGS_END)
    if start < 0 or end < 0 or end < start:
        raise UsageError(f"no findings section: put {FINDINGS_START} and {FINDINGS_END} on their own lines first")
    return text[: start + len(FINDINGS_START)] + "\n" + table.strip() + "\n" + text[end:]
