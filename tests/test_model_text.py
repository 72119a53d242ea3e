"""The streamed certificate of a model: the same certificate, written in one pass.

``model_text`` (the canonical text of the explicit model, state by state) must be byte for byte
``json.dumps(model_to_json(m), sort_keys=True, separators=(",", ":"))`` -- the bytes the checker
hashes -- for models with per-state lists and for models read into arrays (PRISM, DRN), whatever
their names, labels, action names, rewards and initial states; ``write_model_certificate`` must write
a text that parses to ``model_certificate``'s certificate (values or policy only), that the checker
verifies, whose digest is the canonical one; and a failure while writing leaves no file.
"""

from __future__ import annotations

import io
import json
import random
from fractions import Fraction
from pathlib import Path

import pytest
from test_model_checker import models, random_model

from exactplay.certify.write import open_atomic
from exactplay.checker import load_certificate, verify_certificate
from exactplay.engine import solve, solve_model
from exactplay.errors import VerificationError
from exactplay.model import ModelError, model_from_json, model_to_json
from exactplay.model.explicit_text import model_text
from exactplay.model.sparse import ArrayModel, Sparse
from exactplay.certify.model import model_certificate, model_digest, write_model_certificate

FIXTURES = Path(__file__).resolve().parent / "fixtures"


def canonical(m) -> str:
    return json.dumps(model_to_json(m), sort_keys=True, separators=(",", ":"), allow_nan=False)


def joined(m) -> str:
    head, states, tail = model_text(m)
    return head + ",".join(states) + tail


def random_models(count: int, seed: int) -> list:
    rng = random.Random(seed)
    out = []
    while len(out) < count:
        try:
            out.append(solve(model_from_json(random_model(rng))).model)
        except (ModelError, RuntimeError):
            continue
    return out


NAMES = ["s", "é ü", 'quote " and \\ backslash', "tab\tnew\nline", "☃", "\x00", "1"]
ACTION_NAMES = ["go", 3, None, True, [1, "x"], {"b": 1, "a": [2]}, "ß", 0.5]


def as_arrays(m, rng: random.Random, names: bool, actions: bool, labels: bool) -> ArrayModel:
    """``m`` read into arrays (as PRISM and DRN models are), with made-up names and labels."""
    sp = Sparse.from_model(m)
    n = len(m)
    state_names = [f"{rng.choice(NAMES)} {s}" for s in range(n)] if names else None
    action_names = None
    if actions:
        action_names = []
        for s in range(n):
            k = sp.first[s + 1] - sp.first[s]
            action_names += rng.sample(ACTION_NAMES, k) if m.mover[s] is not None else [None] * k  # distinct
    state_labels = [rng.sample(["init", "goal", "é", "x y"], rng.randint(0, 2)) for _ in range(n)] if labels else None
    starts = sorted(rng.sample(range(n), min(n, 2))) if rng.random() < 0.3 else None
    initial = starts[0] if starts else m.initial
    out = ArrayModel(sp, m.name + rng.choice(["", " é"]), m.player_names, m.objective, state_names, action_names,
                     state_labels, initial, starts if starts and len(starts) > 1 else None, m.never_ending)
    return out


def test_the_text_of_a_model_with_lists_is_its_canonical_json():
    checked = 0
    for m in [solve(x).model for x in models().values()] + random_models(150, 5):
        assert joined(m) == canonical(m), m.name
        checked += 1
    assert checked >= 160


def test_the_text_of_a_model_read_into_arrays_is_its_canonical_json():
    rng = random.Random(7)
    checked = 0
    for m in [solve(x).model for x in models().values()] + random_models(100, 9):
        for names in (False, True):
            for actions in (False, True):
                a = as_arrays(m, rng, names, actions, labels=rng.random() < 0.5)
                assert joined(a) == canonical(a), (m.name, names, actions)
                checked += 1
    assert checked >= 400


DRN = [("gamblers_ruin.drn", "Pmax", "goal", None), ("gamblers_ruin.drn", "Rmin", "goal", None),
       ("leader_sync.drn", "Pmax", "elected", None)]


def test_models_read_from_prism_and_drn_files_give_their_canonical_json():
    from exactplay.interop.drn import drn_to_model, read_drn

    for file, objective, target, reward in DRN:
        try:
            m = drn_to_model(read_drn(str(FIXTURES / "storm" / file)), objective, target, reward=reward)[0]
        except ModelError:
            continue
        assert isinstance(m, ArrayModel)
        assert joined(m) == canonical(m), file
        checked = True
    assert checked
    from exactplay.interop.symbolic_model import load

    for file, prop in [("race.prism", "1"), ("race.prism", "3"), ("gamble.pm", "1"), ("knuth_die.pm", "1")]:
        m = load(str(FIXTURES / "prism" / file), None, prop).model
        assert isinstance(m, ArrayModel)
        assert joined(m) == canonical(m), file


