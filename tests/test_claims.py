"""The claims ledger: the registry is well formed, every fast claim runs, the
table renders, and the findings section of docs/games.md is the generated table.

Claim *verdicts* are each game's business (their own tests assert the truth);
here a verdict must only be one of the three outcomes, never an error.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from claim_findings import ONE_WORKER, finding

from exactplay.claims import CONFIRMED, ERROR, NOT_CHECKABLE, REFUTED, Claim, Verdict, all_claims, run_claim, verdict
from exactplay.cli.main import main
from exactplay.errors import EXIT_FAILED, EXIT_OK, UsageError
from exactplay.games import GAME_MODULES
from exactplay.present.report import ledger
from exactplay.present.report.ledger import (FINDINGS_END, FINDINGS_START, Finding, markdown_table,
                                     replace_section, run_ledger, select_claims, summary_line, text_table)


def marked_section(text: str) -> str | None:
    """The text strictly between the findings markers (stripped), or None without markers."""
    start, end = text.find(FINDINGS_START), text.find(FINDINGS_END)
    if start < 0 or end < 0 or end < start:
        return None
    return text[start + len(FINDINGS_START): end].strip()


FINDINGS_DOC = Path(__file__).resolve().parents[1] / "docs" / "games.md"
FAST = [c for c in all_claims() if not c.slow]


def fast_findings() -> tuple[Finding, ...]:
    """Every fast claim, each run once per test process (shared with the games' verdict tests)."""
    return tuple(finding(c) for c in FAST)


# ------------------------------------------------------------------ the registry


def test_claim_ids_are_unique_and_prefixed_by_their_game():
    ids = [c.id for c in all_claims()]
    assert len(ids) == len(set(ids)), sorted(i for i in ids if ids.count(i) > 1)
    for c in all_claims():
        assert c.game in GAME_MODULES, c.id
        assert c.id.startswith(c.game + "."), c.id


def test_every_claim_names_source_statement_and_method():
    for c in all_claims():
        assert isinstance(c, Claim)
        assert c.source.strip() and c.statement.strip() and c.method.strip(), c.id
        assert callable(c.check), c.id


def test_every_built_game_registers_claims():
    import importlib

    for name, module_name in GAME_MODULES.items():
        try:
            module = importlib.import_module(module_name)
        except ModuleNotFoundError as exc:
            if exc.name != module_name:
                raise
            continue  # not built yet: `exactplay claims --game` says so
        assert getattr(module, "CLAIMS", ()), f"game {name} registers no CLAIMS"
        assert all(c.game == name for c in module.CLAIMS), name


def test_all_claims_filters_by_game():
    for name in GAME_MODULES:
        assert all(c.game == name for c in all_claims(name))
    assert sum(len(all_claims(n)) for n in GAME_MODULES) == len(all_claims())


def _assert_runs_to_a_verdict(found: Finding) -> None:
    assert found.status in (CONFIRMED, REFUTED, NOT_CHECKABLE), (found.claim.id, found.verdict.figure)
    assert found.verdict.figure.strip(), f"{found.claim.id}: a verdict must say what was measured"


@pytest.mark.slow  # one test per claim, for its own report: the default suite checks them all below
@pytest.mark.parametrize("claim_id", [c.id for c in FAST])
def test_fast_claim_runs_to_a_verdict(claim_id):
    _assert_runs_to_a_verdict(finding(next(c for c in FAST if c.id == claim_id)))


# ------------------------------------------------------------------ the games page stays in step


@ONE_WORKER  # with the games' verdict tests, which read the same claim runs
def test_every_fast_claim_runs_to_a_verdict_and_the_games_page_shows_their_table():
    """One test for both, so the fast claims (about 12 s of CPU) run once, in one worker: each
    runs to one of the three verdicts with a figure, and the findings section of docs/games.md is
    their generated table."""
    findings = fast_findings()
    assert [f.claim.id for f in findings] == [c.id for c in FAST] and findings
    for found in findings:
        _assert_runs_to_a_verdict(found)
    section = marked_section(FINDINGS_DOC.read_text(encoding="utf-8"))
    assert section is not None, f"docs/games.md lacks the {FINDINGS_START} ... {FINDINGS_END} markers"
    expected = markdown_table(list(findings))
    assert section == expected, (
        "the findings in docs/games.md are out of date: run `exactplay claims --fast --update-readme docs/games.md`"
    )


# ------------------------------------------------------------------ rendering, with made-up claims


def _raise():
    raise RuntimeError("boom")


FAKE = [
    Claim("fake.holds", "fake", "fake.md, Section 1", "one plus one is two", "integers",
          lambda: verdict(1 + 1 == 2, "1 + 1 = 2")),
    Claim("fake.fails", "fake", "fake.md, Section 2", "a | b is c", "exact",
          lambda: verdict(False, "a | b is d")),
    Claim("fake.vague", "fake", "fake.md, Section 3", "it is fast", "none",
          lambda: Verdict(NOT_CHECKABLE, "no measurable statement")),
    Claim("fake.slow", "fake", "fake.md, Section 4", "slow but true", "brute force",
          lambda: verdict(True, "ok"), slow=True),
]


@pytest.fixture
def fake_claims(monkeypatch):
    claims = list(FAKE)
    monkeypatch.setattr(ledger, "all_claims", lambda game=None: claims)
    return claims


def test_run_claim_turns_an_exception_into_an_error_verdict():
    v = run_claim(Claim("fake.err", "fake", "s", "st", "m", _raise))
    assert v.status == ERROR and "RuntimeError: boom" in v.figure


def test_select_claims_fast_skips_slow_and_unknown_id_is_a_usage_error(fake_claims):
    assert [c.id for c in select_claims(fast=True)] == ["fake.holds", "fake.fails", "fake.vague"]
    assert [c.id for c in select_claims(ids=["fake.slow"])] == ["fake.slow"]
    with pytest.raises(UsageError, match="unknown claim id"):
        select_claims(ids=["fake.nope"])


def test_text_table_has_one_row_per_claim_and_a_summary(fake_claims):
    findings = run_ledger(select_claims(fast=True))
    lines = text_table(findings, width=100)
    for c in FAKE[:3]:
        assert any(line.split()[:2] == [run_claim(c).status.split()[0], c.id] or c.id in line for line in lines)
    assert summary_line(findings, 1) == (
        "3 claims: 1 confirmed, 1 refuted, 1 not checkable (1 slow claim skipped: drop --fast to run them)"
    )
    verbose = "\n".join(text_table(findings, verbose=True, width=100))
    assert "claim:    one plus one is two" in verbose and "checked:  integers" in verbose


def test_markdown_table_escapes_pipes_and_has_a_row_per_claim(fake_claims):
    md = markdown_table(run_ledger(select_claims(fast=True)))
    rows = md.splitlines()
    assert rows[0].startswith("| Claim |") and len(rows) == 2 + 3
    assert "a \\| b is c" in md and "**refuted**" in md
    assert all(len(re.findall(r"(?<!\\)\|", r)) == 6 for r in rows), "five cells per row"


def test_replace_section_round_trips_and_keeps_the_rest(fake_claims):
    text = f"# Title\n\nintro\n\n{FINDINGS_START}\nold table\n{FINDINGS_END}\n\nrest\n"
    table = markdown_table(run_ledger(select_claims(fast=True)))
    new = replace_section(text, table)
    assert marked_section(new) == table
    assert new.startswith("# Title\n\nintro\n\n") and new.endswith(f"{FINDINGS_END}\n\nrest\n")
    assert replace_section(new, table) == new
    with pytest.raises(UsageError, match="no findings section"):
        replace_section("no markers here", table)


def _cli(capsys, *argv):
    status = main(list(argv))
    out, err = capsys.readouterr()
    return status, out, err


def test_claims_command_exits_0_with_refutations(capsys, fake_claims):
    status, out, err = _cli(capsys, "claims", "--fast")
    assert status == EXIT_OK and err == ""
    assert "refuted" in out and "fake.fails" in out and "1 slow claim skipped" in out
    assert "fake.slow" not in out


def test_claims_command_exits_1_when_a_check_cannot_run(capsys, fake_claims):
    fake_claims.append(Claim("fake.broken", "fake", "fake.md", "x", "y", _raise))
    status, out, err = _cli(capsys, "claims")
    assert status == EXIT_FAILED
    assert "fake.broken" in out
    lines = err.strip().splitlines()
    assert lines[0].startswith("exactplay: note: 1 slow claim (fake.slow)")  # said before the ledger runs
    assert lines[1:] == ["exactplay: error: claim fake.broken could not be checked: RuntimeError: boom"]


def test_claims_json_is_parseable_with_status_and_figure(capsys, fake_claims):
    status, out, _ = _cli(capsys, "claims", "--json")
    rows = json.loads(out)
    assert status == EXIT_OK
    assert [r["status"] for r in rows] == [CONFIRMED, REFUTED, NOT_CHECKABLE, CONFIRMED]
    assert rows[3]["slow"] is True and rows[0]["figure"] == "1 + 1 = 2"
    assert set(rows[0]) >= {"id", "game", "source", "statement", "method", "status", "figure", "seconds"}


def test_claims_markdown_prints_the_table(capsys, fake_claims):
    status, out, _ = _cli(capsys, "claims", "--markdown", "--fast")
    assert status == EXIT_OK
    assert out.strip() == markdown_table(run_ledger(select_claims(fast=True)))


def test_claims_update_readme_rewrites_only_the_marked_section(capsys, fake_claims, tmp_path):
    readme = tmp_path / "README.md"
    readme.write_text(f"top\n{FINDINGS_START}\nstale\n{FINDINGS_END}\nbottom\n")
    status, _, err = _cli(capsys, "claims", "--fast", "--update-readme", str(readme))
    text = readme.read_text()
    assert status == EXIT_OK and "updated the findings section" in err
    assert marked_section(text) == markdown_table(run_ledger(select_claims(fast=True)))
    assert text.startswith("top\n") and text.endswith("bottom\n")


def test_claims_update_readme_without_markers_is_a_usage_error(capsys, fake_claims, tmp_path):
    readme = tmp_path / "README.md"
    readme.write_text("no markers\n")
    status, _, err = _cli(capsys, "claims", "--update-readme", str(readme))
    assert status == 2 and len(err.strip().splitlines()) == 1 and "no findings section" in err
    assert readme.read_text() == "no markers\n"
