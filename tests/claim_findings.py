"""Each claim of the ledger run once per test process, shared by every test that needs its verdict.

A fast claim's check costs up to seconds (all of them about 8 s of CPU); test_claims (the ledger
and the findings table of docs/games.md) and each game's own verdict tests (test_war, test_coins,
test_chefs) ask for the same claims, so they share one run per process through ``finding``.
"""

from __future__ import annotations

import pytest

from exactplay.claims import Claim, Verdict
from exactplay.present.report.ledger import Finding, run_ledger

_FINDINGS: dict[str, Finding] = {}

ONE_WORKER = pytest.mark.xdist_group("claims-and-hold-75")
"""The tests that share this process's claim runs and Hold's tables at 75 (``exact_table()``,
``seed_table()``: about 4 s of CPU, built once per process; the claim hold.sample-exact reads
both): under pyproject's ``--dist loadgroup`` they all run in one xdist worker, so each of these
is computed once per suite instead of once per worker."""


def finding(claim: Claim) -> Finding:
    """The ledger's finding for ``claim`` (its check run the first time it is asked in this process)."""
    if claim.id not in _FINDINGS:
        _FINDINGS[claim.id] = run_ledger([claim])[0]
    f = _FINDINGS[claim.id]
    assert f.claim is claim, f"two claims with the id {claim.id}"
    return f


def verdict_of(claim: Claim) -> Verdict:
    """The verdict of ``claim`` as the ledger records it (run once per process)."""
    return finding(claim).verdict
