"""Number backends and the exact <-> text conversions."""

from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from exactplay.numbers import backends as numbers
from exactplay.errors import UsageError
from exactplay.numbers.backends import FloatLeak, as_fraction, format_pq, get_backend


@given(st.fractions())
def test_format_then_parse_is_the_identity(x):
    assert Fraction(format_pq(x)) == x


@given(st.fractions())
def test_mpq_and_fraction_format_identically(x):
    mpq = get_backend("mpq").q(x.numerator, x.denominator)
    assert format_pq(mpq) == format_pq(x)


@pytest.mark.parametrize("value", [0.5, float("nan"), True, "1/2", None])
def test_as_fraction_refuses_floats_and_non_numbers(value):
    with pytest.raises(FloatLeak):
        as_fraction(value)


def test_exact_backends_make_exact_constants(exact_backend):
    third = exact_backend.q(1, 3)
    assert type(third) is exact_backend.kind
    assert as_fraction(third * 3) == 1
    assert as_fraction(exact_backend.zero) == 0 and as_fraction(exact_backend.one) == 1


def test_backend_check_catches_a_float_leak(exact_backend):
    leaked = exact_backend.q(1, 3) * 0.5  # Python silently makes this a float
    with pytest.raises(FloatLeak, match="at"):
        exact_backend.check(leaked, (1, 2))


def test_float_backend_rounds_once():
    B = get_backend("float")
    assert B.q(1, 3) == 1 / 3 and not B.exact


def test_unknown_backend_is_a_usage_error():
    with pytest.raises(UsageError, match="unknown backend"):
        get_backend("decimal")


def test_missing_gmpy2_gives_a_clear_error(monkeypatch):
    monkeypatch.setattr(numbers, "_gmpy2", None)
    with pytest.raises(UsageError, match="gmpy2"):
        get_backend("mpq")
    assert get_backend("fraction").kind is Fraction


@pytest.mark.parametrize("text, value", [("0.1", Fraction(1, 10)), ("1/3", Fraction(1, 3)), ("-2", Fraction(-2)),
                                         ("1e-3", Fraction(1, 1000)), ("2.5E2", Fraction(250))])
def test_read_rational_reads_decimals_exactly(text, value):
    from exactplay.numbers.backends import read_rational

    assert read_rational(text) == value


@pytest.mark.parametrize("text, words", [("1e999999999", "exponent"), ("9" * 1001, "longer"), ("", "empty"),
                                         ("x", "not a number"), ("1/0", "not a number"), ("nan", "not a number")])
def test_read_rational_refuses_at_once_what_it_cannot_or_should_not_build(text, words):
    from exactplay.numbers.backends import read_rational

    with pytest.raises(UsageError, match=words):
        read_rational(text, "coin")


def test_without_gmpy2_every_game_runs_on_fractions_and_mpq_is_one_clear_error(tmp_path):
    """A machine without gmpy2: a shadowing module makes ``import gmpy2`` fail."""
    import os
    import subprocess
    import sys

    (tmp_path / "gmpy2.py").write_text("raise ImportError('gmpy2 hidden by a test')\n")
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(tmp_path), *sys.path])}

    def run(*argv):
        return subprocess.run([sys.executable, "-m", "exactplay", *argv], capture_output=True, text=True, env=env)

    listed = run("list", "--json")
    assert listed.returncode == 0
    import json

    assert [g["game"] for g in json.loads(listed.stdout)] == ["race", "hold", "chefs", "coins", "war"]
    for argv in (["race", "--target", "3"], ["hold", "--target", "6", "--faces", "3"], ["chefs", "--n", "3"],
                 ["coins", "1", "2", "3"], ["war", "--ranks", "3", "--suits", "2"]):
        done = run("solve", *argv, "--backend", "fraction")
        assert done.returncode == 0, done.stderr
    refused = run("solve", "race", "--target", "3")
    assert refused.returncode == 2 and "gmpy2" in refused.stderr and len(refused.stderr.strip().splitlines()) == 1
