"""The Race's float64 intervals (games/race/interval.py) against a second, independent statement of the
recurrence in plain :class:`fractions.Fraction` written here (no code shared with the race package):
every exact value, candidate, complement and the answer lies inside its interval, and every decision
the intervals call certified is the exact *unique* best ``t`` (a strict maximum, so a certified
decision at an exact tie would be caught too).  Also the wide pairs' conversions to one double."""

from __future__ import annotations

from fractions import Fraction

import pytest

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from exactplay.games.race import interval, wide
from exactplay.games.race.interval import interval_run


def reference(N: int, t_max: int):
    """``F[a][b]``, the candidates ``cand[(a, b)][t]`` and ``G(N, N)``, exactly:
    ``F(0, b) = 0``, ``F(a, 0) = G(a, 0) = 1``, ``F_t = (2 S_t + (2^t - 1) F(a-1, b)) / (2^t + 1)`` with
    ``S_t = 1`` if ``2^(t-1) >= b`` else ``G(a, b - 2^(t-1))``, ``F = max_t F_t``,
    ``G(a, b) = (F(a-1, b) + F(a, b)) / 2``."""
    F = [[Fraction(0)] * (N + 1) for _ in range(N + 1)]
    G = [[Fraction(0)] * (N + 1) for _ in range(N + 1)]
    for a in range(1, N + 1):
        F[a][0] = G[a][0] = Fraction(1)
    cand = {}
    for a in range(1, N + 1):
        for b in range(1, N + 1):
            c = {}
            for t in range(1, t_max + 1):
                d = 2 ** (t - 1)
                S = Fraction(1) if d >= b else G[a][b - d]
                c[t] = (2 * S + (2**t - 1) * F[a - 1][b]) / (2**t + 1)
            cand[(a, b)] = c
            F[a][b] = max(c.values())
            G[a][b] = (F[a - 1][b] + F[a][b]) / 2
    return F, cand, (F[N - 1][N] + F[N][N]) / 2


def _w(m, e) -> Fraction:
    return Fraction(float(m)) * Fraction(2) ** int(e) if m else Fraction(0)


def _unique_best(c: dict) -> int | None:
    best = max(c.values())
    winners = [t for t, v in c.items() if v == best]
    return winners[0] if len(winners) == 1 else None


@settings(max_examples=4, deadline=None)
@given(st.integers(1, 24), st.one_of(st.none(), st.integers(1, 9)))
def test_intervals_contain_an_independent_exact_race_and_certify_only_its_unique_best(N, t_max):
    run = interval_run(N, t_max, keep=True)
    t_max = run.t_max
    F, cand, answer = reference(N, t_max)
    T = run.tables
    certified = 0
    for a in range(1, N + 1):
        for b in range(1, N + 1):
            f = F[a][b]
            assert Fraction(T["F"][0, a, b]) <= f <= Fraction(T["F"][1, a, b]), (a, b)
            assert _w(T["Cm"][0, a, b], T["Ce"][0, a, b]) <= 1 - f <= _w(T["Cm"][1, a, b], T["Ce"][1, a, b]), (a, b)
            for t, v in cand[(a, b)].items():
                k = t - 1
                assert Fraction(T["cand_F"][0, k, a, b]) <= v <= Fraction(T["cand_F"][1, k, a, b]), (a, b, t)
                assert (_w(T["cand_Cm"][0, k, a, b], T["cand_Ce"][0, k, a, b]) <= 1 - v
                        <= _w(T["cand_Cm"][1, k, a, b], T["cand_Ce"][1, k, a, b])), (a, b, t)
            if T["certified"][a, b]:
                certified += 1
                assert int(T["best"][a, b]) == _unique_best(cand[(a, b)]), (a, b)
    assert certified == run.certified and run.decisions == N * N
    assert Fraction(run.answer[0]) <= answer <= Fraction(run.answer[1])
    assert Fraction(run.answer_complement[0]) <= 1 - answer <= Fraction(run.answer_complement[1])
    (lm, le), (hm, he) = run.answer_complement_wide
    assert _w(lm, le) <= 1 - answer <= _w(hm, he)
    for key, cell in (("after_player1_misses", (N, N)), ("after_player1_scores", (N - 1, N))):
        if cell[0] >= 1:
            t, sure = run.first[key]
            if sure:
                assert t == _unique_best(cand[cell]), key


