"""Attacks on the ball checkers (checker/ball_model.py, _ball_solution.py, checker/ball.py): hand-made
wrong certificates of tiny models, each aimed at one step of the soundness argument, must all be
refused naming the field and the state; a non-canonical spelling of a number (a float, a boolean
for an integer) is refused too, since the checker promises one spelling.

The models are small enough to know every value by hand:

* ``ring``: a maximiser ``s`` who can go round the cycle ``s -> c -> t -> s`` forever or gamble
  (win 1/2 at ``s``, 1/3 at ``t``): value 1/2 everywhere on the ring; every ``x >= 1/2`` on the
  ring satisfies the rounded fixed-point equations, only the ranking refuses them;
* ``wait``: one player who waits forever (worth 0) or quits for -1: value 0, and every
  ``U >= -1`` satisfies ``U = ceil(max(U, -1))``; only ``U >= 0`` refuses an upper end below 0;
* ``stall``: a minimiser who stalls through a two-state cycle or lets a 1/2 gamble happen: value 0;
* ``take``: a minimiser who takes -2/3 or loops (value -2/3): ``U = -1`` satisfies ``U = ceil(min(-2/3,
  U))``; the minimiser's ranking refuses it; ``fall``: chance, lose 2/3 or fall into a loop (-1/3).
"""

from __future__ import annotations

import copy
import json
from fractions import Fraction

import pytest
from cli_run import run

from exactplay.checker import check_certificate
from exactplay.dyadic import IntForm
from exactplay.dyadic.certificate import _body, model_ball_certificate
from exactplay.dyadic.fixpoint import Enclosure
from exactplay.errors import VerificationError
from exactplay.games.race.ball_certificate import certify_ball, rows_digest
from exactplay.model import model_from_json
from exactplay.model.canonical import model_digest

K = 16
ONE = 1 << K


def _model(states, players=("A", "B"), objective="max"):
    return model_from_json({"format": "exactplay-model", "version": 1, "name": "attack", "players": list(players),
                            "objective": objective, "states": states})


def _win_lose(p):
    return [[p, "W"], [str(1 - Fraction(p)), "L"]]


RING = [
    {"id": "s", "mover": 0, "actions": [{"name": "round", "next": [["1/1", "c"]]},
                                        {"name": "gamble", "next": _win_lose("1/2")}]},
    {"id": "c", "mover": None, "next": [["1/1", "t"]]},
    {"id": "t", "mover": 0, "actions": [{"name": "back", "next": [["1/1", "s"]]},
                                        {"name": "gamble", "next": _win_lose("1/3")}]},
    {"id": "W", "payoff": ["1/1", "0/1"]},
    {"id": "L", "payoff": ["0/1", "0/1"]},
]
WAIT = [
    {"id": "s", "mover": 0, "actions": [{"name": "wait", "next": [["1/1", "s"]]},
                                        {"name": "quit", "next": [["1/1", "Q"]]}]},
    {"id": "Q", "payoff": ["-1/1"]},
]
TAKE = [  # a minimiser (one player, objective min) who takes -2/3 or loops forever (worth 0): value -2/3
    {"id": "m", "mover": 0, "actions": [{"name": "take", "next": [["1/1", "Q"]]},
                                        {"name": "loop", "next": [["1/1", "m"]]}]},
    {"id": "Q", "payoff": ["-2/3"]},
]
FALL = [  # chance: lose 2/3, or fall into a loop for ever (worth 0): value -1/3
    {"id": "s", "mover": None, "next": [["1/2", "Q"], ["1/2", "h"]]},
    {"id": "h", "mover": None, "next": [["1/1", "h"]]},
    {"id": "Q", "payoff": ["-2/3"]},
]
STALL = [
    {"id": "m", "mover": 1, "actions": [{"name": "stall", "next": [["1/1", "n"]]},
                                        {"name": "gamble", "next": [["1/2", "W"], ["1/2", "L"]]}]},
    {"id": "n", "mover": 1, "actions": [{"name": "stall", "next": [["1/1", "m"]]},
                                        {"name": "gamble", "next": [["1/2", "W"], ["1/2", "L"]]}]},
    {"id": "W", "payoff": ["1/1", "0/1"]},
    {"id": "L", "payoff": ["0/1", "1/1"]},
]


