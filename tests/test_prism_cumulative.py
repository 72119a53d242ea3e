"""PRISM-games' cumulative reward ``R[Fc phi]``: a play that never reaches ``phi`` collects its rewards
forever (exactplay's own semantics of a play that never ends), against PRISM's ``R[F phi]``, where such a
play is worth +infinity.  ``tests/fixtures/prism/quit.prism`` has its values by hand in its comments;
PRISM's float value iteration (``audit``) is an independent computation of the same numbers.  stormpy is
imported plainly: without it this module fails, it does not skip.
"""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path

import pytest
import stormpy  # noqa: F401  -- required: reading PRISM needs it

from exactplay.interop.query import reward_variant
from cli_run import run, strict

FIX = Path(__file__).resolve().parent / "fixtures" / "prism"
QUIT = FIX / "quit.prism"


def solved(capsys, prop):
    status, out, err = run(capsys, "solve", "--model", QUIT, "--prop", prop, "--json", "-q")
    assert status == 0, err
    data = strict(out)
    return data, {r["name"]: r for r in data["state_values"]}


@pytest.mark.parametrize("prop,start,action,at_s1,action_s1", [
    ("most", "8/3", "go", "2/1", "a"),  # the coalition maximises: p2 pays 2 rather than 5/2
    ("least", "0/1", "quit", "5/2", "b"),  # the coalition minimises: quitting collects nothing, forever
])
def test_cumulative_reward_values_are_those_derived_by_hand(capsys, prop, start, action, at_s1, action_s1):
    data, rows = solved(capsys, prop)
    assert data["answer"]["value"] == start and rows["s=0"]["action"] == action
    assert rows["s=1"]["value"][0] == at_s1 and rows["s=1"]["action"] == action_s1
    assert rows["s=2"]["value"][0] == "3/1" and rows["s=4"]["value"][0] == "0/1"


def test_prisms_float_value_iteration_agrees_with_the_exact_cumulative_value(capsys):
    status, out, err = run(capsys, "audit", "--model", QUIT, "--prop", "most", "-q")
    assert status == 0, err
    assert "PRISM prints 2.6666666666666665, exact 2.6666666666666666" in out and "inf" not in out


def test_a_cumulative_reward_certificate_verifies(capsys, tmp_path):
    cert = tmp_path / "least.json"
    status, _, err = run(capsys, "certify", "--model", QUIT, "--prop", "least", "-o", cert)
    assert status == 0, err
    status, out, err = run(capsys, "check", cert)
    assert status == 0 and "1 of 1 certificate(s) verified" in out, (out, err)


def test_the_infinite_semantics_in_a_game_is_refused_and_points_to_fc(capsys):
    status, out, err = run(capsys, "solve", "-q", "--model", QUIT, "--prop", "infinite")
    assert status == 2 and out == "" and err.count("\n") == 1
    assert "some strategy never reaches the target" in err and "[Fc" in err


@pytest.mark.parametrize("prop,words", [
    ('<<p1>> R{"r"}max=? [F0 "done"]', "PRISM-games' F0 reward"),
    ('<<p1>> Pmax=? [Fc "done"]', "Fc is PRISM-games' reward until a target"),
])
def test_what_is_out_of_reach_of_the_reward_variants_is_one_line(capsys, prop, words):
    status, out, err = run(capsys, "solve", "-q", "--model", QUIT, "--prop", prop)
    assert status == 2 and out == "" and err.startswith("exactplay: error: ") and err.count("\n") == 1
    assert words in err and prop in err


def test_the_variant_is_read_from_the_operator_not_from_a_name():
    assert reward_variant('R{"t"}min=? [ Fc w1&w2 ]') == "c" and reward_variant("R=? [F0 x=1]") == "0"
    assert reward_variant("R=? [F Fc=1]") is None and reward_variant("R=? [F Fcount>2]") is None
    assert reward_variant("P=? [F x=1]") is None
