"""A two-player zero-sum game where every play ends and the payoffs sum to a constant ``K``: the
engine solves player 0's component only and writes player 1's as ``K - V_0``
(:func:`exactplay.engine.solution.constant_sum_total`).  The result equals solving both
components, on random such models (with rewards that sum to zero) and on Pig and the Race; a
zero-sum game whose payoffs do not sum to a constant is not shortcut."""

from __future__ import annotations

import importlib
import json
from fractions import Fraction

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from exactplay.engine.solution import constant_sum_total
from exactplay.games import MODELS
from exactplay.model import build_model, model_from_json
from test_engine import pig



ENGINE = importlib.import_module("exactplay.engine.solve")
RUN = importlib.import_module("exactplay.engine.run")


def _both_ways(model, backend="mpq", monkeypatch=None):
    fast = ENGINE.solve_model(model, backend)
    monkeypatch.setattr(RUN, "constant_sum_total", lambda *a: None)
    full = ENGINE.solve_model(model, backend)
    monkeypatch.undo()
    return fast, full


def _same(fast, full):
    assert fast.components == full.components == [0, 1]
    assert fast.values == full.values
    assert fast.policy == full.policy and fast.margins == full.margins and fast.ties == full.ties
    assert fast.ranks == full.ranks and fast.q == full.q


def test_pig_and_race_equal_solving_both_components(monkeypatch):
    for model in (build_model(pig.make_game(goal=12)), build_model(MODELS["race"](target=12))):
        assert constant_sum_total(model, "termination", [0, 1]) == 1
        _same(*_both_ways(model, monkeypatch=monkeypatch))


@st.composite
def constant_sum_models(draw):
    n = draw(st.integers(2, 7))
    K = Fraction(draw(st.integers(-2, 3)), draw(st.integers(1, 3)))
    states = []
    n_term = draw(st.integers(1, max(1, n // 2)))
    for s in range(n):
        if s >= n - n_term:
            a = Fraction(draw(st.integers(-3, 4)), draw(st.integers(1, 3)))
            states.append({"id": s, "payoff": [str(a), str(K - a)]})
            continue
        mover = draw(st.sampled_from([None, 0, 1]))
        acts = []
        for i in range(1 if mover is None else draw(st.integers(1, 3))):
            # successors of higher index only: every play ends
            succ = draw(st.lists(st.integers(s + 1, n - 1), min_size=1, max_size=3, unique=True))
            weights = [draw(st.integers(1, 4)) for _ in succ]
            act = {"name": f"a{i}", "next": [[f"{w}/{sum(weights)}", t] for w, t in zip(weights, succ)]}
            if draw(st.booleans()):
                r = Fraction(draw(st.integers(-2, 2)), draw(st.integers(1, 3)))
                act["reward"] = [str(r), str(-r)]
            acts.append(act)
        states.append({"id": s, "mover": mover, "actions": acts})
    return {"format": "exactplay-model", "version": 1, "players": 2, "objective": "zero-sum", "states": states}


@settings(max_examples=15, deadline=None, database=None, derandomize=True,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
@given(constant_sum_models(), st.sampled_from(["mpq", "fraction"]))
def test_random_constant_sum_games_equal_solving_both_components(monkeypatch, data, backend):
    model = model_from_json(json.loads(json.dumps(data)))
    assume(len(model) > 1)
    assert constant_sum_total(model, "termination", [0, 1]) is not None
    fast, full = _both_ways(model, backend, monkeypatch)
    assert fast.witness == "termination"
    _same(fast, full)


@pytest.mark.slow
@settings(max_examples=40, deadline=None, database=None, derandomize=True,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
@given(constant_sum_models(), st.sampled_from(["mpq", "fraction"]))
def test_random_constant_sum_games_equal_solving_both_components_many_examples(monkeypatch, data, backend):
    """The same property on 40 examples (15 in the default suite since 2026-12-04)."""
    test_random_constant_sum_games_equal_solving_both_components.hypothesis.inner_test(monkeypatch=monkeypatch, data=data, backend=backend)


def test_a_zero_sum_game_without_a_constant_sum_solves_both_components():
    data = {"format": "exactplay-model", "version": 1, "players": 2, "objective": "zero-sum", "states": [
        {"id": 0, "mover": 0, "actions": [{"name": "a", "next": [["1/2", 1], ["1/2", 2]]}, {"name": "b", "next": [["1", 2]]}]},
        {"id": 1, "payoff": ["1", "0"]}, {"id": 2, "payoff": ["0", "0"]}]}
    model = model_from_json(data)
    assert constant_sum_total(model, "termination", [0, 1]) is None
    sol = ENGINE.solve_model(model)
    assert sol.components == [0, 1] and [tuple(map(Fraction, v)) for v in sol.values[:1]] == [(Fraction(1, 2), 0)]
