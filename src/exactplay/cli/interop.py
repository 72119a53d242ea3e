"""``exactplay export`` and ``exactplay crosscheck``, and reading ``--model FILE.drn`` for the model commands.

::

    exactplay export (GAME [params] | --game MOD:FACTORY [--param k=v] | --model FILE) --format json|drn|prism -o FILE
                     [--fix PLAYER]        (GAME: race, hold, coins, war, chefs: games/<name>/model.py)
    exactplay crosscheck (GAME [params] | --game MOD:FACTORY [--param k=v] | --model FILE)
                         [--method topological|policy-iteration]
    exactplay solve --model FILE.drn --objective Pmax|Pmin|Rmax|Rmin --target EXPR [--avoid EXPR] [--reward NAME]
"""

from __future__ import annotations

import argparse
import sys
from fractions import Fraction
from pathlib import Path

from ..errors import EXIT_FAILED, EXIT_OK, UsageError
from ..model import ModelError
from ..numbers.backends import format_pq
from ..api.model_source import add_drn_arguments, check_drn_arguments, is_drn, load_drn_model, load_model
from ..strict_json import dumps
from .builtin_model import BUILTIN_FACTORY, load_builtin
from .inputs import INTEROP_COMMANDS, refuse_unconsumed, unrecognized, unrecognized_builtin

__all__ = ["COMMANDS", "add_parser", "run"]


def storm_copy(args, drn, path: str) -> str:
    """Write the DRN file again with the labels ``exactplay_target`` (and ``exactplay_avoid``) added on the
    states where --target (--avoid) holds, and return Storm's property for it.

    Storm's property parser does not take every label a DRN file may hold (e.g. ``"((l = 4) & (ip = 1))"``),
    so the expressions are evaluated here, on the same labels, and Storm gets plain names.
    """
    from ..interop.labels import holds, parse_label_expr
    from ..interop.drn_read import read_drn_text

    known = drn.all_labels()
    texpr = parse_label_expr(args.target, known, "--target")
    aexpr = parse_label_expr(args.avoid, known, "--avoid") if args.avoid else None
    lines = read_drn_text(args.model).split("\n")  # the file as read (inflated if gzip)
    for d, ln in enumerate(drn.lines):
        extra = ""
        if holds(texpr, drn.labels[d]):
            extra += " exactplay_target"
        if aexpr is not None and holds(aexpr, drn.labels[d]):
            extra += " exactplay_avoid"
        lines[ln - 1] = lines[ln - 1].rstrip("\r") + extra
    Path(path).write_text("\n".join(lines), encoding="utf-8")
    op, direction = args.objective[0], args.objective[1:]
    if op == "P":
        reach = 'F "exactplay_target"' if not args.avoid else '!"exactplay_avoid" U "exactplay_target"'
        return f"P{direction}=? [{reach}]"
    name = f'{{"{args.reward}"}}' if args.reward else ""
    return f'R{name}{direction}=? [F "exactplay_target"]'


HELP = {"export": "write a game as JSON, Storm's DRN or PRISM (exactplay export --help)",
        "crosscheck": "compare exact values with Storm's exact engine (needs stormpy)"}
DESCRIPTION = {
    "export": "Write a game for other tools: the explicit JSON model, Storm's DRN format or a PRISM model (with "
              "the property to check in a .props file beside it).",
    "crosscheck": "Check exactplay's exact values against Storm's exact engine (stormpy: rational numbers, "
                  "an exact method), state by state.",
}
EPILOG = "exit status: 0 success; 1 a disagreement (crosscheck); 2 bad usage or bad input."
REQUIRED = {"export": ("--format", "-o/--output"), "crosscheck": ()}  # checked in run: a GAME's parser has them


COMMANDS = INTEROP_COMMANDS
OWN_EXTRAS = True  # run(args, extras, parser): the words argparse left over are judged here (input kinds)


def add_parser(sub, games=None) -> None:
    """``exactplay export`` and ``exactplay crosscheck`` as subcommands of the main parser."""
    for command in INTEROP_COMMANDS:
        _configure(sub.add_parser(command, help=HELP[command], description=DESCRIPTION[command], epilog=EPILOG),
                   command)


def _parser(command: str, parser_class) -> argparse.ArgumentParser:
    """The command's parser on its own (as :func:`add_parser` adds it)."""
    p = parser_class(prog=f"exactplay {command}", description=DESCRIPTION[command], epilog=EPILOG)
    _configure(p, command)
    return p


