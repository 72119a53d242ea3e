"""War sweep: exact DP, brute force, the seed's float program and its claims."""

from __future__ import annotations

import functools
import math
from fractions import Fraction

import pytest
from claim_findings import ONE_WORKER, verdict_of
from hypothesis import given, settings
from hypothesis import strategies as st

from exactplay.claims import CONFIRMED, REFUTED
from exactplay.cli.main import main
from exactplay.games import war
from exactplay.numbers.backends import as_fraction


@functools.lru_cache(maxsize=None)
def full_deck(backend: str) -> list:
    """The 13 x 4 turn distributions, computed once per backend for this module."""
    return war.turn_distributions(13, 4, backend)


def _successors(m: tuple) -> list:
    """``(m', ways)`` for every pair of distinct ranks, ``m[k-1]`` ranks with k cards left: the cards of
    two different ranks with ``a`` and ``b`` cards can be chosen in ``m_a m_b a b`` ways (``C(m_a, 2) a^2``
    if ``a == b``), and of the two ways to hand them to A and B exactly one is a win for A."""
    S = len(m)
    out = []
    for a in range(1, S + 1):
        for b in range(a, S + 1):
            ma, mb = m[a - 1], m[b - 1]
            ways = ma * (ma - 1) // 2 * a * a if a == b else ma * mb * a * b
            if ways == 0:
                continue
            v = list(m)
            for k in (a, b):
                v[k - 1] -= 1
                if k > 1:
                    v[k - 2] += 1
            out.append((tuple(v), ways))
    return out


