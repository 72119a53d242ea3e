"""The CLI on a user's own game: --game MOD:FACTORY / --model FILE through solve, audit, certify."""

import json
from fractions import Fraction
from pathlib import Path

import pytest

from cli_run import run, strict

ROOT = Path(__file__).resolve().parent.parent
PIG = str(ROOT / "examples" / "pig.py") + ":make_game"
LOOP = str(ROOT / "examples" / "loop-or-gamble.json")


def test_pig_solve_prints_the_exact_value_of_the_first_player(capsys):
    status, out, _ = run(capsys, "solve", "--game", PIG, "--param", "goal=5", "--json")
    assert status == 0
    data = strict(out)
    assert data["answer"]["value"] == "216/271"
    assert data["objective"] == "zero-sum" and data["witness"] == "termination"
    assert len(data["state_values"]) == data["states"] == 66


def test_pig_goal_2_value_is_six_sevenths_by_hand(capsys):
    # goal 2: any face 2..6 wins at once, a 1 passes the turn: V = 5/6 + 1/6 (1 - V)  =>  V = 6/7
    status, out, _ = run(capsys, "solve", "--game", PIG, "--param", "goal=2", "--json")
    assert status == 0 and strict(out)["answer"]["value"] == "6/7"


def test_explicit_model_ties_are_listed_and_the_progressing_action_is_chosen(capsys):
    status, out, _ = run(capsys, "solve", "--model", LOOP, "--json")
    assert status == 0
    data = strict(out)
    assert data["answer"]["value"] == "1/1" and data["witness"] == "reachability"
    start = data["state_values"][0]
    assert start["tied_actions"] == ["wait", "gamble"] and start["action"] == "gamble"


def test_certify_then_check_verifies(capsys, tmp_path):
    out_file = tmp_path / "pig.json"
    status, out, _ = run(capsys, "certify", "--game", PIG, "--param", "goal=6", "-o", str(out_file))
    assert status == 0 and out_file.exists()
    cert = strict(out_file.read_text())
    assert cert["version"] == 2 and cert["answer"]["value"] == cert["solution"]["values"][0][0]


def test_certify_to_stdout(capsys):
    status, out, _ = run(capsys, "certify", "--model", LOOP, "-o", "-")
    assert status == 0 and strict(out)["kind"] == "model"


def test_audit_of_float_value_iteration_is_strict_json_and_certifies_every_decision(capsys):
    status, out, _ = run(capsys, "audit", "--game", PIG, "--param", "goal=10", "--json")
    assert status == 0
    data = strict(out)
    assert data["values"]["max_abs_error"] < 1e-13
    assert data["decisions"]["counts"]["wrong"] == 0


def test_audit_of_a_users_float_table(capsys, tmp_path):
    table = tmp_path / "t.txt"
    # the exact values, rounded, plus one state off by 0.25
    status, out, _ = run(capsys, "solve", "--model", LOOP, "--json")
    rows = strict(out)["state_values"]
    lines = ["state,value"] + [f"{r['state']},{float(Fraction(r['value'][0]))}" for r in rows]
    lines[2] = "1,0.75"
    table.write_text("\n".join(lines) + "\n")
    status, out, _ = run(capsys, "audit", "--model", LOOP, "--float-table", str(table), "--json")
    assert status == 0
    data = strict(out)
    assert data["values"]["max_abs_error"] == pytest.approx(0.25)
    assert data["values"]["max_abs_error_at"] == [1]


@pytest.mark.parametrize("argv, message", [
    (["solve", "--game", "no_such_module_xyz:f"], "cannot import"),
    (["solve", "--game", PIG, "--param", "goal"], "NAME=VALUE"),
    (["solve", "--game", PIG, "--param", "nope=1"], "does not take"),
    (["solve", "--model", "/no/such/file.json"], "cannot read"),
    (["solve", "--game", PIG, "--param", "goal=50", "--max-states", "10"], "more than 10"),
])
def test_bad_input_is_one_line_and_exit_2(capsys, argv, message):
    status, out, err = run(capsys, *argv)
    assert status == 2 and message in err and err.count("\n") == 1 and "Traceback" not in err


def test_a_float_probability_in_a_python_game_is_refused(capsys, tmp_path):
    game = tmp_path / "floaty.py"
    game.write_text(
        "class G:\n"
        "    def initial_state(self): return 0\n"
        "    def is_terminal(self, s): return s == 1\n"
        "    def payoff(self, s): return [1]\n"
        "    def mover(self, s): return None\n"
        "    def transitions(self, s, a): return [(0.5, 1), (0.5, 1)]\n"
        "def make(): return G()\n")
    status, _, err = run(capsys, "solve", "--game", f"{game}:make")
    assert status == 2 and "float" in err


def test_a_float_in_a_model_file_is_refused(capsys, tmp_path):
    f = tmp_path / "m.json"
    f.write_text(json.dumps({"format": "exactplay-model", "version": 1, "players": 1, "states": [
        {"id": 0, "mover": None, "next": [[0.5, 1], ["1/2", 1]]}, {"id": 1, "payoff": ["1/1"]}]}))
    status, _, err = run(capsys, "solve", "--model", str(f))
    assert status == 2 and "float" in err