pytestmark = pytest.mark.xdist_group("test_ball_model_attacks")  # one worker for this file: its module-scoped fixtures
# are built once per suite, not once in each of the two xdist workers (--dist loadgroup)


@pytest.fixture(scope="module")
def certs():
    return {
        "ring": model_ball_certificate(_model(RING), K)[0],
        "wait": model_ball_certificate(_model(WAIT, players=("A",)), K)[0],
        "stall": model_ball_certificate(_model(STALL, objective="zero-sum"), K)[0],
        "take": model_ball_certificate(_model(TAKE, players=("A",), objective="min"), K)[0],
        "fall": model_ball_certificate(_model(FALL, players=("A",), objective="max"), K)[0],
    }


def _refused(cert) -> VerificationError:
    with pytest.raises(VerificationError) as exc:
        check_certificate(cert)
    return exc.value


def test_the_honest_certificates_of_the_attacked_models_verify_with_their_known_values(certs):
    for name, value in (("ring", Fraction(1, 2)), ("wait", 0), ("stall", 0)):
        cert = certs[name]
        assert "ranking verified" in check_certificate(copy.deepcopy(cert))
        lo, hi = (Fraction(cert["answer"][e][0], ONE) for e in ("lower", "upper"))
        assert lo <= value <= hi, name
        assert reseal_ends(cert, {}) == cert  # the forger below re-derives an honest certificate exactly


def reseal_ends(cert, ends: dict, keep_ends: list | None = None):
    """The certificate with the stored ends of feedback states (state -> (lower, upper)) replaced and
    everything that follows from them re-derived by the writer's own code (the other states' ends, the
    policy, the unresolved decisions, their counts, the answer): a forgery consistent in every field,
    so only the soundness conditions themselves can refuse it.  ``keep_ends`` receives ``[L, U]``."""
    model = model_from_json(cert["model"])
    form = IntForm(model)
    fb = cert["feedback"]
    k = cert["grid_bits"]
    L, U = [0] * len(model), [0] * len(model)
    for j, f in enumerate(fb["states"]):
        L[f], U[f] = ends.get(f, (fb["lower"][j], fb["upper"][j]))
    for s in range(len(model)):
        if form.term[s] is not None:
            L[s], U[s] = form.terminal_ends(s, k)
    for _ in range(len(model)):  # outside the feedback states the model is acyclic
        for s in range(len(model)):
            if form.term[s] is None and s not in fb["states"]:
                L[s], U[s] = form.floor(s, L, k), form.ceil(s, U, k)
    if keep_ends is not None:
        keep_ends[:] = [L, U]
    E = Enclosure(k, L, U, list(fb["states"]))
    body, _ = _body(model, form, E, list(range(len(model))), cert["answer"]["name"], cert["answer"]["digits"])
    return {**cert, **body}


@pytest.mark.parametrize("fake", [Fraction(1), Fraction(3, 4), Fraction(1, 2) + Fraction(1, ONE)])
def test_a_fake_lower_end_around_a_longer_end_component_is_refused_by_the_ranking(certs, fake):
    # the ring's feedback state gets L = fake; the other ring states are derived from it and reproduce it:
    # L = floor(T(L)) holds on the whole ring, so only the ranking stands between it and a false claim
    cert = certs["ring"]
    (f,) = cert["feedback"]["states"]
    m = int(fake * ONE)
    err = _refused(reseal_ends(cert, {f: (m, max(m, cert["feedback"]["upper"][0]))}))
    assert err.field == "feedback.lower" and err.state in (0, 1, 2) and "ranking" in str(err)