def _configure(p: argparse.ArgumentParser, command: str) -> None:
    """The command's options: a --game factory or a --model file and what they take, or a built-in
    GAME (race, hold, ...: its own parameters, as ``exactplay solve GAME``), then the command's own."""
    from .parsing import _add_game_params, _available_games, _CommandParser, _OptionalGames

    src = p.add_mutually_exclusive_group()  # one of them, or a GAME (checked in run: argparse cannot say so)
    src.add_argument("--game", metavar="MOD:FACTORY", help="a Python factory: module:function or path/file.py:function")
    src.add_argument("--model", metavar="FILE", help="an explicit model file (JSON) or Storm's DRN (FILE.drn)")
    p.add_argument("--param", action="append", metavar="NAME=VALUE", help="a parameter for the factory (repeatable)")
    _add_size_options(p)
    add_drn_arguments(p)
    from .symbolic import add_symbolic_arguments

    add_symbolic_arguments(p, command)
    _add_own_options(p, command, required=False)
    games = p.add_subparsers(dest="builtin", metavar="GAME", parser_class=_CommandParser, action=_OptionalGames)
    for game in _available_games():
        gp = games.add_parser(game.name, help=game.title, description=f"{game.description} The game's own model "
                              f"({BUILTIN_FACTORY.format(game=game.name)}), as its certificate holds it.",
                              epilog=EPILOG)
        _add_game_params(gp, game)
        _add_size_options(gp)
        _add_own_options(gp, command, required=True)


def _add_size_options(p) -> None:
    p.add_argument("--max-states", type=int, default=None, metavar="N", help="refuse games with more reachable states")
    p.add_argument("--quiet", "-q", action="store_true", help="no progress display")


def _add_own_options(p, command: str, required: bool) -> None:
    if command == "export":
        p.add_argument("--format", required=required, choices=["json", "drn", "prism"], help="what to write")
        p.add_argument("-o", "--output", required=required, metavar="FILE",
                       help="the file to write ('-': stdout); for prism the property goes to FILE with suffix .props")
        p.add_argument("--fix", metavar="PLAYER",
                       help="fix this player (number or name) to exactplay's optimal strategy: a two-player game "
                            "becomes an MDP of the other player (needed for drn)")
    else:
        p.add_argument("--method", choices=["topological", "policy-iteration"], default="topological",
                       help="Storm's exact min-max method (default topological)")
        p.add_argument("--json", action="store_true", help="print JSON")


def _require(args, command: str) -> None:
    """argparse's own errors for what a --game or --model command line lacks (a GAME's parser says them itself)."""
    missing = [flag for flag in REQUIRED[command] if getattr(args, flag.split("--")[-1]) is None]
    if missing:
        raise UsageError(f"{command}: the following arguments are required: {', '.join(missing)}")
    if args.game is None and args.model is None:
        raise UsageError(f"{command}: one of the arguments --game --model is required")


def _load(args, progress):
    from ..interop.symbolic import is_symbolic

    if is_symbolic(args.model):  # a PRISM/JANI model and its property (--const, --prop)
        from ..api.symbolic import load_symbolic

        loaded = load_symbolic(args)
        return loaded.model, args.model, loaded
    check_drn_arguments(args)
    if is_drn(args.model):
        model, order, drn = load_drn_model(args)
        return model, args.model, (order, drn)
    model, source = load_model(args, progress)
    return model, source, None


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


def _export(args, model, progress) -> int:
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


def _decimal(x: Fraction | None, digits: int = 12) -> str:
    if x is None:
        return "inf"
    from ..audit.judge import decimal_digits

    return decimal_digits(x, digits)


