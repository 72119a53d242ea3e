"""The certified comparison never decides wrongly: with the ball filter the engine gives exactly
what it gives when every action value is computed exactly (values, policy, margins, ties)."""

from fractions import Fraction

from hypothesis import given, settings
from hypothesis import strategies as st

from exactplay.engine import solve_model
from exactplay.audit.enclosure import ball, may_be_top_two
from exactplay.model import model_from_json


def same(model):
    a, b = solve_model(model, filter=True), solve_model(model, filter=False)
    assert a.values == b.values
    assert a.policy == b.policy
    assert a.margins == b.margins
    assert a.ties == b.ties
    return a


@st.composite
def many_action_models(draw):
    """One or two players, 3-6 actions per choice state, payoffs that differ in the 30th digit or
    not at all (near-ties and exact ties), tiny and huge payoffs: where a loose filter would slip."""
    n_choice = draw(st.integers(1, 4))
    eps = Fraction(1, 10**30)
    base = draw(st.sampled_from([Fraction(1, 3), Fraction(1, 10**300), Fraction(10**200, 7)]))
    payoffs = [base + k * eps * draw(st.integers(0, 2)) for k in range(6)]
    states = []
    terms = [{"id": f"t{k}", "payoff": [str(p)]} for k, p in enumerate(payoffs)]
    for i in range(n_choice):
        acts = []
        for a in range(draw(st.integers(3, 6))):
            t1 = draw(st.integers(0, 5))
            if i + 1 < n_choice and draw(st.booleans()):
                acts.append({"name": f"a{a}", "next": [["1/2", f"t{t1}"], ["1/2", f"c{i + 1}"]]})
            else:
                acts.append({"name": f"a{a}", "next": [["1/1", f"t{t1}"]]})
        states.append({"id": f"c{i}", "mover": 0, "actions": acts})
    return model_from_json({"format": "exactplay-model", "version": 1, "players": 1,
                            "objective": draw(st.sampled_from(["max", "min"])), "states": states + terms})


@settings(max_examples=60, deadline=None)
@given(many_action_models())
def test_ball_filter_agrees_with_all_exact_on_near_ties_and_extreme_magnitudes(model):
    same(model)


def test_ball_filter_agrees_with_all_exact_on_the_race_model():
    from exactplay.games.race.model import make_game
    from exactplay.model import build_model

    sol = same(build_model(make_game(12)))
    assert sol.stats.ruled_out_by_balls >= 0


def _exact(point) -> Fraction:
    """An arb of radius 0 (a ball's end) as the exact dyadic rational it is."""
    man, exp = point.mid().man_exp()
    man, exp = int(man), int(exp)
    return Fraction(man * 2**exp) if exp >= 0 else Fraction(man, 2**-exp)


def test_balls_contain_their_exact_values_at_every_magnitude():
    for x in [Fraction(1, 3), Fraction(-5, 7), Fraction(10**400 + 1, 3), Fraction(1, 10**3000), Fraction(0),
              Fraction(2**70 - 1, 2**70 + 1), Fraction(-(10**500), 10**500 + 1)]:
        b = ball(x)
        assert _exact(b.lower()) <= x <= _exact(b.upper()), x


def test_only_balls_entirely_below_two_others_are_ruled_out():
    one, half, third = ball(Fraction(1)), ball(Fraction(1, 2)), ball(Fraction(1, 3))
    assert may_be_top_two([one, half, third]) == [0, 1]
    assert may_be_top_two([third, half, half]) == [1, 2]  # 1/3 lies below two balls: ruled out
    near = ball(Fraction(1, 2) + Fraction(1, 10**40))  # overlaps 1/2's ball: both kept with 1
    assert set(may_be_top_two([one, half, near])) == {0, 1, 2}
