"""The fast model build (``build_model``, :mod:`exactplay.model.exact_enumeration`) makes exactly the
model the careful builder makes (``build_model_careful``: the generic enumeration with the careful
reader, the builder before the fast path), field by field and type by type, and refuses every
ill-formed game with the careful builder's own message."""

from __future__ import annotations

import dataclasses
import random
from fractions import Fraction
from pathlib import Path

import gmpy2
import pytest
from hypothesis import given, settings, strategies as st

from exactplay.games import MODELS
from exactplay.model import Model, ModelError, build_model, load_factory
from exactplay.model.build import build_model_careful

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"


def assert_same_model(a: Model, b: Model) -> None:
    """Every field equal, and every number of the same type (a Fraction stays a Fraction)."""
    for f in dataclasses.fields(Model):
        x, y = getattr(a, f.name), getattr(b, f.name)
        assert x == y, f.name
        assert type(x) is type(y), f.name
    for s in range(len(a)):
        assert [type(x) for x in a.actions[s]] == [type(x) for x in b.actions[s]], s
        for vec_a, vec_b in [(a.terminal[s], b.terminal[s]), *zip(a.rewards[s], b.rewards[s])]:
            assert (vec_a is None) == (vec_b is None), s
            if vec_a is not None:
                assert [type(x) for x in vec_a] == [type(x) for x in vec_b] == [Fraction] * len(vec_a), s
        for da, db in zip(a.trans[s], b.trans[s]):
            assert type(da) is type(db) is tuple
            assert [(type(t), type(p)) for t, p in da] == [(type(t), type(p)) for t, p in db], s


def example(name: str, **params):
    return lambda: load_factory(f"{EXAMPLES / name}:make_game")(**params)


GAMES = {
    "race 6": lambda: MODELS["race"](target=6),
    "race 5 unmerged": lambda: MODELS["race"](target=5, merged=False),
    "race 5 biased coin of player 2": lambda: MODELS["race"](target=5, p=Fraction(2, 3), coin="2"),
    "hold 8/2": lambda: MODELS["hold"](target=8, faces=2),
    "hold 10/6": lambda: MODELS["hold"](target=10, faces=6),
    "chefs 4": lambda: MODELS["chefs"](n=4),
    "chefs 4 choose then attempt": lambda: MODELS["chefs"](n=4, split=False),
    "chefs 1/4,1/2,1": lambda: MODELS["chefs"](skills="1/4,1/2,1"),
    "coins with fractions": lambda: MODELS["coins"](coins=(Fraction(1, 10), 2, Fraction(3, 7), 4, 5)),
    "war 4x2": lambda: MODELS["war"](ranks=4, suits=2),
    "war 5x2 abstract": lambda: MODELS["war"](ranks=5, suits=2, abstract=True),
    "pig 10": example("pig.py", goal=10),
    "piglet 6": example("piglet.py", goal=6),
    "loaded pig 8": example("pig_loaded.py", goal=8),
    "pass forever": example("pass_forever.py", p=Fraction(1, 3), q=Fraction(1, 4)),
}


@pytest.mark.parametrize("name", GAMES)
def test_the_fast_build_equals_the_careful_build_on_every_game(name):
    assert_same_model(build_model(GAMES[name]()), build_model_careful(GAMES[name]()))


class MixedKinds:
    """Every kind of exact number a game may give, duplicate and zero outcomes, actions a model file
    stores as text, plain-int and Fraction rewards (an all-zero one), a bare-number payoff."""

    num_players = 2

    def initial_state(self):
        return ("start", 0)

    def is_terminal(self, s):
        return s[0] == "end"

    def payoff(self, s):
        return [Fraction(s[1], 3), gmpy2.mpq(1, 2)] if s[1] else (1, 0)

    def mover(self, s):
        return None if s[1] % 3 == 2 else s[1] % 2

    def actions(self, s):
        return [("go", 1), ("go", 2)] if s[1] % 2 else ["left", 7]

    def transitions(self, s, a):
        k = s[1]
        if k >= 5:
            return [(1, ("end", k % 3)), (0, ("never", k))]
        kinds = [
            [(Fraction(1, 2), ("start", k + 1)), ("1/4", ("start", k + 2)), (gmpy2.mpq(1, 4), ("start", k + 1))],
            [(Fraction(1, 3), ("start", k + 1)), (Fraction(1, 6), ("start", k + 1)), (Fraction(1, 2), ("end", 1))],
            [(1, ("start", k + 2)), (Fraction(0), ("start", 99))],
            [(Fraction(2, 5), ("end", 0)), (Fraction(1, 3), ("start", k + 1)), (Fraction(4, 15), ("end", 0))],
        ]
        return kinds[(k + len(repr(a))) % len(kinds)]

    def reward(self, s, a):
        return [(0, 0), (1, -1), (Fraction(1, 7), 0), None][s[1] % 4]


