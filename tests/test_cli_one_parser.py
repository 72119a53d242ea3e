"""One parser per command, no pre-scan of the command line (issue 24, "one of everything").

Every option a command takes, for every kind of input it reads (a built-in GAME, a ``--game``
factory, a ``--model`` file, ``--param-symbol``), is known to the command's argparse parser:
``parse_known_args`` leaves no word over.  And no module of :mod:`exactplay.cli` looks at the words of
the command line before argparse has parsed them (the old ``wants_model`` and ``builtin_argv``).
"""

import ast
from pathlib import Path

import pytest

from exactplay.cli.inputs import GAME_COMMANDS, INPUT_KINDS
from exactplay.cli.main import build_parser

CLI = Path(__file__).resolve().parent.parent / "src" / "exactplay" / "cli"
SAMPLE = {"--param": "goal=3", "--max-states": "1000", "--objective": "Pmax", "--target": "done",
          "--avoid": "bad", "--reward": "steps", "--param-symbol": "p", "--range": "1/4,3/4", "--component": "0",
          "--const": "N=4", "--prop": "rich", "--props": "m.props", "--fix-deadlocks": None}
SOURCE = {"factory": ["--game", "pig.py:make_game"], "parametric": ["--game", "pig.py:make_game"],
          "json": ["--model", "m.json"], "drn": ["--model", "m.drn"], "prism": ["--model", "m.prism"]}
OUTPUT = {"certify": ["-o", "c.json"], "report": ["-o", "dir"]}


def _words(flags) -> list[str]:
    return [w for f in flags for w in ([f] if SAMPLE[f] is None else [f, SAMPLE[f]])]


def _cases():
    for kind in INPUT_KINDS:
        for command in kind.commands:
            if command in GAME_COMMANDS:
                yield command, kind.name, [command] + SOURCE[kind.name] + _words(kind.options) + OUTPUT.get(command, [])
    for command in ("solve", "certify", "report"):  # a built-in game's model with a symbolic probability
        yield command, "race", [command, "race", "--target", "2", "--coin", "1", "--param-symbol", "p",
                                "--range", "1/4,3/4", "--component", "0", "--max-states", "100",
                                "--json", "-q"] + OUTPUT.get(command, [])
    for command in GAME_COMMANDS:
        yield command, "race", [command, "race", "--target", "2", "--json", "-q"] + OUTPUT.get(command, [])


@pytest.mark.parametrize("command, kind, argv", list(_cases()), ids=lambda x: x if isinstance(x, str) else None)
def test_the_commands_parser_knows_every_option_of_every_input(command, kind, argv):
    args, extras = build_parser().parse_known_args(argv)
    assert extras == [] and args.command == command, extras
    assert (args.builtin == "race") == (kind == "race")


def _functions(tree):
    return [n for n in ast.walk(tree) if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef))]


def test_no_cli_module_reads_the_command_line_before_argparse():
    """``sys.argv`` (or an ``argv`` parameter) reaches argparse's ``parse_known_args`` and nothing else."""
    for path in sorted(CLI.glob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
        handed = set()  # the nodes inside a parse_known_args(...) / main(...) / _run(...) call's arguments
        for node in ast.walk(tree):
            if isinstance(node, ast.Call) and getattr(node.func, "attr", getattr(node.func, "id", None)) in (
                    "parse_known_args", "parse_args", "_run", "main"):
                handed.update(id(n) for arg in node.args for n in ast.walk(arg))
        for node in ast.walk(tree):
            argv = (isinstance(node, ast.Name) and node.id == "argv" and isinstance(node.ctx, ast.Load)) or (
                isinstance(node, ast.Attribute) and node.attr == "argv")
            assert not argv or id(node) in handed, f"{path.name}:{node.lineno}: the command line read before argparse"
        for fn in _functions(tree):
            names = [a.arg for a in fn.args.args + fn.args.kwonlyargs]
            assert "argv" not in names or (path.name == "main.py" and fn.name in ("main", "_run")), \
                f"{path.name}: {fn.name}({', '.join(names)}) takes the command line's words"


@pytest.mark.parametrize("command", list(GAME_COMMANDS) + ["export", "crosscheck"])
def test_an_option_of_the_command_before_the_game_is_refused_not_dropped(capsys, tmp_path, command):
    """``solve --quiet race``: GAME's parser reads the options after it; one given before is not lost."""
    from cli_run import run

    out = {"certify": ["-o", tmp_path / "c.json"], "report": ["-o", tmp_path / "r"],
           "export": ["--format", "json", "-o", tmp_path / "e.json"]}.get(command, [])
    status, stdout, err = run(capsys, command, "--quiet", "race", "--target", "2", *out)
    assert status == 2 and stdout == "" and not list(tmp_path.iterdir())
    assert err == f"exactplay: error: {command} race: --quiet goes after the game (exactplay {command} race --quiet ...)\n"


def test_the_command_table_names_each_command_of_its_module():
    from exactplay.cli.main import COMMAND_TABLE, command_module

    for name in COMMAND_TABLE:
        assert name in command_module(name).COMMANDS, name
    modules = {command_module(name) for name in COMMAND_TABLE}
    assert {c for m in modules for c in m.COMMANDS} == set(COMMAND_TABLE)


def test_solving_a_model_file_reads_no_other_command_and_no_game():
    """``solve --model X`` imports its own command's module only, no built-in game's (their parsers
    and help lines are made when a GAME word or a help asks for them), and not the PRISM/JANI reader."""
    import subprocess
    import sys

    from pathlib import Path

    model = Path(__file__).resolve().parents[1] / "examples" / "loop-or-gamble.json"
    code = ("import sys\nfrom exactplay.cli.main import main\nassert main(['solve', '--model', sys.argv[1], '--quiet']) == 0\n"
            "print(sorted(m for m in sys.modules if m.startswith(('exactplay.games.', 'exactplay.cli.', "
            "'exactplay.interop.', 'exactplay.api.'))))")
    out = subprocess.run([sys.executable, "-c", code, str(model)], capture_output=True, text=True, check=True).stdout
    loaded = eval(out.strip().splitlines()[-1])
    assert not [m for m in loaded if m.startswith("exactplay.games.") and m != "exactplay.games.params"], loaded
    others = {"listing", "claims", "report", "export", "crosscheck", "check", "judge"}
    assert not [m for m in loaded if m.rsplit(".", 1)[-1] in others], loaded
    # nor the PRISM/JANI reader: whether the file is one is asked of interop.file_kind
    assert "exactplay.interop.file_kind" in loaded, loaded
    assert not {"exactplay.interop.symbolic", "exactplay.api.symbolic"} & set(loaded), loaded
