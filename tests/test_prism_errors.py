"""Bad PRISM/JANI input: one line on stderr starting ``exactplay: error: ``, exit status 2, nothing on
stdout, no file written; what is out of reach says what is supported."""

from __future__ import annotations

from pathlib import Path

import pytest
import stormpy  # noqa: F401  -- required: reading PRISM needs it

from cli_run import run, strict

FIX = Path(__file__).resolve().parent / "fixtures" / "prism"
GAMBLE, RUIN, OPEN, DUEL = FIX / "gamble.pm", FIX / "ruin.pm", FIX / "ruin_open.pm", FIX / "duel.prism"
SUPPORTED = "supported: P and R"


def refused(capsys, *args):
    status, out, err = run(capsys, "solve", "-q", *args)
    assert status == 2 and out == "", (status, out, err)
    assert err.startswith("exactplay: error: ") and err.count("\n") == 1, err
    return err


@pytest.mark.parametrize("args,words", [
    (("--model", GAMBLE, "--const", "zz=3", "--prop", "win"), "the model has no constant zz"),
    (("--model", OPEN, "--prop", 'P=? [F "rich"]'), "undefined constant(s) p, N: give --const p=VALUE,N=VALUE"),
    (("--model", OPEN, "--const", "N=x,p=0.4", "--prop", 'P=? [F "rich"]'), "unknown identifiers: x"),
    (("--model", OPEN, "--const", "N=4,p=0.4,N=5", "--prop", 'P=? [F "rich"]'), "--const N is given twice"),
    (("--model", OPEN, "--const", "N4", "--prop", 'P=? [F "rich"]'), "write NAME=VALUE"),
    (("--model", RUIN, "--const", "p=0.1", "--prop", 'P=? [F "rich"]'), "the model defines p already"),
    (("--model", OPEN, "--const", "N=4,p=1.4", "--prop", 'P=? [F "rich"]'), "negative probabilities"),
    (("--model", GAMBLE, "--prop", 'Pmax=? [F "nolabel"]'), 'unknown label "nolabel"'),
    (("--model", GAMBLE, "--prop", "Pmax=? [F zz>3]"), "unknown variable or constant 'zz'"),
    (("--model", GAMBLE, "--prop", "Pmax=? [F t>3"), "--prop:1:14: parse error"),
    (("--model", GAMBLE, "--prop", "nosuchname"), "no property of that name ('win'"),
    (("--model", GAMBLE, "--prop", "9"), "has properties 1..5"),
    (("--model", GAMBLE, "--props", FIX / "missing.props", "--prop", "1"), "cannot read"),
    (("--model", GAMBLE, "--prop", 'P=? [F "win"]'), "an MDP's query says min or max"),
    (("--model", GAMBLE, "--prop", '<<p1>> Pmax=? [F "win"]'), "<<coalition>> is for games (smg); this model is an MDP"),
    (("--model", GAMBLE, "--prop", 'R{"nope"}max=? [F "over"]'), 'no reward model "nope"'),
    (("--model", RUIN, "--prop", 'R=? [F "rich"]'), "R needs a reward model, and the model has none"),
    (("--model", DUEL, "--prop", 'Pmax=? [F "won"]'), "a game's property names a coalition"),
    (("--model", DUEL, "--prop", '<<p9>> Pmax=? [F "won"]'), "<<p9>> is not a player"),
    (("--model", DUEL, "--prop", '<<p1>> P=? [F "won"]'), "maximises or minimises"),
    (("--model", RUIN, "--prop", 'P=? [F "rich"]', "--max-states", "3"), "more than --max-states 3"),
    (("--model", RUIN, "--prop", 'P>=x [F "rich"]'), "the threshold 'x' is not a number"),
    (("--model", GAMBLE, "--prop", "win", "--objective", "Pmax"), "--objective is an option of a DRN model"),
    (("--model", GAMBLE, "--prop", "win", "--param", "a=1"), "--param is an option of a --game factory"),
    (("--model", FIX / "race.prism", "--prop", "alice", "--workers", "2"), "a PRISM or JANI model is solved on one"),
    (("--model", DUEL, "--prop", '<<p1>> Rmax=? [F "won"]'), "R needs a reward model"),
    (("--model", FIX / "knuth_die.pm"), "give --prop"),
    (("--model", FIX / "deadlock.pm", "--prop", 'Pmax=? [F "goal"]'),
     "2 deadlock state(s), where no command is enabled (s=1; s=2): fix the model, or give --fix-deadlocks"),
])
def test_bad_input_is_one_line(capsys, args, words):
    assert words in refused(capsys, *args)


