"""PRISM, PRISM-games and JANI models in, with their properties (``solve --model FILE.prism``).

The models are the project's own (tests/fixtures/prism/), with values derived by hand in their
comments; the DTMCs and MDPs are also compared, state by state, with Storm's exact engine on the
same file; the two-player race with the same game written as a Python game.  stormpy is imported
plainly: without it this module fails, it does not skip.
"""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path

import pytest
import stormpy
from stormpy import developer

from exactplay.engine import solve_model
from exactplay.interop.storm_arrays import extract
from exactplay.interop.symbolic_model import load
from exactplay.model import build_model
from cli_run import run, strict

FIX = Path(__file__).resolve().parent / "fixtures" / "prism"


def F(x) -> Fraction:
    return Fraction(int(str(x.numerator)), int(str(x.denominator)))  # gmp integers: through their text


def solved(name, prop, const=None, **kw):
    loaded = load(str(FIX / name), const, prop, **kw)
    return loaded, solve_model(loaded.model, "mpq")


def initial_value(name, prop, const=None):
    loaded, sol = solved(name, prop, const)
    return F(sol.values[loaded.initial[0]][0])


@pytest.mark.parametrize("name,prop,const,value", [
    ("knuth_die.pm", "six", None, Fraction(1, 6)),
    ("knuth_die.pm", 'P=? [F s=7 & d=2]', None, Fraction(1, 6)),
    ("knuth_die.pm", "flips", None, Fraction(11, 3)),
    ("knuth_die.pm", "avoid3", None, Fraction(3, 4)),
    ("gamble.pm", "win", None, Fraction(59, 243)),
    ("gamble.pm", "lose_all", None, Fraction(0)),
    ("gamble.pm", "rolls", None, Fraction(184, 81)),
    ("gamble.pm", "fewest", None, Fraction(0)),
    ("gamble.pm", "safe3", None, Fraction(11, 27)),
    ("gamble.pm", '"win": Pmax=? [ F "win" ]', None, Fraction(59, 243)),
    ("duel.prism", '<<p1>> Pmax=? [F "won"]', None, Fraction(5, 8)),
    ("duel.prism", '<<p2>> Pmin=? [F "won"]', None, Fraction(5, 8)),
    ("duel.prism", '<<1>> Pmax=? [F s=2]', None, Fraction(5, 8)),
    ("ruin.pm", 'P=? [F "rich"]', None, Fraction(4, 13)),
    ("ruin_open.pm", 'P=? [F "rich"]', "N=4,p=0.4", Fraction(4, 13)),
    ("ruin_open.pm", 'P=? [F "rich"]', "N=4,p=1/2", Fraction(1, 2)),
    ("ruin_open.pm", 'P=? [F "rich"]', "N=6,p=0.5", Fraction(1, 3)),
    ("bold.jani", "goal", None, Fraction(1, 3)),
    ("bold.jani", "ruin", None, Fraction(2, 3)),
])
def test_values_known_by_hand(name, prop, const, value):
    assert initial_value(name, prop, const) == value


def test_an_until_whose_target_holds_where_the_left_side_fails():
    # d=1 is set on the step into "done": the target holds there, so the until does (P = 1)
    assert initial_value("knuth_die.pm", 'P=? [ d!=1 U "done" ]') == 1
    # avoiding s=3: through s=1 only via s=4 (1/4), through s=2 surely (1/2): 3/4
    assert initial_value("knuth_die.pm", "avoid3") == Fraction(3, 4)


def test_decimal_constants_are_exact_fractions():
    loaded, _ = solved("ruin.pm", 'P=? [F "rich"]')
    assert Fraction(2, 5) in loaded.arrays.values and Fraction(3, 5) in loaded.arrays.values
    jani, _ = solved("bold.jani", "goal")
    assert Fraction(1, 2) in jani.arrays.values  # (0.2 + 0.7) - 0.4, exactly


def _storm_values(path, prop, const=None):
    developer.set_log_level(developer.LogLevel.OFF)
    if str(path).endswith(".jani"):
        program, _ = stormpy.parse_jani_model(str(path))
        props = stormpy.parse_properties(prop, program)
    else:
        program = stormpy.parse_prism_program(str(path))
        props = stormpy.parse_properties(prop, program)
    if const:
        program, props = stormpy.instantiate_constants(program, const, props)
    options = stormpy.BuilderOptions(props)
    options.set_build_state_valuations()
    model = stormpy.build_model[stormpy.Rational](program, options=options)
    result = stormpy.model_checking(model, props[0], environment=stormpy.environments.exact())
    return model, [F(result.get_value(s)) for s in range(model.nr_states)]


