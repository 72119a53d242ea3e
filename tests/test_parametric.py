"""Parametric solving: values as rational functions of p, exact breakpoints, checked against the engine."""

from fractions import Fraction
from pathlib import Path

import pytest

from exactplay.engine import solve_model
from exactplay.errors import UsageError
from exactplay.model import ModelError
from exactplay.parametric.build import build_parametric
from exactplay.parametric.interval import check_range, default_range
from exactplay.parametric.poly import Param, ParamError
from exactplay.parametric.regions import solve_parametric
from exactplay.parametric.roots import Algebraic

ROOT = Path(__file__).resolve().parent.parent


def _load(path: str, **params):
    from exactplay.model.load import make_game

    return make_game(path, params)


def race(target, coin="both"):
    from exactplay.games.race.model import make_game

    return make_game(target=target, p=Param.symbol(), coin=coin)


def chefs(n):
    from exactplay.games.chefs.model import make_game

    return make_game(n=n, p=Param.symbol())


def pig(goal):
    return _load(str(ROOT / "examples" / "pig_loaded.py") + ":make_game", goal=goal, p=Param.symbol())


def solved(game, rng=None):
    pm = build_parametric(game)
    lo, hi = rng or default_range(pm)
    check_range(pm, lo, hi)
    return solve_parametric(pm, lo, hi)


GAMES = {"race-3": lambda: race(3), "race-4-coin-2": lambda: race(4, "2"), "chefs-3": lambda: chefs(3),
         "chefs-4": lambda: chefs(4), "pig-4": lambda: pig(4)}


pytestmark = pytest.mark.xdist_group("test_parametric")  # one worker for this file: its module-scoped fixtures
# are built once per suite, not once in each of the two xdist workers (--dist loadgroup)


@pytest.fixture(scope="module", params=sorted(GAMES))
def case(request):
    return solved(GAMES[request.param]())


def _inside(region, hi_default):
    """A few rationals strictly inside the region (its sample, and near each end)."""
    lo = region.lo.hi if isinstance(region.lo, Algebraic) else region.lo
    hi = region.hi.lo if isinstance(region.hi, Algebraic) else region.hi
    while not lo < hi:
        for e in (region.lo, region.hi):
            if isinstance(e, Algebraic):
                e.refine()
        lo = region.lo.hi if isinstance(region.lo, Algebraic) else region.lo
        hi = region.hi.lo if isinstance(region.hi, Algebraic) else region.hi
    return [region.sample, lo + (hi - lo) / 7, hi - (hi - lo) / 9]


def test_every_state_value_equals_the_engine_at_rationals_inside_every_region(case):
    pm = case.model
    for region in case.regions:
        for x in _inside(region, case.hi):
            sol = solve_model(pm.at(x))
            for s in range(len(pm)):
                assert tuple(v.at(x) for v in region.values[s]) == tuple(Fraction(v) for v in sol.values[s])


def test_the_engine_picks_the_reported_policies_just_left_and_right_of_each_breakpoint(case):
    pm = case.model
    for k, b in enumerate(case.breakpoints):
        a = b.point
        left, right = case.regions[k], case.regions[k + 1]
        # refine until both ends of the isolating interval lie inside the neighbouring regions
        for _ in range(200):
            ok_left = not isinstance(left.lo, Algebraic) or left.lo < a.lo
            ok_right = not isinstance(right.hi, Algebraic) or right.hi > a.hi
            if ok_left and ok_right and a.lo > case.lo and a.hi < case.hi:
                break
            a.refine()
        assert solve_model(pm.at(a.lo)).policy == left.policy
        assert solve_model(pm.at(a.hi)).policy == right.policy
        assert b.flips and all(left.policy[s] == x and right.policy[s] == y for s, x, y in b.flips)