def _written(sol, **kw) -> tuple[str, dict]:
    out = io.StringIO()
    returned = write_model_certificate(sol, out, **kw)
    return out.getvalue(), returned


@pytest.mark.parametrize("store", ["values", "policy"])
def test_the_written_certificate_is_the_certificate_and_verifies(store):
    rng = random.Random(3)
    sols = [solve(x) for x in models().values()]
    sols += [solve_model(as_arrays(s.model, rng, True, True, True)) for s in sols[4:]]
    for sol in sols:
        kw = dict(digits=6, notes="n", params={"goal": 3}, store=store)
        text, returned = _written(sol, **kw)
        want = json.loads(json.dumps(model_certificate(sol, **kw)))
        assert json.loads(text) == want, sol.model.name
        assert returned["model_sha256"] == want["model_sha256"] == model_digest(want["model"])
        assert returned["model"] is None and returned["answer"] == want["answer"]
        found = verify_certificate(json.loads(text))
        assert ("the policy evaluated exactly" in found["summary"]) == (store == "policy")
        lines = text.splitlines()
        assert lines[0] == "{" and lines[-1] == "}"
        assert len(lines) > len(sol.model)  # one state to a line


def test_a_written_certificate_is_rejected_when_its_model_is_edited(tmp_path):
    sol = solve(models()["pig4"])
    path = tmp_path / "c.json"
    with open_atomic(path) as f:
        write_model_certificate(sol, f)
    text = path.read_text()
    lines = text.splitlines()
    k = next(i for i, line in enumerate(lines) if '"1/6"' in line)
    path.write_text("\n".join(lines[:k] + [lines[k].replace('"1/6"', '"1/7"', 1)] + lines[k + 1:]) + "\n")
    with pytest.raises(VerificationError) as err:
        verify_certificate(load_certificate(path))
    assert err.value.field == "model_sha256"


def test_a_failure_while_writing_leaves_no_file(tmp_path, monkeypatch):
    import exactplay.model.explicit_text as text

    sol = solve(models()["pig4"])
    real = text._list_states

    def broken(model):
        for k, st in enumerate(real(model)):
            if k == 10:
                raise MemoryError("out of memory")
            yield st

    monkeypatch.setattr(text, "_list_states", broken)
    path = tmp_path / "c.json"
    with pytest.raises(MemoryError):
        with open_atomic(path) as f:
            write_model_certificate(sol, f)
    assert list(tmp_path.iterdir()) == []


def test_the_numbers_are_written_as_the_explicit_writer_writes_them():
    sol = solve(models()["rewards"])
    head, states, tail = model_text(sol.model)
    for line, st in zip(states, model_to_json(sol.model)["states"]):
        assert json.loads(line) == st
        for act in st.get("actions", []):
            for p, _ in act["next"]:
                assert Fraction(p) > 0 and "/" in p


ROOT = Path(__file__).resolve().parent.parent


@pytest.mark.parametrize("store", ["values", "policy"])
def test_certify_writes_the_streamed_certificate_to_a_file_or_stdout(store, tmp_path, capsys):
    from exactplay.cli.main import main

    model = str(ROOT / "examples" / "loop-or-gamble.json")
    path = tmp_path / "c.json"
    assert main(["certify", "--model", model, "--store", store, "-o", str(path), "--quiet"]) == 0
    capsys.readouterr()
    assert main(["certify", "--model", model, "--store", store, "-o", "-", "--quiet"]) == 0
    out = capsys.readouterr().out
    assert out == path.read_text()
    cert = json.loads(out)
    assert ("values" in cert["solution"]) == (store == "values")
    found = verify_certificate(load_certificate(path))
    assert ("the policy evaluated exactly" in found["summary"]) == (store == "policy")
    assert [p.name for p in tmp_path.iterdir()] == ["c.json"]  # no temporary file left


def test_certify_of_a_prism_game_stores_the_policy_when_asked(tmp_path, capsys):
    from exactplay.cli.main import main

    path = tmp_path / "race.json"
    assert main(["certify", "--model", str(FIXTURES / "prism" / "race.prism"), "--prop", "1", "--store", "policy",
                 "-o", str(path), "--quiet"]) == 0
    capsys.readouterr()
    cert = load_certificate(path)
    assert "values" not in cert["solution"] and cert["source"]["file"] == "race.prism"
    assert "the policy evaluated exactly" in verify_certificate(cert)["summary"]
