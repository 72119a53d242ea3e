"""The checker, the float-table reader and the judge survive hostile input.

Each hostile file of issue 9 is built here (small where the bound lets it be:
just past the bound is enough to prove the bound triggers) and must be refused
with one short line naming the field or the limit, the right exit status
(2: not a certificate / bad input, 1: does not verify), no traceback, and well
within a wall-time ceiling generous for a loaded machine.  These are checks of
boundedness, not benchmarks.
"""

from __future__ import annotations

import gzip
import io
import json
import sys
import time
from fractions import Fraction
from pathlib import Path

import pytest

from exactplay.certify.write import write_certificate
from exactplay.checker import _load, _strict, check_certificate
from exactplay.checker.rules import RULES, rules_module
from exactplay.cli.main import main
from exactplay.errors import VerificationError

PROOFS = Path(__file__).resolve().parent.parent / "proofs"
CEILING = 20.0  # seconds: a refusal takes milliseconds; this only catches a runaway
MAX_ERROR_CHARS = 600  # "FAIL " or "exactplay: error: " + the checker's at most 400 characters
LIMIT = _strict.MAX_NUMBER_CHARS


def load(name: str) -> dict:
    return json.loads((PROOFS / name).read_text())


def run_cli(capsys, *argv) -> tuple[int, str, str, float]:
    start = time.monotonic()
    status = main(list(argv))
    elapsed = time.monotonic() - start
    out, err = capsys.readouterr()
    return status, out, err, elapsed


def assert_refused(result, status: int, *words: str) -> str:
    """Exit ``status``, one short line on stderr containing ``words``, nothing on stdout, in time."""
    got, out, err, elapsed = result
    assert got == status, err
    assert out == ""
    if err.startswith("FAIL "):  # check: one line per certificate, then the summary
        err, summary = err.split("\n", 1)
        err += "\n"
        assert summary == "1 of 1 certificate(s) failed\n", summary[:300]
    assert err.count("\n") == 1 and err.startswith(("exactplay: error: ", "FAIL ")), err[:300]
    assert len(err) <= MAX_ERROR_CHARS, f"{len(err)} characters: {err[:200]}"
    assert "Traceback" not in err
    for w in words:
        assert w in err, (w, err)
    assert elapsed < CEILING, f"{elapsed:.1f} s"
    return err


def write(tmp_path: Path, cert: dict, name: str = "c.json") -> str:
    return str(write_certificate(cert, tmp_path / name))


# ---------------------------------------------------------------- numbers too long


def test_a_stored_value_one_character_past_the_limit_is_refused_naming_the_field(tmp_path, capsys):
    cert = load("coins/coins-seed-example.json")
    cert["solution"]["values"][3][0] = "1" * (LIMIT - 1) + "/1"
    err = assert_refused(run_cli(capsys, "check", write(tmp_path, cert)), 1,
                         "'solution.values'", f"longer than the {LIMIT:,} allowed")
    assert "1" * 100 not in err


def _assert_million_digit_numerators_refused(tmp_path, capsys, policy_only: dict) -> None:
    """A policy-only certificate (its answer) and race 10 (its values): no number of more than a
    million characters."""
    for cert, field in ((policy_only, "answer"), (load("race/race-10.json"), "solution")):
        cert = json.loads(json.dumps(cert))
        if field == "answer":
            cert["answer"]["value"] = "7" * 10**6 + "/9"
        else:
            cert["solution"]["values"][0][0] = "7" * 10**6 + "/9"
        err = assert_refused(run_cli(capsys, "check", write(tmp_path, cert)), 1, f"'{field}.")
        assert "7" * 100 not in err


def test_a_million_digit_numerator_is_refused_at_once_without_echoing_it(tmp_path, capsys):
    """The policy-only certificate is race 10's (--store policy, 0.05 s to make); the slow twin
    below reads the stored race 100 (policy only, 1.3 s of CPU to check)."""
    from exactplay.games import get_game

    _assert_million_digit_numerators_refused(tmp_path, capsys, get_game("race").certify(target=10, store="policy"))


@pytest.mark.slow
def test_a_million_digit_numerator_in_the_stored_race_100_is_refused_without_echoing_it(tmp_path, capsys):
    _assert_million_digit_numerators_refused(tmp_path, capsys, load("race/race-100.json"))


