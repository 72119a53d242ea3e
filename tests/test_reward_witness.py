"""The reward witness: rewards where play can go on forever, a play that never ends keeping the rewards
it collected (no terminal payoff; PRISM-games' ``R[Fc phi]``, Storm's total reward ``C``).

The value is the least fixed point of Bellman's equations with rewards >= 0.  A certificate proves it by
two halves: a fixed point ``V >= 0`` bounds the value from above, and ranks that lead every state of
positive value to a terminal or to a state of value 0 (rank 0) -- at a maximiser through an optimal
action, elsewhere through every action -- bound it from below (optional stopping).  Checked here against
the independent brute force (:mod:`exactplay.bruteforce`: every pure stationary profile's chain, solved
exactly), and against forged certificates.
"""

from __future__ import annotations

import json
from fractions import Fraction

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
import pytest

from exactplay.bruteforce import brute_force_values
from exactplay.certify.model import model_certificate
from exactplay.checker import check_certificate
from exactplay.engine import solve_model
from exactplay.errors import VerificationError
from exactplay.model import ModelError, model_from_json


def _model(players, objective, states):
    return model_from_json({"format": "exactplay-model", "version": 1, "name": "reward game", "players": players,
                            "objective": objective, "states": states})


@st.composite
def reward_games(draw, max_states=6):
    """Up to ``max_states`` non-terminal states whose actions may stay among them (end components), rewards >= 0 on
    some actions, one or two terminals of payoff >= 0; one player (max or min) or two (zero-sum)."""
    players = draw(st.sampled_from([1, 1, 2]))
    objective = draw(st.sampled_from(["max", "min"])) if players == 1 else "zero-sum"
    n, n_term = draw(st.integers(2, max_states)), draw(st.integers(1, 2))
    states = []
    for s in range(n):
        mover = draw(st.sampled_from([None] + list(range(players)) * 2))
        acts = []
        for a in range(1 if mover is None else draw(st.integers(1, 3))):
            succ = draw(st.lists(st.integers(0, n + n_term - 1), min_size=1, max_size=3, unique=True))
            weights = draw(st.lists(st.integers(1, 3), min_size=len(succ), max_size=len(succ)))
            act = {"name": f"a{a}", "next": [[f"{w}/{sum(weights)}", f"s{t}"] for w, t in zip(weights, succ)]}
            if draw(st.integers(0, 2)) == 0:
                x = Fraction(draw(st.integers(1, 3)), draw(st.integers(1, 3)))
                act["reward"] = [str(x)] if players == 1 else [str(x), str(-x)]
            acts.append(act)
        states.append({"id": f"s{s}", "mover": mover, "actions": acts})
    for s in range(n, n + n_term):
        x = Fraction(draw(st.integers(0, 3)), draw(st.integers(1, 3)))
        states.append({"id": f"s{s}", "payoff": [str(x)] if players == 1 else [str(x), str(-x)]})
    return _model(players, objective, states)


def _key(sol):
    i = sol.components.index(sol.model.keys()[0][0])
    return [Fraction(str(v[i])) for v in sol.values]


@settings(max_examples=150, deadline=None, database=None, derandomize=True,
          suppress_health_check=[HealthCheck.too_slow])
@given(reward_games())
def test_random_reward_games_equal_the_brute_force_and_certify_or_are_refused_as_infinite(model):
    _against_the_brute_force(model)


@pytest.mark.slow
@settings(max_examples=400, deadline=None, database=None, derandomize=True,
          suppress_health_check=[HealthCheck.too_slow])
@given(reward_games())
def test_random_reward_games_equal_the_brute_force_and_certify_or_are_refused_as_infinite_many_examples(model):
    """The same property on 400 examples (150 in the default suite since 2026-12-04)."""
    test_random_reward_games_equal_the_brute_force_and_certify_or_are_refused_as_infinite.hypothesis.inner_test(model=model)


@pytest.mark.slow
@settings(max_examples=3000, deadline=None, database=None, suppress_health_check=[HealthCheck.too_slow])
@given(reward_games(max_states=8))
def test_random_reward_games_up_to_8_states_many_examples(model):
    _against_the_brute_force(model)


def _against_the_brute_force(model):
    try:
        sol = solve_model(model)
    except ModelError as exc:
        if "can be infinite" not in str(exc):
            assert "negative" in str(exc) or "different objectives" in str(exc), exc
            return
        # a reward on an end component: the profile that stays there collects it forever
        with pytest.raises(AssertionError, match="singular"):
            brute_force_values(model)
        return
    assert _key(sol) == brute_force_values(model)
    cert = json.loads(json.dumps(model_certificate(sol)))
    assert sol.witness in check_certificate(cert)


