"""engine/ranks.py, engine/linear.py: the worklist ranks equal their level-by-level definition, the
depth-first feedback order leaves an acyclic graph with successors first, and the closed states are
those with no path out, on random graphs."""

from __future__ import annotations

from hypothesis import given, settings, strategies as st

from exactplay.engine.linear import _feedback_order, closed_states
from exactplay.engine.ranks import rank_component


@st.composite
def ranked_component(draw):
    """States 0..n-1 (unranked), outside states n..n+2 with a rank or none; per state 0-3 actions of
    1-3 distinct successors (pairs ``(t, p)``), some states relevant, some of those in ``every``."""
    n = draw(st.integers(1, 7))
    targets = st.integers(0, n + 2)
    relevant = {}
    for s in range(n):
        if draw(st.booleans()) or s == 0:
            relevant[s] = [[(t, 1) for t in draw(st.sets(targets, min_size=1, max_size=3))]
                           for _ in range(draw(st.integers(0, 3)))]
    every = {s for s in relevant if draw(st.booleans())}
    outside = [draw(st.one_of(st.none(), st.integers(0, 5))) for _ in range(3)]
    return list(range(n)), relevant, every, [None] * n + outside


def ranks_by_levels(states, relevant, every, ranks):
    """The definition: for r = 0, 1, 2, ... every unranked relevant state whose rule holds with the
    successors of rank <= r (all actions for ``every``, one otherwise) gets rank r + 1."""
    ranks = list(ranks)
    top = max([r for r in ranks if r is not None], default=0) + len(states) + 1
    for r in range(top + 1):
        new = []
        for s, acts in relevant.items():
            if ranks[s] is not None:
                continue
            hits = [any(ranks[t] is not None and ranks[t] <= r for t, _ in d) for d in acts]
            if (all(hits) and hits) if s in every else any(hits):
                new.append(s)
        for s in new:
            ranks[s] = r + 1
    return ranks


@settings(max_examples=200, deadline=None)
@given(ranked_component())
def test_rank_component_gives_each_state_the_least_rank_its_rule_allows(case):
    states, relevant, every, ranks = case
    expected = ranks_by_levels(states, relevant, every, ranks)
    rank_component(states, relevant, every, ranks)
    assert ranks == expected


@st.composite
def graph(draw):
    """Nodes 0..n-1 with 0-3 successors each among 0..n+1 (n, n+1 outside)."""
    n = draw(st.integers(1, 8))
    succ = {s: [(t, 0) for t in draw(st.lists(st.integers(0, n + 1), max_size=3))] for s in range(n)}
    return list(range(n)), succ


@settings(max_examples=200, deadline=None)
@given(graph())
def test_feedback_order_lists_successors_first_and_cuts_every_cycle(case):
    nodes, succ = case
    unknown, post = _feedback_order(nodes, succ.__getitem__, set(nodes))
    assert sorted(post) == nodes
    assert sorted(unknown.values()) == list(range(len(unknown)))
    at = {v: i for i, v in enumerate(post)}
    for v in nodes:
        for w, _ in succ[v]:
            if w in at and w not in unknown:  # an edge to a non-cut state: the successor comes first
                assert at[w] < at[v]


@settings(max_examples=200, deadline=None)
@given(graph())
def test_closed_states_are_those_with_no_path_out(case):
    nodes, succ = case
    in_s = set(nodes)

    def leaves(s):
        seen, stack = {s}, [s]
        while stack:
            for t, _ in succ[stack.pop()]:
                if t not in in_s:
                    return True
                if t not in seen:
                    seen.add(t)
                    stack.append(t)
        return False

    assert closed_states(nodes, lambda s: [t for t, _ in succ[s]], in_s) == {s for s in nodes if not leaves(s)}
