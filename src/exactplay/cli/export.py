"""``exactplay export``: a game written for other tools, the explicit JSON model, Storm's DRN or PRISM.

::

    exactplay export (GAME [params] | --game MOD:FACTORY [--param k=v] | --model FILE) --format json|drn|prism -o FILE
                     [--fix PLAYER]        (GAME: race, hold, coins, war, chefs: games/<name>/model.py)

The inputs and their options are :mod:`exactplay.cli.interop`'s (shared with ``crosscheck``).
"""

from __future__ import annotations

import sys
from pathlib import Path

from ..errors import EXIT_OK, UsageError
from ..strict_json import dumps
from . import interop

OWN_EXTRAS = True  # run(args, extras, parser): the words argparse left over are judged by the input kinds
HELP = "write a game as JSON, Storm's DRN or PRISM (exactplay export --help)"
COMMANDS = {"export": HELP}
DESCRIPTION = ("Write a game for other tools: the explicit JSON model, Storm's DRN format or a PRISM model (with "
               "the property to check in a .props file beside it).")
REQUIRED = ("--format", "-o/--output")  # checked in interop.run for --game and --model (a GAME's parser has them)


def add_parser(sub, command: str) -> None:
    interop.add_parser(sub, command, DESCRIPTION, add_options)


def parser(parser_class):
    """This command's parser on its own (the tests look at its options)."""
    return interop.standalone_parser("export", DESCRIPTION, add_options, parser_class)


def add_options(p, required: bool) -> None:
    """export's own options (on the command's parser and on each GAME's)."""
    p.add_argument("--format", required=required, choices=["json", "drn", "prism"], help="what to write")
    p.add_argument("-o", "--output", required=required, metavar="FILE",
                   help="the file to write ('-': stdout); for prism the property goes to FILE with suffix .props")
    p.add_argument("--fix", metavar="PLAYER",
                   help="fix this player (number or name) to exactplay's optimal strategy: a two-player game "
                        "becomes an MDP of the other player (needed for drn)")


def run(args, extras: list[str], parser) -> int:
    return interop.run(args, extras, parser, REQUIRED, write)


def _player(model, text: str) -> int:
    if text.isdigit() and int(text) < model.num_players:
        return int(text)
    if text in model.player_names:
        return model.player_names.index(text)
    raise UsageError(f"--fix {text!r}: not a player of this game (0..{model.num_players - 1} or "
                     f"{', '.join(model.player_names)})")


def _write(path: str, text: str) -> None:
    if path == "-":
        sys.stdout.write(text)
        return
    from ..certify.write import write_text_atomic

    try:
        write_text_atomic(path, text)
    except OSError as exc:
        raise UsageError(f"-o {path}: cannot write ({exc.strerror or exc})") from None


def write(args, model, source, extra, progress) -> int:
    """Write ``model`` in the format asked (``source``, ``extra``: unused; as crosscheck's)."""
    from ..interop import fix_player, formulate
    from ..model import model_to_json

    if args.output != "-":
        from ..paths import check_writable

        check_writable(args.output)
    if args.fix is not None:
        from ..engine import solve_model

        player = _player(model, args.fix)
        sol = solve_model(model, "mpq", progress)
        model = fix_player(model, sol.policy, player)
    if args.format == "json":
        _write(args.output, dumps(model_to_json(model), indent=1) + "\n")
        what = "the explicit model"
    elif args.format == "drn":
        from ..interop.drn import write_drn

        form = formulate(model)
        _write(args.output, write_drn(model, form))
        what = f"DRN ({form.kind.upper()}; {form.formula()})"
    else:
        from ..interop.prism import write_prism

        form = formulate(model)
        text, props = write_prism(model, form)
        _write(args.output, text)
        what = f"PRISM {form.kind}"
        if args.output != "-":
            props_path = str(Path(args.output).with_suffix(".props"))
            _write(props_path, props)
            what += f" and {props_path} ({props.splitlines()[-1]})"
    if args.output != "-":
        print(f"wrote {args.output}: {what}, {len(model):,} states", file=sys.stderr if args.output == "-" else sys.stdout)
    return EXIT_OK