def test_regions_tile_the_range_in_increasing_order(case):
    ends = [case.lo] + [b.point for b in case.breakpoints] + [case.hi]
    assert all(x < y for x, y in zip(ends, ends[1:]))
    assert [r.lo for r in case.regions] == ends[:-1] and [r.hi for r in case.regions] == ends[1:]


def test_race_to_2_first_breakpoint_is_one_minus_one_over_root_two():
    ps = solved(race(2))
    a = ps.breakpoints[0].point
    # the root of 2p^2 - 4p + 1 in (0, 1): p = 1 - 1/sqrt(2)
    assert [int(c) for c in a.poly.coeffs()] == [1, -4, 2]
    assert a.decimal(12) == "0.292893218813"


def test_chefs_3_breakpoints_are_the_other_chefs_skills():
    # default skills 1/3, 1/3, 2/3: chef 1's skill p changes the targets exactly where it crosses theirs
    ps = solved(chefs(3))
    assert [b.point.exact for b in ps.breakpoints] == [Fraction(1, 3), Fraction(2, 3)]


def test_a_chain_without_choices_has_one_region():
    from exactplay.games.race.model import make_game

    ps = solved(make_game(target=3, t_max=1, p=Param.symbol()))
    assert len(ps.regions) == 1 and not ps.breakpoints


def test_polynomial_arithmetic_refuses_floats_comparisons_and_division_by_p():
    p = Param.symbol()
    assert (1 - p) * (1 + p) == 1 - p**2
    for bad in (lambda: p * 0.5, lambda: p < Fraction(1, 2), lambda: bool(p), lambda: 1 / p, lambda: p ** -1):
        with pytest.raises(ParamError):
            bad()


def test_probabilities_must_sum_to_one_identically():
    class Bad:
        def initial_state(self):
            return 0

        def is_terminal(self, s):
            return s > 0

        def payoff(self, s):
            return (1,)

        def mover(self, s):
            return None

        def transitions(self, s, a):
            p = Param.symbol()
            return [(p, 1), (1 - p * p, 2)]

    with pytest.raises(ModelError, match="not identically 1"):
        build_parametric(Bad())


def test_a_range_where_a_probability_leaves_0_1_is_refused_in_one_line():
    pm = build_parametric(race(2))
    with pytest.raises(UsageError, match=r"is not in \(0, 1\) on the whole range"):
        check_range(pm, Fraction(1, 2), Fraction(3, 2))


def test_a_game_whose_play_can_go_on_forever_is_refused_with_the_reason():
    class Forever:
        """Player 0 may wait forever (a self-loop with probability 1) or gamble with p."""

        def initial_state(self):
            return 0

        def is_terminal(self, s):
            return s > 0

        def payoff(self, s):
            return (1,) if s == 1 else (0,)

        def mover(self, s):
            return 0

        def actions(self, s):
            return ["gamble", "wait"]

        def transitions(self, s, a):
            p = Param.symbol()
            return [(p, 1), (1 - p, 2)] if a == "gamble" else [(1, 0)]

    with pytest.raises(ModelError, match="every play to end"):
        solved(Forever(), (Fraction(0), Fraction(1)))


def test_race_to_2_at_p_one_half_is_the_known_71_over_135_for_player_2():
    ps = solved(race(2))
    region = next(r for r in ps.regions if r.lo < Fraction(1, 2) < r.hi)
    assert region.values[0][1].at(Fraction(1, 2)) == Fraction(71, 135)


def test_flint_descartes_isolation_finds_the_same_roots_as_sympy():
    from exactplay.parametric.roots import irreducible_factors, roots_of_irreducible

    ps = solved(race(3))
    polys = [m.num for r in ps.regions for row in r.margins.values() for m in row.values() if m]
    for h in irreducible_factors(polys):
        ours = roots_of_irreducible(h, Fraction(0), Fraction(1))
        theirs = roots_of_irreducible(h, Fraction(0), Fraction(1), method="sympy")
        assert len(ours) == len(theirs)
        assert all(a._cmp(b) == 0 for a, b in zip(ours, theirs))
