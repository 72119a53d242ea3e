"""Policy-only certificates v2: the checker evaluates the stored policy exactly, then checks it all.

A certificate v2 without ``solution.values`` stores the policy, ranks, margins,
ties and the answer.  The checker's own evaluation (``checker/_evaluate.py``:
back-substitution, self-loops in closed form, cycles by elimination on feedback
states) must give exactly the values the engine stores (and those of the
brute-force referee for any profile, optimal or not); every edit of a policy
entry, rank, margin, tie, the answer or the smallest margin must be rejected,
naming the field and the state; ``--stdlib`` gives the same results.
"""

from __future__ import annotations

import copy
import json
import random
from fractions import Fraction

import pytest
from test_game_certificate import SMALL
from test_model_checker import models, random_model

from exactplay.bruteforce.chains import chain_values
from exactplay.checker import _ints, verify_certificate
from exactplay.checker import model as model_checker
from exactplay.checker._strict import Where
from exactplay.cli.main import main
from exactplay.engine import solve
from exactplay.errors import VerificationError
from exactplay.games import get_game
from exactplay.model import ModelError, model_from_json
from exactplay.certify.model import model_certificate

# small built-in instances whose models have cycles (hold), cycles of chance (chefs), self-loops (race)
GAMES = {**{g: p for g, (p, _) in SMALL.items()}, "hold-cycles": {"target": 8, "faces": 4}}


def _game(name):
    return name.split("-")[0]


def game_certs(store):
    return {name: json.loads(json.dumps(get_game(_game(name)).certify(store=store, **p))) for name, p in GAMES.items()}


def model_certs(store):
    out = {}
    for name, m in models().items():
        sol = solve(m)
        c = model_certificate(sol, digits=6, notes=name)
        if store == "policy":
            del c["solution"]["values"], c["solution"]["margins"]
        out[name] = c
    return out


pytestmark = pytest.mark.xdist_group("test_policy_only")  # one worker for this file: its module-scoped fixtures
# are built once per suite, not once in each of the two xdist workers (--dist loadgroup)


@pytest.fixture(scope="module")
def bases():
    """(values certificate, policy-only certificate) of every base."""
    values = {**game_certs("values"), **model_certs("values")}
    policy = {**game_certs("policy"), **model_certs("policy")}
    return {name: (values[name], policy[name]) for name in values}


def evaluated(cert) -> list:
    """The checker's values of a certificate (a model's), whatever the checks after evaluation say."""
    checker = model_checker._Checker(copy.deepcopy(cert), Where())
    checker.keep_values = True
    try:
        checker.run()
    except VerificationError:
        pass
    return checker.values()


def test_policy_only_certificates_verify_and_state_the_same_answer(bases):
    for name, (v, p) in bases.items():
        assert "values" not in p["solution"] and "values" in v["solution"]
        assert "margins" not in p["solution"] and "margins" in v["solution"]  # margins: stored with the values
        assert {k: x for k, x in p["solution"].items()} == {k: x for k, x in v["solution"].items()
                                                             if k not in ("values", "margins")}
        found = verify_certificate(copy.deepcopy(p))
        assert "the policy evaluated exactly" in found["summary"], name
        assert found["answer"] == verify_certificate(copy.deepcopy(v))["answer"], name


def test_the_checkers_evaluation_is_the_engines_values_exactly():
    for name, m in models().items():
        sol = solve(m)
        c = model_certificate(sol)
        stored = [tuple(Fraction(x) for x in row) for row in c["solution"]["values"]]
        del c["solution"]["values"], c["solution"]["margins"]
        assert [tuple(Fraction(x) for x in row) for row in evaluated(c)] == stored, name


def test_any_profile_is_evaluated_as_the_brute_force_referee_does_on_random_models():
    """Not only the optimal policy: random profiles (plays that never end included) on random models,
    and random chance-only chains with several cycles through many states (feedback sets of 2 or more)."""
    rng = random.Random(11)
    compared = feedback = 0
    for k in range(260):
        data = random_model(rng) if k % 2 else _random_chain(rng)
        try:
            sol = solve(model_from_json(data))
        except (ModelError, RuntimeError):
            continue
        c = model_certificate(sol)
        del c["solution"]["values"], c["solution"]["margins"]
        m = sol.model
        profile = [None if m.terminal[s] is not None else rng.randrange(len(m.trans[s])) for s in range(len(m))]
        c["solution"]["policy"] = profile
        want = chain_values(m, profile, sol.components)
        checker = model_checker._Checker(c, Where())
        checker.keep_values = True
        try:
            checker.run()
        except VerificationError:
            pass
        assert [tuple(Fraction(x) for x in row) for row in checker.values()] == want, json.dumps(data)
        compared += 1
        feedback = max(feedback, getattr(checker, "evaluated", {}).get("feedback", 0))
    assert compared >= 200 and feedback >= 2


