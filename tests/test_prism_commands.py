"""certify / check / audit / report / export / crosscheck of PRISM, PRISM-games and JANI models.

The certificate carries the explicit model and a ``source`` (file SHA-256, constants, property, the
answer at each initial state and its threshold), verified by the standard-library checker; the
audit runs PRISM's float value iteration; crosscheck runs Storm's exact engine on the file itself.
"""

from __future__ import annotations

import hashlib
import json
from fractions import Fraction
from pathlib import Path

import pytest
import stormpy  # noqa: F401  -- required: crosscheck and the models need it

from exactplay.checker.model import verify
from exactplay.errors import VerificationError
from exactplay.interop.prism_iteration import fixed_states, prism_value_iteration
from exactplay.interop.symbolic_model import load
from exactplay.model import Model
from exactplay.model.canonical import model_digest
from cli_run import run, strict

FIX = Path(__file__).resolve().parent / "fixtures" / "prism"
DUEL = '<<p1>> Pmax=? [F "won"]'


def certify(capsys, tmp_path, *args):
    out = tmp_path / "c.json"
    status, _, err = run(capsys, "certify", "-q", *args, "-o", out)
    assert status == 0, err
    return json.loads(out.read_text())


@pytest.mark.parametrize("args,value", [
    (("--model", FIX / "duel.prism", "--prop", DUEL), "5/8"),
    (("--model", FIX / "race.prism", "--prop", "alice"), "526/945"),
    (("--model", FIX / "gamble.pm", "--prop", "rolls"), "184/81"),
    (("--model", FIX / "knuth_die.pm", "--prop", "P>=1/6 [ F d=1 ]"), "1/6"),
    (("--model", FIX / "ruin_open.pm", "--const", "N=4,p=0.4", "--prop", 'P=? [F "rich"]'), "4/13"),
    (("--model", FIX / "bold.jani", "--prop", "goal"), "1/3"),
])
def test_certify_and_check(capsys, tmp_path, args, value):
    cert = certify(capsys, tmp_path, *args)
    assert cert["answer"]["value"] == value
    src = cert["source"]
    path = Path(args[1])
    assert src["file"] == path.name and src["file_sha256"] == hashlib.sha256(path.read_bytes()).hexdigest()
    assert src["initial_states"][0]["value"] == value and src["initial_states"][0]["state"] == 0
    summary = verify(cert)
    assert "initial state(s) verified" in summary and "recorded, not re-derived" in summary
    status, out, _ = run(capsys, "check", tmp_path / "c.json")
    assert status == 0 and "ok" in out


def test_certificate_records_constants_property_and_threshold(capsys, tmp_path):
    cert = certify(capsys, tmp_path, "--model", FIX / "ruin_open.pm", "--const", "N=4,p=0.4",
                   "--prop", 'P>=0.3 [F "rich"]')
    src = cert["source"]
    assert src["constants"] == {"N": "4", "p": "0.4"} and src["property"] == 'P>=0.3 [F "rich"]'
    assert src["model_type"] == "dtmc" and src["language"] == "prism"
    assert src["threshold"] == {"comparison": ">=", "bound": "3/10", "holds": True}
    assert src["initial_states"][0]["distance"] == "1/130"  # 4/13 - 3/10
    assert "threshold holds exactly" in verify(cert)


@pytest.mark.parametrize("edit,field", [
    (lambda s: s["initial_states"][0].update(value="1/2"), "source.initial_states.value"),
    (lambda s: s["initial_states"][0].update(name="x=9"), "source.initial_states.name"),
    (lambda s: s["initial_states"][0].update(distance="0/1"), "source.initial_states.distance"),
    (lambda s: s["initial_states"][0].update(holds=False), "source.initial_states.holds"),
    (lambda s: s["threshold"].update(holds=False), "source.threshold.holds"),
    (lambda s: s["threshold"].update(comparison="=="), "source.threshold.comparison"),
    (lambda s: s.update(model_type="mdp"), "source.model_type"),
    (lambda s: s.update(file_sha256="ABC"), "source.file_sha256"),
    (lambda s: s.update(extra=1), "source"),
    (lambda s: s["initial_states"].append(dict(s["initial_states"][0])), "source.initial_states.state"),
])
def test_a_forged_source_fails_naming_its_field(capsys, tmp_path, edit, field):
    cert = certify(capsys, tmp_path, "--model", FIX / "duel.prism", "--prop", '<<p1>> P>=0.6 [F "won"]')
    edit(cert["source"])
    with pytest.raises(VerificationError) as info:
        verify(cert)
    assert info.value.field == field, str(info.value)


