"""The self-loop's float filter made in bulk (exactplay.engine.selfloop): the same floats and error bounds as
the per-action definitions of exactplay.engine.float_filter, one width per state keeping every action the
per-action intervals keep and every exact best and runner-up, and the same decisions as every action exact, on models with rewards, negative values, actions that never leave or do not stay, and
many states sharing one shape (one cached layout read with different values)."""

from fractions import Fraction

import pytest
from hypothesis import given, settings, strategies as st

from exactplay.engine import float_filter as ff
from exactplay.engine import selfloop as sl
from exactplay.engine import solve_model
from exactplay.engine.run import Run
from exactplay.model import model_from_json
from exactplay.model.sparse import Sparse
from exactplay.numbers.backends import get_backend
from exactplay.progress import SILENT

edge = st.sampled_from([0.0, -0.0, 1.0, -1.0, 1.0 + 2.0 ** -52, 1.0 - 2.0 ** -53, 1.5, -2.5, 1e-310, 5e-324,
                        1e300, -1e300, 1e308, -1e308, 1.7e308])


@settings(max_examples=150, deadline=None)
@given(st.lists(st.tuples(edge, st.sampled_from([0.0, 1e-300, 2.0 ** -50, 1e-16, 1.0, 1e308]),
                          st.sampled_from([1.0, 0.5, 0.75, 2.0 ** -1000, 1e-300])), min_size=1, max_size=9),
       st.sampled_from([1, -1]), st.sampled_from([0.0, 1.0, -3.0, 1e-300, 1e308, -1e308]))
def test_bulk_intervals_keep_what_the_per_action_intervals_keep(acts, sign, x_star):
    fas, es, leaves = map(list, zip(*acts))
    stays = [1.0 - x for x in leaves]
    assert set(ff.may_be_best([ff.x_interval(a, e, leave, sign) for a, e, leave in acts])) <= set(
        sl.best_candidates(fas, es, leaves, sign, min(leaves)))
    assert set(ff.may_be_top_two([ff.q_interval(a, e, p, x_star, sign) for a, e, p in zip(fas, es, stays)])) <= set(
        sl.top_two_candidates(fas, es, stays, max(stays), x_star, sign))


@pytest.mark.slow
@settings(max_examples=400, deadline=None)
@given(st.lists(st.tuples(edge, st.sampled_from([0.0, 1e-300, 2.0 ** -50, 1e-16, 1.0, 1e308]),
                          st.sampled_from([1.0, 0.5, 0.75, 2.0 ** -1000, 1e-300])), min_size=1, max_size=9),
       st.sampled_from([1, -1]), st.sampled_from([0.0, 1.0, -3.0, 1e-300, 1e308, -1e308]))
def test_bulk_intervals_keep_what_the_per_action_intervals_keep_many_examples(acts, sign, x_star):
    """The same property on 400 examples (150 in the default suite since 2026-12-04)."""
    test_bulk_intervals_keep_what_the_per_action_intervals_keep.hypothesis.inner_test(acts=acts, sign=sign, x_star=x_star)


probs = st.fractions(min_value=Fraction(1, 10**12), max_value=1, max_denominator=10**15)


@st.composite
def exact_actions(draw):
    """Per action the probabilities and exact values of its other successors and its stay ``p_a < 1``;
    values near one another (differences down to 1e-40 of their size) or equal, signed, tiny or huge."""
    scale = draw(st.sampled_from([Fraction(1), Fraction(1, 10**300), Fraction(1, 10**315), Fraction(10**300),
                                  Fraction(-1, 3)]))
    base = draw(st.fractions(min_value=-1, max_value=1, max_denominator=10**20))
    out = []
    for _ in range(draw(st.integers(3, 8))):
        ps = [draw(probs) for _ in range(draw(st.integers(1, 4)))]
        vs = [scale * (base + draw(st.integers(0, 3)) * Fraction(1, 10 ** draw(st.sampled_from([0, 17, 40]))))
              for _ in ps]
        out.append((ps, vs, draw(st.sampled_from([Fraction(0), Fraction(1, 2), Fraction(999, 1000), Fraction(1, 3)]))))
    return out


@settings(max_examples=25, deadline=None)
@given(exact_actions(), st.sampled_from([1, -1]))
def test_bulk_filters_keep_every_exact_best_and_runner_up(acts, sign):
    _check_bulk_filters_keep_every_exact_best_and_runner_up(acts, sign)


@pytest.mark.slow
@settings(max_examples=300, deadline=None)
@given(exact_actions(), st.sampled_from([1, -1]))
def test_bulk_filters_keep_every_exact_best_and_runner_up_many_examples(acts, sign):
    """The same property on 300 examples (60 in the default suite until 2026-12-04, 25 now)."""
    _check_bulk_filters_keep_every_exact_best_and_runner_up(acts, sign)


def _check_bulk_filters_keep_every_exact_best_and_runner_up(acts, sign):
    sums = [sum((p * v for p, v in zip(ps, vs)), Fraction(0)) for ps, vs, _ in acts]
    xs = [a / (1 - stay) for a, (_, _, stay) in zip(sums, acts)]
    terms = [[float(p) * float(v) for p, v in zip(ps, vs)] for ps, vs, _ in acts]
    fas, es = [sum(t) for t in terms], [ff.sum_error(t) for t in terms]
    leaves, stays = [float(1 - st_) for _, _, st_ in acts], [float(st_) for _, _, st_ in acts]
    best = max(sign * x for x in xs)
    kept = sl.best_candidates(fas, es, leaves, sign, min(leaves))
    assert {a for a, x in enumerate(xs) if sign * x == best} <= set(kept)
    x_star = sign * best
    qs = [sign * (a + st_ * x_star) for a, (_, _, st_) in zip(sums, acts)]
    second = sorted(qs)[-2]
    kept = sl.top_two_candidates(fas, es, stays, max(stays), float(x_star), sign)
    assert {a for a, q in enumerate(qs) if q >= second} <= set(kept)


