"""``exactplay crosscheck``: exactplay's exact values against Storm's exact engine, state by state.

::

    exactplay crosscheck (GAME [params] | --game MOD:FACTORY [--param k=v] | --model FILE)
                         [--method topological|policy-iteration]

The inputs and their options are :mod:`exactplay.cli.interop`'s (shared with ``export``).
"""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path

from ..errors import EXIT_FAILED, EXIT_OK, UsageError
from ..numbers.backends import format_pq
from ..strict_json import dumps
from . import interop

OWN_EXTRAS = True  # run(args, extras, parser): the words argparse left over are judged by the input kinds
HELP = "compare exact values with Storm's exact engine (needs stormpy)"
COMMANDS = {"crosscheck": HELP}
DESCRIPTION = ("Check exactplay's exact values against Storm's exact engine (stormpy: rational numbers, "
               "an exact method), state by state.")
REQUIRED = ()


def add_parser(sub, command: str) -> None:
    interop.add_parser(sub, command, DESCRIPTION, add_options)


def parser(parser_class):
    """This command's parser on its own (the tests look at its options)."""
    return interop.standalone_parser("crosscheck", DESCRIPTION, add_options, parser_class)


def add_options(p, required: bool = False) -> None:
    """crosscheck's own options (on the command's parser and on each GAME's)."""
    p.add_argument("--method", choices=["topological", "policy-iteration"], default="topological",
                   help="Storm's exact min-max method (default topological)")
    p.add_argument("--json", action="store_true", help="print JSON")


def run(args, extras: list[str], parser) -> int:
    from ..interop.storm import stormpy_or_fail

    return interop.run(args, extras, parser, REQUIRED, compare, before_reading=stormpy_or_fail)


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
    if op == "T":
        return f'T{direction}=? [F "exactplay_target"]'
    name = f'{{"{args.reward}"}}' if args.reward else ""
    return f'R{name}{direction}=? [F "exactplay_target"]'


def _decimal(x: Fraction | None, digits: int = 12) -> str:
    if x is None:
        return "inf"
    from ..audit.judge import decimal_digits

    return decimal_digits(x, digits)


def compare(args, model, source, extra, progress) -> int:
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
        pairs = list(enumerate(order))  # (model state, the file's state = Storm's)
        what = "on the file"
        if len(storm) != len(order):  # Storm closed a Markov automaton, dropping states: its numbering differs
            if len(storm_initial) != 1 or len(drn.initial_states) != 1:
                raise UsageError(f"Storm's model of {args.model} has {len(storm):,} states, the file {len(order):,} "
                                 "(Storm closed the automaton), and more than one initial state: the states cannot "
                                 "be paired")
            at = {d: k for k, d in enumerate(order)}
            pairs = [(at[d], s) for d, s in zip(drn.initial_states, storm_initial)]
            what = (f"on the file, initial states only (Storm closed the automaton to {len(storm):,} states, "
                    f"the file has {len(order):,})")
        check = Check(f"{args.objective} {what} (--target, --avoid as labels exactplay_target, exactplay_avoid)",
                      formula, len(model), 0, build_seconds=build, check_seconds=cpu)
        for k, d in pairs:
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
