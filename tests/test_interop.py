"""PRISM and DRN export, DRN import, and the exact cross-check against Storm (stormpy, a test dependency).

stormpy is imported plainly: without it this module fails, it does not skip.
"""

from __future__ import annotations

import json
from fractions import Fraction
from pathlib import Path

import pytest
import stormpy  # noqa: F401  -- required: the CI must run these tests

from exactplay.engine import solve_model
from exactplay.engine.value_iteration import value_iteration
from exactplay.interop import fix_player, formulate
from exactplay.interop.drn import drn_to_model, parse_drn, read_drn, write_drn
from exactplay.interop.prism import write_prism
from exactplay.interop.storm import crosscheck, storm_check_drn
from exactplay.model import ModelError, build_model, load_model_file
from exactplay.model.load import make_game
from cli_run import run, strict
from storm_prism import storm_check_prism

ROOT = Path(__file__).resolve().parent.parent
PIG = str(ROOT / "examples" / "pig.py") + ":make_game"
LOOP = str(ROOT / "examples" / "loop-or-gamble.json")
FIX = ROOT / "tests" / "fixtures" / "storm"


def F(x) -> Fraction:
    return Fraction(int(x.numerator), int(x.denominator))


def pig(goal: int):
    return build_model(make_game(PIG, {"goal": goal}))


def values(model, component=None):
    sol = solve_model(model)
    c = formulate(model).component if component is None else component
    k = sol.components.index(c)
    return [F(v[k]) for v in sol.values], sol


class PayoffGame:
    """One chooser, payoffs that are not 0/1, and rewards: the expected-reward formulation."""

    num_players = 1
    name = "payoff game"

    def initial_state(self):
        return "start"

    def is_terminal(self, s):
        return s.startswith("end")

    def payoff(self, s):
        return [{"end-small": Fraction(1, 2), "end-big": 3, "end-none": 0}[s]]

    def mover(self, s):
        return 0 if s in ("start", "risk") else None

    def actions(self, s):
        return ["safe", "risky"] if s == "start" else ["stop", "again"]

    def transitions(self, s, a):
        if s == "start":
            return [(1, "end-small")] if a == "safe" else [(Fraction(1, 3), "risk"), (Fraction(2, 3), "coin")]
        if s == "coin":
            return [(Fraction(1, 2), "end-none"), (Fraction(1, 2), "risk")]
        return [(1, "end-big")] if a == "stop" else [(Fraction(1, 4), "start"), (Fraction(3, 4), "end-none")]

    def reward(self, s, a):
        return [Fraction(1, 10)] if a == "again" else None


# ---------------------------------------------------------------- DRN round trips

def _mdp_models():
    loop = load_model_file(LOOP)
    p5 = pig(5)
    p5_fixed = fix_player(p5, solve_model(p5).policy, 1)
    p4 = pig(4)
    sol4 = solve_model(p4)
    dtmc = fix_player(fix_player(p4, sol4.policy, 0), sol4.policy, 1)
    return {"loop-or-gamble": loop, "pig5-second-fixed": p5_fixed, "pig4-both-fixed": dtmc,
            "pig5-first-fixed": fix_player(p5, solve_model(p5).policy, 0)}


@pytest.mark.parametrize("name", ["loop-or-gamble", "pig5-second-fixed", "pig4-both-fixed", "pig5-first-fixed"])
def test_drn_round_trip_gives_the_same_exact_solution(name):
    model = _mdp_models()[name]
    form = formulate(model)
    text = write_drn(model, form)
    drn = parse_drn(text, f"{name}.drn")
    assert drn.type == {"dtmc": "DTMC", "mdp": "MDP"}[form.kind]
    objective = "Pmin" if form.direction == "min" else "Pmax"
    back, order = drn_to_model(drn, objective, "target")
    want, _ = values(model)
    got, _ = values(back, 0)
    assert [got[order.index(d)] for d in range(len(model))] == want


