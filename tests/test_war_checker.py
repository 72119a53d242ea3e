"""The independent checker on War certificates: accepts the stored ones and rejects corrupted ones."""

from __future__ import annotations

import copy
import json
from fractions import Fraction
from pathlib import Path

import pytest

from exactplay.certify.write import write_certificate
from exactplay.checker import check_certificate, check_file
from exactplay.errors import VerificationError
from exactplay.games.war import model

PROOFS = Path(__file__).resolve().parent.parent / "proofs" / "war"


def load(name: str) -> dict:
    return json.loads((PROOFS / name).read_text())


def refused(cert) -> VerificationError:
    with pytest.raises(VerificationError) as exc:
        check_certificate(cert)
    return exc.value


@pytest.mark.parametrize("name, params", model.PROOFS)
def test_stored_certificates_verify_and_are_a_fresh_certificate_in_fractions(name, params, tmp_path):
    assert "digest matches" in check_file(PROOFS / name)
    fresh = write_certificate(model.certify(backend="fraction", **params), tmp_path / name)
    assert fresh.read_bytes() == (PROOFS / name).read_bytes()


def test_the_full_deck_is_certified_on_its_1200_abstract_decks():
    cert = load("war-13x4.json")
    assert len(cert["solution"]["policy"]) == 1200 and cert["answer"]["decimal"] == "0.0000000031324362"


def test_checker_rejects_one_corrupted_probability_naming_the_state():
    cert = load("war-13x4.json")
    s = 40
    value = Fraction(cert["solution"]["values"][s][0]) + Fraction(1, 10**40)
    cert["solution"]["values"][s][0] = f"{value.numerator}/{value.denominator}"
    err = refused(cert)
    assert err.field == "solution.values" and "deck counts" in str(err)


def test_checker_rejects_a_missing_state_and_an_extra_one():
    cert = load("war-5x2.json")
    for change in (lambda v: v.pop(3), lambda v: v.append(["0/1"])):
        bad = copy.deepcopy(cert)
        change(bad["solution"]["values"])
        assert refused(bad).field == "solution.values"


def test_checker_rejects_a_wrong_answer():
    cert = load("war-4x2.json")
    cert["answer"]["value"] = "1/27"
    assert refused(cert).field == "answer.value"


def test_checker_rejects_a_tampered_digest():
    cert = load("war-4x2.json")
    cert["model_sha256"] = "0" * 64
    assert refused(cert).field == "model_sha256"


def test_checker_rejects_an_odd_deck():
    cert = load("war-4x2.json")
    cert["params"]["suits"] = 3
    cert["params"]["ranks"] = 3
    err = refused(cert)
    assert err.field == "params" and "even number of cards" in str(err)
