"""The engine's end-component checks (issue 26): :func:`exactplay.engine.structure.staying_core` against
the reference :func:`exactplay.graph.has_end_component` on random components, and the shortcut of a
model that has answered "no end component" already (``R``'s mapping of a DRN file asks): the engine then
makes no pass over any component (and reuses the components the mapping computed to answer it), and its
values are those of the same model solved without the answer.
Also :func:`~exactplay.engine.structure.self_loops` (one look at a state's transitions) against every action."""

from __future__ import annotations

import random
from fractions import Fraction

import pytest

import exactplay.engine.structure as structure
from exactplay.engine import solve_model
from exactplay.engine.scc import components
from exactplay.engine.structure import Structure, self_loops, staying_core
from exactplay.graph import has_end_component
from exactplay.interop.drn import drn_to_model, parse_drn
from exactplay.model import ModelError
from exactplay.model.sparse import Sparse


def _random_sparse(rng: random.Random, n: int) -> Sparse:
    first, start, succ, pk = [0], [0], [], []
    for _ in range(n):
        for _ in range(rng.randint(1, 3)):
            ts = rng.sample(range(n), rng.randint(1, min(3, n)))
            succ.extend(ts)
            pk.extend([0] * len(ts))
            start.append(len(succ))
        first.append(len(start) - 1)
    return Sparse(n, 1, first, start, succ, pk, [Fraction(1)], [0] * n, [-1] * n, [], [-1] * (len(start) - 1), [])


@pytest.mark.parametrize("seed", range(60))
def test_staying_core_agrees_with_the_reference_on_random_components(seed):
    rng = random.Random(seed)
    sp = _random_sparse(rng, rng.randint(2, 14))
    comps, _ = components(sp.n, sp.first, sp.start, sp.succ)

    def action_succ(s):
        return [set(sp.succ[sp.start[a]:sp.start[a + 1]]) for a in range(sp.first[s], sp.first[s + 1])]

    for comp in comps + [list(range(sp.n))]:  # (also a set that is no component: the check is the same)
        inside = set(comp)
        assert staying_core(sp, comp, inside) == has_end_component(comp, action_succ), (seed, comp)


def test_staying_core_stops_when_the_last_state_that_could_stay_drops():
    # 0 -> 1, 1 -> {0, 2}, 2 -> 0: the three states are an end component; without 2, state 1 leaves
    sp = Sparse(3, 1, [0, 1, 2, 3], [0, 1, 3, 4], [1, 0, 2, 0], [0] * 4, [Fraction(1)], [0] * 3, [-1] * 3, [],
                [-1] * 3, [])
    assert staying_core(sp, [0, 1, 2], {0, 1, 2})
    assert not staying_core(sp, [0, 1], {0, 1})
    assert not staying_core(sp, [1, 2], {1, 2})


HEAD = "@type: MDP\n@parameters\n\n@reward_models\nr\n@nr_states\n{n}\n@nr_choices\n{c}\n@model\n"
# 0 and 1 move between each other (either can leave to the goal 2); no end component unless "stay" exists
NO_EC = ("state 0 [1] init\n\taction a\n\t\t1 : 1/2\n\t\t2 : 1/2\n\taction b\n\t\t1 : 1\n"
         "state 1 [2]\n\taction a\n\t\t0 : 1/3\n\t\t2 : 2/3\n"
         "state 2 [0] xgoal\n\taction a\n\t\t2 : 1\n")
WITH_EC = NO_EC.replace(
    "\t\t0 : 1/3\n\t\t2 : 2/3\n", "\t\t0 : 1/3\n\t\t2 : 2/3\n\taction stay\n\t\t0 : 1\n")


def _drn_model(body: str, choices: int, objective: str):
    return drn_to_model(parse_drn(HEAD.format(n=3, c=choices) + body), objective, "xgoal", reward="r")[0]