def _random_chain(rng) -> dict:
    """A chance-only explicit model of 6-24 states, each moving to up to 3 random states (cycles of every
    length), some of them terminal with payoffs in [-2, 3]."""
    n = rng.randint(6, 24)
    terminals = rng.randint(1, 3)
    states = []
    for s in range(n):
        if s >= n - terminals:
            states.append({"id": s, "payoff": [f"{rng.randint(-2, 3)}/1"]})
            continue
        targets = rng.sample(range(n), rng.randint(1, 3))
        den = rng.choice([2, 3, 5, 7])
        cuts = sorted(rng.sample(range(1, den), min(len(targets), den) - 1))
        parts = [b - a for a, b in zip([0] + cuts, cuts + [den])]
        nxt = [[str(Fraction(p, den)) if Fraction(p, den).denominator > 1 else f"{p // den}/1", t]
               for p, t in zip(parts, targets)]
        states.append({"id": s, "mover": None, "actions": [{"next": nxt}]})
    return {"format": "exactplay-model", "version": 1, "name": "chain", "players": 1, "objective": "auto",
            "states": states}


# ---------------------------------------------------------------- every edit is rejected


def action_counts(cert: dict) -> list[int]:
    """Each state's number of actions: from the model a certificate carries, or for a built-in game
    from the checker's rebuild of its rules."""
    if "model" in cert:
        return [len(st.get("actions", ())) for st in cert["model"]["states"]]
    from exactplay.checker.rules import rules_module
    from exactplay.checker.rules.canonical import rebuild

    module = rules_module(cert["game"])
    return [len(t) for t in rebuild(module.Rules(**module.read_params(copy.deepcopy(cert["params"]))), 10**6).trans]


def mutations(cert: dict):
    """(what, edit, field prefix, state or None): every policy entry (to each other action), rank
    and tie, invented ties and margins (stored with the values only), the answer's fields and the
    smallest margin."""
    sol = cert["solution"]
    n = len(sol["policy"])
    ties = {s for s, _ in sol["ties"]}
    counts = action_counts(cert)
    for s in range(n):
        a = sol["policy"][s]
        if a is None:
            continue
        for b in range(counts[s]):
            if b != a:
                yield "policy entry", _setter("policy", s, b), "solution", s
        r = sol["ranks"][s]
        yield "rank", _setter("ranks", s, (r or 0) + 1), "solution", s
        if counts[s] > 1 and s not in ties:
            yield ("tie invented", lambda c, s=s: (c["solution"]["ties"].append([s, [0, 1]]),
                                                  c["solution"]["ties"].sort()), "solution.ties", s)
    yield "margins invented", lambda c: c["solution"].update(margins=[None] * n), "solution.margins", None
    for i, (s, _) in enumerate(sol["ties"]):
        yield "tie dropped", lambda c, i=i: c["solution"]["ties"].pop(i), "solution.ties", s
    s0 = cert["answer"]["state"]
    d = cert["answer"]["decimal"]
    yield "answer value", lambda c: c["answer"].update(value="1/7"), "answer.value", s0
    yield ("answer decimal", lambda c: c["answer"].update(decimal=d[:-1] + str((int(d[-1]) + 1) % 10)),
           "answer.decimal", s0)
    yield "answer name", lambda c: c["answer"].update(name=c["answer"]["name"] + "'"), "answer.name", None
    yield "answer state", lambda c: c["answer"].update(state=(s0 + 1) % n), "answer.state", None
    if cert["smallest_margin"] is not None:
        sm = cert["smallest_margin"]
        yield ("smallest margin", lambda c: c["smallest_margin"].update(value="999/1"), "smallest_margin",
               sm["state"])


def _setter(key, s, value):
    def edit(c):
        c["solution"][key][s] = value
    return edit


def test_edits_of_policy_only_certificates_are_rejected_naming_field_and_state(bases, capsys):
    """Up to 30 edits of each base, drawn at random; the slow test
    below makes every edit."""
    counts = _all_rejected(bases, capsys, per_base=30)
    assert sum(counts.values()) >= 400


