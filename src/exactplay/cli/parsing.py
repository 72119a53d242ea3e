"""The command line's parsers: one-line argparse errors, the options every game command shares,
the games' own parameters."""

from __future__ import annotations

import argparse

from ..errors import UsageError
from ..registry import Game, game_names, get_game
from ..numbers.backends import BACKEND_NAMES, DEFAULT_BALL_PREC, int_option


EPILOG = """--json prints strict JSON (no NaN or Infinity), exact numbers as "p/q"; an error
measure with no double value (a relative error against an exact 0, an ulp count
beyond 1.8e308) is null, with a sibling "<field>_reason" starting "infinite:" or
"out of range:".
exit status: 0 success; 1 a certificate, answer file or check failed;
2 bad usage or bad input (one line on stderr says what was wrong)."""


class _Parser(argparse.ArgumentParser):
    """argparse with our exit status 2 and a one-line error."""

    def error(self, message: str):  # noqa: D401 - argparse API
        # main() prints the one "exactplay: error: " prefix; name only the subcommand here
        where = self.prog.removeprefix("exactplay").strip()
        raise UsageError(f"{where}: {message}" if where else message)


class _CommandParser(_Parser):
    """A built-in game's parser under ``export`` or ``crosscheck``: its errors name the command, as
    the command's own parser's do (``export: the following arguments are required: ...``)."""

    def error(self, message: str):  # noqa: D401 - argparse API
        raise UsageError(f"{self.prog.split()[1]}: {message}")


class _Built(dict):
    """The parsers of a :class:`_LazySubparsers` by name, each built when it is first looked up (``exactplay
    --help`` and ``exactplay solve --model X`` build only what they show or run)."""

    def __init__(self, action: "_LazySubparsers"):
        super().__init__()
        self._action = action

    def __getitem__(self, name):
        parser = dict.__getitem__(self, name)
        if parser is None:
            self._action.builders[name](self._action, name)  # adds it with add_parser
            parser = dict.__getitem__(self, name)
        return parser

    def get(self, name, default=None):
        return self[name] if name in self else default

    def values(self):
        return [self[name] for name in self]

    def items(self):
        return [(name, self[name]) for name in self]


class _LazyHelp(argparse._SubParsersAction._ChoicesPseudoAction):
    """A subparser's line in its parent's help, asked of its module only when a help is printed."""

    def __init__(self, name: str, help_of) -> None:
        super().__init__(name, (), None)
        self._help_of = help_of

    @property
    def help(self):
        return self._help_of()

    @help.setter
    def help(self, value) -> None:  # (argparse's __init__ sets it)
        pass


