"""DRN models with several initial states (Storm's export of QVBS herman marks all 512 states ``init``):
every initial state's value, the smallest and the largest, in solve, certify/check and crosscheck."""

from __future__ import annotations

import copy
import json
from fractions import Fraction

import pytest
import stormpy

from exactplay.checker import model as checker
from exactplay.engine import solve_model
from exactplay.errors import VerificationError
from exactplay.interop.drn import drn_to_model, parse_drn, write_drn
from exactplay.interop.prism import write_prism
from exactplay.interop.storm import storm_check_drn
from exactplay.interop import formulate
from exactplay.model import ModelError, model_from_json, model_to_json
from exactplay.certify.model import model_certificate, model_digest
from cli_run import run, strict

# a DTMC: state 0 reaches the goal with probability 1/2, state 2 with 1/4; both initial
LOOP_JSON = str(__import__("pathlib").Path(__file__).parents[1] / "examples" / "loop-or-gamble.json")

TWO = """@type: DTMC
@value_type: rational
@parameters

@reward_models

@nr_states
4
@nr_choices
4
@model
state 0 init
\taction 0
\t\t1 : 1/2
\t\t3 : 1/2
state 1 goal
\taction 0
\t\t1 : 1
state 2 init
\taction 0
\t\t1 : 1/4
\t\t3 : 3/4
state 3
\taction 0
\t\t3 : 1
"""

# an MDP, three initial states (1, 2, 4) worth 1 (choose b), 1/4 and 0; state 0 is not initial
THREE = """@type: MDP
@value_type: rational
@parameters

@reward_models

@nr_states
5
@nr_choices
6
@model
state 0
\taction a
\t\t3 : 1
state 1 init
\taction a
\t\t3 : 1/2
\t\t4 : 1/2
\taction b
\t\t0 : 1
state 2 init
\taction a
\t\t3 : 1/4
\t\t4 : 3/4
state 3 goal
\taction a
\t\t3 : 1
state 4 init
\taction a
\t\t4 : 1
"""


@pytest.fixture
def files(tmp_path):
    out = {}
    for name, text in (("two", TWO), ("three", THREE)):
        out[name] = tmp_path / f"{name}.drn"
        out[name].write_text(text)
    return out


def _solve_json(capsys, path, *extra):
    status, out, err = run(capsys, "solve", "--model", path, "--objective", "Pmax", "--target", "goal", "--json",
                           *extra)
    assert status == 0, err
    return strict(out)


def test_every_initial_state_is_read_in_the_files_order():
    drn = parse_drn(THREE, "three.drn")
    assert drn.initial == 1 and drn.initial_states == [1, 2, 4]
    model, order = drn_to_model(drn, "Pmax", "goal")
    assert model.initial == 0 and [order[s] for s in model.initial_states] == [1, 2, 4]


def test_solve_reports_each_initial_state_and_the_smallest_and_largest(capsys, files):
    data = _solve_json(capsys, files["two"])
    starts = data["initial_states"]
    assert starts["count"] == 2 and data["answer"]["value"] == "1/2"  # the answer: the first initial state
    assert [(v["name"], v["value"]) for v in starts["values"]] == [("0", "1/2"), ("2", "1/4")]
    assert (starts["smallest"]["name"], starts["smallest"]["value"]) == ("2", "1/4")
    assert (starts["largest"]["name"], starts["largest"]["value"]) == ("0", "1/2")
    data = _solve_json(capsys, files["three"])
    starts = data["initial_states"]
    assert [(v["name"], v["value"]) for v in starts["values"]] == [("1", "1/1"), ("2", "1/4"), ("4", "0/1")]
    assert starts["smallest"]["name"] == "4" and starts["largest"]["name"] == "1" and starts["largest"]["value"] == "1/1"
    status, out, _ = run(capsys, "solve", "--model", files["three"], "--objective", "Pmax", "--target", "goal")
    assert status == 0
    assert "value of the first of the 3 initial states, 1, to chooser:" in out
    assert ("initial states: 3; values in [0.00000000, 1.00000000] (smallest at state 4, largest at state 1)"
            in out), out
    assert "  state 2: 0.25000000" in out


