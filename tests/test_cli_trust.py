"""A CLI to trust in CI and at a terminal: one error prefix, hints for another game's
option, reasons that fit the value, ASCII digits only, output paths checked before any
computing, ``-`` for stdout and stdin, and a progress display that never lies.

The progress display is driven with a fake clock and a rich Console writing to a
string (no terminal is needed).  Instances are tiny: the file runs in seconds.
"""

from __future__ import annotations

import dataclasses
import io
import json
import subprocess
import sys
from pathlib import Path

import pytest

from exactplay.cli import game_commands, main as cli
from exactplay.cli.main import main
from exactplay.errors import EXIT_OK, EXIT_USAGE
from exactplay.games import game_names, get_game
from exactplay.progress import SILENT, RichProgress, format_elapsed
from cli_run import run

PREFIX = "exactplay: error: "


def one_error_line(err: str) -> str:
    lines = err.strip().splitlines()
    assert len(lines) == 1, f"expected one line on stderr, got {err!r}"
    line = lines[0]
    assert "Traceback" not in err
    assert line.startswith(PREFIX), line
    assert line.count("error:") == 1, line
    rest = line[len(PREFIX):]
    assert not rest.startswith("exactplay"), f"the program name is repeated: {line!r}"
    return rest


# ------------------------------------------------------------------ one error prefix


@pytest.mark.parametrize("argv", [
    ["frobnicate"], ["--frobnicate"], ["solve"], ["report"], ["check"], ["solve", "race", "--frobnicate"],
    ["solve", "nosuchgame"], ["solve", "race", "--digits", "x"], ["certify", "race"],
    ["solve", "--game", "no_such_module:f", "--frobnicate"], ["solve", "--game", "a:b", "--model", "m.json"],
    ["judge"], ["judge", "hold", "--frobnicate"], ["claims", "--json", "--markdown"],
])
def test_every_usage_error_has_exactly_one_prefix_and_no_repeated_program_name(capsys, argv):
    status, out, err = run(capsys, *argv)
    assert status == EXIT_USAGE and out == ""
    one_error_line(err)


def test_an_error_raised_with_the_program_name_is_not_doubled():
    from exactplay.errors import UsageError

    assert cli.error_line(UsageError("exactplay solve: name a game")) == PREFIX + "solve: name a game"
    assert cli.error_line(UsageError("exactplay: error: exactplay: x")) == PREFIX + "x"
    assert cli.error_line(UsageError("two\nlines")) == PREFIX + "two lines"


# ------------------------------------------------------------------ an option of another game


def _owners(option: str) -> list[str]:
    return [g for g in game_names() if any(p.name == option and not p.positional for p in get_game(g).params)]


def test_an_option_of_another_game_names_that_game_and_what_this_one_takes(capsys):
    status, _, err = run(capsys, "solve", "race", "--faces", "3")
    assert status == EXIT_USAGE
    msg = one_error_line(err)
    assert msg.startswith("--faces is a hold option (exactplay solve hold --faces ...)"), msg
    assert msg.endswith("race takes --target"), msg


@pytest.mark.parametrize("game", game_names())
def test_every_other_games_option_gets_a_hint_built_from_the_registry(capsys, game):
    mine = {p.name for p in get_game(game).params}
    for other in game_names():
        for p in get_game(other).params:
            if p.positional or p.name in mine:
                continue
            flag = "--" + p.name.replace("_", "-")
            status, _, err = run(capsys, "audit", game, f"{flag}=1")
            assert status == EXIT_USAGE
            msg = one_error_line(err)
            owners = _owners(p.name)
            assert msg.startswith(f"{flag} is "), msg
            assert all(o in msg for o in owners) and f"exactplay audit {owners[0]} {flag}" in msg, msg
            assert f"{game} takes" in msg


def test_an_option_of_another_command_says_which_command_takes_it(capsys):
    status, _, err = run(capsys, "solve", "race", "-o", "x.json")
    assert "-o is an option of certify and report (exactplay certify race -o ...), not of solve" in one_error_line(err)
    status, _, err = run(capsys, "audit", "race", "--full")
    assert "--full is an option of solve" in one_error_line(err)


