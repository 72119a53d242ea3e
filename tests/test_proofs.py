"""Every certificate under proofs/ re-verifies with the independent checker."""

import json
from pathlib import Path

import pytest

from exactplay.checker import check_file

PROOFS = Path(__file__).resolve().parent.parent / "proofs"
CERTIFICATES = sorted(PROOFS.rglob("*.json"))


def _slow_check(path: Path) -> bool:
    """A certificate may declare ``"slow_check": true`` (its check takes minutes): slow suite only."""
    try:
        return json.loads(path.read_text(encoding="utf-8")).get("slow_check") is True
    except (OSError, ValueError, AttributeError):
        return False  # let the check itself report the problem


def _param(path: Path):
    return pytest.param(path, marks=pytest.mark.slow) if _slow_check(path) else path


def test_every_seeded_game_has_certificates():
    games = {p.parent.name for p in CERTIFICATES}
    assert {"race"} <= games


@pytest.mark.parametrize("path", [_param(p) for p in CERTIFICATES], ids=lambda p: str(p.relative_to(PROOFS)))
def test_certificate_verifies(path):
    summary = check_file(path)
    assert summary
