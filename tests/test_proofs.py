"""Every certificate under proofs/ re-verifies with the independent checker.

All of them, in the default suite: chefs n = 14 alone takes about two minutes,
which is why the suite runs on both cores (pytest-xdist, see pyproject.toml).
"""

from pathlib import Path

import pytest

from exactplay.checker import check_file

PROOFS = Path(__file__).resolve().parent.parent / "proofs"
CERTIFICATES = sorted(PROOFS.rglob("*.json"))


def test_every_seeded_game_has_certificates():
    games = {p.parent.name for p in CERTIFICATES}
    assert games == {"race", "hold", "chefs", "coins", "war"}


@pytest.mark.parametrize("path", CERTIFICATES, ids=lambda p: str(p.relative_to(PROOFS)))
def test_certificate_verifies(path):
    summary = check_file(path)
    assert summary