def test_a_qvbs_result_of_a_drn_model_holds_each_initial_value_exactly(capsys, files, tmp_path):
    out = tmp_path / "r.json"
    status, text, err = run(capsys, "solve", "--model", files["three"], "--objective", "Pmax", "--target", "goal",
                            "--qvbs-result", out)
    assert status == 0, err
    result = strict(out.read_text())
    (entry,) = result["data"]
    assert entry["formula"] == "Pmax=? [F goal]" and entry["states"] == 5
    assert (entry["value"]["num"], entry["value"]["den"]) == (1, 1)  # the first initial state's
    assert [(v["state"], v["value"]["num"], v["value"]["den"]) for v in entry["initial-states"]] == [
        ("1", 1, 1), ("2", 1, 4), ("4", 0, 1)]
    assert result["benchmark"]["file"] == "three.drn" and len(result["benchmark"]["file-sha256"]) == 64
    status, _, err = run(capsys, "solve", "--model", LOOP_JSON, "--qvbs-result", tmp_path / "x.json")
    assert status == 2 and "--qvbs-result" in err and not (tmp_path / "x.json").exists()


def test_a_model_with_one_initial_state_has_no_range(capsys, files, tmp_path):
    one = tmp_path / "one.drn"
    one.write_text(TWO.replace("state 2 init", "state 2"))
    assert "initial_states" not in _solve_json(capsys, one)


def _certificate(path, objective="Pmax"):
    model, _ = drn_to_model(parse_drn(path.read_text(), str(path)), objective, "goal")
    return model_certificate(solve_model(model))


def test_certificate_names_the_initial_states_and_check_verifies_every_value(capsys, files, tmp_path):
    out = tmp_path / "c.json"
    status, text, err = run(capsys, "certify", "--model", files["three"], "--objective", "Pmax", "--target", "goal",
                            "-o", out)
    assert status == 0 and "3 initial states, values in [0.00000000, 1.00000000]" in text, text + err
    cert = json.loads(out.read_text())
    assert cert["model"]["initial_states"] == [0, 2, 4]  # the certificate's numbering: DRN 1, 2, 4
    assert cert["initial_states"]["values"] == ["1/1", "1/4", "0/1"]
    assert cert["initial_states"]["largest"] == {"state": 0, "value": "1/1", "decimal": "1.00000000"}
    status, text, _ = run(capsys, "check", out)
    assert status == 0
    assert "value of 1 to chooser = 1.00000000; 3 initial states, values in [0.00000000, 1.00000000]" in text
    assert "(smallest at state 4, largest at state 1)" in text
    status, text, _ = run(capsys, "check", out, "--json")
    found = strict(text)["certificates"][0]
    assert found["initial_states"]["count"] == 3 and found["initial_states"]["smallest"]["value"] == "0/1"


def _rejected(cert) -> str:
    with pytest.raises(VerificationError) as exc:
        checker.verify(cert)
    return str(exc.value)


def _rehash(cert):
    cert["model_sha256"] = model_digest(cert["model"])
    return cert


def test_the_checker_refuses_wrong_or_missing_initial_state_values(files):
    good = _certificate(files["three"])
    assert "3 initial states, values in [0.00000000, 1.00000000]" in checker.verify(good)
    c = copy.deepcopy(good)
    c["initial_states"]["values"][1] = "1/3"
    assert "value '1/3' is not the verified value 1/4" in _rejected(c)
    c = copy.deepcopy(good)
    c["initial_states"]["smallest"]["state"] = 0
    assert "is not the first initial state with the smallest value" in _rejected(c)
    c = copy.deepcopy(good)
    c["initial_states"]["largest"]["value"] = "1/4"
    assert "is not the largest value" in _rejected(c)
    c = copy.deepcopy(good)
    c["initial_states"]["largest"]["decimal"] = "0.99999999"
    assert "correctly rounded" in _rejected(c)
    c = copy.deepcopy(good)
    del c["initial_states"]
    assert "their values are required" in _rejected(c)
    c = copy.deepcopy(good)
    del c["model"]["initial_states"]  # now one initial state: the range must go
    assert "no 'initial_states' field" in _rejected(_rehash(c))
    c = copy.deepcopy(good)
    c["model"]["initial_states"] = [0, 2]  # a range over fewer states than stored values
    assert "expected 2 entries" in _rejected(_rehash(c))
    for bad, words in (([2, 0, 4], "the initial state 0 first"), ([0, 2, 2], "distinct existing"),
                       ([0, 9, 4], "distinct existing"), ([0], "two or more"), ("0", "expected a list")):
        c = copy.deepcopy(good)
        c["model"]["initial_states"] = bad
        assert words in _rejected(_rehash(c)), bad