@pytest.mark.parametrize("name,prop,const", [
    ("knuth_die.pm", 'P=? [ F s=7 & d=6 ]', None),
    ("knuth_die.pm", 'R{"flips"}=? [ F "done" ]', None),
    ("knuth_die.pm", 'P=? [ s!=3 U "done" ]', None),
    ("gamble.pm", 'Pmax=? [ F "win" ]', None),
    ("gamble.pm", 'Pmin=? [ F t>=2 ]', None),
    ("gamble.pm", 'R{"rolls"}max=? [ F "over" ]', None),
    ("gamble.pm", 'Pmax=? [ !bust U t>=3 & stopped ]', None),
    ("gamble.pm", 'Pmax=? [ F t=4 ]', "GOAL=7"),
    ("ruin_open.pm", 'P=? [ F "rich" ]', "N=9,p=0.45"),
    ("bold.jani", 'Pmax=? [F x=3]', None),
    ("bold.jani", 'Pmin=? [F x=0]', None),
])
def test_every_state_equals_storms_exact_engine(name, prop, const):
    path = FIX / name
    if name == "gamble.pm" and const:
        path = _with_undefined_goal(path)
    loaded, sol = solved(str(path), prop, const)
    storm_model, storm = _storm_values(path, prop, const)
    assert storm_model.nr_states == len(loaded.model)
    for k, d in enumerate(loaded.order):
        assert F(sol.values[k][0]) == storm[d], loaded.model.state_name(k)


def _with_undefined_goal(path: Path) -> Path:
    import tempfile

    text = path.read_text().replace("const int GOAL = 5;", "const int GOAL;")
    out = Path(tempfile.mkdtemp()) / "gamble_open.pm"
    out.write_text(text)
    return out


class Race:
    """race.prism written as a Python game: (turn, a, b), alice maximises her chance to reach 3 first."""

    num_players = 2
    objective = "zero-sum"
    goal = 3

    def initial_state(self):
        return (1, 0, 0)

    def is_terminal(self, s):
        return s[1] == self.goal or s[2] == self.goal

    def payoff(self, s):
        return (Fraction(1), Fraction(0)) if s[1] == self.goal else (Fraction(0), Fraction(1))

    def mover(self, s):
        return 0 if s[0] == 1 else 1

    def actions(self, s):
        return ["step", "jump"]

    def transitions(self, s, a):
        turn, x, y = s
        half, quarter = Fraction(1, 2), Fraction(1, 4)
        if turn == 1:
            ahead = (2, x + 1, y) if a == "step" else (2, min(x + 2, self.goal), y)
            stay = (2, x, y)
        else:
            ahead = (1, x, y + 1) if a == "step" else (1, x, min(y + 2, self.goal))
            stay = (1, x, y)
        return [(half, ahead), (half, stay)] if a == "step" else [(quarter, ahead), (1 - quarter, stay)]


def _triple(state):
    import ast

    return state if isinstance(state, tuple) else ast.literal_eval(str(state))


def test_race_equals_the_same_game_written_in_python():
    loaded, sol = solved("race.prism", "alice")
    game = build_model(Race())
    ref = solve_model(game, "mpq")
    by_state = {_triple(game.states[k]): F(ref.values[k][0]) for k in range(len(game)) if game.terminal[k] is None}
    names = {f"turn={t} & a={x} & b={y}": (t, x, y) for (t, x, y) in by_state}
    compared = 0
    for k in range(len(loaded.model)):
        name = loaded.model.state_name(k)
        if name in names:
            assert F(sol.values[k][0]) == by_state[names[name]], name
            compared += 1
    assert compared == len(by_state) == 18
    assert F(sol.values[loaded.initial[0]][0]) == Fraction(526, 945)
    spoil = initial_value("race.prism", "spoil")  # bob minimising alice's chance: the same game
    bob = initial_value("race.prism", "bob")
    assert spoil == Fraction(526, 945) and bob == 1 - spoil  # every play ends: one of them wins


