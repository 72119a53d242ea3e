"""The independent War checker accepts the stored certificates and rejects corrupted ones."""

from __future__ import annotations

import copy
import json
from fractions import Fraction
from pathlib import Path

import pytest

from exactplay.certificate import encode_table
from exactplay.checker import check_certificate, check_file
from exactplay.errors import VerificationError
from exactplay.games import war

PROOFS = Path(__file__).resolve().parent.parent / "proofs" / "war"


def load(name: str) -> dict:
    return json.loads((PROOFS / name).read_text())


def rows_of(cert: dict) -> list:
    assert cert["table"]["encoding"] == "json"
    return copy.deepcopy(cert["table"]["rows"])


def with_rows(cert: dict, rows: list) -> dict:
    """The certificate with new rows and a matching digest (so the equations must catch it)."""
    cert = copy.deepcopy(cert)
    cert["table"], cert["table_sha256"] = encode_table(cert["table"]["columns"], rows, compress=False)
    return cert


@pytest.mark.parametrize("name, params", war.GAME.proofs)
def test_stored_certificates_verify_and_match_a_fresh_certificate(name, params):
    assert "re-derived by counting deals" in check_file(PROOFS / name)
    fresh = war.certify(backend="fraction", **params)
    stored = load(name)
    assert fresh["table_sha256"] == stored["table_sha256"]
    assert fresh["answer"]["value"] == stored["answer"]["value"]


def test_checker_rejects_one_corrupted_probability_naming_the_state():
    cert = load("war-13x4.json")
    rows = rows_of(cert)
    k = 40
    t, deck, value = rows[k]
    bad = Fraction(value) + Fraction(1, 10**40)
    rows[k][2] = f"{bad.numerator}/{bad.denominator}"
    with pytest.raises(VerificationError) as exc:
        check_certificate(with_rows(cert, rows))
    assert exc.value.field == "table.P" and exc.value.state == (t, deck)


def test_checker_rejects_a_missing_reachable_deck():
    cert = load("war-5x2.json")
    rows = rows_of(cert)
    t, deck, _ = rows.pop(3)
    with pytest.raises(VerificationError) as exc:
        check_certificate(with_rows(cert, rows))
    assert exc.value.state == (t, deck) and "missing" in str(exc.value)


def test_checker_rejects_an_unreachable_extra_deck():
    cert = load("war-4x2.json")
    rows = rows_of(cert) + [[1, [2, 2, 2], "0/1"]]
    with pytest.raises(VerificationError) as exc:
        check_certificate(with_rows(cert, rows))
    assert exc.value.state == (1, [2, 2, 2])


def test_checker_rejects_wrong_answer_and_wrong_expected_games():
    cert = load("war-4x2.json")
    bad = copy.deepcopy(cert)
    bad["answer"]["value"] = "1/27"
    with pytest.raises(VerificationError, match="answer"):
        check_certificate(bad)
    bad = copy.deepcopy(cert)
    bad["expected_games"] = "15/1"
    with pytest.raises(VerificationError, match="expected_games"):
        check_certificate(bad)


def test_checker_rejects_a_tampered_table_by_its_digest():
    cert = load("war-4x2.json")
    cert["table"]["rows"][1][2] = "1/3"
    with pytest.raises(VerificationError) as exc:
        check_certificate(cert)
    assert exc.value.field == "table_sha256"


def test_checker_rejects_an_odd_deck():
    cert = load("war-4x2.json")
    cert["params"]["suits"] = 3
    cert["params"]["ranks"] = 3
    with pytest.raises(VerificationError, match="not a deck"):
        check_certificate(cert)