def test_a_single_initial_state_certificate_is_unchanged(files, tmp_path):
    one = tmp_path / "one.drn"
    one.write_text(TWO.replace("state 2 init", "state 2"))
    cert = _certificate(one)
    assert "initial_states" not in cert and "initial_states" not in cert["model"]
    c = copy.deepcopy(cert)
    c["initial_states"] = {"values": ["1/2"], "smallest": {}, "largest": {}}
    assert "no 'initial_states' field" in _rejected(c)


def test_storm_agrees_on_the_initial_states_and_their_range(files):
    for name in ("two", "three"):
        storm, _, _, starts = storm_check_drn(str(files[name]), 'Pmax=? [F "goal"]', with_initial=True)
        drn = parse_drn(files[name].read_text(), name)
        assert starts == drn.initial_states
        model, order = drn_to_model(drn, "Pmax", "goal")
        sol = solve_model(model)
        mine = {order[s]: Fraction(int(sol.values[s][0].numerator), int(sol.values[s][0].denominator))
                for s in model.initial_states}
        assert mine == {d: storm[d] for d in starts}


def test_crosscheck_names_the_range_and_storms(capsys, files):
    status, out, err = run(capsys, "crosscheck", "--model", files["three"], "--objective", "Pmax", "--target", "goal")
    assert status == 0, err
    assert ("initial states: 3; values in [0.000000000000, 1.000000000000] (smallest at state 4, largest at state 1); "
            "Storm's initial states are the same 3, its range [0.000000000000, 1.000000000000]") in out, out
    status, out, _ = run(capsys, "crosscheck", "--model", files["two"], "--objective", "Pmax", "--target", "goal",
                         "--json")
    data = strict(out)
    assert status == 0 and data["verdict"] == "agree"
    assert data["initial_states"]["storm"] == {"same_states": True, "count": 2, "smallest": "1/4", "largest": "1/2"}


def test_several_initial_states_survive_json_drn_and_prism_export(files, tmp_path):
    model, _ = drn_to_model(parse_drn(THREE, "three.drn"), "Pmax", "goal")
    back = model_from_json(json.loads(json.dumps(model_to_json(model))))
    assert back.initial_states == model.initial_states == [0, 2, 4]
    again = parse_drn(write_drn(model), "again.drn")
    assert again.initial_states == [0, 2, 4]
    assert all("model_init" not in labs for labs in again.labels)
    text, _ = write_prism(model, formulate(model))
    assert "init\n  s=0 | s=2 | s=4\nendinit" in text
    path = tmp_path / "three.prism"
    path.write_text(text)
    built = stormpy.build_model(stormpy.parse_prism_program(str(path)))
    assert len(built.initial_states) == 3


@pytest.mark.parametrize("field,words", [
    (["b", "a"], "the initial state 'a' first"), (["a"], "two or more"), (["a", "zz"], "two or more distinct"),
    (["a", "a"], "two or more distinct"), ("a", "a list"),
])
def test_bad_initial_states_in_a_model_file_are_one_line(field, words):
    data = {"format": "exactplay-model", "version": 1, "players": 1, "initial": "a", "initial_states": field,
            "states": [{"id": "a", "payoff": [0]}, {"id": "b", "payoff": [1]}]}
    with pytest.raises(ModelError, match="initial_states") as exc:
        model_from_json(data)
    assert words in str(exc.value)


def test_initial_states_alone_name_the_initial_state():
    data = {"format": "exactplay-model", "version": 1, "players": 1, "initial_states": ["b", "a"],
            "states": [{"id": "a", "payoff": [0]}, {"id": "b", "payoff": [1]}]}
    model = model_from_json(data)
    assert model.state_name(model.initial) == "b" and [model.state_name(s) for s in model.initial_states] == ["b", "a"]


@pytest.mark.parametrize("command,extra", [("solve", ["--backend", "ball"]), ("solve", ["--backend", "auto"]),
                                           ("audit", ["--backend", "ball"])])
def test_balls_refuse_several_initial_states_in_one_line(capsys, files, command, extra):
    status, out, err = run(capsys, command, "--model", files["two"], "--objective", "Pmax", "--target", "goal", *extra)
    assert status == 2 and out == "" and err.count("\n") == 1
    assert "reports one initial state, and this model has 2: use --backend mpq" in err


