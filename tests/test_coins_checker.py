"""The independent coin-row checker accepts the stored certificates and rejects corrupted ones."""

from __future__ import annotations

import copy
import json
from fractions import Fraction
from pathlib import Path

import pytest

from exactplay.certificate import encode_table
from exactplay.checker import check_certificate, check_file
from exactplay.errors import VerificationError
from exactplay.games import coins as C

PROOFS = Path(__file__).resolve().parent.parent / "proofs" / "coins"


def load(name: str) -> dict:
    return json.loads((PROOFS / name).read_text())


def with_rows(cert: dict, rows: list) -> dict:
    """The certificate with new rows and a matching digest (so the equations must catch it)."""
    cert = copy.deepcopy(cert)
    cert["table"], cert["table_sha256"] = encode_table(cert["table"]["columns"], rows, compress=False)
    return cert


def find(rows: list, i: int, j: int) -> int:
    return next(k for k, r in enumerate(rows) if r[:2] == [i, j])


def pq(x: Fraction) -> str:
    return f"{x.numerator}/{x.denominator}"


@pytest.mark.parametrize("name, params", C.GAME.proofs)
def test_stored_certificates_verify_and_match_a_fresh_certificate(name, params):
    assert "minimax equations hold" in check_file(PROOFS / name)
    fresh = C.certify(backend="fraction", **params)
    stored = load(name)
    assert fresh["table_sha256"] == stored["table_sha256"]
    assert fresh["policy"] == stored["policy"]


def test_checker_rejects_one_corrupted_value_naming_the_state():
    cert = load("coins-decimals.json")
    rows = copy.deepcopy(cert["table"]["rows"])
    k = find(rows, 2, 5)
    rows[k][2] = pq(Fraction(rows[k][2]) + Fraction(1, 10**20))
    with pytest.raises(VerificationError) as exc:
        check_certificate(with_rows(cert, rows))
    assert exc.value.field == "table.V" and exc.value.state == (2, 5)


def test_checker_rejects_a_corrupted_candidate_naming_the_state():
    cert = load("coins-seed-example.json")
    rows = copy.deepcopy(cert["table"]["rows"])
    k = find(rows, 0, 3)
    rows[k][3] = "19/1"  # left was 18
    with pytest.raises(VerificationError) as exc:
        check_certificate(with_rows(cert, rows))
    assert exc.value.field == "table.left" and exc.value.state == (0, 3)


def test_checker_rejects_one_corrupted_choice_naming_the_state():
    cert = load("coins-seed-example.json")
    rows = copy.deepcopy(cert["table"]["rows"])
    k = find(rows, 0, 2)
    assert rows[k][5] == "tie"
    rows[k][5] = "left"
    with pytest.raises(VerificationError) as exc:
        check_certificate(with_rows(cert, rows))
    assert exc.value.field == "table.choice" and exc.value.state == (0, 2)


def test_checker_rejects_the_float_preference_on_an_exact_near_tie():
    """The float programs prefer the left coin at (0, 3); the exact best is the right one."""
    cert = load("coins-near-tie.json")
    rows = copy.deepcopy(cert["table"]["rows"])
    k = find(rows, 0, 3)
    rows[k][5] = "left"
    with pytest.raises(VerificationError) as exc:
        check_certificate(with_rows(cert, rows))
    assert exc.value.state == (0, 3)


def test_checker_rejects_a_wrong_line_of_play_and_a_missing_tie():
    cert = load("coins-seed-example.json")
    bad = copy.deepcopy(cert)
    bad["policy"]["line_of_play"][0][2] = "left"
    with pytest.raises(VerificationError) as exc:
        check_certificate(bad)
    assert exc.value.field == "policy.line_of_play" and exc.value.state == (0, 3)
    bad = copy.deepcopy(cert)
    bad["policy"]["ties"] = []
    with pytest.raises(VerificationError, match="ties"):
        check_certificate(bad)


def test_checker_rejects_a_wrong_answer_and_a_changed_coin():
    cert = load("coins-seed-example.json")
    bad = copy.deepcopy(cert)
    bad["answer"]["value"] = "28/1"
    with pytest.raises(VerificationError, match="answer"):
        check_certificate(bad)
    bad = copy.deepcopy(cert)
    bad["params"]["coins"][3] = "6/1"
    with pytest.raises(VerificationError) as exc:
        check_certificate(bad)
    assert exc.value.state == (3, 3)


def test_checker_rejects_a_tampered_table_by_its_digest():
    cert = load("coins-seed-example.json")
    cert["table"]["rows"][0][2] = "11/1"
    with pytest.raises(VerificationError) as exc:
        check_certificate(cert)
    assert exc.value.field == "table_sha256"
