"""The checker, the float-table reader and the judge survive hostile input.

Each hostile file of issue 9 is built here (small where the bound lets it be:
just past the bound is enough to prove the bound triggers) and must be refused
with one short line naming the field or the limit, the right exit status
(2: not a certificate / bad input, 1: does not verify), no traceback, and well
within a wall-time ceiling generous for a loaded machine.  These are checks of
boundedness, not benchmarks.
"""

from __future__ import annotations

import base64
import copy
import gzip
import io
import json
import math
import sys
import time
from fractions import Fraction
from pathlib import Path

import pytest

from exactplay.certificate import encode_table, write_certificate
from exactplay.checker import _bounds, _load, check_certificate
from exactplay.cli import main
from exactplay.errors import VerificationError

PROOFS = Path(__file__).resolve().parent.parent / "proofs"
CEILING = 20.0  # seconds: a refusal takes milliseconds; this only catches a runaway
MAX_ERROR_CHARS = 600  # "FAIL " or "exactplay: error: " + the checker's at most 400 characters


def load(name: str) -> dict:
    return json.loads((PROOFS / name).read_text())


def redigest(cert: dict, rows: list, compress: bool = False) -> dict:
    """``cert`` with new rows and a matching digest, so that only the bounds can refuse it."""
    cert = copy.deepcopy(cert)
    cert["table"], cert["table_sha256"] = encode_table(cert["table"]["columns"], rows, compress=compress)
    return cert


def rows_of(cert: dict) -> list:
    return copy.deepcopy(_load.Table.from_certificate(cert).rows)


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


# ---------------------------------------------------------------- numbers too long for the instance


def test_a_table_number_one_digit_past_the_instance_bound_is_refused_naming_the_column(tmp_path, capsys):
    cert = load("coins/coins-seed-example.json")
    bound = _bounds.instance_bounds(cert).digits
    rows = rows_of(cert)
    rows[3][2] = "1" * (bound + 1) + "/1"
    err = assert_refused(run_cli(capsys, "check", write(tmp_path, redigest(cert, rows))), 1,
                         "'table.V'", f"more than {bound} digits")
    assert "1" * 100 not in err


def test_a_million_digit_numerator_in_a_table_is_refused_at_once_without_echoing_it(tmp_path, capsys):
    """race 100: the table may hold megabytes, but no number of more than ~3,700 digits."""
    cert = json.loads((PROOFS.parent / "tests" / "fixtures" / "race-100-v1.json").read_text())  # v1 (v2 in proofs/)
    rows = rows_of(cert)
    rows[0][2] = "7" * 10**6 + "/9"
    err = assert_refused(run_cli(capsys, "check", write(tmp_path, redigest(cert, rows, compress=True))), 1,
                         "'table.F'", f"at most {_bounds.race_digits(100) + 1} digits")
    assert "7" * 100 not in err


def test_a_million_digit_numerator_in_a_small_instance_is_refused_by_the_table_size(tmp_path, capsys):
    cert = load("race/race-10.json")
    rows = rows_of(cert)
    rows[0][2] = "7" * 10**6 + "/9"
    cap = _bounds.instance_bounds(cert).max_bytes
    for compress, words in ((True, "inflates to more than"), (False, "bytes of rows")):
        err = assert_refused(run_cli(capsys, "check", write(tmp_path, redigest(cert, rows, compress=compress))), 1,
                             "'table'", words, f"{cap}")
        assert "7" * 100 not in err


def test_a_long_number_outside_the_table_is_refused_by_the_instance_bound(tmp_path, capsys):
    cert = load("war/war-4x2.json")
    bound = _bounds.war_digits(8)
    cert["answer"]["value"] = "1/" + "3" * (bound + 1)
    assert_refused(run_cli(capsys, "check", write(tmp_path, cert)), 1, "'answer.value'", f"{bound} digits")


