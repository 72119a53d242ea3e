"""The certified comparison never decides wrongly: with the ball filter the engine gives exactly
what it gives when every action value is computed exactly (values, policy, margins, ties)."""

from fractions import Fraction

from hypothesis import given, settings
from hypothesis import strategies as st

from exactplay.engine import solve_model
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
