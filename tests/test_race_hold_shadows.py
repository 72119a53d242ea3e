"""The race and hold exact solvers decide comparisons in a cheap shadow (race: floats with a
relative slack; hold: 128-bit fixed point with a proved error bound) and fall back to exact
arithmetic when it cannot separate.  Property: over every parameter the command line
accepts -- checked at small and extreme values here -- the shadowed solver gives exactly
the table of the plain exact path, which compares everything exactly (issue 9)."""

from __future__ import annotations

import math

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from exactplay.games import hold
from exactplay.games.hold.solver import solve_table as hold_table
from exactplay.games.race import solve_table as race_table


def race_tables_agree(target, backend="mpq"):
    shadowed = race_table(target, backend)
    plain = race_table(target, backend, shadow=False)
    assert shadowed.F == plain.F and shadowed.G == plain.G
    assert shadowed.best_t == plain.best_t  # the same T, smallest on ties, in every cell
    return shadowed


@settings(max_examples=6, deadline=None)
@given(st.integers(1, 40), st.sampled_from(["mpq", "fraction"]))
@example(1, "mpq")  # the smallest target the CLI accepts
@example(2, "fraction")
def test_race_shadow_gives_the_plain_exact_table(target, backend):
    race_tables_agree(target, backend)


@pytest.mark.slow
@settings(max_examples=15, deadline=None)
@given(st.integers(1, 40), st.sampled_from(["mpq", "fraction"]))
@example(1, "mpq")  # the smallest target the CLI accepts
@example(2, "fraction")
def test_race_shadow_gives_the_plain_exact_table_many_examples(target, backend):
    """The same property on 15 examples (6 in the default suite since 2026-12-04)."""
    test_race_shadow_gives_the_plain_exact_table.hypothesis.inner_test(target=target, backend=backend)


@pytest.mark.parametrize("backend", ["mpq", "fraction"])
def test_race_cells_with_tiny_shadows_evaluate_every_candidate(backend, monkeypatch):
    """Past target ~600 some shadow inputs are below 2^-960 (possibly subnormal): those cells
    skip the filter.  Raise TINY so the guard fires at target 30 (1 - F(a, 1) = 3^-a < 2^-20
    from a = 13 on): the tables still equal the plain path's, and the cells that read a tiny
    input keep every t (fast and reference paths alike)."""
    from exactplay.games.race import exact
    from exactplay.games.race import table as race_table_module

    monkeypatch.setattr(race_table_module, "TINY", 2.0**-20)  # where the recurrence reads it
    monkeypatch.setattr(exact, "TINY", 2.0**-20)
    race_tables_agree(30, backend)
    t = race_table(30, backend, keep_candidates=True)
    full = [c for c, v in t.candidates.items() if len(v) == t.t_max]
    assert (30, 1) in full and (29, 2) in full
    assert len(t.candidates[(1, 30)]) < t.t_max  # untouched cells still filter


def log2(x) -> float:
    return math.log2(int(x.numerator)) - math.log2(int(x.denominator))


@pytest.mark.slow
def test_race_shadow_inputs_stay_normal_floats_and_the_table_is_exact_at_the_cli_limit():
    """The race shadow's relative bound (6 * 2^-53 per candidate) needs every float it forms to
    be normal.  At the largest target (500; smaller targets give sub-tables of the same values)
    the smallest of F, G, 1 - F, 1 - G is 1 - F(500, 1) ~ 2^-792, and a term q S adds at most
    t_max bits more: far above 2^-1022.  Then check the outcome against the plain path.
    (Past ~600, 1 - F(a, 1) = 3^-a falls below race.TINY and such cells evaluate every
    candidate exactly: test_race_cells_with_tiny_shadows_evaluate_every_candidate.)"""
    N = 500
    table = race_tables_agree(N)
    smallest = min(log2(v) for tab in (table.F, table.G) for a in range(1, N + 1) for b in range(1, N + 1)
                   for v in (tab[a][b], 1 - tab[a][b]))
    assert smallest - table.t_max - 1 > -1022, smallest


def hold_tables_agree(target, faces, backend="mpq", plain_guide=None):
    shadowed = hold_table(target, faces, backend, guide=hold.float_table(target, faces))
    plain = hold_table(target, faces, backend, guide=plain_guide, shadow=False)
    assert shadowed.V == plain.V
    assert shadowed.policy == plain.policy  # ties hold in both
    return shadowed


@pytest.mark.slow  # heavy: out of the default suite's CPU budget
@settings(max_examples=15, deadline=None)
@given(st.integers(2, 30), st.integers(2, hold.MAX_FACES), st.sampled_from(["mpq", "fraction"]))
@example(2, 2, "mpq")  # the smallest game the CLI accepts
@example(2, hold.MAX_FACES, "fraction")  # more faces than points
@example(30, 2, "mpq")
@example(30, hold.MAX_FACES, "mpq")
def test_hold_fixed_point_shadow_gives_the_plain_exact_table(target, faces, backend):
    hold_tables_agree(target, faces, backend)


@pytest.mark.slow
@pytest.mark.parametrize("faces", [2, hold.MAX_FACES])
def test_hold_fixed_point_shadow_gives_the_plain_exact_table_at_larger_targets(faces):
    """Target 75 (the default); the plain run starts from the float policies (a first guess
    only: every comparison is still exact), since from 'greedy at 1/2' it takes minutes."""
    hold_tables_agree(75, faces, plain_guide=hold.float_table(75, faces))


def test_hold_plain_path_compares_exactly_and_never_uses_the_fixed_point(monkeypatch):
    """shadow=False really is the plain path: a broken fixed point cannot change it."""
    import exactplay.games.hold.solver as hs

    ref = hold_table(13, 4, "mpq", shadow=False)

    def broken(*args, **kwargs):
        raise AssertionError("fixed point used on the plain path")

    monkeypatch.setattr(hs, "turn_fixed", broken)
    monkeypatch.setattr(hs, "to_fixed", broken)
    again = hold_table(13, 4, "mpq", shadow=False)
    assert again.V == ref.V and again.policy == ref.policy and again.exact_fallbacks == 0
