"""Chef Showdown certificates: the independent checker accepts true ones and rejects
one corrupted value, one corrupted choice, answer, ties, skills -- naming field and state."""

from __future__ import annotations

import copy
import json
from fractions import Fraction
from pathlib import Path

import pytest

from exactplay.certificate import encode_table, write_certificate
from exactplay.checker import Table, check_certificate, check_file
from exactplay.cli import main
from exactplay.errors import VerificationError
from exactplay.games import chefs

PROOFS = Path(__file__).resolve().parent.parent / "proofs" / "chefs"


@pytest.fixture(scope="module")
def full_cert():
    return chefs.certify(n=4)


@pytest.fixture(scope="module")
def policy_cert():
    cert = chefs.certify(n=9)
    assert cert["full_table"] is False
    return cert


def with_rows(cert, change):
    """A copy of ``cert`` whose table rows went through ``change``, digest recomputed."""
    cert = copy.deepcopy(cert)
    rows = Table.from_certificate(cert).rows
    change(rows)
    cert["table"], cert["table_sha256"] = encode_table(cert["table"]["columns"], rows)
    return cert


def row_of(rows, mask, mover):
    return next(r for r in rows if r[0] == mask and r[1] == mover)


def rejects(cert, field, state=None):
    with pytest.raises(VerificationError) as exc:
        check_certificate(cert)
    assert exc.value.field == field, str(exc.value)
    if state is not None:
        assert exc.value.state == state, str(exc.value)
    return str(exc.value)


def test_true_certificates_verify(full_cert, policy_cert):
    assert "E(4) = 10.43618340 verified" in check_certificate(full_cert)
    assert "E(9) = 101.92398165 verified" in check_certificate(policy_cert)
    assert "0 exact ties" in check_certificate(chefs.certify(skills="1/4,1/2,1"))


def test_corrupted_value_is_rejected_naming_the_state(full_cert):
    def bump(rows):
        r = row_of(rows, 0b0111, 1)
        x = Fraction(r[4]) + Fraction(1, 10**9)  # W_{{1,2,3},1}(1), nudged
        r[4] = f"{x.numerator}/{x.denominator}"
    msg = rejects(with_rows(full_cert, bump), "table", "alive {1,2,3} mover 1")
    assert "W(chef 1)" in msg


def test_corrupted_dish_count_is_rejected_naming_the_state(full_cert):
    def bump(rows):
        r = row_of(rows, 0b1111, 1)
        num, den = map(int, r[3].split("/"))
        r[3] = f"{num + den}/{den}"  # D + 1
    assert "D does not satisfy" in rejects(with_rows(full_cert, bump), "table", "alive {1,2,3,4} mover 1")


def test_corrupted_choice_in_full_table_is_rejected_naming_the_state(full_cert):
    def retarget(rows):
        r = row_of(rows, 0b1111, 1)
        r[2] = next(j for j in (2, 3, 4) if j != r[2])
    rejects(with_rows(full_cert, retarget), "table", "alive {1,2,3,4} mover 1")


def test_suboptimal_choice_in_policy_certificate_is_rejected(policy_cert):
    ties = {(m, t) for m, t, _ in policy_cert["ties"]}

    def retarget(rows):
        r = next(r for r in rows if r[0] == 0b111100000 and (r[0], r[1]) not in ties)
        others = [i + 1 for i in range(9) if r[0] >> i & 1 and i + 1 not in (r[1], r[2])]
        r[2] = others[0]
        retarget.state = chefs.chef_set(r[0]).replace("{", "alive {") + f" mover {r[1]}"
    msg = rejects(with_rows(policy_cert, retarget), "policy")
    assert retarget.state == "alive {6,7,8,9} mover " + msg.split("mover ")[1][0]
    assert "not a best target" in msg


def test_tied_choice_against_the_tie_rule_is_rejected(policy_cert):
    mask, mover, tied = policy_cert["ties"][0]

    def retarget(rows):
        r = row_of(rows, mask, mover)
        r[2] = next(j for j in tied if j != r[2])
    msg = rejects(with_rows(policy_cert, retarget), "policy")
    assert "tied, but the nearest rule picks" in msg and f"mover {mover}" in msg