def test_export_recreates_the_certified_model(capsys, tmp_path):
    cert = certify(capsys, tmp_path, "--model", FIX / "race.prism", "--prop", "alice")
    status, _, err = run(capsys, "export", "-q", "--model", FIX / "race.prism", "--prop", "alice", "--format", "json",
                         "-o", tmp_path / "m.json")
    assert status == 0, err
    assert model_digest(json.loads((tmp_path / "m.json").read_text())) == cert["model_sha256"]


def test_export_prism_of_a_game_is_built_by_storm(capsys, tmp_path):
    status, out, err = run(capsys, "export", "--model", FIX / "duel.prism", "--prop", DUEL, "--format", "prism",
                           "-o", tmp_path / "d.prism")
    assert status == 0, err and "PRISM smg" in out
    again = load(str(tmp_path / "d.prism"), None, "1")  # exactplay's own export read back, its .props beside it
    from exactplay.engine import solve_model

    assert solve_model(again.model, "mpq").values[0][0] == Fraction(5, 8)


@pytest.mark.parametrize("args", [
    ("--model", FIX / "gamble.pm", "--prop", "win"),
    ("--model", FIX / "gamble.pm", "--prop", "rolls"),
    ("--model", FIX / "knuth_die.pm", "--prop", "flips"),
    ("--model", FIX / "bold.jani", "--prop", "ruin"),
    ("--model", FIX / "race.prism", "--prop", "alice"),
    ("--model", FIX / "duel.prism", "--prop", DUEL),
])
def test_crosscheck_against_storm(capsys, args):
    status, out, err = run(capsys, "crosscheck", "-q", *args, "--json")
    assert status == 0, err
    data = strict(out)
    assert data["verdict"] == "agree" and all(c["compared"] == data["states"] for c in data["checks"])
    if args[1].name in ("race.prism", "duel.prism"):  # (the file name: a checkout path may contain "race")
        assert len(data["checks"]) == 2  # a game: each player fixed in turn
    else:
        assert data["checks"][0]["what"].endswith("Storm on the file itself")


def test_audit_shows_the_printed_digits_and_the_wrong_threshold_answers(capsys):
    status, out, err = run(capsys, "audit", "-q", "--model", FIX / "knuth_die.pm", "--prop", "P>=1/6 [ F s=7 & d=6 ]",
                           "--json")
    assert status == 0, err
    data = strict(out)
    (row,) = data["initial_states"]
    assert row["exact"] == "1/6" and row["exact_holds"] is True
    flt = row["float"]
    assert flt < 1 / 6 and row["float_holds"] is False and row["float_answer_right"] is False
    assert row["printed"] == repr(flt) and 0 < row["correct_digits"] < 17
    assert row["wrong_thresholds"] == f"({flt!r}, 1/6]"
    assert data["float_converged"]["converged"] is True and data["float_converged"]["method"] == "gauss-seidel"
    status, text, _ = run(capsys, "audit", "-q", "--model", FIX / "knuth_die.pm", "--prop", "P>=1/6 [ F s=7 & d=6 ]")
    assert "the float says false (WRONG)" in text and "significant digits right" in text


def test_audit_options_and_their_refusal(capsys):
    status, out, _ = run(capsys, "audit", "-q", "--model", FIX / "ruin.pm", "--prop", 'P=? [F "rich"]',
                         "--float-method", "jacobi", "--epsilon", "1e-12", "--json")
    data = strict(out)
    assert status == 0 and data["float_converged"]["method"] == "jacobi"
    assert abs(data["initial_states"][0]["float"] - 4 / 13) < 1e-11
    status, _, err = run(capsys, "audit", "--model", FIX / "ruin.pm", "--prop", 'P=? [F "rich"]', "--epsilon", "2")
    assert status == 2 and "--epsilon" in err
    status, _, err = run(capsys, "audit", "--model", FIX.parent / "storm" / "gamblers_ruin.drn", "--objective", "Pmax",
                         "--target", "goal", "--float-method", "jacobi")
    assert status == 2 and "--float-method is not used with a DRN model: PRISM's float iteration is for a PRISM" in err


