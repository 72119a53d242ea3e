"""Expected reward until the target where a strategy can stay forever outside it: Storm's semantics.

A strategy that does not reach the target with probability 1 has an infinite expected reward, so
``Rmin`` is the least expected reward over the strategies that do (+infinity where there is none:
outside ``Prob1E``), and ``Rmax`` is +infinity wherever some strategy avoids the target with positive
probability (outside ``Prob1A``).  Every value is compared exactly with Storm's (stormpy, exact mode),
state by state, on small DRN models written here (zero-reward loops, unavoidable loops, infinite
states, DTMCs and MDPs) and on random ones; certificates carry the infinite values and the checker
verifies them; a forged certificate is refused.
"""

from __future__ import annotations

import json
from fractions import Fraction

import pytest
import stormpy  # noqa: F401  -- required: the CI must run these tests
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cli_run import run, strict
from exactplay.checker import check_certificate
from exactplay.engine import solve_model
from exactplay.errors import VerificationError
from exactplay.interop.drn import drn_to_model, parse_drn
from exactplay.interop.storm import storm_check_drn
from exactplay.model import model_from_json
from exactplay.model.canonical import model_digest
from exactplay.certify.model import model_certificate


def drn(states: list, mdp: bool = True) -> str:
    """A DRN text: ``states`` is a list of ``(labels, [(action, reward, [(successor, "p/q"), ...]), ...])``;
    state 0 is initial."""
    lines = [f"@type: {'MDP' if mdp else 'DTMC'}", "@value_type: rational", "@parameters", "", "@reward_models",
             "cost", "@nr_states", str(len(states)), "@nr_choices", str(sum(len(a) for _, a in states)), "@model"]
    for s, (labels, actions) in enumerate(states):
        lines.append(f"state {s} [0]" + (" init" if s == 0 else "") + "".join(f" {x}" for x in labels))
        for name, reward, succ in actions:
            lines.append(f"\taction {name if mdp else 0} [{reward}]")
            lines += [f"\t\t{t} : {p}" for t, p in succ]
    return "\n".join(lines) + "\n"


def loop_at(s, name="loop", reward="0"):
    return (name, reward, [(s, "1")])


TARGET = (["target"], [loop_at(None)])


def _target(s):
    return (["target"], [("t", "0", [(s, "1")])])


# the MDP: 'stay' (reward 0, a self-loop) or 'go' (reward 1, to the target): Rmin = 1 (Storm: 1)
STAY_OR_GO = drn([([], [loop_at(0, "stay"), ("go", "1", [(1, "1")])]), _target(1)])

# Rmax: 'safe' reaches the target (reward 2); 'risky' may fall into a loop that never reaches it
RISKY = drn([([], [("safe", "2", [(2, "1")]), ("risky", "1", [(1, "1/2"), (2, "1/2")])]),
             ([], [loop_at(1)]), _target(2)])

# a DTMC with an unavoidable closed class {1, 2} (no strategy reaches the target from there)
UNAVOIDABLE = drn([([], [("", "1", [(1, "1/3"), (3, "2/3")])]), ([], [("", "1", [(2, "1")])]),
                   ([], [("", "0", [(1, "1")])]), _target(3)], mdp=False)

# Rmin with a zero-reward loop {0, 1} and two exits, a positive-reward loop at 2 and an infinite state 4:
# the minimiser must leave the free loop by its cheaper exit (several rounds of policy iteration)
LOOPS = drn([
    ([], [("to1", "0", [(1, "1")]), ("exit", "5", [(3, "1")]), ("gamble", "0", [(3, "1/2"), (4, "1/2")])]),
    ([], [("to0", "0", [(0, "1")]), ("to2", "1", [(2, "1")])]),
    ([], [("spin", "1", [(2, "1")]), ("out", "1", [(3, "1/2"), (0, "1/2")])]),
    _target(3),
    ([], [loop_at(4)]),
])

