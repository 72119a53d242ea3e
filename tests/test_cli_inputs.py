"""No option is silently dropped: every option a command does not use for its input is refused in
one line naming who takes it.  The cases are generated from the declarations
(:data:`exactplay.cli.inputs.INPUT_KINDS`, :data:`~exactplay.cli.inputs.NEEDS`, the game registry)."""

from pathlib import Path

import pytest

from cli_run import run
from exactplay.cli.inputs import GAME_COMMANDS, INPUT_KINDS, INPUT_OPTIONS, INTEROP_COMMANDS, NEEDS

ROOT = Path(__file__).resolve().parent.parent
PIG = str(ROOT / "examples" / "pig.py") + ":make_game"
PIG_LOADED = str(ROOT / "examples" / "pig_loaded.py") + ":make_game"
LOOP = str(ROOT / "examples" / "loop-or-gamble.json")
RUIN = str(ROOT / "tests" / "fixtures" / "prism" / "ruin_open.pm")
DRN = """@type: MDP
@value_type: rational
@parameters

@reward_models
steps
@nr_states
3
@nr_choices
3
@model
state 0 init
	action go [1]
		1 : 1/2
		2 : 1/2
state 1 done
	action stay [0]
		1 : 1
state 2 bad
	action back [1]
		0 : 1
"""

# a value for each option of an input kind (a new option must get one here)
SAMPLE = {"--param": "goal=3", "--max-states": "1000", "--objective": "Pmax", "--target": "done",
          "--avoid": "bad", "--reward": "steps", "--param-symbol": "p", "--range": "1/4,3/4", "--component": "0",
          "--const": "N=4,p=0.4", "--prop": "rich", "--props": RUIN.replace(".pm", ".props"),
          "--fix-deadlocks": None}  # None: a switch
KIND = {k.name: k for k in INPUT_KINDS}


@pytest.fixture
def drn(tmp_path):
    path = tmp_path / "m.drn"
    path.write_text(DRN)
    return str(path)


def _input(kind: str, drn: str) -> list[str]:
    """A command line naming an input of this kind (with what it needs to be complete)."""
    return {"factory": ["--game", PIG, "--param", "goal=3"],
            "parametric": ["--game", PIG_LOADED, "--param", "goal=3", "--param-symbol", "p"],
            "json": ["--model", LOOP],
            "drn": ["--model", drn, "--objective", "Pmax", "--target", "done"],
            "prism": ["--model", RUIN, "--const", "N=4,p=0.4", "--prop", "rich"],
            "race": ["race", "--target", "3"]}[kind]


def _outputs(command: str, tmp_path) -> list[str]:
    return {"certify": ["-o", str(tmp_path / "c.json")], "report": ["-o", str(tmp_path / "r")],
            "export": ["--format", "json", "-o", str(tmp_path / "e.json")]}.get(command, [])


def given(flag: str) -> list[str]:
    """The option and its sample value on a command line (a switch alone)."""
    return [flag] if SAMPLE[flag] is None else [flag, SAMPLE[flag]]


def one_line(err: str) -> str:
    assert err.count("\n") == 1 and err.startswith("exactplay: error: ") and "Traceback" not in err, err
    return err.removeprefix("exactplay: error: ").strip()


def test_every_option_of_an_input_kind_has_a_sample_value():
    assert set(SAMPLE) == set(INPUT_OPTIONS)


def _parsers(kind):
    """The parser of each command that reads this kind of input: the command's own, the one argparse
    parses it with (with every input's options: exactplay.cli.sources)."""
    from exactplay.cli.errors import _choices
    from exactplay.cli.main import build_parser

    commands = _choices(build_parser())
    for command in kind.commands:
        yield command, commands[command]