def test_drn_round_trip_of_a_reward_formulation():
    model = build_model(PayoffGame())
    form = formulate(model)
    assert form.reward and form.formula() == 'R{"payoff"}max=? [C]'
    drn = parse_drn(write_drn(model, form), "payoff.drn")
    assert drn.reward_models == ["payoff"]
    back, order = drn_to_model(drn, "Rmax", "terminal")
    want, sol = values(model)
    got, _ = values(back, 0)
    for d in range(len(model)):
        if model.terminal[d] is None:
            assert got[order.index(d)] == want[d]
    assert want[0] == sol.values[0][0]


# ---------------------------------------------------------------- PRISM, parsed and built by Storm

@pytest.mark.parametrize("name", ["loop-or-gamble", "pig5-second-fixed", "pig4-both-fixed", "pig5-first-fixed"])
def test_prism_export_checked_by_storm_gives_the_same_exact_values(tmp_path, name):
    model = _mdp_models()[name]
    text, props = write_prism(model)
    path = tmp_path / "m.prism"
    path.write_text(text)
    storm = storm_check_prism(str(path), props, len(model))
    want = values(model)[0]
    assert storm[model.initial] is not None
    assert [s for s in range(len(model)) if storm[s] is not None and storm[s] != want[s]] == []
    assert sum(v is not None for v in storm) >= 4


def test_prism_export_of_a_reward_formulation(tmp_path):
    model = build_model(PayoffGame())
    text, props = write_prism(model)
    assert 'rewards "payoff"' in text and 'R{"payoff"}max=? [C]' in props
    (tmp_path / "m.prism").write_text(text)
    storm = storm_check_prism(str(tmp_path / "m.prism"), props, len(model))
    want, _ = values(model)
    assert [s for s in range(len(model)) if model.terminal[s] is None and storm[s] is not None and storm[s] != want[s]] == []


def test_prism_smg_of_a_two_player_game_is_built_by_storm(tmp_path):
    model = pig(4)
    text, props = write_prism(model)
    assert text.count("endplayer") == 2 and "smg" in text.splitlines()
    assert props.strip().endswith('<<p0>> Pmax=? [F "target"]')
    (tmp_path / "g.prism").write_text(text)
    program = stormpy.parse_prism_program(str(tmp_path / "g.prism"))
    built = stormpy.build_model[stormpy.Rational](program)
    assert built.nr_states == len(model)
    stormpy.parse_properties(props.splitlines()[-1], program)


def test_export_cli_writes_drn_prism_props_and_json(capsys, tmp_path):
    status, out, err = run(capsys, "export", "--game", PIG, "--param", "goal=3", "--format", "drn", "-o", "-")
    assert status == 2 and "no two-player games" in err and err.count("\n") == 1
    status, out, _ = run(capsys, "export", "--game", PIG, "--param", "goal=3", "--format", "drn", "--fix", "1", "-o", "-")
    assert status == 0 and "@value_type: rational" in out and "@type: MDP" in out
    status, out, _ = run(capsys, "export", "--game", PIG, "--param", "goal=3", "--format", "prism",
                         "-o", tmp_path / "pig.prism")
    assert status == 0
    assert (tmp_path / "pig.props").read_text().strip().endswith('<<p0>> Pmax=? [F "target"]')
    status, out, _ = run(capsys, "export", "--model", LOOP, "--format", "json", "-o", tmp_path / "m.json")
    assert status == 0
    assert json.loads((tmp_path / "m.json").read_text())["format"] == "exactplay-model"


# ---------------------------------------------------------------- cross-checks against Storm

@pytest.mark.parametrize("goal", [3, 4, 5, 6])
def test_crosscheck_pig_against_storm_both_fixed_strategies(capsys, goal):
    status, out, _ = run(capsys, "crosscheck", "--game", PIG, "--param", f"goal={goal}", "-q", "--json")
    data = json.loads(out)
    assert status == 0 and data["verdict"] == "agree"
    assert [c["formula"] for c in data["checks"]] == ['Pmin=? [F "target"]', 'Pmax=? [F "target"]']
    assert all(c["compared"] == data["states"] and not c["mismatches"] for c in data["checks"])


def test_crosscheck_loop_or_gamble_prints_what_was_compared(capsys):
    status, out, _ = run(capsys, "crosscheck", "--model", LOOP)
    assert status == 0
    assert 'Pmax=? [F "target"]: 4/4 states equal exactly' in out and out.rstrip().endswith("verdict: agree")