CASES = {  # name: (DRN text, objective, {state: Storm's value, None for +infinity})
    "stay-or-go Rmin": (STAY_OR_GO, "Rmin", {0: Fraction(1), 1: Fraction(0)}),
    "stay-or-go Rmax": (STAY_OR_GO, "Rmax", {0: None, 1: Fraction(0)}),
    "risky Rmax": (RISKY, "Rmax", {0: None, 1: None, 2: Fraction(0)}),
    "risky Rmin": (RISKY, "Rmin", {0: Fraction(2), 1: None, 2: Fraction(0)}),
    "unavoidable Rmin": (UNAVOIDABLE, "Rmin", {0: None, 1: None, 2: None, 3: Fraction(0)}),
    "unavoidable Rmax": (UNAVOIDABLE, "Rmax", {0: None, 1: None, 2: None, 3: Fraction(0)}),
    "loops Rmin": (LOOPS, "Rmin", {0: Fraction(4), 1: Fraction(4), 2: Fraction(3), 3: Fraction(0), 4: None}),
    "loops Rmax": (LOOPS, "Rmax", {0: None, 1: None, 2: None, 3: Fraction(0), 4: None}),
}


def _exact(sol, order) -> dict:
    out = {}
    for k, d in enumerate(order):
        v = sol.values[k]
        out[d] = None if v is None else Fraction(int(v[0].numerator), int(v[0].denominator))
    return out


@pytest.fixture(params=sorted(CASES))
def case(request, tmp_path):
    text, objective, want = CASES[request.param]
    path = tmp_path / "m.drn"
    path.write_text(text)
    return path, text, objective, want


def test_values_are_storms_exactly_including_infinite_ones(case):
    path, text, objective, want = case
    model, order = drn_to_model(parse_drn(text, str(path)), objective, "target")
    got = _exact(solve_model(model), order)
    assert {d: got[d] for d in want} == want
    storm, _, _ = storm_check_drn(path, f'{objective}=? [F "target"]')
    assert [got[d] for d in range(len(storm))] == storm


def test_solve_json_says_infinite_explicitly_and_the_text_prints_inf(capsys, case):
    path, _, objective, want = case
    status, out, err = run(capsys, "solve", "--model", path, "--objective", objective, "--target", "target",
                           "--json", "--all")
    assert status == 0, err
    data = strict(out)
    for row in data["state_values"]:
        w = want.get(int(row["name"]), "?")
        if w is None:
            assert row["value"] is None and row["value_reason"].startswith("infinite: ")
        elif w != "?":
            assert Fraction(row["value"][0]) == w and "value_reason" not in row
    answer = data["answer"]
    if want[0] is None:
        assert answer["value"] is None and answer["decimal"] == "inf" and answer["value_reason"].startswith("infinite: ")
    else:
        assert Fraction(answer["value"]) == want[0]
    status, out, _ = run(capsys, "solve", "--model", path, "--objective", objective, "--target", "target", "--all")
    assert status == 0
    if want[0] is None:
        assert "exact value : infinite (" in out and "decimal     : inf" in out
    assert (": inf" in out) == (None in want.values())


def test_certificate_of_infinite_values_verifies(capsys, case, tmp_path):
    path, _, objective, want = case
    cert = tmp_path / "cert.json"
    status, out, err = run(capsys, "certify", "--model", path, "--objective", objective, "--target", "target", "-o", cert)
    assert status == 0, err
    data = strict(cert.read_text())
    if None in want.values():
        assert data["solution"]["witness"] == "proper"
    status, out, err = run(capsys, "check", cert)
    assert status == 0 and "1 of 1 certificate(s) verified" in out, out + err


def test_crosscheck_compares_infinite_values_with_storm(capsys, case):
    path, _, objective, _ = case
    status, out, err = run(capsys, "crosscheck", "--model", path, "--objective", objective, "--target", "target", "--json")
    assert status == 0, err
    data = strict(out)
    assert data["verdict"] == "agree" and data["checks"][0]["compared"] == len(CASES_STATES[path.read_text()])


CASES_STATES = {text: want for text, _, want in CASES.values()}


def test_stay_or_go_rmin_is_1_by_the_proper_strategy_go_though_staying_ties_in_bellman(capsys, tmp_path):
    path = tmp_path / "sg.drn"
    path.write_text(STAY_OR_GO)
    status, out, _ = run(capsys, "solve", "--model", path, "--objective", "Rmin", "--target", "target", "--json")
    data = strict(out)
    assert data["answer"]["value"] == "1/1" and data["initial_action"] == "go"
    assert data["state_values"][0]["tied_actions"] == ["stay", "go"]  # Q(stay) = 0 + V = 1 = Q(go)


# ---------------------------------------------------------------- a user's JSON model with never_ending


