"""The Python API (``import exactplay as xp``): solve, audit, certify, check, from every kind of game."""

import importlib.util
import json
import math
import subprocess
import sys
from fractions import Fraction
from pathlib import Path

import pytest

import exactplay as xp
from exactplay.api.sources import BUILTIN_ANSWERS
from exactplay.errors import UsageError
from exactplay.model import ModelError

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = ROOT / "examples"
PRISM = ROOT / "tests" / "fixtures" / "prism"


def _module(path: Path):
    spec = importlib.util.spec_from_file_location(f"api_test_{path.stem}", path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


pig = _module(EXAMPLES / "pig.py")


def _run(code: str) -> str:
    env_path = str(ROOT / "src")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT,
                         env={"PYTHONPATH": env_path, "PATH": "/usr/bin:/bin"}, check=True)
    return out.stdout.strip()


# ------------------------------------------------------------ the package

def test_import_exactplay_imports_nothing_else():
    loaded = json.loads(_run("import sys, json, exactplay; print(json.dumps(sorted(m for m in sys.modules "
                             "if m.startswith(('exactplay', 'gmpy2', 'numpy', 'flint', 'sympy')))))"))
    assert loaded == ["exactplay"]


def test_import_exactplay_leaves_the_int_digit_guard_alone_and_exact_values_keep_their_digits():
    """Python's guard on int <-> str conversion stays as it is for the process; the writers of
    "p/q", decimals and JSON and the command line lift it only while they convert."""
    out = _run("import sys, exactplay as xp\n"
               "from fractions import Fraction\n"
               "from exactplay.numbers.backends import format_pq\n"
               "from exactplay.strict_json import dumps\n"
               "from exactplay.cli.main import main\n"
               "before = sys.get_int_max_str_digits()\n"
               "x = Fraction(3**20000, 7**9000)\n"
               "ok = len(format_pq(x)) > 9000 and len(dumps([x.numerator])) > 9000\n"
               "xp.solve('race', target=3); main(['list'])\n"
               "print(before, ok, sys.get_int_max_str_digits())")
    assert out.splitlines()[-1] == "4300 True 4300"


def test_the_api_functions_keep_their_names_when_a_submodule_of_that_name_is_imported():
    out = _run("import exactplay as xp, exactplay.audit.judge, exactplay.certify.game, importlib\n"
               "from exactplay.audit.judge import audit_values\n"
               "print(callable(xp.audit) and xp.audit.__module__, importlib.import_module('exactplay.audit').__name__,\n"
               "      callable(xp.certify) and xp.certify.__module__)")
    assert out == "exactplay.api.auditing exactplay.audit exactplay.api.solving"


def test_all_names_are_reachable():
    assert set(xp.__all__) <= set(dir(xp))
    for name in xp.__all__:
        assert getattr(xp, name) is not None
    with pytest.raises(AttributeError):
        xp.no_such_name  # noqa: B018


# ------------------------------------------------------------ solve, every kind of game

def test_a_game_object_is_keyed_by_its_own_states():
    sol = xp.solve(pig.make_game(goal=20))
    assert sol.value == Fraction(15116544, 24557443) and type(sol.value) is Fraction
    assert sol.initial == (0, 0, 0, 0) and sol.policy[(0, 0, 0, 0)] == "roll"
    assert sol.values()[(0, 0, 0, 0)] == sol.value and len(sol.values()) == len(sol) == 6576
    assert sol.values(1)[(0, 0, 0, 0)] == 1 - sol.value
    assert sol.values("second player")[(0, 0, 0, 0)] == 1 - sol.value
    assert sol.decimal(8) == "0.61555855" and sol.decimal(0) == "1"
    margin, where = sol.smallest_margin
    assert where == (0, 0, 0, 2) and sol.margin(where) == margin > 0
    assert sol.margin(("won", 0)) is None and len(sol.ties) == 0
    with pytest.raises(KeyError, match="not a state of this game"):
        sol.values()[(9, 9, 9, 9)]


def test_a_factory_by_file_and_by_module():
    by_file = xp.solve(str(EXAMPLES / "pig.py") + ":make_game", goal=10)
    assert by_file.value == xp.solve(pig.make_game(goal=10)).value
    by_module = xp.solve("exactplay.games.race.model:make_game", target=2)
    assert by_module.value == Fraction(64, 135) and by_module.player == "Player 1"  # the first component