def test_crosscheck_policy_iteration_method(capsys):
    status, out, _ = run(capsys, "crosscheck", "--game", PIG, "--param", "goal=5", "--method", "policy-iteration", "-q")
    assert status == 0 and "verdict: agree" in out


def test_crosscheck_reward_formulation_against_storm():
    model = build_model(PayoffGame())
    checks = crosscheck(model, solve_model(model))
    assert [c.formula for c in checks] == ['R{"payoff"}max=? [C]'] and checks[0].ok


def test_crosscheck_reports_a_disagreement_and_exits_1(capsys, monkeypatch):
    import exactplay.engine as engine

    real = engine.solve_model

    def wrong(model, *a, **k):
        sol = real(model, *a, **k)
        s = next(s for s in range(len(model)) if model.terminal[s] is None)
        sol.values[s] = tuple(v + Fraction(1, 10**30) for v in sol.values[s])
        return sol

    monkeypatch.setattr(engine, "solve_model", wrong)
    status, out, _ = run(capsys, "crosscheck", "--game", PIG, "--param", "goal=3", "-q")
    assert status == 1 and "verdict: DISAGREE" in out and "exactplay" in out


# ---------------------------------------------------------------- classic models as fixtures

def test_gamblers_ruin_bold_play_value_and_storm(capsys):
    model, order = drn_to_model(read_drn(FIX / "gamblers_ruin.drn"), "Pmax", "goal")
    got, sol = values(model, 0)
    assert got[0] == Fraction(2, 5)  # bold play from capital 5 of 10: stake everything once
    status, out, _ = run(capsys, "crosscheck", "--model", FIX / "gamblers_ruin.drn", "--objective", "Pmax",
                         "--target", "goal")
    assert status == 0 and "11/11 states equal exactly" in out
    status, out, _ = run(capsys, "crosscheck", "--model", FIX / "gamblers_ruin.drn", "--objective", "Pmin",
                         "--target", "goal", "--avoid", "broke")
    assert status == 0 and "verdict: agree" in out


def test_leader_election_storm_written_drn(capsys):
    drn = FIX / "leader_sync.drn"  # written by Storm from leader_sync.pm
    model, _ = drn_to_model(read_drn(drn), "Rmin", "elected")
    assert values(model, 0)[0][0] == Fraction(9, 5)
    model, _ = drn_to_model(read_drn(drn), "Pmax", '"((phase = 2) & (v3 = 3))"')
    assert values(model, 0)[0][0] == Fraction(4, 15)
    for args in (["--objective", "Rmax", "--target", "elected"],
                 ["--objective", "Pmin", "--target", 'elected & !"((phase = 2) & (v3 = 3))"']):
        status, out, _ = run(capsys, "crosscheck", "--model", drn, *args)
        assert status == 0 and "54/54 states equal exactly" in out


def test_leader_election_prism_source_gives_the_same_value():
    program = stormpy.parse_prism_program(str(FIX / "leader_sync.pm"))
    built = stormpy.build_model[stormpy.Rational](program)
    prop = stormpy.parse_properties('R{"rounds"}=? [F "elected"]', program)[0]
    res = stormpy.model_checking(built, prop, environment=stormpy.environments.exact())
    assert Fraction(str(res.get_value(built.initial_states[0]))) == Fraction(9, 5)


def test_float_value_iteration_stops_early_on_the_slow_leak():
    model, _ = drn_to_model(read_drn(FIX / "slow_leak.drn"), "Pmax", "win")
    exact, _ = values(model, 0)
    assert exact[0] == Fraction(1, 2)
    storm, _, _ = storm_check_drn(str(FIX / "slow_leak.drn"), 'P=? [F "win"]')
    assert storm[0] == Fraction(1, 2)
    loose = value_iteration(model, tol=1e-6)  # the usual 1e-6 stopping threshold
    err = abs(Fraction(loose.values[0][0]) - exact[0])
    assert err > Fraction(1, 10**4)  # stopped early: wrong in the fourth decimal
    tight = value_iteration(model, tol=1e-15)
    assert abs(Fraction(tight.values[0][0]) - exact[0]) < Fraction(1, 10**9)


# ---------------------------------------------------------------- DRN solve path and bad input