USER = {"format": "exactplay-model", "version": 1, "name": "stay, go or risk", "players": ["p"], "objective": "min",
        "never_ending": "infinite", "states": [
            {"id": "start", "mover": 0, "actions": [{"name": "stay", "next": [["1/1", "start"]]},
                                                    {"name": "go", "next": [["1/1", "done"]], "reward": ["1/1"]},
                                                    {"name": "risk", "next": [["1/2", "done"], ["1/2", "stuck"]]}]},
            {"id": "stuck", "mover": None, "next": [["1/1", "stuck"]]},
            {"id": "done", "payoff": ["1/2"]}]}


@pytest.mark.parametrize("objective, value", [("min", Fraction(3, 2)), ("max", None)])
def test_a_json_model_declaring_never_ending_infinite_has_storms_semantics(capsys, tmp_path, objective, value):
    path = tmp_path / "user.json"
    path.write_text(json.dumps({**USER, "objective": objective}))
    status, out, err = run(capsys, "solve", "--model", path, "--json")
    assert status == 0, err
    answer = strict(out)["answer"]
    assert (answer["value"] is None) if value is None else Fraction(answer["value"]) == value
    status, out, err = run(capsys, "crosscheck", "--model", path)  # written as R[F "terminal"] for Storm
    assert status == 0 and 'R{"payoff"}' + objective + '=? [F "terminal"]' in out and "verdict: agree" in out, out + err
    status, _, err = run(capsys, "certify", "--model", path, "-o", tmp_path / "c.json")
    assert status == 0, err
    assert run(capsys, "check", tmp_path / "c.json")[0] == 0


def test_prism_export_of_never_ending_infinite_is_checked_by_storm_with_the_same_infinite_values(tmp_path):
    from exactplay.interop import formulate
    from exactplay.interop.prism import write_prism
    from storm_prism import storm_check_prism

    model = model_from_json(json.loads(json.dumps(USER)))
    text, props = write_prism(model)
    assert props.splitlines()[-1] == 'R{"payoff"}min=? [F "terminal"]'
    (tmp_path / "u.prism").write_text(text)
    storm = storm_check_prism(tmp_path / "u.prism", props, len(model))
    sol, form = solve_model(model), formulate(model)
    mine = [None if v is None else Fraction(int(v[0].numerator), int(v[0].denominator)) for v in sol.values]
    assert storm == [form.expected(model, x, s) for s, x in enumerate(mine)] and None in storm


def test_with_every_play_ending_never_ending_infinite_changes_nothing(tmp_path):
    data = json.loads(json.dumps(USER))
    data["states"][0]["actions"] = data["states"][0]["actions"][1:2]  # only 'go', no loop anywhere
    del data["states"][1]
    plain = model_from_json({k: v for k, v in data.items() if k != "never_ending"})
    model = model_from_json(data)
    assert solve_model(model).witness == solve_model(plain).witness == "termination"
    assert solve_model(model).values == solve_model(plain).values


def test_all_zero_rewards_are_crosschecked_as_almost_sure_reachability(capsys, tmp_path):
    data = json.loads(json.dumps(USER))
    del data["states"][0]["actions"][1]["reward"]
    data["states"][2]["payoff"] = ["0/1"]  # (a payoff counts as the reward of the action entering it)
    path = tmp_path / "zero.json"
    path.write_text(json.dumps(data))
    status, out, err = run(capsys, "crosscheck", "--model", path)
    assert status == 0 and "verdict: agree" in out and 'Pmax=? [F "terminal"]' in out, out + err


def test_never_ending_infinite_is_refused_for_two_players(tmp_path):
    data = {**json.loads(json.dumps(USER)), "players": 2, "objective": "zero-sum"}
    for st_ in data["states"]:
        if "payoff" in st_:
            st_["payoff"] = ["1/2", "-1/2"]
    with pytest.raises(Exception, match="one player"):
        model_from_json(json.loads(json.dumps(data)))


# ---------------------------------------------------------------- the other commands


def test_balls_and_dask_refuse_in_one_line_and_auto_solves_exactly(capsys, tmp_path):
    path = tmp_path / "sg.drn"
    path.write_text(STAY_OR_GO)
    prop = ["--objective", "Rmin", "--target", "target"]
    for argv in (["solve", "--backend", "ball"], ["audit", "--backend", "ball"],
                 ["certify", "--backend", "ball", "-o", tmp_path / "b.json"]):
        status, _, err = run(capsys, argv[0], "--model", path, *prop, *argv[1:])
        assert status == 2 and len(err.splitlines()) == 1 and "+infinity" in err and "exact" in err, err
    assert not (tmp_path / "b.json").exists()
    status, out, err = run(capsys, "solve", "--model", path, *prop, "--backend", "auto", "--json")
    assert status == 0 and strict(out)["answer"]["value"] == "1/1", err


