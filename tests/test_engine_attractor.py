"""engine/attractor.py: the worklist attractors equal their definitions (sweeps to a fixed point,
plain reachability) on random graphs."""

from __future__ import annotations

from hypothesis import given, settings, strategies as st

from exactplay.engine.attractor import never_ending, zero_region
from exactplay.graph import tarjan


@st.composite
def component(draw):
    """A set S of states 0..n-1, outside states n..n+2 (positive or not), per state 1-3 actions of
    1-3 distinct successors, some minimiser states and a policy for the others."""
    n = draw(st.integers(1, 7))
    targets = st.integers(0, n + 2)
    dist = {s: [tuple((t, 1) for t in draw(st.sets(targets, min_size=1, max_size=3)))
                for _ in range(draw(st.integers(1, 3)))] for s in range(n)}
    miners = draw(st.sets(st.integers(0, n - 1)))
    pol = {s: draw(st.integers(0, len(dist[s]) - 1)) for s in range(n) if draw(st.booleans())}
    positive_out = draw(st.sets(st.integers(n, n + 2)))
    return list(range(n)), dist, miners, pol, positive_out


def sweeps(S, dist, miners, pol, positive_out):
    """The definition: add a state to P while every considered action hits P or a positive outside state."""
    in_s, positive = set(S), set()
    changed = True
    while changed:
        changed = False
        for s in S:
            if s in positive:
                continue
            acts = dist[s] if s in miners else [dist[s][pol.get(s, 0)]]
            if all(any(t in positive if t in in_s else t in positive_out for t, _ in d) for d in acts):
                positive.add(s)
                changed = True
    return in_s - positive


@settings(max_examples=300, deadline=None)
@given(component())
def test_zero_region_is_the_least_fixed_point_of_the_sweeps(case):
    S, dist, miners, pol, positive_out = case
    assert zero_region(S, dist.__getitem__, miners, pol, positive_out.__contains__) == sweeps(*case)


@settings(max_examples=300, deadline=None)
@given(component(), st.data())
def test_never_ending_is_the_states_that_reach_no_terminal(case, data):
    S, dist, _, _, _ = case
    n = len(S)
    terminal = [None] * n + [(1,)] * 3  # the outside states end the play
    trans = [dist[s] for s in S] + [[], [], []]
    policy = [data.draw(st.integers(0, len(dist[s]) - 1)) for s in S] + [None] * 3

    def reaches_end(s):
        seen, stack = {s}, [s]
        while stack:
            u = stack.pop()
            if terminal[u] is not None:
                return True
            for t, _ in trans[u][policy[u]]:
                if t not in seen:
                    seen.add(t)
                    stack.append(t)
        return False

    expected = [s for s in range(n + 3) if not reaches_end(s)]
    assert never_ending(terminal, trans, policy) == expected
    comps = tarjan([sorted({t for d in acts for t, _ in d}) for acts in trans])  # every action, sinks first
    assert never_ending(terminal, trans, policy, comps) == expected
