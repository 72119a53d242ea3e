"""Every ``--json`` output of every command, and every certificate, is strict JSON.

Strict JSON (RFC 8259) has no ``NaN``, ``Infinity`` or ``-Infinity``; Python's
``json.loads`` accepts them unless ``parse_constant`` refuses, which is what
:func:`strict_loads` does.  An error measure with no double value (a relative
error when the exact value is 0, an ulp count beyond the largest double) is
written as ``null`` with a sibling ``<field>_reason`` (see
:mod:`exactplay.strict_json`); the tests check that encoding too.

The CLI runs in-process (``exactplay.cli.main.main``) at small parameters, so the
file takes a few seconds plus the HTML reports' figures.
"""

from __future__ import annotations

import ast
import dataclasses
import json
import math
import re
import tempfile
from fractions import Fraction
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from exactplay.audit.judge import audit_values, ratio, relative_error, ulp_error
from exactplay.cli.main import build_parser, main
from exactplay.errors import EXIT_OK, EXIT_USAGE
from exactplay.games import get_game
from exactplay.numbers.backends import get_backend
from exactplay.progress import SILENT
from exactplay.strict_json import NonFinite, NonFiniteOutput, dumps, json_ready

ROOT = Path(__file__).resolve().parents[1]
PROOFS = ROOT / "proofs"
REASON_PREFIXES = ("infinite: ", "out of range: ")
NON_FINITE_TEXT = ("inf", "-inf", "+inf", "nan", "Infinity", "-Infinity", "NaN")
HYPOTHESIS = settings(max_examples=25, deadline=None, derandomize=True,
                      suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])


def _refuse_constant(name: str):
    raise AssertionError(f"not strict JSON: {name}")


def strict_loads(text: str):
    """``json.loads`` that refuses ``NaN``, ``Infinity`` and ``-Infinity``."""
    return json.loads(text, parse_constant=_refuse_constant)


def run(capsys, argv: list[str]) -> tuple[int, str, str]:
    status = main([str(a) for a in argv])
    out, err = capsys.readouterr()
    return status, out, err


def assert_encoded_measures_documented(obj, where: str = "") -> int:
    """Every ``<field>_reason`` sits beside a ``null`` ``<field>`` and starts with a documented kind,
    and no infinity hides in a string (``"inf"``, the encoding hold used to have).

    Returns how many such measures were found."""
    found = 0
    assert obj not in NON_FINITE_TEXT, f"{where} = {obj!r}: an infinity written as text, not null + _reason"
    if isinstance(obj, dict):
        for key, value in obj.items():
            if isinstance(key, str) and key.endswith("_reason") and key[: -len("_reason")] in obj:
                field = key[: -len("_reason")]
                assert obj[field] is None, f"{where}.{field} has a reason but is not null"
                assert isinstance(value, str) and value.startswith(REASON_PREFIXES), f"{where}.{key} = {value!r}"
                found += 1
            found += assert_encoded_measures_documented(value, f"{where}.{key}")
    elif isinstance(obj, list):
        for i, value in enumerate(obj):
            found += assert_encoded_measures_documented(value, f"{where}[{i}]")
    return found


def json_of(capsys, argv: list[str], status: int = EXIT_OK):
    """Run ``argv`` and return its stdout parsed as strict JSON (the exit status must be ``status``)."""
    code, out, err = run(capsys, argv)
    assert code == status, f"exactplay {' '.join(map(str, argv))}: exit {code}, stderr {err!r}"
    assert "Traceback" not in err
    data = strict_loads(out)
    assert_encoded_measures_documented(data)
    return data


def assert_one_line_error(capsys, argv: list[str]) -> None:
    code, out, err = run(capsys, argv)
    assert code == EXIT_USAGE, f"exactplay {' '.join(argv)}: exit {code}, stderr {err!r}"
    assert out == "" and len(err.strip().splitlines()) == 1 and "Traceback" not in err, err


# ------------------------------------------------------------------ every command at small parameters

