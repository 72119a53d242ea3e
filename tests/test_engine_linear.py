"""The engine's linear algebra and graph passes against references written here or in bruteforce/:
state elimination (:mod:`exactplay.engine.elimination`) against Gauss-Jordan, the components
(:mod:`exactplay.engine.scc`) against reachability, the rational guess (:mod:`exactplay.engine.rational_guess`)
never returning a vector that does not solve the system."""

from __future__ import annotations

from fractions import Fraction as F

import gmpy2
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from exactplay.bruteforce import solve_linear
from exactplay.engine.elimination import closed_states, solve_transient
from exactplay.engine.rational_guess import simplest_near, verified_guess
from exactplay.engine.scc import components

HYP = settings(max_examples=100, deadline=None, database=None, suppress_health_check=[HealthCheck.too_slow],
               derandomize=True)


@st.composite
def transient_systems(draw, max_k: int = 9, P: int = 2):
    """``x = b + Q x`` with ``Q`` substochastic and every unknown leaking (so ``I - Q`` is invertible):
    each row gives probability to other unknowns and keeps some for outside; rows may hold a self-loop."""
    k = draw(st.integers(1, max_k))
    rows, b = [], []
    for i in range(k):
        cols = draw(st.lists(st.integers(0, k - 1), max_size=4, unique=True))
        weights = [draw(st.integers(1, 5)) for _ in cols]
        out = draw(st.integers(1, 4))  # the part that leaves
        tot = sum(weights) + out
        rows.append({j: F(w, tot) for j, w in zip(cols, weights)})
        b.append([F(draw(st.integers(-3, 5)), draw(st.integers(1, 4))) for _ in range(P)])
    return rows, b


def _reference(rows, b):
    k, P = len(rows), len(b[0])
    A = [[F(1 if i == j else 0) - rows[i].get(j, 0) for j in range(k)] for i in range(k)]
    cols = [solve_linear(A, [b[i][c] for i in range(k)]) for c in range(P)]
    return [[cols[c][i] for c in range(P)] for i in range(k)]


def _copy(rows, b, make=lambda x: x):
    return [{j: make(w) for j, w in r.items()} for r in rows], [[make(x) for x in v] for v in b]


@HYP
@given(transient_systems(), st.sampled_from([0, 2, 64]))
def test_state_elimination_equals_gauss_jordan_in_fractions_and_mpq_with_or_without_a_dense_rest(system, max_fill):
    rows, b = system
    want = _reference(rows, b)
    assert solve_transient(*_copy(rows, b), F(0), F(1), max_fill) == want
    mpq = gmpy2.mpq
    got = solve_transient(*_copy(rows, b, lambda x: mpq(x.numerator, x.denominator)), mpq(0), mpq(1), max_fill)
    assert [[F(int(x.numerator), int(x.denominator)) for x in v] for v in got] == want


@HYP
@given(transient_systems(), st.sampled_from([0, 64]))
def test_state_elimination_in_floats_is_close_to_the_exact_solution(system, max_fill):
    rows, b = system
    want = _reference(rows, b)
    got = solve_transient(*_copy(rows, b, float), 0.0, 1.0, max_fill)
    for gv, wv in zip(got, want):
        for g, w in zip(gv, wv):
            assert abs(g - float(w)) <= 1e-9 * max(1.0, abs(float(w)))


def _closure(n, edges):
    reach = [{s} for s in range(n)]
    changed = True
    while changed:
        changed = False
        for s, t in edges:
            new = reach[t] - reach[s]
            if new:
                reach[s] |= new
                changed = True
    return reach


@st.composite
def graphs(draw):
    """A model's arrays with one choice per state: ``(n, first, start, succ)``."""
    n = draw(st.integers(1, 10))
    succ, start = [], [0]
    for s in range(n):
        succ += draw(st.lists(st.integers(0, n - 1), max_size=3, unique=True))
        start.append(len(succ))
    return n, list(range(n + 1)), start, succ


@HYP
@given(graphs())
def test_the_components_are_the_mutual_reachability_classes_sinks_first(g):
    n, first, start, succ = g
    comps, comp_of = components(n, first, start, succ)
    edges = [(s, succ[k]) for s in range(n) for k in range(start[s], start[s + 1])]
    reach = _closure(n, edges)
    assert sorted(s for c in comps for s in c) == list(range(n))
    for s in range(n):
        assert set(comps[comp_of[s]]) == {t for t in range(n) if t in reach[s] and s in reach[t]}
    for s, t in edges:  # an edge never goes to a later component
        assert comp_of[t] <= comp_of[s]


@HYP
@given(graphs(), st.data())
def test_the_components_of_a_subgraph_ignore_the_edges_out_of_it(g, data):
    n, first, start, succ = g
    nodes = data.draw(st.lists(st.integers(0, n - 1), min_size=1, unique=True))
    comps, _ = components(n, first, start, succ, nodes=nodes)
    inside = set(nodes)
    edges = [(s, succ[k]) for s in nodes for k in range(start[s], start[s + 1]) if succ[k] in inside]
    reach = _closure(n, edges)
    assert sorted(s for c in comps for s in c) == sorted(nodes)
    for c in comps:
        for s in c:
            assert set(c) == {t for t in inside if t in reach[s] and s in reach[t]}


@HYP
@given(graphs())
def test_closed_states_are_those_that_reach_no_exit(g):
    n, first, start, succ = g
    inside = set(range(n // 2 + 1))
    nodes = sorted(inside)
    moves = lambda s: succ[start[s]:start[s + 1]]  # noqa: E731
    edges = [(s, t) for s in range(n) for t in moves(s)]
    reach = _closure(n, edges)
    closed = closed_states(nodes, moves, inside)
    for s in nodes:
        # an exit: a state with a successor outside the set (the walk stays inside until it leaves)
        inner = _closure(n, [(u, t) for u, t in edges if u in inside and t in inside])[s]
        leaves = any(t not in inside for u in inner for t in moves(u))
        assert (s in closed) == (not leaves), (s, reach[s])


def test_the_simplest_nearby_fraction_is_found_and_long_ones_are_not_guessed():
    assert simplest_near(2 / 3) == (2, 3) and simplest_near(-0.75) == (-3, 4) and simplest_near(5.0) == (5, 1)
    assert simplest_near(float("nan")) is None and simplest_near(float("inf")) is None
    assert simplest_near(1 / 3**40) is None or simplest_near(1 / 3**40)[1] <= 2**32


@HYP
@given(transient_systems(P=1), st.integers(0, 6))
def test_a_rational_guess_is_the_exact_solution_or_none(system, noise):
    rows, b = system
    want = _reference(rows, b)
    floats = [float(v[0]) + (noise - 3) * 1e-13 for v in want]
    got = verified_guess(*_copy(rows, b), floats, F)
    if got is not None:
        assert got == want
    exact = verified_guess(*_copy(rows, b), [float(v[0]) for v in want], F)
    if all(simplest_near(float(v[0])) == (v[0].numerator, v[0].denominator) for v in want):
        assert exact == want  # the floats of simple values are guessed back exactly
