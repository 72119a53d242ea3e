"""Step bounds ``P[F<=k phi]``, ``P[phi U<=k psi]`` and ``R[C<=k]``: the model unrolled over the steps left
(:mod:`exactplay.interop.step_bound`).  Values by hand from the fixtures' rules, the MDP's also against
Storm's own bounded model checking (``crosscheck``); a game's certificate verifies.  stormpy is imported
plainly: without it this module fails, it does not skip.
"""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path

import pytest
import stormpy  # noqa: F401  -- required: reading PRISM needs it

from exactplay.interop.symbolic_model import load
from exactplay.engine import solve_model
from cli_run import run, strict

FIX = Path(__file__).resolve().parent / "fixtures" / "prism"


def initial_value(name, prop):
    loaded = load(str(FIX / name), None, prop)
    sol = solve_model(loaded.model, "mpq")
    return Fraction(int(str(sol.values[loaded.initial[0]][0].numerator)),
                    int(str(sol.values[loaded.initial[0]][0].denominator)))


@pytest.mark.parametrize("name,prop,value", [
    # gamble: +1 or +2 per roll (1/3 each; 1/3 bust) to 5: within 3 rolls, 4 of the 8 sequences of +1/+2
    ("gamble.pm", 'Pmax=? [F<=3 "win"]', Fraction(4, 27)),
    ("gamble.pm", 'Pmax=? [!bust U<=3 "win"]', Fraction(4, 27)),
    ("gamble.pm", 'Pmax=? [F<3 "win"]', Fraction(0)),  # two rolls reach 4 at most
    ("gamble.pm", 'Pmax=? [F<=0 "win"]', Fraction(0)),
    ("gamble.pm", 'Pmax=? [F<=9 "win"]', Fraction(59, 243)),  # the unbounded value: 5 rolls at most
    ("gamble.pm", 'Pmin=? [F<=3 "win"]', Fraction(0)),
    # duel: within 2 steps p1's fair 1/2, p2 then plays b (back, no step left to win): 1/2; within 3 steps
    # p2's a and b both give 1/4 (b: 1/2 * p1's 1-step 1/2), so 1/2 + 1/8
    ("duel.prism", '<<p1>> Pmax=? [F<=2 "won"]', Fraction(1, 2)),
    ("duel.prism", '<<p1>> Pmax=? [F<=3 "won"]', Fraction(5, 8)),
    ("duel.prism", '<<p1>> Pmax=? [F<=1 "won"]', Fraction(1, 2)),
    # R[C<=k]: the reward of the first k steps; gamble's rolls: the first, then the second unless bust (2/3)
    ("gamble.pm", 'R{"rolls"}max=? [C<=2]', Fraction(5, 3)),
    ("gamble.pm", 'R{"rolls"}max=? [C<=9]', Fraction(184, 81)),  # the unbounded Rmax: 5 rolls at most
    ("gamble.pm", 'R{"rolls"}min=? [C<=2]', Fraction(0)),  # stop at once
    ("knuth_die.pm", 'R{"flips"}=? [C<=3]', Fraction(3)),  # Knuth's die flips in each of its first 3 steps
    ("knuth_die.pm", 'R{"flips"}=? [C<=0]', Fraction(0)),
])
def test_step_bounded_values_are_those_derived_by_hand(name, prop, value):
    assert initial_value(name, prop) == value


@pytest.mark.parametrize("name,prop", [("gamble.pm", 'Pmax=? [F<=4 "win"]'), ("gamble.pm", 'R{"rolls"}max=? [C<=3]'),
                                       ("knuth_die.pm", 'R{"flips"}=? [C<=4]')])
def test_the_step_bounded_value_equals_storms_bounded_model_checking(capsys, name, prop):
    status, out, err = run(capsys, "crosscheck", "--model", FIX / name, "--prop", prop)
    assert status == 0 and "verdict: agree" in out and "step bound" in out, (out, err)


def test_states_are_named_with_the_steps_left_and_the_game_certificate_verifies(capsys, tmp_path):
    status, out, err = run(capsys, "solve", "-q", "--model", FIX / "duel.prism", "--prop", '<<p1>> Pmax=? [F<=3 "won"]',
                           "--json")
    assert status == 0, err
    rows = {r["name"]: r for r in strict(out)["state_values"]}
    assert rows["s=0, 3 steps left"]["value"][0] == "5/8" and rows["s=0, 3 steps left"]["action"].endswith("s'=1")
    assert rows["s=1, 2 steps left"]["tied_actions"]  # a and b: 1/4 each
    assert "s=0, 1 step left" in rows and "s=2, 0 steps left" in rows
    cert = tmp_path / "d.json"
    assert run(capsys, "certify", "--model", FIX / "duel.prism", "--prop", '<<p1>> Pmax=? [F<=3 "won"]', "-o", cert)[0] == 0
    status, out, err = run(capsys, "check", cert)
    assert status == 0 and "1 of 1 certificate(s) verified" in out, (out, err)


@pytest.mark.parametrize("prop,words", [
    ('Pmax=? [F<0 "win"]', "leaves no step"),
    ('Pmax=? [F[1,3] "win"]', "only a step bound"),
    ('R{"rolls"}max=? [F<=3 "win"]', "only a step bound"),
    ('R{"rolls"}max=? [C<3]', "only C<=k"),
])
def test_other_bounds_are_refused_in_one_line(capsys, prop, words):
    status, out, err = run(capsys, "solve", "-q", "--model", FIX / "gamble.pm", "--prop", prop)
    assert status == 2 and out == "" and err.count("\n") == 1 and words in err