def reference_floats(eng, s, c):
    """The per-action float sums and bounds (the definition: a loop per transition, the staying ones
    skipped, the reward the first term; an action that never leaves is ``(0, 0, 1, leave 1.0)``)."""
    sp = eng.sp
    out = []
    for a in range(sp.first[s], sp.first[s + 1]):
        r = eng.rw[a]
        terms = [float(r[c])] if r is not None else []
        leave, fstay = 1.0, 0.0
        for k in range(sp.start[a], sp.start[a + 1]):
            if sp.succ[k] == s:
                leave, fstay = float(1 - sp.probs[sp.pk[k]]), float(sp.probs[sp.pk[k]])
                continue
            terms.append(float(sp.probs[sp.pk[k]]) * float(eng.V[sp.succ[k]][c]))
        if leave == 0.0:
            out.append((0.0, 0.0, 1.0, 1.0))
            continue
        out.append((sum(terms), ff.sum_error(terms), fstay, leave))
    fas, es, fstays, leaves = [list(x) for x in zip(*out)]
    return [fas, es, fstays, leaves, min(leaves), max(fstays)]


@st.composite
def loop_chains(draw):
    """A chain of choice states ``c0 .. c(n-1)``, each with 3-6 actions: staying with some probability
    (or not at all, or always), moving to the next state of the chain and to signed terminals, some with a
    reward; many states of one shape (the same probabilities at every state, different values)."""
    players = draw(st.sampled_from([1, 2]))
    n = draw(st.integers(2, 7))
    scale = draw(st.sampled_from([Fraction(1), Fraction(-1, 7), Fraction(10**200), Fraction(1, 10**300)]))
    pays = [scale * draw(st.fractions(-1, 1, max_denominator=50)) for _ in range(3)]
    terms = [{"id": f"t{k}", "payoff": [str(p), str(-p)] if players == 2 else [str(p)]} for k, p in enumerate(pays)]
    shape = []
    for a in range(draw(st.integers(3, 6))):
        stay = draw(st.sampled_from([Fraction(0), Fraction(1, 2), Fraction(1, 3), Fraction(7, 8), Fraction(1)]))
        reward = draw(st.sampled_from([None, Fraction(1, 5), Fraction(-2, 3)])) if stay != 1 else None
        shape.append((stay, draw(st.integers(0, 2)), reward))
    states = []
    for i in range(n):
        acts = []
        for a, (stay, k, reward) in enumerate(shape):
            nxt = [[str(stay), f"c{i}"]] if stay else []
            rest = 1 - stay
            if rest:
                nxt += [[str(rest / 2), f"t{k}"], [str(rest / 2), f"c{i + 1}" if i + 1 < n else f"t{(k + 1) % 3}"]]
            act = {"name": f"a{a}", "next": nxt}
            if reward is not None and draw(st.booleans()):
                act["reward"] = [str(scale * reward)] if players == 1 else [str(scale * reward), str(-scale * reward)]
            acts.append(act)
        states.append({"id": f"c{i}", "mover": i % players, "actions": acts})
    objective = "zero-sum" if players == 2 else draw(st.sampled_from(["max", "min"]))
    return model_from_json({"format": "exactplay-model", "version": 1, "players": players,
                            "objective": objective, "never_ending": "zero", "states": states + terms})


@settings(max_examples=50, deadline=None)
@given(loop_chains())
def test_bulk_floats_equal_the_per_action_floats_and_decide_as_every_action_exact(model):
    try:
        b = solve_model(model, filter=False)
    except Exception as e:  # (a refusal, e.g. a reward on an action that never leaves: the same either way)
        try:
            solve_model(model, filter=True)
        except Exception as f:
            assert type(f) is type(e) and str(f) == str(e)
            return
        raise AssertionError("the filter solved what every action exact refused")
    a = solve_model(model, filter=True)
    assert a.values == b.values and a.policy == b.policy and a.ranks == b.ranks
    assert a.ties == b.ties and dict(a.margins) == dict(b.margins)
    for s in b.q:
        assert all(x is None or x == y for x, y in zip(a.q[s], b.q[s]))
        assert a.q[s][a.policy[s]] == b.q[s][b.policy[s]]
    eng = Run(model, Sparse.from_model(model), get_backend("mpq"), SILENT)
    eng.run()
    for s in range(eng.n):
        if eng.loops[s] and eng.is_choice(s) and eng.nch(s) > 2:
            c = eng.ckeys[eng.sp.mover[s]][0]
            got = sl.loop_floats(eng, s, c)
            if got is not None:
                assert [x if type(x) is float else list(x) for x in got] == reference_floats(eng, s, c)
                assert s not in eng.floats[c] or eng.floats[c][s] == float(eng.V[s][c])


@pytest.mark.slow
@settings(max_examples=120, deadline=None)
@given(loop_chains())
def test_bulk_floats_equal_the_per_action_floats_and_decide_as_every_action_exact_many_examples(model):
    """The same property on 120 examples (50 in the default suite since 2026-12-04)."""
    test_bulk_floats_equal_the_per_action_floats_and_decide_as_every_action_exact.hypothesis.inner_test(model=model)