def test_solve_and_certify_a_drn_model(capsys, tmp_path):
    status, out, _ = run(capsys, "solve", "--model", FIX / "gamblers_ruin.drn", "--objective", "Pmax",
                         "--target", "goal", "--json")
    assert status == 0 and json.loads(out)["answer"]["value"] == "2/5"
    status, out, _ = run(capsys, "certify", "--model", FIX / "gamblers_ruin.drn", "--objective", "Pmax",
                         "--target", "goal", "-o", tmp_path / "c.json")
    assert status == 0
    cert = json.loads((tmp_path / "c.json").read_text())
    assert cert["answer"]["value"] == "2/5" and cert["model"]["initial"] == 0
    status, out, _ = run(capsys, "audit", "--model", FIX / "slow_leak.drn", "--objective", "Pmax", "--target", "win")
    assert status == 0


GOOD = """@type: MDP
@value_type: rational
@parameters

@reward_models

@nr_states
2
@nr_choices
2
@model
state 0 init
	action a
		0 : 1/2
		1 : 1/2
state 1 done
	action b
		1 : 1
"""


@pytest.mark.parametrize("edit,line,words", [
    (("@nr_states\n2", "@nr_states\n3"), 19, "2 states, but @nr_states says 3"),
    (("@nr_choices\n2", "@nr_choices\n5"), 19, "2 choices, but @nr_choices says 5"),
    (("0 : 1/2", "0 : 1/3"), 13, "probabilities sum to 5/6, not exactly 1"),
    (("0 : 1/2", "0 : 0.5"), 14, "is not an exact rational"),
    (("0 : 1/2", "0 : -1/2"), 14, "is not between 0 and 1"),
    (("1 : 1/2", "7 : 1/2"), 15, "successor 7 is not a state"),
    (("state 1 done", "state 2 done"), 16, "expected state 1"),
    (("@type: MDP", "@type: CTMDP"), 1, "exactplay reads DTMC, MDP, CTMC and Markov Automaton"),
    (("state 0 init", "state 0"), 19, "no initial state"),
    (("\taction b\n", ""), 17, "a transition before its action line"),
    (("1 : 1/2", "0 : 1/2"), 15, "successor 0 appears twice in one action"),
    (("1 : 1/2", "1 : 1/2\n\t\t0 : 0"), 16, "successor 0 appears twice in one action"),
    (("\t\t0 : 1/2\n\t\t1 : 1/2", ""), 13, "action a of state 0 has no successor"),
])
def test_bad_drn_is_one_line_with_the_line_number(capsys, tmp_path, edit, line, words):
    path = tmp_path / "bad.drn"
    path.write_text(GOOD.replace(*edit, 1))
    status, out, err = run(capsys, "solve", "--model", path, "--objective", "Pmax", "--target", "done")
    assert status == 2 and out == ""
    assert err.count("\n") == 1 and f"bad.drn:{line}:" in err and words in err, err


def test_good_drn_and_label_expression_errors(capsys, tmp_path):
    path = tmp_path / "ok.drn"
    path.write_text(GOOD)
    status, out, _ = run(capsys, "solve", "--model", path, "--objective", "Pmax", "--target", "done", "--json")
    assert status == 0 and json.loads(out)["answer"]["value"] == "1/1"
    for target, words in (("nope", 'unknown label "nope"'), ("done &", "ends with an operator"),
                          ("done done", "without '&'"), ('"unterminated', "cannot read")):
        status, _, err = run(capsys, "solve", "--model", path, "--objective", "Pmax", "--target", target)
        assert status == 2 and words in err and err.count("\n") == 1, err
    status, _, err = run(capsys, "solve", "--model", path, "--objective", "Pmax")
    assert status == 2 and "needs --objective" in err
    status, _, err = run(capsys, "solve", "--model", LOOP, "--target", "won")
    assert status == 2 and "--target is an option of" in err and "a DRN model (exactplay solve --model FILE.drn" in err


