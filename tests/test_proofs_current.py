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


def _listed_v2():
    from exactplay.games import proofs_v2

    return [pytest.param(name, filename, params, id=f"{name}/{filename}")
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


def test_every_instance_has_a_v1_certificate_and_the_v2_ones_are_instances_of_it():
    """v2 certificates sit beside the v1 ones of the same instances (v1 stays readable and is
    kept where v2 does not fit: see the README's certificate section)."""
    for p in LISTED_V2:
        game, filename, _ = p.values
        assert filename.endswith("-v2.json")
        assert (PROOFS / game / filename.replace("-v2.json", ".json")).exists()


@pytest.mark.parametrize("filename", sorted(MODELS))
def test_regenerating_a_model_certificate_gives_the_committed_bytes(filename, tmp_path, capsys):
    from exactplay.cli import main

    assert main(["certify", *MODELS[filename], "-o", str(tmp_path / filename), "--quiet"]) == 0
    capsys.readouterr()
    assert (tmp_path / filename).read_bytes() == (PROOFS / "models" / filename).read_bytes(), \
        f"proofs/models/{filename} is stale: regenerate it with exactplay certify {' '.join(MODELS[filename])}"
