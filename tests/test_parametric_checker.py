"""The parametric certificate: written by the solver, re-verified by the stdlib checker, tampering rejected."""

import copy
import json
from fractions import Fraction

import pytest
import sympy
from hypothesis import given, settings
from hypothesis import strategies as st

from exactplay.checker import _ints
from exactplay.checker._sturm import Endpoint, count_roots, no_root_between
from exactplay.checker.parametric import verify
from exactplay.errors import VerificationError
from exactplay.parametric.build import build_parametric
from exactplay.parametric.certificate import parametric_certificate
from exactplay.parametric.interval import default_range
from exactplay.parametric.poly import Param
from exactplay.parametric.regions import solve_parametric


def _cert(game):
    pm = build_parametric(game)
    lo, hi = default_range(pm)
    return json.loads(json.dumps(parametric_certificate(solve_parametric(pm, lo, hi))))


pytestmark = pytest.mark.xdist_group("test_parametric_checker")  # one worker for this file: its module-scoped fixtures
# are built once per suite, not once in each of the two xdist workers (--dist loadgroup)


@pytest.fixture(scope="module")
def race3():
    from exactplay.games.race.model import make_game

    return _cert(make_game(target=3, p=Param.symbol()))


@pytest.fixture(scope="module")
def chefs3():
    from exactplay.games.chefs.model import make_game

    return _cert(make_game(n=3, p=Param.symbol()))


def test_the_race_and_chefs_certificates_verify(race3, chefs3):
    assert "9 region(s)" in verify(copy.deepcopy(race3))
    assert "3 region(s)" in verify(copy.deepcopy(chefs3))


def test_the_checker_runs_on_python_integers_alone(race3):
    _ints.use_stdlib(True)
    try:
        assert "verified" in verify(copy.deepcopy(race3))
    finally:
        _ints.use_stdlib(False)


def _choice_state(cert):
    m = cert["model"]
    return next(s for s in range(len(m["states"])) if m["mover"][s] is not None and len(m["actions"][s]) > 1)


def _rejects(cert, field, state=None):
    with pytest.raises(VerificationError) as info:
        verify(cert)
    assert info.value.field == field, str(info.value)
    if state is not None:
        assert info.value.state == state, str(info.value)
    return str(info.value)


def test_a_changed_value_coefficient_is_rejected_naming_region_and_state(race3):
    c = copy.deepcopy(race3)
    s = _choice_state(c)
    num = c["regions"][2]["values"][s][0][0]
    x = Fraction(num[0]) + Fraction(1, 10**6)
    num[0] = f"{x.numerator}/{x.denominator}"
    with pytest.raises(VerificationError) as info:
        verify(c)
    # the first equation that uses the changed value fails: the state's own or a predecessor's
    preds = {t for t, acts in enumerate(c["model"]["trans"]) for d in acts for u, _ in d if u == s}
    assert info.value.field == "regions[2].values" and info.value.state in preds | {s}, str(info.value)


def test_a_changed_policy_entry_is_rejected_naming_region_and_state(race3):
    c = copy.deepcopy(race3)
    s = _choice_state(c)
    pol = c["regions"][1]["policy"]
    pol[s] = (pol[s] + 1) % len(c["model"]["actions"][s])
    msg = _rejects(c, "regions[1].values", s)
    assert "Bellman" in msg


def test_a_shifted_breakpoint_interval_is_rejected(race3):
    c = copy.deepcopy(race3)
    lo, hi = (Fraction(x) for x in c["breakpoints"][0]["interval"])
    w = hi - lo
    c["breakpoints"][0]["interval"] = [f"{(x + 3 * w).numerator}/{(x + 3 * w).denominator}" for x in (lo, hi)]
    _rejects(c, "breakpoints[0].interval")


def test_a_wrong_breakpoint_decimal_is_rejected(race3):
    c = copy.deepcopy(race3)
    d = c["breakpoints"][1]["decimal"]
    c["breakpoints"][1]["decimal"] = d[:-1] + ("1" if d[-1] != "1" else "2")
    _rejects(c, "breakpoints[1].decimal")


