"""``exactplay solve GAME`` of the five built-in games: one typed result, one renderer.

* the rendered JSON (through the CLI, parsed strictly) equals what the engine's typed
  :class:`~exactplay.engine.Solution` of the game's model says -- the answer, the optimal action
  at each decision state the game points out (and its exact margin when given), the smallest
  margin, the number of exact ties -- computed by the game's fast exact path (whose equality with
  the engine the conformance suite proves), never a hard-coded string;
* text, JSON and HTML show the same facts (every labelled fact, every exact number's decimals,
  every decision);
* the games' ``solve`` code builds no output: see :func:`test_built_in_solve_code_formats_no_output`.
"""

from __future__ import annotations

import ast
import html
from fractions import Fraction
from pathlib import Path

import pytest

from cli_run import run, strict
from exactplay.games import fast_path
from exactplay.present.render.solve import solve_html, solve_json, solve_lines
from exactplay.solve_result import Table

GAMES = Path(__file__).resolve().parent.parent / "src" / "exactplay" / "games"

# (game, CLI arguments, fast-path parameters, the payoff component the answer is)
CASES = [
    ("race", ["--target", "1"], {"target": 1}, 1),
    ("race", ["--target", "4"], {"target": 4}, 1),
    ("race", ["--target", "9"], {"target": 9}, 1),
    ("hold", ["--target", "6"], {"target": 6}, 0),
    ("hold", ["--target", "9", "--faces", "4"], {"target": 9, "faces": 4}, 0),
    ("chefs", ["--n", "2"], {"n": 2}, "dishes"),
    ("chefs", ["--n", "5"], {"n": 5}, "dishes"),
    ("chefs", ["--skills", "1/2,1/3,3/4"], {"skills": (Fraction(1, 2), Fraction(1, 3), Fraction(3, 4))}, "dishes"),
    ("coins", ["--", "10", "20", "8", "7"], {"coins": (10, 20, 8, 7)}, 0),
    ("coins", ["--", "1", "1", "1", "1", "1"], {"coins": (1, 1, 1, 1, 1)}, 0),
    ("coins", ["--", "0.1", "-0.2", "0.3", "1/3", "0.4", "0.4"],
     {"coins": tuple(Fraction(c) for c in ("0.1", "-0.2", "0.3", "1/3", "0.4", "0.4"))}, 0),
    ("coins", ["--", "5"], {"coins": (5,)}, 0),
    ("war", ["--ranks", "2", "--suits", "2"], {"ranks": 2, "suits": 2}, 0),
    ("war", ["--ranks", "3", "--suits", "2"], {"ranks": 3, "suits": 2}, 0),
    ("war", ["--ranks", "1", "--suits", "2"], {"ranks": 1, "suits": 2}, 0),
]


def _ids(case):
    return f"{case[0]}-{'-'.join(a for a in case[1] if a != '--')}"


@pytest.mark.parametrize("case", CASES, ids=_ids)
def test_solve_json_equals_what_the_engine_solution_says(capsys, case):
    game, argv, params, component = case
    status, out, _ = run(capsys, "solve", game, "--json", *argv)
    assert status == 0
    data = strict(out)
    sol = fast_path(game).fast_solution(**params)
    m = sol.model
    comp = m.player_names.index(component) if isinstance(component, str) else component
    assert Fraction(data["answer"]["value"]) == sol.value_of(m.initial, comp)
    index = {m.state_name(s): s for s in range(len(m))}
    for d in data.get("decisions", []):
        s = index[d["state"]]
        assert m.terminal[s] is None and d["action"] == sol.action_name(s)
        if d["margin"] is not None:
            assert Fraction(d["margin"]) == sol.margins[s]
    if "smallest_margin" in data:  # the value is the engine's smallest; the state named has it
        smallest = sol.smallest_margin()
        assert Fraction(data["smallest_margin"]["value"]) == smallest[0]
        assert sol.margins[index[data["smallest_margin"]["name"]]] == smallest[0]
    ties = data.get("tie_count", data.get("exact_ties", {}).get("count"))
    if ties is not None:
        assert ties == len(sol.ties)
    # what each game points out: a decision at the first choice wherever the engine has one there
    expected_decisions = {"race": 1 if params.get("target") == 1 else 2, "chefs": 1, "hold": 1, "war": 0,
                          "coins": 1 if len(params.get("coins", ())) > 1 else 0}[game]
    assert len(data.get("decisions", [])) == expected_decisions