def test_audit_shows_float_value_iteration_converging_below_the_proper_value(capsys, tmp_path):
    # from 0 the sweeps settle on the least fixed point: staying for free looks worth 0, not 1
    path = tmp_path / "sg.drn"
    path.write_text(STAY_OR_GO)
    status, out, err = run(capsys, "audit", "--model", path, "--objective", "Rmin", "--target", "target", "--json")
    assert status == 0, err
    data = strict(out)
    assert data["answer_error"] == 1.0 and data["values"]["max_abs_error"] == 1.0
    assert data["values"]["cells"] == 2 and data["infinite_states"] == 0  # (both states finite)


def test_audit_of_an_infinite_initial_value_refuses_in_one_line(capsys, tmp_path):
    path = tmp_path / "sg.drn"
    path.write_text(STAY_OR_GO)
    status, _, err = run(capsys, "audit", "--model", path, "--objective", "Rmax", "--target", "target")
    assert status == 2 and err.startswith("exactplay: error: ") and len(err.splitlines()) == 1
    assert "infinite" in err


def test_negative_rewards_are_storms_where_every_allowed_strategy_ends_play(capsys, tmp_path):
    text = drn([([], [("stay", "-1", [(0, "1/2"), (1, "1/2")]), ("go", "1", [(1, "1")])]), _target(1)])
    path = tmp_path / "neg.drn"
    path.write_text(text)
    model, order = drn_to_model(parse_drn(text, str(path)), "Rmin", "target")
    assert _exact(solve_model(model), order)[0] == Fraction(-2)  # Storm: -2
    loop = drn([([], [("stay", "-1", [(0, "1")]), ("go", "1", [(1, "1")])]), _target(1)])
    path.write_text(loop)
    status, _, err = run(capsys, "solve", "--model", path, "--objective", "Rmin", "--target", "target")
    assert status == 2 and "negative reward" in err and len(err.splitlines()) == 1


# ---------------------------------------------------------------- forged certificates are refused


def _certificate(text: str, objective: str) -> dict:
    model, _ = drn_to_model(parse_drn(text, "m.drn"), objective, "target")
    return json.loads(json.dumps(model_certificate(solve_model(model))))


def _refused(cert: dict, words: str) -> None:
    cert["model_sha256"] = model_digest(cert["model"])
    with pytest.raises(VerificationError, match=words):
        check_certificate(cert)


def test_checker_refuses_the_least_fixed_point_of_a_free_loop():
    cert = _certificate(STAY_OR_GO, "Rmin")
    check_certificate(json.loads(json.dumps(cert)))
    s0 = cert["answer"]["state"]
    cert["solution"]["values"][s0] = ["0/1"]  # staying forever 'costs' 0: a fake fixed point, not attained
    cert["solution"]["policy"][s0] = 0
    cert["solution"]["margins"][s0] = "1/1"
    cert["solution"]["ties"] = []
    cert["answer"].update(value="0/1", decimal="0.00000000")
    _refused(cert, "least rank")


def test_checker_refuses_a_finite_state_claimed_infinite_and_an_infinite_one_claimed_finite():
    cert = _certificate(LOOPS, "Rmin")
    sol = cert["solution"]
    finite = next(s for s, r in enumerate(sol["infinite"]) if r is None and sol["policy"][s] is not None)
    forged = json.loads(json.dumps(cert))
    forged["solution"]["values"][finite] = None
    forged["solution"]["infinite"][finite] = 0
    _refused(forged, "the target may be reached almost surely")
    infinite = next(s for s, r in enumerate(sol["infinite"]) if r is not None)
    forged = json.loads(json.dumps(cert))
    forged["solution"]["values"][infinite] = ["7/1"]
    forged["solution"]["infinite"][infinite] = None
    _refused(forged, "Bellman")  # the gamble into it now counts, and beats the claimed values


def test_checker_refuses_an_rmax_witness_that_does_not_avoid_the_target():
    cert = _certificate(RISKY, "Rmax")
    sol = cert["solution"]
    s0 = cert["answer"]["state"]
    assert sol["values"][s0] is None
    sol["policy"][s0] = [a["name"] for a in cert["model"]["states"][s0]["actions"]].index("safe")
    _refused(cert, "policy|witness")