def test_a_region_claiming_its_neighbours_policy_is_rejected_by_the_margin_signs(race3):
    """Region 0 with region 1's policy, values and margins: every identity holds, but on region 0
    some margin is negative (that policy is not optimal there)."""
    c = copy.deepcopy(race3)
    c["regions"][0] = copy.deepcopy(c["regions"][1])
    c["breakpoints"][0]["flips"] = []
    msg = _rejects(c, "regions[0].margins")
    assert "better than the policy's" in msg


def test_a_negated_margin_is_rejected(chefs3):
    c = copy.deepcopy(chefs3)
    item = c["regions"][0]["margins"][0]
    item[2] = [f"{-Fraction(x).numerator}/{Fraction(x).denominator}" for x in item[2]]
    _rejects(c, "regions[0].margins", item[0])


def test_wrong_flips_and_a_missing_region_are_rejected(race3):
    c = copy.deepcopy(race3)
    c["breakpoints"][0]["flips"] = []
    _rejects(c, "breakpoints[0].flips")
    c = copy.deepcopy(race3)
    c["regions"].pop()
    _rejects(c, "regions")


def test_a_probability_changed_to_not_sum_to_one_is_rejected(race3):
    c = copy.deepcopy(race3)
    s = _choice_state(c)
    c["model"]["trans"][s][0][0][1] = ["1/3"]
    _rejects(c, "model.trans", s)


def test_a_player_count_past_the_limit_or_an_objective_that_does_not_fit_it_is_rejected(race3):
    c = copy.deepcopy(race3)
    c["model"]["num_players"] = 10**9
    assert "1 to 1000 players" in _rejects(c, "model")
    c = copy.deepcopy(race3)
    assert c["model"]["num_players"] == 2
    c["model"]["objective"] = c["objective"] = "min"  # one player minimises: not a game of two
    assert "is for 1 player(s), the model has 2" in _rejects(c, "model.objective")


# ------------------------------------------------------------------ Sturm counts against sympy

_coeff = st.integers(min_value=-6, max_value=6)


@settings(max_examples=25, deadline=None)
@given(st.lists(_coeff, min_size=2, max_size=7).filter(lambda c: c[-1] != 0),
       st.fractions(min_value=-3, max_value=3, max_denominator=8), st.fractions(min_value=0, max_value=3,
                                                                                max_denominator=8))
def test_sturm_counts_distinct_roots_in_half_open_intervals_as_sympy_does(coeffs, a, width):
    b = a + width
    f = [Fraction(c) for c in coeffs]
    x = sympy.Symbol("x")
    poly = sympy.Poly(list(reversed(coeffs)), x)
    roots = {r for r in sympy.real_roots(poly)}
    want = sum(1 for r in roots if a < r <= b)
    assert count_roots(f, a, b) == want


@pytest.mark.slow
@settings(max_examples=60, deadline=None)
@given(st.lists(_coeff, min_size=2, max_size=7).filter(lambda c: c[-1] != 0),
       st.fractions(min_value=-3, max_value=3, max_denominator=8), st.fractions(min_value=0, max_value=3,
                                                                                max_denominator=8))
def test_sturm_counts_distinct_roots_in_half_open_intervals_as_sympy_does_many_examples(coeffs, a, width):
    """The same property on 60 examples (25 in the default suite since 2026-12-04)."""
    test_sturm_counts_distinct_roots_in_half_open_intervals_as_sympy_does.hypothesis.inner_test(coeffs=coeffs, a=a, width=width)


def test_no_root_between_handles_algebraic_ends_that_are_roots():
    sqrt2 = Endpoint([Fraction(-2), Fraction(0), Fraction(1)], Fraction(1), Fraction(2))
    f = [Fraction(-2), Fraction(0), Fraction(1)]  # vanishes at the left end only
    assert no_root_between(f, sqrt2, Fraction(3))
    assert not no_root_between([Fraction(-5, 2), Fraction(1)], sqrt2, Fraction(3))  # 5/2 inside
    assert no_root_between([Fraction(-1), Fraction(1)], Fraction(1), sqrt2)  # root at the rational end 1
