"""Sparse.from_model's reward indices: one entry per distinct nonzero reward vector, -1 for none or zero, the same
whether the model hands the very same tuple object again (a builder's cached reward) or equal tuples made apart."""

from fractions import Fraction as F

import pytest
from hypothesis import given, settings, strategies as st

from exactplay.model.compiled import Model
from exactplay.model.sparse import Sparse

vectors = st.sampled_from([None, (F(0), F(0)), (F(1), F(0)), (F(0), F(1, 3)), (F(-2), F(5, 7))])


@settings(max_examples=80, deadline=None)
@given(st.lists(st.lists(st.tuples(vectors, st.booleans()), min_size=1, max_size=4), min_size=1, max_size=12))
def test_reward_indices_by_value(per_state):
    shared = {}  # one object per value: what a builder that caches its rewards hands over
    rewards = []
    for acts in per_state:
        row = []
        for r, same in acts:
            if r is not None and same:
                r = shared.setdefault(r, r)
            elif r is not None:
                r = tuple(F(x.numerator, x.denominator) for x in r)  # an equal tuple, another object
            row.append(r)
        rewards.append(row)
    n = len(per_state) + 1
    trans = [[((s + 1, F(1)),) for _ in acts] for s, acts in enumerate(per_state)] + [[]]
    m = Model("m", 2, ["a", "b"], "max", list(range(n)), [None] * (n - 1) + [(F(1), F(0))],
              [0] * (n - 1) + [None], [list(range(len(acts))) for acts in per_state] + [[]], trans, rewards + [[]])
    sp = Sparse.from_model(m)
    flat = [r for row in rewards for r in row]
    assert len(set(sp.rewards)) == len(sp.rewards)
    for r, i in zip(flat, sp.rew, strict=True):
        if r is None or not any(r):
            assert i == -1
        else:
            assert sp.rewards[i] == r


@pytest.mark.slow
@settings(max_examples=200, deadline=None)
@given(st.lists(st.lists(st.tuples(vectors, st.booleans()), min_size=1, max_size=4), min_size=1, max_size=12))
def test_reward_indices_by_value_many_examples(per_state):
    """The same property on 200 examples (80 in the default suite since 2026-12-04)."""
    test_reward_indices_by_value.hypothesis.inner_test(per_state=per_state)
