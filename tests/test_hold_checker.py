"""The independent checker on Hold-or-Continue certificates: accepts the real ones, rejects
one corrupted value or one corrupted choice and names the state."""

from __future__ import annotations

import copy
import json
import re
from functools import lru_cache
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from exactplay.checker import check_certificate
from exactplay.checker._load import load_certificate
from exactplay.checker.rules import rules_module
from exactplay.checker.rules.canonical import rebuild
from exactplay.errors import VerificationError
from exactplay.games.hold.model import certify

PROOFS = Path(__file__).resolve().parent.parent / "proofs" / "hold"


def _cert(T, F, store="values"):
    return json.loads(json.dumps(certify(T, F, store=store)))


@lru_cache(maxsize=None)
def _names(T, F) -> tuple:
    module = rules_module("hold")
    return tuple(rebuild(module.Rules(**module.read_params({"target": T, "faces": F})), 10**7).state_names)


def _state(T, F, mover, c, h, x) -> int:
    return _names(T, F).index(f"(to move {mover}, scores {c}-{h}, turn total {x})")


def _scores(T, F, s) -> set:
    got = re.fullmatch(r"\(to move \d, scores (\d+)-(\d+), turn total \d+\)", _names(T, F)[s])
    return {int(got[1]), int(got[2])} if got else set()


def _flip(cert, s):
    """The other of the two actions (hold 0, continue 1) at a choice state."""
    cert["solution"]["policy"][s] = 1 - cert["solution"]["policy"][s]


def test_fresh_certificates_of_small_games_verify_with_values_and_policy_only():
    for T, F in [(2, 6), (3, 2), (6, 3), (9, 2), (10, 6)]:
        for store in ("values", "policy"):
            assert "Bellman, ranks, policy" in check_certificate(_cert(T, F, store))


def test_one_corrupted_value_is_rejected_naming_the_state():
    cert = _cert(10, 6)
    s = _state(10, 6, 0, 3, 5, 0)
    cert["solution"]["values"][s] = ["1/3"]
    with pytest.raises(VerificationError) as e:
        check_certificate(cert)
    assert (e.value.field, e.value.state) == ("solution.values", s)


def test_one_flipped_choice_of_a_policy_only_certificate_is_rejected_naming_the_state():
    cert = _cert(10, 6, "policy")
    s = _state(10, 6, 0, 2, 4, 5)
    _flip(cert, s)
    with pytest.raises(VerificationError) as e:
        check_certificate(cert)
    assert e.value.field == "solution.policy" and _scores(10, 6, e.value.state) == {2, 4}


def test_a_flipped_choice_is_caught_in_its_own_turn():
    """(0, 0, 3): continuing is optimal; store hold instead, the values kept as they were."""
    cert = _cert(10, 6)
    s = _state(10, 6, 0, 0, 0, 3)
    assert cert["solution"]["policy"][s] == 1  # continue
    _flip(cert, s)
    with pytest.raises(VerificationError) as e:
        check_certificate(cert)
    assert e.value.state == s and e.value.field in ("solution.values", "solution.policy")


def test_wrong_answer_or_digest_or_smallest_margin_is_rejected():
    for store in ("values", "policy"):
        cert = _cert(6, 3, store)
        bad = copy.deepcopy(cert)
        bad["answer"]["value"] = "1/2"
        with pytest.raises(VerificationError, match="answer"):
            check_certificate(bad)
        bad = copy.deepcopy(cert)
        bad["model_sha256"] = "f" * 64
        with pytest.raises(VerificationError, match="model_sha256"):
            check_certificate(bad)
        bad = copy.deepcopy(cert)
        bad["smallest_margin"]["value"] = "1/1000000"
        with pytest.raises(VerificationError) as e:
            check_certificate(bad)
        assert e.value.field == "smallest_margin.value"


@pytest.mark.slow
def test_the_75_point_certificate_rejects_one_flipped_choice_naming_the_state():
    cert = load_certificate(PROOFS / "hold-75-6.json")
    s = _state(75, 6, 0, 10, 69, 47)  # the state with the smallest margin of the game (about 3e-8)
    assert cert["smallest_margin"]["state"] == s
    _flip(cert, s)
    with pytest.raises(VerificationError) as e:
        check_certificate(cert)
    assert e.value.field == "solution.policy" and _scores(75, 6, e.value.state) == {10, 69}


@settings(max_examples=6, deadline=None)
@given(T=st.integers(3, 11), F=st.integers(2, 6), data=st.data())
def test_flipping_any_one_stored_choice_is_rejected_within_its_score_pair(T, F, data):
    """Any single hold <-> continue flip of a policy-only certificate is refused (a suboptimal action,
    or not the earliest of tied ones): the checker fails at a state of the flipped score pair, in
    either player's turn."""
    cert = _cert(T, F, "policy")
    names = _names(T, F)
    choices = [s for s, name in enumerate(names) if "turn total 0)" not in name and name.startswith("(")]
    s = data.draw(st.sampled_from(choices))
    _flip(cert, s)
    with pytest.raises(VerificationError) as e:
        check_certificate(cert)
    assert e.value.field in ("solution.policy", "solution.ranks")
    assert _scores(T, F, e.value.state) == _scores(T, F, s)


@pytest.mark.slow
@settings(max_examples=15, deadline=None)
@given(T=st.integers(3, 11), F=st.integers(2, 6), data=st.data())
def test_flipping_any_one_stored_choice_is_rejected_within_its_score_pair_many_examples(T, F, data):
    """The same property on 15 examples (6 in the default suite since 2026-12-04)."""
    test_flipping_any_one_stored_choice_is_rejected_within_its_score_pair.hypothesis.inner_test(T=T, F=F, data=data)