GAME_INSTANCES = {
    "race": [["--target", "1"], ["--target", "3"]],
    "hold": [["--target", "2", "--faces", "2"], ["--target", "5", "--faces", "3"], ["--target", "8", "--faces", "2"]],
    "chefs": [["--n", "3"], ["--skills", "1,2/3,2/5,2/3"], ["--skills", "1,1,1"],
              ["--skills", "1/100000000000000000000,1"], ["--skills", "1/3,1/1000000000000,1,1/7"]],
    "coins": [["--", "0.1", "0.2", "-0.1"], ["--", "0"], ["--", "0", "0", "0"], ["--", "-1", "-2", "1e-300"],
              ["--", "1e300", "3/7", "-1e300", "0"]],
    "war": [["--ranks", "1", "--suits", "2"], ["--ranks", "2", "--suits", "2"], ["--ranks", "3", "--suits", "2"]],
}
CASES = [(game, params) for game, instances in GAME_INSTANCES.items() for params in instances]
CASE_IDS = [f"{game} {' '.join(params)}" for game, params in CASES]


def _with_options(params: list[str], *options: str) -> list[str]:
    """Options before a ``--`` (coin values follow it)."""
    if "--" in params:
        k = params.index("--")
        return params[:k] + list(options) + params[k:]
    return params + list(options)


def test_list_json_is_strict_json(capsys):
    rows = json_of(capsys, ["list", "--json"])
    assert {r["game"] for r in rows} == set(GAME_INSTANCES)


@pytest.mark.parametrize("game,params", CASES, ids=CASE_IDS)
def test_solve_audit_certify_and_check_json_are_strict_json(capsys, tmp_path, game, params):
    solved = json_of(capsys, ["solve", game] + _with_options(params, "--json"))
    assert solved["game"] == game
    audited = json_of(capsys, ["audit", game] + _with_options(params, "--json"))
    assert audited["game"] == game
    cert = tmp_path / "cert.json"
    written = json_of(capsys, ["certify", game] + _with_options(params, "--json", "-o", str(cert)))
    assert written["written"] == str(cert)
    assert_encoded_measures_documented(strict_loads(cert.read_text(encoding="utf-8")))
    checked = json_of(capsys, ["check", "--json", str(cert)])
    assert [r["ok"] for r in checked["certificates"]] == [True]


REPORTED = [("coins", ["--", "0.1", "0.2", "-0.1"]), ("chefs", ["--skills", "1,2/3,2/5,2/3"]),
            ("hold", ["--target", "8", "--faces", "2"]), ("race", ["--target", "1"]),
            ("war", ["--ranks", "2", "--suits", "2"])]


@pytest.mark.parametrize("game,params", REPORTED, ids=[f"{g} {' '.join(p)}" for g, p in REPORTED])
def test_audit_json_on_fractions_encodes_infinite_measures_like_on_mpq(capsys, game, params):
    on_mpq = json_of(capsys, ["audit", game] + _with_options(params, "--json"))
    on_fractions = json_of(capsys, ["audit", game] + _with_options(params, "--json", "--backend", "fraction"))
    assert on_fractions == on_mpq


def test_check_json_of_small_proofs_and_of_a_failure_is_strict_json(capsys, tmp_path):
    small = [PROOFS / "race/race-3.json", PROOFS / "hold/hold-5-3.json", PROOFS / "chefs/chefs-fib-3.json",
             PROOFS / "coins/coins-seed-example.json", PROOFS / "war/war-4x2.json"]
    assert [r["ok"] for r in json_of(capsys, ["check", "--json", *small])["certificates"]] == [True] * len(small)
    bad = tmp_path / "bad.json"
    cert = json.loads((PROOFS / "race/race-3.json").read_text(encoding="utf-8"))
    cert["model_sha256"] = "0" * 64
    bad.write_text(json.dumps(cert), encoding="utf-8")
    failed = json_of(capsys, ["check", "--json", str(bad)], status=1)
    assert failed["certificates"][0]["ok"] is False and failed["certificates"][0]["error"]
    assert (failed["checked"], failed["failed"]) == (1, 1)