@settings(max_examples=30, deadline=None, database=None, derandomize=True,
          suppress_health_check=[HealthCheck.too_slow])
@given(reward_games())
def test_a_value_raised_inside_an_end_component_is_refused_by_the_checker(model):
    try:
        sol = solve_model(model)
    except ModelError:
        return
    cert = json.loads(json.dumps(model_certificate(sol)))
    positive = [s for s, v in enumerate(cert["solution"]["values"]) if v is not None and v[0] != "0/1"
                and model.terminal[s] is None]
    if not positive:
        return
    s = positive[0]
    up = Fraction(cert["solution"]["values"][s][0]) + 1  # a fake fixed point, or no fixed point at all
    cert["solution"]["values"][s][0] = f"{up.numerator}/{up.denominator}"
    with pytest.raises(VerificationError):
        check_certificate(cert)


# The futures-market shape (PRISM-games' investor, in small): each month the investor may cash in at the
# current value v (a reward, then play ends) or wait; the market then moves v up or down, or freezes it
# forever at 0 (a play that never ends, worth what it collected: nothing here).  By hand, with
# V(v) = max(v, 1/2 V(v+1) + 1/4 V(v-1) + 1/4 * 0) on v = 0..2, V(3) = 3 (the top: cash in):
# V(2) = max(2, 3/2 + V(1)/4), V(1) = max(1, V(2)/2 + V(0)/4), V(0) = max(0, V(1)/2 + V(0)/4) (down from 0 stays).
# Cashing at 2, waiting at 1 and 0: V(2) = 2, V(1) = 1 + V(0)/4, V(0) = 2/3 V(1): V(1) = 6/5, V(0) = 4/5
# (and at 2 waiting gives 3/2 + 3/10 = 9/5 < 2).
def _market():
    states = []
    for v in range(4):
        up, down = f"v{min(v + 1, 3)}", f"v{max(v - 1, 0)}"
        wait = {"name": "wait", "next": [["1/2", up], ["1/4", down], ["1/4", "frozen"]]}
        cash = {"name": "cash", "next": [["1/1", "done"]], "reward": [f"{v}/1"]}
        states.append({"id": f"v{v}", "mover": 0, "actions": [cash, wait]})
    states.append({"id": "frozen", "mover": None, "next": [["1/1", "frozen"]]})
    states.append({"id": "done", "payoff": ["0/1"]})
    return _model(1, "max", states)


def test_the_small_futures_market_has_the_values_derived_by_hand():
    sol = solve_model(_market())
    assert sol.witness == "reward"
    assert _key(sol)[:4] == [Fraction(4, 5), Fraction(6, 5), Fraction(2), Fraction(3)]
    assert [sol.policy[s] for s in range(4)] == [1, 1, 0, 0]  # wait, wait, cash, cash
    assert sol.ranks[4] == 0 and sol.never_ends == [4]
    assert "reward witness" in check_certificate(json.loads(json.dumps(model_certificate(sol))))


def test_a_reward_on_a_loop_that_play_can_stay_on_is_refused_in_one_line(capsys, tmp_path):
    from cli_run import run

    data = {"format": "exactplay-model", "version": 1, "players": 1, "states": [
        {"id": "s", "mover": 0, "actions": [{"name": "farm", "next": [["1/1", "s"]], "reward": ["1/1"]},
                                           {"name": "stop", "next": [["1/1", "t"]]}]},
        {"id": "t", "payoff": ["0/1"]}]}
    path = tmp_path / "farm.json"
    path.write_text(json.dumps(data))
    status, out, err = run(capsys, "solve", "--model", path)
    assert status == 2 and out == "" and len(err.splitlines()) == 1 and "can be infinite" in err


def test_the_example_agrees_with_storms_total_reward_and_with_the_distributed_solve(capsys):
    from pathlib import Path

    from cli_run import run, strict

    example = Path(__file__).resolve().parent.parent / "examples" / "cash-or-wait.json"
    status, out, err = run(capsys, "crosscheck", "--model", example, "--json")
    assert status == 0 and strict(out)["verdict"] == "agree", err
    status, out, err = run(capsys, "solve", "--model", example, "--workers", "2", "--json", "-q")
    assert status == 0 and strict(out)["answer"]["value"] == "4/5", err