def test_a_ranking_through_an_action_that_does_not_keep_the_lower_end_is_not_accepted(certs):
    # at L = 3/4 the gamble of s has a ranked successor (W) but Q_gamble(L) = 1/2 < 3/4: if the ranking
    # let s join through it, L = 3/4 would pass; the loop keeps L but never reaches W
    cert = certs["ring"]
    (f,) = cert["feedback"]["states"]
    err = _refused(reseal_ends(cert, {f: (3 * ONE // 4, ONE)}))
    assert err.field == "feedback.lower" and "ranking" in str(err)


def test_an_upper_end_below_zero_kept_up_only_by_a_loop_is_refused(certs):
    # U = -1/2 satisfies U = ceil(max(U, -1)) (waiting forever keeps it), but waiting is worth 0 > -1/2
    cert = certs["wait"]
    (f,) = cert["feedback"]["states"]
    err = _refused(reseal_ends(cert, {f: (-ONE // 2, -ONE // 2)}))
    assert (err.field, err.state) == ("feedback.upper", f) and "negative upper end" in str(err)


def test_a_fake_upper_end_of_a_minimiser_below_the_payoff_she_can_force_is_refused(certs):
    # the mirror of the ring: the minimiser takes -2/3 (value -2/3) or loops; U = -1 satisfies
    # U = ceil(min(-2/3, U)), and only the minimiser's ranking (an action with Q_a(U) <= U) refuses it
    cert = certs["take"]
    (f,) = cert["feedback"]["states"]
    err = _refused(reseal_ends(cert, {f: (-ONE, -ONE)}))
    assert (err.field, err.state) == ("feedback.upper", f) and "negative upper end" in str(err)


@pytest.mark.parametrize("name, value", [("take", Fraction(-2, 3)), ("fall", Fraction(-1, 3))])
def test_a_negative_value_where_plays_may_go_on_forever_is_certified_when_the_minimiser_or_chance_forces_it(
        certs, name, value):
    # refused before (the checker asked U >= 0 at every non-terminal state): a true upper end below 0
    cert = certs[name]
    assert "ranking verified" in check_certificate(copy.deepcopy(cert))
    lo, hi = (Fraction(cert["answer"][e][0], ONE) for e in ("lower", "upper"))
    assert lo <= value <= hi and hi < 0


def test_a_minimiser_who_stalls_through_a_cycle_cannot_be_credited_with_the_gamble(certs):
    # L = 1/2 on the stall cycle is a fixed point of floor(min(., 1/2)); the minimiser's stall is never ranked
    cert = certs["stall"]
    ends = {f: (ONE // 2, ONE // 2) for f in cert["feedback"]["states"]}
    err = _refused(reseal_ends(cert, ends))
    assert err.field == "feedback.lower" and "ranking" in str(err)


def test_a_reward_where_plays_may_go_on_forever_is_refused_in_a_ball_certificate(certs):
    cert = copy.deepcopy(certs["wait"])
    cert["model"]["states"][0]["actions"][0]["reward"] = ["1/1"]  # paid on every wait: unbounded
    cert["model_sha256"] = model_digest(cert["model"])
    err = _refused(cert)
    assert err.field == "model" and err.state == 0


def test_a_decision_cannot_be_called_certified_while_the_enclosures_overlap(certs):
    cert = copy.deepcopy(certs["ring"])
    (s,) = cert["unresolved"]  # s: going round and the 1/2 gamble tie exactly (both worth 1/2)
    cert["unresolved"] = []
    cert["decisions"] = {"certified": cert["decisions"]["certified"] + 1, "unresolved": 0}
    err = _refused(cert)
    assert err.field == "unresolved" and err.state == s
    cert = copy.deepcopy(certs["ring"])
    cert["policy"][s] = 1 - cert["policy"][s]  # the other possibly optimal action: not the first one
    err = _refused(cert)
    assert (err.field, err.state) == ("policy", s)


def test_the_answer_is_read_on_the_grid_of_the_certificate_only(certs):
    cert = copy.deepcopy(certs["ring"])
    lo = cert["answer"]["lower"]
    cert["answer"]["lower"] = [2 * lo[0], lo[1] - 1]  # the same number on the grid 2^-(k+1)
    assert _refused(cert).field == "answer.lower"


BAD_SPELLINGS = {
    "answer.state float": lambda c: c["answer"].__setitem__("state", float(c["answer"]["state"])),
    "answer.component bool": lambda c: c["answer"].__setitem__("component", bool(c["answer"]["component"])),
    "answer.component float": lambda c: c["answer"].__setitem__("component", float(c["answer"]["component"])),
    "answer.lower floats": lambda c: c["answer"].__setitem__("lower", [float(x) for x in c["answer"]["lower"]]),
    "answer.upper floats": lambda c: c["answer"].__setitem__("upper", [float(x) for x in c["answer"]["upper"]]),
    "decisions.certified float": lambda c: c["decisions"].__setitem__("certified",
                                                                      float(c["decisions"]["certified"])),
    "decisions.unresolved bool": lambda c: c["decisions"].__setitem__("unresolved",
                                                                      bool(c["decisions"]["unresolved"])),
    "policy bool": lambda c: c["policy"].__setitem__(1, False),
    "unresolved bool": lambda c: c["unresolved"].__setitem__(0, bool(c["unresolved"][0])),
    "feedback.lower float": lambda c: c["feedback"]["lower"].__setitem__(0, float(c["feedback"]["lower"][0])),
}


@pytest.mark.parametrize("name", sorted(BAD_SPELLINGS))
def test_a_float_or_a_boolean_for_an_integer_is_refused(certs, name):
    # the ring certificate: its state 1 is a chance state (policy 0), its unresolved list is [0]
    cert = copy.deepcopy(certs["ring"])
    assert cert["policy"][1] == 0 and cert["unresolved"] == [0] and cert["answer"]["state"] == 0
    assert cert["decisions"]["unresolved"] == 1
    BAD_SPELLINGS[name](cert)
    err = _refused(cert)
    assert err.field.split(".")[0] == name.split(".")[0].split(" ")[0]


@pytest.mark.parametrize("literal", ["NaN", "Infinity", "-Infinity", "0.0", "1e0", "true"])
def test_json_constants_and_floats_in_a_ball_certificate_file_are_refused_in_one_line(certs, capsys, tmp_path,
                                                                                       literal):
    text = json.dumps(certs["ring"])
    assert '"state": 0,' in text
    path = tmp_path / "ring.json"
    path.write_text(text.replace('"state": 0,', f'"state": {literal},'))
    status, out, err = run(capsys, "check", path)
    assert status == 1 and "answer" in out + err and "Traceback" not in err


# ---------------------------------------------------------------- the Race's ball certificates (checker/ball.py)


@pytest.fixture(scope="module")
def race():
    return certify_ball(4, 53)


@pytest.mark.parametrize("column, value", [(0, True), (0, 1.0), (1, 1.0)])
def test_a_race_row_naming_its_cell_with_a_float_or_a_boolean_is_refused(race, column, value):
    cert = copy.deepcopy(race)
    assert cert["rows"][0][:2] == [1, 1]
    cert["rows"][0][column] = value
    cert["table_sha256"] = rows_digest(cert["rows"])  # resealed: the digest is not what refuses it
    with pytest.raises(VerificationError) as exc:
        check_certificate(cert)
    assert exc.value.field == "rows" and exc.value.state == (1, 1)


@pytest.mark.parametrize("decisions", [{"certified": 999, "unresolved": -5}, {"certified": 16.0, "unresolved": 0},
                                       {"certified": 16}, {"certified": 15, "unresolved": 1}, [16, 0]])
def test_a_race_ball_certificate_s_decision_counts_are_verified(race, decisions):
    # before: never read, yet not listed among the unverified fields (notes, tool_version)
    assert race["decisions"] == {"certified": 16, "unresolved": 0}
    cert = copy.deepcopy(race)
    cert["decisions"] = decisions
    with pytest.raises(VerificationError) as exc:
        check_certificate(cert)
    assert exc.value.field == "decisions"


def test_a_race_ball_certificate_s_format_is_checked_also_when_verified_in_memory(race):
    # before: only the file loader looked at "format"; check_certificate(dict) accepted any
    cert = copy.deepcopy(race)
    cert["format"] = "not-a-certificate"
    with pytest.raises(VerificationError) as exc:
        check_certificate(cert)
    assert exc.value.field == "format"


@pytest.mark.parametrize("version", [1, 3, "2", None, True])
def test_a_ball_certificate_with_another_version_is_refused_without_a_traceback(certs, version):
    # before: check_certificate (the API; the file loader checks versions first) raised KeyError 'game'
    cert = copy.deepcopy(certs["ring"])
    cert["version"] = version
    with pytest.raises(VerificationError) as exc:
        check_certificate(cert)
    assert exc.value.field in ("version", "game")
