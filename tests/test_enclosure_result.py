"""Ball and interval results are typed (:class:`EnclosureResult`) and rendered once.

* every path (race in balls, in float64 intervals, with ``auto``; hold; a user's model; their
  audits; ``auto`` handing over to exact arithmetic) returns an EnclosureResult, and its text,
  JSON and HTML carry the same facts, computed from the typed result;
* the facts are true: the enclosures contain the exact values, the certified decimals are the
  exact rounding, every float error lies within the enclosed bound and above the certified one;
* JSON is strict: an unbounded ball (a division by a ball that contains 0) and a width beyond
  the largest double are written as ``null`` plus a documented ``_reason``;
* the ball modules format no report lines by hand (a structure test over their source).
"""

from __future__ import annotations

import ast
import html
import json
from fractions import Fraction
from pathlib import Path

import pytest

from cli_run import run, strict
from exactplay.numbers.decimals import decimal_digits
from exactplay.audit.enclosure_result import CORRECT, UNRESOLVED, VERDICTS, WRONG, EnclosureResult
from exactplay.games import get_game
from exactplay.model import build_model, load_model_file
from exactplay.model.load import make_game
from exactplay.numbers.backends import Backend, format_pq, get_backend
from exactplay.present.render import audit_lines, enclosure_html, enclosure_json, enclosure_lines
from exactplay.strict_json import NonFinite, dumps
from test_json_every_command import assert_reasons_documented

ROOT = Path(__file__).resolve().parents[1]
SRC = ROOT / "src" / "exactplay"
PIG = str(ROOT / "examples" / "pig.py") + ":make_game"


def _model_file(tmp: Path, name: str, actions: list, payoffs: dict) -> Path:
    """A one-choice model: ``start`` (player ``p`` moves) and terminal states with ``payoffs``."""
    states = [{"id": "start", "mover": 0, "actions": [{"name": n, "next": nxt} for n, nxt in actions]}]
    states += [{"id": s, "payoff": [v]} for s, v in payoffs.items()]
    path = tmp / f"{name}.json"
    path.write_text(json.dumps({"format": "exactplay-model", "version": 1, "name": name, "players": ["p"],
                                "states": states}), encoding="utf-8")
    return path


pytestmark = pytest.mark.xdist_group("test_enclosure_result")  # one worker for this file: its module-scoped fixtures
# are built once per suite, not once in each of the two xdist workers (--dist loadgroup)