def test_probabilities_that_do_not_sum_to_one_are_refused(capsys, tmp_path):
    f = tmp_path / "m.json"
    f.write_text(json.dumps({"format": "exactplay-model", "version": 1, "players": 1, "states": [
        {"id": 0, "mover": None, "next": [["1/3", 1], ["1/3", 1]]}, {"id": 1, "payoff": ["1/1"]}]}))
    status, _, err = run(capsys, "solve", "--model", str(f))
    assert status == 2 and "not exactly 1" in err


def test_report_writes_html_with_both_figures(capsys, tmp_path):
    status, out, _ = run(capsys, "report", "--game", PIG, "--param", "goal=4", "-o", str(tmp_path / "r"), "--json")
    assert status == 0
    files = strict(out)
    assert files["html"].endswith("pig-to-4-report.html") and len(files["png"]) == 2
    page = (tmp_path / "r" / "pig-to-4-report.html").read_text()
    assert "data:image/png;base64" in page and "Float value iteration" in page


def test_report_into_a_file_is_refused_before_computing(capsys, tmp_path):
    f = tmp_path / "afile"
    f.write_text("x")
    status, _, err = run(capsys, "report", "--game", PIG, "--param", "goal=4", "-o", str(f))
    assert status == 2 and "not a directory" in err


def _model(tmp_path, states, players=1, objective="auto", name="m.json"):
    f = tmp_path / name
    f.write_text(json.dumps({"format": "exactplay-model", "version": 1, "players": players,
                             "objective": objective, "states": states}))
    return str(f)


THREE_ON_A_CYCLE = [  # three actions at a choice state inside a cycle: the balls rule one out
    {"id": "a", "mover": 0, "actions": [
        {"name": "x", "next": [["1/2", "b"], ["1/2", "w"]]},
        {"name": "y", "next": [["1/2", "b"], ["1/2", "l"]]},
        {"name": "z", "next": [["1/3", "b"], ["2/3", "w"]]}]},
    {"id": "b", "mover": 0, "actions": [
        {"name": "back", "next": [["1/2", "a"], ["1/2", "l"]]},
        {"name": "stop", "next": [["1/1", "l"]]}]},
    {"id": "w", "payoff": ["1/1"]}, {"id": "l", "payoff": ["0/1"]}]


def test_audit_and_report_of_actions_ruled_out_by_the_balls_do_not_crash(capsys, tmp_path):
    m = _model(tmp_path, THREE_ON_A_CYCLE)
    status, out, err = run(capsys, "audit", "--model", m, "--json")
    assert status == 0, err
    assert strict(out)["decisions"]["counts"]["wrong"] == 0
    status, out, err = run(capsys, "report", "--model", m, "-o", str(tmp_path / "r"))
    assert status == 0, err


def test_values_beyond_the_double_range_are_printed_exactly(capsys, tmp_path):
    big = "1" + "0" * 400
    m = _model(tmp_path, [{"id": "s", "mover": 0, "actions": [{"name": "a", "next": [["1/1", "t"]]},
                                                              {"name": "b", "next": [["1/1", "u"]]}]},
                          {"id": "t", "payoff": [big]}, {"id": "u", "payoff": ["1/1"]}])
    status, out, err = run(capsys, "solve", "--model", m, "--all")
    assert status == 0, err
    assert ("1" + "0" * 400 + ".00000000") in out
    status, _, err = run(capsys, "audit", "--model", m)
    assert status == 2 and "double range" in err and err.count("\n") == 1


def test_an_exception_in_the_games_own_code_is_one_line(capsys, tmp_path):
    game = tmp_path / "broken.py"
    game.write_text(
        "class G:\n"
        "    def initial_state(self): return 0\n"
        "    def is_terminal(self, s): return {}[s]\n"
        "    def payoff(self, s): return [1]\n"
        "    def mover(self, s): return None\n"
        "    def transitions(self, s, a): return [(1, 1)]\n"
        "def make(): return G()\n"
        "def boom(): raise KeyError('nope')\n")
    for spec in (f"{game}:make", f"{game}:boom"):
        status, _, err = run(capsys, "solve", "--game", spec)
        assert status == 2 and "KeyError" in err and err.count("\n") == 1 and "Traceback" not in err


def test_an_unhashable_id_in_a_model_file_is_one_line(capsys, tmp_path):
    m = _model(tmp_path, [{"id": "s", "mover": None, "next": [["1/1", ["t"]]]}, {"id": "t", "payoff": ["1/1"]}])
    status, _, err = run(capsys, "solve", "--model", m)
    assert status == 2 and "unknown successor" in err and err.count("\n") == 1


def test_a_table_is_audited_in_the_component_the_solution_certifies(capsys, tmp_path):
    # only player 1 chooses (on a cycle): the certified component is player 1's payoff
    m = _model(tmp_path, [{"id": "s", "mover": 1, "actions": [
        {"name": "go", "next": [["1/2", "w1"], ["1/2", "s"]]}, {"name": "quit", "next": [["1/1", "w0"]]}]},
        {"id": "w0", "payoff": ["1/1", "0/1"]}, {"id": "w1", "payoff": ["0/1", "1/1"]}], players=2,
        objective="max")
    status, out, _ = run(capsys, "solve", "--model", m, "--json")
    rows = strict(out)["state_values"]
    table = tmp_path / "t.txt"
    table.write_text("\n".join(f"{r['state']} {float(Fraction(r['value'][0]))}" for r in rows) + "\n")
    status, out, err = run(capsys, "audit", "--model", m, "--float-table", str(table), "--json")
    assert status == 0, err
    assert strict(out)["values"]["max_abs_error"] == 0
