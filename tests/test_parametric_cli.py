"""The CLI with --param-symbol: solve (text and strict JSON), certify + check, report, one-line errors."""

import json
from fractions import Fraction
from pathlib import Path

import pytest

from cli_run import run, strict

ROOT = Path(__file__).resolve().parent.parent
RACE = "exactplay.games.race.model:make_game"
PIG = str(ROOT / "examples" / "pig_loaded.py") + ":make_game"


def test_solve_prints_each_region_value_and_the_exact_breakpoints(capsys):
    status, out, _ = run(capsys, "solve", "--game", RACE, "--param", "target=2", "--param-symbol", "p", "-q")
    assert status == 0
    assert "3 region(s) where the optimal policy is constant, 2 breakpoint(s)" in out
    assert "V(p) = (1 - p^2) / (1 + 2*p - p^2 - 2*p^3 + p^4)" in out
    assert "p = 0.292893218813..., the root of 1 - 4*p + 2*p^2" in out
    assert "Player 2 to choose T, needs 1 / 2: 1 -> 2" in out


def test_solve_json_has_polynomials_as_pq_coefficient_lists(capsys):
    status, out, _ = run(capsys, "solve", "--game", PIG, "--param", "goal=3", "--param-symbol", "p", "--json")
    data = strict(out)
    assert status == 0 and data["symbol"] == "p" and data["range"] == ["0/1", "1/1"]
    assert len(data["regions"]) == len(data["breakpoints"]) + 1
    first = data["regions"][0]
    assert first["lo"] == {"rational": "0/1"} and first["hi"] == {"breakpoint": 0}
    # V(p) = 5 / (5 + 6p - p^2) on the first region (by hand: roll until the goal, the 1 passes the turn)
    num = [Fraction(x) for x in first["value"]["num"]]
    den = [Fraction(x) for x in first["value"]["den"]]
    assert all(isinstance(x, str) and "/" in x for x in first["value"]["num"] + first["value"]["den"])
    assert [x / num[0] for x in den] == [1, Fraction(6, 5), Fraction(-1, 5)]
    bp = data["breakpoints"][0]
    assert bp["poly"] == ["25/1", "0/1", "-36/1", "6/1"] and bp["decimal"].startswith("0.904254")


def test_certify_then_check_verifies_and_a_tampered_copy_fails_naming_the_field(capsys, tmp_path):
    cert = tmp_path / "pig.json"
    status, out, _ = run(capsys, "certify", "--game", PIG, "--param", "goal=3", "--param-symbol", "p",
                         "-o", str(cert), "-q")
    assert status == 0 and "wrote" in out
    status, out, _ = run(capsys, "check", str(cert), "-q")
    assert status == 0
    data = json.loads(cert.read_text())
    data["regions"][0]["policy"][[i for i, a in enumerate(data["model"]["actions"]) if len(a) > 1][0]] = 1
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(data))
    status, _, err = run(capsys, "check", str(bad))
    assert status == 1 and "field 'regions[0]." in err and "FAIL" in err


def test_report_writes_the_value_and_margin_figures(capsys, tmp_path):
    status, _, _ = run(capsys, "report", "--game", RACE, "--param", "target=2", "--param-symbol", "p",
                         "-o", str(tmp_path), "-q")
    assert status == 0
    pngs = sorted(p.name for p in tmp_path.glob("*.png"))
    assert pngs == ["the-race-to-2-coins-heads-with-probability-p-parametric-margins.png",
                    "the-race-to-2-coins-heads-with-probability-p-parametric-value.png"]
    assert all((tmp_path / n).stat().st_size > 5000 for n in pngs)


@pytest.mark.parametrize("argv,words", [
    (["--range", "1,0"], "first end must be below"),
    (["--range", "1/2,3/2"], "is not in (0, 1) on the whole range"),
    (["--param", "p=1/2"], "the symbol takes the place of the value"),
    (["--range", "0.25"], "write A,B"),
])
def test_bad_usage_is_one_line_and_exit_2(capsys, argv, words):
    status, out, err = run(capsys, "solve", "--game", RACE, "--param", "target=2", "--param-symbol", "p", *argv)
    assert status == 2 and words in err and len(err.strip().splitlines()) == 1 and out == ""


def test_a_float_probability_in_the_users_code_is_refused(capsys, tmp_path):
    game = tmp_path / "g.py"
    game.write_text("class G:\n    def initial_state(self): return 0\n    def is_terminal(self, s): return s > 0\n"
                    "    def payoff(self, s): return (1,)\n    def mover(self, s): return None\n"
                    "    def transitions(self, s, a): return [(0.5 * self.p, 1), (1 - 0.5 * self.p, 2)]\n"
                    "def make(p):\n    g = G(); g.p = p; return g\n")
    status, _, err = run(capsys, "solve", "--game", f"{game}:make", "--param-symbol", "p")
    assert status == 2 and "float" in err and len(err.strip().splitlines()) == 1


def test_audit_does_not_take_a_symbol(capsys):
    status, _, err = run(capsys, "audit", "--game", RACE, "--param-symbol", "p")
    assert status == 2 and "solve, certify and report" in err


@pytest.mark.parametrize("game,options,factory_params", [
    ("race", ["--target", "2", "--coin", "1"], ["target=2", "coin=1"]),
    ("chefs", ["--n=3"], ["n=3"]),
])
def test_a_built_in_game_by_name_is_its_model_with_the_symbol(capsys, game, options, factory_params):
    """``solve race --target 2 --param-symbol p`` is ``solve --game <race's model> --param target=2 ...``."""
    status, by_name, _ = run(capsys, "solve", game, *options, "--param-symbol", "p", "--json")
    assert status == 0
    params = [w for kv in factory_params for w in ("--param", kv)]
    status, by_model, _ = run(capsys, "solve", "--game", f"exactplay.games.{game}.model:make_game", *params,
                              "--param-symbol", "p", "--json")
    a, b = strict(by_name), strict(by_model)
    a.pop("stats"), b.pop("stats")  # counts and times of the run
    assert status == 0 and a == b and a["regions"]


def test_a_model_too_large_for_parametric_solving_is_refused_before_solving(capsys):
    """Without --max-states the parametric build stops at 2,000 states (race target 100 has 10,003)."""
    status, out, err = run(capsys, "solve", "race", "--param-symbol", "p")
    assert status == 2 and out == ""
    assert "more than 2,000 reachable states" in err and "--max-states" in err and len(err.splitlines()) == 1