@pytest.mark.parametrize("name, params, value, answer", [
    ("race", {"target": 2}, Fraction(71, 135), "G(2,2)"),
    ("race", {"target": "3"}, None, "G(3,3)"),
    ("hold", {"target": 5, "faces": 3}, None, "V(0,0)"),
    ("chefs", {"n": 3}, Fraction(834, 161), "E(3)"),
    ("coins", {"coins": [10, 20, 8, 7]}, Fraction(27), "V(0,3)"),
    ("war", {"ranks": 2, "suits": 2}, Fraction(1, 6), "P(A wins every turn)"),
])
def test_a_builtin_game_answers_what_its_certificate_names(name, params, value, answer):
    sol = xp.solve(name, **params)
    assert sol.answer == answer
    if value is not None:
        assert sol.value == value
    cert = sol.certificate()
    assert cert["kind"] == "game" and cert["answer"]["name"] == answer
    assert cert["answer"]["component"] == sol.component  # BUILTIN_ANSWERS agrees with the game's certify
    assert Fraction(cert["answer"]["value"]) == sol.value
    assert set(BUILTIN_ANSWERS) == {"race", "hold", "chefs", "coins", "war"}


def test_an_explicit_model_file_is_keyed_by_its_state_names():
    sol = xp.solve(str(EXAMPLES / "loop-or-gamble.json"))
    assert sol.value == 1 and sol.policy["start"] == "gamble" and sol.ties["start"] == ("wait", "gamble")
    assert sol.margin("start") == 0 and sol.witness == "reachability"


def test_a_drn_model_is_keyed_by_its_state_numbers():
    sol = xp.solve(str(EXAMPLES / "stay-or-go.drn"), objective="Rmin", target="target")
    assert sol.value == 1 and sol.initial == 0
    assert sol.values()[2] == math.inf and sol.decimal() == "1.00000000"
    assert sol.policy[0] == "go" and sol.ties[0] == ("stay", "go")
    assert xp.solve(str(EXAMPLES / "stay-or-go.drn"), objective="Rmax", target="target").value == math.inf


def test_a_prism_model_is_keyed_by_its_valuations():
    sol = xp.solve(str(PRISM / "gamble.pm"), prop="win")
    assert sol.value == Fraction(59, 243) and sol.answer == 'Pmax=? [ F "win" ]'
    start = "bust=false & stopped=false & t=0"
    assert sol.initial == start and sol.policy[start] == "roll"
    ruin = str(PRISM / "ruin_open.pm")
    assert xp.solve(ruin, prop="rich", const={"N": 4, "p": Fraction(2, 5)}).value == Fraction(4, 13)
    assert xp.solve(ruin, prop="1", const="N=4,p=0.4").value == Fraction(4, 13)
    assert xp.solve(ruin, prop="rich", const={"N": 4, "p": "1/2"}).initial == "x=2"
    with pytest.raises(UsageError, match="is a float"):
        xp.solve(ruin, prop="rich", const={"N": 4, "p": 0.4})


@pytest.mark.parametrize("call, message", [
    (lambda: xp.solve("no-such-game"), "neither a built-in game"),
    (lambda: xp.solve("race", goal=3), "goal is not a parameter of race"),
    (lambda: xp.solve("race", target=2.0), "is a float"),
    (lambda: xp.solve(str(EXAMPLES / "pig.py") + ":make_game", goal=2.5), "is a float"),
    (lambda: xp.solve(str(EXAMPLES / "loop-or-gamble.json"), prop="x"), "prop is not an option of a JSON model"),
    (lambda: xp.solve(str(EXAMPLES / "stay-or-go.drn")), "needs --objective"),
    (lambda: xp.solve(str(EXAMPLES / "stay-or-go.drn"), objective="Rmin", target="target", prop="1"),
     "prop is not an option of a DRN model"),
    (lambda: xp.solve(pig.make_game(goal=5), goal=5), "go to a factory"),
    (lambda: xp.solve("race", target=2, player=5), "the values solved are those of"),
    (lambda: xp.solve("race", target=2, backend="float"), "exact backends"),
    (lambda: xp.solve("nothing.json"), "no such model file"),
    (lambda: xp.solve(str(EXAMPLES / "pig.py") + ":make_game", goal=30, max_states=100), "more than 100"),
])
def test_bad_input_is_one_clear_error(call, message):
    with pytest.raises((UsageError, ModelError), match=message):
        call()


def test_a_float_probability_is_refused():
    class Coin:
        def initial_state(self):
            return "s"

        def is_terminal(self, s):
            return s != "s"

        def payoff(self, s):
            return (1,) if s == "h" else (0,)

        def mover(self, s):
            return None

        def transitions(self, s, a):
            return [(0.5, "h"), (0.5, "t")]

    with pytest.raises(ModelError, match="is a float"):
        xp.solve(Coin())


