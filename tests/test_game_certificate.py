"""Certificates of the built-in games: the tool's canonical model and the checker's rebuild agree.

A certificate of kind ``"game"`` stores no model: the checker rebuilds it from
its own statement of the rules (``checker/rules/<game>.py``) and compares the
canonical digest with the tool's, computed from the engine's compiled model
(``model/canonical.py``).  Equal digests at many parameters are the
cross-implementation test of the rules; every semantic edit of a certificate is
rejected naming its field (and the state); only ``tool_version`` and ``notes``
go unverified, and the checker says so.
"""

from __future__ import annotations

import copy
import json
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from exactplay.checker import verify_certificate
from exactplay.checker._strict import MAX_STATES
from exactplay.checker.rules import RULES, rules_module
from exactplay.checker.rules.canonical import rebuild
from exactplay.cli.main import main
from exactplay.errors import UsageError, VerificationError
from exactplay.games import MODELS, game_names, get_game
from exactplay.model import build_model
from exactplay.model.canonical import canonical_model, model_digest

# (game, the certify parameters (as the CLI passes them), the certificate's parameters)
SMALL = {
    "race": ({"target": 4}, {"target": 4}),
    "hold": ({"target": 6, "faces": 3}, {"target": 6, "faces": 3}),
    "chefs": ({"n": 4}, {"n": 4, "skills": "fibonacci"}),
    "coins": ({"coins": (Fraction(3), Fraction(1, 10), Fraction(7), Fraction(2))},
              {"coins": ["3/1", "1/10", "7/1", "2/1"]}),
    "war": ({"ranks": 3, "suits": 2}, {"ranks": 3, "suits": 2}),
}

# parameter sets for the digest comparison: (model factory parameters, certificate parameters)
DIGEST_CASES = [
    ("race", {"target": n}, {"target": n}) for n in (1, 2, 3, 7, 16)
] + [
    ("hold", {"target": t, "faces": f}, {"target": t, "faces": f}) for t, f in ((2, 2), (5, 3), (9, 4), (7, 6), (12, 2))
] + [
    ("chefs", {"n": n}, {"n": n, "skills": "fibonacci"}) for n in (2, 3, 5)
] + [
    ("chefs", {"skills": s}, {"n": len(s.split(",")), "skills": s}) for s in ("1/3,1/1", "1/2,1/2,1/2", "1/1,1/1,1/1",
                                                                             "2/3,1/5,1/1,3/7")
] + [
    ("coins", {"coins": c}, {"coins": [f"{Fraction(x).numerator}/{Fraction(x).denominator}" for x in c]})
    for c in ((5,), (1, 1), (3, -2, 5, Fraction(1, 3)), (0, 0, 0), (1, 2, 3, 4, 5, 6, 7))
] + [
    ("war", {"ranks": r, "suits": s, "abstract": True}, {"ranks": r, "suits": s})
    for r, s in ((1, 2), (2, 1), (3, 2), (2, 3), (6, 1), (4, 2), (5, 6))
]  # the full deck, 13 x 4: test_the_full_war_deck_is_certified_on_its_sorted_counts (its twin merged there)


def certify(game: str):
    return get_game(game).certify


def tool_digest(game: str, model_params: dict) -> str:
    return model_digest(canonical_model(build_model(MODELS[game](**model_params))))


def checker_digest(game: str, params: dict) -> str:
    module = rules_module(game)
    return rebuild(module.Rules(**module.read_params(copy.deepcopy(params))), MAX_STATES).digest


@pytest.mark.parametrize("game, model_params, params", DIGEST_CASES,
                         ids=[f"{g}-{'-'.join(map(str, p.values()))}"[:40] for g, _, p in DIGEST_CASES])
def test_the_checkers_rebuild_of_the_rules_has_the_tools_canonical_digest(game, model_params, params):
    assert checker_digest(game, params) == tool_digest(game, model_params)


@settings(max_examples=25, deadline=None)
@given(st.lists(st.fractions(min_value=-5, max_value=5, max_denominator=7), min_size=1, max_size=6))
def test_the_coin_rows_rules_agree_for_any_row(row):
    params = {"coins": [f"{c.numerator}/{c.denominator}" for c in row]}
    assert checker_digest("coins", params) == tool_digest("coins", {"coins": row})


def test_the_digest_depends_on_the_rules_a_changed_rule_changes_it():
    """The comparison is not vacuous: a rebuild of race with one more T, or with hold's tie order
    swapped, has another digest."""
    module = rules_module("race")
    rules = module.Rules(5)
    rules.picks = rules.picks[:-1]
    assert rebuild(rules, MAX_STATES).digest != tool_digest("race", {"target": 5})
    hold = rules_module("hold").Rules(5, 3)
    step = hold.step
    hold.step = lambda s: (lambda r: (r[0], r[1][::-1]) if r[0] != "end" else r)(step(s))
    assert rebuild(hold, MAX_STATES).digest != tool_digest("hold", {"target": 5, "faces": 3})


def test_every_registered_game_has_rules_in_the_checker():
    assert set(RULES) == set(game_names())


