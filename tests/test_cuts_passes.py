"""The passes of the lazy cyclic solve (:mod:`exactplay.engine.cuts`) against direct computations."""

from fractions import Fraction

from gmpy2 import mpq
from hypothesis import given, settings
from hypothesis import strategies as st

from exactplay.bruteforce.linear import gauss_jordan
from exactplay.engine.cuts import all_leave, cut_values
from exactplay.engine.linear import _feedback_order, closed_states


@st.composite
def policy_graphs(draw):
    """A policy's graph on states 0..n-1: each state's successors (n and above are outside)."""
    n = draw(st.integers(1, 9))
    succ = [draw(st.lists(st.integers(0, n + 1), min_size=1, max_size=3, unique=True)) for _ in range(n)]
    return n, succ


@settings(max_examples=300, deadline=None)
@given(policy_graphs(), st.integers(1, 4))
def test_all_leave_proves_only_graphs_without_closed_states(graph, passes):
    n, succ = graph
    nodes = list(range(n))
    in_s = set(nodes)

    def dist(s):
        return [(t, mpq(1, len(succ[s]))) for t in succ[s]]

    _, post = _feedback_order(nodes, dist, in_s)
    closed = closed_states(nodes, lambda s: succ[s], in_s)
    if all_leave(post, dist, in_s, passes):
        assert not closed
    if closed:
        assert not all_leave(post, dist, in_s, passes)


@settings(max_examples=200, deadline=None)
@given(policy_graphs())
def test_cut_values_solve_the_policy_equations_at_cuts_and_extra_states(graph):
    """The cut states' and the extra states' values equal the exact solution of ``x_s = r(s) +
    sum_t p(s, t) x_t`` on all the states that can leave (``x_t = V(t)`` outside, 0 at closed
    states), solved independently by Gauss-Jordan elimination over Fractions."""
    n, succ = graph
    nodes = list(range(n))
    in_s = set(nodes)
    closed = closed_states(nodes, lambda s: succ[s], in_s)
    live = [s for s in nodes if s not in closed]
    if not live:
        return
    outside = {t: mpq(t + 1, 7) for t in range(n, n + 2)}

    def dist(s):
        return [(t, mpq(1, len(succ[s]))) for t in succ[s]]

    def reward(s):
        return (mpq(s, 3),) if s % 2 else None

    def known(t):
        return (mpq(0),) if t in closed else (outside[t],)

    cuts, post, m = cut_values(live, dist, reward, known, 1, mpq, extra=live[:2])
    assert sorted(post) == sorted(live)
    # the exact solution by Gauss-Jordan elimination over all live states (Fractions, independent)
    idx = {s: i for i, s in enumerate(live)}
    k = len(live)
    A = [[Fraction(int(i == j)) for j in range(k)] + [Fraction(0)] for i in range(k)]
    for s in live:
        i = idx[s]
        r = reward(s)
        A[i][k] += Fraction(int(r[0].numerator), int(r[0].denominator)) if r else 0
        for t, p in dist(s):
            pf = Fraction(int(p.numerator), int(p.denominator))
            if t in idx:
                A[i][idx[t]] -= pf
            else:
                v = known(t)[0]
                A[i][k] += pf * Fraction(int(v.numerator), int(v.denominator))
    gauss_jordan(A, k)
    exact = {s: A[idx[s]][k] for s in live}
    for s, (x,) in cuts.items():
        assert Fraction(int(x.numerator), int(x.denominator)) == exact[s]
    assert set(live[:2]) <= set(cuts)