def test_a_number_just_within_the_limit_is_read_in_milliseconds_with_gmpy2():
    """GMP converts decimal text in quasi-linear time (int() would take seconds at a million digits)."""
    from exactplay.checker import _ints

    if not _ints.using_gmpy2():
        pytest.skip("gmpy2 not installed: Python's int() reads it, quadratically")
    start = time.process_time()
    x = _strict.rational("7" * (LIMIT // 2 - 1) + "/" + "1" * (LIMIT // 2), "answer.value")
    assert x > 0 and time.process_time() - start < CEILING / 4


def test_every_stored_certificate_is_within_the_checkers_bounds():
    """The bounds are sound on the tool's own certificates: no number is longer than allowed and no
    built-in game's model has more states than its rules' bound."""
    for path in sorted(PROOFS.glob("*/*.json")):
        cert = json.loads(path.read_text())
        assert max(map(len, _strings(cert)), default=0) <= LIMIT, path
        if cert["kind"] == "game":
            module = rules_module(cert["game"])
            assert len(cert["solution"]["policy"]) <= module.state_bound(module.read_params(cert["params"])), path


def _strings(node):
    if isinstance(node, str):
        yield node
    elif isinstance(node, dict):
        for v in node.values():
            yield from _strings(v)
    elif isinstance(node, list):
        for v in node:
            yield from _strings(v)


# ---------------------------------------------------------------- JSON, file and decompressed size


def test_a_ten_million_digit_integer_in_a_certificate_fails_fast_as_not_a_certificate(tmp_path, capsys):
    text = (PROOFS / "race/race-1.json").read_text().replace('"version": 2', '"version": ' + "7" * 10**7, 1)
    path = tmp_path / "c.json"
    path.write_text(text)
    assert_refused(run_cli(capsys, "check", str(path)), 1, "not a certificate", f"{_load.JSON_INT_DIGITS} digits")


def test_an_integer_just_past_the_json_digit_guard_is_refused(tmp_path, capsys):
    text = (PROOFS / "race/race-1.json").read_text().replace('"version": 2', '"version": '
                                                             + "1" * (_load.JSON_INT_DIGITS + 1), 1)
    path = tmp_path / "c.json"
    path.write_text(text)
    assert_refused(run_cli(capsys, "check", str(path)), 1, "integer literal longer than")


def test_the_json_digit_guard_is_restored_after_parsing():
    before = sys.get_int_max_str_digits()
    with pytest.raises(ValueError):
        _load.parse_json("1" * 5000)
    assert sys.get_int_max_str_digits() == before


def test_a_file_past_the_size_limit_is_not_read(tmp_path, capsys, monkeypatch):
    path = write(tmp_path, load("race/race-2.json"))
    monkeypatch.setattr(_load, "MAX_FILE_BYTES", Path(path).stat().st_size - 1)
    assert_refused(run_cli(capsys, "check", path), 1, "larger than the limit")


def _bomb(total: int, member: int = 10 * 1024**2) -> bytes:
    """Concatenated gzip members of zeros: ``total`` bytes inflated from a few KB."""
    one = gzip.compress(b"0" * member, compresslevel=9, mtime=0)
    return one * (total // member)


def test_a_gzip_certificate_inflating_to_a_gigabyte_is_refused_after_reading_just_past_the_limit(
        tmp_path, capsys, monkeypatch):
    path = tmp_path / "bomb.json.gz"
    path.write_bytes(_bomb(1024**3))
    assert path.stat().st_size < 2 * 1024**2
    monkeypatch.setattr(_load, "MAX_FILE_BYTES", 4 * 1024**2)  # above the file, far below what it inflates to
    assert_refused(run_cli(capsys, "check", str(path)), 1, f"inflates to more than {4 * 1024**2} bytes")


def test_a_list_longer_than_the_models_states_is_refused_before_its_numbers_are_read():
    cert = load("race/race-2.json")
    cert["solution"]["values"] += [["7" * 999_000 + "/1", "0/1"]] * 100
    start = time.process_time()
    with pytest.raises(VerificationError) as exc:
        check_certificate(cert)
    assert exc.value.field == "solution.values" and "entries" in str(exc.value)
    assert time.process_time() - start < CEILING / 4


# ---------------------------------------------------------------- parameters within the solvers' limits


@pytest.mark.parametrize("suits", [10**9, 10**5, 2100])
def test_war_with_absurd_suits_is_refused_by_the_parameter_bound(tmp_path, capsys, suits):
    cert = load("war/war-4x2.json")
    cert["params"]["suits"] = suits
    assert_refused(run_cli(capsys, "check", write(tmp_path, cert)), 1, "'params.suits'", "1..8")


@pytest.mark.parametrize("game, file, field, value, limit", [
    ("race", "race/race-2.json", "target", 501, "1..500"),
    ("hold", "hold/hold-5-3.json", "target", 151, "2..150"),
    ("hold", "hold/hold-5-3.json", "faces", 13, "2..12"),
    ("war", "war/war-4x2.json", "ranks", 27, "1..26"),
    ("chefs", "chefs/chefs-fib-3.json", "n", 16, "2..15"),
])
def test_parameters_past_the_solvers_limits_are_refused(tmp_path, capsys, game, file, field, value, limit):
    cert = load(file)
    cert["params"][field] = value
    assert_refused(run_cli(capsys, "check", write(tmp_path, cert)), 1, f"'params.{field}'", limit)


def test_more_coins_than_the_solver_takes_are_refused_before_the_model_is_built(tmp_path, capsys):
    cert = load("coins/coins-seed-example.json")
    cert["params"]["coins"] = ["1/1"] * 1001
    assert_refused(run_cli(capsys, "check", write(tmp_path, cert)), 1, "'params.coins'", "1000")


def test_the_numbers_a_user_can_type_fit_the_checkers_limit():
    from exactplay.numbers.backends import MAX_INPUT_CHARS, MAX_INPUT_EXPONENT, read_rational

    m = MAX_INPUT_CHARS
    for word in ("9" * (m - 5) + "e1000", "0." + "0" * (m - 10) + "1e-1000", "9" * (m // 2) + "/" + "7" * (m // 2 - 1)):
        assert len(word) <= m
        x = read_rational(word)
        assert len(f"{x.numerator}/{x.denominator}") <= min(LIMIT, 2 * (MAX_INPUT_CHARS + MAX_INPUT_EXPONENT + 1) + 1)
    assert set(RULES) == {"race", "hold", "chefs", "coins", "war"}


# ---------------------------------------------------------------- numbers of huge and tiny rationals


def test_a_stored_hold_value_of_10_to_the_400_is_refused_in_one_line(tmp_path, capsys):
    cert = load("hold/hold-10-6.json")
    cert["solution"]["values"][5][0] = "1" + "0" * 400 + "/1"
    err = assert_refused(run_cli(capsys, "check", write(tmp_path, cert)), 1, "'solution.values'")
    assert "e+399 (a p/q of" in err  # the predecessor's one-step value, from the exact exponent


def test_numbers_beyond_the_double_range_are_printed_not_raised():
    from decimal import Decimal, localcontext

    with localcontext() as ctx:
        ctx.prec = 50
        tiny, huge = Decimal(1) / Decimal(2**1050), Decimal(2**1049)
    assert _strict.approx(Fraction(1, 2**1050), 7) == format(tiny, ".6e")  # below the normal range
    assert _strict.approx(Fraction(2**1049), 7) == format(huge, ".6e")  # float() would overflow
    assert _strict.approx(Fraction(-10**400), 4) == "-1.000e+400"
    assert _strict.approx(Fraction(1, 10**5000), 2) == "1.0e-5000"
    assert _strict.approx(Fraction(1, 3), 10) == "0.3333333333"
    assert _strict.pq(Fraction(1, 2**1050)).startswith("8.28904605846e-317")


# ---------------------------------------------------------------- one short line, whatever the input


@pytest.mark.parametrize("mutate, field", [
    (lambda c: c.update(version="v" * 10**6), "'version'"),
    (lambda c: c["solution"].update(witness="w" * 10**6), "'solution.witness'"),
    (lambda c: c["answer"].update(decimal="0." + "1" * 10**6), "'answer.decimal'"),
    (lambda c: c.update(game="g" * 10**6), "'game'"),
    (lambda c: c["solution"].update(components=["c" * 10**6]), "'solution.components'"),
])
def test_megabyte_fields_are_never_echoed(tmp_path, capsys, mutate, field):
    cert = load("race/race-2.json")
    mutate(cert)
    status, out, err, elapsed = run_cli(capsys, "check", write(tmp_path, cert))
    fail, summary = err.splitlines()
    assert status == 1 and summary == "1 of 1 certificate(s) failed" and len(fail) <= MAX_ERROR_CHARS, err[:300]
    assert field in err and "Traceback" not in err and elapsed < CEILING


# ---------------------------------------------------------------- the checker's work is linear in the model


def test_the_checkers_additions_grow_with_the_model_not_faster(monkeypatch):
    """A coin row of n coins has about n^2 / 2 states of two actions each: doubling the row multiplies
    the exact additions of the check by about 4 (one pass per state and action), not 8."""
    from exactplay.checker import _ints
    from exactplay.games.coins.model import certify

    counts = {}
    real_add, real_sub = Fraction.__add__, Fraction.__sub__
    try:
        _ints.use_stdlib(True)  # Python's Fractions, whose additions can be counted
        for n in (30, 60):
            cert = json.loads(json.dumps(certify(coins=tuple(Fraction(k % 7 + 1, k % 3 + 1) for k in range(n)),
                                                 store="policy")))
            calls = [0]

            def add(a, b, _f=real_add):
                calls[0] += 1
                return _f(a, b)

            def sub(a, b, _f=real_sub):
                calls[0] += 1
                return _f(a, b)

            monkeypatch.setattr(Fraction, "__add__", add)
            monkeypatch.setattr(Fraction, "__sub__", sub)
            check_certificate(cert)
            monkeypatch.setattr(Fraction, "__add__", real_add)
            monkeypatch.setattr(Fraction, "__sub__", real_sub)
            counts[n] = calls[0]
    finally:
        _ints.use_stdlib(False)
    assert counts[60] < 5 * counts[30], counts


@pytest.mark.slow  # heavy: out of the default suite's CPU budget
def test_a_200_coin_certificate_checks_well_within_the_ceiling(tmp_path):
    from exactplay.checker import check_file
    from exactplay.games.coins.model import certify

    cert = certify(coins=tuple(Fraction((k * 37) % 101 + 1) for k in range(200)), backend="fraction")
    path = write(tmp_path, cert)
    start = time.monotonic()
    assert "model rebuilt from the rules of coins (coins=200)" in check_file(path)
    assert time.monotonic() - start < 2 * CEILING


# ---------------------------------------------------------------- the float-table reader


def test_a_ten_million_digit_integer_in_a_json_float_table_is_refused_fast(tmp_path, capsys):
    path = tmp_path / "t.json"
    path.write_text("[[1, 1, " + "7" * 10**7 + "]]")
    assert_refused(run_cli(capsys, "audit", "race", "--target", "1", "--float-table", str(path)), 2,
                   "not a float table", "digits")


@pytest.mark.parametrize("line, words", [
    ("1 1 " + "7" * 10**6, ["longer than 1000 characters"]),
    ("1" * 10**6 + " 1 0.5", ["longer than 18 characters"]),
    ("1 1 1e400", ["not finite"]),
])
def test_huge_text_fields_of_a_float_table_are_refused_in_one_line(tmp_path, capsys, line, words):
    path = tmp_path / "t.txt"
    path.write_text(line + "\n")
    err = assert_refused(run_cli(capsys, "audit", "race", "--target", "1", "--float-table", str(path)), 2, *words)
    assert "7" * 100 not in err and "1" * 100 not in err


def test_json_float_table_values_beyond_the_double_range_are_refused_and_tiny_ones_read(tmp_path):
    from exactplay.errors import UsageError
    from exactplay.audit.float_table import read_float_table

    path = tmp_path / "t.json"
    path.write_text("[[1, 1, 1" + "0" * 400 + "]]")
    with pytest.raises(UsageError, match="beyond the double range"):
        read_float_table(path, ("a", "b"))
    path.write_text("[[1, 1, 1e-300], [1, 2, 5e-324], [2, 1, 1e-400], [2, 2, -0.0]]")
    assert read_float_table(path, ("a", "b")) == {(1, 1): 1e-300, (1, 2): 5e-324, (2, 1): 0.0, (2, 2): 0.0}


def test_a_float_table_past_the_size_limit_is_not_read(tmp_path, capsys, monkeypatch):
    from exactplay.audit import float_table

    path = tmp_path / "t.txt"
    path.write_text("1 1 0.5\n")
    monkeypatch.setattr(float_table, "MAX_TABLE_BYTES", 4)
    assert_refused(run_cli(capsys, "audit", "race", "--target", "1", "--float-table", str(path)), 2,
                   "larger than the limit")


# ---------------------------------------------------------------- the judge


class _CountingStdin(io.StringIO):
    """Standard input that records how many characters were read."""

    def __init__(self, text: str):
        super().__init__(text)
        self.taken = 0

    def readline(self, size=-1):
        line = super().readline(size)
        self.taken += len(line)
        return line

    def read(self, size=-1):
        text = super().read(size)
        self.taken += len(text)
        return text


def test_judge_checks_q_before_reading_the_rest(capsys, monkeypatch):
    stdin = _CountingStdin("1001\n" + "1 2 3\n" * 10**6)
    monkeypatch.setattr(sys, "stdin", stdin)
    assert_refused(run_cli(capsys, "judge", "hold"), 2, "line 1", "Q must be between 1 and 1000")
    assert stdin.taken == len("1001\n")


def test_judge_reads_no_more_than_q_lines_can_hold(capsys, monkeypatch):
    stdin = _CountingStdin("1\n1 2 3\n" + " " * 10**7)
    monkeypatch.setattr(sys, "stdin", stdin)
    assert_refused(run_cli(capsys, "judge", "hold"), 2, "more input than Q = 1")
    assert stdin.taken < 10**5


@pytest.mark.parametrize("text, words", [
    ("9" * 10**6 + "\n1 2 3\n", ["line 1", "longer than 200 characters"]),
    ("1\n1 2 " + "3" * 19 + "\n", ["line 2", "X has more than 18 digits"]),
    ("1\n1 " + "0" * 300 + " 3\n", ["line 2", "longer than 200 characters"]),
    ("\n" * 10**6 + "1\n1 2 3\n", ["before the line with Q"]),
])
def test_judge_refuses_long_lines_and_numbers_without_converting_them(capsys, monkeypatch, text, words):
    monkeypatch.setattr(sys, "stdin", io.StringIO(text))
    err = assert_refused(run_cli(capsys, "judge", "hold"), 2, *words)
    assert "9" * 100 not in err and "0" * 100 not in err


def test_judge_answers_file_longer_than_q_answers_is_refused(tmp_path, capsys, monkeypatch):
    answers = tmp_path / "a.txt"
    answers.write_text("H\n" * 10**6)
    monkeypatch.setattr(sys, "stdin", io.StringIO("1\n1 2 3\n"))
    assert_refused(run_cli(capsys, "judge", "hold", "--check", str(answers)), 2, "longer than")


# ---------------------------------------------------------------- many tiny JSON values


def test_a_file_of_too_many_json_values_is_not_parsed(tmp_path, capsys, monkeypatch):
    """Parsed JSON costs memory per value (~80 bytes for "[0]"), not per byte: the commas are counted first."""
    cert = load("race/race-2.json")
    cert["notes"] = [[0]] * 2000
    path = write(tmp_path, cert)
    monkeypatch.setattr(_load, "MAX_JSON_VALUES", 1000)
    assert_refused(run_cli(capsys, "check", path), 1, "more than 1000 JSON values")


@pytest.mark.parametrize("text", ["--5/3", "-/3", "5/", "5/0", "٣/4", "1/-3", " 1/3", "2/4"])
def test_malformed_rationals_are_one_verification_error_naming_the_field(text):
    with pytest.raises(VerificationError) as exc:
        _strict.rational(text, "answer.value")
    assert exc.value.field == "answer.value" and "\n" not in str(exc.value)