def counted_deals(ranks: int, suits: int) -> Fraction:
    """p by integer counting of card-level deals over multiplicity vectors (the seed's discarded second
    representation; shares nothing with the DP)."""
    W = {tuple([0] * (suits - 1) + [ranks]): 1}
    for _ in range(ranks * suits // 2):
        nxt = {}
        for m, w in W.items():
            for m2, ways in _successors(m):
                nxt[m2] = nxt.get(m2, 0) + w * ways
        W = nxt
    return Fraction(sum(W.values()), math.factorial(ranks * suits))


# ---------------------------------------------------------------- exact values


def test_full_deck_dp_equals_independent_deal_count_in_both_backends(exact_backend):
    p = war.sweep_probability(13, 4, exact_backend)
    assert type(p) is exact_backend.kind
    assert as_fraction(p) == counted_deals(13, 4)
    assert as_fraction(p) == Fraction(93686147409122073121, 29908397871631390876014250000)


def test_every_stored_probability_has_the_backend_type(exact_backend):
    for P in war.turn_distributions(6, 2, exact_backend):
        for deck, v in P.items():
            exact_backend.check(v, deck)


def test_first_turn_total_is_probability_of_different_ranks_over_two():
    """P(A wins turn 1) = (n^2 - sum c^2) / (2 n (n-1)); 24/51 for the full deck."""
    for ranks, suits in ((13, 4), (5, 2), (3, 4)):
        n = ranks * suits
        dists = full_deck("mpq") if (ranks, suits) == (13, 4) else war.turn_distributions(ranks, suits)
        first = sum(as_fraction(v) for v in dists[1].values())
        assert first == Fraction(n * n - ranks * suits * suits, 2 * n * (n - 1))
    assert sum(full_deck("fraction")[1].values()) == Fraction(24, 51)


def test_total_probability_never_increases_turn_by_turn():
    totals = [sum(P.values()) for P in full_deck("fraction")]
    assert all(b < a for a, b in zip(totals, totals[1:]))


def test_expected_games_is_one_over_twice_p(exact_backend):
    p = war.sweep_probability(4, 2, exact_backend)
    assert as_fraction(war.expected_games(p)) == Fraction(14)  # p = 1/28


@pytest.mark.parametrize("rs", sorted(war.SEED_SMALL_DECKS))
def test_abstract_dp_equals_exact_brute_force_on_every_seed_deck(rs):
    assert as_fraction(war.sweep_probability(*rs, "mpq")) == war.brute_force(*rs)


@pytest.mark.parametrize("rs", sorted(war.SEED_SMALL_DECKS))
def test_seed_four_decimal_table_matches_exact_brute_force(rs):
    assert f"{float(war.brute_force(*rs)):.4f}" == war.SEED_SMALL_DECKS[rs]


@settings(max_examples=15, deadline=None)
@given(st.lists(st.integers(1, 3), min_size=1, max_size=5).filter(lambda c: sum(c) % 2 == 0 and sum(c) <= 10))
def test_abstract_dp_equals_brute_force_on_random_tiny_decks(counts):
    """Unsorted, uneven counts: the sorted-count abstraction loses nothing."""
    p = war.distributions(tuple(counts), "fraction")[-1]
    assert sum(p.values(), Fraction(0)) == war.brute_force_counts(counts)


@pytest.mark.slow
@settings(max_examples=40, deadline=None)
@given(st.lists(st.integers(1, 3), min_size=1, max_size=5).filter(lambda c: sum(c) % 2 == 0 and sum(c) <= 10))
def test_abstract_dp_equals_brute_force_on_random_tiny_decks_many_examples(counts):
    """The same property on 40 examples (15 in the default suite since 2026-12-04)."""
    test_abstract_dp_equals_brute_force_on_random_tiny_decks.hypothesis.inner_test(counts=counts)


def test_eight_card_decks_are_one_sixteenth_and_one_twenty_eighth():
    assert war.brute_force(8, 1) == Fraction(1, 16)
    assert war.brute_force(4, 2) == Fraction(1, 28)
    assert float(Fraction(1, 28)) == war.SEED_EIGHT_CARD[(4, 2)]


def test_seed_brute_force_mean_is_the_correctly_rounded_exact_probability():
    """statistics.mean over bools sums exactly and rounds once (decks up to 8 cards)."""
    for rs in war.SEED_SMALL_DECKS:
        if rs[0] * rs[1] <= 8:
            assert war.seed_p_sweeps(*rs) == float(war.brute_force(*rs))


def test_arrangements_enumerates_each_distinct_word_once():
    words = [tuple(w) for w in war.arrangements({1: 2, 2: 1, 3: 1})]
    assert len(words) == len(set(words)) == 12


# ---------------------------------------------------------------- the seed's float program


def test_float_port_reproduces_every_printed_turn_float_bit_for_bit():
    flt = full_deck("float")
    for turn, printed in war.SEED_TURNS.items():
        assert flt[turn] == printed


def test_seed_printed_turn_decks_are_exactly_the_reachable_decks():
    exact = full_deck("fraction")
    for turn, printed in war.SEED_TURNS.items():
        assert set(printed) == set(exact[turn])


def test_seed_turn_floats_are_right_to_about_15_digits_but_mostly_not_correctly_rounded():
    exact = full_deck("fraction")[:5]
    flt = full_deck("float")[:5]
    rows = war.compare_printed_turns(exact, flt)
    assert len(rows) == 26
    assert min(r["correct_digits"] for r in rows) > 14.5
    assert max(r["ulps"] for r in rows) < 20
    assert sum(r["correctly_rounded"] for r in rows) == 1


def test_seed_claims_24_51_is_0_47058823529411703_but_that_float_is_11_ulps_off():
    x = Fraction(24, 51)
    assert float(x) == 0.47058823529411764
    assert war.SEED_24_51 != float(x)
    assert round(abs(Fraction(war.SEED_24_51) - x) / Fraction(math.ulp(war.SEED_24_51))) == 11


def test_seed_p_3_132436174322299e_09_is_the_float_program_not_the_exact_value():
    p = as_fraction(sum(full_deck("mpq")[-1].values()))
    pf = sum(full_deck("float")[-1].values())
    assert pf == war.SEED_P
    assert float(p) == 3.132436174322294e-09 != war.SEED_P
    assert 14 < war.correct_digits(pf, p) < 16


def test_seed_expected_games_and_ratio_are_the_float_values_of_exact_ones():
    p = as_fraction(sum(full_deck("mpq")[-1].values()))
    assert 1 / (2 * sum(full_deck("float")[-1].values())) == war.SEED_GAMES
    assert abs(Fraction(war.SEED_GAMES) - 1 / (2 * p)) < Fraction(1, 10**6)
    ratio = p / Fraction(24, 51) ** 26
    assert abs(Fraction(war.SEED_RATIO) - ratio) < Fraction(1, 10**14)
    assert float(ratio) != war.SEED_RATIO


def test_seed_delta_zero_claim_is_false_float_dp_differs_from_brute_force():
    """The seed prints Delta = 0.000000000 for every small deck; to 9 decimals only."""
    nonzero = 0
    for rs in war.SEED_SMALL_DECKS:
        exact = as_fraction(war.sweep_probability(*rs, "mpq"))
        delta = abs(float(exact) - war.sweep_probability(*rs, "float"))
        assert delta < 5e-10  # why it prints as zero
        nonzero += delta > 0
    assert nonzero == 7
    assert war.sweep_probability(4, 1, "float") != 0.25


def test_a_priori_bound_holds_for_every_entry_and_is_not_vacuous():
    audits = {rs: war.run_audit(*rs, "mpq") for rs in ((13, 4), (5, 2), (6, 3))}
    for r in audits.values():
        assert r["entries_over_bound"] == 0
        assert r["p_rel_error"] <= r["p_rel_bound"] < 1e-11
    r = audits[13, 4]  # mpq is run_audit's default backend: the full deck's audit is run once
    assert 4 * 26 < r["p_rounding_depth"] == war._sum_depth(war.rounding_depths(13, 4)[-1])
    assert r["worst_error_over_bound"] > 0.01


def test_seed_abstract_deck_counts_two_cards_two_cases_four_cards_five():
    assert war.abstract_decks(2) == [(1, 1), (2,)]
    assert len(war.abstract_decks(4)) == 5
    assert len(war.abstract_decks(52)) == 1


# ---------------------------------------------------------------- claims, CLI


@ONE_WORKER  # the claims run once per process: with test_claims' run of them all
def test_claims_verdicts():
    expected_refuted = {"war.first-turn", "war.delta-zero"}
    for claim in war.CLAIMS:
        if claim.slow:
            continue
        v = verdict_of(claim)
        assert v.status == (REFUTED if claim.id in expected_refuted else CONFIRMED), (claim.id, v)


@pytest.mark.slow
def test_seed_brute_force_over_all_permutations_of_ten_card_decks():
    """The seed's own p_sweeps over 10! permutations: correctly rounded, and != float DP."""
    for rs in ((5, 2), (2, 5)):
        p1 = war.seed_p_sweeps(*rs)
        assert p1 == float(war.brute_force(*rs))
        assert p1 != war.sweep_probability(*rs, "float")


def test_cli_solve_prints_fraction_decimal_and_expected_games(capsys):
    assert main(["solve", "war", "--ranks", "4", "--suits", "2"]) == 0
    out = capsys.readouterr().out
    assert "1/28" in out and "14/1" in out and "0.035714286" in out


@pytest.mark.parametrize("args, text", [
    (["--ranks", "3", "--suits", "3"], "even number of cards"),
    (["--ranks", "0"], "at least 1"),
    (["--suits", "x"], "whole number"),
    (["--ranks", "99"], "limit"),
])
def test_cli_bad_deck_is_one_line_exit_2(capsys, args, text):
    assert main(["solve", "war", *args]) == 2
    err = capsys.readouterr().err
    assert text in err and err.count("\n") == 1


def test_cli_audit_reports_printed_turns(capsys):
    assert main(["audit", "war", "--json"]) == 0
    import json

    data = json.loads(capsys.readouterr().out)
    assert data["p_float"] == war.SEED_P
    assert all(r["port_reproduces_printed"] for r in data["seed_printed_turns"])
    assert data["entries_over_their_bound"] == 0


def test_one_rank_deck_cannot_be_swept(capsys):
    assert as_fraction(war.sweep_probability(1, 2, "mpq")) == 0
    assert main(["solve", "war", "--ranks", "1", "--suits", "2"]) == 0
    assert "impossible" in capsys.readouterr().out


@pytest.mark.parametrize("command", ["audit", "certify"])
def test_audit_and_certify_of_a_deck_that_cannot_be_swept_have_zero_error(command, capsys, tmp_path):
    """p = 0 (one rank): no final deck, so the bound's chain is empty, not an error."""
    extra = ["-o", str(tmp_path / "w.json")] if command == "certify" else []
    assert main([command, "war", "--ranks", "1", "--suits", "2", *extra]) == 0
    r = war.run_audit(1, 2)
    assert r["p"] == 0 and r["p_abs_error"] == 0.0 and r["p_rounding_depth"] == 0