pytestmark = pytest.mark.xdist_group("test_game_certificate")  # one worker for this file: its module-scoped fixtures
# are built once per suite, not once in each of the two xdist workers (--dist loadgroup)


@pytest.fixture(scope="module")
def certs():
    return {g: json.loads(json.dumps(certify(g)(**p))) for g, (p, _) in SMALL.items()}


@pytest.mark.parametrize("game", sorted(SMALL))
def test_each_games_certificate_verifies_and_names_its_answer(game, certs):
    cert = certs[game]
    assert cert["version"] == 2 and cert["kind"] == "game" and cert["params"] == SMALL[game][1]
    found = verify_certificate(copy.deepcopy(cert))
    assert found["game"] == game and found["params"] == SMALL[game][1]
    assert found["unverified_fields"] == ["notes", "tool_version"]
    assert "digest matches" in found["summary"] and "Bellman" in found["summary"]
    want = {"race": "G(4,4)", "hold": "V(0,0)", "chefs": "E(4)", "coins": "V(0,3)", "war": "P(A wins every turn)"}
    assert cert["answer"]["name"] == want[game]


def test_the_answers_are_the_hand_written_solvers_values(certs):
    """The engine's answer on the game's model is the one ``solve`` prints from the game's own
    (hand-written) solver."""
    for game, (p, _) in SMALL.items():
        solved = get_game(game).solve(backend="mpq", digits=8, full=False, **p)
        answer = solved.data["answer"]
        assert (certs[game]["answer"]["value"], certs[game]["answer"]["decimal"]) == (answer["value"],
                                                                                      answer["decimal"]), game


def rejected(cert) -> VerificationError:
    with pytest.raises(VerificationError) as info:
        verify_certificate(cert)
    return info.value


def choice_state(cert, tied: bool | None = None) -> int:
    sol = cert["solution"]
    ties = {s for s, _ in sol["ties"]}
    return next(s for s, m in enumerate(sol["margins"])
                if m is not None and (tied is None or (s in ties) == tied))


def mutations(game: str, cert: dict):
    """(what, edit, field, state): semantic edits that must be rejected, naming field and state."""
    s0 = cert["answer"]["state"]
    yield "answer name", lambda c: c["answer"].update(name=c["answer"]["name"] + "'"), "answer.name", None
    d = cert["answer"]["decimal"]
    yield ("decimal", lambda c: c["answer"].update(decimal=d[:-1] + str((int(d[-1]) + 1) % 10)),
           "answer.decimal", s0)
    yield "value", lambda c: c["answer"].update(value="1/7"), "answer.value", s0
    yield "parameter", lambda c: c["params"].update({k: v for k, v in PARAM_EDIT[game].items()}), "model_sha256", None
    yield "digest", lambda c: c.update(model_sha256="0" * 64), "model_sha256", None
    live = next(k for k, a in enumerate(cert["solution"]["policy"]) if a is not None)
    yield "state value", lambda c: c["solution"]["values"][live].__setitem__(0, "1/7"), "solution.values", live
    if any(m is not None for m in cert["solution"]["margins"]):
        s = choice_state(cert)
        yield "margin", lambda c: c["solution"]["margins"].__setitem__(s, "999/1"), "solution.margins", s
    sm = cert["smallest_margin"]
    if sm is not None:
        yield ("smallest gap", lambda c: c["smallest_margin"].update(value="999/1"), "smallest_margin.value",
               sm["state"])
    untied = [k for k, m in enumerate(cert["solution"]["margins"]) if m not in (None, "0/1")]
    if untied:
        u = untied[0]
        n_actions = 2
        yield ("policy entry", lambda c: c["solution"]["policy"].__setitem__(u, (c["solution"]["policy"][u] + 1)
                                                                            % n_actions), "solution", u)
        yield "invented tie", lambda c: c["solution"]["ties"].append([u, [0, 1]]) or c["solution"]["ties"].sort(), \
            "solution.ties", u
    if cert["solution"]["ties"]:
        t = cert["solution"]["ties"][0][0]
        yield "dropped tie", lambda c: c["solution"]["ties"].pop(0), "solution.ties", t


PARAM_EDIT = {"race": {"target": 5}, "hold": {"faces": 4}, "chefs": {"skills": "1/2,1/2,1/2,1/2"},
              "coins": {"coins": ["3/1", "1/10", "7/1", "3/1"]}, "war": {"suits": 4}}


@pytest.mark.parametrize("game", sorted(SMALL))
def test_every_semantic_mutation_is_rejected_naming_the_field_and_the_state(game, certs):
    seen = []
    for what, edit, field, state in mutations(game, certs[game]):
        c = copy.deepcopy(certs[game])
        edit(c)
        err = rejected(c)
        assert err.field.startswith(field), (what, err.field, str(err))
        if state is not None:
            assert err.state == state, (what, err.state, str(err))
            assert f"state {state}" in str(err) and "[state" in str(err)  # by number and by name
        seen.append(what)
    assert {"answer name", "decimal", "parameter", "digest", "state value"} <= set(seen)
    assert ("margin" in seen) == (game != "war")  # war is chance only: no choice, no margin


