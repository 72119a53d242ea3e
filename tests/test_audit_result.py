"""The typed audit result and its one renderer (text, JSON, HTML), over every game and a user model."""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path

import pytest

from cli_run import strict
from exactplay.audit.judge import audit_decisions, audit_values
from exactplay.audit.result import AuditResult, DecisionVerdicts, Fact, FloatAudit, ValueErrors, answer_check
from exactplay.games import get_game
from exactplay.present.render import audit_html, audit_json, audit_lines
from exactplay.strict_json import dumps

ROOT = Path(__file__).resolve().parents[1]

SMALL = {
    "race": {"target": 3},
    "hold": {"target": 5, "faces": 3},
    "chefs": {"skills": "1,2/3,2/5,2/3"},
    "coins": {"coins": (Fraction(1, 10), Fraction(1, 5), Fraction(-1, 10)), "file": None},
    "war": {"ranks": 3, "suits": 2},
}


def _model_result() -> AuditResult:
    from exactplay.engine import solve_model
    from exactplay.engine.value_iteration import value_iteration
    from exactplay.audit.model import audit_model
    from exactplay.model import build_model
    from exactplay.model.load import make_game

    model = build_model(make_game(str(ROOT / "examples" / "pig.py") + ":make_game", {"goal": 3}))
    return audit_model(solve_model(model, "mpq"), value_iteration(model), "float value iteration")


def _results():
    out = [(name, get_game(name).audit(**params)) for name, params in SMALL.items()]
    return out + [("model", _model_result())]


pytestmark = pytest.mark.xdist_group("test_audit_result")  # one worker for this file: its module-scoped fixtures
# are built once per suite, not once in each of the two xdist workers (--dist loadgroup)


@pytest.fixture(scope="module")
def results():
    return _results()


def test_every_game_and_a_user_model_audit_to_an_audit_result(results):
    for name, result in results:
        assert isinstance(result, AuditResult), name
        assert result.audits and all(fa.values for fa in result.audits), name


def test_the_json_of_every_audit_result_is_strict_and_names_its_game_and_answer(results):
    for name, result in results:
        data = strict(dumps(audit_json(result)))
        assert data.get("game", data.get("model")) == (name if name != "model" else "Pig to 3"), name
        answers = [fa.answer for fa in result.audits if fa.answer is not None]
        assert answers, name
        for a in answers:  # the exact answer is in the JSON as p/q, beside its certified decimal
            where = data if next(fa for fa in result.audits if fa.answer is a).key is None else data[
                next(fa for fa in result.audits if fa.answer is a).key]
            assert Fraction(where[a.key]["value"]) == Fraction(a.exact) and where[a.key]["rounded"], name


def test_html_has_one_row_per_text_row_and_escapes(results):
    for name, result in results:
        lines = audit_lines(result)
        labels = sum(1 for fa in result.audits if fa.label)
        page = audit_html(result)
        assert page.count("<tr>") == len(lines) - 1 - labels, name
        assert "<script" not in page and "(1, 1) <" not in page


def _tiny() -> AuditResult:
    exact = {(0,): Fraction(0), (1,): Fraction(1, 3)}
    values = audit_values(exact, {(0,): 1e-300, (1,): 1 / 3})
    cands = {(s,): {"a": Fraction(s + 1), "b": Fraction(0)} for s in range(12)}
    decisions = audit_decisions(cands, None, {(s,): "b" for s in range(12)}, 1e-16)
    return AuditResult(
        game="toy <b>", params={"k": 1}, title="Audit of a toy",
        audits=[FloatAudit(answer=answer_check("V", Fraction(1, 3), 4, 1 / 3, 1e-16),
                           values=[ValueErrors("values", "V", values)],
                           decisions=[DecisionVerdicts("decisions", "choices", decisions)])],
        facts=[Fact("note", "a <note>", 1, "one & only")])


def test_an_infinite_measure_is_null_with_its_reason_in_json_and_says_why_in_text():
    result = _tiny()
    data = strict(dumps(audit_json(result)))
    assert data["values"]["max_rel_error"] is None
    assert data["values"]["max_rel_error_reason"] == "infinite: exact value 0, float 1e-300"
    assert "  max rel error : inf (exact value 0, float 1e-300) at (0,)" in audit_lines(result)


def test_wrong_decisions_are_counted_and_the_first_ten_listed_in_text_and_json():
    result = _tiny()
    data = audit_json(result)
    assert data["decisions"]["counts"]["wrong"] == 12 and data["decisions"]["wrong_count"] == 12
    assert data["decisions"]["wrong_cells"] == [[s] for s in range(10)]
    text = "\n".join(audit_lines(result))
    assert "wrong         : (0,), (1,)," in text and "(first 10 of 12)" in text


def test_html_escapes_labels_and_values():
    page = audit_html(_tiny())
    assert "a &lt;note&gt;" in page and "one &amp; only" in page and "<note>" not in page


def test_two_parts_under_one_json_key_are_refused():
    result = _tiny()
    result.facts.append(Fact("values", "again", 2))
    with pytest.raises(ValueError, match="two parts under the key 'values'"):
        audit_json(result)


def test_a_model_report_page_shows_the_solution_and_the_audit_as_tables(capsys, tmp_path):
    from cli_run import run

    status, _, err = run(capsys, "report", "--model", ROOT / "examples" / "loop-or-gamble.json", "-q", "-o", tmp_path)
    assert status == 0, err
    page = next(tmp_path.glob("*-report.html")).read_text(encoding="utf-8")
    assert page.count('<section class="solution">') == 1 and page.count('<section class="audit">') == 1
    assert "<th>exact ties</th>" in page and "max abs error" in page
