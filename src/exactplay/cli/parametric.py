"""``exactplay solve|certify|report --game MOD:FACTORY --param-symbol p [--range A,B]``.

The factory receives, for the parameter named by ``--param-symbol``, a polynomial object
(:class:`~exactplay.parametric.poly.Param`) instead of a number; every other ``--param`` is read
as usual.  ``solve`` prints the regions of the range where the optimal policy is constant, the
value of the initial state on each as a reduced rational function, and the breakpoints exactly;
``certify -o FILE`` writes the parametric certificate that ``exactplay check FILE`` re-verifies;
``report -o DIR`` draws the value and the margins against the parameter.
"""

from __future__ import annotations

import sys

from ..present.render import emit
from ..errors import EXIT_OK, UsageError
from ..model import ModelError
from ..strict_json import dumps

__all__ = ["wants_parametric", "run_parametric"]


DEFAULT_MAX_STATES = 2_000  # without --max-states: measured sizes under a minute are 84-889 states


def wants_parametric(argv: list[str]) -> bool:
    return any(a == "--param-symbol" or a.startswith("--param-symbol=") for a in argv[1:])


def _parser(command: str, parser_class, model_parser):
    """``model_parser(command, parser_class)``: the user-model command's parser, extended here."""
    p = model_parser(command, parser_class)
    g = p.add_argument_group("parametric solving (--param-symbol)")
    g.add_argument("--param-symbol", metavar="NAME", required=True,
                   help="the factory parameter that becomes a polynomial variable (e.g. p): probabilities may then "
                        "be polynomials in it with rational coefficients")
    g.add_argument("--range", metavar="A,B", help="the open interval of the parameter to solve (default: where every "
                                                  "probability lies in (0, 1))")
    g.add_argument("--component", metavar="PLAYER", help="whose value to print (a player number or name; default: "
                                                          "the first player's objective)")
    if command != "solve":
        p.set_defaults(full=False, all_states=False, digits=12)
    return p


def load_parametric(args, progress):
    """The parametric model, its range (checked) and a description of its source."""
    from ..model.load import make_game, parse_params
    from ..parametric.build import build_parametric
    from ..parametric.interval import check_range, default_range, parse_range
    from ..parametric.poly import Param

    name = args.param_symbol
    if not name.isidentifier():
        raise UsageError(f"--param-symbol {name!r}: give the name of a factory parameter (a Python identifier)")
    params = parse_params(args.param)
    if name in params:
        raise UsageError(f"--param {name}=... and --param-symbol {name}: the symbol takes the place of the value")
    params[name] = Param.symbol(name)
    game = make_game(args.game, params)
    limit = args.max_states or DEFAULT_MAX_STATES
    try:
        pm = build_parametric(game, name, limit, progress)
    except ModelError as exc:
        if args.max_states is None and "reachable states" in str(exc):
            raise ModelError(f"{exc}; parametric solving is for small models (Pig to 10, 686 states, takes "
                             "about a minute; regions grow fast)") from None
        raise
    if args.range:
        lo, hi = parse_range(args.range)
    else:
        lo, hi = default_range(pm)
    check_range(pm, lo, hi)
    source = args.game + "".join(f" {k}={v}" for k, v in params.items() if k != name)
    return pm, lo, hi, source


def _component(ps, text: str | None) -> int | None:
    if text is None:
        return None
    names = ps.model.player_names
    if text.isdigit() and int(text) < len(names):
        c = int(text)
    elif text in names:
        c = names.index(text)
    else:
        raise UsageError(f"--component {text!r}: choose a player number 0..{len(names) - 1} or one of {names}")
    if c not in ps.components:
        raise UsageError(f"--component {text!r}: that payoff component is not valued")
    return ps.components.index(c)


def run_parametric(argv: list[str], parser_class, model_parser) -> int:
    from ..progress import make_progress
    from ..parametric.regions import solve_parametric

    command = argv[0]
    from .inputs import owner_hint

    if command not in ("solve", "certify", "report"):
        raise UsageError(owner_hint("--param-symbol", command))
    from .inputs import refuse_unconsumed, unrecognized

    parser = _parser(command, parser_class, model_parser)
    args, extras = parser.parse_known_args(argv[1:])
    if extras:
        raise UsageError(unrecognized(parser, args, command, extras))
    refuse_unconsumed(parser, args, command)  # before the factory is called
    if command == "certify" and args.output != "-":
        from ..paths import check_writable

        check_writable(args.output)
    if command == "report":
        from ..present.report import check_output_dir

        check_output_dir(args.output)
    progress = make_progress(args.quiet, args.json)
    try:
        try:
            pm, lo, hi, source = load_parametric(args, progress)
            ps = solve_parametric(pm, lo, hi, args.backend, progress)
        except ModelError as exc:
            raise UsageError(str(exc)) from None
        comp = _component(ps, args.component)
        if command == "certify":
            return _certify(args, ps)
        from ..parametric.present import parametric_report

        report = parametric_report(ps, source, comp, args.full, args.all_states)
        if command == "report":
            from .reproduce import command_words

            return _report(args, ps, report, source, comp, progress, command_words(parser, args, [command]))
    finally:
        progress.close()
    return emit(report, args.json)


