"""Ball certificates of games with cycles (dyadic/, checker/ball_model.py): the enclosures contain
the exact values, the checker accepts them and rejects every tampering, naming field and state,
and a fake enclosure inside an end component is refused by the ranking."""

from __future__ import annotations

import copy
import json
import random
import subprocess
import sys
from fractions import Fraction
from pathlib import Path

import pytest
from cli_run import run

from exactplay.checker import check_certificate
from exactplay.dyadic import IntForm, dyadic_enclosure
from exactplay.dyadic.certificate import (
    decisions,
    game_ball_certificate,
    model_ball_certificate,
)
from exactplay.engine import solve
from exactplay.errors import UsageError, VerificationError
from exactplay.games import MODELS
from exactplay.model import build_model, load_factory, model_from_json

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"


def _example(name, **params):
    return build_model(load_factory(f"{EXAMPLES / name}:make_game")(**params))


MODELS_UNDER_TEST = {
    "pig-10": lambda: _example("pig.py", goal=10),
    "piglet-6": lambda: _example("piglet.py", goal=6),
    "pass-forever": lambda: _example("pass_forever.py"),
    "hold-10-6": lambda: build_model(MODELS["hold"](target=10, faces=6)),
    "hold-8-2": lambda: build_model(MODELS["hold"](target=8, faces=2)),
}


@pytest.mark.parametrize("name", sorted(MODELS_UNDER_TEST))
@pytest.mark.parametrize("k", [16, 64])
def test_enclosures_contain_every_exact_value_and_leave_open_exactly_the_ties(name, k):
    model = MODELS_UNDER_TEST[name]()
    form = IntForm(model)
    E = dyadic_enclosure(form, k)
    sol = solve(model)
    for s in range(len(model)):
        v = Fraction(sol.values[s][form.c])
        assert Fraction(E.lower[s], 1 << k) <= v <= Fraction(E.upper[s], 1 << k), (name, s)
    policy, unresolved = decisions(form, model, E)
    if k == 64:  # a fine grid separates every gap of these small games: only exact ties stay open
        assert set(unresolved) == set(sol.ties)
    for s in model.choice_states():
        if s not in unresolved:  # certified: the unique optimal action
            assert policy[s] == sol.policy[s], (name, s)


pytestmark = pytest.mark.xdist_group("test_ball_model_certificate")  # one worker for this file: its module-scoped fixtures
# are built once per suite, not once in each of the two xdist workers (--dist loadgroup)


@pytest.fixture(scope="module")
def pig_cert():
    return model_ball_certificate(_example("pig.py", goal=10), 64)[0]


@pytest.fixture(scope="module")
def hold_cert():
    params = {"target": 8, "faces": 2}
    return game_ball_certificate("hold", params, params, "V(0,0)", 64)[0]


def test_ball_certificates_of_a_model_and_of_a_built_in_game_verify(pig_cert, hold_cert):
    s = check_certificate(copy.deepcopy(pig_cert))
    assert "every play ends" in s and "522 decisions certified, 0 unresolved" in s and "= 0.70942432" in s
    s = check_certificate(copy.deepcopy(hold_cert))
    assert "digest matches" in s and "ranking verified" in s
    exact = solve(build_model(MODELS["hold"](target=8, faces=2)))
    assert Fraction(*hold_cert["answer"]["lower"][:1], 1 << 64) <= Fraction(exact.value[0])


def _feedback_index(cert, i):
    return cert["feedback"]["states"][i]


def _choice_certified(cert):
    return next(s for s, a in enumerate(cert["policy"]) if a is not None and s not in set(cert["unresolved"])
                and _is_choice(cert, s))


def _is_choice(cert, s):
    if "model" in cert:
        st = cert["model"]["states"][s]
        return st.get("mover") is not None and len(st.get("actions", [])) > 1
    return cert["policy"][s] is not None and cert["policy"][s] >= 0  # hold: checked through the exact policy


def _open(cert):
    """A feedback state whose enclosure is not a single point."""
    fb = cert["feedback"]
    return next(j for j in range(len(fb["states"])) if fb["lower"][j] < fb["upper"][j])


MUTATIONS = {
    "widen lower": (lambda c: c["feedback"]["lower"].__setitem__(3, c["feedback"]["lower"][3] - 1), "feedback.lower"),
    "widen upper": (lambda c: c["feedback"]["upper"].__setitem__(3, c["feedback"]["upper"][3] + 1), "feedback.upper"),
    "shift up": (lambda c: [c["feedback"][e].__setitem__(5, c["feedback"][e][5] + 2) for e in ("lower", "upper")],
                 "feedback.lower"),
    "shift down": (lambda c: [c["feedback"][e].__setitem__(5, c["feedback"][e][5] - 2) for e in ("upper", "lower")],
                   "feedback.lower"),
    "narrow": (lambda c: c["feedback"]["upper"].__setitem__(_open(c), c["feedback"]["lower"][_open(c)]),
               "feedback.upper"),
}


