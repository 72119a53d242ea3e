"""Coin row: exact solver, the seed's two DPs, brute-force minimax, float audit, CLI."""

from __future__ import annotations

import json
import random
from fractions import Fraction

import pytest
from claim_findings import ONE_WORKER, verdict_of
from hypothesis import given, settings
from hypothesis import strategies as st

from exactplay.claims import CONFIRMED
from exactplay.cli.main import main
from exactplay.errors import UsageError
from exactplay.games import coins as C
from exactplay.numbers.backends import as_fraction

rationals = st.builds(Fraction, st.integers(-30, 60), st.sampled_from([1, 1, 2, 3, 10]))
decimals = st.builds(Fraction, st.integers(1, 99), st.just(100))


# ---------------------------------------------------------------- exact values


def test_seed_example_is_27_in_both_backends(exact_backend):
    t = C.solve_row(C.SEED_EXAMPLE, exact_backend)
    assert type(t.answer) is exact_backend.kind
    assert as_fraction(t.answer) == 27 == C.brute_force(C.SEED_EXAMPLE)


def test_seed_example_line_is_7_then_20_and_the_opponent_reply_is_a_tie():
    t = C.solve_row(C.SEED_EXAMPLE, "fraction")
    moves = C.line_of_play(t)
    assert [m["coin"] for m in moves if m["player"] == 1] == [7, 20]
    assert t.choice[(0, 3)] == C.RIGHT and t.candidates[(0, 3)][C.LEFT] == 18
    assert t.ties() == [(0, 2)]


def test_greedy_first_player_gets_18_not_27_on_the_seed_example():
    assert C.greedy_vs_optimal(C.SEED_EXAMPLE) == 18


@settings(max_examples=25, deadline=None)
@given(st.lists(rationals, min_size=1, max_size=14))
def test_both_seed_formulations_and_the_solver_equal_brute_force_minimax(row):
    truth = C.brute_force(row)
    assert as_fraction(C.seed_dp_min(row, "fraction")[0]) == truth
    assert as_fraction(C.seed_dp_sum(row, "fraction")[0]) == truth
    assert as_fraction(C.solve_row(row, "mpq").answer) == truth


@pytest.mark.slow
@settings(max_examples=60, deadline=None)
@given(st.lists(rationals, min_size=1, max_size=14))
def test_both_seed_formulations_and_the_solver_equal_brute_force_minimax_many_examples(row):
    """The same property on 60 examples (25 in the default suite since 2026-12-04)."""
    test_both_seed_formulations_and_the_solver_equal_brute_force_minimax.hypothesis.inner_test(row=row)


@pytest.mark.parametrize("n", range(1, 15))
def test_seed_first_dp_with_zero_edges_is_right_for_odd_and_even_n(n, exact_backend):
    """The seed says the first DP "works for both cases where n is even or odd": it does."""
    rng = random.Random(n)
    for _ in range(3):
        row = [Fraction(rng.randint(-9, 30), rng.choice((1, 4, 10))) for _ in range(n)]
        assert as_fraction(C.seed_dp_min(row, exact_backend)[0]) == C.brute_force(row)
        assert as_fraction(C.seed_dp_sum(row, exact_backend)[0]) == C.brute_force(row)


def test_seed_dps_agree_with_the_solver_in_every_cell(exact_backend):
    row = [Fraction(k * 7 % 11, 10) for k in range(1, 13)]
    t = C.solve_row(row, exact_backend)
    _, M, cm = C.seed_dp_min(row, exact_backend, keep=True)
    _, T, cs = C.seed_dp_sum(row, exact_backend, keep=True)
    assert C.upper_map(M) == t.V == C.upper_map(T)
    assert cm == t.candidates == cs


@settings(max_examples=40, deadline=None)
@given(st.lists(rationals, min_size=2, max_size=12).filter(lambda r: len(r) % 2 == 0))
def test_first_player_gets_at_least_the_better_parity_class_when_n_is_even(row):
    t = C.solve_row(row, "fraction")
    assert t.answer >= max(sum(row[0::2]), sum(row[1::2]))


