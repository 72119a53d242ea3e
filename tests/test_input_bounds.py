"""Every count a user's file declares is bounded before it is built (issue 22, items 2-4).

A tiny file must not make the tool allocate gigabytes: the players a model declares, the states of
a JSON model, a DRN file or a Python game past ``--max-states``, and the bytes a gzip file inflates
to are all refused before what lies past the limit is built.  The memory of each refusal is
measured with ``tracemalloc`` (the Python heap) on files just past lowered limits, so that the tests
stay fast; ``benchmarks/hostile.py`` measures the full-size files (10^7 states, a 3 GB bomb) in
separate processes.
"""

from __future__ import annotations

import gzip
import json
import shutil
import tracemalloc
from pathlib import Path

import pytest

from cli_run import run, strict
from exactplay.checker import _load
from exactplay.interop import drn_read
from exactplay.model import ModelError, build_model, explicit, load_model_file
from exactplay.model.explicit_read import StateReader

ROOT = Path(__file__).resolve().parent.parent
LOOP = ROOT / "examples" / "loop-or-gamble.json"
RUIN = ROOT / "tests" / "fixtures" / "storm" / "gamblers_ruin.drn"
RACE5 = ROOT / "examples" / "race-5-float.csv"
MB = 1024**2


def refused(capsys, *argv, status: int = 2) -> str:
    """``exactplay ARGV`` fails with ``status`` and one line on stderr; the line."""
    got, out, err = run(capsys, *argv)
    assert got == status, (got, err)
    lines = err.splitlines()
    if lines and lines[0].startswith("FAIL "):  # check: one line per certificate, then the summary
        lines = lines[:1]
    assert len(lines) == 1 and "Traceback" not in err, err[:400]
    return lines[0]


def peak_bytes(f) -> int:
    """The peak of the Python heap while ``f()`` runs (``tracemalloc``)."""
    tracemalloc.start()
    try:
        f()
        return tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


def model_text(states: list, players=1, **fields) -> str:
    return json.dumps({"format": "exactplay-model", "version": 1, "players": players, **fields, "states": states})


def chain(n: int) -> list:
    """States 0 .. n-1: each moves to the next by chance, the last is terminal."""
    return [{"id": i, "mover": None, "next": [["1/1", i + 1]]} for i in range(n - 1)] + [{"id": n - 1, "payoff": [1]}]


# ---------------------------------------------------------------- item 2: counts a model file declares


def test_a_108_byte_model_declaring_a_billion_players_is_refused_before_allocating(tmp_path, capsys):
    # before: 3.9 GB and MemoryError (a list of 10^9 player names, then sets of 10^9 movers)
    path = tmp_path / "players.json"
    path.write_text('{"format": "exactplay-model", "version": 1, "players": 1000000000, '
                    '"states": [{"id": 0, "payoff": [1]}]}')
    assert path.stat().st_size <= 108
    line = refused(capsys, "solve", "--model", path)
    assert "1,000,000,000 players is more than the limit of 1,000" in line


def test_a_list_of_names_past_the_player_limit_is_refused_name_by_name(tmp_path):
    path = tmp_path / "names.json"
    path.write_text(model_text([{"id": 0, "payoff": [1]}], players=["p"] * 1001))
    with pytest.raises(ModelError, match="more than 1,000 players"):
        load_model_file(path)
    path.write_text(model_text([{"id": 0, "payoff": [1] * 1000}], players=[f"p{i}" for i in range(1000)]))
    assert load_model_file(path).num_players == 1000  # at the limit: read


def test_a_python_game_declaring_more_players_than_the_limit_is_refused():
    class Many:
        num_players = 10**9

        def initial_state(self): return 0
        def is_terminal(self, s): return True
        def payoff(self, s): return (1,)
        def mover(self, s): return None
        def actions(self, s): return []
        def transitions(self, s, a): return []

    with pytest.raises(ModelError, match="more than the limit of 1,000 players"):
        build_model(Many())


def test_a_file_of_id_only_states_is_refused_at_the_first_state_without_parsing_the_rest(tmp_path, capsys):
    # before: the whole file parsed (10^7 such states in 149 MB: 3.9 GB and MemoryError)
    path = tmp_path / "ids.json"
    path.write_text(model_text([{"id": i} for i in range(100_000)]))
    line = refused(capsys, "solve", "--model", path)
    assert "state 0: give 'payoff' (terminal) or 'mover'" in line
    size = path.stat().st_size
    peak = peak_bytes(lambda: pytest.raises(ModelError, load_model_file, path))
    assert peak < 3 * size, (peak, size)  # the file's bytes and its text; no parsed state kept (was ~15x)


