"""Every way the engine can run gives the same solution: the float filter on or off, the float guess in
numpy (with the rational guess of the exact values) or in plain Python, the bad guesses of a policy that
the exact iteration must repair, and both exact backends -- all equal to the brute force on random models
(one player, two players zero-sum, several players, ties, end components, rewards)."""

from __future__ import annotations

import importlib
import json
from fractions import Fraction as F

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from exactplay.bruteforce import brute_force_values
from exactplay.engine.solve import solve_model
from exactplay.model import ModelError, model_from_json
from test_engine import _bad_seed, _rewards_before_a_possible_endless_play, engine_key_values, random_models

float_guess = importlib.import_module("exactplay.engine.float_guess")
cyclic = importlib.import_module("exactplay.engine.cyclic")


def _digest(sol):
    return ([None if v is None else tuple(map(F, v)) for v in sol.values], list(sol.policy), dict(sol.ties),
            list(sol.ranks), {s: F(m) for s, m in dict(sol.margins).items()}, sol.witness, list(sol.never_ends))


def _solve(data, backend="mpq", filter=True):
    model = model_from_json(json.loads(json.dumps(data)))
    try:
        return model, solve_model(model, backend, filter=filter)
    except ModelError as exc:
        return model, str(exc)


OPTIONS = [("fraction", True, None, None), ("mpq", False, None, None), ("mpq", True, 1, None),
           ("mpq", True, None, "last"), ("mpq", True, 1, "mixed")]


@pytest.mark.parametrize("backend,filter,arrays_from,bad", OPTIONS)
@settings(max_examples=15, deadline=None, database=None, derandomize=True,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
@given(data=st.sampled_from([{}, {"players": 2}, {"rewards": True}]).flatmap(lambda kw: random_models(**kw)))
def test_every_engine_option_gives_the_default_solution_and_the_brute_force_value(monkeypatch, backend, filter,
                                                                                  arrays_from, bad, data):
    model, want = _solve(data)
    if arrays_from is not None:
        monkeypatch.setattr(float_guess, "MIN_FLOAT_ARRAYS", arrays_from)
        monkeypatch.setattr(float_guess, "ARRAY_WORK", 0)
    if bad is not None:
        monkeypatch.setattr(cyclic, "float_guess", _bad_seed(bad))
    _, got = _solve(data, backend, filter)
    if isinstance(want, str):
        assert got == want  # the same refusal, for the same reason
        return
    assert _digest(got) == _digest(want)
    if not _rewards_before_a_possible_endless_play(model):
        assert engine_key_values(got) == brute_force_values(model, [])


@pytest.mark.slow
@pytest.mark.parametrize("backend,filter,arrays_from,bad", OPTIONS)
@settings(max_examples=40, deadline=None, database=None, derandomize=True,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
@given(data=st.sampled_from([{}, {"players": 2}, {"rewards": True}]).flatmap(lambda kw: random_models(**kw)))
def test_every_engine_option_gives_the_default_solution_and_the_brute_force_value_many_examples(monkeypatch, backend, filter, arrays_from, bad, data):
    """The same property on 40 examples (15 in the default suite since 2026-12-04)."""
    test_every_engine_option_gives_the_default_solution_and_the_brute_force_value.hypothesis.inner_test(monkeypatch=monkeypatch, backend=backend, filter=filter, arrays_from=arrays_from, bad=bad, data=data)


@pytest.mark.parametrize("dense_from", [2, 10 ** 9])
@settings(max_examples=15, deadline=None, database=None, derandomize=True,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
@given(data=st.sampled_from([{}, {"players": 2}, {"rewards": True}]).flatmap(lambda kw: random_models(**kw)))
def test_the_dense_float_guess_and_the_plain_loop_give_the_default_solution(monkeypatch, dense_from, data):
    """Every cyclic component guessed on dense arrays (``dense_guess``), or none (the plain loop with the
    state elimination in floats): the same solution, the brute force's values."""
    model, want = _solve(data)
    monkeypatch.setattr(float_guess, "DENSE_FROM", dense_from)
    monkeypatch.setattr(float_guess, "DENSE_WORK", 0)  # (however small the model)
    calls = []
    real = float_guess.dense_guess
    monkeypatch.setattr(float_guess, "dense_guess", lambda *a: calls.append(1) or real(*a))
    _, got = _solve(data)
    if dense_from > 2:
        assert not calls
    if isinstance(want, str):
        assert got == want
        return
    assert _digest(got) == _digest(want)
    if not _rewards_before_a_possible_endless_play(model):
        assert engine_key_values(got) == brute_force_values(model, [])


@pytest.mark.slow
@pytest.mark.parametrize("dense_from", [2, 10 ** 9])
@settings(max_examples=40, deadline=None, database=None, derandomize=True,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
@given(data=st.sampled_from([{}, {"players": 2}, {"rewards": True}]).flatmap(lambda kw: random_models(**kw)))
def test_the_dense_float_guess_and_the_plain_loop_give_the_default_solution_many_examples(monkeypatch, dense_from, data):
    """The same property on 40 examples (15 in the default suite since 2026-12-04)."""
    test_the_dense_float_guess_and_the_plain_loop_give_the_default_solution.hypothesis.inner_test(monkeypatch=monkeypatch, dense_from=dense_from, data=data)


def test_the_dense_float_guess_runs_on_a_cyclic_component_with_choices(monkeypatch):
    """(The property above is not vacuous: a Pig component of the dense size is guessed there.)"""
    import importlib.util
    import pathlib

    from exactplay.model import build_model

    spec = importlib.util.spec_from_file_location("pig", pathlib.Path(__file__).parents[1] / "examples" / "pig.py")
    pig = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(pig)
    calls = []
    real = float_guess.dense_guess
    monkeypatch.setattr(float_guess, "dense_guess", lambda *a: calls.append(len(a[1])) or real(*a))
    monkeypatch.setattr(float_guess, "DENSE_WORK", 0)  # (as above)
    model = build_model(pig.make_game(12))
    sol = solve_model(model)
    assert calls and max(calls) >= float_guess.DENSE_FROM
    assert sol.stats.max_rounds == 1  # (the guess is the optimal policy: one exact round per component)