def test_rewards_where_the_target_is_not_sure_are_infinite_as_in_storm(capsys):
    # (refused before issue 22 item 10) a strategy that may go broke never reaches the goal almost surely:
    # Storm's Rmin is +infinity there; tests/test_proper.py has the semantics in detail
    status, out, err = run(capsys, "solve", "--model", FIX / "gamblers_ruin.drn", "--objective", "Rmin", "--target", "goal",
                           "--json")
    assert status == 0, err
    answer = strict(out)["answer"]
    assert answer["value"] is None and answer["value_reason"].startswith("infinite: ") and answer["decimal"] == "inf"
    status, out, _ = run(capsys, "crosscheck", "--model", FIX / "gamblers_ruin.drn", "--objective", "Rmin", "--target", "goal")
    assert status == 0 and "11/11 states equal exactly" in out


def test_label_with_quotes_and_spaces_survives_drn(tmp_path):
    model = load_model_file(LOOP)
    model.labels[2] = ["won", "a label with spaces", 'say "hi"']
    drn = parse_drn(write_drn(model), "x.drn")
    assert drn.labels[2] == ["target", "terminal", "won", "a label with spaces", "say 'hi'"]
    back, _ = drn_to_model(drn, "Pmax", '"a label with spaces"')
    assert back.terminal[2] == (Fraction(1),)
    back, _ = drn_to_model(drn, "Pmax", '"a label with spaces" & !"say \'hi\'"')
    assert back.terminal[2] == (Fraction(0),)  # no state is a target: the absorbing state is worth 0


def test_model_error_is_a_value_error():
    with pytest.raises(ModelError):
        parse_drn("@type: MDP\n@model\n", "x.drn")


# ---------------------------------------------------------------- random models: Storm as an independent oracle

def random_model(rng, n: int, kind: str):
    """A random model of ``n`` states: ``smg`` (two players, zero-sum, 0/1 payoffs), ``multi`` (three
    players, each maximising its own 0/1 payoff), ``mdp`` (one player,
    max or min, payoffs in {0, 1/2, 1, 3/2, 3}), ``reward`` (as mdp, with rewards on some actions)."""
    from exactplay.model import Model

    terminal, mover, actions, trans, rewards = [], [], [], [], []
    nt = rng.randint(1, 3)
    players = {"smg": 2, "multi": 3}.get(kind, 1)
    for s in range(n):
        if s >= n - nt:
            if kind == "multi":
                w = rng.randrange(3)
                terminal.append(tuple(Fraction(int(i == w)) for i in range(3)))
            elif kind == "smg":
                x = Fraction(rng.choice([0, 1]))
                terminal.append((x, 1 - x))
            else:
                terminal.append((Fraction(rng.choice([0, 1, 3]), rng.choice([1, 2])),))
            mover.append(None), actions.append([]), trans.append([]), rewards.append([])
            continue
        k = rng.choice([1, 1, 2, 3])
        dists = []
        for _ in range(k):
            succ = rng.sample(range(n), min(rng.choice([1, 1, 2, 3]), n))
            ws = [rng.randint(1, 4) for _ in succ]
            dists.append(tuple((t, Fraction(w, sum(ws))) for t, w in zip(succ, ws)))
        terminal.append(None)
        mover.append(rng.randrange(players) if k > 1 else None)
        actions.append([f"a{i}" for i in range(k)] if k > 1 else [None])
        trans.append(dists)
        rewards.append([(Fraction(rng.randint(1, 3), rng.randint(1, 3)),) if kind == "reward" and rng.random() < 0.5
                        else None for _ in range(k)])
    return Model(name=f"random {kind}", num_players=players, player_names=[f"p{i}" for i in range(players)],
                 objective={"smg": "zero-sum", "multi": "max"}.get(kind) or rng.choice(["max", "min"]),
                 states=[str(i) for i in range(n)], terminal=terminal, mover=mover, actions=actions, trans=trans,
                 rewards=rewards, labels=[[] for _ in range(n)])


def _random_crosschecks(kind: str, seeds, nmax: int) -> tuple[int, list]:
    import random

    checked, bad = 0, []
    for seed in seeds:
        rng = random.Random(seed)
        model = random_model(rng, rng.randint(2, nmax), kind)
        try:
            sol = solve_model(model)
        except ModelError:
            continue  # refused by the engine's stated limits (rewards where play can go on forever)
        for c in crosscheck(model, sol):
            checked += 1
            if not c.ok:
                bad.append((seed, c.formula, c.mismatches[:2]))
    return checked, bad