def test_an_unknown_option_lists_what_the_game_takes(capsys):
    status, _, err = run(capsys, "solve", "hold", "--frobnicate")
    msg = one_error_line(err)
    assert "unrecognized arguments: --frobnicate" in msg and "hold takes --target --faces" in msg


def test_the_cli_names_no_game():
    text = Path(cli.__file__).read_text(encoding="utf-8")
    for name in game_names():
        assert f'"{name}"' not in text and f"'{name}'" not in text, name


def test_a_factory_parameter_given_as_an_option_points_to_param(capsys):
    status, _, err = run(capsys, "solve", "--game", "no_such_module:make", "--goal", "3")
    assert status == EXIT_USAGE
    assert "--param goal=3" in one_error_line(err)


# ------------------------------------------------------------------ reasons that fit the value


@pytest.mark.parametrize("argv, want, never", [
    (["solve", "chefs", "--skills", "2,1/2"], "skill 2 is outside (0, 1]", "must be able to succeed"),
    (["solve", "chefs", "--skills", "3/2,1/2"], "at most 1", "succeed"),
    (["solve", "chefs", "--skills", "0,1/2"], "never succeeds", "at most 1"),
    (["solve", "chefs", "--skills=-1/2,1"], "not negative", "succeed"),
    (["solve", "chefs", "--skills", "1/2 1/3"], "separate the skills with commas", "not a number"),
    (["solve", "chefs", "--skills", "1/2"], "--skills lists 1 chef", "n must be at least"),
    (["solve", "chefs", "--n", "1"], "n must be at least 2 chefs, got 1", "beyond"),
    (["solve", "chefs", "--n", "99"], "beyond the supported limit", "at least"),
    (["solve", "coins", "1/0", "2"], "its denominator is 0", "not a rational"),
    (["solve", "coins", "nan"], "not finite", "not a rational"),
    (["solve", "coins", "1_000"], "without '_'", "not a rational"),
    (["solve", "race", "--target", "0"], "at least 1, got 0", "limit"),
    (["solve", "race", "--target", "99999"], "beyond the supported limit", "at least"),
    (["solve", "hold", "--faces", "1"], "between 2 and", "whole number"),
    (["solve", "war", "--ranks", "1.5"], "whole number, got '1.5'", "limit"),
    (["solve", "war", "--ranks", "3", "--suits", "1"], "even number of cards", "limit"),
    (["audit", "coins", "1", "1e-400"], "coin number 2 (about 10^-400", "coin 1 ("),
])
def test_the_reason_fits_the_value_given(capsys, argv, want, never):
    status, _, err = run(capsys, *argv)
    assert status == EXIT_USAGE
    msg = one_error_line(err)
    assert want in msg and never not in msg, msg


# ------------------------------------------------------------------ ASCII digits only

ARABIC_10 = "\u0661\u0660"  # Arabic-Indic 10: int() reads it
FULL_10 = "\uff11\uff10"  # full-width 10


@pytest.mark.parametrize("argv", [
    ["solve", "race", "--target", ARABIC_10],
    ["solve", "hold", "--faces", FULL_10],
    ["solve", "chefs", "--n", ARABIC_10],
    ["solve", "chefs", "--skills", "\u0661/\u0662,1"],
    ["solve", "coins", FULL_10, "2"],
    ["solve", "war", "--ranks", "\u0664"],
    ["solve", "race", "--digits", "\u0663"],
    ["audit", "race", "--target", "3", "--digits", FULL_10],
    ["judge", "hold", "--digits", ARABIC_10, "/dev/null"],
    ["solve", "--game", "no_such_module:make", "--param", f"goal={ARABIC_10}"],
    ["solve", "--game", "no_such_module:make", "--digits", ARABIC_10],
    ["solve", "--game", "no_such_module:make", "--max-states", FULL_10],
    ["check", "proofs/race/race-10.json", "--expect", f"target={ARABIC_10}"],
])
def test_digits_outside_ascii_are_refused_in_one_line(capsys, argv):
    status, out, err = run(capsys, *argv)
    assert status == EXIT_USAGE and out == ""
    assert "ASCII" in one_error_line(err)


