"""No JSON a user hands the tool means two things, and no objective misfits its players (issue 22, items 5-6).

A name given twice in one JSON object is read by Python as the last one and by other readers as
the first (RFC 8259 leaves it open), so model files, float tables and certificates all refuse it
through one reader (:mod:`exactplay.checker._json`), naming the name, the line and the column.
``zero-sum`` is for two players and ``min`` for one: any other pairing is refused in one line by
the model readers, the builder of Python games and the checker.
"""

from __future__ import annotations

import copy
import json
from pathlib import Path

import pytest

from cli_run import run
from exactplay.checker import model as model_checker
from exactplay.checker._json import DuplicateName, parse_json
from exactplay.errors import VerificationError
from exactplay.model import ModelError, build_model, load_model_file, model_from_json
from exactplay.certify.model import model_digest

ROOT = Path(__file__).resolve().parent.parent
LOOP_CERT = ROOT / "proofs" / "models" / "loop-or-gamble.json"


def one_line(capsys, *argv, status: int = 2) -> str:
    got, out, err = run(capsys, *argv)
    assert got == status and len(err.splitlines()) == 1 and "Traceback" not in err, (got, err[:400])
    assert err.startswith("exactplay: error: ")
    return err


MODEL = """{"format": "exactplay-model", "version": 1, "players": 1,
 "states": [
  {"id": "s", "mover": 0, "actions": [{"name": "a", "next": [["1/1", "w"]]}]},
  {"id": "w", "payoff": ["1/1"]}
 ]}
"""


# ---------------------------------------------------------------- item 5: a name twice in one object


@pytest.mark.parametrize("old, new, second", [
    ('"players": 1,', '"players": 1, "players": 2,', '"players": 2'),  # before: 2 players, silently
    ('"payoff": ["1/1"]', '"payoff": ["1/1"], "payoff": ["0/1"]', '"payoff": ["0/1"]'),  # before: worth 0
    ('"name": "a", "next"', '"name": "a", "name": "b", "next"', '"name": "b"'),
])
def test_a_name_twice_in_a_model_file_is_refused_naming_it_and_where(tmp_path, capsys, old, new, second):
    path = tmp_path / "twice.json"
    assert old in MODEL
    text = MODEL.replace(old, new, 1)
    path.write_text(text)
    at = text.index(second)
    name, line = second.split('"')[1], text.count("\n", 0, at) + 1
    column = at - text.rfind("\n", 0, at)
    err = one_line(capsys, "solve", "--model", path)
    assert f"the name '{name}' appears twice in one object (line {line}, column {column})" in err
    path.write_text(MODEL)
    assert run(capsys, "solve", "--model", path)[0] == 0


def test_a_name_twice_in_a_json_float_table_is_refused_naming_where(tmp_path, capsys):
    path = tmp_path / "t.json"
    path.write_text('{"rows": [[1, 1, 0.5]],\n "rows": [[1, 1, 0.6666666666666666]]}')
    err = one_line(capsys, "audit", "race", "--target", "1", "--float-table", path)
    assert "the name 'rows' appears twice in one object (line 2, column 2)" in err


def test_a_name_twice_in_a_certificate_is_refused_naming_where(tmp_path, capsys):
    text = LOOP_CERT.read_text()
    path = tmp_path / "twice.json"
    path.write_text(text.replace('"notes": ', '"notes": "x",\n"notes": ', 1))
    status, out, err = run(capsys, "check", path)
    assert status == 1 and "'notes' appears twice in one object (line " in out + err and "Traceback" not in err


def test_the_second_occurrence_located_is_of_the_name_refused():
    # the inner object closes first, so its name is the one refused: the outer "a" given twice is not it
    text = '{"a": 1,\n "a": {"b": 1,\n  "b": 2}}'
    with pytest.raises(DuplicateName) as exc:
        parse_json(text)
    assert exc.value.name == "b" and "(line 3, column 3)" in str(exc.value)
    with pytest.raises(DuplicateName, match=r"'a' appears twice in one object \(line 2, column 2\)"):
        parse_json('{"a": 1,\n "a": 2}')