def test_report_writes_the_page(capsys, tmp_path):
    status, out, err = run(capsys, "report", "-q", "--model", FIX / "duel.prism", "--prop", DUEL, "-o", tmp_path / "r")
    assert status == 0, err
    page = (tmp_path / "r" / "duel-report.html").read_text()
    assert "5/8" in page and "s=0" in page and "PRISM" in page


def _chain(n_loop: Fraction) -> Model:
    """state 0 loops with probability n_loop, else reaches the target (state 1)."""
    return Model("chain", 1, ["p"], "max", ["a", "goal"], [None, (Fraction(1),)], [None, None], [[None], []],
                 [[((0, n_loop), (1, 1 - n_loop))], []], [[None], []])


def test_prism_jacobi_divides_out_a_dtmc_self_loop():
    # x = 1/2 x + 1/2: PRISM's Jacobi method solves it in one sweep (x = (1/2) / (1 - 1/2)); value iteration
    # halves the error each sweep
    m = _chain(Fraction(1, 2))
    jac = prism_value_iteration(m, method="jacobi", dtmc=True)
    assert jac.values[0][0] == 1.0 and jac.sweeps <= 2
    # precomputation: state 0 reaches the target almost surely, so it is fixed at 1 before any sweep
    zero, one = fixed_states(m, [1, 1])
    assert one == {0, 1} and zero == set()


def test_precomputation_of_a_game():
    loaded = load(str(FIX / "duel.prism"), None, DUEL)
    m = loaded.model
    signs = [1 if mv is None else m.keys()[mv][1] for mv in m.mover]
    zero, one = fixed_states(m, signs)
    names = {m.state_name(s) for s in one}
    assert names == {"s=2"}  # only the win itself is sure: p2 can always make p1 lose
    assert {m.state_name(s) for s in zero} == {"s=3"}
    flt = prism_value_iteration(m)
    assert flt.values[0][0] == 0.625 and flt.converged


def test_qvbs_result_file(capsys, tmp_path):
    out = tmp_path / "r.json"
    status, _, err = run(capsys, "solve", "-q", "--model", FIX / "ruin_open.pm", "--const", "N=4,p=0.4", "--prop",
                         'P=? [F "rich"]', "--qvbs-result", out)
    assert status == 0, err
    data = strict(out.read_text())
    assert data["benchmark"]["parameters"] == [{"name": "N", "value": 4}, {"name": "p", "value": "0.4"}]
    (entry,) = data["data"]
    assert entry["value"] == {"approx": 4 / 13, "num": 4, "den": 13} and entry["formula"] == 'P=? [F "rich"]'
    assert data["tool"]["variant"] == ["exact"] and data["benchmark"]["file-sha256"] == hashlib.sha256(
        (FIX / "ruin_open.pm").read_bytes()).hexdigest()
    status, _, err = run(capsys, "solve", "-q", "--model", FIX / "gamble.pm", "--prop", "win", "--qvbs-result", out)
    assert status == 0 and strict(out.read_text())["data"][0]["property"] == "win"
    status, _, err = run(capsys, "solve", "-q", "--model", FIX / "knuth_die.pm", "--prop", "3", "--qvbs-result", out)
    entry = strict(out.read_text())["data"][0]
    assert entry["value"] is True and entry["exact-value"]["num"] == 1 and entry["exact-value"]["den"] == 6


def test_qvbs_integers_of_any_length():
    import sys

    from exactplay.interop.qvbs_result import _number, qvbs_text

    big = Fraction(3 ** 9000, 2 ** 20000 + 1)
    text = qvbs_text({"data": [{"value": _number(big)}]})
    old = sys.get_int_max_str_digits()
    sys.set_int_max_str_digits(0)
    try:
        back = json.loads(text)["data"][0]["value"]
    finally:
        sys.set_int_max_str_digits(old)
    assert Fraction(back["num"], back["den"]) == big and back["approx"] == float(big)


