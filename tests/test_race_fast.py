"""The fast exact race table (games/race/exact.py: unreduced numerators over products of the
primes of 2^t + 1, one anti-diagonal at a time) gives exactly the reference recurrence's table:
the same values, the same chosen t (smallest on exact ties), the same candidates evaluated
exactly, in the same order."""

from __future__ import annotations

from fractions import Fraction

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from exactplay.games.race import denominators, exact, solve_table, t_limit
from exactplay.numbers.backends import as_fraction


def _as_fractions(table):
    N = table.target
    return [[as_fraction(table.F[a][b]) for b in range(N + 1)] for a in range(N + 1)], \
           [[as_fraction(table.G[a][b]) for b in range(N + 1)] for a in range(N + 1)]


@settings(max_examples=5, deadline=None)
@given(st.integers(1, 32), st.integers(-4, 2), st.booleans())
@example(1, 0, True)
@example(2, 0, True)
@example(32, -4, True)  # t_max = 4: few candidates, more exact comparisons
def test_fast_table_equals_the_reference_recurrence(target, t_shift, keep):
    """Against the Fraction reference (an independent number type) and the mpq reference."""
    t_max = max(1, t_limit(target) + t_shift)
    fast = solve_table(target, "mpq", t_max=t_max, keep_candidates=keep)
    ref = solve_table(target, "fraction", t_max=t_max, keep_candidates=keep)
    assert _as_fractions(fast) == _as_fractions(ref)
    assert list(fast.best_t.items()) == list(ref.best_t.items())
    if keep:
        assert list(fast.candidates) == list(ref.candidates)
        for cell, cands in fast.candidates.items():
            assert [(t, as_fraction(v)) for t, v in cands.items()] == list(ref.candidates[cell].items())
    ref_mpq = solve_table(target, "mpq", t_max=t_max, keep_candidates=keep, reference=True)
    assert fast.F == ref_mpq.F and fast.G == ref_mpq.G and fast.best_t == ref_mpq.best_t


@pytest.mark.slow
@settings(max_examples=12, deadline=None)
@given(st.integers(1, 32), st.integers(-4, 2), st.booleans())
@example(1, 0, True)
@example(2, 0, True)
@example(32, -4, True)  # t_max = 4: few candidates, more exact comparisons
def test_fast_table_equals_the_reference_recurrence_many_examples(target, t_shift, keep):
    """The same property on 12 examples (5 in the default suite since 2026-12-04)."""
    test_fast_table_equals_the_reference_recurrence.hypothesis.inner_test(target=target, t_shift=t_shift, keep=keep)


def test_the_denominators_are_products_of_the_primes_of_two_to_the_t_plus_one():
    """The derivation: no factor 2 survives in F, and every reduced denominator divides the
    unreduced one the fast solver keeps (which is a product of the primes of 2^t + 1)."""
    N = 30
    state = exact.solve(N, t_limit(N))
    primes = state.primes
    assert primes == (3, 5, 11, 13, 17, 19, 41, 43, 257)  # of 2^t + 1, t = 1..10 (1025 = 5^2 41)
    table = solve_table(N, "fraction")
    for a in range(1, N + 1):
        for b in range(1, N + 1):
            D = int(state.FD[a][b])
            den = table.F[a][b].denominator
            assert D % den == 0 and den % 2 == 1
            for p in primes:
                while D % p == 0:
                    D //= p
            assert D == 1
            assert Fraction(int(state.Fn[a][b]), int(state.FD[a][b])) == table.F[a][b]


@given(st.lists(st.integers(0, 5000), min_size=3, max_size=3), st.lists(st.integers(0, 5000), min_size=3, max_size=3))
def test_packed_lane_max_is_the_elementwise_max(x, y):
    guards = denominators.pack([1 << denominators.GUARD] * 3)
    assert denominators.unpack(denominators.lane_max(denominators.pack(x), denominators.pack(y), guards), 3) == tuple(map(max, x, y))


@given(st.integers(1, 2**3000), st.integers(0, 2**3000))
def test_ratio_pair_rounds_both_quotients_correctly(D, n):
    from gmpy2 import mpz

    n = n % (D + 1)
    f, c = denominators.ratio_pair(mpz(n), mpz(D))
    assert f == n / D and c == (D - n) / D  # Python's int / int is correctly rounded


def test_one_antidiagonal_reads_only_earlier_antidiagonals():
    """antidiagonal(state, s) is the unit of parallel work: solving s = 2..2N in order gives the
    table, and the cells of s need nothing from s or later (poison them and solve s again)."""
    N = 12
    state = exact.RaceState.start(N, t_limit(N))
    state.open_rows(1, N)
    for s in range(2, 2 * N + 1):
        exact.antidiagonal(state, s)
    done = {(a, b): (state.Fn[a][b], state.best_t[a][b]) for a in range(1, N + 1) for b in range(1, N + 1)}
    s = 13
    cells = [(a, s - a) for a in range(1, N + 1) if 1 <= s - a <= N]
    for a in range(1, N + 1):
        for b in range(1, N + 1):
            if a + b >= s:
                state.Fn[a][b] = state.Hn[a][b] = None
    exact.antidiagonal(state, s)
    assert all((state.Fn[a][b], state.best_t[a][b]) == done[(a, b)] for a, b in cells)


def test_bands_and_dropped_rows_change_nothing():
    """Solving in bands of rows (memory O(band * N)) gives the same table as whole
    anti-diagonals; keep_table=False keeps rows N-1, N (the answer) and refuses the others."""
    import pytest

    N = 23
    whole = exact.solve(N, t_limit(N), band=N)
    for band in (1, 5, 22):
        banded = exact.solve(N, t_limit(N), band=band)
        assert banded.best_t == whole.best_t and banded.Fn == whole.Fn and banded.FD == whole.FD
    lean = solve_table(N, "mpq", keep_table=False)
    full = solve_table(N, "fraction")
    assert lean.answer == full.answer and lean.best_t == full.best_t
    with pytest.raises(LookupError):
        lean.F[5][5]


def test_cli_limits_solve_to_2000_and_the_commands_that_keep_every_value_to_500(capsys):
    from exactplay.checker.rules import rules_module
    from exactplay.cli.main import main
    from exactplay.games import race

    assert race.MAX_TARGET == 2000 and race.MAX_AUDIT_TARGET == rules_module("race").MAX_TARGET == 500
    for argv in (["audit", "race", "--target", "501"], ["certify", "race", "--target", "501", "-o", "x.json"],
                 ["solve", "race", "--target", "2001"]):
        assert main(argv) == 2
        err = capsys.readouterr().err.strip().splitlines()
        assert len(err) == 1 and err[0].startswith("exactplay: error:") and "beyond" in err[0], err


def test_emptying_the_cofactor_memo_changes_nothing(monkeypatch):
    """The memo of cofactors is emptied when full (bounded memory at large targets)."""
    N = 25
    full = exact.solve(N, t_limit(N))
    monkeypatch.setattr(denominators.Cofactors, "limit", 3)
    small = exact.solve(N, t_limit(N))
    assert len(small.cof) <= 3
    assert small.Fn == full.Fn and small.FD == full.FD and small.best_t == full.best_t