@pytest.mark.parametrize("which", ["pig", "hold"])
@pytest.mark.parametrize("mutation", sorted(MUTATIONS))
def test_a_widened_shifted_or_narrowed_end_is_rejected_naming_field_and_state(pig_cert, hold_cert, which, mutation):
    cert = copy.deepcopy(pig_cert if which == "pig" else hold_cert)
    edit, field = MUTATIONS[mutation]
    edit(cert)
    with pytest.raises(VerificationError) as exc:
        check_certificate(cert)
    assert exc.value.field in (field, "feedback.lower", "feedback.upper") and type(exc.value.state) is int
    assert exc.value.state in set(cert["feedback"]["states"])


def test_a_changed_decision_is_rejected_naming_the_state(pig_cert):
    cert = copy.deepcopy(pig_cert)
    s = _choice_certified(cert)
    cert["policy"][s] = 1 - cert["policy"][s]
    with pytest.raises(VerificationError) as exc:
        check_certificate(cert)
    assert (exc.value.field, exc.value.state) == ("policy", s)


@pytest.mark.parametrize("edit, field", [
    (lambda c: c["unresolved"].append(_choice_certified(c)), "unresolved"),
    (lambda c: c["decisions"].__setitem__("certified", c["decisions"]["certified"] - 1), "decisions"),
    (lambda c: c["answer"].__setitem__("decimal", "0.70942433"), "answer.decimal"),
    (lambda c: c["answer"]["lower"].__setitem__(0, c["answer"]["lower"][0] - 1), "answer.lower"),
    (lambda c: c["answer"].__setitem__("name", "value of something else"), "answer.name"),
    (lambda c: c.__setitem__("grid_bits", 63), "feedback.lower"),
    (lambda c: c.__setitem__("component", 1), "component"),
    (lambda c: c["model"]["states"][5].__setitem__("name", "renamed"), "model_sha256"),
])
def test_other_tampering_is_rejected_naming_the_field(pig_cert, edit, field):
    cert = copy.deepcopy(pig_cert)
    edit(cert)
    with pytest.raises(VerificationError) as exc:
        check_certificate(cert)
    assert exc.value.field == field


def test_feedback_states_that_miss_a_cycle_are_rejected(pig_cert):
    cert = copy.deepcopy(pig_cert)
    for e in ("states", "lower", "upper"):
        cert["feedback"][e] = cert["feedback"][e][::2]  # Pig's cycles need one of each pair of turn starts
    with pytest.raises(VerificationError) as exc:
        check_certificate(cert)
    assert exc.value.field == "feedback.states" and type(exc.value.state) is int


def _assert_one_step_changes_rejected(pig_cert, states: int) -> None:
    # the rounded operator has a range of fixed points: the checker takes the extreme one in every coordinate
    for j, f in enumerate(pig_cert["feedback"]["states"][:states]):
        for end, d in (("lower", -1), ("lower", 1), ("upper", -1), ("upper", 1)):
            cert = copy.deepcopy(pig_cert)
            cert["feedback"][end][j] += d
            with pytest.raises(VerificationError) as exc:
                check_certificate(cert)
            assert exc.value.field.startswith("feedback.") and type(exc.value.state) is int


def test_every_one_step_change_of_a_stored_end_is_rejected_at_that_state(pig_cert):
    """Each end of the first 4 feedback states, one grid step either way (the slow twin below: 12)."""
    _assert_one_step_changes_rejected(pig_cert, 4)


@pytest.mark.slow
def test_every_one_step_change_of_more_stored_ends_is_rejected_at_that_state(pig_cert):
    _assert_one_step_changes_rejected(pig_cert, 12)


@pytest.mark.slow  # heavy: out of the default suite's CPU budget
def test_random_mutations_of_ends_and_decisions_are_all_rejected(pig_cert, hold_cert):
    rng = random.Random(13)
    for i in range(60):
        cert = copy.deepcopy(pig_cert if i % 2 else hold_cert)
        if rng.random() < 0.7:
            end = rng.choice(["lower", "upper"])
            j = rng.randrange(len(cert["feedback"]["states"]))
            # one or two grid steps only where every play ends (Pig): there the extreme fixed point is required
            steps = [1, 2, 1 << 20, 1 << 40] if i % 2 else [1 << 20, 1 << 40]
            cert["feedback"][end][j] += rng.choice([-1, 1]) * rng.choice(steps)
            fields = {"feedback.lower", "feedback.upper"}
        else:
            s = rng.choice([s for s, a in enumerate(cert["policy"]) if a is not None])
            cert["policy"][s] = cert["policy"][s] + 1 if cert["policy"][s] == 0 else 0
            fields = {"policy"}
        with pytest.raises(VerificationError) as exc:
            check_certificate(cert)
        assert exc.value.field in fields and type(exc.value.state) is int, (i, exc.value)