def test_states_are_named_by_valuation_and_choices_by_label(capsys):
    status, out, err = run(capsys, "solve", "--model", FIX / "gamble.pm", "--prop", "win", "--json", "-q")
    assert status == 0, err
    data = strict(out)
    rows = {r["name"]: r for r in data["state_values"]}
    start = rows["bust=false & stopped=false & t=0"]
    assert start["action"] == "roll" and start["value"] == ["59/243"] and start["margin"] == "59/243"
    assert data["initial_states"] == [{"state": 0, "name": "bust=false & stopped=false & t=0", "value": "59/243"}]
    assert data["property"] == 'Pmax=? [ F "win" ]' and data["model_type"] == "mdp"
    status, out, _ = run(capsys, "solve", "--model", FIX / "gamble.pm", "--prop", "win", "-q")
    assert "exact value : 59/243" in out and "'roll'" in out and "bust=false & stopped=false & t=0" in out


def test_unlabelled_commands_are_named_by_module_and_updates():
    loaded, sol = solved("duel.prism", '<<p1>> Pmax=? [F "won"]')
    m = loaded.model
    assert m.actions[0] == ["first: 1/2:s'=2 + 1/2:s'=1", "first: 1/3:s'=2 + 2/3:s'=3"]
    assert sol.action_name(0) == "first: 1/2:s'=2 + 1/2:s'=1"
    s1 = next(k for k in range(len(m)) if m.state_name(k) == "s=1")
    assert F(sol.values[s1][0]) == Fraction(1, 4) and sol.action_name(s1) == "second: 1/4:s'=2 + 3/4:s'=3"
    assert m.player_names == ["<<p1>>", "p2"] and m.mover[0] == 0 and m.mover[s1] == 1


def test_a_minimising_coalition_is_the_minimiser():
    loaded, sol = solved("duel.prism", '<<p2>> Pmin=? [F "won"]')
    assert loaded.model.player_names == ["p1", "<<p2>>"] and loaded.model.mover[0] == 0


def test_ties_are_reported_in_the_models_terms(capsys):
    status, out, _ = run(capsys, "solve", "--model", FIX / "bold.jani", "--prop", "goal", "--json", "-q")
    data = strict(out)
    x1 = next(r for r in data["state_values"] if r["name"] == "x=1")
    assert x1["tied_actions"] == ["step", "bold"] and x1["margin"] == "0/1"


@pytest.mark.parametrize("prop,holds,distance", [
    ("P>=1/6 [ F d=1 ]", True, Fraction(0)),
    ("P>1/6 [ F d=1 ]", False, Fraction(0)),
    ("P<0.17 [ F d=1 ]", True, Fraction(1, 6) - Fraction(17, 100)),
    ("P>=0.16666666666666666 [ F d=1 ]", True, Fraction(1, 6) - Fraction("0.16666666666666666")),
    ("P<=0.16666666666666666 [ F d=1 ]", False, Fraction(1, 6) - Fraction("0.16666666666666666")),
])
def test_thresholds_exact_truth_value_and_distance(capsys, prop, holds, distance):
    status, out, err = run(capsys, "solve", "--model", FIX / "knuth_die.pm", "--prop", prop, "--json", "-q")
    assert status == 0, err
    data = strict(out)
    assert data["threshold"]["holds"] is holds
    (init,) = data["initial_states"]
    assert init["holds"] is holds and Fraction(init["distance"]) == distance and init["value"] == "1/6"


def test_a_game_threshold_the_floats_get_wrong(capsys):
    # the duel's value is 5/8; a bound just below it holds, exactly
    status, out, _ = run(capsys, "solve", "--model", FIX / "duel.prism", "--prop",
                         '<<p1>> P>=0.62499999999999999 [F "won"]', "-q")
    assert status == 0 and "threshold: true (exactly)" in out and "1/100000000000000000" in out


def test_properties_by_name_number_file_and_jani(capsys, tmp_path):
    assert initial_value("gamble.pm", "3") == Fraction(184, 81)  # the third of gamble.props
    props = tmp_path / "mine.props"
    props.write_text('// mine\n"safe": Pmin=? [ F t>=1 ]\n')
    loaded, sol = solved("gamble.pm", "safe", props=str(props))
    assert F(sol.values[0][0]) == 0 and loaded.property_origin == f"{props} property 'safe'"
    loaded, _ = solved("gamble.pm", "1", props=str(props))
    assert loaded.property_text == "Pmin=? [ F t>=1 ]"
    status, _, err = run(capsys, "solve", "--model", FIX / "gamble.pm")
    assert status == 2 and err.startswith("exactplay: error: ") and "give --prop" in err and "'win'" in err
    assert err.count("\n") == 1


