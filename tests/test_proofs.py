"""Every certificate under proofs/ re-verifies with the independent checker.

Those of at most 2 MB in the default suite; the two larger ones, chefs n = 14 and hold 75/6 (about
25 and 20 s of CPU with gmpy2's integers, half the suite's budget), and the two heaviest below it
(``HEAVY``: chefs n = 12 and race 100) are marked ``slow``: ``.ci/run``
re-verifies every certificate with ``exactplay check proofs/`` (the README's first command) after the
tests, so CI checks them all.
"""

from pathlib import Path

import pytest

from exactplay.checker import check_file

PROOFS = Path(__file__).resolve().parent.parent / "proofs"
CERTIFICATES = sorted(PROOFS.rglob("*.json"))
LARGE = 2_000_000  # bytes: a larger certificate's check is a slow test
# The heaviest checks under 2 MB (3 s and 1 s of CPU): slow tests, as their games' smaller
# certificates of the same kind (chefs-fib-10, the other race targets) are checked here by default.
HEAVY = {"chefs/chefs-fib-12.json", "race/race-100.json"}


def _param(path: Path):
    heavy = path.stat().st_size > LARGE or str(path.relative_to(PROOFS)) in HEAVY
    marks = [pytest.mark.slow] if heavy else []
    return pytest.param(path, marks=marks, id=str(path.relative_to(PROOFS)))


def test_every_seeded_game_has_certificates():
    games = {p.parent.name for p in CERTIFICATES}
    assert games == {"race", "hold", "chefs", "coins", "war", "models"}


@pytest.mark.parametrize("path", [_param(p) for p in CERTIFICATES])
def test_certificate_verifies(path):
    summary = check_file(path)
    assert summary