def test_python_reads_these_digits_so_the_refusal_is_ours():
    assert int(ARABIC_10) == int(FULL_10) == 10


@pytest.mark.parametrize("row", [f"1 1 0.{ARABIC_10}", f"{ARABIC_10} 1 0.5", f"1 1 {FULL_10}", "1 1 0.5_0"])
def test_a_float_table_with_non_ascii_digits_is_refused(capsys, tmp_path, row):
    f = tmp_path / "t.txt"
    f.write_text(row + "\n", encoding="utf-8")
    status, _, err = run(capsys, "audit", "race", "--target", "1", "--float-table", str(f))
    assert status == EXIT_USAGE
    msg = one_error_line(err)
    assert "ASCII" in msg or "not a number" in msg


def test_a_model_float_table_with_non_ascii_digits_is_refused(tmp_path):
    from exactplay.errors import UsageError
    from exactplay.audit.float_table import read_value as _float

    with pytest.raises(UsageError, match="ASCII"):
        _float("t", "line 1", f"0.{ARABIC_10}")


def test_judge_input_with_non_ascii_digits_is_refused(capsys, tmp_path):
    f = tmp_path / "in.txt"
    f.write_text(f"1\n0 0 {ARABIC_10}\n", encoding="utf-8")
    status, _, err = run(capsys, "judge", "hold", str(f))
    assert status == EXIT_USAGE and "ASCII" in one_error_line(err)


def test_read_int_and_read_rational():
    from exactplay.errors import UsageError
    from exactplay.numbers.backends import read_int, read_rational

    assert read_int(" 12 ") == 12 and read_int("-3") == -3
    for bad in ("1_000", "1e3", "0x10", "", "12a", ARABIC_10):
        with pytest.raises(UsageError):
            read_int(bad)
    with pytest.raises(UsageError, match="ASCII"):
        read_rational(f"0.{FULL_10}")


# ------------------------------------------------------------------ output paths before computing


def _no_computing(monkeypatch, **fields):
    """Make the game's functions fail loudly if the CLI calls them."""
    real = game_commands.get_game

    def boom(*a, **k):
        raise AssertionError("computed before the output path was checked")

    def fake(name):
        return dataclasses.replace(real(name), **{f: boom for f in fields})

    monkeypatch.setattr(game_commands, "get_game", fake)


def test_certify_checks_the_output_path_before_computing(capsys, monkeypatch, tmp_path):
    _no_computing(monkeypatch, certify=True)
    (tmp_path / "plain").write_text("x")
    status, _, err = run(capsys, "certify", "race", "-o", str(tmp_path / "plain" / "c.json"))
    assert status == EXIT_USAGE and "-o" in one_error_line(err)


def test_report_checks_the_output_directory_before_computing(capsys, monkeypatch, tmp_path):
    import exactplay.present.report as report

    def boom(*a, **k):
        raise AssertionError("computed before the output directory was checked")

    monkeypatch.setattr(report, "build_report", boom)
    (tmp_path / "plain").write_text("x")
    for out in (tmp_path / "plain", tmp_path / "plain" / "sub"):
        status, _, err = run(capsys, "report", "race", "-o", str(out))
        assert status == EXIT_USAGE and "-o" in one_error_line(err)


def test_report_output_probe_leaves_nothing_behind(tmp_path):
    from exactplay.present.report import check_output_dir

    check_output_dir(tmp_path / "new" / "dir")
    check_output_dir(tmp_path)
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("case", ["missing", "directory", "no-markers"])
def test_claims_update_readme_is_checked_before_the_ledger_runs(capsys, monkeypatch, tmp_path, case):
    import exactplay.present.report.ledger as ledger

    def boom(*a, **k):
        raise AssertionError("the ledger ran before --update-readme was checked")

    monkeypatch.setattr(ledger, "run_ledger", boom)
    path = {"missing": tmp_path / "nope.md", "directory": tmp_path, "no-markers": tmp_path / "R.md"}[case]
    if case == "no-markers":
        path.write_text("# readme\n")
    status, _, err = run(capsys, "claims", "--fast", "--game", game_names()[0], "--update-readme", str(path))
    assert status == EXIT_USAGE and "--update-readme" in one_error_line(err)