@pytest.fixture(scope="module")
def models(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("models")
    stay = 1 - Fraction(1, 2**20)
    return {
        # two actions worth exactly 1/2: no precision separates them
        "tie": _model_file(tmp, "tie", [("a", [["1/2", "won"], ["1/2", "lost"]]),
                                        ("b", [["1/3", "won"], ["1/3", "mid"], ["1/3", "lost"]])],
                           {"won": "1/1", "mid": "1/2", "lost": "0/1"}),
        # a self-loop of probability 1 - 2^-20: at 16 bits 1 - p is a ball that contains 0
        "sticky": _model_file(tmp, "sticky", [("stay", [[str(stay), "start"], [str(1 - stay), "won"]]),
                                              ("go", [["1/2", "won"], ["1/2", "lost"]])],
                              {"won": "1/1", "lost": "0/1"}),
        # a payoff beyond the largest double
        "huge": _model_file(tmp, "huge", [("a", [["1/2", "won"], ["1/2", "lost"]]),
                                          ("b", [["1/3", "won"], ["2/3", "lost"]])],
                            {"won": f"{10**400}/3", "lost": "0/1"}),
    }


def _auto(prec: int) -> Backend:
    B = get_backend("ball", prec)
    return Backend("auto", B.kind, False, B.make, B.prec)


def _model_solve(model, B):
    from exactplay.engine import solve_model
    from exactplay.audit.model_ball import solve_ball
    from exactplay.present.render.solution import solution_report

    return solve_ball(model, B, 8, "test", lambda: solution_report(solve_model(model, "mpq"), 8, False, False, "test"))


def _model_audit(model, B):
    from exactplay.engine import solve_model
    from exactplay.engine.value_iteration import value_iteration
    from exactplay.audit.model import audit_model
    from exactplay.audit.model_ball import audit_ball

    flt = value_iteration(model)
    return audit_ball(model, B, 8, flt, "float value iteration",
                      lambda: audit_model(solve_model(model, "mpq"), flt, "float value iteration", 8))


@pytest.fixture(scope="module")
def pig4():
    from exactplay.progress import SILENT

    return build_model(make_game(PIG, {"goal": 4}), 10**6, SILENT)


@pytest.fixture(scope="module")
def results(models, pig4):
    race, hold = get_game("race"), get_game("hold")
    return {
        "solve race ball": race.solve(target=30, backend=get_backend("ball", 128)),
        "solve race ball 24 bits": race.solve(target=40, backend=get_backend("ball", 24)),
        "solve race auto": race.solve(target=40, backend=_auto(24)),
        "solve race intervals": race.solve(target=30, backend=get_backend("ball", 53)),
        "audit race ball": race.audit(target=25, backend=get_backend("ball", 40)),
        "audit race auto": race.audit(target=25, backend=_auto(40)),
        "solve hold ball": hold.solve(target=6, faces=3, backend=get_backend("ball", 128)),
        "solve hold auto": hold.solve(target=6, faces=3, backend=_auto(128)),
        "solve hold 16 bits": hold.solve(target=6, faces=3, backend=get_backend("ball", 16)),
        "audit hold ball": hold.audit(target=6, faces=3, backend=get_backend("ball", 128)),
        "solve model": _model_solve(pig4, get_backend("ball", 128)),
        "audit model": _model_audit(pig4, get_backend("ball", 128)),
        "solve model tie": _model_solve(load_model_file(models["tie"]), get_backend("ball", 128)),
        "solve model tie auto": _model_solve(load_model_file(models["tie"]), _auto(128)),
        "audit model tie auto": _model_audit(load_model_file(models["tie"]), _auto(128)),
        "audit model sticky": _model_audit(load_model_file(models["sticky"]), get_backend("ball", 16)),
        "solve model huge": _model_solve(load_model_file(models["huge"]), get_backend("ball", 16)),
    }


# ---------------------------------------------------------------- one result, three renderings


def _at(data: dict, path: tuple):
    for k in path:
        data = data[k]
    return data


def _facts(r: EnclosureResult) -> list[tuple[tuple | None, object, str | None]]:
    """(JSON path, value, text) of every figure of the result, computed from its typed parts."""
    out = []
    a = r.answer
    if a is not None:
        z = a.decimal
        out.append(((a.key, "decimal"), z.rounded, z.rounded))
        out.append(((a.key, "certain_digits"), z.certain_digits, None))
        out.append(((a.key, "prec_bits"), z.prec, f"{z.prec} bits" if z.rounded else None))
        if a.lower is not None:
            out.append(((a.key, "run_enclosure", "lower"), format_pq(a.lower), None))
            out.append(((a.key, "run_enclosure", "upper"), format_pq(a.upper), None))
            if abs(a.upper) < 1e300:
                out.append((None, None, f"[{float(a.lower):.17g}, {float(a.upper):.17g}]"))
    w = r.widths
    if w is not None:
        out += [((w.key, "states"), w.states, f"{w.states:,}"), ((w.key, "largest"), w.largest, f"{w.largest:.2e}")]
    d = r.decisions
    if d is not None:
        out += [((d.key, "total"), d.total, None), ((d.key, "certified"), d.certified, None),
                ((d.key, "unresolved"), d.unresolved, None)]
        out += [(None, None, (f"{x.certified:,} of {d.total:,} {d.what}certified at {x.prec} bits, "
                              f"{x.unresolved:,} unresolved")) for x in d.rounds]
        out += [((d.key, f.key), f.value, f.shown() if f.label is not None else None) for f in d.facts]
    for fj in r.floats:
        verdicts = {k: fj.verdicts.get(k, 0) for k in VERDICTS}
        out.append((fj.keys["verdicts"], verdicts, ", ".join(f"{k} {v:,}" for k, v in verdicts.items())))
        out.append((fj.keys["printed"], fj.printed, f"prints {fj.printed}"))
        out.append((fj.keys["error_upper"], fj.error_upper,
                    f"within {fj.error_upper:.3e}"))
        if fj.error_lower is not None:
            out.append((fj.keys["error_lower"], fj.error_lower, None))
    for f in r.headline + r.facts:
        if f.key is not None:
            out.append(((f.key,), f.value, f.shown() if f.label is not None else None))
    return out


def test_every_ball_path_returns_an_enclosure_result_whose_text_json_and_html_carry_the_same_facts(results):
    for name, r in results.items():
        assert isinstance(r, EnclosureResult), name
        data = strict(dumps(enclosure_json(r)))
        text = "\n".join(enclosure_lines(r))
        page = html.unescape(enclosure_html(r))
        if r.handover is not None:
            continue  # below
        assert text.splitlines()[0] in page, name
        for path, value, shown in _facts(r):
            if path is not None:  # an infinite measure is null (its reason: test_an_unbounded_ball_...)
                assert _at(data, path) == (None if isinstance(value, NonFinite) else json.loads(dumps(value))), name
            if shown is not None:
                assert shown in text and shown in page, (name, shown)


def test_auto_hands_over_to_exact_arithmetic_and_says_what_the_balls_left_open(results):
    solved, audited = results["solve model tie auto"], results["audit model tie auto"]
    for r, command in ((solved, "solve"), (audited, "audit")):
        assert r.handover is not None and r.handover.command == command
        data, text = enclosure_json(r), "\n".join(enclosure_lines(r))
        exact = r.handover.exact
        exact_lines = exact.lines if command == "solve" else audit_lines(exact)
        assert text.endswith("\n".join(exact_lines)) and "exactly (--backend auto)" in text
        assert data["ball"]["prec_bits"] == 128
    assert enclosure_json(solved)["ball"] == {"prec_bits": 128, "decisions": 1, "certified": 0}
    assert enclosure_json(audited)["ball"]["float_decisions"] == {CORRECT: 0, WRONG: 0, UNRESOLVED: 1}


# ---------------------------------------------------------------- the facts are true


def test_race_enclosures_contain_the_exact_answer_and_certify_its_rounding(results):
    from exactplay.games.race.table import solve_table

    for name, target in (("solve race ball", 30), ("solve race intervals", 30), ("solve race auto", 40),
                         ("solve race ball 24 bits", 40)):
        r = results[name]
        exact = solve_table(target, "mpq")
        assert r.answer.lower <= exact.answer <= r.answer.upper, name
        assert r.answer.decimal.rounded == decimal_digits(exact.answer, 8), name
        first = enclosure_json(r)["first_choice_T"]
        for key, (a, b) in (("after_player1_misses", (target, target)), ("after_player1_scores", (target - 1, target))):
            if first[key]["certified"]:
                assert first[key]["t"] == exact.best_t[(a, b)], (name, key)
    rounds = results["solve race auto"].decisions.rounds
    assert len(rounds) > 1 and rounds[0].unresolved > 0 and rounds[-1].unresolved == 0
    assert results["solve race ball 24 bits"].decisions.unresolved == rounds[0].unresolved


def test_race_audit_bounds_every_float_error_from_above_and_the_certified_one_from_below(results):
    from exactplay.games.race.table import solve_table

    exact, flt = solve_table(25, "mpq"), solve_table(25, "float")
    errors = {(a, b): abs(Fraction(flt.F[a][b]) - Fraction(exact.F[a][b]))
              for a in range(1, 26) for b in range(1, 26)}
    for name in ("audit race ball", "audit race auto"):
        fj = results[name].floats[0]
        assert Fraction(fj.error_upper) >= max(errors.values()), name
        if fj.error_lower_at is not None:
            assert Fraction(fj.error_lower) <= errors[fj.error_lower_at], name
        assert sum(fj.verdicts.values()) == 25 * 25 and fj.verdicts.get(WRONG, 0) == 0
        assert fj.printed == decimal_digits(Fraction(flt.answer), 8)
        assert fj.agrees == (fj.printed == decimal_digits(exact.answer, 8))


def test_hold_results_agree_with_exact_values_and_exact_ties(results):
    from exactplay.games.hold import exact_table, turn_of

    ex = exact_table(6, 3, "mpq")
    turns = {(c, h): turn_of(ex, c, h) for c in range(6) for h in range(6)}
    ties = sum(1 for (c, h), (_, hold, cont, _) in turns.items() for x in range(2, 6 - c + 1) if hold[x] == cont[x])
    for name in ("solve hold ball", "solve hold auto", "audit hold ball", "solve hold 16 bits"):
        r = results[name]
        assert r.answer.lower <= ex.V[0][0] <= r.answer.upper, name
        assert r.answer.decimal.rounded == decimal_digits(ex.V[0][0], 8), name
    from exactplay.numbers.balls import endpoints
    from exactplay.games.hold.ball import ball_table

    balls = ball_table(6, 3, 128).V
    widths = {(c, h): endpoints(balls[c][h])[1] - endpoints(balls[c][h])[0] for c in range(6) for h in range(6)}
    w = results["solve hold ball"].widths
    assert w.states == 36 and Fraction(w.largest) >= max(widths.values()) == widths[w.largest_at]
    auto = enclosure_json(results["solve hold auto"])["decisions"]
    assert auto["unresolved"] == ties == auto["unresolved_by_exact"]["exact tie"]
    audit = results["audit hold ball"]
    assert {fj.label for fj in audit.floats} == {"float solver", "published program"}
    for fj in audit.floats:
        assert fj.error_upper >= abs(fj.float_value - float(ex.V[0][0]))


def test_model_audit_bound_covers_the_float_errors_and_decisions_match_the_exact_engine(results, pig4):
    from exactplay.engine import solve_model
    from exactplay.engine.value_iteration import value_iteration

    sol, flt = solve_model(pig4, "mpq"), value_iteration(pig4)
    c0 = sol.components[0]  # exact values hold the certified components in order; the float one every component
    r = results["audit model"]
    worst = max(abs(Fraction(flt.values[s][c0]) - Fraction(sol.values[s][0])) for s in range(len(pig4)))
    assert Fraction(r.floats[0].error_upper) >= worst
    assert r.answer.lower <= sol.values[pig4.initial][0] <= r.answer.upper
    solved = results["solve model"]
    assert solved.decisions.certified + solved.decisions.unresolved == solved.decisions.total


# ---------------------------------------------------------------- strict JSON at the edges


def test_an_unbounded_ball_and_a_width_beyond_the_double_range_are_null_with_a_documented_reason(results):
    sticky = strict(dumps(enclosure_json(results["audit model sticky"])))
    assert_reasons_documented(sticky)
    enc = sticky["ball_decimal"]["run_enclosure"]
    assert all(enc[k] is None and enc[f"{k}_reason"].startswith("infinite: ") for k in ("lower", "upper", "width"))
    assert sticky["float_error_upper"] is None and sticky["float_error_upper_reason"].startswith("infinite: ")
    assert sticky["ball_decimal"]["decimal"] == "1.00000000"  # Ziv's loop went past 16 bits
    text = "\n".join(enclosure_lines(results["audit model sticky"]))
    assert "unbounded at 16 bits" in text
    assert sticky["widths"]["largest"] is None and sticky["widths"]["largest_reason"].startswith("infinite: ")
    huge = strict(dumps(enclosure_json(results["solve model huge"])))
    assert_reasons_documented(huge)
    assert huge["answer"]["run_enclosure"]["width_reason"].startswith("out of range: ")
    assert "e+399" in "\n".join(enclosure_lines(results["solve model huge"]))


def test_the_cli_prints_the_rendered_result_and_strict_json(capsys, models):
    status, out, err = run(capsys, "solve", "--model", models["sticky"], "--backend", "ball", "--prec", "16", "--json")
    assert status == 0 and "Traceback" not in err
    assert strict(out)["answer"]["run_enclosure"]["width"] is None
    status, out, err = run(capsys, "solve", "race", "--target", "5", "--backend", "ball", "-q")
    r = get_game("race").solve(target=5, backend=get_backend("ball"))  # the default method, as the CLI
    strip = [line.rsplit("(", 1)[0] for line in enclosure_lines(r)]  # the seconds differ
    assert status == 0 and [line.rsplit("(", 1)[0] for line in out.splitlines()] == strip


# ---------------------------------------------------------------- structure

BALL_MODULES = ["games/race/ball.py", "games/race/interval_report.py", "games/race/default_method.py", "games/race/wide.py", "games/hold/ball.py",
                "games/hold/ball_report.py", "audit/model_ball.py"]


def _strings(tree) -> list[str]:
    return [n.value for n in ast.walk(tree) if isinstance(n, ast.Constant) and isinstance(n.value, str)]


@pytest.mark.parametrize("module", BALL_MODULES)
def test_the_ball_modules_format_no_report_lines_by_hand(module):
    import re

    tree = ast.parse((SRC / module).read_text(encoding="utf-8"))
    names = {n.id for n in ast.walk(tree) if isinstance(n, ast.Name)} | {
        n.attr for n in ast.walk(tree) if isinstance(n, ast.Attribute)}
    imported = {a.name for n in ast.walk(tree) if isinstance(n, ast.ImportFrom) for a in n.names}
    assert not {"lines", "line", "Report", "print"} & (names | imported), module
    padded = [s for s in _strings(tree) if re.match(r"^\s*\w[\w ]*\w {2,}: ", s) or s.startswith(" " * 6)]
    assert not padded, f"{module}: hand-padded report text {padded}"
    for fn in (n for n in tree.body if isinstance(n, ast.FunctionDef) and n.name in ("solve_ball", "audit_ball",
                                                                                      "solve_interval")):
        assert ast.unparse(fn.returns) == "EnclosureResult", (module, fn.name)


def test_a_float_table_is_audited_exactly_only_so_no_ball_audit_of_a_table_bypasses_audit_result(capsys, tmp_path):
    table = tmp_path / "t.txt"
    table.write_text("1 1 0.5\n1 2 0.25\n2 1 0.75\n2 2 0.5\n", encoding="utf-8")
    for argv in (["audit", "race", "--target", "2"], ["audit", "--model", ROOT / "examples" / "loop-or-gamble.json"]):
        for backend in ("ball", "auto"):
            status, out, err = run(capsys, *argv, "--float-table", table, "--backend", backend)
            assert status == 2 and out == "" and "Traceback" not in err, (argv, backend)
            assert "--float-table is judged against exact values" in err and len(err.strip().splitlines()) == 1
