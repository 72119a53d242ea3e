"""The game-independent audit layer, on hand-made tables."""

import math
from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from exactplay.audit.judge import (
    CERTIFIED,
    EXACT_TIE,
    UNRESOLVABLE,
    WRONG,
    audit_decisions,
    audit_values,
    best_and_gap,
    decimal_digits,
    float_digits_certain,
    rounding_report,
)


def test_value_errors_are_exact_and_located():
    exact = {(0,): Fraction(1, 3), (1,): Fraction(1, 10), (2,): Fraction(0)}
    approx = {(0,): 1 / 3, (1,): 0.1 + 1e-17 * 0 + 2**-56, (2,): 0.0}
    v = audit_values(exact, approx, bound=1e-15)
    assert v.max_abs_at == (1,)
    assert v.max_abs == float(abs(Fraction(approx[(1,)]) - Fraction(1, 10)))
    assert v.within_bound and v.bound_ratio == pytest.approx(1e-15 / v.max_abs)
    assert v.max_ulps == pytest.approx(v.max_abs / math.ulp(approx[(1,)]))


def test_exact_float_table_has_zero_error_and_no_ratio():
    v = audit_values({"a": Fraction(1, 2)}, {"a": 0.5}, bound=1e-16)
    assert v.max_abs == 0 and v.bound_ratio is None


def test_float_table_missing_a_state_or_holding_a_string_is_rejected():
    with pytest.raises(KeyError, match="b"):
        audit_values({"a": Fraction(1), "b": Fraction(2)}, {"a": 1.0})
    with pytest.raises(TypeError, match="str"):
        audit_values({"a": Fraction(1)}, {"a": "1.0"})
    with pytest.raises(ValueError, match="nan"):
        audit_values({"a": Fraction(1)}, {"a": float("nan")})


def test_best_and_gap_reports_every_tied_best():
    best, value, gap = best_and_gap({1: Fraction(1, 2), 2: Fraction(1, 2), 3: Fraction(0)})
    assert best == [1, 2] and value == Fraction(1, 2) and gap == 0
    best, _, gap = best_and_gap({1: Fraction(1, 3), 2: Fraction(1, 2)})
    assert best == [2] and gap == Fraction(1, 6)
    assert best_and_gap({1: Fraction(1)})[2] is None


def test_decisions_are_classified_by_gap_against_twice_the_bound():
    exact = {
        "clear": {"L": Fraction(1), "R": Fraction(0)},
        "tie": {"L": Fraction(1, 2), "R": Fraction(1, 2)},
        "close": {"L": Fraction(1, 2) + Fraction(1, 10**20), "R": Fraction(1, 2)},
        "bug": {"L": Fraction(1), "R": Fraction(0)},
        "forced": {"L": Fraction(1)},
    }
    floats = {
        "clear": {"L": 1.0, "R": 0.0},
        "tie": {"L": 0.5, "R": 0.5},
        "close": {"L": 0.5, "R": 0.5},
        "bug": {"L": 1.0, "R": 0.0},
        "forced": {"L": 1.0},
    }
    choice = {"clear": "L", "tie": "R", "close": "L", "bug": "R", "forced": "L"}
    d = audit_decisions(exact, floats, choice, bound=1e-15)
    assert d.classes == {"clear": CERTIFIED, "tie": EXACT_TIE, "close": UNRESOLVABLE, "bug": WRONG}
    assert d.unresolvable_on_best == 1 and d.decisions_differ == 1
    assert d.smallest_gap == 0 and d.smallest_gap_at == "tie"


def test_float_tied_candidates_are_unresolvable_even_with_a_large_exact_gap():
    exact = {"s": {"L": Fraction(1), "R": Fraction(0)}}
    d = audit_decisions(exact, {"s": {"L": 0.0, "R": 0.0}}, {"s": "L"}, bound=1e-15)
    assert d.classes["s"] == UNRESOLVABLE


@given(st.fractions(min_value=-10, max_value=10), st.integers(0, 12))
def test_decimal_digits_is_correct_rounding(x, d):
    text = decimal_digits(x, d)
    assert abs(Fraction(text) - x) <= Fraction(1, 2 * 10**d)