def test_every_stored_certificate_is_within_its_instance_bounds():
    """The bounds are sound on the tool's own certificates: no number is longer than allowed.
    (Version 1, per game; a model certificate, version 2, is bounded by its own checker.)"""
    for path in sorted(PROOFS.glob("*/*.json")):
        cert = json.loads(path.read_text())
        if cert["version"] == 2:
            continue
        b = _bounds.instance_bounds(cert)
        table = _load.Table.from_certificate(cert, b.max_bytes)
        b.check_rows(table)
        longest = max((len(x) for r in table.rows for x in r if isinstance(x, str)), default=0)
        assert longest <= b.chars, path
        value = cert["answer"]["value"]
        assert max(len(p) for p in value.lstrip("-").split("/")) <= b.digits, path


def test_race_digit_bound_covers_every_value_of_a_solved_table():
    from exactplay.games.race import solve_table
    from exactplay.numbers import as_fraction

    for N in (1, 2, 7, 30):
        t = solve_table(N, "fraction")
        longest = max(len(str(as_fraction(t.F[a][b]).denominator)) for a in range(1, N + 1)
                      for b in range(1, N + 1))
        assert longest <= _bounds.race_digits(N)


def test_hold_and_chefs_digit_bounds_cover_small_solved_instances():
    from exactplay.games import chefs, hold

    for T, F in ((2, 2), (5, 3), (9, 6), (12, 12)):
        cert = hold.certify(T, F, backend="fraction")
        rows = _load.Table.from_certificate(cert).rows
        longest = max(len(p) for r in rows for p in r[2].split("/"))
        assert longest <= _bounds.hold_digits(T, F)
    for skills in ("1/4,1/2,1", "1/3,2/7,5/11,1", "9/10,1/10,1/2,1/3,2/3"):
        cert = chefs.certify(skills=skills, backend="fraction")
        rows = _load.Table.from_certificate(cert).rows
        dens = [Fraction(s).denominator for s in skills.split(",")]
        bound = _bounds.chefs_digits(len(dens), sum(math.log10(d) for d in dens))
        longest = max(len(p) for r in rows for x in r[3:] for p in x.split("/"))
        assert longest <= bound


# ---------------------------------------------------------------- JSON, file and decompressed size


def test_a_ten_million_digit_integer_in_a_certificate_fails_fast_as_not_a_certificate(tmp_path, capsys):
    text = (PROOFS / "race/race-1.json").read_text().replace('"version": 1', '"version": ' + "7" * 10**7, 1)
    path = tmp_path / "c.json"
    path.write_text(text)
    assert_refused(run_cli(capsys, "check", str(path)), 1, "not a certificate", f"{_load.JSON_INT_DIGITS} digits")


def test_an_integer_just_past_the_json_digit_guard_is_refused(tmp_path, capsys):
    text = (PROOFS / "race/race-1.json").read_text().replace('"version": 1', '"version": '
                                                             + "1" * (_load.JSON_INT_DIGITS + 1), 1)
    path = tmp_path / "c.json"
    path.write_text(text)
    assert_refused(run_cli(capsys, "check", str(path)), 1, "integer literal longer than")


def test_the_json_digit_guard_is_restored_after_parsing():
    before = sys.get_int_max_str_digits()
    assert before == 0  # the package lifts it for its own long numbers
    with pytest.raises(ValueError):
        _load.parse_json("1" * 5000)
    assert sys.get_int_max_str_digits() == before
    assert len(str(10**5000)) == 5001


def test_a_file_past_the_size_limit_is_not_read(tmp_path, capsys, monkeypatch):
    path = write(tmp_path, load("race/race-2.json"))
    monkeypatch.setattr(_load, "MAX_FILE_BYTES", Path(path).stat().st_size - 1)
    assert_refused(run_cli(capsys, "check", path), 1, "larger than the limit")


