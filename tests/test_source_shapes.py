"""Shapes of PRISM/JANI models from outside (a sweep over QVBS's models, 2026-12-04) that exactplay got
wrong or refused: a target over an array (``a[0] = 1``) is propositional, not a nested operator; a second
build of a JANI model (``crosscheck``) parses it again (Storm's build changes it in place); a threshold
property is cross-checked on its values; a Markov automaton with a hybrid state is closed first (maximal
progress: it leaves by its probabilistic choice at once); a choice Storm cannot describe is named by its
index; ``T`` in discrete time is the expected number of steps, as Storm's; JANI's step bound (``Usteps<=k``) is
a step bound."""

from __future__ import annotations

from fractions import Fraction as Q
from pathlib import Path

import pytest

from exactplay.cli.main import main
from exactplay.engine import solve_model
from exactplay.interop import symbolic_model
from exactplay.interop.symbolic_model import load

FIXTURES = Path(__file__).parent / "fixtures"


def value(path, prop: str) -> Q:
    return Q(solve_model(load(str(path), None, prop).model).values[0][0])


def test_a_target_over_an_array_is_read_and_a_jani_model_is_built_again_for_storm(capsys):
    jani = FIXTURES / "array-target.jani"  # flip: a[0] or a[1] set with 1/2 each, while a[0] = 0; stay
    assert value(jani, "first") == 1  # flipping until a[0] is set
    assert main(["crosscheck", "--model", str(jani), "--prop", "first"]) == 0
    out = capsys.readouterr().out
    assert "4/4 states equal exactly" in out and "verdict: agree" in out


def test_a_jani_step_bound_usteps_is_a_step_bound(capsys):
    jani = FIXTURES / "array-target.jani"  # within 2 steps: 1/2 at the first flip, else (a[1] set) 1/2 at the second
    assert value(jani, "within2") == Q(3, 4)
    assert main(["crosscheck", "--model", str(jani), "--prop", "within2"]) == 0
    assert "verdict: agree" in capsys.readouterr().out


THRESHOLD = """mdp
module m
  x : [0..2] init 0;
  [a] x=0 -> 1/2 : (x'=1) + 1/2 : (x'=2);
  [b] x=0 -> (x'=2);
  [] x>0 -> true;
endmodule
"""


@pytest.mark.parametrize("prop", ["P>=1/2 [F x=1]", "Pmax>=1/2 [F x=1]", "P<1/3 [F x=1]"])
def test_a_threshold_is_cross_checked_on_the_values(tmp_path, capsys, prop):
    (tmp_path / "t.prism").write_text(THRESHOLD)
    assert main(["crosscheck", "--model", str(tmp_path / "t.prism"), "--prop", prop]) == 0
    out = capsys.readouterr().out
    assert "3/3 states equal exactly" in out and "verdict: agree" in out


HYBRID = """ma
module m
  s : [0..2] init 0;
  <> s=0 -> 1 : (s'=2);
  [go] s=0 -> (s'=1);
  <> s=1 -> 1/2 : (s'=2);
  <> s=2 -> 1 : (s'=2);
endmodule
label "done" = s=2;
"""


def test_a_hybrid_state_of_a_markov_automaton_leaves_by_its_probabilistic_choice_at_once(tmp_path, capsys):
    # maximal progress: at 0 time cannot pass while go is enabled, so 0 -> 1 at once, then 2 time units on average;
    # the Markovian choice at 0 (to done after 1 time unit) is never taken
    (tmp_path / "h.prism").write_text(HYBRID)
    assert value(tmp_path / "h.prism", 'Tmin=? [F "done"]') == 2 == value(tmp_path / "h.prism", 'Tmax=? [F "done"]')
    assert main(["crosscheck", "--model", str(tmp_path / "h.prism"), "--prop", 'Tmin=? [F "done"]']) == 0
    assert "verdict: agree" in capsys.readouterr().out


def test_a_choice_storm_cannot_describe_is_named_by_its_label_or_index(tmp_path, monkeypatch):
    (tmp_path / "t.prism").write_text(THRESHOLD.replace("[a]", "[]").replace("[b]", "[]"))
    real = symbolic_model._choice_names

    def failing(arrays, built):
        class Origins:
            def get_choice_info(self, r):
                raise MemoryError  # (what stormpy raises on some of QVBS's bitcoin-attack choices)

        class Built:
            choice_origins = Origins()

            def has_choice_origins(self):
                return True

        return real(arrays, Built())

    monkeypatch.setattr(symbolic_model, "_choice_names", failing)
    loaded = load(str(tmp_path / "t.prism"), None, "Pmax=? [F x=1]")
    assert Q(solve_model(loaded.model).values[0][0]) == Q(1, 2)
    assert sorted(loaded.model.actions[0]) == ["choice 0", "choice 1"]


def test_expected_time_in_discrete_time_is_the_expected_number_of_steps(tmp_path, capsys):
    (tmp_path / "t.prism").write_text(THRESHOLD.replace("[] x>0 -> true;", "[] x=1 -> (x'=2);\n  [] x=2 -> true;"))
    # from 0: a reaches 2 in one step or in two (through 1), b in one
    assert value(tmp_path / "t.prism", "Tmax=? [F x=2]") == Q(3, 2)
    assert value(tmp_path / "t.prism", "Tmin=? [F x=2]") == 1
    assert main(["crosscheck", "--model", str(tmp_path / "t.prism"), "--prop", "Tmax=? [F x=2]"]) == 0
    assert "verdict: agree" in capsys.readouterr().out