def _crosscheck(args, model, source, extra, progress) -> int:
    from ..engine import solve_model
    from ..interop.storm import Check, crosscheck, storm_check_drn

    sol = solve_model(model, "mpq", progress)
    progress.close()
    if extra is None:
        checks = crosscheck(model, sol, args.method)
    elif not isinstance(extra, tuple):  # a PRISM/JANI model: Storm checks the file itself (a game: as MDPs)
        from ..interop.storm_symbolic import crosscheck_symbolic

        checks = (crosscheck(model, sol, args.method) if extra.kind == "smg"
                  else crosscheck_symbolic(extra, sol, args.method))
    else:  # a DRN file: Storm checks the file itself, with the property of the command line
        import tempfile

        order, drn = extra
        with tempfile.TemporaryDirectory(prefix="exactplay-storm-") as tmp:
            copy = str(Path(tmp) / "model.drn")
            formula = storm_copy(args, drn, copy)
            storm, build, cpu, storm_initial = storm_check_drn(copy, formula, args.method, with_initial=True)
        check = Check(f"{args.objective} on the file (--target, --avoid as labels exactplay_target, exactplay_avoid)", formula, len(model), 0, build_seconds=build,
                      check_seconds=cpu)
        for k, d in enumerate(order):
            v = sol.values[k]  # None: +infinity, as Storm's
            mine = None if v is None else Fraction(int(v[0].numerator), int(v[0].denominator))
            check.compared += 1
            if storm[d] != mine:
                check.mismatches.append((d, mine, storm[d]))
        checks = [check]
    import stormpy

    ok = all(c.ok for c in checks)
    v0 = sol.values[model.initial]
    v0 = None if v0 is None else Fraction(int(v0[0].numerator), int(v0[0].denominator))
    drn = isinstance(extra, tuple)  # (Storm's values of a DRN file's own states, to compare the initial ones)
    starts = _initial_states(model, sol, storm if drn else None, storm_initial if drn else None,
                             extra[0] if drn else None)
    ok = ok and (starts is None or starts.get("storm", {}).get("same_states", True))
    if args.json:
        reason = {} if v0 is not None else {"value_reason": sol.infinite_reason(model.initial)}
        print(dumps({
            "model": model.name, "source": source, "states": len(model), "storm": stormpy.__version__,
            "method": args.method, "value": None if v0 is None else format_pq(v0), **reason,
            "infinite_states": sum(v is None for v in sol.values),
            **({"initial_states": starts} if starts else {}),
            "checks": [{"what": c.what, "formula": c.formula, "compared": c.compared, "agree": c.ok,
                        "mismatches": [{"state": s, **_side("exactplay", a), **_side("storm", b)}
                                       for s, a, b in c.mismatches[:20]],
                        "storm_build_seconds": c.build_seconds, "storm_check_seconds": c.check_seconds}
                       for c in checks],
            "verdict": "agree" if ok else "DISAGREE",
        }))
    else:
        print(f"crosscheck: {model.name} ({source}), {len(model):,} states")
        print(f"  Storm {stormpy.__version__}, exact mode (rational numbers, min-max method {args.method})")
        for c in checks:
            state = f"{c.compared - len(c.mismatches):,}/{c.compared:,} states equal exactly"
            print(f"  {c.what}: {c.formula}: {state} (Storm build {c.build_seconds:.2f} s, check {c.check_seconds:.2f} s)")
            for s, a, b in c.mismatches[:5]:
                print(f"    state {s}: exactplay {_decimal(a)} ({_short(a)}), Storm {_decimal(b)} ({_short(b)})")
        if v0 is None:
            print(f"  value of the {'first ' if starts else ''}initial state: inf ({sol.infinite_reason(model.initial)})")
        else:
            print(f"  value of the {'first ' if starts else ''}initial state: {_decimal(v0)} = {_short(v0)}")
        if starts:
            st, line = starts.get("storm"), f"  initial states: {starts['summary']}"
            if st is not None:
                same = (f"Storm's initial states are the same {starts['count']:,}" if st["same_states"] else
                        f"Storm's initial states DIFFER ({st['count']:,} in Storm's model)")
                line += f"; {same}, its range [{_decimal(_fraction(st['smallest']))}, {_decimal(_fraction(st['largest']))}]"
            print(line)
        print(f"verdict: {'agree' if ok else 'DISAGREE'}")
    return EXIT_OK if ok else EXIT_FAILED


def _initial_states(model, sol, storm, storm_initial, order) -> dict | None:
    """Several initial states (a DRN file): exactplay's values and range, and Storm's range over the
    initial states of the model Storm built (which must be the same states); None stands for +infinity."""
    from ..model.initial_values import extremes, initial_range

    def mine(s):
        return None if sol.values[s] is None else sol.values[s][0]

    r = initial_range(model.initial_states, mine)
    if r is None:
        return None
    out = {**r.to_json(model.state_name, digits=12), "summary": r.summary(model.state_name, 12)}
    if storm is not None:
        (_, lo), (_, hi) = extremes([(d, storm[d]) for d in storm_initial])
        out["storm"] = {"same_states": storm_initial == sorted(order[s] for s in model.initial_states),
                        "count": len(storm_initial), **_side("smallest", lo), **_side("largest", hi)}
    return out


def _fraction(x: str | None) -> Fraction | None:
    return None if x is None else Fraction(x)


def _side(key: str, x: Fraction | None) -> dict:
    """``{key: "p/q"}``, or for +infinity ``{key: null, key_reason: "infinite"}`` (strict JSON)."""
    return {key: format_pq(x)} if x is not None else {key: None, f"{key}_reason": "infinite"}


def _short(x: Fraction | None) -> str:
    if x is None:
        return "+inf"
    text = format_pq(x)
    return text if len(text) <= 60 else f"{text[:28]}...{text[-28:]} ({len(text)} chars)"


def run(args, extras: list[str], parser: argparse.ArgumentParser) -> int:
    """``export`` or ``crosscheck``, parsed by the main parser (``parser``: the command's own)."""
    from ..progress import make_progress

    command, name = args.command, args.builtin
    if name is not None:
        if args.game is not None or args.model is not None:
            raise UsageError(f"{command}: name a built-in GAME or give --game or --model, not both")
        if extras:
            raise UsageError(unrecognized_builtin(command, name, extras))
    else:
        _require(args, command)
        if extras:
            raise UsageError(unrecognized(parser, args, command, extras))
        refuse_unconsumed(parser, args, command)  # before stormpy is looked for or anything is read
    if command == "crosscheck":
        from ..interop.storm import stormpy_or_fail

        stormpy_or_fail()
    progress = make_progress(args.quiet, getattr(args, "json", False))
    try:
        try:
            if name is not None:
                from ..api.model_source import state_limit
                from ..registry import get_game
                from .parsing import _game_params

                params = _game_params(args, get_game(name))
                (model, source), extra = load_builtin(name, params, state_limit(args), progress), None
            else:
                model, source, extra = _load(args, progress)
            if command == "export":
                return _export(args, model, progress)
            return _crosscheck(args, model, source, extra, progress)
        except ModelError as exc:
            raise UsageError(str(exc)) from None
    finally:
        progress.close()
