"""The Race in float64 intervals (games/race/interval.py, wide.py): every exact value and candidate lies
inside its interval, every certified decision is the exact best, the outward rounding is what makes it
so (a run without it fails the same check), the arithmetic primitives enclose exact rationals down to
subnormals and wide exponents, and arb balls never contradict the intervals."""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import pytest
from cli_run import run, strict
from hypothesis import given, settings
from hypothesis import strategies as st

from exactplay.audit.judge import decimal_digits
from exactplay.games.race import interval, solve_table, t_limit, wide
from exactplay.games.race.interval import interval_run


def _w(m, e) -> Fraction:
    """The wide pair ``m 2^e`` exactly."""
    return Fraction(float(m)) * Fraction(2) ** int(e) if m else Fraction(0)


def _exact(N: int, t_max: int | None = None):
    return solve_table(N, "mpq", t_max=t_max, keep_candidates=True, shadow=False, reference=True)


def _outside(N: int, t_max: int | None = None) -> tuple[int, int, int, int]:
    """(values outside, candidates outside, certified decisions not the exact best, certified) at target N."""
    r = interval_run(N, t_max, keep=True)
    ex, T = _exact(N, t_max), r.tables
    values = cands = wrong = 0
    for a in range(1, N + 1):
        for b in range(1, N + 1):
            f = Fraction(ex.F[a][b])
            values += not (Fraction(T["F"][0, a, b]) <= f <= Fraction(T["F"][1, a, b]))
            values += not (_w(T["Cm"][0, a, b], T["Ce"][0, a, b]) <= 1 - f <= _w(T["Cm"][1, a, b], T["Ce"][1, a, b]))
            for t, v in ex.candidates[(a, b)].items():
                v, k = Fraction(v), t - 1
                cands += not (Fraction(T["cand_F"][0, k, a, b]) <= v <= Fraction(T["cand_F"][1, k, a, b]))
                cands += not (_w(T["cand_Cm"][0, k, a, b], T["cand_Ce"][0, k, a, b]) <= 1 - v
                              <= _w(T["cand_Cm"][1, k, a, b], T["cand_Ce"][1, k, a, b]))
            wrong += bool(T["certified"][a, b]) and int(T["best"][a, b]) != ex.best_t[(a, b)]
    g = Fraction(ex.answer)
    values += not (Fraction(r.answer[0]) <= g <= Fraction(r.answer[1]))
    return values, cands, wrong, r.certified


@pytest.mark.parametrize("N", [1, 2, 3, 12, 40])
def test_every_exact_value_and_candidate_lies_inside_its_interval_and_certified_decisions_are_exact(N):
    values, cands, wrong, certified = _outside(N)
    assert (values, cands, wrong) == (0, 0, 0)
    assert certified == N * N  # at these targets 53 bits settle every decision


@pytest.mark.slow
def test_every_exact_value_lies_inside_its_interval_at_target_60():
    assert _outside(60)[:3] == (0, 0, 0)


@settings(max_examples=12, deadline=None)
@given(st.integers(1, 22), st.integers(1, 8))
def test_intervals_enclose_the_exact_table_for_any_target_and_range_of_t(N, t_max):
    values, cands, wrong, _ = _outside(N, t_max)
    assert (values, cands, wrong) == (0, 0, 0)


def test_without_outward_rounding_exact_values_fall_outside(monkeypatch):
    """The check above can fail: the same run rounded to nearest only loses the exact values."""
    ident = lambda x: x
    monkeypatch.setattr(interval, "dn", ident)
    monkeypatch.setattr(interval, "up", ident)
    monkeypatch.setattr(wide, "dn", ident)
    monkeypatch.setattr(wide, "up", ident)
    assert _outside(12)[0] > 0


def test_bands_of_rows_give_the_same_intervals_and_decisions_as_one_band():
    one = interval_run(45, keep_choices=True, rows=45)
    for rows in (1, 7, 44):
        r = interval_run(45, keep_choices=True, rows=rows)
        assert (r.answer, r.first, r.certified) == (one.answer, one.first, one.certified)
        for key in ("F", "best", "certified"):
            assert np.array_equal(r.tables[key], one.tables[key])


# ---------------------------------------------------------------- the primitives

_doubles = st.one_of(st.floats(0, 2, allow_nan=False), st.floats(0, 1e-300), st.sampled_from([0.0, 5e-324, 2.0**-1022]))


@settings(max_examples=80, deadline=None)
@given(_doubles, _doubles, st.sampled_from(["+", "*", "/"]))
def test_dn_and_up_of_a_rounded_operation_enclose_the_exact_result(x, y, op):
    if op == "/":  # the divisions of the race are by 1 + q in [1, 2]: no overflow (the lemma's condition)
        y = 1.0 + y / 2
    r = {"+": lambda p, q: p + q, "*": lambda p, q: p * q, "/": lambda p, q: p / q}[op]
    fl = r(np.float64(x), np.float64(y))
    exact = r(Fraction(x), Fraction(y))
    assert Fraction(float(wide.dn(fl))) <= exact <= Fraction(float(wide.up(fl)))


