"""The ball backend: enclosures contain the exact values, certified decisions agree with exact,
Ziv decimals equal the exact rounding, and python-flint's comparisons never decide overlapping balls."""

from __future__ import annotations

import sys
from fractions import Fraction
from pathlib import Path

from flint import arb, fmpq
from hypothesis import example, given, settings
from hypothesis import strategies as st

from exactplay.audit.judge import decimal_digits
from exactplay.numbers.balls import endpoints, working_precision, ziv_decimal
from exactplay.games.hold.ball import ball_table
from exactplay.games.hold.solver import solve_table as hold_solve, turn_of
from exactplay.games.race import solve_table
from exactplay.games.race.ball import ball_run
from exactplay.numbers.backends import best_of, get_backend

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"


def _inside(ball, exact) -> bool:
    lo, hi = endpoints(ball)
    return lo <= Fraction(exact) <= hi


# ---------------------------------------------------------------- python-flint semantics and best_of


def test_overlapping_arb_comparisons_are_all_false():
    with working_precision(53):
        a, b = arb(1, 0.5), arb("1.2 +/- 0.1")
        assert not any((a < b, a > b, a <= b, a >= b, a == b))
        assert not (a != b)  # != means "certainly different": False for overlapping balls too


@settings(max_examples=60, deadline=None)
@given(st.lists(st.tuples(st.integers(-50, 50), st.integers(0, 20)), min_size=1, max_size=6))
def test_best_of_certifies_only_separated_balls(pairs):
    with working_precision(64):
        balls = [arb(m) + arb(0, r) for m, r in pairs]  # [m - r, m + r]
        top, win, sure = best_of(get_backend("ball", 64), balls)
        lows = [Fraction(m - r) for m, r in pairs]
        highs = [Fraction(m + r) for m, r in pairs]
        if sure:
            assert all(lows[win] > highs[j] for j in range(len(pairs)) if j != win)
        else:
            assert len(pairs) > 1 and any(lows[win] <= highs[j] for j in range(len(pairs)) if j != win)
        lo, hi = endpoints(top)
        assert lo <= max(lows) and hi >= max(highs)  # encloses the max whichever values are exact


def test_best_of_exact_and_float_keep_the_first_maximum():
    for name in ("mpq", "fraction", "float"):
        B = get_backend(name)
        assert best_of(B, [B.q(1, 3), B.q(1, 2), B.q(1, 2)])[1:] == (1, True)


# ---------------------------------------------------------------- Ziv decimals


@settings(max_examples=60, deadline=None)
@given(st.integers(-10**12, 10**12), st.integers(1, 10**9), st.integers(0, 12))
@example(505, 10**9, 8)  # on a boundary: found by CI, 2026-11-30
@example(125, 1000, 2)  # 1/8: on a boundary, and exact in binary
def test_ziv_decimal_equals_the_exact_rounding(p, q, digits):
    x = Fraction(p, q)
    z = ziv_decimal(lambda prec: arb(fmpq(p, q)), digits, 32, 4096)
    if (2 * x * 10**digits).denominator == 1 and (2 * x * 10**digits).numerator % 2:
        # exactly half-way between two roundings (505/10^9 at 8 digits): a ball around x, not a point
        # (q not a power of 2), straddles the boundary at every precision, so nothing is claimed
        dyadic = x.denominator & (x.denominator - 1) == 0  # then the ball is the point x itself
        assert z.rounded is None or (dyadic and z.rounded == decimal_digits(x, digits))
    else:
        assert z.rounded == decimal_digits(x, digits)  # a rational off a boundary is always settled


def test_ziv_on_a_rounding_boundary_says_how_many_digits_are_certain():
    z = ziv_decimal(lambda prec: arb(fmpq(1, 8)), 2, 32, 128)  # 0.125 is a tie at 2 decimals
    # an exact point ball rounds the same at both ends; a ball around it cannot
    assert z.rounded == decimal_digits(Fraction(1, 8), 2)
    z = ziv_decimal(lambda prec: arb(fmpq(1, 8)) + arb(0, arb(2) ** -prec), 2, 32, 128)
    assert z.rounded is None and z.certain_digits == 1 and z.evaluations == 3


# ---------------------------------------------------------------- the Race


@settings(max_examples=12, deadline=None)
@given(st.integers(1, 22), st.sampled_from([16, 24, 53, 128, 300]))
def test_race_balls_enclose_exact_and_certified_decisions_agree(target, prec):
    exact = solve_table(target, "fraction", keep_candidates=True)
    table = solve_table(target, get_backend("ball", prec))
    for a, b in exact.cells():
        assert _inside(table.F[a][b], exact.F[a][b]), (a, b)
        if (a, b) not in table.unresolved:
            assert table.best_t[(a, b)] == exact.best_t[(a, b)], (a, b)
    assert _inside(table.answer, exact.answer)


def test_race_streaming_run_equals_the_table_and_judges_float():
    exact = solve_table(30, "fraction")
    run = ball_run(30, 40, with_float=True, keep_rows=True)
    for a, b, lo, hi, t, sure in run.rows:
        assert lo <= exact.F[a][b] <= hi
        if sure:
            assert t == exact.best_t[(a, b)]
    assert run.decisions == 900 and 0 < run.certified < 900  # 40 bits leave the closest gaps open
    assert run.float_classes["wrong"] == 0 and sum(run.float_classes.values()) == 900
    assert run.float_error_upper >= abs(float(exact.answer) - run.float_answer)


def test_race_certified_decisions_grow_with_precision():
    counts = [ball_run(60, p).certified for p in (24, 64, 160)]
    assert counts[0] < counts[1] < counts[2] == 3600


# ---------------------------------------------------------------- Hold


@settings(max_examples=6, deadline=None)
@given(st.integers(4, 14), st.integers(2, 6), st.sampled_from([40, 128]))
def test_hold_balls_enclose_exact_and_certified_decisions_agree(target, faces, prec):
    exact = hold_solve(target, faces, "fraction")
    table = ball_table(target, faces, prec)
    for c in range(target):
        for h in range(target):
            assert _inside(table.V[c][h], exact.V[c][h]), (c, h)
            _, hv, cont, _ = turn_of(exact, c, h)
            for i, letter in enumerate(table.policy[c][h]):
                x = i + 2
                if letter == "H":
                    assert hv[x] > cont[x], (c, h, x)
                elif letter == "C":
                    assert cont[x] > hv[x], (c, h, x)


# ---------------------------------------------------------------- user models


def _models():
    sys.path.insert(0, str(EXAMPLES))
    import pig
    import piglet

    from exactplay.games.race.model import make_game as race_game

    return [piglet.make_game(goal=6), pig.make_game(goal=6), race_game(target=6)]


def test_engine_balls_enclose_exact_values_and_certified_decisions_agree():
    from exactplay.engine import solve_model
    from exactplay.engine.ball import ball_solve
    from exactplay.model import build_model

    for game in _models():
        model = build_model(game)
        exact = solve_model(model, "fraction")
        sol = ball_solve(model, 64)
        assert sol.decisions == len(exact.margins)
        for s in range(len(model)):
            for i in range(len(sol.components)):
                assert _inside(sol.values[s][i], exact.values[s][i]), (model.name, s)
        for s in exact.margins:
            if s not in exact.ties and s not in sol.unresolved:
                assert sol.policy[s] == exact.policy[s], (model.name, s)
