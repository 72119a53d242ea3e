"""The independent checker on coin-row certificates: accepts the stored ones and rejects corrupted ones."""

from __future__ import annotations

import copy
import json
from fractions import Fraction
from pathlib import Path

import pytest

from exactplay.certify.write import write_certificate
from exactplay.checker import check_certificate, check_file
from exactplay.errors import VerificationError
from exactplay.games.coins import model

PROOFS = Path(__file__).resolve().parent.parent / "proofs" / "coins"


def load(name: str) -> dict:
    return json.loads((PROOFS / name).read_text())


def state(cert: dict, i: int, j: int) -> int:
    """The canonical number of the state ``coins i..j`` (states are numbered by their names)."""
    n = len(cert["params"]["coins"])
    names = sorted([f"coins {a}..{b}" for a in range(n) for b in range(a, n)] + ["empty row"])
    return names.index(f"coins {i}..{j}")


def pq(x: Fraction) -> str:
    return f"{x.numerator}/{x.denominator}"


def refused(cert) -> VerificationError:
    with pytest.raises(VerificationError) as exc:
        check_certificate(cert)
    return exc.value


@pytest.mark.parametrize("name, params", model.PROOFS)
def test_stored_certificates_verify_and_are_a_fresh_certificate_in_fractions(name, params, tmp_path):
    assert "Bellman, ranks, policy, margins" in check_file(PROOFS / name)
    fresh = write_certificate(model.certify(backend="fraction", **params), tmp_path / name)
    assert fresh.read_bytes() == (PROOFS / name).read_bytes()


def test_checker_rejects_one_corrupted_value_naming_the_state():
    cert = load("coins-decimals.json")
    s = state(cert, 2, 5)
    row = cert["solution"]["values"][s]
    row[0] = pq(Fraction(row[0]) + Fraction(1, 10**20))
    err = refused(cert)
    assert err.field == "solution.values" and err.state in (s, state(cert, 1, 5), state(cert, 2, 6))


def test_checker_rejects_a_corrupted_margin_naming_the_state():
    cert = load("coins-seed-example.json")
    s = state(cert, 0, 3)
    assert cert["solution"]["margins"][s] == "9/1"
    cert["solution"]["margins"][s] = "10/1"
    err = refused(cert)
    assert (err.field, err.state) == ("solution.margins", s)


def test_checker_rejects_one_corrupted_choice_naming_the_state():
    cert = load("coins-seed-example.json")
    s = state(cert, 0, 2)
    assert [s, [0, 1]] in cert["solution"]["ties"] and cert["solution"]["policy"][s] == 0
    cert["solution"]["policy"][s] = 1  # the right coin: tied, but not the earliest optimal action
    err = refused(cert)
    assert err.state == s and err.field in ("solution.values", "solution.policy")


def test_checker_rejects_the_float_preference_on_an_exact_near_tie():
    """The float programs prefer the left coin at (0, 3); the exact best is the right one."""
    for store in ("values", "policy"):
        cert = json.loads(json.dumps(model.certify(**dict(model.PROOFS)["coins-near-tie.json"], store=store)))
        s = state(cert, 0, 3)
        assert cert["solution"]["policy"][s] == 1
        cert["solution"]["policy"][s] = 0
        err = refused(cert)
        assert err.state == s and err.field in ("solution.values", "solution.policy")


def test_checker_rejects_a_missing_tie():
    cert = load("coins-seed-example.json")
    cert["solution"]["ties"] = []
    assert refused(cert).field == "solution.ties"


def test_checker_rejects_a_wrong_answer_and_a_changed_coin():
    cert = load("coins-seed-example.json")
    bad = copy.deepcopy(cert)
    bad["answer"]["value"] = "28/1"
    assert refused(bad).field == "answer.value"
    bad = copy.deepcopy(cert)
    bad["params"]["coins"][3] = "6/1"
    assert refused(bad).field == "model_sha256"


def test_checker_rejects_a_tampered_value_and_a_tampered_digest():
    cert = load("coins-seed-example.json")
    bad = copy.deepcopy(cert)
    bad["solution"]["values"][state(cert, 0, 0)][0] = "11/1"
    assert refused(bad).field == "solution.values"
    bad = copy.deepcopy(cert)
    bad["model_sha256"] = bad["model_sha256"][::-1]
    assert refused(bad).field == "model_sha256"