def test_rounding_report_measures_distance_to_the_boundary():
    rr = rounding_report(Fraction(71, 135), 8, float_value=71 / 135, float_bound=1e-15)
    assert rr.rounded == "0.52592593" and rr.float_digits_agree and rr.certain
    assert float(rr.distance) == pytest.approx(abs(Fraction(71, 135) * 10**8 % 1 - Fraction(1, 2)) / 10**8)
    on_boundary = rounding_report(Fraction(1, 8), 2)
    assert not on_boundary.certain and on_boundary.rounded == "0.12"


def test_float_digits_are_uncertain_when_the_bound_straddles_a_boundary():
    assert float_digits_certain(0.123, 1e-6, 2)
    assert not float_digits_certain(0.125, 1e-6, 2)


def test_relative_error_of_a_value_too_small_for_a_double_is_exact():
    tiny = Fraction(1, 10**400)  # float(tiny) == 0.0
    v = audit_values({"s": tiny}, {"s": 0.0})
    assert v.max_rel == 1.0 and v.max_abs == 0.0


def test_float_digits_are_never_certain_from_a_bound_the_exact_error_breaks(capsys):
    """A bound proved under hypotheses the float program breaks (chefs 1,2/3,2/5,2/3: the float
    breaks exact ties the other way, E(4) prints 4.40888889 against the exact 4.58666667) must not
    be said to prove the float's digits: main said "certain from the bound alone"."""
    from fractions import Fraction

    from exactplay.audit.rounding import rounding_report

    wrong = rounding_report(Fraction(1, 3), 2, 0.5, 1e-3)
    assert wrong.float_bound_holds is False and wrong.float_digits_certain is False
    good = rounding_report(Fraction(1, 3), 2, 1 / 3, 1e-3)
    assert good.float_bound_holds is True and good.float_digits_certain is True
    assert rounding_report(Fraction(1, 3), 2, 0.5, float("inf")).float_bound_holds is True
    from cli_run import run, strict

    code, out, _ = run(capsys, "audit", "chefs", "--skills", "1,2/3,2/5,2/3")
    assert code == 0 and "the a-priori bound does not hold here" in out and "certain from the bound alone" not in out
    code, out, _ = run(capsys, "audit", "chefs", "--skills", "1,2/3,2/5,2/3", "--json")
    assert code == 0 and '"float_digits_certain_from_bound": false' in out and strict(out)


def test_wrong_picks_whose_float_candidates_break_the_bound_are_said_to_be_off_the_bound(capsys):
    """Chefs 71/1000, 48/127, 71/1000, 1/2 (found by hypothesis): the float solver breaks an exact
    tie the other way, so upstream its candidate values differ from the exact ones by far more than
    the rounding bound, and two of its picks are not the exact best (wrong under the exact tie
    rule).  The audit says that those picks' candidates are off the bound, which a pick that is
    wrong on correct values is not."""
    from fractions import Fraction

    from cli_run import run

    from exactplay.audit.judge import WRONG, audit_decisions
    from exactplay.games import chefs

    r = chefs.run_audit(skills=(Fraction(71, 1000), Fraction(48, 127), Fraction(71, 1000), Fraction(1, 2)))
    d = r["decisions"]
    assert d.counts["exact tie"] > 0 and d.counts[WRONG] == 2 and len(d.beyond_bound) == 2
    exact = {"s": {0: Fraction(1, 2), 1: Fraction(1, 4)}}
    within = audit_decisions(exact, {"s": {0: 0.5, 1: 0.25}}, {"s": 1}, 1e-9)
    beyond = audit_decisions(exact, {"s": {0: 0.1, 1: 0.25}}, {"s": 1}, 1e-9)
    assert within.counts[WRONG] == beyond.counts[WRONG] == 1
    assert within.beyond_bound == [] and beyond.beyond_bound == ["s"]
    code, out, _ = run(capsys, "audit", "chefs", "--skills", "71/1000,48/127,71/1000,1/2")
    assert code == 0 and "off the bound : 2 of the wrong" in out
