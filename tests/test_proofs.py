"""Every certificate under proofs/ re-verifies with the independent checker.

Those of at most 2 MB in the default suite; the two larger ones, chefs n = 14 and hold 75/6 (about
25 and 20 s of CPU with gmpy2's integers, half the suite's budget), are marked ``slow``: ``.ci/run``
re-verifies every certificate with ``exactplay check proofs/`` (the README's first command) after the
tests, so CI checks them all.
"""

from pathlib import Path

import pytest

from exactplay.checker import check_file

PROOFS = Path(__file__).resolve().parent.parent / "proofs"
CERTIFICATES = sorted(PROOFS.rglob("*.json"))
LARGE = 2_000_000  # bytes: a larger certificate's check is a slow test


def _param(path: Path):
    marks = [pytest.mark.slow] if path.stat().st_size > LARGE else []
    return pytest.param(path, marks=marks, id=str(path.relative_to(PROOFS)))


def test_every_seeded_game_has_certificates():
    games = {p.parent.name for p in CERTIFICATES}
    assert games == {"race", "hold", "chefs", "coins", "war", "models"}


@pytest.mark.parametrize("path", [_param(p) for p in CERTIFICATES])
def test_certificate_verifies(path):
    summary = check_file(path)
    assert summary