@pytest.mark.parametrize("kind", INPUT_KINDS, ids=lambda k: k.name)
def test_every_declared_option_is_an_option_of_every_command_that_reads_the_kind(kind):
    parsers = dict(_parsers(kind))
    for command, parser in parsers.items():
        for flag in kind.options:
            assert flag in parser._option_string_actions, (command, flag)
    for flag in kind.unused:  # an option some command has, which this kind does not use
        assert any(flag in parser._option_string_actions for parser in parsers.values()), flag


def _refusals():
    """(command, kind, option): every option of some input kind that an input of this kind, read by
    this command, does not consume; ``race`` stands for the built-in games."""
    for command in GAME_COMMANDS + INTEROP_COMMANDS:
        for kind in [k for k in INPUT_KINDS if command in k.commands] + ["race"]:
            consumed = ("--target",) + (("--max-states",) if command in INTEROP_COMMANDS else ())
            options = consumed if kind == "race" else kind.options
            for flag in INPUT_OPTIONS:
                selects = any(j.needs == flag and command in j.commands and (kind == "race" or j.source == kind.source)
                              for j in INPUT_KINDS)  # --param-symbol on a factory or a built-in game: parametric
                if flag not in options and not selects:
                    yield command, getattr(kind, "name", kind), flag


@pytest.mark.parametrize("command, kind, flag", list(_refusals()))
def test_an_option_the_input_does_not_consume_is_refused_naming_who_takes_it(capsys, tmp_path, drn, command,
                                                                             kind, flag):
    argv = [command] + _input(kind, drn) + given(flag) + _outputs(command, tmp_path)
    status, out, err = run(capsys, *argv)
    msg = one_line(err)
    assert status == 2 and out == "", msg
    assert not list(tmp_path.glob("c.json")) and not list(tmp_path.glob("e.json")), "nothing is written"
    assert msg.startswith(f"{flag} is "), msg
    owners = [k for k in INPUT_KINDS if flag in k.options and k.name != kind and command in k.commands]
    if owners:
        assert any(k.what in msg and k.usage.split()[0] in msg for k in owners), msg
        assert f"exactplay {command} " in msg, msg
    else:  # only another command takes it (--param-symbol in audit)
        assert f"not of {command}" in msg, msg
        return
    if kind == "race":
        assert "race takes --target" in msg, msg
    elif owners and "--param" in KIND[kind].options:
        assert "--param NAME=VALUE" in msg, msg
    elif owners:
        assert f"{KIND[kind].what} takes {' '.join(KIND[kind].options)}" in msg, msg


@pytest.mark.parametrize("command", ["check", "claims", "list"])
@pytest.mark.parametrize("flag", INPUT_OPTIONS)
def test_a_command_reading_no_game_refuses_an_input_option_naming_who_takes_it(capsys, command, flag):
    argv = [command] + (["proofs"] if command == "check" else []) + given(flag)
    status, out, err = run(capsys, *argv)
    msg = one_line(err)
    assert status == 2 and msg.startswith(f"{flag} is ") and f"not of {command}" in msg, msg
    assert any(k.what in msg for k in INPUT_KINDS if flag in k.options), msg


def _consumed():
    for kind in INPUT_KINDS:
        for flag in kind.options:
            yield kind.name, flag


@pytest.mark.parametrize("kind, flag", list(_consumed()))
def test_an_option_the_input_consumes_is_taken(capsys, drn, kind, flag):
    argv = ["solve"] + _input(kind, drn)
    if flag not in argv:
        argv += given(flag)
    if flag == "--reward":
        argv[argv.index("Pmax")] = "Rmin"
    if flag == "--param":
        argv[argv.index("goal=3") - 1:argv.index("goal=3") + 1] = []
        argv += ["--param", "goal=3"]
    status, out, err = run(capsys, *argv, "-q")
    assert status == 0, err


# ------------------------------------------------------------------ the literal cases of issue 22


