"""The self-loop pass over a state's pairs (:func:`exactplay.engine.selfloop._scan`) and the engine's
exact distributions (:class:`exactplay.engine.exact_dists.DistributionConverter`):
the float sums are those of the pairs that leave, in order; the staying probability objects are found,
several of one action in order; a conversion is made once per probability object, and reading one
action equals reading the state."""

from fractions import Fraction

from gmpy2 import mpq
from hypothesis import given, settings
from hypothesis import strategies as st

from exactplay.engine.exact_dists import DistributionConverter
from exactplay.engine.selfloop import _scan, _stay_objects

PROBS = [Fraction(1, 2), Fraction(1, 3), Fraction(1, 6), Fraction(2, 7), Fraction(5, 7)]


@st.composite
def states(draw):
    """One state ``s = 0`` of 1-5 actions, each 1-5 pairs over successors 0-3 (0: staying; duplicates kept)."""
    n_act = draw(st.integers(1, 5))
    return [tuple((draw(st.integers(0, 3)), draw(st.sampled_from(PROBS))) for _ in range(draw(st.integers(1, 5))))
            for _ in range(n_act)]


@settings(max_examples=200, deadline=None)
@given(states(), st.lists(st.floats(0, 1e6), min_size=4, max_size=4))
def test_scan_sums_the_leaving_pairs_in_order_and_finds_every_staying_object(dist, values):
    pf = {id(p): float(p) for p in PROBS}
    fvals = {t: values[t] for t in range(1, 4)}  # the state itself (0) has no float yet
    sums, stay = _scan(dist, 0, pf, fvals)
    assert stay == _stay_objects(dist, 0)
    for d, y, got in zip(dist, sums, stay):
        expected = 0
        for t, p in d:
            if t != 0:
                expected += float(p) * values[t]
        assert y == expected  # the same operations in the same order
        staying = [p for t, p in d if t == 0]
        if not staying:
            assert got is None
        elif len(staying) == 1:
            assert got is staying[0]
        else:
            assert isinstance(got, list) and len(got) == len(staying)
            assert all(a is b for a, b in zip(got, staying))


@settings(max_examples=100, deadline=None)
@given(st.lists(states(), min_size=1, max_size=4), st.data())
def test_the_converter_converts_each_object_once_and_one_action_equals_the_state(trans, data):
    calls = []

    def num(p):
        calls.append(p)
        return mpq(p.numerator, p.denominator)

    conv = DistributionConverter(trans, num)
    s = data.draw(st.integers(0, len(trans) - 1))
    a = data.draw(st.integers(0, len(trans[s]) - 1))
    one = conv.action(s, a)
    assert one == tuple((t, mpq(p.numerator, p.denominator)) for t, p in trans[s][a])
    for r in range(len(trans)):
        assert conv.state(r) == [tuple((t, mpq(p.numerator, p.denominator)) for t, p in d) for d in trans[r]]
    assert conv.state(s)[a] == one
    assert len(calls) == len({id(p) for p in calls}) <= len(PROBS)  # each probability object once