@pytest.mark.slow
@settings(max_examples=200, deadline=None)
@given(_doubles, _doubles, st.sampled_from(["+", "*", "/"]))
def test_dn_and_up_of_a_rounded_operation_enclose_the_exact_result_many_examples(x, y, op):
    """The same property on 200 examples (80 in the default suite since 2026-12-04)."""
    test_dn_and_up_of_a_rounded_operation_enclose_the_exact_result.hypothesis.inner_test(x=x, y=y, op=op)


_exp = st.integers(-20000, 2)


@settings(max_examples=80, deadline=None)
@given(st.floats(0, 2), _exp, st.floats(0, 2), _exp, st.floats(0, 1), st.floats(0, 1))
def test_combine_encloses_c1_x1_plus_c2_x2_over_wide_exponents(x1, e1, x2, e2, c1, c2):
    (m1, k1), (m2, k2) = wide.normal(np.array([x1]), e1), wide.normal(np.array([x2]), e2)
    exact = Fraction(c1) * _w(m1[0], k1[0]) + Fraction(c2) * _w(m2[0], k2[0])
    lo, hi = wide.combine(m1, k1, m2, k2, c1, c2, False), wide.combine(m1, k1, m2, k2, c1, c2, True)
    assert _w(lo[0][0], lo[1][0]) <= exact <= _w(hi[0][0], hi[1][0])
    assert lo[0][0] == 0 or 0.5 <= lo[0][0] < 1  # normal pairs


@pytest.mark.slow
@settings(max_examples=200, deadline=None)
@given(st.floats(0, 2), _exp, st.floats(0, 2), _exp, st.floats(0, 1), st.floats(0, 1))
def test_combine_encloses_c1_x1_plus_c2_x2_over_wide_exponents_many_examples(x1, e1, x2, e2, c1, c2):
    """The same property on 200 examples (80 in the default suite since 2026-12-04)."""
    test_combine_encloses_c1_x1_plus_c2_x2_over_wide_exponents.hypothesis.inner_test(x1=x1, e1=e1, x2=x2, e2=e2, c1=c1, c2=c2)


def test_coefficients_enclose_alpha_and_beta():
    al, ah, bl, bh = interval.coefficients(20)
    for t in range(1, 21):
        q = Fraction(1, 2**t)
        assert Fraction(al[t - 1, 0]) < 2 * q / (1 + q) < Fraction(ah[t - 1, 0])
        assert Fraction(bl[t - 1, 0]) < (1 - q) / (1 + q) < Fraction(bh[t - 1, 0])


# ---------------------------------------------------------------- the command line


def test_solve_with_ball_prec_53_runs_the_intervals_and_prints_the_exact_rounding(capsys):
    status, out, _ = run(capsys, "solve", "race", "--target", "30", "--backend", "ball", "--prec", "53", "--json")
    data = strict(out)
    assert status == 0 and data["prec_bits"] == 53 and data["method"].startswith("float64 intervals")
    exact = solve_table(30, "mpq").answer
    assert data["answer"]["decimal"] == decimal_digits(exact, 8)
    assert Fraction(data["answer"]["lower"]) <= exact <= Fraction(data["answer"]["upper"])
    assert data["decisions"] == {"total": 900, "certified": 900, "unresolved": 0, "unresolved_rows_sample": [],
                                 "unresolved_sample": [], "prec_bits": 53}
    ex = solve_table(30, "mpq")
    assert data["first_choice_T"]["after_player1_misses"] == {"t": ex.best_t[(30, 30)], "certified": True}


# ---------------------------------------------------------------- against arb balls (slow)


@pytest.mark.slow
def test_intervals_and_arb_balls_overlap_and_never_contradict_at_target_500():
    from exactplay.games.race.ball import ball_run

    N = 500
    r = interval_run(N, keep_choices=True)
    b = ball_run(N, 128, keep_rows=True)
    F, best, sure = r.tables["F"], r.tables["best"], r.tables["certified"]
    both = contradict = 0
    for a, bb, lo, hi, t, ball_sure in b.rows:
        assert lo <= Fraction(F[1, a, bb]) and Fraction(F[0, a, bb]) <= hi  # the enclosures overlap
        if ball_sure and sure[a, bb]:
            both += 1
            contradict += t != best[a, bb]
    assert contradict == 0 and both == b.certified  # every decision arb certifies, the intervals certify too
    assert r.certified >= b.certified and r.first["after_player1_misses"][0] == b.first["after_player1_misses"][0]
    assert t_limit(N) == r.t_max