def test_certify_to_stdout_writes_a_certificate_that_checks(capsys, tmp_path):
    status, out, err = run(capsys, "certify", "race", "--target", "3", "-o", "-")
    assert status == EXIT_OK and err == ""
    cert = json.loads(out)
    assert cert["game"] == "race" and cert["params"] == {"target": 3}
    f = tmp_path / "c.json"
    f.write_text(out)
    status, _, _ = run(capsys, "check", str(f))
    assert status == EXIT_OK


def test_float_table_dash_reads_standard_input():
    table = "a b value\n1 1 0.5\n"
    proc = subprocess.run([sys.executable, "-m", "exactplay", "audit", "race", "--target", "1", "--float-table", "-",
                           "--json"], input=table, capture_output=True, text=True, timeout=120)
    assert proc.returncode == EXIT_OK, proc.stderr
    data = json.loads(proc.stdout)
    assert data["float_table"] == "<stdin>" and data["values"]["cells"] == 1


def test_a_bad_float_table_is_refused_before_the_exact_values_are_computed(capsys, monkeypatch, tmp_path):
    _no_computing(monkeypatch, value_table=True)
    f = tmp_path / "t.csv"
    f.write_text("1 1 x\n")
    status, _, err = run(capsys, "audit", "race", "--float-table", str(f))
    assert status == EXIT_USAGE and "not a number" in one_error_line(err)


def test_list_shows_the_float_table_coordinates(capsys):
    status, out, _ = run(capsys, "list")
    assert status == EXIT_OK
    for name in game_names():
        g = get_game(name)
        if g.value_table is not None:
            assert f"--float-table rows: {' '.join(g.table_columns)} value" in out


def test_the_readme_example_float_table_audits():
    root = Path(__file__).resolve().parents[1]
    proc = subprocess.run([sys.executable, "-m", "exactplay", "audit", "race", "--target", "5", "--float-table",
                           str(root / "examples" / "race-5-float.csv")], capture_output=True, text=True, timeout=120)
    assert proc.returncode == EXIT_OK, proc.stderr
    assert "25 states (a, b)" in proc.stdout


# ------------------------------------------------------------------ honest progress


class Clock:
    def __init__(self):
        self.t = 100.0

    def __call__(self):
        return self.t


def _bar(width=60):
    from rich.console import Console

    buf = io.StringIO()
    console = Console(file=buf, force_terminal=True, width=width, color_system=None)
    clock = Clock()
    return RichProgress(clock=clock, console=console, timer=False), clock, buf


def test_the_bar_appears_only_after_the_delay():
    p, clock, buf = _bar()
    p.start("work", 10)
    p.advance()
    assert not p.state()["visible"] and buf.getvalue() == ""
    clock.t += RichProgress.DELAY + 0.1
    p.advance()
    assert p.state()["visible"]
    p.close()


def test_start_after_a_finished_step_resets_count_total_and_clock():
    p, clock, _ = _bar()
    p.start("first", 3)
    clock.t += 5
    p.advance(3)
    assert p.state()["elapsed"] == 5
    p.start("second", 7)
    s = p.state()
    assert (s["label"], s["total"], s["completed"], s["elapsed"]) == ("second", 7, 0, 0)
    clock.t += 2
    p.advance()
    assert p.state()["completed"] == 1 and p.state()["elapsed"] == 2
    p.close()