@settings(max_examples=40, deadline=None)
@given(st.lists(rationals, min_size=1, max_size=12))
def test_value_of_a_row_equals_value_of_the_reversed_row_and_line_attains_it(row):
    t = C.solve_row(row, "fraction")
    assert C.solve_row(row[::-1], "fraction").answer == t.answer
    moves = C.line_of_play(t)
    assert sum(m["coin"] for m in moves if m["player"] == 1) == t.answer


def test_ties_are_exact_equalities_of_the_two_candidates():
    row = C.parse_coins("0.1 0.2 0.3 0.3 0.2 0.1".split())
    t = C.solve_row(row, "mpq")
    assert (0, 5) in t.ties()  # a palindrome: both ends equally good
    for s in t.ties():
        assert t.candidates[s][C.LEFT] == t.candidates[s][C.RIGHT]
    for s, c in t.choice.items():
        if s[0] < s[1] and c != "tie":
            assert t.candidates[s][c] > t.candidates[s][C.LEFT if c == C.RIGHT else C.RIGHT]


def test_naive_recursions_grow_like_two_to_the_n():
    for n in range(3, 16):
        assert C.naive_min_calls(n + 2) == 4 * C.naive_min_calls(n) + 1
        assert C.naive_sum_calls(n + 1) == 2 * C.naive_sum_calls(n) + 1


# ---------------------------------------------------------------- parsing


@pytest.mark.parametrize("text, value", [("0.1", Fraction(1, 10)), ("1/3", Fraction(1, 3)), ("7", Fraction(7)),
                                         ("-2.5", Fraction(-5, 2)), ("1e-3", Fraction(1, 1000)),
                                         ("0.30000000000000001", Fraction(30000000000000001, 10**17))])
def test_coins_parse_exactly_never_through_float(text, value):
    c = C.parse_coin(text)
    assert type(c) is Fraction and c == value


@pytest.mark.parametrize("word", ["x", "nan", "inf", "1/0", "0x10", "1..2"])
def test_non_numeric_coin_is_a_usage_error(word):
    with pytest.raises(UsageError, match="not a number"):
        C.parse_coins(["1", word])


def test_commas_separate_coins_and_empty_row_is_refused():
    assert C.parse_coins(["10,20", "8,7"]) == tuple(Fraction(c) for c in C.SEED_EXAMPLE)
    with pytest.raises(UsageError, match="empty row"):
        C.parse_coins([","])
    with pytest.raises(UsageError, match="empty row"):
        C.resolve_row(None, None)


def test_float_coins_from_the_python_api_are_refused():
    with pytest.raises(TypeError):
        C.solve_row([0.1, 0.2], "mpq")


# ---------------------------------------------------------------- float audit


def test_float_run_on_decimals_has_rounding_broken_ties_and_stays_within_bounds():
    row = C.parse_coins("0.1 0.2 0.3 0.4 0.4 0.3 0.2 0.1".split())
    r = C.run_audit(row)
    assert len(r["exact"].ties()) == 10
    for key in ("min", "sum"):
        f = r[key]
        assert f["values"].within_bound and f["values"].max_abs > 0
        assert f["decisions"].counts["exact tie"] == 10
        assert f["decisions"].counts["wrong"] == 0
    assert len(r["min"]["ties_broken_by_rounding"]) == 4
    assert len(r["sum"]["ties_broken_by_rounding"]) == 6


def test_float_rounding_flips_a_decision_when_the_exact_gap_is_below_an_ulp():
    """0.30000000000000001 > 0.3 exactly, but both round to the same double."""
    row = C.parse_coins("0.3 0.1 0.2 0.30000000000000001".split())
    r = C.run_audit(row)
    assert r["exact"].choice[(0, 3)] == C.RIGHT
    for key in ("min", "sum"):
        assert r[key]["flipped"] == [(0, 3)]
        assert r[key]["float_ties_not_exact"] == [(0, 3)]
        assert r[key]["decisions"].classes[(0, 3)] == "float-unresolvable"