def test_claims_json_is_strict_json(capsys):
    rows = json_of(capsys, ["claims", "--json", "--fast", "--game", "coins", "-q"])
    assert rows and all("id" in r or "claim" in r for r in rows)


# ``report GAME --json`` of every game: test_json_every_command (strict JSON, its HTML written).


def test_judge_json_is_strict_json(capsys, tmp_path):
    queries = tmp_path / "in.txt"
    queries.write_text("3\n0 0 2\n1 1 2\n2 0 3\n", encoding="utf-8")
    answers = json_of(capsys, ["judge", "hold", "--target", "5", "--faces", "3", "--json", str(queries)])
    assert len(answers) == 3
    explained = json_of(capsys, ["judge", "hold", "--target", "5", "--faces", "3", "--json", "--explain",
                                 str(queries)])
    right = tmp_path / "answers.txt"
    right.write_text("".join(r["answer"] + "\n" for r in explained), encoding="utf-8")
    ok = json_of(capsys, ["judge", "hold", "--target", "5", "--faces", "3", "--json", "--check", str(right),
                          str(queries)])
    assert ok == {"ok": True, "queries": 3}


# ------------------------------------------------------------------ the reported tracebacks


def test_audit_coins_with_a_zero_value_writes_an_infinite_relative_error_as_null_with_reason(capsys):
    data = json_of(capsys, ["audit", "coins", "--json", "--", "0.1", "0.2", "-0.1"])
    values = data["dp_sum"]["values"]
    assert values["max_rel_error"] is None
    assert values["max_rel_error_reason"].startswith("infinite: exact value 0")


def test_audit_hold_writes_its_infinite_relative_error_like_every_game_not_as_text(capsys):
    data = json_of(capsys, ["audit", "hold", "--target", "8", "--faces", "2", "--json"])
    assert data["values_published"]["max_rel_error"] is None
    assert data["values_published"]["max_rel_error_reason"].startswith("infinite: exact value 0")


def test_audit_chefs_with_a_float_zero_writes_its_ulp_count_as_null_and_prints_the_reason(capsys):
    data = json_of(capsys, ["audit", "chefs", "--skills", "1,2/3,2/5,2/3", "--json"])
    assert data["winner_values"]["max_ulps"] is None
    assert data["winner_values"]["max_ulps_reason"].startswith("out of range: float 0.0")
    code, out, _ = run(capsys, ["audit", "chefs", "--skills", "1,2/3,2/5,2/3"])
    assert code == EXIT_OK and "max ulps      : > 1.8e+308 (float 0.0" in out


def assert_no_bare_infinity(text: str) -> None:
    """Text output: an infinite measure always says why (``inf (...)``), never a bare ``inf``/``nan``."""
    assert not re.search(r"\bnan\b", text, re.IGNORECASE), text
    assert not re.search(r"\binf\b(?! \()", text), text


def _write_table(path: Path, rows: list[tuple[tuple, float]], as_json: bool) -> None:
    if as_json:
        path.write_text(json.dumps([[*s, v] for s, v in rows]), encoding="utf-8")
    else:
        path.write_text("".join(" ".join(map(str, s)) + f" {v!r}\n" for s, v in rows), encoding="utf-8")


def _exact_table(game: str, params: dict) -> dict:
    exact, _, _ = get_game(game).value_table(backend=get_backend("mpq"), progress=SILENT, **params)
    return exact


def test_float_table_of_1e_300_against_exact_zero_gives_json_null_and_text_inf_with_reason(capsys, tmp_path):
    coins = ["1", "0", "-1"]
    exact = _exact_table("coins", {"coins": tuple(Fraction(c) for c in coins), "file": None})
    rows = [(s, 1e-300 if x == 0 else float(x)) for s, x in exact.items()]
    table = tmp_path / "t.txt"
    _write_table(table, rows, as_json=False)
    data = json_of(capsys, ["audit", "coins", "--float-table", str(table), "--json", "--", *coins])
    assert data["values"]["max_rel_error"] is None
    assert data["values"]["max_rel_error_reason"] == "infinite: exact value 0, float 1e-300"
    code, out, _ = run(capsys, ["audit", "coins", "--float-table", str(table), "--", *coins])
    assert code == EXIT_OK and "inf (exact value 0, float 1e-300)" in out
    assert_no_bare_infinity(out)