def test_mixed_kinds_of_numbers_and_actions_build_the_same_model():
    assert_same_model(build_model(MixedKinds()), build_model_careful(MixedKinds()))


class RandomGame:
    """A random finite game drawn from ``seed``: mixed number kinds, duplicates, zeros, rewards."""

    def __init__(self, seed: int):
        rng = random.Random(seed)
        self.num_players = rng.randint(1, 3)
        n = rng.randint(1, 12)
        self.table = {}
        for s in range(n):
            if rng.random() < 0.2 or s == n - 1:
                self.table[s] = ("T", tuple(rng.randint(-2, 2) for _ in range(self.num_players)))
                continue
            mover = rng.choice([None] + list(range(self.num_players)))
            acts = [None] if mover is None else rng.sample(["a", "b", 3, (1, 2), "c"], rng.randint(1, 3))
            dists, rewards = {}, {}
            for a in acts:
                den = rng.choice([1, 2, 3, 4, 6, 12])
                cuts = sorted(rng.randint(0, den) for _ in range(rng.randint(0, 3)))
                weights = [y - x for x, y in zip([0] + cuts, cuts + [den])]
                kinds = [lambda w, d: Fraction(w, d), lambda w, d: f"{w}/{d}", lambda w, d: gmpy2.mpq(w, d),
                         lambda w, d: w // d if w % d == 0 else Fraction(w, d)]
                dists[a] = [(rng.choice(kinds)(w, den), rng.randrange(n)) for w in weights]
                if rng.random() < 0.04:  # a defect: a float, a wrong sum, a negative, a malformed pair
                    dists[a][-1] = rng.choice([(0.5, 0), (Fraction(1, 7), 0), (-1, 0), (Fraction(1, 2),)])
                rewards[a] = rng.choice([None, (0,) * self.num_players, tuple(range(self.num_players)),
                                         tuple(Fraction(1, i + 2) for i in range(self.num_players))])
            self.table[s] = (mover, acts, dists, rewards)

    def initial_state(self):
        return 0

    def is_terminal(self, s):
        return self.table[s][0] == "T"

    def payoff(self, s):
        return self.table[s][1]

    def mover(self, s):
        return self.table[s][0]

    def actions(self, s):
        return list(self.table[s][1])

    def transitions(self, s, a):
        return list(self.table[s][2][a])

    def reward(self, s, a):
        return self.table[s][3][a]


def outcome(build, game):
    try:
        return build(game)
    except ModelError as exc:
        return str(exc)


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 2**32))
def test_random_games_build_the_same_model_or_the_same_refusal(seed):
    fast, careful = outcome(build_model, RandomGame(seed)), outcome(build_model_careful, RandomGame(seed))
    if isinstance(careful, str):
        assert fast == careful
    else:
        assert_same_model(fast, careful)


@pytest.mark.slow
@settings(max_examples=150, deadline=None)
@given(st.integers(0, 2**32))
def test_random_games_build_the_same_model_or_the_same_refusal_many_examples(seed):
    """The same property on 150 examples (60 in the default suite since 2026-12-04)."""
    test_random_games_build_the_same_model_or_the_same_refusal.hypothesis.inner_test(seed=seed)


class _Broken:
    """A one-player game with one defect, given by the overrides."""

    num_players = 1

    def __init__(self, **overrides):
        self.__dict__.update(overrides)

    def initial_state(self):
        return 0

    def is_terminal(self, s):
        return s == "end"

    def payoff(self, s):
        return (1,)

    def mover(self, s):
        return 0 if s == 0 else None

    def actions(self, s):
        return ["x", "y"]

    def transitions(self, s, a):
        return [(Fraction(1, 2), "end"), (Fraction(1, 2), s + 1 if s < 3 else "end")]


