"""``exactplay export`` and ``exactplay crosscheck``, and reading ``--model FILE.drn`` for the model commands.

::

    exactplay export (GAME [params] | --game MOD:FACTORY [--param k=v] | --model FILE) --format json|drn|prism -o FILE
                     [--fix PLAYER]        (GAME: race, hold, coins, war, chefs: exactplay.interop.builtin)
    exactplay crosscheck (--game MOD:FACTORY [--param k=v] | --model FILE) [--method topological|policy-iteration]
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
from .inputs import BUILTIN_FACTORIES, INTEROP_COMMANDS, owner_hint, refuse_unconsumed, unrecognized

__all__ = ["INTEROP_COMMANDS", "run_interop_command"]


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


def _parser(command: str, parser_class) -> argparse.ArgumentParser:
    p = parser_class(prog=f"exactplay {command}", description={
        "export": "Write a game for other tools: the explicit JSON model, Storm's DRN format or a PRISM model (with "
                  "the property to check in a .props file beside it).",
        "crosscheck": "Check exactplay's exact values against Storm's exact engine (stormpy: rational numbers, "
                      "an exact method), state by state.",
    }[command], epilog="exit status: 0 success; 1 a disagreement (crosscheck); 2 bad usage or bad input.")
    src = p.add_mutually_exclusive_group(required=True)
    src.add_argument("--game", metavar="MOD:FACTORY", help="a Python factory: module:function or path/file.py:function")
    src.add_argument("--model", metavar="FILE", help="an explicit model file (JSON) or Storm's DRN (FILE.drn)")
    p.add_argument("--param", action="append", metavar="NAME=VALUE", help="a parameter for the factory (repeatable)")
    p.add_argument("--max-states", type=int, default=None, metavar="N", help="refuse games with more reachable states")
    p.add_argument("--quiet", "-q", action="store_true", help="no progress display")
    add_drn_arguments(p)
    from .symbolic import add_symbolic_arguments

    add_symbolic_arguments(p, command)
    if command == "export":
        p.add_argument("--format", required=True, choices=["json", "drn", "prism"], help="what to write")
        p.add_argument("-o", "--output", required=True, metavar="FILE",
                       help="the file to write ('-': stdout); for prism the property goes to FILE with suffix .props")
        p.add_argument("--fix", metavar="PLAYER",
                       help="fix this player (number or name) to exactplay's optimal strategy: a two-player game "
                            "becomes an MDP of the other player (needed for drn)")
    else:
        p.add_argument("--method", choices=["topological", "policy-iteration"], default="topological",
                       help="Storm's exact min-max method (default topological)")
        p.add_argument("--json", action="store_true", help="print JSON")
    return p


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


BUILTIN_GAMES = {"race": ("target",), "hold": ("target", "faces"), "war": ("ranks", "suits"), "coins": (),
                 "chefs": ("n", "skills")}


def builtin_argv(argv: list[str]) -> list[str]:
    """``export|crosscheck GAME [--name VALUE ...] [coins ...]`` -> ``--game exactplay.interop.builtin:GAME
    --param name=VALUE ...`` (the built-in games written as game models; defaults as the game's own)."""
    if len(argv) < 2 or argv[1] not in BUILTIN_GAMES:
        return argv
    from ..registry import get_game

    name, rest = argv[1], argv[2:]
    names = BUILTIN_GAMES[name]
    params = {p.name: p.default for p in get_game(name).params if p.name in names}
    out, words, i = [], [], 0
    while i < len(rest):
        a = rest[i]
        key = a[2:].split("=")[0] if a.startswith("--") else None
        if key in names:
            value = a.split("=", 1)[1] if "=" in a else (rest[i + 1] if i + 1 < len(rest) else "")
            params[key] = value
            i += 1 if "=" in a else 2
        elif name == "coins" and not a.startswith("-") and (not out or not out[-1].startswith("-") or
                                                           out[-1] in ("-q", "--quiet", "--json")):
            words.append(a)
            i += 1
        else:
            out.append(a)
            i += 1
    if name == "coins":
        if not words:
            raise UsageError("coins: give the coin values, e.g. exactplay crosscheck coins 3 9 1 2")
        params["row"] = " ".join(words)
    if any(w.partition("=")[0] == "--param" for w in out):  # the game's options are its parameters
        raise UsageError(owner_hint("--param", argv[0], game=name))
    game = ["--game", BUILTIN_FACTORIES[0].format(game=name)]
    for k, v in params.items():
        if v is not None:
            game += ["--param", f"{k}={v}"]
    return [argv[0]] + game + out


def run_interop_command(argv: list[str], parser_class) -> int:
    from ..progress import make_progress

    argv = builtin_argv(argv)
    command = argv[0]
    parser = _parser(command, parser_class)
    args, extras = parser.parse_known_args(argv[1:])
    if extras:
        raise UsageError(unrecognized(parser, args, command, extras))
    refuse_unconsumed(parser, args, command)  # before stormpy is looked for or anything is read
    if command == "crosscheck":
        from ..interop.storm import stormpy_or_fail

        stormpy_or_fail()
    progress = make_progress(args.quiet, getattr(args, "json", False))
    try:
        try:
            model, source, extra = _load(args, progress)
            if command == "export":
                if isinstance(extra, tuple) and args.format != "json":
                    pass  # a DRN model can be written again (as the model exactplay solves)
                return _export(args, model, progress)
            return _crosscheck(args, model, source, extra, progress)
        except ModelError as exc:
            raise UsageError(str(exc)) from None
    finally:
        progress.close()
