"""Hold or Continue?: the exact game against brute force, identities and the article's claims."""

from __future__ import annotations

from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from claim_findings import ONE_WORKER

from exactplay.bruteforce import assignments, gauss_jordan
from exactplay.engine.value_iteration import value_iteration
from exactplay.games.hold.model import make_game
from exactplay.model import build_model
from exactplay.games.hold import exact_table, float_table
from exactplay.games.hold.recurrence import alive_scores, turn_table
from exactplay.games.hold.solver import solve_table, turn_of
from exactplay.numbers.backends import as_fraction, get_backend

pytestmark = ONE_WORKER  # exact_table() and float_table() at 75, built once per process


@pytest.fixture
def small_tables_cached_apart(monkeypatch):
    """The small games' tables in caches of their own for the test: the process's caches keep four
    tables each, and five small ones evicted the (75, 6) tables this worker's group shares, which
    the tests at 75 below then built again (about 3 s of CPU)."""
    from exactplay.games.hold import tables

    monkeypatch.setattr(tables, "_EXACT_CACHE", {})
    monkeypatch.setattr(tables, "_FLOAT_CACHE", {})


def test_dead_scores_are_exactly_those_that_cannot_sum_to_the_target():
    """Brute force over multisets of faces: s is alive iff T - s is a sum of faces 2..F."""
    for T in range(2, 16):
        for F in range(2, 7):
            sums = {0}
            for _ in range(T):
                sums |= {s + d for s in sums for d in range(2, F + 1) if s + d <= T}
            assert alive_scores(T, F) == [(T - s) in sums for s in range(T)], (T, F)
    assert [s for s, ok in enumerate(alive_scores(75, 6)) if not ok] == [74]


def test_sample_answers_C_H_H_exactly():
    t = exact_table()
    assert [t.policy[c][h][x - 2] for c, h, x in [(15, 0, 3), (35, 50, 40), (15, 0, 30)]] == ["C", "H", "H"]


@pytest.mark.parametrize("T,F", [(5, 3), (7, 6), (9, 4), (11, 5), (10, 2)])
def test_exact_values_equal_plain_value_iteration(T, F, small_tables_cached_apart):
    """Plain float value iteration on the rules' model (the generic one, audited elsewhere)."""
    t = exact_table(T, F)
    model = build_model(make_game(T, F))
    vi = value_iteration(model, tol=4e-15)
    index = {lab: i for i, lab in enumerate(model.states)}
    game = make_game(T, F)
    starts = [(c, h, index[game.state_label((0, c, h, 0))]) for c in range(T) for h in range(T)
              if game.state_label((0, c, h, 0)) in index]
    assert len(starts) > T
    worst = max(abs(float(t.V[c][h]) - vi.values[i][0]) for c, h, i in starts)
    assert worst < 1e-12


def _start_by_policy(T, F, hold, policy, L):
    """Start value of a turn played by ``policy`` (backward recursion; independent of the solver)."""
    m = len(hold) - 1
    v = {}
    for x in range(m, 1, -1):
        if policy[x - 2] == "H":
            v[x] = hold[x]
        else:
            v[x] = (sum(v[x + d] if x + d <= m else L for d in range(2, F + 1)) + L) / F
    return (sum(v[d] if d <= m else L for d in range(2, F + 1)) + L) / F


def _affine(T, F, hold, policy):
    a = _start_by_policy(T, F, hold, policy, Fraction(0))
    return a, _start_by_policy(T, F, hold, policy, Fraction(1)) - a


