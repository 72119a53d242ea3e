"""Attacks on policy-only certificates v2 (checker/_evaluate.py then the generic checks): the checker
evaluates the stored policy itself, so a wrong policy cannot bring its own values; what it can try is a
policy whose play never ends (worth 0, or an unbounded reward) or a policy that is not optimal where
Bellman's one-step equations alone would not notice.  Each forged certificate is refused, at the check
named; the honest ones verify.

Models (see tests/test_ball_model_attacks.py): ``ring`` (a maximiser can go round a 3-state cycle
forever or gamble, value 1/2), ``stall`` (a minimiser can stall through a 2-cycle forever, value 0),
and ``trap`` (a maximiser's choice, on no cycle, between a win and a closed chance loop).
"""

from __future__ import annotations

import copy
import json

import pytest
from test_ball_model_attacks import RING, STALL, _model

from exactplay.checker import check_certificate
from exactplay.engine import solve
from exactplay.errors import VerificationError
from exactplay.certify.model import model_certificate

TRAP = [
    {"id": "s", "mover": 0, "actions": [{"name": "trap", "next": [["1/1", "c"]]},
                                        {"name": "win", "next": [["1/2", "W"], ["1/2", "L"]]}]},
    {"id": "c", "mover": None, "next": [["1/1", "c"]]},
    {"id": "W", "payoff": ["1/1", "0/1"]},
    {"id": "L", "payoff": ["0/1", "1/1"]},
]


def _policy_only(states, objective):
    cert = model_certificate(solve(_model(states, objective=objective)), digits=6)
    del cert["solution"]["values"], cert["solution"]["margins"]
    return json.loads(json.dumps(cert))


pytestmark = pytest.mark.xdist_group("test_policy_only_attacks")  # one worker for this file: its module-scoped fixtures
# are built once per suite, not once in each of the two xdist workers (--dist loadgroup)


@pytest.fixture(scope="module")
def certs():
    return {"ring": _policy_only(RING, "max"), "stall": _policy_only(STALL, "zero-sum"),
            "trap": _policy_only(TRAP, "max")}


def _refused(cert) -> VerificationError:
    with pytest.raises(VerificationError) as exc:
        check_certificate(cert)
    return exc.value


def test_the_honest_policy_only_certificates_verify(certs):
    assert "reachability witness: values not stored" in check_certificate(copy.deepcopy(certs["ring"]))
    assert "value of m to A = 0.000000" in check_certificate(copy.deepcopy(certs["stall"]))
    assert "policy witness: values not stored" in check_certificate(copy.deepcopy(certs["trap"]))


def test_a_maximiser_policy_that_goes_round_forever_is_refused(certs):
    # evaluated: never ends, worth 0 on the ring; the 1/2 gamble is better (Bellman), whatever the answer says
    cert = copy.deepcopy(certs["ring"])
    sol = cert["solution"]
    sol["policy"][0] = 0  # s: round (t already goes back)
    assert sol["policy"][2] == 0
    sol["ranks"] = [None, None, None, 0, None]
    err = _refused(cert)
    assert (err.field, err.state) == ("solution.policy", 0) and "not optimal" in str(err)


def test_a_minimiser_credited_with_the_gamble_instead_of_stalling_is_refused_by_the_ranks(certs):
    # the policy "gamble" evaluates to 1/2, and stalling ties one step ahead (Q_stall = V(n) = 1/2): Bellman
    # holds, so the ranks must refuse it (the stall cycle never ends: no rank can decrease along it)
    for ranks in ([1, 1, 0, None], [2, 1, 0, None], [1, 2, 0, None], [None, None, 0, None]):
        cert = copy.deepcopy(certs["stall"])
        sol = cert["solution"]
        sol["policy"] = [1, 1, None, None]
        sol["ranks"] = ranks
        sol["ties"] = [[0, [0, 1]], [1, [0, 1]]]
        cert["answer"].update(value="1/2", decimal="0.500000")
        cert["smallest_margin"] = None
        err = _refused(cert)
        assert err.field == "solution.ranks" and err.state in (0, 1), (ranks, str(err))


def test_a_policy_into_a_closed_loop_is_worth_zero_and_refused_when_it_is_not_optimal(certs):
    cert = copy.deepcopy(certs["trap"])
    sol = cert["solution"]
    assert sol["policy"][0] == 1
    sol["policy"][0] = 0  # into the chance loop c -> c: evaluated 0, the gamble gives 1/2
    err = _refused(cert)
    assert (err.field, err.state) == ("solution.policy", 0)


@pytest.mark.parametrize("where", ["the choice", "the loop"])
def test_a_reward_added_where_play_can_go_on_forever_calls_for_the_reward_witness(certs, where):
    from exactplay.model.canonical import model_digest

    cert = copy.deepcopy(certs["trap"])
    states = cert["model"]["states"]
    if where == "the choice":
        states[0]["actions"][0]["reward"] = ["1/1", "0/1"]
    else:
        assert states[1]["actions"] == [{"next": [["1/1", 1]]}]
        states[1]["actions"][0]["reward"] = ["1/1", "0/1"]
    cert["model_sha256"] = model_digest(cert["model"])
    err = _refused(cert)  # (the certificate's witness was computed without the reward)
    assert err.field == "solution.witness" and "reward" in str(err)
    if where == "the loop":  # claimed with the reward witness: the policy keeps play on the rewarded loop
        cert["solution"]["witness"] = "reward"
        cert["solution"]["components"] = [0]
        err = _refused(cert)
        assert (err.field, err.state) == ("solution.policy", 1) and "infinite" in str(err), str(err)


def test_a_certificate_file_with_a_name_given_twice_is_refused_in_one_line(certs, capsys, tmp_path):
    # before: Python's parser kept the last "answer" (the verified one) and the file verified, while a
    # reader whose parser keeps the first (RFC 8259 leaves it open) saw the value 1 claimed
    from cli_run import run

    text = json.dumps(certs["ring"])
    honest = json.dumps(certs["ring"]["answer"])
    fake = json.dumps({**certs["ring"]["answer"], "value": "1/1", "decimal": "1.000000"})
    path = tmp_path / "twice.json"
    path.write_text(text.replace('"answer": ', f'"answer": {fake}, "answer": ', 1))
    assert json.loads(path.read_text())["answer"] == json.loads(honest)  # what the last-wins parser sees
    status, out, err = run(capsys, "check", path)
    assert status in (1, 2) and "'answer' appears twice" in out + err and "Traceback" not in err
    path.write_text(text)
    status, out, err = run(capsys, "check", path)
    assert status == 0, out + err