def test_a_field_a_model_file_does_not_have_is_refused_before_its_value_is_read(tmp_path, capsys):
    path = tmp_path / "extra.json"
    text = MODEL.replace('"players": 1,', '"players": 1, "comment": [' + "[]," * 100_000 + "[]],")
    path.write_text(text)
    column = text.index('"comment"') + 1
    assert f"line 1, column {column}: unknown field 'comment'" in one_line(capsys, "solve", "--model", path)
    with pytest.raises(ModelError, match="unknown field 'comment'"):
        model_from_json({**json.loads(MODEL), "comment": "x"})


@pytest.mark.parametrize("field, value", [("version", "[1]"), ("name", '{"a": 1}'), ("initial", '["s"]')])
def test_a_single_value_field_holding_a_list_or_an_object_is_refused_before_it_is_parsed(tmp_path, capsys, field,
                                                                                         value):
    path = tmp_path / "m.json"
    data = json.loads(MODEL)
    data[field] = 0  # a placeholder, replaced by the list or object below
    path.write_text(json.dumps(data).replace(f'"{field}": 0', f'"{field}": {value}'))
    assert f"field '{field}': one value" in one_line(capsys, "solve", "--model", path)


def test_a_model_file_with_states_before_its_players_reads_the_same(tmp_path):
    data = json.loads(MODEL)
    path = tmp_path / "late.json"
    path.write_text(json.dumps({"states": data["states"], **{k: v for k, v in data.items() if k != "states"}}))
    assert load_model_file(path).trans == model_from_json(data).trans
    data["states"][0]["mover"] = 1  # no player 1: found once the players are read
    path.write_text(json.dumps({"states": data["states"], **{k: v for k, v in data.items() if k != "states"}}))
    with pytest.raises(ModelError, match="mover 1 is not a player"):
        load_model_file(path)


# ---------------------------------------------------------------- item 6: objectives that do not fit the players


@pytest.mark.parametrize("objective, players, words", [
    ("zero-sum", 1, "objective 'zero-sum' is for two players"),  # before: "gambler maximises,  minimises"
    ("zero-sum", 3, "objective 'zero-sum' is for two players"),
    ("min", 2, "objective 'min' is for one player"),
])
def test_an_objective_that_does_not_fit_the_players_is_refused_in_one_line(tmp_path, capsys, objective, players,
                                                                            words):
    data = json.loads(MODEL)
    data["players"], data["objective"] = players, objective
    data["states"][1]["payoff"] = ["1/1"] * players
    path = tmp_path / "m.json"
    path.write_text(json.dumps(data))
    assert words in one_line(capsys, "solve", "--model", path)
    with pytest.raises(ModelError, match=words):
        model_from_json(data)


def test_a_python_game_whose_objective_does_not_fit_its_players_is_refused():
    class Solo:
        objective = "zero-sum"

        def initial_state(self): return 0
        def is_terminal(self, s): return s == 1
        def payoff(self, s): return (1,)
        def mover(self, s): return 0
        def actions(self, s): return ["go"]
        def transitions(self, s, a): return [(1, 1)]

    with pytest.raises(ModelError, match="objective 'zero-sum' is for two players .*this game has 1"):
        build_model(Solo())


def test_the_checker_refuses_a_one_player_model_certified_as_zero_sum():
    cert = json.loads(LOOP_CERT.read_text())
    assert model_checker.verify(copy.deepcopy(cert))
    cert["model"]["objective"] = "zero-sum"
    cert["model_sha256"] = model_digest(cert["model"])
    with pytest.raises(VerificationError) as exc:
        model_checker.verify(cert)
    assert exc.value.field == "model.objective" and "is for 2 player(s), the model has 1" in str(exc.value)
