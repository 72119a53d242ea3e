"""The self-loop's signed float filters: a minimiser's (``sign = -1``) choice is the maximiser's choice
of the negated values, with the same interval rule (exactplay.engine.float_filter)."""

import pytest
from hypothesis import given, settings, strategies as st

from exactplay.engine import float_filter as ff

values = st.lists(st.fractions(min_value=0, max_value=10**6, max_denominator=10**9), min_size=3, max_size=12)


@settings(max_examples=30, deadline=None)
@given(values, st.sampled_from([1, -1]))
def test_signed_filters_equal_the_filters_of_the_negated_intervals(xs, sign):
    sums = [float(x) for x in xs]
    errs = [ff.sum_error([y]) for y in sums]
    intervals = [ff.x_interval(y, e, 1.0, sign) for y, e in zip(sums, errs)]
    mirrored = [(-hi, -lo) for lo, hi in (ff.x_interval(y, e, 1.0, -sign) for y, e in zip(sums, errs))]
    assert intervals == mirrored
    assert ff.may_be_best(intervals) == ff.may_be_best(mirrored)


@pytest.mark.slow
@settings(max_examples=80, deadline=None)
@given(values, st.sampled_from([1, -1]))
def test_signed_filters_equal_the_filters_of_the_negated_intervals_many_examples(xs, sign):
    """The same property on 80 examples (30 in the default suite since 2026-12-04)."""
    test_signed_filters_equal_the_filters_of_the_negated_intervals.hypothesis.inner_test(xs=xs, sign=sign)
