"""The end-component refinement with an attractor step finds exactly the states the plain
refinement (drop one layer, re-split, repeat) finds, on random action graphs."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from exactplay.graph import end_component_states, has_end_component, staying_core, tarjan, tarjan_indexed


def layered_refinement(states, action_succ):
    """The former implementation: no attractor, one layer of states dropped per round."""
    current = set(states)
    block = {s: 0 for s in current}
    while current:
        kept = {}
        for s in current:
            acts = [succ for succ in action_succ(s) if all(block.get(t, -1) == block[s] for t in succ)]
            if acts:
                kept[s] = acts
        if not kept:
            return set()
        nodes = list(kept)
        order = {s: i for i, s in enumerate(nodes)}
        comps = tarjan([sorted({order[t] for succ in kept[s] for t in succ if t in order}) for s in nodes])
        survivors, new_block = set(), {}
        for k, comp in enumerate(comps):
            members = {nodes[i] for i in comp}
            if len(members) == 1:
                (s,) = members
                if not any(succ == {s} for succ in kept[s]):
                    continue
            survivors |= members
            for s in members:
                new_block[s] = k
        if survivors == current and len(set(new_block.values())) == len(set(block.values())):
            return current
        current, block = survivors, new_block
    return set()


@st.composite
def action_graphs(draw):
    n = draw(st.integers(1, 9))
    succ = {s: [set(draw(st.lists(st.integers(0, n + 1), min_size=1, max_size=3)))
                for _ in range(draw(st.integers(1, 3)))] for s in range(n)}
    subset = draw(st.lists(st.integers(0, n - 1), unique=True, min_size=1, max_size=n))
    return subset, succ


@settings(max_examples=40, deadline=None)
@given(action_graphs())
def test_attractor_refinement_finds_the_same_end_component_states(graph):
    subset, succ = graph
    assert end_component_states(subset, lambda s: succ[s]) == layered_refinement(subset, lambda s: succ[s])


@pytest.mark.slow
@settings(max_examples=100, deadline=None)
@given(action_graphs())
def test_attractor_refinement_finds_the_same_end_component_states_many_examples(graph):
    """The same property on 100 examples (40 in the default suite since 2026-12-04)."""
    test_attractor_refinement_finds_the_same_end_component_states.hypothesis.inner_test(graph=graph)


def _reach(sources, succ_of, within):
    out = set(sources)
    stack = list(out)
    while stack:
        for t in succ_of(stack.pop()):
            if t in within and t not in out:
                out.add(t)
                stack.append(t)
    return out


@settings(max_examples=80, deadline=None)
@given(action_graphs())
def test_staying_core_is_empty_exactly_without_end_component_and_holds_them_all(graph):
    """``staying_core`` (one worklist pass) against the refinement: non-empty exactly when there is an
    end component, contains every end component's state, and each of its states reaches one."""
    subset, succ = graph
    ends = end_component_states(subset, lambda s: succ[s])
    trans = {s: [tuple((t, 1) for t in a) for a in succ[s]] for s in succ}
    core = staying_core(subset, trans)
    assert bool(core) == bool(ends) == has_end_component(subset, lambda s: succ[s])
    assert ends <= core
    members = set(subset)
    for s in core:
        assert _reach([s], lambda u: [t for a in succ[u] for t in a], members) & ends


@pytest.mark.slow
@settings(max_examples=200, deadline=None)
@given(action_graphs())
def test_staying_core_is_empty_exactly_without_end_component_and_holds_them_all_many_examples(graph):
    """The same property on 200 examples (80 in the default suite since 2026-12-04)."""
    test_staying_core_is_empty_exactly_without_end_component_and_holds_them_all.hypothesis.inner_test(graph=graph)


@settings(max_examples=40, deadline=None)
@given(st.integers(1, 12).flatmap(lambda n: st.lists(st.lists(st.integers(0, n - 1), max_size=4), min_size=n, max_size=n)))
def test_tarjan_indexed_gives_each_node_its_component(adj):
    comps, comp_of = tarjan_indexed(adj)
    assert comps == tarjan(adj)
    assert all(v in comps[comp_of[v]] for v in range(len(adj)))


@pytest.mark.slow
@settings(max_examples=100, deadline=None)
@given(st.integers(1, 12).flatmap(lambda n: st.lists(st.lists(st.integers(0, n - 1), max_size=4), min_size=n, max_size=n)))
def test_tarjan_indexed_gives_each_node_its_component_many_examples(adj):
    """The same property on 100 examples (40 in the default suite since 2026-12-04)."""
    test_tarjan_indexed_gives_each_node_its_component.hypothesis.inner_test(adj=adj)