BROKEN = {
    "float": dict(transitions=lambda s, a: [(0.5, "end"), (Fraction(1, 2), "end")]),
    "float after a new state": dict(transitions=lambda s, a: [(Fraction(1, 2), (s, a)), (0.5, "end")]),
    "decimal string": dict(transitions=lambda s, a: [("0.5", "end"), ("1/2", "end")]),
    "bool": dict(transitions=lambda s, a: [(True, "end")]),
    "sum 5/6": dict(transitions=lambda s, a: [(Fraction(1, 2), "end"), (Fraction(1, 3), "end")]),
    "sum 2": dict(transitions=lambda s, a: [(1, "end"), (1, "end")]),
    "int 2": dict(transitions=lambda s, a: [(2, "end"), (-1, "end")]),
    "negative": dict(transitions=lambda s, a: [(Fraction(-1, 3), "end"), (Fraction(4, 3), "end")]),
    "not a pair": dict(transitions=lambda s, a: [(Fraction(1, 2), "end", 0), (Fraction(1, 2), "end")]),
    "not iterable": dict(transitions=lambda s, a: [Fraction(1)]),
    "unhashable state": dict(transitions=lambda s, a: [(1, ["end"])]),
    "game raises": dict(transitions=lambda s, a: [(Fraction(1), s + 1)] if s != 1 else 1 / 0),
    "no action": dict(actions=lambda s: []),
    "same actions": dict(actions=lambda s: ["x", "x"]),
    "actions clash as text": dict(actions=lambda s: [1.5, "1.5"]),
    "bad mover": dict(mover=lambda s: True),
    "negative mover": dict(mover=lambda s: -1),
    "mover beyond the players": dict(mover=lambda s: 3 if s == 0 else None),
    "float payoff": dict(payoff=lambda s: (0.5,)),
    "payoff length": dict(payoff=lambda s: (1, 0)),
    "float reward": dict(reward=lambda s, a: (0.25,)),
    "reward length": dict(reward=lambda s, a: (1, 1)),
    "never ends": dict(num_players=None, is_terminal=lambda s: False, transitions=lambda s, a: [(1, 0)]),
    "player names": dict(player_names=["a", "b"]),
    "objective": dict(objective="maybe"),
    "unhashable start": dict(initial_state=lambda: [0]),
    "labels fail": dict(state_label=lambda s: 1 / 0),
}


@pytest.mark.parametrize("name", BROKEN)
def test_an_ill_formed_game_is_refused_with_the_careful_builders_message(name):
    with pytest.raises(ModelError) as careful:
        build_model_careful(_Broken(**BROKEN[name]))
    with pytest.raises(ModelError) as fast:
        build_model(_Broken(**BROKEN[name]))
    assert str(fast.value) == str(careful.value)


@pytest.mark.parametrize("limit", [1, 2, 3, 4, 5])
def test_the_state_limit_is_the_careful_builders(limit):
    fast = outcome(lambda g: build_model(g, limit), _Broken())
    careful = outcome(lambda g: build_model_careful(g, limit), _Broken())
    if isinstance(careful, str):
        assert fast == careful and "reachable states" in careful
    else:
        assert_same_model(fast, careful)


def test_the_garbage_collector_thresholds_are_restored_after_builds_in_several_threads():
    import gc
    import threading

    before = gc.get_threshold()
    seen = []

    class Watched(_Broken):
        def transitions(self, s, a):
            seen.append(gc.get_threshold()[0])
            return super().transitions(s, a)

    build_model(Watched())
    assert seen and set(seen) == {max(before[0], 100_000)} and gc.get_threshold() == before
    outcome(build_model, _Broken(**BROKEN["game raises"]))
    assert gc.get_threshold() == before
    threads = [threading.Thread(target=build_model, args=(GAMES[name](),)) for name in ("pig 10", "hold 10/6") * 3]
    for th in threads:
        th.start()
    for th in threads:
        th.join()
    assert gc.get_threshold() == before


@pytest.mark.parametrize("face", ["1/6", gmpy2.mpq(1, 6), " 2/12"])
def test_pig_with_mpq_or_string_probabilities_builds_the_same_model(face):
    def game():
        g = GAMES["pig 10"]()
        g.face = face  # every roll's probabilities given as this kind
        return g

    fast = build_model(game())
    assert_same_model(fast, build_model_careful(game()))
    assert_same_model(fast, build_model(GAMES["pig 10"]()))


@pytest.mark.parametrize("objective,players", [("auto", 1), ("auto", 2), ("auto", 3), ("max", 2), ("max", 3),
                                               ("zero-sum", 2), ("min", 1)])
