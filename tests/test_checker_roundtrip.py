"""The strict checker accepts what the tool writes: certificates of many instances verify.

The checker now rejects every field it cannot re-derive (smallest gaps and
their states, answer names, digit counts, distances...), so it must re-derive
them exactly as the writer does, ties between equal gaps included.  This test
certifies seeded random and edge instances of every game and checks each.
"""

from __future__ import annotations

import json
import random
from fractions import Fraction

import pytest

from exactplay.checker import verify_certificate
from exactplay.games import get_game


def _instances():
    r = random.Random(9)
    out = [("race", {"target": n}) for n in (1, 2, 5, 7, 12)]
    out += [("hold", {"target": t, "faces": f}) for t in (2, 3, 4, 6, 9) for f in (2, 3, 5, 6)]
    out += [("coins", {"coins": (Fraction(1),)}), ("coins", {"coins": (Fraction(2), Fraction(2), Fraction(2))})]
    for _ in range(25):  # small values, many exact ties and equal gaps
        n = r.randrange(2, 8)
        out.append(("coins", {"coins": tuple(Fraction(r.choice([1, 1, 2, 3, 5]), r.choice([1, 2, 4]))
                                             for _ in range(n))}))
    out += [("chefs", {"n": n}) for n in (2, 3, 5, 9)]
    for _ in range(12):
        n = r.randrange(2, 6)
        out.append(("chefs", {"skills": ",".join(str(Fraction(r.randrange(1, 5), 4)) for _ in range(n))}))
    out += [("war", {"ranks": r_, "suits": s}) for r_, s in ((1, 2), (2, 1), (3, 2), (2, 3), (6, 1), (3, 4))]
    return out


@pytest.mark.parametrize("game, params", _instances(), ids=lambda x: str(x) if isinstance(x, str) else "")
def test_a_certificate_the_tool_writes_passes_the_strict_checker(game, params):
    cert = json.loads(json.dumps(get_game(game).certify(**params)))
    found = verify_certificate(cert, f"{game} {params}")
    assert found["game"] == game and found["summary"]
