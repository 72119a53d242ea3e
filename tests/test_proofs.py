"""Every certificate under proofs/ re-verifies with the independent checker.

All of them, in the default suite: chefs n = 14 and hold 75/6 are the longest, about 25 and 18 s
of CPU with gmpy2's integers (the checker's ``--stdlib`` mode takes minutes).
"""

from pathlib import Path

import pytest

from exactplay.checker import check_file

PROOFS = Path(__file__).resolve().parent.parent / "proofs"
CERTIFICATES = sorted(PROOFS.rglob("*.json"))


def test_every_seeded_game_has_certificates():
    games = {p.parent.name for p in CERTIFICATES}
    assert games == {"race", "hold", "chefs", "coins", "war", "models"}


@pytest.mark.parametrize("path", CERTIFICATES, ids=lambda p: str(p.relative_to(PROOFS)))
def test_certificate_verifies(path):
    summary = check_file(path)
    assert summary