@pytest.mark.parametrize("kind", ["smg", "multi", "mdp", "reward"])
def test_random_models_agree_with_storm_exactly(kind):
    checked, bad = _random_crosschecks(kind, range(120), 10)
    assert bad == [] and checked >= 60


@pytest.mark.slow
@pytest.mark.parametrize("kind", ["smg", "multi", "mdp", "reward"])
def test_many_random_models_agree_with_storm_exactly(kind):
    checked, bad = _random_crosschecks(kind, range(1000, 4000), 30)
    assert bad == [] and checked >= 500


# Found by the random cross-check: a reward collected before play reaches a state worth 0 that never
# ends (Storm's R[C] is the reward).  The engine refuses such models with one clear ModelError: the
# total reward of a play that can go on forever is not certified.

def _reward_then_forever(chooser_on_cycle: bool):
    from exactplay.model import Model

    one = Fraction(1)
    if chooser_on_cycle:  # s1: the player may wait forever or stop (worth 0)
        s1 = dict(mover=0, actions=["wait", "stop"], trans=[((1, one),), ((2, one),)], rewards=[None, None])
    else:  # s1: loops forever
        s1 = dict(mover=None, actions=[None], trans=[((1, one),)], rewards=[None])
    return Model(name="reward then forever", num_players=1, player_names=["p"], objective="max",
                 states=["s0", "s1", "end"], terminal=[None, None, (Fraction(0),)], mover=[None, s1["mover"], None],
                 actions=[[None], s1["actions"], []], trans=[[((1, one),)], s1["trans"], []],
                 rewards=[[(one,)], s1["rewards"], []])


def _value_or_refusal(model):
    """Storm's value (R[C] = 1) or a clear refusal (ModelError); never an internal error."""
    try:
        sol = solve_model(model)
    except ModelError:
        return
    assert sol.values[0][0] == 1


def test_engine_reward_before_a_never_ending_state_is_refused_not_an_internal_error():
    _value_or_refusal(_reward_then_forever(False))


def test_engine_reward_before_a_choice_on_a_cycle_is_refused_not_an_internal_error():
    _value_or_refusal(_reward_then_forever(True))


# ---------------------------------------------------------------- built-in games: their solver, the engine, Storm

BUILTIN = "exactplay.games.{game}.model:make_game"  # the games' own models (export GAME, certify GAME)


def _three_way(game: str, params: dict):
    """The engine's value of the game's model, after Storm agreed with it at every state."""
    from exactplay.api.sources import BUILTIN_ANSWERS

    model = build_model(make_game(BUILTIN.format(game=game), params))
    sol = solve_model(model)
    checks = crosscheck(model, sol)
    assert checks and all(c.ok and c.compared == len(model) for c in checks)
    component, _ = BUILTIN_ANSWERS[game](params, model)  # the answer its certificate names
    return F(sol.values[model.initial][sol.components.index(component)])


@pytest.mark.parametrize("target", list(range(1, 11)) + [20])
def test_race_builtin_engine_and_storm_agree(target):
    from exactplay.games.race import solve_table

    assert _three_way("race", {"target": target}) == F(solve_table(target, "mpq").answer)


@pytest.mark.parametrize("target,faces", [(2, 6), (5, 6), (10, 6), (12, 3), (8, 2), (9, 2), (7, 4)])
def test_hold_builtin_engine_and_storm_agree(target, faces):
    from exactplay.games.hold import exact_table

    assert _three_way("hold", {"target": target, "faces": faces}) == F(exact_table(target, faces).V[0][0])


@pytest.mark.parametrize("row", ["1 2 3 4", "3 9 1 2 7 5", "1/2 5 5 1/3 2", "7"])
def test_coins_builtin_engine_and_storm_agree(row):
    from exactplay.games.coins import solve_row

    values = [Fraction(x) for x in row.split()]
    assert _three_way("coins", {"coins": row}) == F(solve_row(values, "mpq").answer)