# ------------------------------------------------------------------ hypothesis: coin rows, float tables

MAGNITUDES = ["0", "1", "0.1", "1e-300", "1e300", "3/7", "22/7", "1e-17", "123456789012345678901234567890",
              "0.000000000000000000000000000001", "1/3", "5e-20", "2.5"]
coin_text = st.builds(lambda m, neg: ("-" + m) if neg and m != "0" else m, st.sampled_from(MAGNITUDES), st.booleans())


@HYPOTHESIS
@given(row=st.lists(coin_text, min_size=1, max_size=6))
def test_every_coin_row_the_cli_accepts_gives_strict_json_and_text_that_says_why(capsys, row):
    for command in ("solve", "audit"):
        data = json_of(capsys, [command, "coins", "--json", "--", *row])
        assert data["n"] == len(row)
        code, out, err = run(capsys, [command, "coins", "--", *row])
        assert code == EXIT_OK, err
        assert_no_bare_infinity(out)
    with tempfile.TemporaryDirectory() as tmp:
        cert = Path(tmp) / "c.json"
        json_of(capsys, ["certify", "coins", "--json", "-o", str(cert), "--", *row])
        strict_loads(cert.read_text(encoding="utf-8"))
        assert [r["ok"] for r in json_of(capsys, ["check", "--json", str(cert)])["certificates"]] == [True]


EXTREMES = [0.0, -0.0, 1e-300, -1e-300, 1e300, -1e300, 5e-324, 2.2250738585072014e-308, 1.7976931348623157e308,
            -1.7976931348623157e308, 0.5, 1.0]
extreme_float = st.sampled_from(EXTREMES) | st.floats(allow_nan=False, allow_infinity=False)
TABLE_INSTANCES = [("race", ["--target", "2"], {"target": 2}),
                   ("hold", ["--target", "3", "--faces", "2"], {"target": 3, "faces": 2}),
                   ("coins", ["--", "0", "1/3", "-2"], {"coins": (Fraction(0), Fraction(1, 3), Fraction(-2)),
                                                         "file": None})]


@HYPOTHESIS
@given(instance=st.sampled_from(TABLE_INSTANCES), data=st.data(), as_json=st.booleans())
def test_every_float_table_of_extreme_doubles_gives_strict_json_and_text_that_says_why(capsys, instance, data,
                                                                                        as_json):
    game, argv, params = instance
    exact = _exact_table(game, params)
    rows = [(s if isinstance(s, tuple) else (s,), data.draw(extreme_float)) for s in exact]
    with tempfile.TemporaryDirectory() as tmp:
        table = Path(tmp) / ("t.json" if as_json else "t.txt")
        _write_table(table, rows, as_json)
        result = json_of(capsys, ["audit", game, "--float-table", str(table), "--json"] + argv)
        assert result["values"]["cells"] == len(exact)
        code, out, err = run(capsys, ["audit", game, "--float-table", str(table)] + argv)
        assert code == EXIT_OK, err
        assert_no_bare_infinity(out)


# ------------------------------------------------------------------ the encoder and the measures


def test_an_infinite_measure_is_null_with_a_reason_in_json_and_inf_with_the_reason_in_text():
    m = relative_error(0.5, Fraction(0))
    assert m == math.inf and isinstance(m, NonFinite)
    assert f"{m:.3e}" == "inf (exact value 0, float 0.5)"
    assert strict_loads(dumps({"rel": m})) == {"rel": None, "rel_reason": "infinite: exact value 0, float 0.5"}
    assert relative_error(0.0, Fraction(0)) == 0.0 and not isinstance(relative_error(0.0, Fraction(0)), NonFinite)


def test_an_ulp_count_beyond_the_largest_double_is_out_of_range_not_a_crash():
    m = ulp_error(0.0, Fraction(1, 2))
    assert isinstance(m, NonFinite) and m.json_reason.startswith("out of range: float 0.0")
    assert ulp_error(1.0, Fraction(1)) == 0.0
    assert ulp_error(0.5, Fraction(1, 2) + Fraction(1, 2**54)) == 0.5