@pytest.mark.parametrize("T,F", [(5, 3), (6, 4), (6, 3)])
def test_pair_values_are_the_maxmin_over_all_pure_policy_pairs(T, F, small_tables_cached_apart):
    """Exhaustive enumeration: V(c, h) = max over the mover's policies of min over the opponent's.

    Every policy holds on hitting T (so each turn can end the game); the holds
    use the exact values of pairs with a larger score sum.
    """
    t = exact_table(T, F, "fraction")
    alive = t.alive
    checked = 0
    for c in range(T):
        for h in range(c + 1, T):
            if not (alive[c] and alive[h]):
                continue
            hv_c = [Fraction(0)] * (T - c + 1)
            hv_h = [Fraction(0)] * (T - h + 1)
            for x in range(2, T - c):
                hv_c[x] = 1 - t.V[h][c + x] if alive[h] or alive[c + x] else Fraction(0)
            for x in range(2, T - h):
                hv_h[x] = 1 - t.V[c][h + x] if alive[c] or alive[h + x] else Fraction(0)
            hv_c[T - c] = hv_h[T - h] = Fraction(1)
            pols_c = ["".join(p.values()) + "H" for p in assignments({x: "HC" for x in range(T - c - 2)})]
            pols_h = ["".join(p.values()) + "H" for p in assignments({x: "HC" for x in range(T - h - 2)})]
            aff_c = [_affine(T, F, hv_c, p) for p in pols_c]
            aff_h = [_affine(T, F, hv_h, p) for p in pols_h]

            def U(i, j):
                (a1, b1), (a2, b2) = aff_c[i], aff_h[j]
                return (a1 + b1 * (1 - a2 - b2)) / (1 - b1 * b2)

            grid = [[U(i, j) for j in range(len(pols_h))] for i in range(len(pols_c))]
            maxmin = max(min(row) for row in grid)
            minmax = min(max(grid[i][j] for i in range(len(pols_c))) for j in range(len(pols_h)))
            assert maxmin == minmax == t.V[c][h], (c, h)
            checked += 1
    assert checked > 0


@pytest.mark.parametrize("T,F", [(5, 3), (5, 2), (4, 6)])
def test_values_match_the_markov_chain_of_the_rules_under_the_optimal_policies(T, F, small_tables_cached_apart):
    """Build the chain on (c, h, x) straight from the rules -- rolls, busts, holds, exact hits --
    for the solved policies, and solve for P(mover wins) and P(other wins) exactly, without
    assuming the game ends (a player who can never reach a win gets 0).  Equal to V: the
    equations, including the dead-score cases, model the rules."""
    import gmpy2

    t = exact_table(T, F, "fraction")
    states = [(c, h, x) for c in range(T) for h in range(T) for x in [0] + list(range(2, T - c + 1))]
    index = {s: i for i, s in enumerate(states)}
    WIN = "win"  # the mover of the state scores exactly T

    def moves(c, h, x):
        """(probability, next state or WIN, flip): flip means the next state's mover is the opponent."""
        q = gmpy2.mpq(1, F)
        if x > 0 and t.policy[c][h][x - 2] == "H":
            return [(gmpy2.mpq(1), WIN, False)] if c + x == T else [(gmpy2.mpq(1), (h, c + x, 0), True)]
        out = [(q, (h, c, 0), True)]  # a 1
        for d in range(2, F + 1):
            out.append((q, (c, h, x + d), False) if c + x + d <= T else (q, (h, c, 0), True))
        return out

    succ = {s: moves(*s) for s in states}
    # node 2i + k: player k (0 = mover of state i, 1 = the other) eventually wins
    N = 2 * len(states)
    can = [False] * N
    changed = True
    while changed:
        changed = False
        for s in states:
            i = index[s]
            for k in (0, 1):
                if can[2 * i + k]:
                    continue
                if any((nx == WIN and k == 0) or (nx != WIN and can[2 * index[nx] + (k ^ flip)])
                       for _, nx, flip in succ[s]):
                    can[2 * i + k] = changed = True
    keep = [n for n in range(N) if can[n]]
    pos = {n: r for r, n in enumerate(keep)}
    A = []
    for n in keep:
        i, k = divmod(n, 2)
        row = [gmpy2.mpq(0)] * (len(keep) + 1)
        row[pos[n]] += 1
        for q, nx, flip in succ[states[i]]:
            if nx == WIN:
                if k == 0:
                    row[-1] += q
            else:
                m = 2 * index[nx] + (k ^ flip)
                if m in pos:
                    row[pos[m]] -= q
        A.append(row)
    gauss_jordan(A, len(A))
    sol = [r[-1] for r in A]
    for c in range(T):
        for h in range(T):
            n = 2 * index[(c, h, 0)]
            value = sol[pos[n]] if n in pos else 0
            assert Fraction(int(value.numerator), int(value.denominator)) == t.V[c][h], (c, h)


