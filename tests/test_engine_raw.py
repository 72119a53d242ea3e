"""Cyclic components without choices and several payoff components, evaluated on unreduced numerators
(:mod:`exactplay.engine.raw_values`), give exactly what the eager engine gives: values, policy,
margins, q, ties, ranks and statistics, whatever is read first; on Chef Showdown (with and without
exact ties) and on random layered n-player models with near and exact ties."""

from fractions import Fraction

from gmpy2 import mpq
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from exactplay.engine import solve_model
from exactplay.engine.raw_values import best_set, evaluate_component_raw
from exactplay.engine.linear import evaluate_component
from exactplay.games import MODELS
from exactplay.games.chefs.model import Chefs
from exactplay.model import build_model, model_from_json


def outcome(model, lazy: bool, first=None):
    sol = solve_model(model, lazy=lazy)
    if first == "margins":
        dict(sol.margins), dict(sol.q)
    elif first == "last value":
        sol.values[len(model) - 1]
    return (list(sol.values), sol.policy, dict(sol.margins), dict(sol.q), sol.ties, sol.ranks, sol.never_ends,
            sol.stats.to_dict())


def assert_lazy_is_eager(model, first=None):
    assert outcome(model, True, first) == outcome(model, False)


def test_chefs_values_stay_pending_after_the_solve_and_equal_the_eager_ones():
    model = build_model(MODELS["chefs"](n=7))
    sol = solve_model(model)
    assert sol.values.pending_count() > len(model) // 2  # every cycle and every choice: unreduced
    assert sol.margins.pending_count() == len(sol.margins) > 0
    assert_lazy_is_eager(model)
    assert_lazy_is_eager(model, "margins")


def test_chefs_with_equal_skills_finds_every_exact_tie_on_unreduced_numerators():
    model = build_model(Chefs([Fraction(1, 2)] * 5))
    sol = solve_model(model)
    assert len(sol.ties) > 10
    assert_lazy_is_eager(model)
    assert_lazy_is_eager(model, "last value")


def test_best_set_is_the_exact_argmax_with_every_tie():
    xs = [(mpq(1, 3).numerator * 5, 15), (2, 6), (1, 4), (10**40 + 1, 3 * 10**40)]
    assert best_set(xs, 1) == [3]
    assert best_set(xs[:3], 1) == [0, 1]
    assert best_set(xs, -1) == [2]


def test_raw_evaluation_equals_the_reduced_one():
    dist = {0: [(1, mpq(1, 3)), (5, mpq(2, 3))], 1: [(2, mpq(1, 2)), (6, mpq(1, 2))], 2: [(0, mpq(3, 4)), (7, mpq(1, 4))]}
    outside = {5: (mpq(1, 7), mpq(0)), 6: (mpq(2, 9), mpq(5, 11)), 7: (mpq(0), mpq(1, 13))}
    reward = {0: None, 1: (mpq(1), mpq(1, 2)), 2: None}
    raw, m = evaluate_component_raw([0, 1, 2], dist.__getitem__,
                                    lambda s: None if reward[s] is None else tuple((x.numerator, x.denominator) for x in reward[s]),
                                    lambda t: tuple((x.numerator, x.denominator) for x in outside[t]), 2, mpq)
    exact, m2 = evaluate_component([0, 1, 2], dist.__getitem__, reward.__getitem__, outside.__getitem__, 2,
                                   mpq(0), mpq(1))
    assert m == m2 == 1
    assert {s: tuple(mpq(n, d) if n else mpq(0) for n, d in v) for s, v in raw.items()} == exact


@st.composite
def layered_models(draw):
    """Levels of cycles of chance states (a reward now and then); each cycle state leaves with
    probability p to a choice state of a random player whose actions are sure moves to a lower
    level or a terminal state (now and then a chance move or a reward: the path that reads the
    exact values); payoffs equal or differ by 10^-70."""
    players = draw(st.integers(2, 3))
    eps = draw(st.sampled_from([Fraction(1, 10**70), Fraction(0)]))
    states, lower = [], []
    for k in range(draw(st.integers(1, 3))):
        pay = [str(Fraction(draw(st.integers(0, 2)), 2) + eps * draw(st.integers(0, 1))) for _ in range(players)]
        states.append({"id": f"t{k}", "payoff": pay})
        lower.append(f"t{k}")
    probs = st.sampled_from(["1/2", "1/3", "2/3", "1/6"])
    for level in range(draw(st.integers(1, 3))):
        k = draw(st.integers(2, 4))
        cycle = [f"c{level}_{i}" for i in range(k)]
        for i in range(k):
            p = Fraction(draw(probs))
            act = {"name": "try", "next": [[str(p), f"h{level}_{i}"], [str(1 - p), cycle[(i + 1) % k]]]}
            if draw(st.integers(0, 3)) == 0:
                act["reward"] = [str(Fraction(draw(st.integers(0, 2)), 3)) for _ in range(players)]
            states.append({"id": cycle[i], "mover": None, "actions": [act]})
            acts = []
            for a in range(draw(st.integers(1, 3))):
                t = draw(st.sampled_from(lower))
                nxt = [["1/1", t]]
                if draw(st.integers(0, 5)) == 0:
                    u = draw(st.sampled_from(lower))
                    nxt = [["1/2", t], ["1/2", u]] if u != t else nxt
                act = {"name": f"a{a}", "next": nxt}
                if draw(st.integers(0, 7)) == 0:
                    act["reward"] = ["1/5"] * players
                acts.append(act)
            states.append({"id": f"h{level}_{i}", "mover": draw(st.integers(0, players - 1)), "actions": acts})
        lower = lower + cycle
    return model_from_json({"format": "exactplay-model", "version": 1, "players": players, "states": states})


@settings(max_examples=150, deadline=None, database=None, derandomize=True,
          suppress_health_check=[HealthCheck.too_slow])
@given(layered_models(), st.sampled_from([None, "margins", "last value"]))
def test_raw_engine_equals_eager_on_random_layered_n_player_models(model, first):
    assert_lazy_is_eager(model, first)