def test_a_ball_certificate_of_several_initial_states_is_refused_and_not_written(capsys, files, tmp_path):
    out = tmp_path / "b.json"
    status, _, err = run(capsys, "certify", "--model", files["two"], "--objective", "Pmax", "--target", "goal",
                         "--backend", "ball", "-o", out)
    assert status == 2 and "a ball certificate reports one initial state" in err and not out.exists()


def test_the_ball_checker_refuses_a_model_with_several_initial_states(tmp_path):
    from exactplay.checker import ball_model
    from exactplay.dyadic.certificate import model_ball_certificate

    one = parse_drn(TWO.replace("state 2 init", "state 2"), "one.drn")
    model, _ = drn_to_model(one, "Pmax", "goal")
    cert, _ = model_ball_certificate(model, 16)
    assert ball_model.verify(copy.deepcopy(cert))
    cert["model"]["initial_states"] = [0, 2]
    with pytest.raises(VerificationError, match="covers one initial state, not 2"):
        ball_model.verify(_rehash(cert))


def test_a_model_file_with_initial_states_is_read_state_by_state_and_certified(capsys, tmp_path):
    from exactplay.model import load_model_file

    path = tmp_path / "m.json"
    data = {"format": "exactplay-model", "version": 1, "players": 1, "initial_states": ["b", "c"],
            "states": [{"id": "a", "payoff": [0]}, {"id": "b", "payoff": [1]},
                       {"id": "c", "mover": None, "next": [["1/3", "a"], ["2/3", "b"]]}]}
    path.write_text(json.dumps(data))
    model = load_model_file(path)
    assert [model.state_name(s) for s in model.initial_states] == ["b", "c"]
    out = tmp_path / "c.json"
    status, text, err = run(capsys, "certify", "--model", path, "-o", out)
    assert status == 0 and "2 initial states, values in [0.66666667, 1.00000000]" in text, err
    assert run(capsys, "check", out)[0] == 0
    data["initial_states"] = ["b", ["c"]]
    path.write_text(json.dumps(data))
    with pytest.raises(ModelError, match="initial_states"):
        load_model_file(path)


# Rmax: state 2 can stay forever outside the goal (+infinity under Storm's semantics); Rmin: 2 (go)
INFINITE = """@type: MDP
@value_type: rational
@parameters

@reward_models
rew
@nr_states
3
@nr_choices
4
@model
state 0 init
\taction a [1]
\t\t1 : 1
state 1 goal
\taction a [0]
\t\t1 : 1
state 2 init
\taction stay [0]
\t\t2 : 1
\taction go [2]
\t\t1 : 1
"""


def test_an_infinite_initial_value_is_the_largest_everywhere(capsys, tmp_path):
    path = tmp_path / "inf.drn"
    path.write_text(INFINITE)
    status, out, err = run(capsys, "solve", "--model", path, "--objective", "Rmax", "--target", "goal", "--json")
    starts = strict(out)["initial_states"]
    assert status == 0 and starts["values"][1] == {"state": 2, "name": "2", "value": None, "value_reason": "infinite"}
    assert starts["largest"]["decimal"] == "inf" and starts["smallest"]["value"] == "1/1"
    cert_path = tmp_path / "c.json"
    assert run(capsys, "certify", "--model", path, "--objective", "Rmax", "--target", "goal", "-o", cert_path)[0] == 0
    cert = json.loads(cert_path.read_text())
    assert cert["initial_states"]["values"] == ["1/1", None] and cert["initial_states"]["largest"]["decimal"] == "inf"
    status, out, _ = run(capsys, "check", cert_path)
    assert status == 0 and "2 initial states, values in [1.00000000, inf]" in out
    c = copy.deepcopy(cert)
    c["initial_states"]["values"][1] = "5/1"
    assert "the verified value is infinite" in _rejected(c)
    c = copy.deepcopy(cert)
    c["initial_states"]["largest"] = {"state": 0, "value": "1/1", "decimal": "1.00000000"}
    assert "is not the first initial state with the largest value" in _rejected(c)
    status, out, err = run(capsys, "crosscheck", "--model", path, "--objective", "Rmax", "--target", "goal", "--json")
    data = strict(out)
    assert status == 0 and data["verdict"] == "agree", err
    assert data["initial_states"]["storm"] == {"same_states": True, "count": 2, "smallest": "1/1", "largest": None,
                                               "largest_reason": "infinite"}
    status, out, _ = run(capsys, "solve", "--model", path, "--objective", "Rmin", "--target", "goal", "--json")
    assert strict(out)["initial_states"]["largest"]["value"] == "2/1"
