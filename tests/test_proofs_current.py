"""proofs/ is current: regenerating each listed certificate gives the committed bytes.

Every certificate a game lists in ``Game.proofs`` (``games/<name>/model.py``'s ``PROOFS``) is
certified afresh and written as ``exactplay certify`` writes it; the file must equal the one in
proofs/, byte for byte.  So a change to a model, to the engine or to the certificate format that
changes a certificate fails here until proofs/ is regenerated with the tool.

The three that take more than a few seconds to regenerate (hold 75/6, chefs n = 12 and 14:
about 90, 11 and 175 s of CPU) run under the ``slow`` marker: ``pytest -m slow``.
Every file in proofs/ must be listed by its game, so none escapes the test.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from exactplay.certify.write import write_certificate
from exactplay.games import game_names, get_game

PROOFS = Path(__file__).resolve().parent.parent / "proofs"
HEAVY = {"hold-75-6.json", "chefs-fib-12.json", "chefs-fib-14.json", "race-100.json"}  # seconds to minutes


def _listed():
    out = []
    for name in game_names():
        game = get_game(name)
        for filename, params in game.proofs:
            marks = [pytest.mark.slow] if filename in HEAVY else []
            out.append(pytest.param(name, filename, params, marks=marks, id=f"{name}/{filename}"))
    return out


LISTED = _listed()

# certificates of user models (proofs/models/): file -> the certify command's source arguments
ROOT = PROOFS.parent
MODELS = {
    "pig-10.json": ["--game", str(ROOT / "examples" / "pig.py") + ":make_game", "--param", "goal=10"],
    "loop-or-gamble.json": ["--model", str(ROOT / "examples" / "loop-or-gamble.json")],
    "cash-or-wait.json": ["--model", str(ROOT / "examples" / "cash-or-wait.json")],  # the reward witness
}


def test_every_certificate_in_proofs_is_listed_by_its_game_and_every_listed_one_exists():
    listed = {f"{p.values[0]}/{p.values[1]}" for p in LISTED} | {f"models/{f}" for f in MODELS}
    on_disk = {f"{p.parent.name}/{p.name}" for p in PROOFS.rglob("*.json")}
    assert listed == on_disk
    assert {p.values[1] for p in LISTED} >= HEAVY  # the slow ones are real entries, not typos


def test_every_built_in_certificate_is_version_2_of_kind_game():
    import json

    for p in LISTED:
        cert = json.loads((PROOFS / p.values[0] / p.values[1]).read_text())
        assert (cert["version"], cert["kind"], cert["game"]) == (2, "game", p.values[0]), p.values[1]


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


@pytest.mark.parametrize("filename", sorted(MODELS))
def test_regenerating_a_model_certificate_gives_the_committed_bytes(filename, tmp_path, capsys):
    from exactplay.cli.main import main

    assert main(["certify", *MODELS[filename], "-o", str(tmp_path / filename), "--quiet"]) == 0
    capsys.readouterr()
    assert (tmp_path / filename).read_bytes() == (PROOFS / "models" / filename).read_bytes(), \
        f"proofs/models/{filename} is stale: regenerate it with exactplay certify {' '.join(MODELS[filename])}"
