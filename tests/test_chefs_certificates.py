"""Chef Showdown certificates: the independent checker accepts true ones and rejects
one corrupted value, one corrupted choice, answer, ties, skills -- naming field and state."""

from __future__ import annotations

import copy
import json
from fractions import Fraction
from functools import lru_cache
from pathlib import Path

import pytest

from exactplay.certify.write import write_certificate
from exactplay.checker import check_certificate, check_file
from exactplay.checker.rules import rules_module
from exactplay.checker.rules.canonical import rebuild
from exactplay.cli.main import main
from exactplay.errors import VerificationError
from exactplay.games.chefs.model import certify

PROOFS = Path(__file__).resolve().parent.parent / "proofs" / "chefs"


pytestmark = pytest.mark.xdist_group("test_chefs_certificates")  # one worker for this file: its module-scoped fixtures
# are built once per suite, not once in each of the two xdist workers (--dist loadgroup)


@pytest.fixture(scope="module")
def full_cert():
    cert = json.loads(json.dumps(certify(n=4)))
    assert "values" in cert["solution"]
    return cert


@pytest.fixture(scope="module")
def policy_cert():
    cert = json.loads(json.dumps(certify(n=9, store="policy")))
    assert "values" not in cert["solution"]
    return cert


@lru_cache(maxsize=None)
def _rebuilt(params: str):
    module = rules_module("chefs")
    return rebuild(module.Rules(**module.read_params(json.loads(params))), 10**7)


def names(params: str) -> tuple:
    return tuple(_rebuilt(params).state_names)


def near(cert, s: int) -> set:
    """``s`` and the states with an action into it: where a corrupted value of ``s`` shows first."""
    trans = _rebuilt(json.dumps(cert["params"])).trans
    return {s} | {r for r, acts in enumerate(trans) if any(t == s for d in acts for t, _ in d)}


def state(cert, name: str) -> int:
    return names(json.dumps(cert["params"])).index(name)


def rejects(cert, field, state=None):
    with pytest.raises(VerificationError) as exc:
        check_certificate(cert)
    assert exc.value.field == field, str(exc.value)
    if state is not None:
        assert exc.value.state == state, str(exc.value)
    return str(exc.value)


def test_true_certificates_verify(full_cert, policy_cert):
    assert "E(4) = 10.43618340" in check_certificate(copy.deepcopy(full_cert))
    assert "E(9) = 101.92398165" in check_certificate(copy.deepcopy(policy_cert))
    assert "and 0 tie(s) verified" in check_certificate(certify(skills="1/4,1/2,1"))


def test_corrupted_value_is_rejected_naming_the_state(full_cert):
    cert = copy.deepcopy(full_cert)
    s = state(cert, "{1,2,3}, chef 1 to attempt")
    x = Fraction(cert["solution"]["values"][s][0]) + Fraction(1, 10**9)  # chef 1's chance there, nudged
    cert["solution"]["values"][s][0] = f"{x.numerator}/{x.denominator}"
    with pytest.raises(VerificationError) as exc:
        check_certificate(cert)
    assert exc.value.field == "solution.values" and exc.value.state in near(cert, s), str(exc.value)


def test_corrupted_dish_count_is_rejected_naming_the_state(full_cert):
    cert = copy.deepcopy(full_cert)
    s = state(cert, "{1,2,3,4}, chef 1 to attempt")
    num, den = map(int, cert["solution"]["values"][s][4].split("/"))
    cert["solution"]["values"][s][4] = f"{num + den}/{den}"  # the dishes, plus one
    assert "Bellman" in rejects(cert, "solution.values", s)


def test_corrupted_choice_in_full_table_is_rejected_naming_the_state(full_cert):
    cert = copy.deepcopy(full_cert)
    s = state(cert, "{1,2,3,4}, chef 1 hit, to choose the target")
    assert s not in {t for t, _ in cert["solution"]["ties"]}
    cert["solution"]["policy"][s] = next(a for a in (0, 1, 2) if a != cert["solution"]["policy"][s])
    rejects(cert, "solution.values", s)  # the stored value is the old target's


