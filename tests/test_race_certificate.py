"""Race certificates: what the writer stores, and the checker refusing tampering."""

from __future__ import annotations

import copy
import gzip
import json
from fractions import Fraction
from functools import lru_cache
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from exactplay.checker import check_certificate, verify_file
from exactplay.checker.rules import rules_module
from exactplay.checker.rules.canonical import rebuild
from exactplay.errors import VerificationError
from exactplay.games.race.model import certify

PROOFS = Path(__file__).resolve().parent.parent / "proofs" / "race"


pytestmark = pytest.mark.xdist_group("test_race_certificate")  # one worker for this file: its module-scoped fixtures
# are built once per suite, not once in each of the two xdist workers (--dist loadgroup)


@pytest.fixture(scope="module")
def cert10():
    return json.loads((PROOFS / "race-10.json").read_text())


@lru_cache(maxsize=None)
def _rebuilt(target: int):
    module = rules_module("race")
    return rebuild(module.Rules(**module.read_params({"target": target})), 10**7)


def state(name: str, target: int = 10) -> int:
    """The canonical number of a state of the Race at ``target`` (numbered by their names)."""
    return _rebuilt(target).state_names.index(name)


def near(s: int, target: int = 10) -> set:
    """``s`` and the states with an action into it: where a corrupted value of ``s`` shows first."""
    return {s} | {r for r, acts in enumerate(_rebuilt(target).trans) if any(t == s for d in acts for t, _ in d)}


def refused(cert) -> VerificationError:
    with pytest.raises(VerificationError) as exc:
        check_certificate(cert)
    return exc.value


def test_stored_certificates_are_what_certify_writes_now(cert10):
    assert json.loads(json.dumps(certify(10))) == cert10


def test_checker_rejects_one_changed_digit_of_one_value_naming_the_state(cert10):
    bad = copy.deepcopy(cert10)
    s = state("Player 2 to choose T, needs 7 / 4")
    p, q = bad["solution"]["values"][s][1].split("/")
    value = Fraction(int(p[:-1] + str((int(p[-1]) + 1) % 10)), int(q))
    bad["solution"]["values"][s][1] = f"{value.numerator}/{value.denominator}"
    err = refused(bad)
    assert err.field == "solution.values" and err.state in near(s)


def test_checker_rejects_one_changed_choice_naming_the_state(cert10):
    for store in ("values", "policy"):
        bad = json.loads(json.dumps(certify(10, store=store)))
        s = state("Player 2 to choose T, needs 3 / 9")
        bad["solution"]["policy"][s] += 1
        err = refused(bad)
        assert err.state == s and err.field in ("solution.values", "solution.policy")


def test_checker_rejects_a_wrong_margin_and_a_wrong_smallest_margin(cert10):
    bad = copy.deepcopy(cert10)
    s = next(i for i, m in enumerate(bad["solution"]["margins"]) if m not in (None, "0/1"))
    bad["solution"]["margins"][s] = "0/1"
    assert (refused(bad).field, refused(bad).state) == ("solution.margins", s)
    bad = copy.deepcopy(cert10)
    bad["smallest_margin"]["value"] = "1/2"
    assert refused(bad).field == "smallest_margin.value"


def test_checker_rejects_an_edited_digest(cert10):
    bad = copy.deepcopy(cert10)
    bad["model_sha256"] = "1" + bad["model_sha256"][1:]
    assert refused(bad).field == "model_sha256"


def test_checker_rejects_a_wrong_answer(cert10):
    bad = copy.deepcopy(cert10)
    bad["answer"]["value"] = "1/2"
    assert refused(bad).field == "answer.value"


def test_a_certificate_compressed_with_gzip_reads_the_same(cert10, tmp_path):
    """race-10 (race-100, ten times the check, is verified by test_proofs' slow tests and .ci/run)."""
    path = tmp_path / "race-10.json.gz"
    path.write_bytes(gzip.compress((PROOFS / "race-10.json").read_bytes(), mtime=0))
    summary = verify_file(path)
    assert summary == verify_file(PROOFS / "race-10.json")
    assert summary["answer"]["decimal"] == cert10["answer"]["decimal"]


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


@settings(max_examples=6, deadline=None)
@given(st.integers(1, 14), st.sampled_from(["mpq", "fraction"]), st.sampled_from(["values", "policy"]))
def test_certificates_of_random_small_targets_verify_independently(target, backend, store):
    """Property: for any target, the engine's solution satisfies the raw Bellman equations, as the
    stdlib-only checker re-derives them on its own rebuild of the rules."""
    cert = json.loads(json.dumps(certify(target, backend=backend, store=store)))
    assert f"race target={target}" not in check_certificate(cert)  # the summary: the rebuild
    assert f"G({target},{target})" in check_certificate(json.loads(json.dumps(cert)))


@pytest.mark.slow
@settings(max_examples=15, deadline=None)
@given(st.integers(1, 14), st.sampled_from(["mpq", "fraction"]), st.sampled_from(["values", "policy"]))
def test_certificates_of_random_small_targets_verify_independently_many_examples(target, backend, store):
    """The same property on 15 examples (6 in the default suite since 2026-12-04)."""
    test_certificates_of_random_small_targets_verify_independently.hypothesis.inner_test(target=target, backend=backend, store=store)


def test_checker_rejects_a_renamed_answer_and_a_moved_smallest_margin(cert10):
    bad = copy.deepcopy(cert10)
    bad["answer"]["name"] = "G(9,9)"
    assert refused(bad).field == "answer.name"
    bad = copy.deepcopy(cert10)
    bad["smallest_margin"]["state"] = 0
    assert refused(bad).field == "smallest_margin.state"
