"""The command line as a user drives it: every subcommand, ``--json`` parsed, every error path.

Errors must be ONE line on stderr with the documented exit status
(0 ok, 1 a certificate or check failed, 2 bad usage or input) and no traceback.
Instances are small so the whole file runs in a few seconds.
"""

from __future__ import annotations

import json
import subprocess
import sys
from fractions import Fraction

import pytest

from exactplay import progress as progress_module
from exactplay.errors import EXIT_FAILED, EXIT_OK, EXIT_USAGE
from cli_run import run


def assert_one_line_error(err: str, *words: str) -> None:
    lines = err.strip().splitlines()
    assert len(lines) == 1, f"expected one line on stderr, got {len(lines)}: {err!r}"
    assert "Traceback" not in err
    for w in words:
        assert w.lower() in err.lower(), f"{w!r} not in {err!r}"


# ------------------------------------------------------------------ help, version, list


def test_help_documents_the_three_exit_statuses(capsys):
    status, out, _ = run(capsys, "--help")
    assert status == 0
    assert "exit status: 0 success; 1 a certificate" in out and "2 bad usage" in out
    for command in ("list", "solve", "audit", "certify", "check", "claims", "report"):
        assert command in out


@pytest.mark.parametrize("command", ["solve", "audit", "certify", "report"])
def test_every_game_subcommand_help_repeats_the_exit_statuses(capsys, command):
    status, out, _ = run(capsys, command, "race", "--help")
    assert status == 0
    assert "--target" in out and "exit status: 0 success" in out


def test_no_command_prints_help_and_exits_2(capsys):
    status, out, _ = run(capsys)
    assert status == EXIT_USAGE
    assert "usage: exactplay" in out


def test_version_prints_the_package_version(capsys):
    from exactplay import __version__

    status, out, _ = run(capsys, "--version")
    assert status == 0 and __version__ in out


def test_list_shows_each_game_with_parameters_and_defaults(capsys):
    status, out, _ = run(capsys, "list")
    assert status == EXIT_OK
    assert "race" in out and "--target" in out and "(default: 100)" in out


def test_list_json_parses_and_names_race_target_default(capsys):
    status, out, _ = run(capsys, "list", "--json")
    rows = json.loads(out)
    race = next(r for r in rows if r["game"] == "race")
    assert status == 0
    assert {"name": "target", "default": 100} .items() <= race["params"][0].items()


# ------------------------------------------------------------------ solve, audit, certify, check


def test_solve_json_gives_the_race_to_one_point_value_one_third(capsys):
    """Seed race.md Section 3: G(1,1) = 1/3."""
    status, out, err = run(capsys, "solve", "race", "--target", "1", "--json")
    data = json.loads(out)
    assert status == 0 and err == ""
    assert data["answer"]["value"] == "1/3"


@pytest.mark.parametrize("backend", ["mpq", "fraction"])
def test_solve_gives_the_same_exact_answer_with_both_backends(capsys, backend):
    from exactplay.games.race import solve_table

    _, out, _ = run(capsys, "solve", "race", "--target", "4", "--json", "--backend", backend)
    data = json.loads(out)
    assert data["backend"] == backend
    assert Fraction(data["answer"]["value"]) == Fraction(solve_table(4, "fraction").answer)


def test_solve_text_prints_exact_value_and_certain_decimal(capsys):
    status, out, _ = run(capsys, "solve", "race", "--target", "2", "--digits", "5")
    assert status == 0
    assert "exact value" in out and "decimal" in out and "all digits certain" in out


def test_audit_json_covers_every_cell_and_respects_the_bound(capsys):
    status, out, _ = run(capsys, "audit", "race", "--target", "6", "--json")
    data = json.loads(out)
    assert status == 0
    assert data["values"]["cells"] == 36
    assert data["values"]["within_bound"] is True
    assert sum(data["decisions"]["counts"].values()) == 36


def test_certify_then_check_accepts_the_certificate(capsys, tmp_path):
    cert = tmp_path / "race-3.json"
    status, out, _ = run(capsys, "certify", "race", "--target", "3", "-o", str(cert))
    assert status == 0 and cert.exists() and "wrote" in out
    status, out, err = run(capsys, "check", str(cert))
    assert status == EXIT_OK and out.startswith("ok") and err == ""
    status, out, _ = run(capsys, "check", str(tmp_path), "--json")
    data = json.loads(out)
    assert status == EXIT_OK and data["certificates"][0]["ok"] is True
    assert (data["checked"], data["failed"]) == (1, 0)