def test_a_policy_entry_a_tie_and_a_smallest_gap_are_covered_by_some_game(certs):
    covered = {what for g in SMALL for what, *_ in mutations(g, certs[g])}
    assert {"policy entry", "invented tie", "dropped tie", "smallest gap"} <= covered


@pytest.mark.parametrize("game", sorted(SMALL))
def test_only_tool_version_and_notes_are_unverified_every_other_key_is_checked(game, certs):
    cert = certs[game]
    for key in ("tool_version", "notes"):
        c = copy.deepcopy(cert)
        c[key] = "edited"
        assert verify_certificate(c)["unverified_fields"] == ["notes", "tool_version"]
    for key in cert:
        if key in ("tool_version", "notes"):
            continue
        c = copy.deepcopy(cert)
        del c[key]
        with pytest.raises(VerificationError):
            verify_certificate(c)
    c = copy.deepcopy(cert)
    c["audit"] = {}
    assert rejected(c).field == "certificate"


def test_check_names_the_unverified_fields_of_a_v2_game_certificate(certs, tmp_path, capsys):
    path = tmp_path / "c.json"
    path.write_text(json.dumps(certs["race"]))
    assert main(["check", str(path)]) == 0
    out = capsys.readouterr().out
    assert "informational fields not re-verified: notes, tool_version" in out and "G(4,4)" in out


def test_an_instance_beyond_the_checkers_limit_is_refused_by_tool_and_checker_alike(certs):
    with pytest.raises(UsageError, match="more than the checker's 3,000,000"):
        certify("hold")(target=150, faces=6)
    c = copy.deepcopy(certs["hold"])
    c["params"] = {"target": 150, "faces": 6}
    err = rejected(c)
    assert err.field == "params" and "more than the 3,000,000 a certificate is checked with" in str(err)


def test_the_full_war_deck_is_certified_on_its_sorted_counts():
    """610,350,368 rank-ordered count vectors, 1,198 sorted ones (and the two ends): the certificate's
    model is the abstract deck, in the tool and in the checker's rules alike."""
    model = build_model(MODELS["war"](ranks=13, suits=4, abstract=True))  # built once for both checks
    assert len(model) == 1200
    assert checker_digest("war", {"ranks": 13, "suits": 4}) == model_digest(canonical_model(model))


def test_certify_writes_a_certificate_check_verifies(tmp_path, capsys):
    out = tmp_path / "race.json"
    assert main(["certify", "race", "--target", "3", "-o", str(out), "--quiet"]) == 0
    assert json.loads(out.read_text())["kind"] == "game"
    assert main(["check", str(out), "--expect", "target=3"]) == 0
    assert "G(3,3) = 0.54403292" in capsys.readouterr().out


def test_the_rules_restate_the_solvers_limits_and_the_state_bounds_hold():
    """The checker's restated limits are the solvers'; each ``state_bound`` is an upper bound on the
    states the tool's model has (so a certificate the tool writes is never refused for its size)."""
    import exactplay.games.chefs as chefs
    import exactplay.games.coins as coins
    import exactplay.games.hold as hold
    import exactplay.games.race as race
    import exactplay.games.war as war

    assert rules_module("race").MAX_TARGET == race.MAX_AUDIT_TARGET  # certify's limit
    assert (rules_module("hold").MAX_TARGET, rules_module("hold").MAX_FACES) == (hold.MAX_TARGET, hold.MAX_FACES)
    assert (rules_module("chefs").MIN_N, rules_module("chefs").MAX_N) == (chefs.MIN_N, chefs.MAX_CERTIFY_N)
    assert rules_module("coins").MAX_COINS == coins.MAX_COINS
    w = rules_module("war")
    assert (w.MAX_RANKS, w.MAX_SUITS, w.MAX_CARDS) == (war.MAX_RANKS, war.MAX_SUITS, war.MAX_CARDS)
    for game, model_params, params in DIGEST_CASES:
        module = rules_module(game)
        states = len(build_model(MODELS[game](**model_params)))
        assert states <= module.state_bound(module.read_params(copy.deepcopy(params))), (game, params)


def test_certify_refuses_what_the_checker_would_refuse_before_computing():
    """solve goes further than certify (race 2000, chefs 16); a certificate is only written
    within the checker's limits (race 500, chefs 15), never one the checker then rejects."""
    with pytest.raises(UsageError, match="beyond the certificates' limit 500"):
        certify("race")(target=501)
    with pytest.raises(UsageError, match="beyond the certificates' limit 15"):
        certify("chefs")(n=16)


def test_certify_with_tile_is_refused_before_a_cluster_starts(capsys, tmp_path):
    """certify --workers runs the engine's levels of the game's model: --tile (which splits the tables
    of a distributed solve) is a usage error, said before any cluster or computation; no file is written."""
    from cli_run import run

    out = tmp_path / "c.json"
    status, stdout, err = run(capsys, "certify", "race", "--target", "5", "--workers", "2", "--tile", "3",
                              "-o", out)
    assert status == 2 and stdout == "" and not out.exists()
    assert err.strip().startswith("exactplay: error: --tile splits the tables of a distributed solve")
