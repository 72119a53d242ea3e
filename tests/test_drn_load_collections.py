"""``solve --model FILE.drn`` reads the file with the cyclic garbage collector run less often (issue 26: the
collections walked the file's big arrays again and again, ~8 ms of a 0.16 s run of eajs): the read and the
mapping run inside :func:`~exactplay.model.collector.fewer_collections`, the collector's settings are as they
were afterwards (also when the file is refused), and the model is the one read without the block."""

from __future__ import annotations

import gc
from argparse import Namespace

import pytest

import exactplay.interop.drn as drn_module
from exactplay.api.model_source import load_drn_model
from exactplay.engine import solve_model
from exactplay.interop.drn import drn_to_model, parse_drn
from exactplay.model import ModelError
from exactplay.model.collector import YOUNG_COLLECTION_EVERY

TEXT = ("@type: MDP\n@parameters\n\n@reward_models\n\n@nr_states\n3\n@nr_choices\n4\n@model\n"
        "state 0 init\n\taction a\n\t\t1 : 1/2\n\t\t2 : 1/2\n\taction b\n\t\t1 : 1\n"
        "state 1\n\taction a\n\t\t0 : 1/3\n\t\t2 : 1/3\n\t\t1 : 1/3\n"
        "state 2 xgoal\n\taction a\n\t\t2 : 1\n")


def _args(path) -> Namespace:
    return Namespace(model=str(path), objective="Pmax", target="xgoal", avoid=None, reward=None, max_states=None)


def test_the_read_runs_with_fewer_collections_and_gives_the_same_model(tmp_path, monkeypatch):
    path = tmp_path / "m.drn"
    path.write_text(TEXT)
    seen = []
    real = drn_module.read_drn
    monkeypatch.setattr(drn_module, "read_drn", lambda *a: seen.append(gc.get_threshold()[0]) or real(*a))
    before = gc.get_threshold(), gc.get_freeze_count()
    model, order, drn = load_drn_model(_args(path))
    assert seen and seen[0] >= YOUNG_COLLECTION_EVERY
    assert (gc.get_threshold(), gc.get_freeze_count()) == before
    plain, plain_order = drn_to_model(parse_drn(TEXT), "Pmax", "xgoal")
    assert order == plain_order
    assert solve_model(model).values == solve_model(plain).values
    assert solve_model(model).values[0][0] == 1


def test_the_collectors_settings_come_back_when_the_file_is_refused(tmp_path):
    path = tmp_path / "bad.drn"
    path.write_text(TEXT.replace("\t\t1 : 1\n", "\t\t1 : 1/2\n"))
    before = gc.get_threshold(), gc.get_freeze_count()
    with pytest.raises(ModelError, match="sum to 1/2"):
        load_drn_model(_args(path))
    assert (gc.get_threshold(), gc.get_freeze_count()) == before
