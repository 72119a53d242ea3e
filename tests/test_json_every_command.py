"""Property: every ``--json`` output of every command parses as strict JSON.

One table of invocations covers every command the parser offers (``list``, ``solve``,
``audit``, ``certify``, ``check``, ``claims``, ``report``, ``judge``, ``crosscheck``,
``export --format json -o -``), every built-in game under each game command, a user's
model (factory and model file, float table, balls, a symbolic parameter), and the
degenerate inputs that once ended in a traceback (a coin row worth 0, a chef whose
winning probability is 0, a deck with no sweep).  A coverage test fails when a command
or a game is added without an entry here.  Each output is read with ``json.loads``
refusing ``NaN``/``Infinity`` (:func:`cli_run.strict`); an error measure with no double
value must be ``null`` beside a ``<field>_reason`` of a documented kind.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cli_run import run, strict
from exactplay.cli.main import build_parser
from exactplay.games import game_names

ROOT = Path(__file__).resolve().parents[1]
PIG = str(ROOT / "examples" / "pig.py") + ":make_game"
LOOP = str(ROOT / "examples" / "loop-or-gamble.json")
PROOF = str(ROOT / "proofs" / "coins" / "coins-seed-example.json")
REASONS = ("infinite: ", "out of range: ")

# game -> its smallest, degenerate instance (options before a "--", coin values after it)
DEGENERATE = {
    "race": ["--target", "1"],
    "hold": ["--target", "2", "--faces", "2"],
    "chefs": ["--skills", "1,2/3,2/5,2/3"],  # a float zero: an ulp count beyond the largest double
    "coins": ["--", "0.1", "0.2", "-0.1"],  # an exact 0: an infinite relative error
    "war": ["--ranks", "1", "--suits", "2"],  # no sweep possible: p = 0
}


def _opts(game: str, *options: str) -> list[str]:
    params = DEGENERATE[game]
    if "--" in params:
        k = params.index("--")
        return params[:k] + list(options) + params[k:]
    return params + list(options)


def _game_cases() -> list[tuple[str, list[str]]]:
    cases = []
    for game in DEGENERATE:
        cases += [(f"solve {game}", ["solve", game, *_opts(game, "--json")]),
                  (f"audit {game}", ["audit", game, *_opts(game, "--json")]),
                  (f"certify {game}", ["certify", game, *_opts(game, "--json", "-o", "{tmp}/c.json")]),
                  (f"certify {game} -o -", ["certify", game, *_opts(game, "-o", "-")]),
                  (f"report {game}", ["report", game, *_opts(game, "--json", "-q", "--no-claims", "-o", "{tmp}/r")])]
    return cases


CASES = _game_cases() + [
    ("list", ["list", "--json"]),
    ("check", ["check", "--json", PROOF]),
    ("claims", ["claims", "--json", "--fast", "-q", "--id", "coins.example-27"]),
    ("judge hold", ["judge", "hold", "--target", "5", "--faces", "3", "--json", "--explain", "{tmp}/q.txt"]),
    ("audit race --float-table", ["audit", "race", "--target", "2", "--float-table", "{tmp}/t.txt", "--json"]),
    ("audit race --backend ball", ["audit", "race", "--target", "3", "--backend", "ball", "--json"]),
    ("solve race --backend ball --prec 53", ["solve", "race", "--target", "3", "--backend", "ball", "--prec", "53",
                                             "--json"]),
    ("audit hold --backend ball", ["audit", "hold", "--target", "4", "--faces", "2", "--backend", "ball", "--json"]),
    ("solve model --backend ball", ["solve", "--game", PIG, "--param", "goal=3", "--backend", "ball", "--json"]),
    ("audit model --backend ball, an unbounded ball", ["audit", "--model", "{tmp}/sticky.json", "--backend", "ball",
                                                       "--prec", "16", "--json"]),
    ("solve model", ["solve", "--game", PIG, "--param", "goal=3", "--json"]),
    ("audit model", ["audit", "--game", PIG, "--param", "goal=3", "--json"]),
    ("audit model --backend auto", ["audit", "--game", PIG, "--param", "goal=3", "--backend", "auto", "--json"]),
    ("audit model --float-table", ["audit", "--model", LOOP, "--float-table", "{tmp}/m.txt", "--json"]),
    ("certify model", ["certify", "--model", LOOP, "--json", "-o", "{tmp}/m.json"]),
    ("report model", ["report", "--model", LOOP, "--json", "-q", "-o", "{tmp}/mr"]),
    ("solve model symbolic", ["solve", "race", "--target", "2", "--coin", "1", "--param-symbol", "p", "--json"]),
    ("crosscheck model", ["crosscheck", "--model", LOOP, "--json"]),
    ("export json", ["export", "--model", LOOP, "--format", "json", "-o", "-"]),
]


def _prepare(tmp: Path) -> None:
    (tmp / "q.txt").write_text("2\n0 0 2\n2 0 3\n", encoding="utf-8")
    (tmp / "t.txt").write_text("1 1 0.5\n1 2 0.25\n2 1 0.75\n2 2 0.5\n", encoding="utf-8")
    (tmp / "m.txt").write_text("0 0.0\n1 1e-300\n2 1\n3 0.5\n", encoding="utf-8")
    # a self-loop of probability 1 - 2^-20: at 16 bits, 1 - p is a ball that contains 0 (an unbounded enclosure)
    sticky = [{"id": "start", "mover": 0, "actions": [
        {"name": "stay", "next": [["1048575/1048576", "start"], ["1/1048576", "won"]]},
        {"name": "go", "next": [["1/2", "won"], ["1/2", "lost"]]}]},
        {"id": "won", "payoff": ["1/1"]}, {"id": "lost", "payoff": ["0/1"]}]
    (tmp / "sticky.json").write_text(json.dumps({"format": "exactplay-model", "version": 1, "name": "sticky",
                                                 "players": ["p"], "states": sticky}), encoding="utf-8")


def assert_reasons_documented(obj, where: str = "$") -> None:
    """A ``<field>_reason`` sits beside a ``null`` ``<field>`` and names a documented kind."""
    if isinstance(obj, dict):
        for key, value in obj.items():
            if isinstance(key, str) and key.endswith("_reason") and key[:-7] in obj:
                assert obj[key[:-7]] is None and str(value).startswith(REASONS), f"{where}.{key} = {value!r}"
            assert_reasons_documented(value, f"{where}.{key}")
    elif isinstance(obj, list):
        for i, value in enumerate(obj):
            assert_reasons_documented(value, f"{where}[{i}]")


@pytest.mark.parametrize("argv", [c[1] for c in CASES], ids=[c[0] for c in CASES])
def test_every_json_output_of_every_command_is_strict_json(capsys, tmp_path, argv):
    _prepare(tmp_path)
    status, out, err = run(capsys, *[a.replace("{tmp}", str(tmp_path)) for a in argv])
    assert status == 0 and "Traceback" not in err, f"exit {status}: {err}"
    data = strict(out)
    assert data not in (None, [], {})
    assert_reasons_documented(data)
    if argv[0] == "report":  # the files it lists are written (test_json_output's report test merged here)
        assert Path(data["html"]).is_file() and str(data["html"]).startswith(str(tmp_path)), data


def test_the_table_covers_every_command_and_every_game_under_each_game_command():
    parser = build_parser()
    commands = next(a for a in parser._actions if a.dest == "command").choices
    covered = {argv[0] for _, argv in CASES}
    assert set(commands) <= covered, f"commands without a --json case: {set(commands) - covered}"
    for command in ("solve", "audit", "certify", "report"):
        games = {argv[1] for _, argv in CASES if argv[0] == command and argv[1] in game_names()}
        assert games == set(game_names()), f"{command}: no case for {set(game_names()) - games}"
        assert any("--game" in argv or "--model" in argv for _, argv in CASES if argv[0] == command), command


def test_the_degenerate_audits_write_their_infinite_measures_as_null_with_a_reason(capsys):
    coins = strict(run(capsys, "audit", "coins", "--json", "--", "0.1", "0.2", "-0.1")[1])
    assert coins["dp_sum"]["values"]["max_rel_error_reason"].startswith("infinite: exact value 0")
    chefs = strict(run(capsys, "audit", "chefs", "--skills", "1,2/3,2/5,2/3", "--json")[1])
    assert chefs["winner_values"]["max_ulps"] is None
    assert chefs["winner_values"]["max_ulps_reason"].startswith("out of range: float 0.0")


skill = st.sampled_from(["1", "1/2", "2/3", "1/3", "1/1000000000000", "2/5", "999999/1000000"])


@settings(max_examples=8, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(skills=st.lists(skill, min_size=2, max_size=4))
def test_every_chefs_audit_of_extreme_skills_is_strict_json_and_its_text_says_why(capsys, skills):
    argv = ["audit", "chefs", "--skills", ",".join(skills)]
    status, out, err = run(capsys, *argv, "--json")
    assert status == 0, err
    data = strict(out)
    assert_reasons_documented(data)
    assert data["winner_values"]["cells"] > 0
    status, text, err = run(capsys, *argv)
    assert status == 0 and "Traceback" not in err
    assert " inf " not in text.replace("inf (", "") and "nan" not in text.lower()