def test_certify_json_reports_the_written_file(capsys, tmp_path):
    status, out, _ = run(capsys, "certify", "race", "--target", "2", "-o", str(tmp_path / "c.json"), "--json")
    data = json.loads(out)
    assert status == 0 and data["game"] == "race" and data["params"] == {"target": 2}


def test_check_of_a_corrupted_certificate_fails_with_exit_1_and_one_line(capsys, tmp_path):
    cert = tmp_path / "race-2.json"
    run(capsys, "certify", "race", "--target", "2", "-o", str(cert))
    data = json.loads(cert.read_text())
    data["model_sha256"] = "0" * 64
    cert.write_text(json.dumps(data))
    status, out, err = run(capsys, "check", str(cert))
    assert status == EXIT_FAILED
    fail, summary = err.strip().splitlines()
    assert fail.startswith("FAIL") and "model_sha256" in fail and summary == "1 of 1 certificate(s) failed"


def test_check_of_malformed_json_fails_with_exit_1_and_names_it(capsys, tmp_path):
    bad = tmp_path / "bad.json"
    bad.write_text("{ this is not json")
    status, _, err = run(capsys, "check", str(bad))
    assert status == EXIT_FAILED
    fail, summary = err.strip().splitlines()
    assert "not JSON" in fail and summary == "1 of 1 certificate(s) failed"


def test_check_checks_every_file_and_ends_with_a_summary(capsys, tmp_path):
    good = tmp_path / "a-good.json"
    run(capsys, "certify", "race", "--target", "2", "-o", str(good))
    (tmp_path / "b-bad.json").write_text("{")
    (tmp_path / "c-good.json").write_text(good.read_text())
    status, out, err = run(capsys, "check", str(tmp_path))
    assert status == EXIT_FAILED
    assert out.count("ok   ") == 2 and err.strip().splitlines()[-1] == "1 of 3 certificate(s) failed"


def test_check_json_reports_a_failure_without_stderr(capsys, tmp_path):
    bad = tmp_path / "bad.json"
    bad.write_text("[]")
    status, out, err = run(capsys, "check", str(bad), "--json")
    assert status == EXIT_FAILED and err == ""
    data = json.loads(out)
    assert data["certificates"][0]["ok"] is False and data["failed"] == 1


# ------------------------------------------------------------------ usage errors: exit 2, one line


@pytest.mark.parametrize(
    "argv, words",
    [
        (["solve", "nosuchgame"], ["invalid choice"]),
        (["solve"], ["name a game"]),
        (["solve", "race", "--target", "0"], ["target", "at least 1"]),
        (["solve", "race", "--target", "-3"], ["target"]),
        (["solve", "race", "--target", "abc"], ["whole number"]),
        (["solve", "race", "--target", "100000"], ["limit"]),
        (["audit", "race", "--target", "2.5"], ["whole number"]),
        (["solve", "race", "--backend", "float"], ["invalid choice"]),
        (["solve", "race", "--backend", "decimal"], ["invalid choice"]),
        (["solve", "race", "--digits", "-1"], ["digits"]),
        (["solve", "race", "--frobnicate"], ["unrecognized"]),
        (["check", "/nonexistent/cert.json"], ["no such file"]),
        (["check"], ["required"]),
        (["certify", "race", "--target", "2"], ["required", "-o"]),
        (["report", "race", "--target", "2"], ["required", "-o"]),
        (["report", "nosuchgame", "-o", "x"], ["invalid choice"]),
        (["report"], ["name a game"]),
        (["claims", "--game", "nosuchgame"], ["unknown game"]),
        (["claims", "--id", "no.such-claim"], ["unknown claim id"]),
        (["claims", "--json", "--markdown"], ["not allowed"]),
        (["frobnicate"], ["invalid choice"]),
    ],
)
def test_bad_usage_exits_2_with_one_line_on_stderr(capsys, argv, words):
    status, out, err = run(capsys, *argv)
    assert status == EXIT_USAGE, (status, out, err)
    assert_one_line_error(err, *words)


def test_certify_into_a_missing_directory_creates_it(capsys, tmp_path):
    target = tmp_path / "no" / "dir" / "c.json"
    status, _, _ = run(capsys, "certify", "race", "--target", "2", "-o", str(target))
    assert status == EXIT_OK and json.loads(target.read_text())["game"] == "race"