@pytest.mark.parametrize("command", ["solve", "audit", "certify"])
@pytest.mark.parametrize("flag, value", [("--target", "5"), ("--objective", "Pmax")])
def test_a_factory_given_a_drn_option_is_refused_and_told_how_its_parameters_are_given(capsys, tmp_path, command,
                                                                                       flag, value):
    out_file = tmp_path / "pig.json"
    argv = [command, "--game", "examples/pig.py:make_game", flag, value] + (["-o", out_file] if command == "certify"
                                                                            else [])
    status, out, err = run(capsys, *argv)
    msg = one_line(err)
    assert status == 2 and out == "" and not out_file.exists()
    assert msg.startswith(f"{flag} is ") and f"a DRN model (exactplay {command} --model FILE.drn {flag} ...)" in msg
    assert "takes its parameters as --param NAME=VALUE" in msg and "--param goal=" in msg, msg


def test_the_factorys_target_in_the_issue_names_race_hold_and_the_drn_model(capsys):
    status, _, err = run(capsys, "solve", "--game", "examples/pig.py:make_game", "--target", "5")
    assert one_line(err) == (
        "--target is an option of race and hold (exactplay solve race --target ...) and of a DRN model "
        "(exactplay solve --model FILE.drn --target ...); examples/pig.py:make_game takes its parameters as "
        "--param NAME=VALUE (goal, faces: e.g. --param goal=5); also --max-states")


def test_a_built_in_game_given_a_drn_option_names_the_drn_model_and_what_the_game_takes(capsys):
    status, _, err = run(capsys, "solve", "race", "--objective", "Pmax")
    assert status == 2 and one_line(err) == ("--objective is an option of a DRN model (exactplay solve --model "
                                            "FILE.drn --objective ...); race takes --target")


@pytest.mark.parametrize("flag", ["--digits", "--prec", "--workers", "--scheduler"])
def test_parametric_solving_refuses_the_command_options_it_does_not_use(capsys, flag):
    value = {"--digits": "3", "--prec": "64", "--workers": "2", "--scheduler": "tcp://h:1"}[flag]
    status, _, err = run(capsys, "solve", "--game", PIG_LOADED, "--param", "goal=3", "--param-symbol", "p", flag, value)
    msg = one_line(err)
    assert status == 2 and msg.startswith(f"{flag} is not used with a --game factory with --param-symbol: "), msg


NEED_CASES = {  # (option, a word of its reason) -> a command line that gives the option without what it needs
    ("--tile", "--workers N"): ["solve", "race", "--target", "5", "--tile", "3"],
    ("--workers", "balls"): ["solve", "race", "--target", "5", "--backend", "ball", "--workers", "2"],
    ("--scheduler", "balls"): ["solve", "--game", PIG, "--backend", "ball", "--scheduler", "tcp://h:1"],
    ("--store", "ball certificate"): ["certify", "race", "--target", "5", "--backend", "ball", "--store", "policy"],
}


def test_every_need_has_a_case():
    assert len(NEED_CASES) == len(NEEDS)
    for need in NEEDS:
        assert sum(1 for (o, word) in NEED_CASES if o == need.option and word in need.why) == 1, need


@pytest.mark.parametrize("option, word", list(NEED_CASES))
def test_an_option_without_what_it_needs_is_refused_before_anything_runs(capsys, tmp_path, option, word):
    argv = NEED_CASES[option, word] + (["-o", tmp_path / "x.json"] if NEED_CASES[option, word][0] == "certify"
                                       else [])
    status, out, err = run(capsys, *argv)
    msg = one_line(err)
    assert status == 2 and out == "" and not (tmp_path / "x.json").exists()
    assert msg.startswith(f"{option} is not used here: ") and word in msg, msg


def test_max_states_is_applied_to_a_drn_file_in_export(capsys, tmp_path, drn):
    status, _, err = run(capsys, "export", "--model", drn, "--objective", "Pmax", "--target", "done",
                         "--max-states", "2", "--format", "json", "-o", tmp_path / "e.json")
    assert status == 2 and "@nr_states 3: more than 2 states, the limit" in one_line(err)
