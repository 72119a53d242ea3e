"""The self-loop closed form (each action's sum once, balls first) gives exactly what the general
cyclic path gives when every self-loop passes through an extra chance state ("echo", back with
probability 1): values, policy, margins and ties of the original states; and the same with the
ball filter off (every action exact)."""

from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from exactplay.engine import solve_model
from exactplay.model import model_from_json


@st.composite
def self_loop_games(draw):
    """A chain of choice states, each action: stay with some probability, else terminal or a later
    state; payoffs that tie exactly or differ in the 30th digit; 1 player (max or min) or 2 zero-sum."""
    players = draw(st.sampled_from([1, 2]))
    n = draw(st.integers(1, 4))
    eps = Fraction(1, 10**30)
    base = draw(st.sampled_from([Fraction(1, 3), Fraction(1, 10**200), Fraction(2, 3)]))
    pays = [base + k * eps * draw(st.integers(0, 2)) for k in range(4)]
    terms = [{"id": f"t{k}", "payoff": [str(p), str(1 - p)] if players == 2 else [str(p)]} for k, p in enumerate(pays)]
    states = []
    for i in range(n):
        acts = []
        for a in range(draw(st.integers(2, 6))):
            stay = draw(st.sampled_from([Fraction(0), Fraction(1, 2), Fraction(1, 3), Fraction(7, 8), Fraction(1)]))
            nxt = [] if stay == 0 else [[str(stay), "SELF"]]
            rest = 1 - stay
            if rest:
                t = draw(st.integers(0, 3))
                if i + 1 < n and draw(st.booleans()):
                    nxt += [[str(rest / 2), f"t{t}"], [str(rest / 2), f"c{i + 1}"]]
                else:
                    nxt.append([str(rest), f"t{t}"])
            acts.append({"name": f"a{a}", "next": nxt})
        states.append({"id": f"c{i}", "mover": i % players, "actions": acts})
    objective = "zero-sum" if players == 2 else draw(st.sampled_from(["max", "min"]))
    return players, objective, states, terms


def as_model(players, objective, states, terms, echo: bool):
    out = []
    for st_ in states:
        me = st_["id"]
        back = f"e{me}" if echo else me
        acts = [{"name": a["name"], "next": [[p, back if t == "SELF" else t] for p, t in a["next"]]}
                for a in st_["actions"]]
        out.append({"id": me, "mover": st_["mover"], "actions": acts})
        if echo:
            out.append({"id": f"e{me}", "mover": None, "next": [[1, me]]})
    return model_from_json({"format": "exactplay-model", "version": 1, "players": players,
                            "objective": objective, "states": out + terms})


@settings(max_examples=25, deadline=None)
@given(self_loop_games())
def test_self_loop_closed_form_equals_the_two_state_cycle_and_the_all_exact_path(game):
    loop = as_model(*game, echo=False)
    try:
        a = solve_model(loop)
    except Exception as exc:  # a looping action that collects nothing is fine; anything refused must be refused alike
        try:
            solve_model(as_model(*game, echo=True))
        except Exception as exc2:
            assert type(exc) is type(exc2)
            return
        raise
    b = solve_model(as_model(*game, echo=True))
    exact = solve_model(loop, filter=False)
    assert (a.values, a.policy, a.margins, a.ties, a.ranks) == (exact.values, exact.policy, exact.margins,
                                                                exact.ties, exact.ranks)
    ids = {loop.states[s]: s for s in range(len(loop))}
    for name, s in ids.items():
        t = b.model.states.index(name)
        assert a.values[s] == b.values[t], name
        assert a.policy[s] == b.policy[t], name
        assert a.margins.get(s) == b.margins.get(t), name
        assert a.ties.get(s) == b.ties.get(t), name


@pytest.mark.slow
@settings(max_examples=60, deadline=None)
@given(self_loop_games())
def test_self_loop_closed_form_equals_the_two_state_cycle_and_the_all_exact_path_many_examples(game):
    """The same property on 60 examples (25 in the default suite since 2026-12-04)."""
    test_self_loop_closed_form_equals_the_two_state_cycle_and_the_all_exact_path.hypothesis.inner_test(game=game)