@pytest.mark.parametrize("where", ["dir", "empty", "under-a-file"])
def test_certify_to_an_unwritable_place_is_one_line_exit_2(capsys, tmp_path, where):
    (tmp_path / "plain").write_text("x")
    output = {"dir": str(tmp_path), "empty": "", "under-a-file": str(tmp_path / "plain" / "c.json")}[where]
    status, out, err = run(capsys, "certify", "race", "--target", "2", "-o", output)
    assert status == EXIT_USAGE and out == ""
    assert_one_line_error(err, "-o")


def test_report_into_a_file_path_is_a_usage_error(capsys, tmp_path):
    f = tmp_path / "plain-file"
    f.write_text("x")
    status, _, err = run(capsys, "report", "race", "--target", "2", "-o", str(f), "--no-claims")
    assert status == EXIT_USAGE
    assert_one_line_error(err, "not a directory")


# ------------------------------------------------------------------ claims and report subcommands


def test_claims_command_runs_real_claims_and_exits_0_unless_a_check_errs(capsys):
    from exactplay.claims import all_claims

    # a real run on the last two fast claims of the last game (cheap ones); the full ledger is tests/test_claims.py
    fast = [c.id for c in all_claims() if not c.slow][-2:]
    if not fast:
        status, _, err = run(capsys, "claims", "--fast")
        assert status == EXIT_USAGE and "no claims registered" in err
        return
    argv = ["claims", "--json"] + [w for i in fast for w in ("--id", i)]
    status, out, err = run(capsys, *argv)
    rows = json.loads(out)
    assert [r["id"] for r in rows] == fast
    has_error = any(r["status"] == "error" for r in rows)
    assert status == (EXIT_FAILED if has_error else EXIT_OK)
    status, out, _ = run(capsys, "claims", *argv[2:])
    assert all(i in out for i in fast)
    assert out.rstrip().splitlines()[-1].startswith(f"{len(fast)} claim")


def test_report_writes_html_and_pngs_and_json_lists_them(capsys, tmp_path):
    status, out, err = run(capsys, "report", "race", "--target", "4", "-o", str(tmp_path), "--json", "--no-claims")
    data = json.loads(out)
    assert status == 0 and err == ""
    assert data["html"].endswith("race-report.html")
    assert len(data["png"]) == len(data["figures"]) == 3
    for png in data["png"]:
        assert open(png, "rb").read(8) == b"\x89PNG\r\n\x1a\n"


# ------------------------------------------------------------------ as a separate process


def _exactplay(*argv, timeout=120):
    return subprocess.run([sys.executable, "-m", "exactplay", *argv], capture_output=True, text=True,
                          timeout=timeout)


def test_module_entry_point_solves_and_stays_silent_on_stderr_in_a_pipe():
    proc = _exactplay("audit", "race", "--target", "8")
    assert proc.returncode == 0
    assert proc.stderr == ""  # no progress bar when output is not a terminal
    assert "Audit of the published Race solver" in proc.stdout


def test_module_entry_point_bad_input_is_one_line_exit_2_no_traceback():
    proc = _exactplay("solve", "race", "--target", "zero")
    assert proc.returncode == EXIT_USAGE
    assert_one_line_error(proc.stderr, "whole number")
    assert proc.stdout == ""


# ------------------------------------------------------------------ progress display policy


class _Stream:
    def __init__(self, tty: bool):
        self.tty = tty

    def isatty(self):
        return self.tty

    def write(self, s):  # pragma: no cover - never written in these tests
        return len(s)

    def flush(self):  # pragma: no cover
        pass


@pytest.mark.parametrize(
    "quiet, as_json, out_tty, err_tty, shown",
    [
        (False, False, True, True, True),
        (True, False, True, True, False),
        (False, True, True, True, False),
        (False, False, False, True, False),
        (False, False, True, False, False),
    ],
)
def test_progress_only_on_a_terminal_without_quiet_or_json(monkeypatch, quiet, as_json, out_tty, err_tty, shown):
    monkeypatch.setattr(progress_module.sys, "stdout", _Stream(out_tty))
    monkeypatch.setattr(progress_module.sys, "stderr", _Stream(err_tty))
    p = progress_module.make_progress(quiet, as_json)
    assert (p is not progress_module.SILENT) == shown