def test_a_byte_order_mark_is_no_part_of_the_file(capsys, tmp_path):
    # QVBS's beb and echoring JANI files begin with a UTF-8 BOM: Storm reads them; exactplay took the
    # model type for missing and refused "a  model"
    bom = b"\xef\xbb\xbf"
    for name in ("bom.jani", "bom_no_suffix"):
        path = tmp_path / name
        path.write_bytes(bom + (FIX / "bold.jani").read_bytes())
        loaded = load(str(path), None, "goal")
        assert F(solve_model(loaded.model, "mpq").values[loaded.initial[0]][0]) == Fraction(1, 3)
        status, out, err = run(capsys, "solve", "--model", path, "--prop", "goal", "-q")
        assert status == 0 and "1/3" in out, err
    props = tmp_path / "bom.props"
    props.write_bytes(bom + (FIX / "gamble.props").read_bytes())
    loaded, sol = solved("gamble.pm", "rolls", props=str(props))  # found by its name, the first's too
    assert F(sol.values[0][0]) == Fraction(184, 81)
    assert initial_value("gamble.pm", "win") == F(solved("gamble.pm", "win", props=str(props))[1].values[0][0])


def test_constants_declared_in_the_props_file(capsys, tmp_path):
    # QVBS's eajs.props declares "const int B;" for one of its properties: Storm takes B from
    # --constants with the model's; exactplay refused it ("the model has no constant B")
    props = tmp_path / "bounded.props"
    props.write_text('const int k;\nconst int two = 2;\n"upto": Pmax=? [ !bust U t>=k & stopped ]\n'
                     '"win": Pmax=? [ F "win" ]\n"two": Pmax=? [ !bust U t>=two+1 & stopped ]\n')
    assert initial_value("gamble.pm", "safe3") == Fraction(11, 27)
    loaded, sol = solved("gamble.pm", "upto", "k=3", props=str(props))
    assert F(sol.values[loaded.initial[0]][0]) == Fraction(11, 27)
    loaded, sol = solved("gamble.pm", "win", "k=3", props=str(props))  # k given, not used: accepted
    assert F(sol.values[loaded.initial[0]][0]) == Fraction(59, 243)
    loaded, sol = solved("gamble.pm", "two", None, props=str(props))  # a constant defined in the file
    assert F(sol.values[loaded.initial[0]][0]) == Fraction(11, 27)
    status, _, err = run(capsys, "solve", "--model", FIX / "gamble.pm", "--props", props, "--prop", "upto", "-q")
    assert status == 2 and "undefined constant(s) k: give --const k=VALUE" in err
    status, _, err = run(capsys, "solve", "--model", FIX / "gamble.pm", "--props", props, "--prop", "win",
                         "--const", "kk=3", "-q")
    assert status == 2 and "the model has no constant kk" in err
    status, _, err = run(capsys, "solve", "--model", FIX / "gamble.pm", "--props", props, "--prop", "two",
                         "--const", "two=3", "-q")
    assert status == 2 and "defines two already" in err


def test_extract_reads_the_matrix_as_storm_holds_it():
    developer.set_log_level(developer.LogLevel.OFF)
    program = stormpy.parse_prism_program(str(FIX / "gamble.pm"))
    options = stormpy.BuilderOptions()
    options.set_build_choice_labels()
    options.set_build_all_reward_models()
    options.set_build_state_valuations()
    model = stormpy.build_model[stormpy.Rational](program, options=options)
    arrays = extract(model, "rolls")
    matrix = model.transition_matrix
    assert arrays.n == model.nr_states and arrays.rows == matrix.nr_rows
    for s in range(model.nr_states):
        assert arrays.group_start[s] == matrix.get_row_group_start(s)
    e = 0
    for r in range(matrix.nr_rows):
        assert arrays.row_start[r] == e
        for entry in matrix.get_row(r):
            assert arrays.column[e] == entry.column
            assert arrays.values[arrays.value_index[e]] == F(entry.value)
            e += 1
    assert arrays.row_start[-1] == e == matrix.nr_entries
    rolls = model.get_reward_model("rolls").state_action_rewards
    assert [arrays.values[i] for i in arrays.action_reward] == [F(x) for x in rolls]
    assert len(arrays.values) == len(set(arrays.values))  # each distinct number once
    assert arrays.choice_label[:2] == ["roll", "stop"]