def test_farthest_rule_certificate_would_need_other_choices(policy_cert):
    cert = copy.deepcopy(policy_cert)
    cert["policy"]["tie_rule"] = "farthest"
    assert "farthest rule picks" in rejects(cert, "policy")


def test_wrong_answer_ties_winner_vector_and_skills_are_rejected(full_cert, policy_cert):
    cert = copy.deepcopy(full_cert)
    num, den = map(int, cert["answer"]["value"].split("/"))
    cert["answer"]["value"] = f"{num + den}/{den}"
    rejects(cert, "answer.value")
    cert = copy.deepcopy(policy_cert)
    cert["ties"] = cert["ties"][1:]
    rejects(cert, "ties")
    cert = copy.deepcopy(policy_cert)
    cert["winner_vector_sha256"] = "0" * 64
    rejects(cert, "winner_vector_sha256")
    cert = copy.deepcopy(full_cert)
    cert["winner_vector"] = list(reversed(cert["winner_vector"]))
    rejects(cert, "winner_vector")
    cert = copy.deepcopy(full_cert)
    cert["skills"][0] = "1/2"
    rejects(cert, "skills")


def test_skills_must_match_the_declared_parameters():
    cert = chefs.certify(skills="1/4,1/2,1")
    assert "verified" in check_certificate(cert)
    cert["params"]["skills"] = "1/4,1/2,1/3"
    rejects(cert, "params")


def test_missing_state_is_rejected(policy_cert):
    rejects(with_rows(policy_cert, lambda rows: rows.pop(7)), "table")


def test_edited_rows_without_new_digest_fail_the_digest(full_cert):
    cert = copy.deepcopy(full_cert)
    cert["table"]["rows"][5][3] = "0/1"
    rejects(cert, "table_sha256")


def test_cli_certify_check_and_corrupted_file(tmp_path, capsys, full_cert):
    out = tmp_path / "c.json"
    assert main(["certify", "chefs", "--skills", "1/4,1/2,1", "-o", str(out), "--quiet"]) == 0
    assert main(["check", str(out)]) == 0
    bad = with_rows(full_cert, lambda rows: row_of(rows, 0b0111, 1).__setitem__(3, "1/1"))
    write_certificate(bad, tmp_path / "bad.json")
    capsys.readouterr()
    assert main(["check", str(tmp_path / "bad.json")]) == 1
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 2 and "alive {1,2,3} mover 1" in err[0] and err[1] == "1 of 1 certificate(s) failed"


def test_proofs_are_small():
    for p in PROOFS.glob("*.json"):
        assert p.stat().st_size < 2_100_000, p.name


@pytest.mark.slow
def test_n14_certificate_verifies():
    summary = check_file(PROOFS / "chefs-fib-14.json")
    assert "E(14) = 729.12106947 verified" in summary


# ---------------------------------------------------------------- command line


def test_cli_solve_json_and_text(capsys):
    assert main(["solve", "chefs", "--n", "7", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["answer"]["decimal"] == "42.28176050"
    assert data["exact_ties"]["count"] == 22
    assert data["winner_vector_chef1_first"]["sum"] == "1/1"
    assert main(["solve", "chefs", "--skills", "1/4,1/2,1", "--backend", "fraction"]) == 0
    assert "0.29375000" in capsys.readouterr().out


def test_cli_audit_reports_tie_rule_dependence(capsys):
    assert main(["audit", "chefs", "--n", "5", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["tie_rule"]["E_depends_on_tie_rule"] is True
    assert data["decisions"]["counts"]["wrong"] == 0
    assert data["winner_values"]["within_bound"] is True


@pytest.mark.parametrize("argv", [
    ["--n", "1"], ["--n", "17"], ["--n", "x"], ["--skills", "0,1"], ["--skills", "1/2,5/4"],
    ["--n", "3", "--skills", "1/2,1/2"], ["--skills", "a,b"],
])
def test_cli_bad_input_exit_2_one_line(capsys, argv):
    assert main(["solve", "chefs", *argv]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and err[0].startswith("exactplay: error:")
