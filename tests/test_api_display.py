"""Notebook display and repr of the API's results (and of the engine's own Solution and Model): short
whatever the size, a compact HTML table with the value, decimal, policy, ties, margin and verdicts."""

import json
from html.parser import HTMLParser
from pathlib import Path

import pytest

import exactplay as xp
from exactplay.engine import solve as engine_solve
from exactplay.games import MODELS

ROOT = Path(__file__).resolve().parent.parent
PIG = str(ROOT / "examples" / "pig.py") + ":make_game"
REPR_LIMIT = 400


class _Cells(HTMLParser):
    """The text of every cell, and a check that every tag opened is closed in order."""

    def __init__(self):
        super().__init__()
        self.open, self.cells = [], []

    def handle_starttag(self, tag, attrs):
        self.open.append(tag)

    def handle_endtag(self, tag):
        assert self.open.pop() == tag

    def handle_data(self, data):
        self.cells.append(data)


def cells(fragment: str) -> str:
    p = _Cells()
    p.feed(fragment)
    p.close()
    assert p.open == []
    return " | ".join(p.cells)


pytestmark = pytest.mark.xdist_group("test_api_display")  # one worker for this file: its module-scoped fixtures
# are built once per suite, not once in each of the two xdist workers (--dist loadgroup)


@pytest.fixture(scope="module")
def pig20():
    return xp.solve(PIG, goal=20)


def test_reprs_are_short_whatever_the_size(pig20):
    big = xp.solve("race", target=60)  # a value of some 300 digits, 3,600 choice states
    audit = xp.audit(pig20)
    for obj in (pig20, big, audit, pig20.values(), pig20.policy, pig20.engine, pig20.model, big.engine):
        assert len(repr(obj)) <= REPR_LIMIT, repr(obj)[:500]
    assert "15116544/24557443" in repr(pig20) and "0.61555855" in repr(pig20)
    assert "digits" in repr(big) and "..." in repr(big)
    assert "certified 5,852" in repr(audit)


def test_the_engine_solution_repr_names_the_model_not_its_numbers(pig20):
    text = repr(pig20.engine)
    assert text.startswith("Solution(model 'Pig to 20', 6,576 states") and "5,852 choice states" in text
    assert repr(engine_solve(MODELS["race"](target=2))).endswith("4 choice states, 0 ties)")
    assert repr(pig20.model) == "Model('Pig to 20', 6,576 states, 2 players, objective auto)"


def test_the_solution_table(pig20):
    text = cells(pig20._repr_html_())
    for part in ("exactplay solution", "value | 15116544/24557443", "decimal | 0.61555855",
                 "'roll' at the initial state", "5,852 with a choice", "ties | none",
                 "smallest margin | 2.314e-01 at (0, 0, 0, 2)", "witness | termination"):
        assert part in text, (part, text)
    ties = cells(xp.solve(str(ROOT / "examples" / "loop-or-gamble.json"))._repr_html_())
    assert "ties | 1 states ('start')" in ties


def test_the_audit_table_and_the_check_table(pig20, tmp_path):
    floats = {s: -float(v) for s, v in pig20.values().items()}
    text = cells(xp.audit(pig20, floats, bound=1e-12)._repr_html_())
    assert "decisions | certified 0, wrong 5,852, ties 0, unresolved 0" in text and "DIFFER" in text
    assert "bound | 1.000e-12" in text and "wrong | (0, 0, 0, 2)" in text
    good = xp.certify("race", tmp_path / "race.json", target=2)
    cert = json.loads(good.read_text())
    cert["solution"]["values"][3] = ["1/2", "1/2"]
    (tmp_path / "tampered.json").write_text(json.dumps(cert))
    results = xp.check(tmp_path)
    text = cells(results._repr_html_())
    assert "exactplay check: 1 of 2 FAILED" in text and "(field 'solution.values', state 3)" in text
    assert "ok | ok" in cells(results[0]._repr_html_())
    assert repr(results) == "<CheckResults 1 of 2 verified>" and len(repr(results[1])) <= REPR_LIMIT


def test_html_is_escaped():
    class Odd:
        name = "<script>alert(1)</script>"
        num_players = 1

        def initial_state(self):
            return "<s>"

        def is_terminal(self, s):
            return s == "end"

        def payoff(self, s):
            return (1,)

        def mover(self, s):
            return 0

        def actions(self, s):
            return ["<go>", "&stay"]

        def transitions(self, s, a):
            return [(1, "end")]

    fragment = xp.solve(Odd())._repr_html_()
    assert "<script>" not in fragment and "&lt;script&gt;" in fragment
    assert "ties | 1 states ('<s>')" in cells(fragment)
