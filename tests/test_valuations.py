"""The names of a PRISM/JANI model's states (:class:`exactplay.interop.storm_arrays.Valuations`): made in
bulk when the whole model is written, one at a time for the few a solve prints, the same strings."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from exactplay.interop.storm_arrays import Valuations


@st.composite
def valuations(draw):
    n = draw(st.integers(1, 40))
    k = draw(st.integers(0, 4))
    names = [f"v{i}" for i in range(k)]
    columns = [draw(st.lists(st.booleans() if draw(st.booleans()) else st.integers(-3, 300), min_size=n, max_size=n))
               for _ in range(k)]
    order = draw(st.permutations(range(n)))
    return Valuations(names, columns, order if draw(st.booleans()) else None)


@settings(max_examples=80, deadline=None, derandomize=True, database=None)
@given(valuations())
def test_every_name_made_in_bulk_is_the_name_made_alone(v):
    assert list(v) == [v[k] for k in range(len(v))]


@pytest.mark.slow
@settings(max_examples=200, deadline=None, derandomize=True, database=None)
@given(valuations())
def test_every_name_made_in_bulk_is_the_name_made_alone_many_examples(v):
    """The same property on 200 examples (80 in the default suite since 2026-12-04)."""
    test_every_name_made_in_bulk_is_the_name_made_alone.hypothesis.inner_test(v=v)


def test_a_block_boundary_keeps_the_order():
    import exactplay.interop.storm_arrays as sa

    n = sa._BLOCK + 3
    v = Valuations(["s", "b"], [list(range(n)), [i % 3 == 0 for i in range(n)]], list(reversed(range(n))))
    names = list(v)
    assert names[0] == f"s={n - 1} & b={'true' if (n - 1) % 3 == 0 else 'false'}" and names[-1] == "s=0 & b=true"
    assert names[sa._BLOCK] == v[sa._BLOCK] and len(names) == n