# ---------------------------------------------------------------- item 3: --max-states before the model is built


def test_a_json_model_past_max_states_is_refused_before_any_state_is_built(tmp_path, capsys, monkeypatch):
    # before: a 10^6-state chain with --max-states 1000 was refused after 27-33 s and 1.4 GB, once built
    path = tmp_path / "chain.json"
    path.write_text(model_text(chain(20_000)))
    added = []
    real_add = StateReader.add
    monkeypatch.setattr(StateReader, "add", lambda self, i, st: (added.append(i), real_add(self, i, st)))
    line = refused(capsys, "solve", "--model", path, "--max-states", "1000")
    assert "more than 1,000 states, the limit (raise it with --max-states)" in line
    assert added == []  # counted first (each state parsed and dropped): none read into a model
    peak = peak_bytes(lambda: pytest.raises(ModelError, load_model_file, path, 1000))
    assert peak < 3 * path.stat().st_size


def test_a_json_model_of_exactly_max_states_is_read_and_one_more_is_refused(tmp_path, capsys):
    path = tmp_path / "chain.json"
    path.write_text(model_text(chain(50)))
    assert len(load_model_file(path, max_states=50)) == 50
    with pytest.raises(ModelError, match="more than 49 states"):
        load_model_file(path, max_states=49)
    status, out, _ = run(capsys, "solve", "--model", path, "--max-states", "50", "--json")
    assert status == 0 and strict(out)["states"] == 50


def test_a_streamed_model_is_the_model_of_its_parsed_json(tmp_path):
    for data in (json.loads(LOOP.read_text()), json.loads(model_text(chain(30), initial=7))):
        path = tmp_path / "m.json"
        path.write_text(json.dumps(data))
        streamed, parsed = load_model_file(path), explicit.model_from_json(data)
        assert explicit.model_to_json(streamed) == explicit.model_to_json(parsed)
        assert streamed.states[0] == str(data.get("initial", data["states"][0]["id"]))


def test_a_drn_file_declaring_more_states_than_the_limit_is_refused_at_its_header(tmp_path, capsys):
    # before: the whole file split into lines and parsed (10^6 states with --max-states 1000: 108 s, 1.5 GB)
    n = 20_000
    body = "".join(f"state {i}{' init' if i == 0 else ''}\n\taction 0\n\t\t{min(i + 1, n - 1)} : 1\n" for i in range(n))
    path = tmp_path / "chain.drn"
    path.write_text(f"@type: DTMC\n@value_type: rational\n@nr_states\n{n}\n@model\n{body}")
    line = refused(capsys, "solve", "--model", path, "--objective", "Pmax", "--target", "init", "--max-states", "1000")
    assert f"chain.drn:4: @nr_states {n}: more than 1,000 states, the limit" in line
    peak = peak_bytes(lambda: pytest.raises(ModelError, drn_read.read_drn, path, 1000))
    assert peak < 3 * path.stat().st_size  # the text, never a list of its lines
    tiny = tmp_path / "tiny.drn"
    tiny.write_text("@type: DTMC\n@nr_states\n1000000000\n@model\nstate 0 init\n\taction 0\n\t\t0 : 1\n")
    assert "more than 3,000,000 states" in refused(capsys, "solve", "--model", tiny, "--objective", "Pmax",
                                                  "--target", "init")


@pytest.mark.parametrize("count", ["²", "1" * 30])
def test_a_drn_count_that_is_not_a_plain_number_is_one_line(tmp_path, capsys, count):
    path = tmp_path / "bad.drn"
    path.write_text(f"@type: DTMC\n@nr_states\n{count}\n@model\nstate 0 init\n\taction 0\n\t\t0 : 1\n")
    line = refused(capsys, "solve", "--model", path, "--objective", "Pmax", "--target", "init")
    assert "bad.drn:3: @nr_states" in line


def test_drn_export_and_crosscheck_honour_max_states_too(tmp_path, capsys):
    line = refused(capsys, "export", "--model", RUIN, "--objective", "Pmax", "--target", "goal", "--format", "json",
                   "-o", tmp_path / "m.json", "--max-states", "5")
    assert "more than 5 states" in line


