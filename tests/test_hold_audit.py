"""Audit of both float solvers of Hold or Continue?, and the claims ledger."""

from __future__ import annotations

import json

import pytest

from exactplay.claims import CONFIRMED, REFUTED, run_claim
from exactplay.cli.main import main
from exactplay.checker.rules import rules_module
from exactplay.checker.rules.canonical import rebuild
from exactplay.games.hold import CLAIMS, exact_table, run_audit
from exactplay.games.hold.model import certify
from exactplay.games.hold.solver import turn_of
from exactplay.numbers.backends import format_pq


pytestmark = pytest.mark.xdist_group("test_hold_audit")  # one worker for this file: its module-scoped fixtures
# are built once per suite, not once in each of the two xdist workers (--dist loadgroup)


@pytest.fixture(scope="module")
def audit20():
    return run_audit(20, 6)


def test_correct_float_solver_has_every_decision_certified_and_tiny_errors(audit20):
    d = audit20["decisions_float"]
    assert d.counts["certified"] == audit20["states"] == 19 * sum(19 - c for c in range(19))
    assert d.counts["wrong"] == d.counts["float-unresolvable"] == 0
    assert audit20["values_float"].max_abs < 1e-14
    assert audit20["candidate_error_float"][0] < 1e-13
    # the first-order rounding estimate covers what was measured, with room to spare
    assert audit20["values_float"].within_bound
    assert audit20["candidate_error_float"][0] < audit20["bound"] / 10


def test_published_solver_decisions_are_wrong_not_rounding(audit20):
    d = audit20["decisions_seed"]
    assert d.counts["wrong"] > 0
    assert d.counts["wrong"] == d.decisions_differ
    assert audit20["values_seed"].max_abs > 0.5


def test_audit_margins_and_counts_equal_an_exact_state_by_state_recount(audit20):
    """Recompute every query state's margin exactly (one exact turn per pair): the audit's
    smallest margin, where it is, and the number below 1e-5 must be the same."""
    t = exact_table(20, 6)
    margins = {}
    for c in range(19):
        for h in range(19):
            _, hv, cont, _ = turn_of(t, c, h)
            for x in range(2, 21 - c):
                margins[(c, h, x)] = abs(hv[x] - cont[x])
    at = min(margins, key=margins.get)
    d = audit20["decisions_seed"]
    assert d.smallest_gap == margins[at] and d.smallest_gap_at == at
    assert audit20["below_separation"] == sum(1 for g in margins.values() if g * 10**5 < 1)
    cert = certify(20, 6)  # its smallest margin: the same, at the same state (mover 0), by the engine
    assert cert["smallest_margin"]["value"] == format_pq(margins[at])
    module = rules_module("hold")
    names = rebuild(module.Rules(20, 6), 10**7).state_names
    assert names[cert["smallest_margin"]["state"]] == "(to move 0, scores {}-{}, turn total {})".format(*at)


def test_audit_cli_json_for_a_small_game(capsys):
    assert main(["audit", "hold", "--target", "12", "--faces", "4", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["params"] == {"target": 12, "faces": 4}
    assert data["decisions_float"]["counts"]["wrong"] == 0


def test_solve_cli_reports_the_first_player_value(capsys):
    assert main(["solve", "hold", "--target", "5", "--faces", "3"]) == 0
    out = capsys.readouterr().out
    assert "0.56250000" in out and "dead scores" in out


@pytest.mark.parametrize("argv,needle", [
    (["solve", "hold", "--target", "1"], "target must be between 2 and 150"),
    (["solve", "hold", "--faces", "six"], "faces must be a whole number"),
])
def test_bad_parameters_are_one_line_usage_errors(argv, needle, capsys):
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and needle in err


EXPECTED = {
    "hold.sample-exact": CONFIRMED,
    "hold.sample-published": REFUTED,
    "hold.symmetry": REFUTED,
    "hold.equal-scores": REFUTED,
    "hold.bisection-fixed-point": REFUTED,
    "hold.dead-74": CONFIRMED,
    "hold.edge-73-0-2": CONFIRMED,
    "hold.edge-72-0-2": CONFIRMED,
    "hold.edge-exact-hits": CONFIRMED,
    "hold.edge-73-73-2": CONFIRMED,
    "hold.terminates": CONFIRMED,
    "hold.separation": REFUTED,
}


@pytest.mark.slow  # heavy: out of the default suite's CPU budget
def test_every_fast_claim_has_the_verdict_found():
    assert {c.id for c in CLAIMS} == set(EXPECTED)
    for claim in CLAIMS:
        if not claim.slow:
            v = run_claim(claim)
            assert v.status == EXPECTED[claim.id], (claim.id, v)


@pytest.mark.slow
def test_statement_separation_1e5_fails_on_60_of_205350_query_states():
    """The statement promises |p_hold - p_continue| > 1e-5; over all 205,350 query states,
    60 are closer, the closest 2.99e-8 at (10, 69, 47)."""
    r = run_audit(75, 6)
    assert r["states"] == 205350
    assert r["below_separation"] == 60
    d = r["decisions_seed"]
    assert d.smallest_gap_at == (10, 69, 47) and 2.99e-8 < float(d.smallest_gap) < 3.0e-8
    assert r["decisions_float"].counts["certified"] == 205350
    v = run_claim(next(c for c in CLAIMS if c.id == "hold.separation"))
    assert v.status == REFUTED


@pytest.mark.parametrize("T,F", [(2, 6), (5, 2), (7, 3)])
def test_audit_json_is_valid_even_with_dead_scores_and_zero_values(T, F, capsys):
    """Relative errors at exact zeros are infinite; the JSON output must still be valid JSON."""
    assert main(["audit", "hold", "--target", str(T), "--faces", str(F), "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["query_states"] == (T - 1) * sum(T - 1 - c for c in range(T - 1))