def test_a_step_without_a_total_shows_a_running_clock():
    p, clock, buf = _bar()
    p.start("thinking", None)
    clock.t += 65
    p.tick()
    s = p.state()
    assert s["total"] is None and s["elapsed"] == 65 and s["visible"]
    clock.t += 10
    assert p.elapsed_text() == "1:15"
    p.tick()
    assert "thinking" in buf.getvalue() and "1:15" in buf.getvalue()
    p.close()


def test_a_finished_step_while_work_goes_on_is_not_a_frozen_full_bar():
    p, clock, buf = _bar()
    p.start("solving", 4)
    clock.t += 3
    p.advance(4)  # the step is done, and the work goes on without a new start()
    s = p.state()
    assert s["total"] is None and "still working" in s["label"]  # a moving bar, not 100 %
    before = s["elapsed"]
    clock.t += 30
    p.tick()
    assert p.state()["elapsed"] == before + 30  # the clock keeps running
    assert "0:33" in buf.getvalue()
    p.close()


def test_results_printed_while_a_bar_is_up_are_not_hard_wrapped():
    p, clock, buf = _bar(width=40)
    p.start("checking", 2)
    clock.t += 3
    p.tick()
    line = "ok   " + "x" * 100 + " end"
    p.print(line)
    p.close()
    assert line in buf.getvalue()  # one piece, not cut at the console width


def test_close_removes_the_bar_and_later_prints_are_plain(capsys):
    p, clock, buf = _bar()
    p.start("x", None)
    clock.t += 3
    p.tick()
    p.close()
    p.print("after")
    assert capsys.readouterr().out == "after\n"


def test_format_elapsed():
    assert [format_elapsed(x) for x in (0, 59.9, 60, 3599, 3600)] == ["0:00", "0:59", "1:00", "59:59", "1:00:00"]


class Recorder:
    """A progress object that records what the solvers tell it."""

    def __init__(self, capsys=None):
        self.events = []
        self.capsys = capsys
        self.out_before_close = None

    def start(self, label, total=None):
        self.events.append(("start", label, total))

    def advance(self, n=1):
        self.events.append(("advance", n))

    def print(self, text, err=False):
        SILENT.print(text, err)

    def close(self):
        if self.capsys is not None and self.out_before_close is None:
            self.out_before_close = self.capsys.readouterr().out
        self.events.append(("close",))

    def labels(self):
        return [e[1] for e in self.events if e[0] == "start"]


def test_results_are_printed_after_the_bar_is_closed(capsys, monkeypatch):
    rec = Recorder(capsys)
    monkeypatch.setattr(game_commands, "make_progress", lambda quiet, js: rec)
    status = main(["audit", "race", "--target", "4"])
    assert status == EXIT_OK
    assert rec.out_before_close == ""  # nothing printed while a bar could be up
    assert "Audit" in capsys.readouterr().out


def test_solve_hold_shows_progress_while_it_solves(monkeypatch):
    from exactplay.games import hold
    from exactplay.games.hold import tables

    rec = Recorder()
    monkeypatch.setattr(tables, "_EXACT_CACHE", {})
    monkeypatch.setattr(tables, "_FLOAT_CACHE", {})
    hold.solve(target=9, faces=3, progress=rec)
    counted = [e for e in rec.events if e[0] == "start" and e[2]]
    assert len(counted) == 2  # the float guide, then the exact solve, each with a count
    assert sum(1 for e in rec.events if e[0] == "advance") == 2 * 9 * 10 // 2


def test_audit_hold_names_each_long_step(monkeypatch):
    from exactplay.games import hold
    from exactplay.games.hold import tables

    rec = Recorder()
    monkeypatch.setattr(tables, "_SEED_CACHE", {})
    hold.run_audit(target=8, faces=3, progress=rec)
    text = " | ".join(rec.labels())
    for step in ("bisection", "published program's hold/continue", "decisions"):
        assert step in text, text


def test_audit_chefs_names_each_long_step():
    from exactplay.games import chefs

    rec = Recorder()
    chefs.run_audit(n=4, progress=rec)
    text = " | ".join(rec.labels())
    for step in ("float", "decisions", "comparing"):
        assert step in text, text