@pytest.mark.parametrize("ranks,suits", [(2, 2), (4, 2), (3, 4), (6, 2), (5, 4)])
def test_war_builtin_engine_and_storm_agree(ranks, suits):
    from exactplay.games.war import sweep_probability

    assert _three_way("war", {"ranks": ranks, "suits": suits, "abstract": True}) == F(sweep_probability(ranks, suits, "mpq"))


@pytest.mark.parametrize("n", [2, 3, 4, 5])
def test_chefs_builtin_engine_and_storm_agree_for_every_chef(n):
    from exactplay.games.chefs import fibonacci_skills, solve_exact

    model = build_model(make_game(BUILTIN.format(game="chefs"), {"n": n}))
    sol = solve_model(model)
    checks = crosscheck(model, sol)
    assert len(checks) == n - (n == 2) and all(c.ok and c.compared == len(model) for c in checks)
    winners = [sol.values[model.initial][sol.components.index(k)] for k in range(n)]  # (component n: dishes)
    assert [F(v) for v in winners] == [F(w) for w in solve_exact(fibonacci_skills(n)).W1]


def test_crosscheck_several_players_each_with_its_own_payoff(capsys, tmp_path):
    model = {"format": "exactplay-model", "version": 1, "players": 3, "objective": "max", "states": [
        {"id": "a", "mover": 0, "actions": [{"name": "x", "next": [["1/2", "b"], ["1/2", "w2"]]},
                                            {"name": "y", "next": [["1/3", "w0"], ["2/3", "w1"]]}]},
        {"id": "b", "mover": 1, "actions": [{"name": "x", "next": [["1/1", "w0"]]}, {"name": "y", "next": [["1/1", "w2"]]}]},
        {"id": "w0", "payoff": ["1", "0", "0"]}, {"id": "w1", "payoff": ["0", "1", "0"]},
        {"id": "w2", "payoff": ["0", "0", "1"]}]}
    path = tmp_path / "three.json"
    path.write_text(json.dumps(model))
    status, out, _ = run(capsys, "crosscheck", "--model", path)
    assert status == 0 and "Pmax of player 0" in out and "Pmax of player 1" in out and "verdict: agree" in out


def test_builtin_games_by_name(capsys):
    status, out, _ = run(capsys, "crosscheck", "race", "--target", "6", "-q")
    assert status == 0 and "The Race to 6" in out and "verdict: agree" in out
    status, out, _ = run(capsys, "crosscheck", "coins", "3", "9", "1", "2", "--json")
    assert status == 0 and json.loads(out)["value"] == "11/1"
    status, out, _ = run(capsys, "export", "war", "--ranks", "3", "--suits", "2", "--format", "drn", "-o", "-")
    assert status == 0 and "@type: DTMC" in out
    status, out, _ = run(capsys, "crosscheck", "chefs", "--n", "3", "-q")
    assert status == 0 and "Pmax of chef 3" in out and "verdict: agree" in out


def _distribution(drn, a):
    """Choice ``a``'s successors and their probabilities."""
    return {drn.succ[k]: drn.probs[drn.pk[k]] for k in range(drn.start[a], drn.start[a + 1])}


def test_drn_placeholders_and_exact_decimals():
    text = GOOD.replace("@model", "@placeholders\n$half : 1/2\n@model").replace("0 : 1/2\n\t\t1 : 1/2",
                                                                             "0 : $half\n\t\t1 : $half")
    assert _distribution(parse_drn(text, "p.drn"), 0) == {0: Fraction(1, 2), 1: Fraction(1, 2)}
    dec = GOOD.replace("rational", "double").replace("0 : 1/2\n\t\t1 : 1/2", "0 : 0.1\n\t\t1 : 0.9")
    assert _distribution(parse_drn(dec, "d.drn"), 0) == {0: Fraction(1, 10), 1: Fraction(9, 10)}
    with pytest.raises(ModelError, match="not exactly 1"):
        parse_drn(GOOD.replace("rational", "double").replace("0 : 1/2\n\t\t1 : 1/2", "0 : 0.333\n\t\t1 : 0.666"), "d")


def test_a_model_label_init_does_not_make_a_second_initial_state():
    model = load_model_file(LOOP)
    model.labels[3] = ["init"]
    drn = parse_drn(write_drn(model), "x.drn")
    assert drn.initial == 0 and "model_init" in drn.labels[3]
