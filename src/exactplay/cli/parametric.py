"""``exactplay solve|certify|report --game MOD:FACTORY --param-symbol p [--range A,B]``.

The factory receives, for the parameter named by ``--param-symbol``, a polynomial object
(:class:`~exactplay.parametric.poly.Param`) instead of a number; every other ``--param`` is read
as usual.  ``solve`` prints the regions of the range where the optimal policy is constant, the
value of the initial state on each as a reduced rational function, and the breakpoints exactly;
``certify -o FILE`` writes the parametric certificate that ``exactplay check FILE`` re-verifies;
``report -o DIR`` draws the value and the margins against the parameter.
"""

from __future__ import annotations

import argparse
import sys

from ..present.render import emit
from ..errors import EXIT_OK, UsageError
from ..model import ModelError
from ..strict_json import dumps

__all__ = ["COMMANDS", "SYMBOL", "add_options", "add_builtin_options", "from_builtin", "run"]

COMMANDS = ("solve", "certify", "report")  # the commands that take --param-symbol
SYMBOL = "--param-symbol"  # the option that selects parametric solving
DEFAULT_MAX_STATES = 2_000  # without --max-states: measured sizes under a minute are 84-889 states


def _group(p, title: str):
    g = p.add_argument_group(title)
    g.add_argument(SYMBOL, metavar="NAME",
                   help="the factory parameter that becomes a polynomial variable (e.g. p): probabilities may then "
                        "be polynomials in it with rational coefficients")
    for flag, metavar, text in (
            ("--range", "A,B", "the open interval of the parameter to solve (default: where every probability "
                               "lies in (0, 1))"),
            ("--component", "PLAYER", "whose value to print (a player number or name; default: the first "
                                      "player's objective)")):
        g.add_argument(flag, metavar=metavar, help=text).needs = SYMBOL  # refused without it
    return g


def add_options(p, command: str) -> None:
    """``--param-symbol`` and what goes with it, on ``command``'s parser (for a ``--game`` factory)."""
    _group(p, "parametric solving (--param-symbol)")
    if command != "solve":
        p.set_defaults(full=False, all_states=False, digits=12)


def add_builtin_options(p, game, command: str) -> None:
    """The same on a built-in GAME's parser: the game's own model (:data:`~exactplay.cli.inputs.BUILTIN_FACTORY`)
    then solved parametrically, with the factory's parameters that the game's options are not (race's --coin)."""
    import inspect

    from ..registry import game_model
    from .inputs import BUILTIN_FACTORY

    from .model import add_all_states, add_max_states

    g = _group(p, f"parametric solving (--param-symbol): {BUILTIN_FACTORY.format(game=game.name)}")
    for add in (add_max_states,) + ((add_all_states,) if command == "solve" else ()):
        add(g).needs = SYMBOL  # (the game's own solver has neither)
    # the game's options are its parameters: --param is refused (its abbreviation must not be --param-symbol)
    p.add_argument("--param", action="append", help=argparse.SUPPRESS).needs = "--game"
    own = {param.name for param in game.params}
    for name in inspect.signature(game_model(game.name)).parameters:
        if name not in own:
            action = g.add_argument(f"--{name.replace('_', '-')}", dest=name, metavar=name.upper(),
                                    help="a parameter of the game's model (with --param-symbol)")
            action.needs, action.factory = SYMBOL, True


def from_builtin(args, game_parser, parser, command: str) -> None:
    """``solve GAME --target 4 --param-symbol p``, parsed by GAME's parser, made the same command on the
    game's model: ``args`` then reads as ``solve --game exactplay.games.GAME.model:make_game --param
    target=4 --param-symbol p`` parsed by the command's ``parser``.  Each of the game's options that is a
    parameter of the model's factory becomes a ``--param``; an option the command's parser does not
    have is refused as that parser refuses it."""
    import inspect

    from ..registry import game_model, get_game
    from .inputs import BUILTIN_FACTORY, given_options, unrecognized

    name = args.builtin
    own = {param.name: param for param in get_game(name).params}
    factory = set(inspect.signature(game_model(name)).parameters)
    given = given_options(game_parser, args)
    args.game, args.builtin = BUILTIN_FACTORY.format(game=name), None
    params, refused = [], []
    for action in game_parser._actions:
        value = getattr(args, action.dest, None)
        flag = next((o for o in action.option_strings if o.startswith("--")), None)  # None: a positional
        if action.dest in own or getattr(action, "factory", False):
            if value is not None and value != []:
                if action.dest in factory and flag is not None:
                    params.append(f"{action.dest}={value}")
                else:
                    refused.append(list(map(str, value)) if flag is None else [flag, str(value)])
            setattr(args, action.dest, parser.get_default(action.dest))  # (a DRN model's --target)
        elif flag is not None and flag not in parser._option_string_actions and flag in given:
            refused.append([flag] + ([] if isinstance(value, bool) else [str(value)]))
        elif flag is not None and value == game_parser.get_default(action.dest):
            setattr(args, action.dest, parser.get_default(action.dest))
    args.param = params or None
    if refused:
        raise UsageError(unrecognized(parser, args, command, refused[0]))


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


def run(args, parser) -> int:
    """``COMMAND --game ... --param-symbol NAME``, parsed (``parser``: the command's) and its options checked."""
    from ..progress import make_progress
    from ..parametric.regions import solve_parametric

    command = args.command
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