@pytest.mark.slow
def test_every_edit_of_a_policy_only_certificate_is_rejected_naming_field_and_state(bases, capsys):
    counts = _all_rejected(bases, capsys, per_base=None)
    # 2,313 edits, every one rejected (3,000 and more while policy-only certificates stored margins,
    # before 8b6aa03: the margins' edits are gone with them); the bound keeps the test from going vacuous
    assert sum(counts.values()) >= 2000


def _all_rejected(bases, capsys, per_base) -> dict:
    rng = random.Random(5)
    counts: dict[str, int] = {}
    for name, (_, base) in bases.items():
        edits = list(mutations(base))
        if per_base is not None and len(edits) > per_base:
            edits = rng.sample(edits, per_base)
        for what, edit, field, state in edits:
            c = copy.deepcopy(base)
            edit(c)
            with pytest.raises(VerificationError) as info:
                verify_certificate(c)
            err = info.value
            assert err.field and err.field.startswith(field), (name, what, err.field, str(err))
            if state is not None:
                assert type(err.state) is int, (name, what, str(err))
            if what in ("tie dropped", "tie invented", "answer value"):
                assert err.state == state, (name, what, err.state, str(err))  # the very state edited
            assert "\n" not in str(err)
            counts[what] = counts.get(what, 0) + 1
    with capsys.disabled():
        print(f"\npolicy-only mutations rejected: {sum(counts.values())} ({counts})")
    assert {"policy entry", "rank", "margins invented", "tie dropped", "tie invented", "answer value", "answer decimal",
            "answer name", "smallest margin"} <= set(counts)
    return counts


# ---------------------------------------------------------------- stdlib, CLI, auto


def test_stdlib_mode_evaluates_to_the_same_verdicts(bases):
    try:
        _ints.use_stdlib(True)
        for name, (_, p) in bases.items():
            assert "the policy evaluated exactly" in verify_certificate(copy.deepcopy(p))["summary"], name
            assert all(type(x) in (int, Fraction) for row in evaluated(p) for x in row) if "model" in p else True
            bad = copy.deepcopy(p)
            bad["answer"]["value"] = "1/7"
            with pytest.raises(VerificationError):
                verify_certificate(bad)
    finally:
        _ints.use_stdlib(False)


def test_certify_stores_the_policy_only_when_asked_or_when_the_values_are_large(tmp_path, capsys, monkeypatch):
    out = tmp_path / "r.json"
    assert main(["certify", "race", "--target", "4", "--store", "policy", "-o", str(out)]) == 0
    assert "(version 2, policy only)" in capsys.readouterr().out
    assert "values" not in json.loads(out.read_text())["solution"]
    assert main(["check", str(out)]) == 0
    assert "values not stored: the policy evaluated exactly" in capsys.readouterr().out
    from exactplay.certify import game as gc

    assert "values" in get_game("race").certify(target=4)["solution"]  # auto: small values are stored
    monkeypatch.setattr(gc, "VALUES_LIMIT", 100)
    assert "values" not in get_game("race").certify(target=4)["solution"]


def test_certify_honours_the_backend_fraction_gives_the_same_certificate_and_ball_the_ball_one(tmp_path, capsys):
    paths = {b: tmp_path / f"{b}.json" for b in ("mpq", "fraction", "ball")}
    for backend, path in paths.items():
        assert main(["certify", "hold", "--target", "6", "--faces", "3", "--backend", backend, "-o", str(path),
                     "--quiet"] if backend != "ball" else
                    ["certify", "race", "--target", "4", "--backend", "ball", "-o", str(path), "--quiet"]) == 0
    assert paths["mpq"].read_bytes() == paths["fraction"].read_bytes()
    ball = json.loads(paths["ball"].read_text())
    assert ball["version"] == 2 and ball["kind"] == "ball"  # was: silently the exact v2 certificate
    assert main(["check", *map(str, paths.values())]) == 0
    capsys.readouterr()


def test_a_component_needing_too_many_feedback_states_is_refused_in_one_line(bases, monkeypatch):
    from exactplay.checker import _evaluate

    _, cert = bases["hold-cycles"]
    monkeypatch.setattr(_evaluate, "MAX_FEEDBACK", 0)
    with pytest.raises(VerificationError) as info:
        verify_certificate(copy.deepcopy(cert))
    assert info.value.field == "solution.policy" and "more than the 0" in str(info.value)