def _solve_result(game, params):
    """The typed result a game's ``solve`` renders (the same function ``solve`` calls)."""
    import exactplay.games.chefs as chefs
    import exactplay.games.coins as coins
    import exactplay.games.hold as hold
    import exactplay.games.race as race
    import exactplay.games.war as war
    from exactplay.games.chefs.instance import instance, solve_exact

    if game == "race":
        return race.solve_result(race.solve_table(params["target"], "mpq", keep_table=False), 8)
    if game == "hold":
        return hold.solve_result(hold.exact_table(params["target"], params.get("faces", 6), "mpq"),
                                 params.get("faces", 6))
    if game == "chefs":
        n, skills, fib = instance(params.get("n"), params.get("skills"))
        return chefs.solve_result(n, skills, fib, solve_exact(skills, "mpq", "nearest"), "mpq")
    if game == "coins":
        row = coins.resolve_row(params["coins"], None)
        return coins.solve_result(row, coins.solve_row(row, "mpq"))
    dists = war.turn_distributions(params["ranks"], params["suits"], "mpq")
    return war.solve_result(params["ranks"], params["suits"], dists, "mpq")


def _strings(x):
    if isinstance(x, dict):
        return [s for v in x.values() for s in _strings(v)]
    if isinstance(x, list):
        return [s for v in x for s in _strings(v)]
    return [str(x)]


@pytest.mark.parametrize("case", CASES, ids=_ids)
def test_text_json_and_html_show_the_same_facts(case):
    game, _, params, _ = case
    result = _solve_result(game, params)
    data, text, page = solve_json(result), "\n".join(solve_lines(result)), solve_html(result)
    page_text = html.unescape(page)
    assert result.title in text and result.title in page_text
    numbers = [("answer", result.answer)] + [(q.key, q.value) for q in result.quantities]
    for key, value in numbers:
        if value is None:
            assert data[key] is None
            continue
        assert Fraction(data[key]["value"]) == value
        assert f"decimal     : {data[key]['decimal']}" in text and data[key]["decimal"] in page_text
    for d, dj in zip(result.decisions, data.get("decisions", [])):
        assert dj["state"] == d.state and d.state in text and d.state in page_text
        shown = d.text or str(d.action)
        assert shown in text and shown in page_text
    if result.smallest_margin is not None:
        assert result.smallest_margin.name in text and result.smallest_margin.name in page_text
    for f in result.facts:
        if isinstance(f, Table):
            assert len(data[f.key]) == len(f.rows) and f.label in text and f.label.rstrip(":") in page_text
            continue
        if f.key is not None:
            assert data[f.key] == f.value
        if f.label is not None:
            assert f"{f.label}: {f.shown()}" in text
            assert f.label in page_text and f.shown() in page_text
    assert len(data["answer"]["value"]) > 0 and all("nan" not in s.lower() for s in _strings(data))


# the functions that produce a built-in solve's output, by file
SOLVE_FUNCTIONS = ("solve", "solve_result", "_decisions", "_smallest_margin", "_first_choices")


def _calls(fn: ast.AST) -> set[str]:
    names = set()
    for node in ast.walk(fn):
        if isinstance(node, ast.Call):
            f = node.func
            names.add(f.attr if isinstance(f, ast.Attribute) else getattr(f, "id", ""))
    return names


