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

from ...claims import CONFIRMED, ERROR, NOT_CHECKABLE, REFUTED, Claim, Verdict, all_claims, run_claim
from ...errors import UsageError
from ...progress import SILENT

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
    line = f"{len(findings)} claim{'s' if len(findings) != 1 else ''}: " + ", ".join(parts)
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


_ANSI = {CONFIRMED: "\033[32m", REFUTED: "\033[1;31m", NOT_CHECKABLE: "\033[2m", ERROR: "\033[1;37;41m"}


def text_table(findings: list[Finding], verbose: bool = False, width: int | None = None,
               color: bool = False) -> list[str]:
    """Status, claim id and source on one line; the measured figure wrapped below it.

    ``verbose`` adds the claim as stated and how it is checked; ``color``
    colours the status (for a terminal).
    """
    width = width or _width()
    if not findings:
        return ["no claims registered"]
    w_status = max(len("STATUS"), *(len(f.status) for f in findings))
    w_id = max(len("CLAIM"), *(len(f.claim.id) for f in findings))
    pad = " " * (w_status + 2)
    body = max(40, width - len(pad))
    lines = [f"{'STATUS':<{w_status}}  {'CLAIM':<{w_id}}  SOURCE"]
    for f in findings:
        status = f"{f.status:<{w_status}}"
        if color:
            status = f"{_ANSI[f.status]}{f.status}\033[0m" + " " * (w_status - len(f.status))
        lines.append(f"{status}  {f.claim.id:<{w_id}}  {f.claim.source}")
        rows = [("", f.verdict.figure)]
        if verbose:
            rows = [("claim:    ", f.claim.statement), ("checked:  ", f.claim.method), ("measured: ", f.verdict.figure)]
        for label, text in rows:
            wrapped = textwrap.wrap(text, body - len(label)) or [""]
            lines.append(f"{pad}{label}{wrapped[0]}")
            lines.extend(f"{pad}{' ' * len(label)}{w}" for w in wrapped[1:])
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


def replace_section(text: str, table: str) -> str:
    """``text`` with the findings section replaced by ``table``; UsageError without markers."""
    start, end = text.find(FINDINGS_START), text.find(FINDINGS_END)
    if start < 0 or end < 0 or end < start:
        raise UsageError(f"no findings section: put {FINDINGS_START} and {FINDINGS_END} on their own lines first")
    return text[: start + len(FINDINGS_START)] + "\n" + table.strip() + "\n" + text[end:]