def test_suboptimal_choice_in_policy_certificate_is_rejected(policy_cert):
    cert = copy.deepcopy(policy_cert)
    tied = {t for t, _ in cert["solution"]["ties"]}
    s = next(i for i, name in enumerate(names(json.dumps(cert["params"])))
             if name.startswith("{6,7,8,9}, chef") and "choose" in name and i not in tied)
    cert["solution"]["policy"][s] = (cert["solution"]["policy"][s] + 1) % 3
    assert "not optimal" in rejects(cert, "solution.policy", s)


def test_tied_choice_against_the_tie_rule_is_rejected(policy_cert):
    cert = copy.deepcopy(policy_cert)
    s, tied = cert["solution"]["ties"][0]
    cert["solution"]["policy"][s] = next(a for a in tied if a != cert["solution"]["policy"][s])
    assert "is not the earliest optimal action" in rejects(cert, "solution.policy", s)


def test_the_farthest_rule_would_need_other_choices(policy_cert):
    """The policy's tie rule is the earliest optimal action (targets in increasing cyclic distance: the
    nearest); a certificate of the farthest rule is refused."""
    cert = copy.deepcopy(policy_cert)
    for s, tied in cert["solution"]["ties"]:
        cert["solution"]["policy"][s] = tied[-1]
    msg = rejects(cert, "solution.policy")
    assert "not the earliest optimal action" in msg or "not optimal" in msg


def test_wrong_answer_ties_winner_vector_and_skills_are_rejected(full_cert, policy_cert):
    cert = copy.deepcopy(full_cert)
    num, den = map(int, cert["answer"]["value"].split("/"))
    cert["answer"]["value"] = f"{num + den}/{den}"
    rejects(cert, "answer.value")
    cert = copy.deepcopy(policy_cert)
    cert["solution"]["ties"] = cert["solution"]["ties"][1:]
    rejects(cert, "solution.ties")
    cert = copy.deepcopy(full_cert)  # the winner vector: the chefs' components of the start's value
    s0 = cert["answer"]["state"]
    cert["solution"]["values"][s0][:4] = list(reversed(cert["solution"]["values"][s0][:4]))
    rejects(cert, "solution.values", s0)
    cert = copy.deepcopy(full_cert)
    cert["params"]["skills"] = "1/2,1/2,1/2,1/2"
    rejects(cert, "model_sha256")


def test_skills_must_match_the_declared_parameters():
    cert = certify(skills="1/4,1/2,1")
    assert "verified" in check_certificate(copy.deepcopy(cert))
    cert["params"]["skills"] = "1/4,1/2,1/3"
    rejects(cert, "model_sha256")


def test_missing_state_is_rejected(policy_cert):
    cert = copy.deepcopy(policy_cert)
    cert["solution"]["policy"].pop(7)
    rejects(cert, "solution.policy")


def test_an_edited_model_digest_is_rejected(full_cert):
    cert = copy.deepcopy(full_cert)
    cert["model_sha256"] = "0" * 64
    rejects(cert, "model_sha256")


def test_cli_certify_check_and_corrupted_file(tmp_path, capsys, full_cert):
    out = tmp_path / "c.json"
    assert main(["certify", "chefs", "--skills", "1/4,1/2,1", "-o", str(out), "--quiet"]) == 0
    assert main(["check", str(out)]) == 0
    bad = copy.deepcopy(full_cert)
    bad["solution"]["values"][state(bad, "{1,2,3}, chef 1 to attempt")][4] = "1/1"
    write_certificate(bad, tmp_path / "bad.json")
    capsys.readouterr()
    assert main(["check", str(tmp_path / "bad.json")]) == 1
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 2 and err[1] == "1 of 1 certificate(s) failed"
    assert "(field 'solution.values', state" in err[0] and "chef" in err[0].split("[state")[1]  # named, by name


def test_proofs_are_small():
    """Policy only from n = 10: n = 14 (229,362 states) is 3.4 MB, its values would be hundreds."""
    for p in PROOFS.glob("*.json"):
        assert p.stat().st_size < 4_000_000, p.name


@pytest.mark.slow
def test_n14_certificate_verifies():
    summary = check_file(PROOFS / "chefs-fib-14.json")
    assert "E(14) = 729.12106947" in summary


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