def test_an_unnamed_reward_model_when_there_is_one():
    assert initial_value("knuth_die.pm", 'R=? [ F "done" ]') == Fraction(11, 3)


def test_three_players_the_coalition_against_the_rest(tmp_path):
    # s=0: p1 goes on (a) or gambles (b: wins 1/4); s=1: p2 ends it (c: lose) or goes on (d);
    # s=2: p3 wins (e) or loses (f)
    path = tmp_path / "three.prism"
    path.write_text("""smg
player p1 one endplayer
player p2 two endplayer
player p3 three endplayer
global s : [0..4] init 0;  // 3: won, 4: lost
module one
  [] s=0 -> (s'=1);
  [] s=0 -> 1/4 : (s'=3) + 3/4 : (s'=4);
  [] s>=3 -> true;
endmodule
module two
  [] s=1 -> (s'=4);
  [] s=1 -> (s'=2);
endmodule
module three
  [] s=2 -> (s'=3);
  [] s=2 -> (s'=4);
endmodule
label "won" = s=3;
""")
    expected = {"<<p1,p2,p3>>": 1, "<<p1,p3>>": Fraction(1, 4), "<<p1>>": Fraction(1, 4), "<<p2,p3>>": Fraction(1, 4),
                "<<1,2>>": Fraction(1, 4), "<<p2>>": 0}
    for coalition, value in expected.items():
        loaded, sol = solved(str(path), f'{coalition} Pmax=? [F "won"]')
        assert F(sol.values[0][0]) == value, coalition
    loaded, sol = solved(str(path), '<<p2>> Pmin=? [F "won"]')  # p2 minimising against p1 and p3: p1 gambles
    assert F(sol.values[0][0]) == Fraction(1, 4)


def test_a_game_state_that_no_player_owns_is_read(capsys, tmp_path):
    # Storm gives the deadlock states (one self-loop each, with --fix-deadlocks) the player index 2^64 - 1
    # (no player): that was an OverflowError; here p1 plays "safe" (1/3 to win, 2/3 back) and wins surely
    game = tmp_path / "dl.prism"
    game.write_text("smg\nplayer p1 m, [go], [safe] endplayer\nmodule m\n  s : [0..2] init 0;\n"
                    "  [go] s=0 -> 1/2 : (s'=1) + 1/2 : (s'=2);\n  [safe] s=0 -> 1/3 : (s'=1) + 2/3 : (s'=0);\n"
                    "endmodule\nlabel \"win\" = s=1;\n")
    status, out, err = run(capsys, "solve", "-q", "--model", game, "--prop", '<<p1>> Pmax=? [F "win"]', "--fix-deadlocks",
                           "--json")
    assert status == 0, err
    data = strict(out)
    assert data["answer"]["value"] == "1/1" and data["deadlocks_fixed"] == 2
    assert {r["name"]: r.get("action") for r in data["state_values"]}["s=0"] == "safe"


def test_a_choice_at_a_state_that_no_player_owns_is_refused_in_one_line():
    # (Storm refuses such a model itself; a reader of other files may not): state 0 has two choices, player -1
    import numpy as np

    from exactplay.interop.objective import Sides, reach_model
    from exactplay.interop.storm_arrays import ChoiceArrays
    from exactplay.model import ModelError

    arrays = ChoiceArrays("smg", np.array([0, 2, 3]), np.array([0, 1, 2, 3]), np.array([1, 0, 1]),
                          np.array([0, 0, 0]), [Fraction(1)], [0], player=np.array([-1, 0]), player_names=["p1"])
    with pytest.raises(ModelError, match="state 0: 2 choices, and no player owns them"):
        reach_model(arrays, [False, True], None, False, "max", "m", ["a", "b", None], lambda order: [str(d) for d in order],
                    Sides({0}, ("<<p1>>", "nobody"), "max"))
