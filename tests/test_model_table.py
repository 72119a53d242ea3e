"""A user's float table of a model, keyed by the names ``solve --all`` prints or by state numbers
(issue 22 item 14): the same figures either way; an unknown or ambiguous key is one line."""

import json
from fractions import Fraction
from pathlib import Path

import pytest

from cli_run import run, strict

ROOT = Path(__file__).resolve().parent.parent
PIG = str(ROOT / "examples" / "pig.py") + ":make_game"
RUIN = str(ROOT / "tests" / "fixtures" / "storm" / "gamblers_ruin.drn")
DRN = ["--model", RUIN, "--objective", "Pmax", "--target", "goal"]


def _printed_names(capsys, source: list[str]) -> list[str]:
    """The state names of ``solve --all``'s listing, in its order."""
    status, out, _ = run(capsys, "solve", *source, "--all")
    assert status == 0
    listing = out.split("states (value, optimal action, margin to the runner-up)\n", 1)[1]
    return [line.strip().rsplit(": ", 1)[0] if line.count(": ") == 1 else line.strip().split(": ")[0]
            for line in listing.splitlines() if line.startswith("  ")]


def _rows(capsys, source: list[str]) -> list[dict]:
    status, out, _ = run(capsys, "solve", *source, "--json")
    assert status == 0
    return strict(out)["state_values"]


def _audit(capsys, source: list[str], table: Path) -> dict:
    status, out, err = run(capsys, "audit", *source, "--float-table", table, "--json")
    assert status == 0, err
    data = strict(out)
    return json.loads(json.dumps(data).replace(str(table), "TABLE"))


def _perturbed(rows: list[dict]) -> list[float]:
    return [float(Fraction(r["value"][0])) + (-1) ** i * 1e-9 * (i % 7) for i, r in enumerate(rows)]


def test_a_table_keyed_by_the_names_solve_all_prints_audits_like_the_same_table_keyed_by_numbers(capsys, tmp_path):
    source = ["--game", PIG, "--param", "goal=4"]
    rows = _rows(capsys, source)
    names = _printed_names(capsys, source)
    assert names == [r["name"] for r in rows] and any(", " in n for n in names)  # names with commas and spaces
    floats = _perturbed(rows)
    by_name, by_number = tmp_path / "names.txt", tmp_path / "numbers.txt"
    by_name.write_text("".join(f"{n} {x!r}\n" for n, x in zip(names, floats)))
    by_number.write_text("".join(f"{r['state']} {x!r}\n" for r, x in zip(rows, floats)))
    named, numbered = _audit(capsys, source, by_name), _audit(capsys, source, by_number)
    assert named == numbered
    assert named["values"]["max_abs_error"] == pytest.approx(6e-9, rel=1e-6)


@pytest.mark.parametrize("form", ["{n}: {x}", "{n},{x}", '"{n}",{x}', "{n}\t{x}"])
def test_a_name_row_may_end_its_name_with_a_colon_a_comma_a_tab_or_be_quoted(capsys, tmp_path, form):
    source = ["--game", PIG, "--param", "goal=3"]
    rows = _rows(capsys, source)
    floats = _perturbed(rows)
    table, numbers = tmp_path / "t.txt", tmp_path / "n.txt"
    table.write_text("name value\n" + "".join(form.format(n=r["name"], x=repr(x)) + "\n" for r, x in zip(rows, floats)))
    numbers.write_text("".join(f"{r['state']},{x!r}\n" for r, x in zip(rows, floats)))
    assert _audit(capsys, source, table) == _audit(capsys, source, numbers)


def test_json_rows_take_names_as_strings_and_numbers_as_integers(capsys, tmp_path):
    source = ["--game", PIG, "--param", "goal=3"]
    rows = _rows(capsys, source)
    floats = _perturbed(rows)
    named, numbered = tmp_path / "a.json", tmp_path / "b.json"
    named.write_text(json.dumps([[r["name"], x] for r, x in zip(rows, floats)]))
    numbered.write_text(json.dumps([[r["state"], x] for r, x in zip(rows, floats)]))
    assert _audit(capsys, source, named) == _audit(capsys, source, numbered)


def test_a_drn_table_keyed_by_state_ids_needs_a_header_saying_they_are_names(capsys, tmp_path):
    rows = _rows(capsys, DRN)
    assert any(r["name"] != str(r["state"]) for r in rows)  # the DRN ids are not the state numbers
    floats = _perturbed(rows)
    body = "".join(f"{r['name']} {x!r}\n" for r, x in zip(rows, floats))
    table = tmp_path / "ids.txt"
    table.write_text(body)
    status, out, err = run(capsys, "audit", *DRN, "--float-table", table)
    assert status == 2 and out == "" and err.count("\n") == 1
    first = rows[0]
    assert f"line 1: '{first['name']}' is ambiguous: it names state 0" in err and "'name value'" in err
    table.write_text("name value\n" + body)
    numbers = tmp_path / "numbers.txt"
    numbers.write_text("number value\n" + "".join(f"{r['state']} {x!r}\n" for r, x in zip(rows, floats)))
    assert _audit(capsys, DRN, table) == _audit(capsys, DRN, numbers)


@pytest.mark.parametrize("text, words", [
    ("(to move 9, scores 0-0, turn 0) 0.5\n", "'(to move 9, scores 0-0, turn 0)' is neither a state number nor "
                                              "the name of a state"),
    ("name value\n0 0.5\n", "'0' is not the name of a state"),
    ("number value\n(to move 0, scores 0-0, turn 0) 0.5\n", "is not a state number"),
    ("99999 0.5\n", "state 99999 is not a state of this model"),
    ("(to move 0, scores 0-0, turn 0)\n", "has no rows, only the header line '(to move 0, scores 0-0, turn 0)'"),
    ("# a comment\nlonely\n", "line 2: expected a state and a value, got 'lonely'"),
    ("", "the float table has no rows"),
])
def test_a_key_that_is_no_state_is_one_line_naming_it(capsys, tmp_path, text, words):
    table = tmp_path / "t.txt"
    table.write_text(text)
    status, out, err = run(capsys, "audit", "--game", PIG, "--param", "goal=3", "--float-table", table)
    assert status == 2 and out == "" and err.count("\n") == 1 and words in err, err


def test_a_name_two_states_share_is_refused(capsys, tmp_path):
    game = tmp_path / "twins.py"
    game.write_text('''
class Twins:  # two states labelled alike
    def state_label(self, s): return "twin" if s else "start"
    def initial_state(self): return 0
    def is_terminal(self, s): return s in (1, 2)
    def payoff(self, s): return [1] if s == 1 else [0]
    def mover(self, s): return None
    def actions(self, s): return ["flip"]
    def transitions(self, s, a): return [("1/2", 1), ("1/2", 2)]

def make_game():
    return Twins()
''')
    table = tmp_path / "t.txt"
    table.write_text("start 0.5\ntwin 1\n")
    status, _, err = run(capsys, "audit", "--game", f"{game}:make_game", "--float-table", table)
    assert status == 2 and err.count("\n") == 1 and "line 2: 'twin' is the name of 2 states (numbers 1, 2): key them by number" in err, err
