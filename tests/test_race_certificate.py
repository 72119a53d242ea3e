"""Race certificates: what the writer stores, and the checker refusing tampering."""

from __future__ import annotations

import copy
import json
from fractions import Fraction
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from exactplay.certificate import encode_table
from exactplay.checker import check_certificate
from exactplay.errors import VerificationError
from exactplay.games.race import certify

PROOFS = Path(__file__).resolve().parent.parent / "proofs" / "race"


@pytest.fixture(scope="module")
def cert10():
    return json.loads((PROOFS / "race-10.json").read_text())


def _rows(cert):
    return copy.deepcopy(cert["table"]["rows"])


def _with_rows(cert, rows):
    bad = copy.deepcopy(cert)
    bad["table"], bad["table_sha256"] = encode_table(cert["table"]["columns"], rows)
    return bad


def test_stored_certificates_are_what_certify_writes_now(cert10):
    fresh = json.loads(json.dumps(certify(10)))
    for key in ("params", "answer", "table", "table_sha256", "policy", "smallest_gap"):
        assert fresh[key] == cert10[key], key


def test_checker_rejects_one_changed_digit_of_one_value_naming_the_cell(cert10):
    rows = _rows(cert10)
    k = next(i for i, r in enumerate(rows) if r[:2] == [7, 4])
    p, q = rows[k][2].split("/")
    last = str((int(p[-1]) + 1) % 10)
    value = Fraction(int(p[:-1] + last), int(q))
    rows[k][2] = f"{value.numerator}/{value.denominator}"
    with pytest.raises(VerificationError, match=r"table\.F.*\(7, 4\)"):
        check_certificate(_with_rows(cert10, rows))


def test_checker_rejects_one_changed_choice_naming_the_cell(cert10):
    rows = _rows(cert10)
    k = next(i for i, r in enumerate(rows) if r[:2] == [3, 9])
    rows[k][3] = rows[k][3] + 1
    with pytest.raises(VerificationError, match=r"best_t.*\(3, 9\)"):
        check_certificate(_with_rows(cert10, rows))


def test_checker_rejects_a_wrong_gap(cert10):
    rows = _rows(cert10)
    rows[5][4] = "0/1"
    with pytest.raises(VerificationError, match="gap"):
        check_certificate(_with_rows(cert10, rows))


def test_checker_rejects_edited_rows_under_the_old_digest(cert10):
    bad = copy.deepcopy(cert10)
    bad["table"]["rows"][0][2] = "1/2"
    with pytest.raises(VerificationError, match="table_sha256"):
        check_certificate(bad)


def test_checker_rejects_a_wrong_answer(cert10):
    bad = copy.deepcopy(cert10)
    bad["answer"]["value"] = "1/2"
    with pytest.raises(VerificationError, match="answer"):
        check_certificate(bad)


def test_checker_rejects_policy_disagreeing_with_table(cert10):
    bad = copy.deepcopy(cert10)
    bad["policy"]["best_t"][1][2] += 1
    with pytest.raises(VerificationError, match=r"policy.*\(2, 3\)"):
        check_certificate(bad)


def test_large_tables_are_compressed_with_the_same_digest():
    rows = [[i, f"{i}/7"] for i in range(30000)]
    plain, d1 = encode_table(["i", "v"], rows, compress=False)
    packed, d2 = encode_table(["i", "v"], rows)
    assert d1 == d2 and packed["encoding"] == "gzip+base64" and plain["encoding"] == "json"
    cert = json.loads((Path(__file__).resolve().parent / "fixtures" / "race-100-v1.json").read_text())  # v1: its v2 is in proofs/
    assert cert["table"]["encoding"] == "gzip+base64"


def test_checker_uses_no_solver_code():
    """The checker package imports only the standard library and exactplay.errors."""
    import ast

    root = Path(__file__).resolve().parent.parent / "src" / "exactplay" / "checker"
    paths = sorted(root.rglob("*.py"))
    assert any(p.parent.name == "rules" for p in paths)  # the subpackage is walked too
    for path in paths:
        depth = len(path.relative_to(root).parts) - 1  # 0: checker/x.py, 1: checker/rules/x.py
        tree = ast.parse(path.read_text())
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom) and node.level >= 2 + depth:
                assert node.level == 2 + depth and node.module == "errors", f"{path.name} imports {node.module}"
            if isinstance(node, ast.ImportFrom) and node.level == 0:
                assert not (node.module or "").startswith("exactplay"), f"{path.name} imports {node.module}"
            if isinstance(node, ast.Import):
                assert not any(a.name.startswith("exactplay") for a in node.names), path.name


@settings(max_examples=15, deadline=None)
@given(st.integers(1, 14), st.sampled_from(["mpq", "fraction"]))
def test_certificates_of_random_small_targets_verify_independently(target, backend):
    """Property: for any target, the solver's table satisfies the raw Bellman
    equations, as the stdlib-only checker re-derives them."""
    cert = json.loads(json.dumps(certify(target, backend)))
    assert check_certificate(cert).startswith(f"race target {target}:")


def test_checker_rejects_a_renamed_answer_and_a_moved_smallest_gap(cert10):
    bad = copy.deepcopy(cert10)
    bad["answer"]["name"] = "G(9,9)"
    with pytest.raises(VerificationError, match="answer.name"):
        check_certificate(bad)
    bad = copy.deepcopy(cert10)
    bad["smallest_gap"]["state"] = [1, 1]
    with pytest.raises(VerificationError, match="smallest_gap.state"):
        check_certificate(bad)
