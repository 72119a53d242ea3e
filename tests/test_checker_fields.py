"""Every certificate field is verified, rejected as unknown, or listed as unverified.

Regression tests for the fields that used to verify whatever they said (issue 9),
and for ``exactplay check --expect KEY=VALUE``.
"""

from __future__ import annotations

import copy
import json
from pathlib import Path

import pytest

from exactplay.checker import UNVERIFIED_FIELDS, verify_certificate
from exactplay.cli.main import main
from exactplay.errors import VerificationError

PROOFS = Path(__file__).resolve().parent.parent / "proofs"


def load(name: str) -> dict:
    return json.loads((PROOFS / name).read_text())


def set_path(cert: dict, path: str, value):
    node = cert
    keys = path.split(".")
    for k in keys[:-1]:
        node = node[int(k) if k.isdigit() else k]
    last = keys[-1]
    node[int(last) if last.isdigit() else last] = value
    return cert


EDITS = [
    # (certificate, dotted path, new value, field the error must name)
    ("coins/coins-decimals.json", "smallest_margin.value", "1/20", "smallest_margin.value"),
    ("coins/coins-decimals.json", "smallest_margin.state", 2, "smallest_margin.state"),
    ("coins/coins-decimals.json", "smallest_margin", None, "smallest_margin"),
    ("war/war-4x2.json", "smallest_margin", {"value": "1/2", "state": 0}, "smallest_margin"),
    ("chefs/chefs-fib-3.json", "smallest_margin.state", 0, "smallest_margin.state"),
    ("hold/hold-5-3.json", "answer.name", "V(1,0)", "answer.name"),
    ("chefs/chefs-fib-3.json", "answer.name", "E(4)", "answer.name"),
    ("coins/coins-decimals.json", "answer.name", "V(0,6)", "answer.name"),
    ("war/war-4x2.json", "answer.name", "P(B wins every turn)", "answer.name"),
    ("race/race-2.json", "answer.numerator_digits", 3, "answer"),
    ("race/race-2.json", "answer.digits", 9, "answer.decimal"),
    ("race/race-2.json", "answer.decimal", "0.52592594", "answer.decimal"),
    ("race/race-2.json", "answer.state", 0, "answer.state"),
    ("race/race-2.json", "answer.component", 0, "answer.component"),
    ("race/race-2.json", "params.faces", 6, "params"),
    ("race/race-2.json", "answer.float_value", 0.5, "answer"),
    ("race/race-2.json", "solution.policy", "b = 1..N", "solution.policy"),
    ("chefs/chefs-fib-10.json", "winner_vector_decimal", ["0.07566890"], "certificate"),
    ("chefs/chefs-fib-3.json", "solution.witness", "policy", "solution.witness"),
    ("chefs/chefs-fib-3.json", "slow_check", True, "certificate"),
    ("coins/coins-decimals.json", "solution.objective", "zero-sum", "solution.objective"),
    ("hold/hold-5-3.json", "solution.components", [0, 1], "solution.components"),
    ("hold/hold-5-3.json", "values_rows", "[c, h, V]", "certificate"),
    ("hold/hold-5-3.json", "smallest_margin", None, "smallest_margin"),
    ("war/war-4x2.json", "winner_vector", ["1/2"], "certificate"),
    ("war/war-4x2.json", "solution.note", "x", "solution"),
    ("chefs/chefs-fib-10.json", "solution.margins", [], "solution.margins"),  # margins only with values
    ("race/race-100.json", "audit", {"x": 1}, "certificate"),
]


@pytest.mark.parametrize("name, path, value, field", EDITS, ids=[f"{e[0]}:{e[1]}" for e in EDITS])
def test_an_edited_or_invented_field_is_rejected_naming_it(name, path, value, field):
    cert = set_path(copy.deepcopy(load(name)), path, value)
    with pytest.raises(VerificationError) as exc:
        verify_certificate(cert, name)
    assert exc.value.field == field, str(exc.value)
    assert f"field {field!r}" in str(exc.value) and "\n" not in str(exc.value)