def test_validate_refuses_exactly_the_movers_beyond_the_objectives_keys(objective, players):
    """validate() counts the keys without resolving ``auto`` (no end-component search); the count is
    ``len(keys())`` whatever ``auto`` resolves to."""
    def model(m):
        pay = tuple(Fraction(int(i == 0)) for i in range(players))
        return Model("m", players, [f"p{i}" for i in range(players)], objective, ["s", "end"],
                     [None, pay], [m, None], [["a"], []], [[((1, Fraction(1)),)], []], [[None], []])

    n_keys = len(model(0).keys())
    model(n_keys - 1).validate()
    with pytest.raises(ModelError, match=f"mover {n_keys} is not a player"):
        model(n_keys).validate()


class PigAsBefore:
    """``examples/pig.py`` as it was written before it was made cheaper to read (the player's view
    ``(mine, theirs)``, a new ``Fraction(1, faces)`` at every roll): the same rules."""

    num_players = 2
    player_names = ["first player", "second player"]

    def __init__(self, goal: int, faces: int = 6):
        self.goal, self.faces = goal, faces
        self.name = f"Pig to {goal}" + ("" if faces == 6 else f" with a {faces}-sided die")

    def initial_state(self):
        return (0, 0, 0, 0)

    def is_terminal(self, s):
        return s[0] == "won"

    def payoff(self, s):
        return (1, 0) if s[1] == 0 else (0, 1)

    def mover(self, s):
        return s[0]

    def actions(self, s):
        return ["roll", "hold"] if self._view(s)[3] > 0 else ["roll"]

    def _view(self, s):
        player, a, b, turn = s
        return (player, a, b, turn) if player == 0 else (player, b, a, turn)

    def _state(self, player, mine, theirs, turn):
        return (player, mine, theirs, turn) if player == 0 else (player, theirs, mine, turn)

    def transitions(self, s, action):
        player, mine, theirs, turn = self._view(s)
        other = 1 - player
        p = Fraction(1, self.faces)
        if action == "hold":
            return [(1, self._state(other, theirs, mine + turn, 0))]
        out = [(p, self._state(other, theirs, mine, 0))]
        for face in range(2, self.faces + 1):
            if mine + turn + face >= self.goal:
                out.append((p, ("won", player)))
            else:
                out.append((p, self._state(player, mine, theirs, turn + face)))
        return out

    def state_label(self, s):
        if s[0] == "won":
            return f"player {s[1]} won"
        return f"(to move {s[0]}, scores {s[1]}-{s[2]}, turn {s[3]})"


@pytest.mark.parametrize("goal,faces", [(12, 6), (9, 3)])
def test_the_pig_example_builds_the_model_it_built_before(goal, faces):
    assert_same_model(build_model(example("pig.py", goal=goal, faces=faces)()),
                      build_model_careful(PigAsBefore(goal, faces)))


def _every_play_ends_by_end_components(model: Model) -> bool:
    """The definition the attractor replaces: no state can reach an end component."""
    return len(model.surely_ending(model.end_component_states() or None)) == len(model)


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 2**32))
def test_has_end_component_agrees_with_the_end_components_on_random_games(seed):
    model = outcome(build_model, RandomGame(seed))
    if isinstance(model, str):
        return
    assert model.has_end_component() == bool(model.end_component_states())
    fresh = build_model(RandomGame(seed))
    assert fresh.every_play_ends() == _every_play_ends_by_end_components(model)
    assert fresh.surely_ending() == model.surely_ending()


@pytest.mark.slow
@settings(max_examples=150, deadline=None)
@given(st.integers(0, 2**32))
def test_has_end_component_agrees_with_the_end_components_on_random_games_many_examples(seed):
    """The same property on 150 examples (60 in the default suite since 2026-12-04)."""
    test_has_end_component_agrees_with_the_end_components_on_random_games.hypothesis.inner_test(seed=seed)


@pytest.mark.parametrize("name,ends", [("pig 10", True), ("hold 8/2", False), ("pass forever", False),
                                       ("race 5 unmerged", True), ("chefs 4 choose then attempt", True)])
def test_has_end_component_on_the_games(name, ends):
    model = build_model(GAMES[name]())
    assert model.has_end_component() == bool(model.end_component_states()) == (not ends)
    assert build_model(GAMES[name]()).every_play_ends() == ends == _every_play_ends_by_end_components(model)
