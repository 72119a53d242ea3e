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
    """The command table's parsers by name, each built when it is first looked up (``exactplay --help``
    and ``exactplay solve ...`` build only what they show or run)."""

    def __init__(self, action: "_Commands"):
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
    """A command's line in ``exactplay --help``, asked of its module only when a help is printed."""

    def __init__(self, name: str, help_of) -> None:
        super().__init__(name, (), None)
        self._help_of = help_of

    @property
    def help(self):
        return self._help_of()

    @help.setter
    def help(self, value) -> None:  # (argparse's __init__ sets it)
        pass


class _Commands(argparse._SubParsersAction):
    """The commands of ``exactplay``: :meth:`add_command` lists one (its help line) with the function
    that adds its parser, ``build(sub, name)``, called when argparse (or a hint) first needs it."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.builders = {}
        self.choices = self._name_parser_map = _Built(self)

    def add_command(self, name: str, help_text, build) -> None:
        """``help_text``: the line, or a function that gives it when a help is shown (its module unread till then)."""
        self._choices_actions.append(_LazyHelp(name, help_text) if callable(help_text)
                                     else self._ChoicesPseudoAction(name, (), help_text))
        self.builders[name] = build
        dict.__setitem__(self.choices, name, None)

    def add_parser(self, name, **kwargs):
        if name not in self.builders:
            return super().add_parser(name, **kwargs)
        kwargs.pop("help", None)  # listed by add_command
        dict.__delitem__(self.choices, name)  # (argparse refuses a name it has)
        parser = super().add_parser(name, **kwargs)
        built = {n: dict.get(self.choices, n) for n in self.builders}  # the table's order again
        dict.clear(self.choices)
        dict.update(self.choices, built)
        return parser


class _AnyWord(dict):
    """The GAME subparsers by name as argparse checks a word against them: every word is taken (a
    word that names no game is not "invalid choice" but left over: :class:`_OptionalGames`)."""

    def __contains__(self, word) -> bool:
        return True


class _OptionalGames(argparse._SubParsersAction):
    """An optional GAME after a command that also reads ``--game`` or ``--model``: a first word that
    names a game selects its parser; any other word (the value of an unknown option) is left over, as
    argparse leaves words it does not recognise, and the words after it are the command's again."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.choices = _AnyWord()
        self.builders = {}
        self._name_parser_map = _Built(self)

    def add_game(self, name: str, help_of, build) -> None:
        """List GAME ``name`` (``help_of()``: its line in the command's help) and build its parser with
        ``build(self, name)`` when the word is given (``solve --model X`` reads no game's module)."""
        self._choices_actions.append(_LazyHelp(name, help_of))
        self.builders[name] = build
        dict.__setitem__(self._name_parser_map, name, None)

    def add_parser(self, name, **kwargs):
        if name in self.builders:  # listed by add_game
            kwargs.pop("help", None)
            dict.__delitem__(self._name_parser_map, name)  # (argparse refuses a name it has)
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


def _available_game_names() -> list[str]:
    """The registered games' names, none of their modules read (a game that fails to load says so when
    its line of a help is shown or its parser is built)."""
    return game_names()


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