def test_built_in_solve_code_formats_no_output():
    """What this proves, and no more: in every ``games/<name>/__init__.py`` the solve functions
    call neither :class:`Report` nor :func:`exact_number` (the decimals and exact values are the
    renderer's), append to no list (no ``lines.append``), join no list of lines with newlines, and
    ``solve`` returns ``solve_report(...)`` of a :class:`SolveResult` (or a ball path's report,
    games/*/ball*.py, not converted here); each ``report.py`` that shows the solve passes it through
    ``solve_report``.  Short phrases inside a fact (e.g. "C x=2..20") are still composed by the game."""
    for init in sorted(GAMES.glob("*/__init__.py")):
        tree = ast.parse(init.read_text())
        fns = {n.name: n for n in tree.body if isinstance(n, ast.FunctionDef) and n.name in SOLVE_FUNCTIONS}
        assert "solve" in fns and "solve_result" in fns, init
        for name, fn in fns.items():
            calls = _calls(fn)
            assert not calls & {"Report", "exact_number", "append", "extend"}, (init, name, calls)
            doc = fn.body[0].value if isinstance(fn.body[0], ast.Expr) else None
            for node in ast.walk(fn):
                if isinstance(node, ast.Constant) and isinstance(node.value, str) and node is not doc:
                    assert "\n" not in node.value, (init, name, node.value)
        assert "solve_report" in _calls(fns["solve"]) and "SolveResult" in _calls(fns["solve_result"]), init
    for report in sorted(GAMES.glob("*/report.py")):
        text = report.read_text()
        if "solution=" in text:
            assert "solution=solve_report(solve_result(" in text, report


def test_a_user_models_solve_goes_through_the_same_renderer(capsys):
    """``solve --model``: the CLI's JSON and text are :func:`solve_json` / :func:`solve_lines` of
    the SolveResult built from the engine's Solution, whose answer, first action and smallest
    margin they carry."""
    from exactplay.engine import solve_model
    from exactplay.model.explicit import load_model_file
    from exactplay.strict_json import dumps
    from exactplay.present.render.solution import solution_result

    path = Path(__file__).resolve().parent.parent / "examples" / "loop-or-gamble.json"
    status, out, _ = run(capsys, "solve", "--model", path, "--json", "--all")
    assert status == 0
    data = strict(out)
    sol = solve_model(load_model_file(path), "mpq")
    result = solution_result(sol, 8, False, True, data["source"])
    assert data == strict(dumps(solve_json(result)))
    m = sol.model
    assert Fraction(data["answer"]["value"]) == sol.values[m.initial][0]
    assert data["decisions"][0]["action"] == sol.action_name(m.initial)
    assert Fraction(data["smallest_margin"]["value"]) == sol.smallest_margin()[0]
    status, text, _ = run(capsys, "solve", "--model", path, "--all")
    assert text.splitlines() == solve_lines(result)


@pytest.mark.parametrize("game, params", [("war", {"ranks": 2, "suits": 2}), ("coins", {"coins": (3, 1, 2)}),
                                          ("race", {"target": 3}), ("hold", {"target": 4})])
def test_a_report_page_shows_the_solve_the_command_prints(tmp_path, game, params):
    """The HTML report carries the same SolveResult ``solve`` renders: its data equals the
    command's JSON and the page holds :func:`solve_html` of it."""
    from exactplay.games import get_game
    from exactplay.present.report import build_report

    files = build_report(game, params, tmp_path, with_claims=False)
    result = files.report.solution.result
    assert solve_json(result) == get_game(game).solve(**params).data
    assert solve_html(result) in files.html.read_text(encoding="utf-8")


@pytest.mark.parametrize("n", [3, 5])
def test_chefs_decision_json_words_the_target_as_the_text_does(capsys, n):
    """The model names a target by its 0-based index (the engine's action); ``action_text`` says
    which chef that is, as the text line does (``target chef k``, k = index + 1)."""
    status, out, _ = run(capsys, "solve", "chefs", "--n", str(n), "--json")
    assert status == 0
    (d,) = strict(out)["decisions"]
    assert d["action_text"] == f"target chef {d['action'] + 1}"
    status, text, _ = run(capsys, "solve", "chefs", "--n", str(n))
    assert f"{d['state']}: {d['action_text']}" in text