def test_a_heavy_command_says_so_first_unless_quiet(capsys, monkeypatch):
    real = game_commands.get_game
    monkeypatch.setattr(game_commands, "get_game", lambda name: dataclasses.replace(
        real(name), heavy=lambda command, params: f"{command} takes minutes here"))
    status, out, err = run(capsys, "solve", "race", "--target", "2")
    assert status == EXIT_OK and err.startswith("exactplay: note: solve takes minutes here")
    status, out, err = run(capsys, "solve", "race", "--target", "2", "--quiet")
    assert status == EXIT_OK and err == ""


@pytest.mark.parametrize("game", game_names())
def test_small_instances_are_not_heavy(game):
    g = get_game(game)
    if g.heavy is None:
        return
    small = {p.name: p.default for p in g.params}
    for key, value in {"target": 5, "n": 4, "ranks": 3, "suits": 2}.items():
        if key in small:
            small[key] = value
    for command in ("solve", "audit", "certify"):
        assert g.heavy(command, small) is None


def test_check_says_first_when_a_large_certificate_is_checked_with_python_ints(capsys, tmp_path):
    """A built-in game's certificate whose rules allow 200,000 states or more (here hold 75/6, a
    forged answer: the note comes first, the check then fails) takes Python's own integers minutes."""
    from exactplay.checker import _ints

    f = tmp_path / "slow.json"
    f.write_text('{"format": "exactplay-certificate", "version": 2, "kind": "game", "game": "hold", '
                 '"params": {"target": 75, "faces": 6}}\n')
    small = tmp_path / "small.json"
    small.write_text(f.read_text().replace("75", "10"))
    try:
        status, out, err = run(capsys, "check", "--stdlib", str(f))
        assert status != EXIT_OK
        assert err.splitlines()[0].startswith(f"exactplay: note: checking {f} with Python's own integers")
        assert "takes minutes (up to 877,954 states)" in err.splitlines()[0]
        status, out, err = run(capsys, "check", "--stdlib", "--quiet", str(f))
        assert "note:" not in err
        status, out, err = run(capsys, "check", "--stdlib", str(small))
        assert "note:" not in err
    finally:
        _ints.use_stdlib(False)
    status, out, err = run(capsys, "check", str(f))  # gmpy2's integers: seconds, no note
    assert "note:" not in err


def test_claims_with_slow_ones_says_so_first(capsys, monkeypatch):
    import exactplay.present.report.ledger as ledger

    monkeypatch.setattr(ledger, "run_ledger", lambda claims, progress: [])
    slow = [c for g in game_names() for c in __import__("exactplay.claims", fromlist=["all_claims"]).all_claims(g)
            if c.slow]
    status, out, err = run(capsys, "claims", "--id", slow[0].id)
    assert err.startswith("exactplay: note: 1 slow claim") and "--fast skips them" in err


def test_of_the_default_commands_only_audit_chefs_and_the_two_largest_certificates_take_minutes():
    """certify hold (75/6: 410,850 states) and certify chefs (n = 14: 229,362 states) solve the game's
    model with the engine, every number kept: minutes, and a note says so."""
    heavy = []
    for name in game_names():
        g = get_game(name)
        defaults = {p.name: p.default for p in g.params}
        for command in ("solve", "audit", "certify"):
            if g.heavy is not None and g.heavy(command, {**defaults, "backend": "mpq"}):
                heavy.append(f"{command} {name}")
    assert heavy == ["certify hold", "audit chefs", "certify chefs"]
    note = get_game("chefs").heavy("audit", {"n": None, "skills": None})
    assert "minutes of CPU" in note and "GB of memory" in note


def test_the_shown_bar_is_reset_by_start():
    p, clock, buf = _bar(width=80)
    p.start("first step", 3)
    clock.t += 5
    p.advance(3)
    p.start("second step", 7)
    clock.t += 1
    p.advance()
    last = buf.getvalue().split("\r")[-1]  # the latest frame of the bar
    assert "second step" in last and "1/7" in last and "0:01" in last and "still working" not in last
    p.close()