def test_checker_refuses_an_infinite_answer_written_as_a_number_and_infinite_ranks_without_the_model_semantics():
    cert = _certificate(RISKY, "Rmax")
    forged = json.loads(json.dumps(cert))
    forged["answer"].update(value="2/1", decimal="2.00000000")
    forged["answer"].pop("value_reason")
    _refused(forged, "answer|value")
    forged = json.loads(json.dumps(cert))
    del forged["model"]["never_ending"]  # the same numbers under 'a play that never ends is worth 0'
    _refused(forged, "play can go on forever")


# ---------------------------------------------------------------- random models against Storm


@st.composite
def random_drn(draw):
    """Small DTMCs and MDPs with zero-reward actions, self-loops, absorbing non-target states."""
    n = draw(st.integers(2, 7))
    mdp = draw(st.booleans())
    targets = set(draw(st.lists(st.integers(1, n - 1), min_size=1, max_size=max(1, n // 3))))
    states = []
    for s in range(n):
        if s in targets:
            states.append(_target(s))
            continue
        acts = []
        for a in range(draw(st.integers(1, 3)) if mdp else 1):
            succ = draw(st.lists(st.integers(0, n - 1), min_size=1, max_size=3, unique=True))
            w = draw(st.lists(st.integers(1, 3), min_size=len(succ), max_size=len(succ)))
            acts.append((f"a{a}", draw(st.sampled_from(["0", "0", "0", "1", "2", "1/2"])),
                         [(t, str(Fraction(x, sum(w)))) for t, x in zip(succ, w)]))
        states.append(([], acts))
    return drn(states, mdp)


@settings(max_examples=15, deadline=None, database=None, derandomize=True,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
@given(random_drn(), st.sampled_from(["Rmin", "Rmax"]))
def test_random_models_equal_storm_state_by_state_and_their_certificates_verify(tmp_path, text, objective):
    path = tmp_path / "r.drn"
    path.write_text(text)
    model, order = drn_to_model(parse_drn(text, str(path)), objective, "target")
    sol = solve_model(model)
    got = _exact(sol, order)
    try:
        storm, _, _ = storm_check_drn(path, f'{objective}=? [F "target"]')
    except Exception as exc:  # every reward 0: Storm drops the reward model and checks nothing
        assert "empty" in str(exc)
        storm = None
    if storm is not None:
        assert [got[d] for d in range(len(storm))] == storm
    check_certificate(json.loads(json.dumps(model_certificate(sol))))


@pytest.mark.slow
@settings(max_examples=40, deadline=None, database=None, derandomize=True,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
@given(random_drn(), st.sampled_from(["Rmin", "Rmax"]))
def test_random_models_equal_storm_state_by_state_and_their_certificates_verify_many_examples(tmp_path, text, objective):
    """The same property on 40 examples (15 in the default suite since 2026-12-04)."""
    test_random_models_equal_storm_state_by_state_and_their_certificates_verify.hypothesis.inner_test(tmp_path=tmp_path, text=text, objective=objective)


def test_mutated_certificates_of_infinite_values_are_refused_in_one_line_or_keep_every_value():
    """400 random edits of the solution and answer (digest recomputed): the checker either refuses with
    a VerificationError, never another exception, or accepts values, policy and answer unchanged (only
    another valid witness rank of an infinite state)."""
    import copy
    import random

    certs = [_certificate(text, objective) for text, objective, _ in CASES.values()]
    r = random.Random(22)
    junk = [None, 0, 1, 2, -1, "0/1", "1/1", "4/1", "1/2", ["0/1"], ["4/1"], [], "x", True, {}, "inf"]
    for _ in range(400):
        cert = copy.deepcopy(r.choice(certs))
        before = json.dumps({k: cert["solution"][k] for k in ("values", "policy")}) + json.dumps(cert["answer"])
        field = r.choice(["values", "infinite", "policy", "ranks", "margins", "answer"])
        if field == "answer":
            cert["answer"][r.choice(["value", "decimal", "value_reason"])] = r.choice(junk)
        else:
            row = cert["solution"][field]
            row[r.randrange(len(row))] = r.choice(junk)
        cert["model_sha256"] = model_digest(cert["model"])
        try:
            check_certificate(cert)
        except VerificationError:
            continue
        after = json.dumps({k: cert["solution"][k] for k in ("values", "policy")}) + json.dumps(cert["answer"])
        assert after == before, field