def test_a_game_module_that_fails_to_import_does_not_break_the_other_commands(capsys, monkeypatch):
    import exactplay.cli.parsing as cli_parsing
    from exactplay.games import GAME_MODULES

    real = cli_parsing.get_game

    def get_game(name):
        if name == "broken":
            raise RuntimeError("half-written module")
        return real(name)

    monkeypatch.setitem(GAME_MODULES, "broken", "exactplay.games.broken")
    monkeypatch.setattr(cli_parsing, "get_game", get_game)  # where the CLI loads the games
    status, out, err = run(capsys, "list")
    assert status == EXIT_OK and err == ""
    assert "broken  (fails to load: RuntimeError: half-written module)" in out
    assert "race" in out
    status, out, _ = run(capsys, "solve", "race", "--target", "1", "--json")
    assert status == EXIT_OK and json.loads(out)["answer"]["value"] == "1/3"


# ------------------------------------------------------------------ judge (a contest input, answered exactly)


def test_judge_answers_each_query_with_the_exact_policy(capsys, tmp_path):
    from exactplay.games.hold import exact_table

    queries = [(9, 0, 3), (0, 5, 2), (4, 4, 2)]
    inp = tmp_path / "in.txt"
    inp.write_text(f"{len(queries)}\n" + "".join(f"{c} {h} {x}\n" for c, h, x in queries))
    status, out, err = run(capsys, "judge", "hold", "--target", "12", "--faces", "4", str(inp))
    table = exact_table(12, 4)
    assert status == EXIT_OK and err == ""
    assert out.split() == [table.policy[c][h][x - 2] for c, h, x in queries]
    status, out, _ = run(capsys, "judge", "hold", "--target", "12", "--faces", "4", str(inp), "--json")
    assert [row["answer"] for row in json.loads(out)] == [table.policy[c][h][x - 2] for c, h, x in queries]


def test_judge_check_of_a_wrong_answer_file_fails_with_exit_1_naming_the_line(capsys, tmp_path):
    from exactplay.games.hold import exact_table

    inp, ans = tmp_path / "in.txt", tmp_path / "ans.txt"
    inp.write_text("1\n0 5 2\n")
    right = exact_table(12, 4).policy[0][5][0]
    ans.write_text(("C" if right == "H" else "H") + "\n")
    status, _, err = run(capsys, "judge", "hold", "--target", "12", "--faces", "4", str(inp), "--check", str(ans))
    assert status == EXIT_FAILED
    assert_one_line_error(err, "line 1")


def test_judge_malformed_contest_input_is_exit_2_one_line(capsys, tmp_path):
    inp = tmp_path / "in.txt"
    inp.write_text("1 2 3\n")
    status, _, err = run(capsys, "judge", "hold", "--target", "12", "--faces", "4", str(inp))
    assert status == EXIT_USAGE
    assert_one_line_error(err)


# ------------------------------------------------------------------ every game through every game subcommand

SMALL = {
    "race": ["--target", "3"],
    "hold": ["--target", "8", "--faces", "3"],
    "chefs": ["--n", "4"],
    "coins": ["10", "20", "8", "7"],
    "war": ["--ranks", "3", "--suits", "2"],
}


def _game_available(name):
    from exactplay.errors import UsageError
    from exactplay.games import get_game

    try:
        get_game(name)
    except UsageError:
        pytest.skip(f"game {name} not available")


@pytest.mark.parametrize("game", sorted(SMALL))
def test_every_game_solves_audits_certifies_and_checks_a_small_instance_with_json(capsys, tmp_path, game):
    _game_available(game)
    for command in ("solve", "audit"):
        status, out, err = run(capsys, command, game, *SMALL[game], "--json")
        assert status == EXIT_OK and err == "", (command, err)
        assert json.loads(out)["game"] == game
    cert = tmp_path / f"{game}.json"
    status, out, _ = run(capsys, "certify", game, *SMALL[game], "-o", str(cert), "--json")
    assert status == EXIT_OK and json.loads(out)["game"] == game
    status, out, _ = run(capsys, "check", str(cert), "--json")
    assert status == EXIT_OK and json.loads(out)["certificates"][0]["ok"] is True


def test_every_game_is_listed_with_its_parameters(capsys):
    status, out, _ = run(capsys, "list", "--json")
    rows = {r["game"]: r for r in json.loads(out)}
    assert status == EXIT_OK and set(rows) == set(SMALL)
    for name, row in rows.items():
        if row["available"]:
            assert row["params"] and row["commands"][:4] == ["solve", "audit", "certify", "report"], name