@settings(max_examples=12, deadline=None)
@given(T=st.integers(2, 16), F=st.integers(2, 7), name=st.sampled_from(["mpq", "fraction"]))
def test_optimality_equations_hold_exactly_in_every_state(T, F, name):
    """Every state of a random small game: v = max(hold, cont) exactly, the policy attains it
    (holding exactly on ties), and V(c, h) is the start value of its turn."""
    t = solve_table(T, F, name)  # unguided: policy iteration from scratch
    B = get_backend(name)
    for c in range(T):
        for h in range(T):
            start, hv, cont, v = turn_of(t, c, h)
            assert start == t.V[c][h]
            for x in range(2, T - c + 1):
                assert v[x] == max(hv[x], cont[x])
                assert t.policy[c][h][x - 2] == ("H" if hv[x] >= cont[x] else "C")
            assert type(t.V[c][h]) is B.kind


def test_both_exact_backends_and_the_float_guide_give_the_same_game(exact_backend):
    ref = solve_table(14, 5, "fraction")
    t = solve_table(14, 5, exact_backend, guide=float_table(14, 5))
    assert all(as_fraction(t.V[c][h]) == ref.V[c][h] for c in range(14) for h in range(14))
    assert t.policy == ref.policy


def test_float_solver_agrees_with_exact_values_and_policy_at_75():
    e, f = exact_table(), float_table()
    worst = max(abs(float(e.V[c][h]) - f.V[c][h]) for c in range(75) for h in range(75))
    assert worst < 1e-14
    assert e.policy == f.policy
    assert e.repairs == 0


# ------------------------------------------------------------------ boundary cases


def test_holding_onto_exactly_75_is_worth_one_and_always_chosen():
    t = exact_table()
    assert all(t.policy[c][h][-1] == "H" for c in range(74) for h in range(74))
    for c in range(0, 74, 8):
        for h in range(3, 74, 10):
            _, hv, cont, _ = turn_of(t, c, h)
            assert hv[75 - c] == 1 and cont[75 - c] < 1 and t.policy[c][h][-1] == "H"


def test_a_hold_onto_74_is_worth_zero_and_never_chosen():
    t = exact_table()
    for h in (0, 30, 73):
        for c in range(0, 73, 9):
            _, hv, cont, _ = turn_of(t, c, h)
            x = 74 - c
            assert hv[x] == 0 and cont[x] > 0 and t.policy[c][h][x - 2] == "C"


def test_a_roll_that_busts_passes_the_turn_at_70_4():
    """(70, h, 4): every roll 2..6 would pass 75, so continuing is exactly the lost-turn value."""
    t = exact_table()
    for h in (0, 40, 73):
        _, hv, cont, _ = turn_of(t, 70, h)
        assert cont[4] == 1 - t.V[h][70]


def test_both_players_at_73_mover_wins_six_elevenths():
    """At 73-73 only a 2 wins: V = 1/6 + 5/6 (1 - V), so V = 6/11."""
    t = exact_table()
    assert as_fraction(t.V[73][73]) == Fraction(6, 11)
    assert t.policy[73][73] == "H"


def test_nobody_wins_when_both_players_are_dead():
    t = exact_table()
    assert t.V[74][74] == 0
    assert all(t.V[c][74] == 1 and t.V[74][c] == 0 for c in range(74))


# ------------------------------------------------------------------ the article's identities


def test_article_symmetry_dp_ch_plus_dp_hc_equals_one_is_false():
    """The article claims dp[c][h] + dp[h][c] = 1. Moving first is worth something:
    V(c,h) + V(h,c) > 1 for every alive pair (and 0 + 0 at 74-74)."""
    t = exact_table()
    sums = [t.V[c][h] + t.V[h][c] for c in range(74) for h in range(74)]
    assert min(sums) > 1
    assert t.V[74][74] + t.V[74][74] == 0


