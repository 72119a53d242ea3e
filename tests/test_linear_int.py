"""The common-denominator evaluation (:mod:`exactplay.engine.linear_int`) and the evaluation by
cut values and shared-denominator sums (:mod:`exactplay.engine.post_values`) equal the mpq
elimination, exactly, on random components (random probabilities, rewards, outside values with
unrelated long denominators, one or several payoff components); and the float seed by affine
forms (:mod:`exactplay.engine.seed_forms`) gives an optimal policy on Hold components."""


from gmpy2 import mpq
from hypothesis import given, settings
from hypothesis import strategies as st

from exactplay.engine.linear import evaluate_component
from exactplay.engine.raw_values import evaluate_component_raw
from exactplay.engine.post_values import evaluate_by_cuts
from exactplay.engine.seed_forms import MAX_CUTS, forms_seed

from test_linear_scalar import _can_leave


@st.composite
def components(draw):
    n = draw(st.integers(1, 8))
    dist = {}
    for s in range(n):
        k = draw(st.integers(1, 4))
        weights = draw(st.lists(st.integers(1, 7), min_size=k, max_size=k))
        targets = draw(st.lists(st.integers(0, n + 2), min_size=k, max_size=k, unique=True))
        total = sum(weights)
        dist[s] = [(t, mpq(w, total)) for t, w in zip(targets, weights)]
    if not any(t >= n for t, _ in dist[0]):
        dist[0] = [(t, p * mpq(2, 3)) for t, p in dist[0]] + [(n, mpq(1, 3))]
    big = st.integers(-10**30, 10**30)
    den = st.integers(1, 10**25)
    comps = draw(st.integers(1, 3))
    known = {t: tuple(mpq(draw(big), draw(den)) if draw(st.booleans()) else mpq(0) for _ in range(comps))
             for t in range(n, n + 3)}
    rewards = {s: draw(st.one_of(st.none(), st.tuples(*[st.fractions(-2, 2, max_denominator=9)] * comps)))
               for s in range(n)}
    return n, dist, known, rewards, comps


@settings(max_examples=50, deadline=None)
@given(components())
def test_common_denominator_evaluation_equals_the_mpq_elimination(comp):
    n, dist, known, rewards, comps = comp
    nodes = sorted(_can_leave(n, dist))
    kv = {**known, **{t: (mpq(0),) * comps for t in range(n) if t not in set(nodes)}}

    def reward(s):
        r = rewards[s]
        return None if r is None else tuple(mpq(x.numerator, x.denominator) for x in r)

    def pairs(vec):
        return tuple((x.numerator, x.denominator) for x in vec)

    ref, m_ref = evaluate_component(nodes, lambda s: dist[s], reward, lambda t: kv[t], comps, mpq(0), mpq(1))
    raw, m_got = evaluate_component_raw(nodes, lambda s: dist[s], lambda s: None if reward(s) is None else pairs(reward(s)),
                                        lambda t: pairs(kv[t]), comps, mpq)
    got = {s: tuple(mpq(n, d) for n, d in vec) for s, vec in raw.items()}  # (linear_int.eliminate, unreduced)
    assert m_got == m_ref
    assert got == ref


@settings(max_examples=50, deadline=None)
@given(components())
def test_evaluation_by_cut_values_and_shared_denominator_sums_equals_the_mpq_elimination(comp):
    n, dist, known, rewards, _ = comp  # one payoff component: the first of each vector
    nodes = sorted(_can_leave(n, dist))
    kv = {**{t: v[:1] for t, v in known.items()}, **{t: (mpq(0),) for t in range(n) if t not in set(nodes)}}

    def reward(s):
        r = rewards[s]
        return None if r is None else (mpq(r[0].numerator, r[0].denominator),)

    ref, m_ref = evaluate_component(nodes, lambda s: dist[s], reward, lambda t: kv[t], 1, mpq(0), mpq(1))
    got, m_got = evaluate_by_cuts(nodes, lambda s: dist[s], reward, lambda t: kv[t])
    assert m_got == m_ref
    assert got == ref
    assert all(type(x) is type(mpq(0)) for v in got.values() for x in v)


def _hold_components(target):
    from exactplay.engine.solve import solve_model
    from exactplay.games import MODELS
    from exactplay.graph import tarjan
    from exactplay.model import build_model

    model = build_model(MODELS["hold"](target=target, faces=6))
    sol = solve_model(model)
    succ = [sorted(model.successors(s)) for s in range(len(model))]
    return model, sol, [c for c in tarjan(succ) if len(c) > 1]


def test_forms_seed_finds_the_optimal_policy_of_every_hold_component():
    model, sol, comps = _hold_components(12)
    seeded = 0
    for S in comps:
        fdist = {s: [([(t, float(p)) for t, p in d], 0.0) for d in model.trans[s]] for s in S}
        signs = {s: (1 if model.mover[s] == 0 else -1) if len(model.trans[s]) > 1 else 1 for s in S}
        pol = forms_seed(S, fdist, signs, lambda t: float(sol.values[t][0]))
        if pol is None:
            continue
        seeded += 1
        for s in S:
            if len(model.trans[s]) > 1:
                q = sol.q[s]
                best = max(q) if signs[s] > 0 else min(q)
                # the seed's action is optimal (an exact tie may be broken either way)
                assert q[pol[s]] == best, model.state_name(s)
    assert seeded >= len(comps) - 2


def test_forms_seed_declines_too_many_cuts_and_singular_policies():
    # a complete graph on MAX_CUTS + 2 states has more cuts than allowed
    n = MAX_CUTS + 2
    S = list(range(n))
    fdist = {s: [([(t, 1.0 / (n + 1)) for t in range(n + 1) if t != s] + [(s, 1.0 / (n + 1))], 0.0)] for s in S}
    assert forms_seed(S, fdist, {s: 1 for s in S}, lambda t: 1.0) is None
    # a 2-cycle that never leaves: the cut system is singular
    fdist = {0: [([(1, 1.0)], 0.0)], 1: [([(0, 1.0)], 0.0)]}
    assert forms_seed([0, 1], fdist, {0: 1, 1: 1}, lambda t: 1.0) is None
    # state 0 chooses: loop through state 1 and leave to a value 1 with probability 1/2 (worth 1),
    # or leave at once to a value 1/5; a minimiser takes the second
    fdist = {0: [([(1, 0.5), (2, 0.5)], 0.0), ([(3, 1.0)], 0.0)], 1: [([(0, 1.0)], 0.0)]}
    outside = {2: 1.0, 3: 0.2}.__getitem__
    assert forms_seed([0, 1], fdist, {0: 1, 1: 1}, outside) == {0: 0, 1: 0}
    assert forms_seed([0, 1], fdist, {0: -1, 1: 1}, outside) == {0: 1, 1: 0}