def test_a_dropped_answer_field_is_rejected_naming_it():
    cert = load("race/race-2.json")
    del cert["answer"]["decimal"]
    with pytest.raises(VerificationError) as exc:
        verify_certificate(cert)
    assert exc.value.field == "answer" and "decimal" in str(exc.value)


def test_only_notes_and_tool_version_are_unverified_and_editing_them_changes_nothing():
    assert UNVERIFIED_FIELDS == ("notes", "tool_version")
    cert = load("coins/coins-near-tie.json")
    cert["notes"], cert["tool_version"] = "anything", "9.9"
    assert verify_certificate(cert)["unverified_fields"] == ["notes", "tool_version"]


def test_check_expect_accepts_matching_parameters_compared_exactly(capsys):
    status = main(["check", "-q", str(PROOFS / "chefs" / "chefs-s-1_4-1_2-1.json"),
                   "--expect", "n=3", "--expect", "skills=0.25,1/2,1"])
    assert status == 0, capsys.readouterr().err


def test_check_expect_fails_with_exit_1_on_one_line_naming_parameter_expected_and_found(capsys):
    status = main(["check", str(PROOFS / "race" / "race-10.json"), "--expect", "target=100"])
    err = capsys.readouterr().err.strip()
    assert status == 1
    fail, summary = err.splitlines()
    assert "expected parameter target=100, found target=10" in fail and summary == "1 of 1 certificate(s) failed"


def test_check_expect_a_parameter_the_certificate_lacks_fails_with_exit_1(capsys):
    status = main(["check", str(PROOFS / "race" / "race-10.json"), "--expect", "faces=6"])
    err = capsys.readouterr().err.strip()
    assert status == 1 and "no parameter 'faces'" in err and len(err.splitlines()) == 2


@pytest.mark.parametrize("option", ["target", "=3", "target=", "two words=3"])
def test_check_expect_without_a_key_a_value_or_with_a_key_no_parameter_can_have_is_usage_exit_2(capsys, option):
    status = main(["check", str(PROOFS / "race" / "race-10.json"), "--expect", option])
    err = capsys.readouterr().err.strip()
    assert status == 2 and len(err.splitlines()) == 1 and "--expect" in err


def test_check_help_documents_expect(capsys):
    with pytest.raises(SystemExit):
        main(["check", "--help"])
    out = capsys.readouterr().out
    assert "--expect KEY=VALUE" in out and "target=100" in out


def test_check_expect_compares_a_huge_exponent_as_text_at_once_without_expanding_it(capsys):
    status = main(["check", str(PROOFS / "coins" / "coins-decimals.json"), "--expect", "coins=1e999999999"])
    err = capsys.readouterr().err.strip()
    assert status == 1 and "expected parameter coins=1e999999999, found coins=1/10,1/5" in err


def test_check_stdlib_mode_verifies_with_python_ints_and_says_the_same(capsys):
    from exactplay.checker import _ints

    files = [str(PROOFS / "chefs" / "chefs-fib-10.json"), str(PROOFS / "race" / "race-10.json")]
    try:
        assert main(["check", *files]) == 0
        fast = capsys.readouterr().out
        assert main(["check", "--stdlib", *files]) == 0
        assert not _ints.using_gmpy2()
        slow = capsys.readouterr().out
    finally:
        _ints.use_stdlib(False)
    assert fast == slow and "E(10) = 146.62916429" in fast


def test_check_big_integer_kit_gives_exact_lowest_terms_both_ways():
    from fractions import Fraction

    from exactplay.checker import _ints

    try:
        for stdlib in (False, True):
            _ints.use_stdlib(stdlib)
            x = _ints.ratio(_ints.big(6 * 10**40), _ints.big(4 * 10**40))
            assert x == Fraction(3, 2) and (x.numerator, x.denominator) == (3, 2)
            assert _ints.gcd(_ints.big(12), _ints.big(18)) == 6
    finally:
        _ints.use_stdlib(False)