@pytest.mark.parametrize("prop,what", [
    ('Pmax=? [F>=3 "win"]', "only a step bound F<=k"),
    ('Pmax=? [F{"rolls"}<=3 "win"]', "only a step bound F<=k"),
    ('Pmax=? [X "win"]', "the path formula X"),
    ('Pmax=? [G "win"]', "the path formula G"),
    ('multi(Pmax=? [F "win"], Pmin=? [F "over"])', "multi-objective"),
    ('Smax=? ["win"]', "long-run averages"),
    ('R{"rolls"}max=? [LRA]', "C, I and LRA rewards"),
    ('R{"rolls"}max=? [C<3]', "only C<=k is supported"),
    ('R{"rolls"}max=? [I=3]', "only C<=k is supported"),
    ('Pmax=? [F ("win" & (F "over"))]', "(LTL) is not supported"),
    ('Pmax=? [F P>0.5 [F "win"]]', "a nested P/R operator"),
])
def test_what_is_out_of_reach_says_what_is_supported(capsys, prop, what):
    err = refused(capsys, "--model", GAMBLE, "--prop", prop)
    assert what in err and SUPPORTED in err and prop in err  # the property as written


def test_fix_deadlocks_keeps_the_self_loops(capsys):
    status, out, _ = run(capsys, "solve", "-q", "--model", FIX / "deadlock.pm", "--prop", 'Pmax=? [F "goal"]',
                         "--fix-deadlocks", "--json")
    assert status == 0 and strict(out)["deadlocks_fixed"] == 2


def test_models_exactplay_does_not_read(capsys, tmp_path):
    bad = tmp_path / "bad.prism"
    bad.write_text("mdp\nmodule m\n  s : [0..3] init 0;\n  [a] s=0 -> 1/2:(s'=1) + 1/2:(s'=2)\n"
                   "  [b] s=0 -> (s'=3);\nendmodule\n")
    assert f"{bad}:5:4: parse error: expecting <numerical expression>" in refused(
        capsys, "--model", bad, "--prop", "Pmax=? [F s=3]")
    pta = tmp_path / "t.prism"  # (a CTMC and a Markov automaton are read: tests/test_continuous_sources.py)
    pta.write_text("pta\nmodule m\n  s : [0..1] init 0;\n  x : clock;\n  [] s=0 -> (s'=1);\nendmodule\n")
    assert "a timed automaton (pta)" in refused(capsys, "--model", pta, "--prop", "Pmax=? [F s=1]")
    csg = tmp_path / "g.prism"
    csg.write_text("csg\nplayer p1 m1 endplayer\nmodule m1\n  x : [0..1] init 0;\n  [a1] x=0 -> (x'=1);\nendmodule\n")
    assert "a concurrent game (csg)" in refused(capsys, "--model", csg, "--prop", "<<p1>> Pmax=? [F x=1]")
    jani = tmp_path / "broken.jani"
    jani.write_text('{"jani-version": 1, "type": "mdp", ')
    assert "parse error" in refused(capsys, "--model", jani, "--prop", "x")
    assert "cannot read" in refused(capsys, "--model", tmp_path / "none.prism", "--prop", "x")
    two = tmp_path / "two.pm"
    two.write_text('dtmc\nmodule m\n  s : [0..1] init 0;\n  [go] s=0 -> (s\'=1);\n  [] s=1 -> true;\nendmodule\n'
                   'rewards "a" [go] true : 1; endrewards\nrewards "b" [go] true : 2; endrewards\n')
    assert "2 reward models (a, b): name one" in refused(capsys, "--model", two, "--prop", "R=? [F s=1]")


def test_no_file_is_written_on_bad_input(capsys, tmp_path):
    out = tmp_path / "c.json"
    status, _, err = run(capsys, "certify", "--model", GAMBLE, "--prop", 'P=? [F "win"]', "-o", out)
    assert status == 2 and not out.exists() and err.count("\n") == 1
    res = tmp_path / "r.json"
    status, _, err = run(capsys, "solve", "--model", GAMBLE, "--prop", 'Pmax=? [F "nolabel"]', "--qvbs-result", res)
    assert status == 2 and not res.exists()


def test_prism_options_without_a_prism_model_are_refused(capsys):
    # --qvbs-result is taken by DRN models too (tests/test_drn_initial_states.py)
    for extra in (("--const", "N=3"), ("--prop", "1"), ("--fix-deadlocks",)):
        status, _, err = run(capsys, "solve", "--model", FIX.parent / "storm" / "gamblers_ruin.drn", "--objective",
                             "Pmax", "--target", "goal", *extra)
        assert status == 2 and "a PRISM or JANI model" in err and err.count("\n") == 1, (extra, err)


def test_a_target_starting_with_time_is_refused_with_the_way_out(capsys, tmp_path):
    # (PRISM-games' mdsm writes [F time=max_time]: Storm's parser refuses it, and takes [F (time=max_time)])
    clock = tmp_path / "clock.pm"
    clock.write_text("dtmc\nmodule m\n  time : [0..2] init 0;\n  [] time<2 -> (time'=time+1);\n  [] time=2 -> true;\n"
                     "endmodule\n")
    err = refused(capsys, "--model", clock, "--prop", "P=? [F time=2]")
    assert "parse error" in err and "put it in brackets, F (time=...)" in err
    status, out, _ = run(capsys, "solve", "-q", "--model", clock, "--prop", "P=? [F (time=2)]")
    assert status == 0 and "exact value : 1/1" in out
