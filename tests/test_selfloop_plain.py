"""The fused self-loop path (exactplay.engine.selfloop_plain) gives what the general path gives:
values, policy, ties, margins, action values, ranks and statistics, lazily and eagerly, on the Race
and on chains of self-loop states with exact ties, near ties, tiny stays and both players."""

import importlib
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from exactplay.engine import solve_model
from exactplay.games import MODELS
from exactplay.model import build_model, model_from_json

engine = importlib.import_module("exactplay.engine.solve")


def results(model, lazy: bool) -> tuple:
    sol = solve_model(model, lazy=lazy)
    return (list(sol.values), list(sol.policy), dict(sol.ties), dict(sol.margins),
            {s: list(q) for s, q in dict(sol.q).items()}, list(sol.ranks), sol.stats.to_dict())


def both_paths(model, monkeypatch, lazy: bool = True) -> int:
    """Assert the fused and the general path agree; return how many states the fused path solved."""
    taken = []
    fused = engine._Engine._plain_loop

    def counted(self, s):
        done = fused(self, s)
        taken.append(done)
        return done

    monkeypatch.setattr(engine._Engine, "_plain_loop", counted)
    a = results(model, lazy)
    monkeypatch.setattr(engine._Engine, "_plain_loop", lambda self, s: False)
    b = results(model, lazy)
    monkeypatch.undo()
    assert a == b
    return sum(taken)


@pytest.mark.parametrize("lazy", [True, False])
def test_the_race_is_solved_by_the_fused_path_as_by_the_general_one(monkeypatch, lazy):
    model = build_model(MODELS["race"](target=12))
    assert both_paths(model, monkeypatch, lazy) > 100


@st.composite
def chains(draw):
    """Choice states ``c0 .. c(n-1)``, each action: stay with some probability, else split between
    terminals and later states; payoffs equal, 1e-30 apart or far apart; one player or two (zero-sum)."""
    players = draw(st.integers(1, 2))
    n = draw(st.integers(2, 12))
    eps = Fraction(1, 10**30)
    pays = [draw(st.sampled_from([Fraction(1, 3), Fraction(1, 3) + eps, Fraction(2, 3), Fraction(0), Fraction(1)]))
            for _ in range(4)]
    terms = [{"id": f"t{k}", "payoff": [str(p), str(1 - p)] if players == 2 else [str(p)]} for k, p in enumerate(pays)]
    stays = [Fraction(0), Fraction(1, 2), Fraction(1, 3), Fraction(7, 8), Fraction(1, 4), Fraction(1, 2**1010)]
    states = []
    for i in range(n):
        acts = []
        for a in range(draw(st.integers(2, 6))):
            stay = draw(st.sampled_from(stays))
            nxt = [[str(stay), f"c{i}"]] if stay else []
            k = draw(st.integers(1, 3))
            for _ in range(k):
                later = i + 1 < n and draw(st.booleans())
                nxt.append([str((1 - stay) / k), f"c{draw(st.integers(i + 1, n - 1))}" if later else f"t{draw(st.integers(0, 3))}"])
            acts.append({"name": f"a{a}", "next": nxt})
        states.append({"id": f"c{i}", "mover": i % players, "actions": acts})
    objective = "zero-sum" if players == 2 else draw(st.sampled_from(["max", "min"]))
    return model_from_json({"format": "exactplay-model", "version": 1, "players": players,
                            "objective": objective, "states": states + terms})


@settings(max_examples=80, deadline=None)
@given(chains(), st.booleans())
def test_chains_of_self_loops_are_solved_by_the_fused_path_as_by_the_general_one(model, lazy):
    with pytest.MonkeyPatch.context() as monkeypatch:
        both_paths(model, monkeypatch, lazy)