def _one_state_model(mover_objective, loop_name):
    """One choice: loop on itself forever (worth 0), or gamble: win with probability 1/2."""
    return model_from_json({
        "format": "exactplay-model", "version": 1, "name": "loop or gamble once",
        "players": ["A", "B"], "objective": mover_objective,
        "states": [
            {"id": "s", "mover": 1 if mover_objective == "zero-sum" else 0, "actions": [
                {"name": loop_name, "next": [["1/1", "s"]]},
                {"name": "gamble", "next": [["1/2", "A won"], ["1/2", "B won"]]}]},
            {"id": "A won", "payoff": ["1/1", "0/1"]},
            {"id": "B won", "payoff": ["0/1", "1/1"]}]})


@pytest.mark.parametrize("objective, fake", [("zero-sum", Fraction(1, 2)), ("max", Fraction(1))])
def test_a_fake_enclosure_inside_an_end_component_is_rejected_by_the_ranking(objective, fake):
    # zero-sum: B minimises A's payoff and stalls forever: value 0, but x = min(x, 1/2) holds for x <= 1/2;
    # max: A maximises, value 1/2, but x = max(x, 1/2) holds for every x >= 1/2.  The fake ends satisfy the
    # rounded fixed-point equations: only the ranking can refuse them.
    model = _one_state_model(objective, "stall")
    cert, _ = model_ball_certificate(model, 16)
    check_certificate(copy.deepcopy(cert))
    exact = solve(model).values[0][0]
    assert Fraction(cert["feedback"]["lower"][0], 1 << 16) <= exact <= Fraction(cert["feedback"]["upper"][0], 1 << 16)
    m = int(fake * (1 << 16))
    cert["feedback"]["lower"][0] = cert["feedback"]["upper"][0] = m
    with pytest.raises(VerificationError, match="ranking") as exc:
        check_certificate(cert)
    assert (exc.value.field, exc.value.state) == ("feedback.lower", 0)


def test_games_without_a_single_value_are_refused():
    model = _example("pass_forever.py", zero_sum=False)
    with pytest.raises(UsageError, match="one value"):
        IntForm(model)


def test_the_checker_loads_neither_ball_libraries_nor_the_solver():
    code = ("import sys, exactplay.checker.ball_model as b; "
            "print(sorted({m.split('.')[0] if m.startswith('flint') else m for m in sys.modules "
            "if m.startswith(('flint', 'exactplay.dyadic', 'exactplay.engine', 'exactplay.model.'))}))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"


def test_cli_certify_then_check_for_hold_and_for_a_user_model(capsys, tmp_path):
    hold = tmp_path / "hold-8-ball.json"
    status, out, err = run(capsys, "certify", "hold", "--target", "8", "--faces", "6", "--backend", "ball",
                           "--prec", "64", "-o", hold)
    assert status == 0 and "wrote" in out, err
    pig = tmp_path / "pig-6-ball.json.gz"
    status, out, err = run(capsys, "certify", "--game", f"{EXAMPLES / 'pig.py'}:make_game", "--param", "goal=6",
                           "--backend", "ball", "-o", pig)
    assert status == 0 and "decisions certified" in out and "0.77419355" in out, err
    assert pig.read_bytes()[:2] == b"\x1f\x8b"
    status, out, err = run(capsys, "check", hold, pig)
    assert status == 0 and "2 of 2 certificate(s) verified" in out, err
    data = json.loads(hold.read_text())
    data["feedback"]["lower"][2] -= 1
    hold.write_text(json.dumps(data))
    status, out, err = run(capsys, "check", hold)
    assert status == 1 and "feedback.lower" in out + err


@pytest.mark.parametrize("argv, message", [
    (["certify", "hold", "--target", "150", "--faces", "12", "--backend", "ball"], "target <= 113"),
    (["certify", "--game", f"{EXAMPLES / 'pig.py'}:make_game", "--backend", "auto"], "not auto"),
    (["certify", "--game", f"{EXAMPLES / 'pass_forever.py'}:make_game", "--param", "zero_sum=0",
      "--backend", "ball"], "one value"),
])
def test_refusals_are_one_line(capsys, tmp_path, argv, message):
    status, out, err = run(capsys, *argv, "-o", tmp_path / "x.json")
    assert status == 2 and message in err and "Traceback" not in err
    assert not (tmp_path / "x.json").exists()
