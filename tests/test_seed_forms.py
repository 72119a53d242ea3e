"""The float seed by affine forms (:mod:`exactplay.engine.seed_forms`): the policy it returns is
greedy for its own values (checked exactly, over the rationals, on random components whose every
policy leaves; where the rounds settle: an exact tie may keep them from it), with one or two cuts and with more (the general rounds), from any start values;
on Hold components every seeded action is exactly optimal, whatever the start."""

from fractions import Fraction

from hypothesis import assume, given, settings
from hypothesis import strategies as st

from exactplay.bruteforce.linear import gauss_jordan
from exactplay.engine.seed_forms import MAX_CUTS, seed_by_forms


def _exact_values(S, dist, pol, outside):
    """The exact values of ``pol`` on ``S`` (Gauss-Jordan over the rationals)."""
    pos = {s: i for i, s in enumerate(S)}
    n = len(S)
    rows = []
    for s in S:
        row = [Fraction(0)] * (n + 1)
        row[pos[s]] += 1
        for t, p in dist[s][pol[s]]:
            if t in pos:
                row[pos[t]] -= p
            else:
                row[n] += p * outside[t]
        rows.append(row)
    gauss_jordan(rows, n)
    return {s: rows[pos[s]][n] for s in S}


def _assert_greedy_for_own_values(S, dist, signs, pol, outside):
    val = _exact_values(S, dist, pol, outside)
    for s in S:
        q = [sum(p * (val[t] if t in val else outside[t]) for t, p in d) for d in dist[s]]
        chosen = signs[s] * q[pol[s]]
        # greedy up to float rounding (the seed compares floats)
        assert all(chosen >= signs[s] * x - Fraction(1, 10**9) for x in q), (s, pol, q)


def _seed(S, dist, signs, outside, start):
    succ = {s: sorted({t for d in dist[s] for t, _ in d}) for s in S}
    return seed_by_forms(S, succ.__getitem__, dist.__getitem__, None, {}, signs.__getitem__,
                         lambda t: float(outside[t]), start)


@st.composite
def components(draw):
    """A strongly connected ring ``0 -> 1 -> ... -> n-1 -> 0`` plus random inside edges; two actions
    a state (maximiser or minimiser); every action leaves to one of two outside states with
    probability at least 1/4, so every policy's system is regular."""
    n = draw(st.integers(2, 7))
    dist, signs = {}, {}
    for s in range(n):
        acts = []
        for _ in range(draw(st.integers(1, 2))):
            targets = sorted({(s + 1) % n} | set(draw(st.lists(st.integers(0, n - 1), max_size=3))))
            weights = draw(st.lists(st.integers(1, 5), min_size=len(targets) + 2, max_size=len(targets) + 2))
            inside, out = weights[:len(targets)], weights[len(targets):]
            total = 3 * (sum(inside) + sum(out))
            d = [(t, Fraction(w, total)) for t, w in zip(targets, inside)]
            rest = 1 - sum(p for _, p in d)  # at least 2/3
            d += [(n, rest * Fraction(out[0], sum(out))), (n + 1, rest * Fraction(out[1], sum(out)))]
            acts.append(d)
        dist[s] = acts
        signs[s] = draw(st.sampled_from([1, -1])) if len(acts) > 1 else 1
    outside = {n: Fraction(draw(st.integers(0, 9)), 9), n + 1: Fraction(draw(st.integers(0, 9)), 9)}
    start = draw(st.lists(st.floats(0, 1), min_size=MAX_CUTS, max_size=MAX_CUTS))
    return list(range(n)), dist, signs, outside, start


@settings(max_examples=60, deadline=None)
@given(components())
def test_the_seed_policy_is_greedy_for_its_own_exact_values(comp):
    S, dist, signs, outside, start = comp
    found = _seed(S, dist, signs, outside, start)
    # every policy leaves, so every cut system is regular; the rounds may still not settle where two
    # actions tie exactly (the float choice can flip from round to round): then no seed (None)
    assume(found is not None)
    pol, x = found
    assert sorted(pol) == S and 1 <= len(x) <= len(S)
    _assert_greedy_for_own_values(S, dist, signs, pol, outside)
    # the cut values returned are the policy's own values at some states (floats of the exact ones)
    val = _exact_values(S, dist, pol, outside)
    assert all(any(abs(v - float(val[s])) < 1e-9 for s in S) for v in x)


def test_more_than_two_cuts_take_the_general_rounds():
    # a complete graph on 5 states with self-loops: every state is the target of a back edge (a cut)
    n = 5
    S = list(range(n))
    third = Fraction(1, 3)
    dist = {s: [[(t, third / n) for t in S] + [(n, 1 - third)],       # stay a little, leave to a value 1/2
                [(t, 2 * third / n) for t in S] + [(n + 1, third)]]    # stay more, leave to a value 1
            for s in S}
    signs = {s: 1 if s % 2 else -1 for s in S}
    outside = {n: Fraction(1, 2), n + 1: Fraction(1)}
    for start in ([0.0] * MAX_CUTS, [1.0] * MAX_CUTS):
        pol, x = _seed(S, dist, signs, outside, start)
        assert len(x) == 5
        _assert_greedy_for_own_values(S, dist, signs, pol, outside)


def test_hold_components_are_seeded_optimally_from_any_start():
    from exactplay.engine.solve import solve_model
    from exactplay.games import MODELS
    from exactplay.graph import tarjan
    from exactplay.model import build_model

    model = build_model(MODELS["hold"](target=10, faces=6))
    sol = solve_model(model)
    succ = [sorted(model.successors(s)) for s in range(len(model))]
    comps = [c for c in tarjan(succ) if len(c) > 1]
    signs = [(1 if model.mover[s] == 0 else -1) if len(model.trans[s]) > 1 else 1 for s in range(len(model))]
    seeded = 0
    for S in comps:
        for start in ([0.5] * MAX_CUTS, [0.0] * MAX_CUTS, [1.0] * MAX_CUTS):
            found = seed_by_forms(S, succ.__getitem__, model.trans.__getitem__, None, {}, signs.__getitem__,
                                  lambda t: float(sol.values[t][0]), start)
            if found is None:
                continue
            seeded += 1
            for s, a in found[0].items():
                if len(model.trans[s]) > 1:
                    q = sol.q[s]
                    assert q[a] == (max(q) if signs[s] > 0 else min(q)), model.state_name(s)
    assert seeded >= 3 * (len(comps) - 2)