def _certify(args, ps) -> int:
    from ..parametric.certificate import parametric_certificate

    from ..api.model_source import recorded_params

    cert = parametric_certificate(ps, recorded_params(args))
    text = dumps(cert, indent=None) + "\n"
    if args.output == "-":
        sys.stdout.write(text)
        return EXIT_OK
    from ..certify.write import write_text_atomic

    write_text_atomic(args.output, text)
    summary = {"written": args.output, "model": ps.model.name, "regions": len(ps.regions),
               "breakpoints": [b["decimal"] for b in cert["breakpoints"]]}
    if args.json:
        print(dumps(summary))
    else:
        print(f"wrote {args.output}: {ps.model.name}, {len(ps.regions)} region(s) of {ps.model.symbol} in "
              f"({ps.lo}, {ps.hi}), breakpoints {', '.join(summary['breakpoints']) or 'none'}")
    return EXIT_OK


def _report(args, ps, report, source, comp, progress, command: list[str]) -> int:
    import re
    from pathlib import Path

    from ..present.report import GameReport
    from ..present.report.html import print_files, write_report
    from ..parametric.figure import margin_figure, value_figure

    rep = GameReport(title=f"{ps.model.name}: exact values against {ps.model.symbol}", summary=report.lines,
                     figures=[value_figure(ps, comp), margin_figure(ps)])
    slug = re.sub(r"[^A-Za-z0-9]+", "-", ps.model.name).strip("-").lower() or "model"
    out = Path(args.output)
    out.mkdir(parents=True, exist_ok=True)
    files = write_report(out, slug + "-parametric", {"source": source, "symbol": ps.model.symbol}, args.backend,
                         rep, None, progress, command)
    print_files(files, args.json)
    return EXIT_OK


def builtin_argv(argv: list[str], game_names) -> list[str]:
    """``solve GAME --target 4 --param-symbol p`` for a built-in game, rewritten as the same command
    on the game's model: ``solve --game exactplay.games.GAME.model:make_game --param target=4
    --param-symbol p``.  Every ``--name VALUE`` (or ``--name=VALUE``) whose name is a parameter of
    the model's factory becomes ``--param name=VALUE``; every other word stays.  Any other ``argv``
    (no built-in game, no ``--param-symbol``) is returned unchanged.

    >>> builtin_argv(["solve", "race", "--target", "2", "--param-symbol", "p", "--json"], ["race"])
    ['solve', '--game', 'exactplay.games.race.model:make_game', '--param', 'target=2', '--param-symbol', 'p', '--json']
    >>> builtin_argv(["solve", "race", "--target", "2"], ["race"])
    ['solve', 'race', '--target', '2']
    """
    if (len(argv) < 2 or argv[0] not in ("solve", "certify", "report") or argv[1] not in game_names
            or not wants_parametric(argv)):
        return argv
    import importlib
    import inspect

    from .inputs import BUILTIN_FACTORY, owner_hint

    spec = BUILTIN_FACTORY.format(game=argv[1])
    target, _, factory = spec.rpartition(":")
    factory_params = set(inspect.signature(getattr(importlib.import_module(target), factory)).parameters)
    if any(w.partition("=")[0] == "--param" for w in argv[2:]):  # the game's options are its parameters
        raise UsageError(owner_hint("--param", argv[0], game=argv[1]))
    out = [argv[0], "--game", spec]
    words, i = argv[2:], 0
    while i < len(words):
        flag, eq, value = words[i].partition("=")
        name = flag[2:].replace("-", "_")
        if not flag.startswith("--") or name not in factory_params:
            out.append(words[i])
            i += 1
            continue
        if not eq:
            if i + 1 >= len(words):
                raise UsageError(f"{argv[0]} {argv[1]}: {flag} needs a value")
            i += 1
            value = words[i]
        out += ["--param", f"{name}={value}"]
        i += 1
    return out