@pytest.mark.slow
@settings(max_examples=10, deadline=None)
@given(st.integers(1, 24), st.one_of(st.none(), st.integers(1, 9)))
def test_intervals_contain_an_independent_exact_race_and_certify_only_its_unique_best_many_examples(N, t_max):
    """The same property on 10 examples (4 in the default suite since 2026-12-04)."""
    test_intervals_contain_an_independent_exact_race_and_certify_only_its_unique_best.hypothesis.inner_test(N=N, t_max=t_max)


@settings(max_examples=80, deadline=None)
@given(st.lists(st.tuples(st.floats(0, 1), st.floats(0, 1)), min_size=2, max_size=5), st.booleans())
def test_decide_certifies_only_a_candidate_strictly_above_every_other(pairs, touch):
    """``decide`` on arbitrary candidate intervals (the F form and the complement form of the same
    intervals): a certified pick is strictly separated from every other candidate in one of the forms;
    intervals that touch (``lo_w == hi_t``) or coincide (an exact tie) leave the cell unresolved."""
    lo = np.array([[min(p)] for p in pairs])
    hi = np.array([[max(p)] for p in pairs])
    if touch:  # candidate 1 reaches exactly the lower end of candidate 0
        hi[1, 0] = lo[0, 0]
        lo[1, 0] = min(lo[1, 0], hi[1, 0])
    (clm, cle), (chm, che) = wide.normal(wide.dn(1.0 - hi)), wide.normal(wide.up(1.0 - lo))
    best, sure = interval.decide(lo, hi, clm, cle, chm, che, np.arange(len(pairs))[:, None])
    w = int(best[0])
    if sure[0]:
        for t in range(len(pairs)):
            if t != w:
                assert lo[w, 0] > hi[t, 0] or wide.less(chm[w, 0], che[w, 0], clm[t, 0], cle[t, 0]), (w, t)
    tie = [lo.tolist(), hi.tolist()]
    lo2, hi2 = np.vstack([lo, lo[:1]]), np.vstack([hi, hi[:1]])  # candidate 0 twice: an exact tie
    (c2l, e2l), (c2h, e2h) = wide.normal(wide.dn(1.0 - hi2)), wide.normal(wide.up(1.0 - lo2))
    best2, sure2 = interval.decide(lo2, hi2, c2l, e2l, c2h, e2h, np.arange(len(pairs) + 1)[:, None])
    assert not (sure2[0] and int(best2[0]) in (0, len(pairs))), tie


@pytest.mark.slow
@settings(max_examples=200, deadline=None)
@given(st.lists(st.tuples(st.floats(0, 1), st.floats(0, 1)), min_size=2, max_size=5), st.booleans())
def test_decide_certifies_only_a_candidate_strictly_above_every_other_many_examples(pairs, touch):
    """The same property on 200 examples (80 in the default suite since 2026-12-04)."""
    test_decide_certifies_only_a_candidate_strictly_above_every_other.hypothesis.inner_test(pairs=pairs, touch=touch)


@settings(max_examples=100, deadline=None)
@given(st.floats(0.5, 1.0, exclude_max=True), st.integers(-1200, 4))
def test_wide_pairs_convert_outwards_to_one_double_even_below_the_subnormals(m, e):
    exact = Fraction(m) * Fraction(2) ** e
    lo, hi = wide.to_float_down(np.float64(m), np.int64(e)), wide.to_float_up(np.float64(m), np.int64(e))
    assert 0 <= Fraction(float(lo)) <= exact <= Fraction(float(hi))
    fm, fe = wide.normal(np.float64(float(hi)))
    assert _w(fm, fe) == Fraction(float(hi))  # normal is exact


@pytest.mark.slow
@settings(max_examples=300, deadline=None)
@given(st.floats(0.5, 1.0, exclude_max=True), st.integers(-1200, 4))
def test_wide_pairs_convert_outwards_to_one_double_even_below_the_subnormals_many_examples(m, e):
    """The same property on 300 examples (100 in the default suite since 2026-12-04)."""
    test_wide_pairs_convert_outwards_to_one_double_even_below_the_subnormals.hypothesis.inner_test(m=m, e=e)
