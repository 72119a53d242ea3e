"""The lazy engine (exact values at the cut states, decisions in balls, the rest computed on first
access) gives exactly what the eager engine gives: values, policy, margins, q, ties, ranks, the
never-ending states and the statistics, on random cyclic models with near ties (closer than the
balls can separate) and exact ties; and the lazy containers behave as plain lists and dicts."""

import json
import pickle
from pathlib import Path
from fractions import Fraction

import pytest
from gmpy2 import mpq
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from exactplay.engine import solve_model
from exactplay.engine.lazy import LazyDict, LazyValues, MappedValues, Pending, Unit
from exactplay.games import MODELS
from exactplay.model import ModelError, build_model, model_from_json


def outcome(model, lazy: bool, read_margins_first: bool = False):
    try:
        sol = solve_model(model, lazy=lazy)
    except ModelError as exc:
        return ("refused", str(exc))
    if read_margins_first:  # the order of the first reads must not matter
        dict(sol.margins), dict(sol.q)
    return (list(sol.values), sol.policy, dict(sol.margins), dict(sol.q), sol.ties, sol.ranks, sol.never_ends,
            sol.stats.to_dict())


def assert_lazy_is_eager(model, read_margins_first: bool = False):
    eager = outcome(model, False)
    lazy = outcome(model, True, read_margins_first)
    assert lazy == eager
    return lazy


@st.composite
def cyclic_models(draw):
    """One player (max or min) or two (zero-sum); two-action choices on cycles; terminal payoffs that
    differ by 10^-70 (below the balls' 192 bits: the exact fallback), by 10^-20, or not at all."""
    n = draw(st.integers(3, 9))
    players = draw(st.sampled_from([1, 2]))
    objective = draw(st.sampled_from(["max", "min"])) if players == 1 else "zero-sum"
    eps = draw(st.sampled_from([Fraction(1, 10**70), Fraction(1, 10**20), Fraction(0)]))
    base = draw(st.sampled_from([Fraction(1, 3), Fraction(1), Fraction(0), Fraction(10**80, 7)]))
    n_term = draw(st.integers(1, 3))
    states = []
    for k in range(n_term):
        p = base + eps * draw(st.integers(0, 2))
        second = draw(st.sampled_from([1 - p if p <= 1 else 0, Fraction(0), Fraction(1)]))  # not always constant-sum
        states.append({"id": f"t{k}", "payoff": [str(p)] + ([str(second)] if players == 2 else [])})
    probs = st.sampled_from(["1/2", "1/3", "1/6", "2/3"])
    for s in range(n):
        mover = draw(st.sampled_from([None] + list(range(players)) * 2))
        acts = []
        for a in range(1 if mover is None else draw(st.integers(1, 2))):
            p = Fraction(draw(probs))
            stay = f"s{draw(st.integers(0, n - 1))}"  # inside: cycles
            other = draw(st.sampled_from([f"s{draw(st.integers(0, n - 1))}", f"t{draw(st.integers(0, n_term - 1))}"]))
            nxt = [[str(p), stay], [str(1 - p), other]] if stay != other else [["1/1", stay]]
            acts.append({"name": f"a{a}", "next": nxt})
        states.append({"id": f"s{s}", "mover": mover, "actions": acts})
    return model_from_json({"format": "exactplay-model", "version": 1, "players": players, "objective": objective,
                            "states": states})


@settings(max_examples=300, deadline=None, database=None, derandomize=True,
          suppress_health_check=[HealthCheck.too_slow])
@given(cyclic_models(), st.booleans())
def test_lazy_engine_equals_eager_on_random_cyclic_models_with_near_and_exact_ties(model, margins_first):
    assert_lazy_is_eager(model, margins_first)


def test_lazy_engine_equals_eager_on_hold_and_leaves_most_numbers_pending():
    model = build_model(MODELS["hold"](target=14, faces=6))
    sol = solve_model(model)
    assert sol.values.pending_count() > len(model) // 2  # exact only at the turn starts (and exact points)
    assert sol.margins.pending_count() > len(sol.margins) // 2
    assert_lazy_is_eager(model)


def test_lazy_engine_equals_eager_with_rewards_and_several_payoff_components():
    model = build_model(MODELS["chefs"](n=5))
    assert_lazy_is_eager(model)


