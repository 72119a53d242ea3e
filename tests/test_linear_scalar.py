"""The one-component evaluation (scalars) equals the vector evaluation it specialises, exactly,
on random policies of random components (every state able to leave)."""

from fractions import Fraction

from hypothesis import given, settings
from hypothesis import strategies as st

from exactplay.engine.linear import evaluate_component


@st.composite
def components(draw):
    n = draw(st.integers(1, 7))
    dist = {}
    for s in range(n):
        k = draw(st.integers(1, 3))
        weights = draw(st.lists(st.integers(1, 5), min_size=k, max_size=k))
        targets = draw(st.lists(st.integers(0, n + 2), min_size=k, max_size=k, unique=True))
        total = sum(weights)
        dist[s] = [(t, Fraction(w, total)) for t, w in zip(targets, weights)]
    exits = [s for s in range(n) if any(t >= n for t, _ in dist[s])]
    if not exits:  # make state 0 leave so that (with reachability below) the system is regular
        dist[0] = dist[0] + [(n, Fraction(1, 2))]
        dist[0] = [(t, p / Fraction(3, 2)) for t, p in dist[0]]
    known = {t: Fraction(draw(st.integers(-3, 3)), draw(st.integers(1, 4))) for t in range(n, n + 3)}
    rewards = {s: draw(st.one_of(st.none(), st.fractions(-2, 2, max_denominator=5))) for s in range(n)}
    return n, dist, known, rewards


def _can_leave(n, dist):
    out = {s for s in range(n) if any(t >= n for t, _ in dist[s])}
    changed = True
    while changed:
        changed = False
        for s in range(n):
            if s not in out and any(t in out for t, _ in dist[s]):
                out.add(s)
                changed = True
    return out


@settings(max_examples=60, deadline=None)
@given(components())
def test_scalar_evaluation_equals_the_vector_evaluation(comp):
    n, dist, known, rewards = comp
    nodes = sorted(_can_leave(n, dist))
    in_nodes = set(nodes)
    # successors that cannot leave are outside the solved set: give them value 0 as known values
    val0 = {t: Fraction(0) for t in range(n) if t not in in_nodes}
    kv = {**known, **val0}
    one, = evaluate_component(nodes, lambda s: dist[s], lambda s: None if rewards[s] is None else (rewards[s],),
                              lambda t: (kv[t],), 1, Fraction(0), Fraction(1))[:1]
    two, = evaluate_component(nodes, lambda s: dist[s],
                              lambda s: None if rewards[s] is None else (rewards[s], 2 * rewards[s]),
                              lambda t: (kv[t], 2 * kv[t]), 2, Fraction(0), Fraction(1))[:1]
    for s in nodes:
        assert one[s] == (two[s][0],) and two[s][1] == 2 * two[s][0]
        # and the values solve the equations
        r = rewards[s] or 0
        assert one[s][0] == r + sum(p * (one[t][0] if t in one else kv[t]) for t, p in dist[s])