def test_a_python_game_is_refused_at_max_states_not_after_enumerating_it(tmp_path, capsys):
    calls = tmp_path / "calls"
    game = tmp_path / "long.py"
    game.write_text(
        "class Long:\n"
        "    calls = 0\n"
        "    def initial_state(self): return 0\n"
        "    def is_terminal(self, s): return s == 10**6\n"
        "    def payoff(self, s): return (1,)\n"
        "    def mover(self, s): return None\n"
        "    def actions(self, s): return [None]\n"
        "    def transitions(self, s, a):\n"
        "        Long.calls += 1\n"
        f"        open({str(calls)!r}, 'w').write(str(Long.calls))\n"
        "        return [(1, s + 1)]\n"
        "def make():\n"
        "    return Long()\n")
    line = refused(capsys, "solve", "--game", f"{game}:make", "--max-states", "1000")
    assert "more than 1,000 reachable states" in line
    # each state's successors asked once up to the limit (the last once more: the careful reader words the refusal)
    assert int(calls.read_text()) <= 1001


# ---------------------------------------------------------------- item 4: gzip bombs, every reader


def _bomb(total: int, member: int = MB) -> bytes:
    """Concatenated gzip members of spaces: ``total`` bytes inflated from a few KB."""
    return gzip.compress(b" " * member, compresslevel=9, mtime=0) * (total // member)


READERS = {  # the command, the module whose byte limit applies, its name
    "certificate": (lambda p: ["check", p], _load, "MAX_FILE_BYTES", 1),
    "model": (lambda p: ["solve", "--model", p], explicit, "MAX_MODEL_BYTES", 2),
    "drn": (lambda p: ["solve", "--model", p, "--objective", "Pmax", "--target", "goal"], drn_read, "MAX_DRN_BYTES", 2),
    "float table": (lambda p: ["audit", "race", "--target", "5", "--float-table", p], None, "MAX_TABLE_BYTES", 2),
}
SUFFIX = {"certificate": ".json.gz", "model": ".json.gz", "drn": ".drn.gz", "float table": ".csv.gz"}


@pytest.mark.parametrize("reader", READERS)
def test_a_gzip_bomb_is_refused_while_inflating_in_chunks_that_are_dropped(tmp_path, capsys, monkeypatch, reader):
    # before (certificates): inflated into memory up to the 2 GiB limit first (3 MB -> 3 GB: 2.1 GB RSS)
    from exactplay.audit import float_table

    argv, module, limit_name, status = READERS[reader]
    monkeypatch.setattr(module or float_table, limit_name, 16 * MB)
    path = tmp_path / f"bomb{SUFFIX[reader]}"
    path.write_bytes(_bomb(64 * MB))
    assert path.stat().st_size < MB
    line = refused(capsys, *argv(path), status=status)
    assert f"inflates to more than {16 * MB} bytes" in line
    peak = peak_bytes(lambda: run(capsys, *argv(path)))
    assert peak < 6 * MB, peak  # the compressed file and a chunk or two, never the 16 MB kept


def test_a_gzip_certificate_of_too_many_json_values_is_refused_before_it_is_kept(tmp_path, capsys, monkeypatch):
    monkeypatch.setattr(_load, "MAX_JSON_VALUES", 100_000)
    path = tmp_path / "commas.json.gz"
    path.write_bytes(gzip.compress(b"[" + b"0," * 5_000_000 + b"0]", mtime=0))
    assert "more than 100000 JSON values" in refused(capsys, "check", path, status=1)
    assert peak_bytes(lambda: run(capsys, "check", path)) < 6 * MB  # 10 MB inflated, counted, dropped


@pytest.mark.parametrize("reader", READERS)
def test_every_reader_reads_a_gzip_file_as_the_plain_one(tmp_path, capsys, reader):
    argv = READERS[reader][0]
    if reader == "certificate":
        plain = tmp_path / "loop.json"
        assert run(capsys, "certify", "--model", LOOP, "-o", plain)[0] == 0
    else:
        plain = {"model": LOOP, "drn": RUIN, "float table": RACE5}[reader]
    packed = tmp_path / f"packed{SUFFIX[reader]}"
    packed.write_bytes(gzip.compress(Path(plain).read_bytes()))
    shutil.copy(plain, tmp_path / f"plain{SUFFIX[reader][:-3]}")
    a, b = run(capsys, *argv(packed)), run(capsys, *argv(tmp_path / f"plain{SUFFIX[reader][:-3]}"))
    assert a[0] == b[0] == 0, a[2] + b[2]
    assert a[1].replace("packed", "plain").replace(SUFFIX[reader], SUFFIX[reader][:-3]) == b[1]