def test_lazy_engine_equals_eager_on_pig_where_player_1s_values_are_k_minus_player_0s():
    import importlib.util

    spec = importlib.util.spec_from_file_location("pig_example", Path(__file__).resolve().parent.parent / "examples" / "pig.py")
    pig = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(pig)
    model = build_model(pig.make_game(goal=12))
    sol = solve_model(model)
    assert isinstance(sol.values, MappedValues)  # the constant-sum second component, mapped on first read
    assert sol.values.pending_count() > 0
    assert_lazy_is_eager(model)


# ---------------------------------------------------------------- the containers


class Double(Unit):
    runs = 0

    def __init__(self, values, margins):
        self.values, self.margins = values, margins

    def compute(self):
        Double.runs += 1
        list.__setitem__(self.values, 1, 2 * self.values[0])
        dict.__setitem__(self.margins, 7, mpq(1, 3))


def lazy_pair():
    values, margins = LazyValues([21, None, 5]), LazyDict({3: mpq(1, 2)})
    u = Double(values, margins)
    values[1] = Pending(u)
    margins[7] = Pending(u)
    return values, margins


def test_lazy_values_read_like_the_plain_list_and_compute_once():
    Double.runs = 0
    values, margins = lazy_pair()
    assert values.pending_count() == 1 and margins.pending_count() == 1
    assert values[0] == 21 and Double.runs == 0  # an exact slot does not run the unit
    assert values[1] == 42 and Double.runs == 1
    assert margins[7] == mpq(1, 3) and Double.runs == 1  # one unit fills every slot it owns
    assert list(values) == [21, 42, 5] and values == [21, 42, 5] and values[1:] == [42, 5]
    assert len(values) == 3 and 42 in values and values.index(5) == 2 and sum(values) == 68


def test_lazy_dict_reads_like_the_plain_dict_through_every_path():
    for read in (lambda m: dict(m), lambda m: {**m}, lambda m: dict(m.items()), lambda m: m.copy(),
                 lambda m: {k: m[k] for k in m}, lambda m: {k: m.get(k) for k in m}):
        _, margins = lazy_pair()
        assert read(margins) == {3: mpq(1, 2), 7: mpq(1, 3)}
    _, margins = lazy_pair()
    assert sorted(margins.values()) == [mpq(1, 3), mpq(1, 2)] and len(margins) == 2 and 7 in margins
    _, margins = lazy_pair()
    assert margins == {3: mpq(1, 2), 7: mpq(1, 3)}
    d = LazyDict({1: 2})
    d[3] = Pending(Const(d, 3, 4))
    assert json.loads(json.dumps(d)) == {"1": 2, "3": 4}


class Const(Unit):
    def __init__(self, d, k, v):
        self.d, self.k, self.v = d, k, v

    def compute(self):
        dict.__setitem__(self.d, self.k, self.v)


def test_lazy_containers_pickle_as_plain_containers():
    values, margins = lazy_pair()
    assert pickle.loads(pickle.dumps(values)) == [21, 42, 5]
    assert type(pickle.loads(pickle.dumps(margins))) is dict
    assert pickle.loads(pickle.dumps(margins)) == {3: mpq(1, 2), 7: mpq(1, 3)}


def test_mapped_values_map_on_first_read():
    values, _ = lazy_pair()
    second = MappedValues(values, lambda v: (v, 100 - v))
    assert values.pending_count() == 1 and second.pending_count() == 3
    assert second[1] == (42, 58) and values.pending_count() == 0
    assert list(second) == [(21, 79), (42, 58), (5, 95)]


def test_a_unit_runs_after_the_units_it_reads():
    order = []

    class Step(Unit):
        def __init__(self, name, deps):
            self.name, self.deps = name, deps

        @property
        def depends(self):
            return self.deps

        def compute(self):
            assert all(d.done for d in self.deps)
            order.append(self.name)

    chain = Step("a", ())
    for k in range(5000):  # a long chain: no recursion
        chain = Step(k, (chain,))
    values = LazyValues([Pending(chain)])
    with pytest.raises(RuntimeError):
        values[0]  # the unit does not fill its slot: a Pending read is an error, not a silent value
    assert order[0] == "a" and order[-1] == 4999


def test_self_loop_margins_are_pending_until_read_and_equal_the_eager_ones():
    model = build_model(MODELS["race"](target=12))
    sol = solve_model(model)
    assert sol.margins.pending_count() > 0 and sol.q.pending_count() > 0
    assert_lazy_is_eager(model)
    assert_lazy_is_eager(model, read_margins_first=True)