def test_integer_coins_are_computed_exactly_in_float():
    r = C.run_audit([Fraction(c) for c in (3, 9, 1, 2, 8, 5, 4)])
    assert r["min"]["values"].max_abs == 0 == r["sum"]["values"].max_abs


@settings(max_examples=30, deadline=None)
@given(st.lists(decimals, min_size=2, max_size=16))
def test_a_priori_bounds_hold_on_random_decimal_rows(row):
    r = C.run_audit(row)
    for key in ("min", "sum"):
        assert r[key]["values"].within_bound
        assert r[key]["decisions"].counts["wrong"] == 0


@ONE_WORKER  # the claims run once per process: with test_claims' run of them all
def test_claims_are_confirmed():
    for claim in C.CLAIMS:
        v = verdict_of(claim)
        assert v.status == CONFIRMED, (claim.id, v)


# ---------------------------------------------------------------- CLI


def test_cli_solve_seed_example_prints_value_line_and_tie(capsys):
    assert main(["solve", "coins", "10", "20", "8", "7"]) == 0
    out = capsys.readouterr().out
    assert "27/1" in out and "takes the right coin 7" in out and "(0,2)" in out


def test_cli_json_lists_every_tie_and_the_line(capsys):
    assert main(["solve", "coins", "1", "1", "1", "1", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["tie_count"] == 6 and len(data["ties"]) == 6
    assert data["answer"]["value"] == "2/1"
    assert [m["side"] for m in data["line_of_play"]] == ["left"] * 4


def test_cli_reads_a_coin_file_with_comments(tmp_path, capsys):
    f = tmp_path / "row.txt"
    f.write_text("# the seed's example\n10, 20\n8 7\n")
    assert main(["solve", "coins", "--file", str(f), "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["answer"]["value"] == "27/1"


def test_cli_audit_decimals_json(capsys):
    assert main(["audit", "coins", "0.3", "0.1", "0.2", "0.30000000000000001", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["dp_min"]["flipped"] == [[0, 3]]


@pytest.mark.parametrize("args, text", [
    ([], "empty row"),
    (["10", "abc"], "not a number"),
    (["--file", "/nonexistent/coins.txt"], "cannot read coin file"),
    (["1", "--file", "x"], "cannot read"),
])
def test_cli_bad_input_is_one_line_exit_2(capsys, args, text):
    assert main(["solve", "coins", *args]) == 2
    err = capsys.readouterr().err
    assert text in err and err.count("\n") == 1


def test_cli_empty_file_and_both_sources_are_refused(tmp_path, capsys):
    empty = tmp_path / "empty.txt"
    empty.write_text("# nothing\n\n")
    assert main(["solve", "coins", "--file", str(empty)]) == 2
    assert "empty row" in capsys.readouterr().err
    row = tmp_path / "row.txt"
    row.write_text("1 2")
    assert main(["solve", "coins", "3", "--file", str(row)]) == 2
    assert "not both" in capsys.readouterr().err


def test_cli_unreadable_binary_file(tmp_path, capsys):
    f = tmp_path / "bin"
    f.write_bytes(b"\xff\xfe\x00")
    assert main(["solve", "coins", "--file", str(f)]) == 2
    assert "not UTF-8" in capsys.readouterr().err


@pytest.mark.parametrize("coin", ["1e400", "-1e400", "1e-400"])
def test_audit_of_coins_beyond_the_double_range_is_one_line_exit_2_but_solve_is_exact(capsys, coin):
    assert main(["audit", "coins", "--", "1", coin]) == 2
    err = capsys.readouterr().err
    assert "outside the range of doubles" in err and err.count("\n") == 1
    assert main(["solve", "coins", "--json", "--", "1", coin]) == 0
    value = json.loads(capsys.readouterr().out)["answer"]["value"]
    assert Fraction(value) == max(Fraction(1), Fraction(coin))