def _bomb(total: int, member: int = 10 * 1024**2) -> bytes:
    """Concatenated gzip members of zeros: ``total`` bytes inflated from a few KB."""
    one = gzip.compress(b"0" * member, compresslevel=9, mtime=0)
    return one * (total // member)


def test_a_gzip_table_inflating_to_3_gb_is_refused_after_reading_just_past_the_instance_cap(tmp_path, capsys):
    cert = load("race/race-1.json")
    cert["table"] = {"columns": cert["table"]["columns"], "count": 1, "encoding": "gzip+base64",
                     "data": base64.b64encode(_bomb(3 * 1024**3)).decode("ascii")}
    err = assert_refused(run_cli(capsys, "check", write(tmp_path, cert)), 1, "'table'", "inflates to more than")
    cap = _bounds.instance_bounds(cert).max_bytes
    assert f"{cap} bytes" in err and cap < 10_000


def test_a_gzip_table_one_byte_past_the_instance_cap_is_refused():
    cert = load("race/race-2.json")
    cap = _bounds.instance_bounds(cert).max_bytes
    raw = json.dumps([[1, 1, "1/3", 1, "0/1"]] + [[0]] * cap).encode()[: cap + 1]
    del cert["table"]["rows"]
    cert["table"]["encoding"] = "gzip+base64"
    cert["table"]["data"] = base64.b64encode(gzip.compress(raw)).decode()
    with pytest.raises(VerificationError) as exc:
        check_certificate(cert)
    assert exc.value.field == "table" and "inflates to more than" in str(exc.value)
    raw = raw[:cap]  # at the cap: decoded (and then refused for other reasons)
    cert["table"]["data"] = base64.b64encode(gzip.compress(raw)).decode()
    with pytest.raises(VerificationError) as exc:
        check_certificate(cert)
    assert "inflates" not in str(exc.value)


def test_a_plain_json_table_past_the_instance_cap_is_refused_before_its_rows_are_read():
    cert = load("race/race-2.json")
    rows = rows_of(cert) + [[9, 9, "0/1", 1, "0/1"]] * 1000
    with pytest.raises(VerificationError) as exc:
        check_certificate(redigest(cert, rows))
    assert exc.value.field == "table" and "bytes of rows" in str(exc.value)


# ---------------------------------------------------------------- parameters within the solvers' limits


@pytest.mark.parametrize("suits, rows", [(10**9, []), (10**5, [[0, [10**5], "1/1"]])])
def test_war_with_absurd_suits_is_refused_by_the_parameter_bound(tmp_path, capsys, suits, rows):
    cert = load("war/war-4x2.json")
    cert["params"]["suits"] = suits
    cert = redigest(cert, rows)
    assert_refused(run_cli(capsys, "check", write(tmp_path, cert)), 1, "'params.suits'", "1..8")


@pytest.mark.parametrize("game, file, field, value, limit", [
    ("race", "race/race-2.json", "target", 501, "1..500"),
    ("hold", "hold/hold-5-3.json", "target", 151, "2..150"),
    ("hold", "hold/hold-5-3.json", "faces", 13, "2..12"),
    ("war", "war/war-4x2.json", "ranks", 27, "1..26"),
])
def test_parameters_past_the_solvers_limits_are_refused(tmp_path, capsys, game, file, field, value, limit):
    cert = load(file)
    cert["params"][field] = value
    assert_refused(run_cli(capsys, "check", write(tmp_path, cert)), 1, f"'params.{field}'", limit)


def test_more_coins_than_the_solver_takes_are_refused_before_the_table(tmp_path, capsys):
    cert = load("coins/coins-seed-example.json")
    cert["params"]["coins"] = ["1/1"] * 1001
    assert_refused(run_cli(capsys, "check", write(tmp_path, cert)), 1, "'params.coins'", "1000")


def test_a_full_chefs_table_beyond_the_solvers_full_table_limit_is_refused():
    cert = load("chefs/chefs-fib-10.json")
    cert["full_table"] = True
    with pytest.raises(VerificationError) as exc:
        check_certificate(cert)
    assert exc.value.field == "full_table" and "n = 8" in str(exc.value)


def test_the_checkers_restated_limits_agree_with_the_solvers():
    from exactplay.games import chefs, coins, hold, race, war
    from exactplay.numbers import MAX_INPUT_CHARS, MAX_INPUT_EXPONENT, read_rational

    assert _bounds.RACE_MAX_TARGET == race.MAX_AUDIT_TARGET  # certificates come from certify only
    assert (_bounds.HOLD_MAX_TARGET, _bounds.HOLD_MAX_FACES) == (hold.MAX_TARGET, hold.MAX_FACES)
    assert _bounds.HOLD_FULL_TABLE_UP_TO == hold.FULL_TABLE_UP_TO
    assert (_bounds.CHEFS_MIN_N, _bounds.CHEFS_MAX_N) == (chefs.MIN_N, chefs.MAX_CERTIFY_N)  # certificates: certify's limit
    assert _bounds.CHEFS_FULL_TABLE_MAX_N == chefs.FULL_TABLE_MAX_N
    assert _bounds.COINS_MAX_COINS == coins.MAX_COINS
    assert (_bounds.WAR_MAX_RANKS, _bounds.WAR_MAX_SUITS, _bounds.WAR_MAX_CARDS) == \
        (war.MAX_RANKS, war.MAX_SUITS, war.MAX_CARDS)
    assert _bounds.INPUT_DIGITS == MAX_INPUT_CHARS + MAX_INPUT_EXPONENT + 1
    # the longest numbers a user can type stay within INPUT_DIGITS per part
    m = MAX_INPUT_CHARS
    for word in ("9" * (m - 5) + "e1000", "0." + "0" * (m - 10) + "1e-1000", "9" * (m // 2) + "/" + "7" * (m // 2 - 1)):
        assert len(word) <= m
        x = read_rational(word)
        assert max(len(str(abs(x.numerator))), len(str(x.denominator))) <= _bounds.INPUT_DIGITS


# ---------------------------------------------------------------- floats of huge and tiny rationals


def test_a_stored_hold_value_of_10_to_the_400_is_refused_in_one_line(tmp_path, capsys):
    cert = load("hold/hold-10-6.json")
    rows = rows_of(cert)
    rows[5][2] = "1" + "0" * 400 + "/1"
    assert 401 <= _bounds.hold_digits(10, 6)  # so the equations, not the digit bound, refuse it
    err = assert_refused(run_cli(capsys, "check", write(tmp_path, redigest(cert, rows))), 1, "'table.V'")
    assert "stored V = 1.0000000000000000e+400" in err


def test_floats_of_rationals_beyond_the_double_range_are_printed_not_raised():
    from decimal import Decimal, localcontext

    with localcontext() as ctx:
        ctx.prec = 50
        tiny, huge = Decimal(1) / Decimal(2**1050), Decimal(2**1049)
    assert _load.approx(Fraction(1, 2**1050)) == format(tiny, ".6e")  # below the normal range
    assert _load.approx(Fraction(2**1049)) == format(huge, ".6e")  # float() would overflow
    assert _load.approx(Fraction(-10**400), 3) == "-1.000e+400"
    assert _load.approx(Fraction(10**400), 17, "g") == "1.0000000000000000e+400"  # 17 significant digits
    assert _load.approx(Fraction(1, 10**5000), 2, "g") == "1.0e-5000"
    assert _load.approx(Fraction(1, 3), 10, "f") == "0.3333333333"


def test_a_war_certificate_beyond_the_double_range_of_p_cannot_reach_the_summary():
    """p >= 1 / n! within the card limit, so 1 / (2p) < 1e167; a bigger deck is refused first."""
    assert math.factorial(_bounds.WAR_MAX_CARDS) < 1e167
    cert = load("war/war-4x2.json")
    cert["params"].update(ranks=1, suits=2100)  # p = 2^-1050-ish territory
    with pytest.raises(VerificationError) as exc:
        check_certificate(cert)
    assert exc.value.field == "params.suits"


# ---------------------------------------------------------------- one short line, whatever the input


@pytest.mark.parametrize("mutate, field", [
    (lambda c: c.update(version="v" * 10**6), "'version'"),
    (lambda c: c["table"].update(encoding="e" * 10**6), "'table'"),
    (lambda c: c["answer"].update(decimal="0." + "1" * 10**6), "'answer.digits'"),
    (lambda c: c.update(game="g" * 10**6), "'game'"),
    (lambda c: c["table"].update(columns=["c" * 10**6]), "'table.columns'"),
])
def test_megabyte_fields_are_never_echoed(tmp_path, capsys, mutate, field):
    cert = load("race/race-2.json")
    mutate(cert)
    status, out, err, elapsed = run_cli(capsys, "check", write(tmp_path, cert))
    fail, summary = err.splitlines()
    assert status == 1 and summary == "1 of 1 certificate(s) failed" and len(fail) <= MAX_ERROR_CHARS, err[:300]
    assert field in err and "Traceback" not in err and elapsed < CEILING


# ---------------------------------------------------------------- the coin-row checker is not cubic


def test_the_coins_checker_does_quadratically_many_additions(monkeypatch):
    """Doubling the row multiplies the Fraction additions by about 4 (a cubic check: 8)."""
    from exactplay.checker import coins as checker
    from exactplay.games import coins

    counts = {}
    real_add, real_sub = Fraction.__add__, Fraction.__sub__
    for n in (30, 60):
        cert = coins.certify(coins=tuple(Fraction(k % 7 + 1, k % 3 + 1) for k in range(n)), backend="fraction")
        table = _load.Table.from_certificate(cert)
        calls = [0]

        def add(a, b, _f=real_add):
            calls[0] += 1
            return _f(a, b)

        def sub(a, b, _f=real_sub):
            calls[0] += 1
            return _f(a, b)

        monkeypatch.setattr(Fraction, "__add__", add)
        monkeypatch.setattr(Fraction, "__sub__", sub)
        checker.verify(cert, table)
        monkeypatch.setattr(Fraction, "__add__", real_add)
        monkeypatch.setattr(Fraction, "__sub__", real_sub)
        counts[n] = calls[0]
    assert counts[60] < 5 * counts[30], counts


def test_a_200_coin_certificate_checks_well_within_the_ceiling(tmp_path):
    from exactplay.checker import check_file
    from exactplay.games import coins

    cert = coins.certify(coins=tuple(Fraction((k * 37) % 101 + 1) for k in range(200)), backend="fraction")
    path = write(tmp_path, cert)
    start = time.monotonic()
    assert "coins n=200:" in check_file(path)
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
    from exactplay.float_table import read_float_table

    path = tmp_path / "t.json"
    path.write_text("[[1, 1, 1" + "0" * 400 + "]]")
    with pytest.raises(UsageError, match="beyond the double range"):
        read_float_table(path, ("a", "b"))
    path.write_text("[[1, 1, 1e-300], [1, 2, 5e-324], [2, 1, 1e-400], [2, 2, -0.0]]")
    assert read_float_table(path, ("a", "b")) == {(1, 1): 1e-300, (1, 2): 5e-324, (2, 1): 0.0, (2, 2): 0.0}


def test_a_float_table_past_the_size_limit_is_not_read(tmp_path, capsys, monkeypatch):
    from exactplay import float_table

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


def test_a_gzip_table_of_more_values_than_the_instance_rows_hold_is_not_parsed():
    cert = load("race/race-2.json")
    b = _bounds.instance_bounds(cert)
    raw = ("[" + ",".join(["0"] * (b.max_values + 2)) + "]").encode()  # max_values + 1 commas
    assert len(raw) <= b.max_bytes  # so the count, not the size, refuses it
    del cert["table"]["rows"]
    cert["table"]["encoding"] = "gzip+base64"
    cert["table"]["data"] = base64.b64encode(gzip.compress(raw)).decode()
    with pytest.raises(VerificationError) as exc:
        check_certificate(cert)
    assert exc.value.field == "table" and "values" in str(exc.value)


@pytest.mark.parametrize("text", ["--5/3", "-/3", "5/", "5/0", "٣/4", "1/-3", " 1/3", "2/4"])
def test_malformed_rationals_are_one_verification_error_naming_the_field(text):
    with pytest.raises(VerificationError) as exc:
        _load.rational(text, "answer.value")
    assert exc.value.field == "answer.value" and "\n" not in str(exc.value)
