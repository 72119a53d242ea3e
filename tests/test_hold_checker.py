"""The independent checker on Hold-or-Continue certificates: accepts the real ones, rejects
one corrupted value or one corrupted choice and names the state."""

from __future__ import annotations

import copy
import hashlib
import json
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from exactplay.checker import check_certificate
from exactplay.checker._load import Table, load_certificate
from exactplay.errors import VerificationError
from exactplay.games.hold import certify

PROOFS = Path(__file__).resolve().parent.parent / "proofs" / "hold"


def _redigest(cert):
    rows = cert["table"]["rows"]
    cert["table_sha256"] = hashlib.sha256(json.dumps(rows, separators=(",", ":")).encode()).hexdigest()
    return cert


def _cert(T, F):
    cert = json.loads(json.dumps(certify(T, F)))
    assert cert["table"]["encoding"] == "json"
    return cert


def test_fresh_certificates_of_small_games_verify():
    for T, F in [(2, 6), (3, 2), (6, 3), (9, 2), (10, 6)]:
        assert "every hold/continue comparison verified" in check_certificate(_cert(T, F))


def test_one_corrupted_value_is_rejected_naming_the_pair():
    cert = _cert(10, 6)
    row = next(r for r in cert["table"]["rows"] if r[:2] == [3, 5])
    row[2] = "1/3"
    with pytest.raises(VerificationError) as e:
        check_certificate(_redigest(cert))
    assert e.value.state == (3, 5) and e.value.field == "table.V"


def test_one_flipped_choice_is_rejected_naming_the_state():
    cert = _cert(10, 6)
    row = next(r for r in cert["table"]["rows"] if r[:2] == [2, 4])
    pol = row[3]
    row[3] = pol[:3] + ("C" if pol[3] == "H" else "H") + pol[4:]
    # keep the stored values consistent with nothing: the checker rebuilds them from the policy
    for r in cert["table"]["rows"]:
        r[2] = "0/1"
    cert["values_sha256"] = "0" * 64
    with pytest.raises(VerificationError) as e:
        check_certificate(_redigest(cert))
    assert e.value.field in ("table.policy", "table.V")
    assert e.value.state is not None


def test_a_flipped_choice_is_caught_in_its_own_turn():
    """(0, 0, 3): continuing is optimal; store H instead (values kept as they were)."""
    cert = _cert(10, 6)
    row = next(r for r in cert["table"]["rows"] if r[:2] == [0, 0])
    pol = row[3]
    x = 3
    assert pol[x - 2] == "C"
    row[3] = pol[: x - 2] + "H" + pol[x - 1:]
    with pytest.raises(VerificationError) as e:
        check_certificate(_redigest(cert))
    assert e.value.field == "table.policy" and e.value.state[:2] == (0, 0)


def test_wrong_answer_or_digest_or_gap_is_rejected():
    cert = _cert(6, 3)
    bad = copy.deepcopy(cert)
    bad["answer"]["value"] = "1/2"
    with pytest.raises(VerificationError, match="answer"):
        check_certificate(bad)
    bad = copy.deepcopy(cert)
    bad["values_sha256"] = "f" * 64
    with pytest.raises(VerificationError, match="values_sha256"):
        check_certificate(bad)
    bad = copy.deepcopy(cert)
    bad["smallest_gap"]["value"] = "1/1000000"
    with pytest.raises(VerificationError) as e:
        check_certificate(bad)
    assert e.value.field == "smallest_gap"


def test_the_75_point_certificate_rejects_one_flipped_choice_naming_the_state():
    path = PROOFS / "hold-75-6.json"
    cert = load_certificate(path)
    rows = Table.from_certificate(cert).rows  # stored gzip+base64: decode, then store plainly
    cert["table"] = {"columns": cert["table"]["columns"], "count": len(rows), "encoding": "json", "rows": rows}
    row = next(r for r in rows if r[:2] == [10, 69])
    pol = row[2]
    x = 47  # the state with the smallest margin of the game (about 3e-8)
    row[2] = pol[: x - 2] + ("C" if pol[x - 2] == "H" else "H") + pol[x - 1:]
    with pytest.raises(VerificationError) as e:
        check_certificate(_redigest(cert))
    assert e.value.field == "table.policy" and e.value.state[:2] == (10, 69)


@settings(max_examples=15, deadline=None)
@given(T=st.integers(3, 11), F=st.integers(2, 6), data=st.data())
def test_flipping_any_one_stored_choice_is_rejected_within_its_score_pair(T, F, data):
    """Any single H<->C flip breaks optimality (ties are stored as H): the checker fails at
    the flipped score pair -- it names a state of that pair, in either player's turn."""
    cert = _cert(T, F)
    rows = [r for r in cert["table"]["rows"] if r[3]]
    row = data.draw(st.sampled_from(rows))
    i = data.draw(st.integers(0, len(row[3]) - 1))
    row[3] = row[3][:i] + ("C" if row[3][i] == "H" else "H") + row[3][i + 1:]
    with pytest.raises(VerificationError) as e:
        check_certificate(_redigest(cert))
    assert e.value.field in ("table.policy", "table.V")
    assert set(e.value.state[:2]) == {row[0], row[1]} or e.value.field == "table.V"
