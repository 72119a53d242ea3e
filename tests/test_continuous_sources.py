"""PRISM sources of a CTMC and a Markov automaton, built by Storm, are solved as their embedded model (the
CTMC's rates over Storm's exit rates, a rate reward over the mean sojourn, ``T`` the expected time): the
hand-derived values of tests/test_drn_continuous.py, Storm's own values in every state (``crosscheck``),
a certificate that verifies, and one-line refusals of what has no exact answer (time bounds) or no
meaning (``T`` in discrete time)."""

from __future__ import annotations

from fractions import Fraction as Q

import pytest

from exactplay.cli.main import main
from exactplay.engine import solve_model
from exactplay.interop.symbolic_model import load
from exactplay.model import ModelError

# the CTMC of tests/test_drn_continuous.py: up a ladder at rate 2, back to 0 at rate 1/2
CTMC = """ctmc
module m
  x : [0..3] init 0;
  [] x<3 -> 2 : (x'=x+1) + 1/2 : (x'=0);
  [] x=3 -> 1 : (x'=3);
endmodule
label "done" = x=3;
rewards "time" x<3 : 1; endrewards
rewards "tr" [] x=1 : 3; endrewards
rewards "rate" x=1 : 3; endrewards
"""

# the Markov automaton of tests/test_drn_continuous.py: Markovian 0 and 2, probabilistic 1 (a: impulse 5, or b)
MA = """ma
module m
  s : [0..3] init 0;
  <> s=0 -> 2 : (s'=1) + 3 : (s'=2);
  [a] s=1 -> 0.5 : (s'=3) + 0.5 : (s'=0);
  [b] s=1 -> 1 : (s'=2);
  <> s=2 -> 1 : (s'=3) + 1 : (s'=0);
  <> s=3 -> 1 : (s'=3);
endmodule
label "done" = s=3;
rewards "im" [a] true : 5; endrewards
"""


@pytest.fixture
def sources(tmp_path):
    (tmp_path / "c.prism").write_text(CTMC)
    (tmp_path / "m.prism").write_text(MA)
    return tmp_path


def initial_value(path, prop: str) -> Q:
    loaded = load(str(path), None, prop)
    return Q(solve_model(loaded.model).values[0][0])


@pytest.mark.parametrize("file, prop, value", [
    ("c.prism", 'T=? [F "done"]', Q(61, 32)),
    ("c.prism", 'R{"time"}=? [F "done"]', Q(61, 32)),
    ("c.prism", 'R{"tr"}=? [F "done"]', Q(75, 16)),  # an impulse 3 each time 1 is left
    # a rate 3 in 1, a visit 6/5: R0 = R0/5 + 4/5 R1, R1 = 6/5 + R0/5 + 4/5 R2, R2 = R0/5
    ("c.prism", 'R{"rate"}=? [F "done"]', Q(15, 8)),
    ("c.prism", 'P=? [F "done"]', 1),
    ("m.prism", 'Tmin=? [F "done"]', 1),
    ("m.prism", 'Tmax=? [F "done"]', Q(7, 5)),
    ("m.prism", 'R{"im"}max=? [F "done"]', 4),
])
def test_a_continuous_time_source_has_the_embedded_model_s_value(sources, file, prop, value):
    assert initial_value(sources / file, prop) == value


@pytest.mark.parametrize("file, prop", [("c.prism", 'T=? [F "done"]'), ("c.prism", 'R{"tr"}=? [F "done"]'),
                                        ("c.prism", 'R{"rate"}=? [F "done"]'),
                                        ("m.prism", 'Tmax=? [F "done"]'), ("m.prism", 'R{"im"}min=? [F "done"]')])
def test_storm_gives_the_same_value_in_every_state(sources, file, prop, capsys):
    assert main(["crosscheck", "--model", str(sources / file), "--prop", prop]) == 0
    out = capsys.readouterr().out
    assert "4/4 states equal exactly" in out and "verdict: agree" in out
    assert ("CTMC, Storm on the file itself" if file == "c.prism" else "MA, Storm on the file itself") in out


def test_a_certificate_of_a_ctmc_s_expected_time_verifies(sources, capsys):
    out = sources / "c.json"
    assert main(["certify", "--model", str(sources / "c.prism"), "--prop", 'T=? [F "done"]', "-o", str(out)]) == 0
    assert main(["check", str(out)]) == 0
    assert "1 of 1 certificate(s) verified" in capsys.readouterr().out


@pytest.mark.parametrize("prop", ['P=? [F<=3 "done"]', 'P=? [true U<=1/2 "done"]', 'R{"time"}=? [C<=2]',
                                  'R{"time"}=? [I=2]'])
def test_a_time_bound_in_continuous_time_is_refused_in_one_line(sources, prop):
    with pytest.raises(ModelError, match="a time bound in a continuous-time model: its value is in general irrational"):
        load(str(sources / "c.prism"), None, prop)


def test_a_markov_automaton_s_certificate_names_its_type_and_a_forged_type_fails(sources, capsys):
    import json

    out = sources / "m.json"
    assert main(["certify", "--model", str(sources / "m.prism"), "--prop", 'Tmax=? [F "done"]', "-o", str(out)]) == 0
    cert = json.loads(out.read_text())
    assert cert["source"]["model_type"] == "ma" and main(["check", str(out)]) == 0
    cert["source"]["model_type"] = "ctmc"  # a CTMC's embedded chain has no choice: state 1 has two
    out.write_text(json.dumps(cert))
    capsys.readouterr()
    assert main(["check", str(out)]) == 1
    assert "a CTMC has no state with two actions (field 'source.model_type')" in capsys.readouterr().err