def test_article_equal_scores_worth_one_half_is_false():
    """The article stores dp[c][c] = 0.5; the mover at equal scores is ahead: V(c,c) > 1/2."""
    t = exact_table()
    assert all(t.V[c][c] > Fraction(1, 2) for c in range(74))
    assert float(t.V[0][0]) == pytest.approx(0.526921870272373, abs=1e-15)


def test_mover_win_plus_non_mover_win_is_one_for_alive_pairs():
    """The identity that does hold: P(mover wins) + P(non-mover wins) = 1, i.e. the game ends;
    the evidence is that every alive turn is worth strictly more than passing."""
    t = exact_table()
    assert all(t.V[c][h] > 1 - t.V[h][c] for c in range(74) for h in range(74))


def test_turn_table_generic_numbers_follow_the_seed_formula():
    """A turn with hand-checked values: T = 4, F = 3, c = 0, holds worth 1/2 at x = 2, 1 at x = 4."""
    B = get_backend("fraction")
    hv = [0, 0, Fraction(1, 2), Fraction(0), Fraction(1)]
    start, v, cont = turn_table(B, 3, hv, Fraction(1, 3))
    # x = 4: all rolls pass -> L; x = 3: rolls 2, 3 bust -> L; x = 2: roll 2 -> v[4] = 1, 3 busts
    assert cont[4] == Fraction(1, 3) and cont[3] == Fraction(1, 3)
    assert cont[2] == (1 + 2 * Fraction(1, 3)) / 3
    assert v[2] == Fraction(5, 9)
    assert start == (v[2] + v[3] + Fraction(1, 3)) / 3


def test_exact_fallback_for_close_comparisons_gives_the_same_game(monkeypatch):
    """Make the fixed-point shadow useless (error bound 2^200): every comparison is then
    decided in exact arithmetic, and the game must not change."""
    import exactplay.games.hold.solver as hs

    ref = solve_table(13, 4, "mpq", guide=float_table(13, 4))
    monkeypatch.setattr(hs, "fixed_error", lambda target: 2**200)
    t = solve_table(13, 4, "mpq", guide=float_table(13, 4))
    assert t.exact_fallbacks > 0 and ref.exact_fallbacks < t.exact_fallbacks
    assert t.V == ref.V and t.policy == ref.policy


def test_wrong_policy_guesses_are_repaired_by_exact_policy_iteration():
    """Guide the exact solver with 'always continue until the target' policies."""
    good = solve_table(15, 6, "mpq", guide=float_table(15, 6))
    bad = solve_table(15, 6, "float")
    for c in range(15):
        for h in range(15):
            bad.policy[c][h] = "C" * (len(bad.policy[c][h]) - 1) + "H" if bad.policy[c][h] else ""
    t = solve_table(15, 6, "mpq", guide=bad)
    assert t.repairs > 0
    assert t.V == good.V and t.policy == good.policy


def test_fixed_point_shadow_stays_within_its_proved_error_bound(small_tables_cached_apart):
    """turn_fixed from floor-rounded inputs is within fixed_error(T) units of the exact turn."""
    from exactplay.games.hold.recurrence import PRECISION, fixed_error, pass_value, to_fixed, turn_fixed

    T, F = 30, 6
    t = exact_table(T, F)
    B = get_backend("mpq")
    one = 1 << PRECISION
    worst = 0
    for c in range(0, T, 3):
        for h in range(0, T, 4):
            start, hv, cont, _ = turn_of(t, c, h)
            hv_f = [0, 0] + [one if x == T - c else (0 if hv[x] == 0 and not (t.alive[h] or t.alive[c + x])
                                                     else one - to_fixed(t.V[h][c + x]))
                             for x in range(2, T - c + 1)]
            L = pass_value(B, t.V, t.alive, h, c)
            s_f, _, cont_f = turn_fixed(F, hv_f, one - to_fixed(t.V[h][c]) if L != 0 else 0)
            worst = max(worst, abs(s_f - to_fixed(start)),
                        *(abs(cont_f[x] - to_fixed(cont[x])) for x in range(2, T - c + 1)))
    assert 0 < worst <= fixed_error(T)