# ------------------------------------------------------------ certify and check

def test_certify_and_check_every_kind(tmp_path):
    written = [
        xp.certify("race", tmp_path / "race.json", target=3),
        xp.certify(str(EXAMPLES / "pig.py") + ":make_game", tmp_path / "pig.json", goal=6),
        xp.certify(str(EXAMPLES / "loop-or-gamble.json"), tmp_path / "loop.json"),
        xp.certify(str(EXAMPLES / "stay-or-go.drn"), tmp_path / "stay.json", objective="Rmin", target="target"),
        xp.certify(str(PRISM / "gamble.pm"), tmp_path / "gamble.json", prop="win"),
    ]
    for path in written:
        r = xp.check(path)
        assert r.ok and r.message.startswith(f"ok   {path}"), r.message
    certs = [json.loads(p.read_text()) for p in written]
    assert [c["kind"] for c in certs] == ["game", "model", "model", "model", "model"]
    assert certs[1]["params"] == {"goal": 6} and certs[2]["params"] == {} and "source" in certs[4]
    results = xp.check(tmp_path)
    assert results.ok and len(results) == 5


@pytest.mark.parametrize("game, params", [("race", {"target": 3}), ("hold", {"target": 5, "faces": 3}),
                                          ("chefs", {"n": 4}), ("coins", {"coins": [3, 9, 1, 2]}),
                                          ("war", {"ranks": 3, "suits": 2})])
def test_a_builtin_solution_certifies_the_model_its_certificate_is_of(tmp_path, game, params):
    """Solution.certify of every built-in game verifies (before: war was solved on its full-deck model,
    the certificate's rules are of the sorted counts, and the check failed on the digest)."""
    path = tmp_path / f"{game}.json"
    xp.solve(game, **params).certify(path)
    r = xp.check(path)
    assert r.ok, r.message


def test_certify_a_builtin_reuses_the_solution(monkeypatch, tmp_path):
    sol = xp.solve("race", target=4)

    def no_second_solve(*args, **kwargs):
        raise AssertionError("solved again")

    from exactplay.certify import game as game_certificate  # (exactplay.certify is also the API function)

    monkeypatch.setattr(game_certificate, "solve_model", no_second_solve)
    assert xp.check(sol.certify(tmp_path / "r.json", store="policy")).ok
    assert "values" not in json.loads((tmp_path / "r.json").read_text())["solution"]


@pytest.mark.parametrize("store", ["values", "policy"])
@pytest.mark.parametrize("source, params, argv", [
    (str(EXAMPLES / "pig.py") + ":make_game", {"goal": 5}, ["--game", str(EXAMPLES / "pig.py") + ":make_game",
                                                             "--param", "goal=5"]),
    (str(EXAMPLES / "loop-or-gamble.json"), {}, ["--model", str(EXAMPLES / "loop-or-gamble.json")]),
])
def test_the_api_writes_the_certificate_the_command_line_writes_byte_for_byte(tmp_path, capsys, source, params, argv,
                                                                              store):
    """One writer of model certificates: ``Solution.certify`` gives the bytes of ``exactplay certify`` (before:
    an indented second layout, and ``store='policy'`` refused where the command line takes ``--store policy``)."""
    from cli_run import run

    status, _, err = run(capsys, "certify", *argv, "--store", store, "-o", tmp_path / "cli.json")
    assert status == 0, err
    api = xp.solve(source, **params).certify(tmp_path / "api.json", store=store)
    assert api.read_bytes() == (tmp_path / "cli.json").read_bytes()
    assert ("values" in json.loads(api.read_text())["solution"]) == (store == "values")
    assert xp.check(api).ok


def test_certify_refuses_what_it_cannot_write(tmp_path):
    with pytest.raises(UsageError, match="store must be one of"):
        xp.solve(str(EXAMPLES / "loop-or-gamble.json")).certify(tmp_path / "x.json", store="everything")
    assert not (tmp_path / "x.json").exists()
    with pytest.raises(UsageError, match="give a file name"):
        xp.certify("race", tmp_path, target=2)
    with pytest.raises(UsageError, match="cannot change it"):
        xp.certify(xp.solve("race", target=2), tmp_path / "y.json", target=3)