LOOPY = """mdp
module m
  s : [0..3] init 0;   // 1: stuck for ever, 3: the goal
  [a] s=0 -> (s'=1);
  [b] s=0 -> (s'=2);
  [] s=1 -> true;
  [c] s=2 -> 1/2 : (s'=3) + 1/2 : (s'=2);
  [] s=3 -> true;
endmodule
rewards "cost" [a] true : 1; [b] true : 5; [c] true : 1; endrewards
label "goal" = s=3;
"""


def test_infinite_expected_rewards_have_storms_semantics(capsys, tmp_path):
    path = tmp_path / "loopy.pm"
    path.write_text(LOOPY)
    status, out, err = run(capsys, "solve", "-q", "--model", path, "--prop", 'R{"cost"}min=? [F "goal"]', "--json",
                           "--all")
    assert status == 0, err
    data = strict(out)
    rows = {r["name"]: r for r in data["state_values"]}
    assert data["initial_states"][0]["value"] == "7/1"  # b (5), then c until the goal: 2 expected steps
    assert rows["s=1"]["value"] is None and rows["s=1"]["value_reason"].startswith("infinite")
    status, out, err = run(capsys, "crosscheck", "-q", "--model", path, "--prop", 'R{"cost"}min=? [F "goal"]', "--json")
    assert status == 0 and strict(out)["verdict"] == "agree", err
    cert = certify(capsys, tmp_path, "--model", path, "--prop", 'R{"cost"}max=? [F "goal"]')
    assert cert["source"]["initial_states"][0]["value"] is None and "initial state(s) verified" in verify(cert)
    cert = certify(capsys, tmp_path, "--model", path, "--prop", 'R{"cost"}>=100 [F "goal"]')  # Rmin >= 100? no: 7
    assert cert["source"]["threshold"]["holds"] is False and "threshold fails exactly" in verify(cert)
    out = tmp_path / "r.json"
    status, _, err = run(capsys, "solve", "-q", "--model", path, "--prop", 'R{"cost"}max=? [F "goal"]',
                         "--qvbs-result", out)
    assert status == 0 and strict(out.read_text())["data"][0]["value"]["infinite"] is True
    status, _, err = run(capsys, "audit", "--model", path, "--prop", 'R{"cost"}max=? [F "goal"]')
    assert status == 2 and "infinite" in err and err.count("\n") == 1
    status, out, err = run(capsys, "audit", "-q", "--model", path, "--prop", 'R{"cost"}min=? [F "goal"]', "--json")
    assert status == 0, err
    assert abs(strict(out)["initial_states"][0]["float"] - 7) < 1e-5  # PRISM's infinity states fixed: it converges


def test_the_answer_names_the_coalition_that_optimises(capsys):
    """<<bob>> Pmin: the coalition <<bob>> minimises alice's chance (before: "alice minimises", the name of
    the model's first side, whichever side the property put into the coalition)."""
    prism = Path(__file__).resolve().parent.parent / "examples" / "step-or-jump.prism"
    status, out, _ = run(capsys, "solve", "--model", prism, "--const", "GOAL=4", "--prop", "spoil")
    assert status == 0 and "(<<bob>> minimises):" in out and "3308/6125" in out
    status, out, _ = run(capsys, "solve", "--model", prism, "--const", "GOAL=4", "--prop", "alice")
    assert status == 0 and "(<<alice>> maximises):" in out and "3308/6125" in out


def test_audit_keeps_the_zeros_after_the_point_of_a_small_exact_value(capsys, tmp_path):
    small = tmp_path / "small.pm"  # P[F s=1] = 1/40 = 0.025 (it was shown as 'exact 2.5')
    small.write_text("dtmc\nmodule m\n  s : [0..2] init 0;\n  [] s=0 -> 1/40 : (s'=1) + 39/40 : (s'=2);\n"
                     "  [] s>0 -> true;\nendmodule\n")
    status, out, err = run(capsys, "audit", "-q", "--model", small, "--prop", "P=? [ F s=1 ]", "--json")
    assert status == 0, err
    (row,) = strict(out)["initial_states"]
    assert row["exact"] == "1/40" and row["printed"] == "0.025" and row["exact_decimal"] == "0.025"
    assert row["correct_digits"] == 2 and row["wrong_digits"] == ""
