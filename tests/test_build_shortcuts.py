"""The model build's shortcuts change nothing: ``Model.validate(distributions=False)`` decides
exactly as its state by state checks (its whole-list pre-check ``_plainly_valid`` only lets a model
through that those checks pass), and a tuple of actions a game returns again is read as a fresh
list would be (the careful builder's model, whatever the game does with the object)."""

from __future__ import annotations

import random
from fractions import Fraction

import pytest
from hypothesis import given, settings, strategies as st

from exactplay.model import Model, ModelError, build_model
from exactplay.model.build import build_model_careful
from test_exact_enumeration import GAMES, assert_same_model

F1 = Fraction(1)


def random_model(seed: int) -> Model:
    """A small model with, now and then, a defect validate() refuses: a payoff or reward of the wrong
    length, a mover beyond the objective's keys, a state with no action, fewer rewards than actions,
    an unhashable mover, a terminal state with a junk mover."""
    rng = random.Random(seed)
    players = rng.randint(1, 3)
    objective = rng.choice(["auto", "max", "zero-sum", "min"])
    n = rng.randint(1, 6)
    terminal, mover, actions, trans, rewards = [], [], [], [], []
    for s in range(n):
        if s == n - 1 or rng.random() < 0.3:
            width = players if rng.random() > 0.08 else players + 1
            terminal.append(tuple(Fraction(rng.randint(0, 2)) for _ in range(width)))
            mover.append(None if rng.random() > 0.1 else rng.choice([7, "x"]))
            actions.append([])
            trans.append([])
            rewards.append([])
            continue
        terminal.append(None)
        k = 0 if rng.random() < 0.05 else rng.randint(1, 3)
        mover.append(rng.choice([None, 0, 0, 1, 2, 3, -1, [0]]))
        actions.append(list(range(k)))
        trans.append([((rng.randrange(n), F1),) for _ in range(k)])
        rew = [rng.choice([None, (F1,) * players, (F1,) * (players + 1)]) if rng.random() < 0.5 else None
               for _ in range(k)]
        rewards.append(rew[:-1] if k and rng.random() < 0.05 else rew)
    return Model("m", players, [f"p{i}" for i in range(players)], objective, [f"s{i}" for i in range(n)],
                 terminal, mover, actions, trans, rewards)


def validated(model: Model) -> str:
    try:
        model.validate(distributions=False)
    except Exception as exc:  # a ModelError, or what the checks raise on junk (the same either way)
        return f"{type(exc).__name__}: {exc}"
    return "valid"


@settings(max_examples=100, deadline=None)
@given(st.integers(0, 2**32))
def test_validate_without_distributions_decides_as_its_state_by_state_checks(seed):
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(Model, "_plainly_valid", lambda self, n_keys, widths_read=False: False)  # the checks alone
        reference = validated(random_model(seed))
    assert validated(random_model(seed)) == reference


@pytest.mark.slow
@settings(max_examples=300, deadline=None)
@given(st.integers(0, 2**32))
def test_validate_without_distributions_decides_as_its_state_by_state_checks_many_examples(seed):
    """The same property on 300 examples (100 in the default suite since 2026-12-04)."""
    test_validate_without_distributions_decides_as_its_state_by_state_checks.hypothesis.inner_test(seed=seed)


def test_the_pre_check_lets_a_valid_model_through_and_stops_each_defect():
    ok = Model("m", 2, ["a", "b"], "max", ["s", "end"], [None, (F1, F1)], [1, None], [["x"], []],
               [[((1, F1),)], []], [[(F1, F1)], []])
    assert ok._plainly_valid(2)
    for field, value in [("terminal", [None, (F1,)]), ("mover", [2, None]), ("trans", [[], []]),
                         ("rewards", [[(F1,)], []]), ("rewards", [[], []])]:
        bad = Model(**{**ok.__dict__, field: value})
        assert not bad._plainly_valid(2), field


@pytest.mark.parametrize("name", GAMES)
@pytest.mark.parametrize("mover", [None, 0, 1, 2, 3])
def test_a_built_models_movers_alone_decide_validate_as_its_checks(name, mover):
    """What ``widths_read`` skips holds on every built game (widths and rewards as the checks want);
    a mover beyond the keys (set here by hand) is refused with the checks' own message."""
    model = build_model(GAMES[name]())
    goes_on = [s for s in range(len(model)) if model.terminal[s] is None]
    model.mover[goes_on[0]] = mover
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(Model, "_plainly_valid", lambda self, n_keys, widths_read=False: False)
        reference = validated(model)
    try:
        model.validate(distributions=False, widths_read=True)
        assert reference == "valid"
    except ModelError as exc:
        assert reference == f"ModelError: {exc}"


class SameTuple:
    """A game whose players' actions are one tuple object returned again and again; with ``mutable``
    one list object, changed between calls (a reused buffer): each state's actions must be read anew."""

    num_players = 1

    def __init__(self, actions, mutable=False):
        self.acts = list(actions) if mutable else tuple(actions)
        self.mutable = mutable

    def initial_state(self):
        return 0

    def is_terminal(self, s):
        return s >= 4

    def payoff(self, s):
        return (s,)

    def mover(self, s):
        return 0

    def actions(self, s):
        if self.mutable:  # the same list, now holding other actions
            self.acts[:] = ["a", "b", "c"][: 1 + s % 3] if s != 3 else ["a", "a"]
        return self.acts

    def transitions(self, s, a):
        return [(Fraction(1, 2), s + 1), (Fraction(1, 2), s + 2)]


@pytest.mark.parametrize("actions,mutable", [(("a", "b"), False), ((1, "b", None), False), ((1, "1"), False),
                                             ((None, "None"), False), (("a", "a"), False), ((2, 1, 2), False),
                                             ((True, 1), False), ((1.5, "1.5"), False), (((1, 2), "b"), False),
                                             ((), False), ((), True)])
def test_actions_returned_again_as_the_same_object_build_the_careful_model(actions, mutable):
    fast, careful = [outcome(build, SameTuple(actions, mutable)) for build in (build_model, build_model_careful)]
    if isinstance(careful, str):
        assert fast == careful
    else:
        assert_same_model(fast, careful)


def outcome(build, game):
    try:
        return build(game)
    except ModelError as exc:
        return str(exc)
