"""The self-loop's signed ball filters equal the filters of the negated balls (no negated copies made)."""

from fractions import Fraction

from hypothesis import given, settings, strategies as st

from exactplay.enclosure import ball, may_be_top_two
from exactplay.engine.selfloop import may_be_best, may_be_top_two_signed

fractions = st.fractions(min_value=-10**6, max_value=10**6, max_denominator=10**40)
# products of two balls: radii of every size, as in the engine's action values
ball_lists = st.lists(st.tuples(fractions, st.fractions(min_value=Fraction(1, 10**9), max_value=1)), min_size=3, max_size=12)


def _balls(pairs):
    return [ball(x) * ball(p) for x, p in pairs]


def _reference_best(balls):
    top = max(b.lower() for b in balls)
    return [i for i, b in enumerate(balls) if not top > b.upper()]


@settings(max_examples=120, deadline=None)
@given(ball_lists, st.sampled_from([1, -1]))
def test_signed_filters_equal_the_filters_of_the_negated_balls(pairs, sign):
    balls = _balls(pairs)
    keyed = balls if sign > 0 else [-b for b in balls]
    assert may_be_best(balls, sign) == _reference_best(keyed)
    assert may_be_top_two_signed(balls, sign) == may_be_top_two(keyed)


def test_signed_filters_keep_exact_ties():
    tied = [ball(Fraction(1, 3)), ball(Fraction(1, 3)), ball(Fraction(5))]
    assert may_be_best(tied, -1) == [0, 1]
    assert may_be_top_two_signed(tied, -1) == [0, 1]
    assert may_be_top_two_signed(tied, 1) == [0, 1, 2]