def test_check_a_failing_certificate_is_a_result_not_an_exception(tmp_path):
    path = xp.certify("race", tmp_path / "race.json", target=2)
    cert = json.loads(path.read_text())
    cert["solution"]["policy"][3] = 1 - cert["solution"]["policy"][3] if cert["solution"]["policy"][3] in (0, 1) \
        else cert["solution"]["policy"][3]
    cert["solution"]["values"][3] = ["1/2", "1/2"]
    bad = tmp_path / "tampered.json"
    bad.write_text(json.dumps(cert))
    r = xp.check(bad)
    assert not r.ok and not r and r.field == "solution.values" and r.state == 3
    assert r.message.startswith(f"FAIL {bad}") and "(field 'solution.values', state 3)" in r.message
    (tmp_path / "garbage.json").write_text("not json")
    assert not xp.check(tmp_path / "garbage.json").ok
    assert not xp.check(path, expect={"target": 3}).ok and xp.check(path, expect={"target": 2}).ok
    results = xp.check(tmp_path)
    assert not results.ok and len(results.failed) == 2 and len(results) == 3


def test_check_an_unreadable_path_raises(tmp_path):
    with pytest.raises(FileNotFoundError):
        xp.check(tmp_path / "missing.json")
    with pytest.raises(UsageError, match="no certificates"):
        xp.check(tmp_path)


# ------------------------------------------------------------ audit

def test_audit_floats_that_are_the_exact_values_rounded():
    sol = xp.solve(pig.make_game(goal=10))
    exact_floats = {s: float(v) for s, v in sol.values().items()}
    a = xp.audit(sol, exact_floats)
    assert a.counts == {"certified": len(sol.engine.margins), "wrong": 0, "ties": 0, "unresolved": 0}
    assert a.max_abs_error <= 2**-53 and a.digits_agree and a.bound is None
    assert a.exact_value == sol.value and a.float_value == float(sol.value) and a.exact_decimal == sol.decimal()
    by_callable = xp.audit(sol, lambda s: exact_floats[s])
    assert by_callable.counts == a.counts and by_callable.max_abs_error == a.max_abs_error


def test_audit_a_wrong_float_table_names_the_wrong_states():
    sol = xp.solve(pig.make_game(goal=10))
    floats = {s: -float(v) for s, v in sol.values().items()}  # a sign error: every choice turned round
    measured = xp.audit(sol, floats)
    assert measured.counts["wrong"] == 0 and measured.counts["unresolved"] > 0  # judged by its own error
    claimed = xp.audit(sol, floats, bound=1e-12)
    assert claimed.counts["wrong"] > 0 and claimed.bound == 1e-12
    s = claimed.wrong[0]
    assert claimed.float_choice(s) not in claimed.exact_best(s) and claimed.gap(s) > 0
    assert claimed.max_abs_error == 2.0 and claimed.max_abs_error_at in sol.values()
    assert sol.values()[claimed.max_abs_error_at] == 1


def test_audit_by_value_iteration_and_by_table_file(tmp_path):
    sol = xp.solve(str(EXAMPLES / "loop-or-gamble.json"))
    a = xp.audit(sol)
    assert a.counts["ties"] == 1 and "value iteration" in a.what
    table = tmp_path / "t.txt"
    table.write_text("name value\nstart 1.0\nagain 1.0\nwon 1.0\nlost 0.0\n")
    b = xp.audit(sol, table)
    assert b.max_abs_error == 0 and b.counts == a.counts and "Audit of loop or gamble" in b.text()


def test_audit_in_the_answer_component_of_a_constant_sum_game():
    sol = xp.solve("race", target=4)  # G = Player 2's chance; Player 2's choices minimise Player 1's
    a = xp.audit(sol, {s: float(v) for s, v in sol.values().items()})
    assert a.counts["certified"] == len(sol.engine.margins) > 0 and a.exact_value == sol.value


@pytest.mark.parametrize("floats, message", [
    ({}, "no value for state"),
    ({"nowhere": 1.0}, "not a state of this game"),
    ({"start": "1.0"}, "not a number"),
    (3, "give a mapping"),
])
def test_audit_refuses_bad_floats(floats, message):
    with pytest.raises(UsageError, match=message):
        xp.audit(str(EXAMPLES / "loop-or-gamble.json"), floats)


def test_audit_refuses_a_bad_bound_and_params_on_a_solution():
    sol = xp.solve(str(EXAMPLES / "loop-or-gamble.json"))
    with pytest.raises(UsageError, match="bound"):
        xp.audit(sol, None, bound=-1)
    with pytest.raises(UsageError, match="audited as it is"):
        xp.audit(sol, None, goal=3)