def test_a_relative_error_beyond_the_largest_double_is_out_of_range():
    m = relative_error(1.0, Fraction(1, 10**400))
    assert isinstance(m, NonFinite) and m.json_reason.startswith("out of range: ")
    v = audit_values({"a": Fraction(1, 10**400)}, {"a": 1.0})
    assert strict_loads(dumps(v.to_dict()))["max_rel_error"] is None


def test_a_bound_over_a_zero_measured_error_is_infinite_with_its_reason():
    m = ratio(1e-16, 0.0, "measured error 0")
    assert isinstance(m, NonFinite) and m.json_reason == "infinite: measured error 0"
    assert ratio(1.0, 4.0, "unused") == 0.25
    assert isinstance(ratio(1e300, 1e-300, "unused"), NonFinite)


@pytest.mark.parametrize("bad", [math.inf, -math.inf, math.nan])
def test_the_encoder_refuses_a_bare_non_finite_float_naming_the_field(bad):
    with pytest.raises(NonFiniteOutput, match=r"\['values'\]\[1\]\['x'\]"):
        dumps({"values": [1.0, {"x": bad}]})
    with pytest.raises(NonFiniteOutput):
        json_ready([NonFinite("infinite", "no field to hold the reason")])


def test_a_non_finite_output_is_a_one_line_error_not_a_traceback(capsys, monkeypatch):
    """A regression that puts a bare NaN into a report fails loudly, on one line, naming the field."""
    real_get_game = get_game

    def with_nan(name):
        game = real_get_game(name)

        def solve(**kwargs):
            report = game.solve(**kwargs)
            report.data["oops"] = math.nan
            return report

        return dataclasses.replace(game, solve=solve)

    monkeypatch.setattr("exactplay.cli.game_commands.get_game", with_nan)
    code, out, err = run(capsys, ["solve", "race", "--target", "2", "--json"])
    assert code == EXIT_USAGE and out == ""
    assert len(err.strip().splitlines()) == 1 and "['oops']" in err and "Traceback" not in err


# ------------------------------------------------------------------ the rule in the code and the help


def _json_dumps_calls(tree: ast.AST):
    for node in ast.walk(tree):
        if (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr in ("dumps", "dump")
                and isinstance(node.func.value, ast.Name) and node.func.value.id == "json"):
            yield node


# call sites in files another branch owns (the checker); they only re-encode rows the checker has parsed.
# Remove an entry once that file passes allow_nan=False: the test then holds it to the rule.
PENDING_ELSEWHERE: set[str] = set()


def test_every_json_dumps_in_the_package_passes_allow_nan_false():
    package = ROOT / "src" / "exactplay"
    offenders, calls = set(), 0
    for path in sorted(package.rglob("*.py")):
        for call in _json_dumps_calls(ast.parse(path.read_text(encoding="utf-8"))):
            calls += 1
            strict = any(k.arg == "allow_nan" and isinstance(k.value, ast.Constant) and k.value.value is False
                         for k in call.keywords)
            if not strict:
                offenders.add(f"{path.relative_to(package).as_posix()}:{call.lineno}")
    assert calls >= 4  # the scan sees the calls (strict_json, the model digests, the checker)
    assert {o.split(":")[0] for o in offenders} <= PENDING_ELSEWHERE, sorted(offenders)


def test_help_and_the_command_reference_document_the_encoding_of_infinite_measures():
    help_text = build_parser().format_help()
    assert "_reason" in help_text and "null" in help_text
    reference = (ROOT / "docs" / "commands.md").read_text(encoding="utf-8")
    assert "_reason" in reference and "null" in reference


def test_the_encoding_examples_in_the_docstrings_hold():
    import doctest

    import importlib

    for module in map(importlib.import_module, ("exactplay.strict_json", "exactplay.audit.judge")):
        result = doctest.testmod(module)
        assert result.attempted >= 2 and result.failed == 0, module.__name__
