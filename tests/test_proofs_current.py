"""proofs/ is current: regenerating each listed certificate gives the committed bytes.

Every certificate a game lists in ``Game.proofs`` is certified afresh and written
as ``exactplay certify`` writes it; the file must equal the one in proofs/, byte
for byte, informational fields (the float audit) included.  So a change to a
solver, to the audit or to the certificate format that changes a certificate
fails here until proofs/ is regenerated with the tool.

The two that take more than a few seconds to regenerate (hold 75/6 and chefs
n = 14, about 20 s each) run under the ``slow`` marker: ``pytest -m slow``.
Every file in proofs/ must be listed by its game, so none escapes the test.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from exactplay.certificate import write_certificate
from exactplay.games import game_names, get_game

PROOFS = Path(__file__).resolve().parent.parent / "proofs"
HEAVY = {"hold-75-6.json", "chefs-fib-14.json"}  # ~20 s each to certify


def _listed():
    out = []
    for name in game_names():
        game = get_game(name)
        for filename, params in game.proofs:
            marks = [pytest.mark.slow] if filename in HEAVY else []
            out.append(pytest.param(name, filename, params, marks=marks, id=f"{name}/{filename}"))
    return out


LISTED = _listed()


HEAVY_V2 = {"race-100-v2.json"}  # ~4 s of CPU to certify (policy only)


def _listed_v2():
    from exactplay.games import proofs_v2

    return [pytest.param(name, filename, params, id=f"{name}/{filename}",
                         marks=[pytest.mark.slow] if filename in HEAVY_V2 else [])
            for name in game_names() for filename, params in proofs_v2(name)]


LISTED_V2 = _listed_v2()  # certificates v2 (kind "game"): games/<name>/model.py's PROOFS_V2


# certificates of user models (proofs/models/): file -> the certify command's source arguments
ROOT = PROOFS.parent
MODELS = {
    "pig-10.json": ["--game", str(ROOT / "examples" / "pig.py") + ":make_game", "--param", "goal=10"],
    "loop-or-gamble.json": ["--model", str(ROOT / "examples" / "loop-or-gamble.json")],
}


def test_every_certificate_in_proofs_is_listed_by_its_game_and_every_listed_one_exists():
    listed = ({f"{p.values[0]}/{p.values[1]}" for p in LISTED + LISTED_V2} | {f"models/{f}" for f in MODELS})
    on_disk = {f"{p.parent.name}/{p.name}" for p in PROOFS.rglob("*.json")}
    assert listed == on_disk
    assert {p.values[1] for p in LISTED} >= HEAVY  # the slow ones are real entries, not typos


@pytest.mark.parametrize("game, filename, params", LISTED)
def test_regenerating_a_listed_certificate_gives_the_committed_bytes(game, filename, params, tmp_path):
    fresh = write_certificate(get_game(game).certify(**params), tmp_path / filename).read_bytes()
    committed = (PROOFS / game / filename).read_bytes()
    if fresh != committed:
        fresh_lines, old_lines = fresh.decode().splitlines(), committed.decode().splitlines()
        first = next((k for k, (a, b) in enumerate(zip(fresh_lines, old_lines)) if a != b),
                     min(len(fresh_lines), len(old_lines)))
        pytest.fail(f"proofs/{game}/{filename} is stale: line {first + 1} is "
                    f"{old_lines[first].strip()[:120] if first < len(old_lines) else '<end>'!r}, a fresh certificate has "
                    f"{fresh_lines[first].strip()[:120] if first < len(fresh_lines) else '<end>'!r}; "
                    f"regenerate it with `exactplay certify {game} ... -o proofs/{game}/{filename}`")


@pytest.mark.parametrize("game, filename, params", LISTED_V2)
def test_regenerating_a_listed_certificate_v2_gives_the_committed_bytes(game, filename, params, tmp_path):
    from exactplay.games import certify_v2

    fresh = write_certificate(certify_v2(game)(**params), tmp_path / filename).read_bytes()
    assert fresh == (PROOFS / game / filename).read_bytes(), \
        f"proofs/{game}/{filename} is stale: regenerate it with exactplay certify {game} ... --format v2"


# instances whose certificate stays version 1 only, and why (README, certificates section)
V1_ONLY = {
    "hold/hold-75-6.json": "410,850 states: 658 MB of values, 1.55 GB of exact margins at 399,896 choices",
    "chefs/chefs-fib-12.json": "policy-only v2 (16.5 MB) checks in ~12 s: check proofs/ would pass 30 s",
    "chefs/chefs-fib-14.json": "229,362 states with numbers of up to ~100,000 bits (its v1 check alone: 14 s)",
    "war/war-13x4.json": "the full deck's model has 610,350,368 states (the checker's limit: 3,000,000)",
}


def test_every_instance_has_a_v2_certificate_but_the_named_v1_only_ones():
    """Each v1 certificate of proofs/ has its v2 beside it (v1 stays readable and its small files are
    the v1 checker's fixtures), except the instances a v2 does not fit; race 100's v1 file is kept
    as a test fixture (tests/fixtures/race-100-v1.json), its v2 is in proofs/."""
    v2 = {f"{p.values[0]}/{p.values[1]}" for p in LISTED_V2}
    for p in LISTED:
        game, filename, _ = p.values
        name = f"{game}/{filename}"
        assert (name.replace(".json", "-v2.json") in v2) != (name in V1_ONLY), name
    assert "race/race-100-v2.json" in v2 and (ROOT / "tests" / "fixtures" / "race-100-v1.json").exists()


@pytest.mark.parametrize("filename", sorted(MODELS))
def test_regenerating_a_model_certificate_gives_the_committed_bytes(filename, tmp_path, capsys):
    from exactplay.cli import main

    assert main(["certify", *MODELS[filename], "-o", str(tmp_path / filename), "--quiet"]) == 0
    capsys.readouterr()
    assert (tmp_path / filename).read_bytes() == (PROOFS / "models" / filename).read_bytes(), \
        f"proofs/models/{filename} is stale: regenerate it with exactplay certify {' '.join(MODELS[filename])}"
