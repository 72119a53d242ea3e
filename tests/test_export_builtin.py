"""``export GAME`` and ``crosscheck GAME`` use the game's own model, the one its certificate is of:
the exported JSON model's canonical digest is the ``model_sha256`` of ``certify GAME`` at the same
parameters, and Storm's exact engine agrees with the engine on it state by state."""

import json

import pytest

from cli_run import run
from exactplay.model import load_model_file
from exactplay.model.canonical import canonical_model, model_digest
from exactplay.registry import game_names

# game -> its parameters on the command line (small instances)
INSTANCES = {
    "race": ["--target", "3"],
    "hold": ["--target", "5", "--faces", "3"],
    "coins": ["3", "9", "1/2", "2"],
    "war": ["--ranks", "3", "--suits", "2"],
    "chefs": ["--n", "3"],
}


def test_every_built_in_game_has_an_instance():
    assert set(INSTANCES) == set(game_names())


def _certified_digest(capsys, game: str) -> str:
    status, out, err = run(capsys, "certify", game, *INSTANCES[game], "-o", "-")
    assert status == 0, err
    return json.loads(out)["model_sha256"]


@pytest.mark.parametrize("game", sorted(INSTANCES))
def test_export_writes_the_model_the_certificate_holds(capsys, tmp_path, game):
    path = tmp_path / f"{game}.json"
    status, out, err = run(capsys, "export", game, *INSTANCES[game], "--format", "json", "-o", path)
    assert status == 0 and f"wrote {path}: the explicit model" in out, err
    exported = model_digest(canonical_model(load_model_file(path)))
    assert exported == _certified_digest(capsys, game)


def test_export_race_3_is_certify_race_3s_model(capsys, tmp_path):
    path = tmp_path / "race.json"
    assert run(capsys, "export", "race", "--target", "3", "--format", "json", "-o", path)[0] == 0
    digest = model_digest(canonical_model(load_model_file(path)))
    assert digest == _certified_digest(capsys, "race")
    # another target is another model: the comparison can fail
    status, out, _ = run(capsys, "certify", "race", "--target", "4", "-o", "-")
    assert status == 0 and json.loads(out)["model_sha256"] != digest


@pytest.mark.parametrize("game", sorted(INSTANCES))
def test_crosscheck_of_the_games_own_model_agrees_with_storm(capsys, game):
    status, out, err = run(capsys, "crosscheck", game, *INSTANCES[game], "--json", "-q")
    assert status == 0, err
    report = json.loads(out)
    assert report["verdict"] == "agree" and report["checks"]
    assert all(c["agree"] and c["compared"] == report["states"] for c in report["checks"])
    assert report["source"].startswith(f"exactplay.games.{game}.model:make_game")


def test_export_of_a_built_in_game_refuses_a_factory_parameter(capsys):
    status, out, err = run(capsys, "export", "race", "--param", "target=3", "--format", "json", "-o", "-")
    assert status == 2 and out == ""
    assert err == ("exactplay: error: --param is an option of a --game factory (exactplay export --game "
                   "MOD:FACTORY --param ...); race takes --target\n")