class _LazySubparsers(argparse._SubParsersAction):
    """Subparsers listed by :meth:`add_lazy` (a name, its help line as a function) and built by their
    function ``build(action, name)`` when argparse, a help or a hint first looks the name up."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.builders = {}
        self._name_parser_map = _Built(self)

    def add_lazy(self, name: str, help_of, build) -> None:
        self._choices_actions.append(_LazyHelp(name, help_of))
        self.builders[name] = build
        dict.__setitem__(self._name_parser_map, name, None)

    def add_parser(self, name, **kwargs):
        """``build``'s parser for a listed name, in the table's place (argparse refuses a name it has)."""
        table = self._name_parser_map
        dict.__delitem__(table, name)
        parser = super().add_parser(name, **kwargs)
        built = {n: dict.get(table, n) for n in self.builders}  # the table's order again
        dict.clear(table)
        dict.update(table, built)
        return parser


class _Commands(_LazySubparsers):
    """The commands of ``exactplay`` (the command table's, :mod:`exactplay.cli.main`)."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.choices = self._name_parser_map


class _AnyWord(dict):
    """The GAME subparsers by name as argparse checks a word against them: every word is taken (a
    word that names no game is not "invalid choice" but left over: :class:`_OptionalGames`)."""

    def __contains__(self, word) -> bool:
        return True


class _OptionalGames(_LazySubparsers):
    """An optional GAME after a command that also reads ``--game`` or ``--model``: a first word that
    names a game selects its parser (built then: ``solve --model X`` reads no game's module); any other
    word (the value of an unknown option) is left over, as argparse leaves words it does not recognise,
    and the words after it are the command's again."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.choices = _AnyWord()

    def add_games(self, build) -> None:
        """List every registered game (its title when a help is shown) and build its parser with
        ``build(action, game)`` when its name is given."""
        for name in game_names():
            self.add_lazy(name, lambda name=name: game_title(name), lambda action, name: build(action, get_game(name)))

    def add_parser(self, name, **kwargs):
        parser = super().add_parser(name, **kwargs)
        dict.__setitem__(self.choices, name, parser)
        return parser

    BEFORE = "_options_before_game"  # the command's options given before a GAME (which its parser then reads)

    def __call__(self, parser, namespace, values, option_string=None):
        if values[0] in self._name_parser_map:
            from .inputs import given_options

            before = list(given_options(parser, namespace))
            super().__call__(parser, namespace, values, option_string)
            setattr(namespace, self.BEFORE, before)
            return
        setattr(namespace, self.dest, None)
        rest, extras = values[1:], [values[0]]
        if rest:
            _, more = parser.parse_known_args(rest, namespace)
            extras += more
        vars(namespace).setdefault(argparse._UNRECOGNIZED_ARGS_ATTR, []).extend(extras)

    @classmethod
    def refuse_before(cls, args, command: str, name: str) -> None:
        """Refuse an option of the command given before GAME (GAME's parser reads its own, after it)."""
        before = getattr(args, cls.BEFORE, None)
        if before:
            raise UsageError(f"{command} {name}: {before[0]} goes after the game "
                             f"(exactplay {command} {name} {before[0]} ...)")


def _load_games() -> tuple[list[Game], dict[str, str]]:
    """The games that load, and why the others do not (one broken game must not break the CLI)."""
    games, missing = [], {}
    for name in game_names():
        try:
            games.append(get_game(name))
        except UsageError:
            missing[name] = "not available in this version"
        except Exception as exc:  # a game module that fails to import
            missing[name] = f"fails to load: {type(exc).__name__}: {exc}"
    return games, missing


def _available_games() -> list[Game]:
    return _load_games()[0]


def game_title(name: str) -> str:
    """GAME ``name``'s line in a command's help; why not, for a game that does not load."""
    try:
        return get_game(name).title
    except UsageError:
        return "(not available in this version)"
    except Exception as exc:  # a game module that fails to import
        return f"(fails to load: {type(exc).__name__}: {exc})"


def _add_common(p: argparse.ArgumentParser, backend: bool = True, backend_help: str | None = None,
                prec_help: str | None = None) -> None:
    p.add_argument("--json", action="store_true",
                   help="print strict JSON (exact numbers as \"p/q\"; an infinite error is null "
                        "with a \"<field>_reason\")")
    p.add_argument("--quiet", "-q", action="store_true", help="no progress display")
    if backend:
        p.add_argument(
            "--backend",
            choices=[b for b in BACKEND_NAMES if b != "float"] + ["auto"],
            default="mpq",
            help=backend_help or "exact arithmetic: gmpy2 mpq (default) or fractions.Fraction; "
                                 "ball: certified enclosures in python-flint arb balls (games that offer it); "
                                 "auto: balls first, exact only for what they leave unresolved",
        )
        p.add_argument("--prec", type=int_option, default=None, metavar="BITS",
                       help=prec_help or f"working precision of --backend ball|auto in bits (default {DEFAULT_BALL_PREC})")


def _param_help(text: str, default) -> str:
    """The parameter's help, plus its default unless there is none or the help already says it."""
    if default is None or "default" in text:
        return text
    if isinstance(default, (list, tuple)):
        default = " ".join(map(str, default))
    return f"{text} (default: {default})"


def _add_game_params(p: argparse.ArgumentParser, game: Game) -> None:
    for param in game.params:
        if param.positional:
            p.add_argument(param.name, nargs="*", default=None, help=param.help, metavar=param.metavar)
        else:
            p.add_argument(
                f"--{param.name.replace('_', '-')}",
                dest=param.name,
                default=None,
                help=_param_help(param.help, param.default),
                metavar=param.metavar or param.name.upper(),
            )


def _game_params(args: argparse.Namespace, game: Game) -> dict:
    """Parse each parameter's text with the game's own parser (one-line errors)."""
    out = {}
    for param in game.params:
        raw = getattr(args, param.name, None)
        if raw is None or raw == []:
            out[param.name] = param.default
        else:
            out[param.name] = param.parse(raw)
    return out


def _exact_only(args, command: str) -> str:
    """``--backend`` of a command that runs in exact arithmetic only."""
    if args.backend in ("ball", "auto") or getattr(args, "prec", None) is not None:
        raise UsageError(f"{command} runs in exact arithmetic: --backend mpq or fraction, without --prec")
    return args.backend