@pytest.mark.parametrize("objective", ["Rmin", "Rmax"])
def test_a_reward_model_known_without_end_component_makes_no_pass_and_keeps_its_values(objective, monkeypatch):
    model = _drn_model(NO_EC, 4, objective)
    assert model.known_end_component() is False  # (R's mapping asked)
    reference = solve_model(model.plain())  # the same model as lists: the engine checks each component
    calls = []
    monkeypatch.setattr(structure, "staying_core", lambda *a: calls.append(a) or staying_core(*a))
    st = Structure(model, model.sparse)
    assert calls == [] and st.ec == [False] * len(st.comps)
    sol = solve_model(model)
    assert calls == []
    assert sol.values == reference.values and sol.policy == reference.policy
    assert sol.values[0] == (Fraction(12, 5) if objective == "Rmin" else Fraction(9, 2),)


def test_a_reward_model_with_an_end_component_is_still_checked():
    model = _drn_model(WITH_EC, 5, "Rmin")
    assert model.known_end_component() is True and model.never_ending == "infinite"
    with pytest.raises(ModelError, match="infinity"):  # the engine finds the end component itself
        Structure(model, model.sparse)
    assert solve_model(model).values[0] == (Fraction(12, 5),)  # (the proper solver: staying is worth +infinity)
    # an array model whose question was not asked (a P objective) checks its components itself
    p = drn_to_model(parse_drn(HEAD.format(n=3, c=5) + WITH_EC), "Pmax", "xgoal")[0]
    assert p.known_end_component() is None
    assert any(Structure(p, p.sparse).ec)


@pytest.mark.parametrize("seed", range(30))
def test_self_loops_agree_with_a_look_at_every_action(seed):
    rng = random.Random(seed)
    sp = _random_sparse(rng, rng.randint(1, 10))
    if seed % 3 == 0:  # (some states made terminal: no choice at all)
        keep = [s for s in range(sp.n) if rng.random() < 0.6]
        first, start, succ = [0], [0], []
        for s in range(sp.n):
            if s in keep:
                for a in range(sp.first[s], sp.first[s + 1]):
                    succ.extend(sp.succ[sp.start[a]:sp.start[a + 1]])
                    start.append(len(succ))
            first.append(len(start) - 1)
        sp = Sparse(sp.n, 1, first, start, succ, [0] * len(succ), [Fraction(1)], [0] * sp.n, [-1] * sp.n, [],
                    [-1] * (len(start) - 1), [])
    acts = [[sp.succ[sp.start[a]:sp.start[a + 1]] for a in range(sp.first[s], sp.first[s + 1])] for s in range(sp.n)]
    loops, sure = self_loops(sp)
    assert list(loops) == [int(any(s in ts for ts in acts[s])) for s in range(sp.n)]
    assert list(sure) == [int(any(ts == [s] for ts in acts[s])) for s in range(sp.n)]


@pytest.mark.parametrize("seed", range(40))
def test_the_attractor_among_the_cyclic_states_gives_the_whole_models_answer(seed):
    rng = random.Random(100 + seed)
    sp = _random_sparse(rng, rng.randint(1, 12))
    comps, _ = components(sp.n, sp.first, sp.start, sp.succ)
    _, sure = self_loops(sp)
    cyclic = [s for comp in comps if len(comp) > 1 for s in comp]
    assert (any(sure) or sp.has_end_component(cyclic)) == sp.has_end_component(), seed
    assert sp.has_end_component(cyclic) == any(staying_core(sp, c, set(c)) for c in comps if len(c) > 1), seed


def test_r_mappings_components_are_handed_to_the_engine_once():
    model = _drn_model(NO_EC, 4, "Rmin")
    first = Structure(model, model.sparse)  # the components R's mapping computed
    assert model.take_components() is None  # (handed over: the next solve computes its own)
    again = Structure(model, model.sparse)
    assert (first.comps, first.comp_of, list(first.loops), first.ec) == (again.comps, again.comp_of,
                                                                          list(again.loops), again.ec)
    assert solve_model(model).values[0] == (Fraction(12, 5),)
