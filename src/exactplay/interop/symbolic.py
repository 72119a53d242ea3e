"""PRISM, PRISM-games and JANI models read through stormpy, with their constants and properties.

:func:`read_source` parses the file (its type from the extension, else from its first character:
``{`` is JANI), :func:`choose_property` picks the property (a string, a name or a 1-based number in
a ``.props`` file, or a property named in the JANI file), :func:`build` defines the constants
(``N=3,p=0.2``: decimals become exact fractions, 0.2 is 1/5) and builds the model with stormpy's
exact builder (``stormpy.build_model[stormpy.Rational]``: rational numbers throughout), with the
state valuations, the choice labels and origins, every label and the property's reward model.

Every failure is one :class:`~exactplay.model.ModelError` line: Storm's messages are cut to their
first line (a parse error keeps its ``line:column``), and Storm's own logging is turned off so that
nothing else reaches stderr.
"""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass, field
from pathlib import Path

from ..model import ModelError
from .file_kind import PRISM_SUFFIXES, is_symbolic
from .query import REWARD_VARIANT

__all__ = ["Source", "read_source", "is_symbolic", "property_texts", "choose_property", "build", "storm_error",
           "PRISM_SUFFIXES", "MAX_SOURCE_BYTES"]

MAX_SOURCE_BYTES = 64 * 2**20
KINDS = ("dtmc", "mdp", "smg", "ctmc", "ma")  # the model types read (a CTMC and an MA as their embedded model)


def _stormpy():
    try:
        import stormpy
        from stormpy import developer
    except ImportError:
        raise ModelError("reading PRISM and JANI models needs Storm: pip install 'exactplay[storm]' (stormpy)") from None
    developer.set_log_level(developer.LogLevel.OFF)  # errors come back as exceptions, said in one line
    return stormpy


def storm_error(exc: BaseException, where: str) -> ModelError:
    """Storm's exception as one line: ``where: what`` (a parse error: ``where:LINE:COL: what``)."""
    text = str(exc).strip()
    text = re.sub(r"^[A-Za-z]+Exception: ", "", text)
    m = re.match(r"Parsing error at (\d+):(\d+):\s*(.*?)(?:, here:\s*\n\s*(.*?)\s*\n|$)", text, re.S)
    if m:
        line, col, what, here = m.groups()
        shown = f" at {here.strip()[:50]!r}" if here else ""
        return ModelError(f"{where}:{line}:{col}: parse error: {what.strip()}{shown}")
    first = text.splitlines()[0] if text else type(exc).__name__
    return ModelError(f"{where}: {first[:300]}")


@dataclass
class Source:
    """A parsed PRISM or JANI file."""

    path: str
    language: str  # "prism" | "jani"
    sha256: str  # of the file's bytes
    text: str
    program: object  # stormpy PrismProgram or JaniModel
    jani_properties: list = field(default_factory=list)
    player_names: list[str] = field(default_factory=list)  # PRISM-games' players, in order

    kind: str = ""  # "dtmc" | "mdp" | "smg" | "ctmc" | "ma" (anything else is refused)
    # the constants the chosen .props file declares (``const int B;``): name -> defined there (``= ...``)
    props_constants: dict[str, bool] = field(default_factory=dict)
    props_declarations: str = ""  # their declarations, parsed before the property


def _strip_comments(text: str) -> str:
    text = re.sub(r"/\*.*?\*/", lambda m: "\n" * m.group(0).count("\n"), text, flags=re.S)
    return re.sub(r"//[^\n]*", "", text)


_PRISM_TYPES = {"dtmc": "dtmc", "probabilistic": "dtmc", "mdp": "mdp", "nondeterministic": "mdp", "smg": "smg",
                "ctmc": "ctmc", "stochastic": "ctmc", "csg": "csg", "pomdp": "pomdp", "pta": "pta", "popta": "popta",
                "ma": "ma", "lts": "lts", "tsg": "tsg"}


def _kind(text: str, jani: bool) -> str:
    """The model type a PRISM file declares (its first keyword), or a JANI file's ``"type"``
    (stormpy's enums do not name every type: an SMG is 8 there)."""
    if jani:
        import json

        try:
            return str(json.loads(text).get("type", "")).lower()
        except (ValueError, AttributeError):
            return ""
    m = re.search(r"\b(" + "|".join(_PRISM_TYPES) + r")\b", _strip_comments(text))
    return _PRISM_TYPES[m.group(1)] if m else "mdp"


def _players(text: str) -> list[str]:
    return re.findall(r"^\s*player\s+([A-Za-z_][A-Za-z0-9_]*)", _strip_comments(text), re.M)


def read_source(path: str) -> Source:
    """Parse a PRISM (PRISM-games) or JANI file."""
    stormpy = _stormpy()
    p = Path(path)
    try:
        size = p.stat().st_size
        if size > MAX_SOURCE_BYTES:
            raise ModelError(f"{path}: {size:,} bytes is larger than the {MAX_SOURCE_BYTES:,}-byte limit for a "
                             "model file")
        data = p.read_bytes()
        text = data.decode("utf-8-sig")  # a byte-order mark dropped (QVBS's beb and echoring JANI files begin with one)
    except OSError as exc:
        raise ModelError(f"{path}: cannot read ({exc.strerror or exc})") from None
    except UnicodeDecodeError:
        raise ModelError(f"{path}: not UTF-8 text") from None
    jani = str(path).lower().endswith(".jani") or text.lstrip().startswith("{")
    kind = _kind(text, jani)
    if kind not in KINDS + ("",):
        raise ModelError(_unsupported(path, kind))
    try:
        if jani:
            program, props = stormpy.parse_jani_model(str(path))
        else:  # (a PRISM CTMC's commands are "probabilistic" ones to Storm: its PRISM compatibility reads them)
            program, props = stormpy.parse_prism_program(str(path), prism_compatibility=kind == "ctmc"), []
    except RuntimeError as exc:
        raise storm_error(exc, str(path)) from None
    source = Source(str(path), "jani" if jani else "prism", hashlib.sha256(data).hexdigest(), text, program,
                    list(props), [] if jani else _players(text), _kind(text, jani))
    if source.kind not in KINDS:
        raise ModelError(_unsupported(path, source.kind))
    return source


def _unsupported(path, kind: str) -> str:
    what = {"csg": "a concurrent game (csg)", "pta": "a timed automaton (pta)", "pomdp": "a partially observable MDP",
            "": "no model type found"}.get(kind, f"a {kind.upper()} model")
    return (f"{path}: {what}: exactplay reads DTMCs, MDPs, turn-based stochastic games (smg), CTMCs and Markov "
            "automata (ma); timed automata, concurrent games and partial observation are not supported")


def property_texts(text: str) -> list[tuple[str | None, str]]:
    """The properties of a ``.props`` file: ``(name or None, text)``, in order.  One per line or
    separated by ``;``; a property whose brackets are not closed continues on the next line;
    ``const`` and ``label`` declarations and comments are skipped.

    >>> property_texts('// c\\n"win": Pmax=? [F "a"]; P=? [\\n F b]\\nconst int k = 2;')
    [('win', 'Pmax=? [F "a"]'), (None, 'P=? [ F b]')]
    """
    out, pending = [], ""
    for line in _strip_comments(text).split("\n"):
        for piece in line.split(";"):
            piece = (pending + " " + piece.strip()).strip() if pending else piece.strip()
            pending = ""
            if not piece:
                continue
            if piece.count("[") > piece.count("]") or piece.count("(") > piece.count(")"):
                pending = piece
                continue
            if re.match(r"(const|label)\b", piece):
                continue
            m = re.match(r'"([^"]+)"\s*:\s*(.*)$', piece, re.S)
            out.append((m.group(1), m.group(2).strip()) if m else (None, piece))
    if pending:
        out.append((None, pending))
    return out


_CONST_DECL = re.compile(r"\bconst\s+(?:(?:int|double|bool|rational)\s+)?([A-Za-z_][A-Za-z0-9_]*)\s*(=\s*[^;]+)?;")


def props_constants(text: str) -> tuple[dict[str, bool], str]:
    """The constants a ``.props`` file declares (name -> defined there) and their declarations' text
    (Storm's property parser reads them before the property, as Storm's command line does).

    >>> props_constants('const int B;\\nconst double p = 1/2; // c\\n"u": P=? [F x>=B]')
    ({'B': False, 'p': True}, 'const int B;\\nconst double p = 1/2;\\n')
    """
    found = list(_CONST_DECL.finditer(_strip_comments(text)))
    return {m.group(1): m.group(2) is not None for m in found}, "".join(m.group(0) + "\n" for m in found)


def _props_file(source: Source, props: str | None) -> tuple[str | None, list[tuple[str | None, str]]]:
    """``(path, its properties)`` of ``--props`` (unreadable: refused), else of the PRISM model's ``.props``
    beside it (unreadable or none: ``(None, [])``); its constant declarations go into ``source``."""
    path = props
    if path is None:
        beside = Path(source.path).with_suffix(".props")
        if source.language != "prism" or not beside.is_file():
            return None, []
        path = str(beside)
    try:
        text = Path(path).read_text(encoding="utf-8-sig")
    except (OSError, UnicodeDecodeError) as exc:
        if props is None:
            return None, []
        raise ModelError(f"--props {props}: cannot read ({getattr(exc, 'strerror', None) or exc})") from None
    source.props_constants, source.props_declarations = props_constants(text)
    return path, property_texts(text)


def _known_names(source: Source) -> set[str]:
    manager = source.program.expression_manager
    return {v.name for v in manager.get_variables()} if hasattr(manager, "get_variables") else set()


_KEYWORDS = {"P", "Pmin", "Pmax", "R", "Rmin", "Rmax", "F", "G", "X", "U", "W", "C", "I", "S", "T", "LRA", "true",
             "false", "min", "max", "multi", "filter", "forall", "exists", "first", "print", "sum", "avg", "count",
             "argmin", "argmax", "state", "range", "func", "floor", "ceil", "pow", "mod", "log", "E", "A", "Tmin",
             "Tmax", "Smin", "Smax"}


def _unknown_identifier(source: Source, text: str) -> str | None:
    """An identifier of the property text that is no variable, constant or formula of the model."""
    bare = re.sub(r'"[^"]*"|<<[^>]*>>|\{[^}]*\}', " ", text)
    known = _known_names(source)
    if not known:
        return None
    for word in re.findall(r"[A-Za-z_][A-Za-z0-9_]*", bare):
        if word not in known and word not in _KEYWORDS and not re.fullmatch(r"[eE]\d*", word):
            return word
    return None


def _parse_one(source: Source, text: str, name: str | None, where: str, declarations: str = ""):
    stormpy = _stormpy()
    plain = REWARD_VARIANT.sub("[ F", text)  # Storm parses R[F phi]; the variant is read from the text (query.analyse)
    labelled = f'"{name}": {plain}' if name else plain
    try:
        props = stormpy.parse_properties(declarations + labelled, source.program)
    except RuntimeError as exc:
        unknown = _unknown_identifier(source, plain)
        if unknown is not None:
            raise ModelError(f"{where}: unknown variable or constant {unknown!r} in {text[:60]!r}") from None
        error = storm_error(exc, where)
        if "expecting <basic path formula>" in str(error) and re.search(r"\b[FGXU]\s+time\b", plain):
            error = ModelError(f"{error}: Storm's property parser does not take a formula that starts with "
                               "'time' there; put it in brackets, F (time=...)")
        raise error from None
    if len(props) != 1:
        raise ModelError(f"{where}: {len(props)} properties in {text[:60]!r}; give one")
    if source.language == "prism":
        labels = {lab.name for lab in source.program.labels} | {"init", "deadlock"}
        for lab in re.findall(r'"([^"]*)"', re.sub(r"\{[^}]*\}", "", text.split(":", 1)[-1] if name else text)):
            if lab not in labels:
                shown = ", ".join(f'"{x}"' for x in sorted(labels))
                raise ModelError(f"{where}: unknown label \"{lab}\" (the model's labels: {shown})")
    return props[0]


def choose_property(source: Source, prop: str | None, props: str | None = None):
    """``(stormpy Property, where it came from, its text as written)`` for ``--prop`` (see the
    module docstring)."""
    props_path, listed = _props_file(source, props)
    named = [(p.get_name(), str(p.get_raw_formula()), p)
             for p in source.jani_properties]
    if prop is None:
        every = len(listed) + len(named)
        if every == 1:
            if listed:
                return (_parse_one(source, listed[0][1], listed[0][0], props_path, source.props_declarations), f"{props_path} property 1",
                        listed[0][1])
            return named[0][2], f"{source.path} property {named[0][0]!r}", named[0][1]
        what = (f"{len(listed)} properties in {props_path}" if listed else
                f"{len(named)} properties in the JANI file" if named else "no property file beside it")
        raise ModelError(f"{source.path}: give --prop (a property, its name or its number): {what}"
                         + _listing(listed, named))
    for name, text in listed:
        if name == prop:
            return _parse_one(source, text, name, props_path, source.props_declarations), f"{props_path} property {name!r}", text
    for name, text, p in named:
        if name == prop:
            return p, f"{source.path} property {name!r}", text
    if prop.isdigit() and listed:
        k = int(prop)
        if not 1 <= k <= len(listed):
            raise ModelError(f"--prop {prop}: {props_path} has properties 1..{len(listed)}")
        name, text = listed[k - 1]
        return _parse_one(source, text, name, props_path, source.props_declarations), f"{props_path} property {k}", text
    if not re.search(r"[\[(]", prop) and (listed or named):
        raise ModelError(f"--prop {prop!r}: no property of that name" + _listing(listed, named))
    return _parse_one(source, prop, None, "--prop"), "--prop", prop.strip()


def _listing(listed, named) -> str:
    items = [f"{i}: {t[:50]}" if n is None else f"{n!r}: {t[:50]}" for i, (n, t) in enumerate(listed, 1)]
    items += [f"{n!r}: {t[:50]}" for n, t, _ in named]
    return (" (" + "; ".join(items[:6]) + ("; ..." if len(items) > 6 else "") + ")") if items else ""


def parse_constants(text: str | None) -> dict[str, str]:
    """``N=3,p=0.2`` -> ``{"N": "3", "p": "0.2"}`` (values as written; Storm reads them exactly).

    >>> parse_constants("N=3, p=0.2")
    {'N': '3', 'p': '0.2'}
    """
    out: dict[str, str] = {}
    for part in (text or "").split(","):
        part = part.strip()
        if not part:
            continue
        name, eq, value = part.partition("=")
        name, value = name.strip(), value.strip()
        if not eq or not re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*", name) or not value:
            raise ModelError(f"--const {part[:60]!r}: write NAME=VALUE, several separated by commas")
        if name in out:
            raise ModelError(f"--const {name} is given twice")
        if len(value) > 1000:
            raise ModelError(f"--const {name}: the value is longer than 1000 characters")
        out[name] = value
    return out


def _undefined(program) -> list[str]:
    return [f"{c.name}" for c in program.constants if not c.defined]


def instantiate(source: Source, constants: dict[str, str], prop):
    """The program (and the property) with the constants defined; one line for an unknown,
    already defined or missing constant, or a bad value."""
    stormpy = _stormpy()
    program = source.program
    undefined = _undefined(program)
    defined = {c.name for c in program.constants if c.defined}
    # a .props file's own constants: given like the model's, needed only where the property uses them
    defined |= {c for c, is_defined in source.props_constants.items() if is_defined and c not in undefined}
    used = {v.name for v in prop.get_undefined_constants()} if hasattr(prop, "get_undefined_constants") else set()
    extra = [c for c, is_defined in source.props_constants.items()
             if not is_defined and c not in undefined and c not in defined]
    undefined = undefined + [c for c in extra if c in constants or c in used]
    for name in constants:
        if name in defined:
            raise ModelError(f"--const {name}: the model defines {name} already")
        if name not in undefined:
            shown = ", ".join(undefined) or "none"
            raise ModelError(f"--const {name}: the model has no constant {name} (its undefined constants: {shown})")
    missing = [c for c in undefined if c not in constants]
    if missing:
        raise ModelError(f"{source.path}: undefined constant(s) {', '.join(missing)}: give --const "
                         + ",".join(f"{c}=VALUE" for c in missing))
    if not constants:
        return program, prop
    text = ",".join(f"{k}={v}" for k, v in constants.items())
    try:
        program, props = stormpy.instantiate_constants(program, text, [prop])
    except RuntimeError as exc:
        raise storm_error(exc, f"--const {text[:60]}") from None
    return program, props[0]


def build(source: Source, program, prop):
    """Storm's exact sparse model of ``program``: valuations, choice labels and origins, every
    label and the labels and reward model the property needs."""
    stormpy = _stormpy()
    try:
        options = stormpy.BuilderOptions([prop])
        options.set_build_state_valuations()
        options.set_build_choice_labels()
        options.set_build_choice_origins()
        options.set_build_all_labels()
        model = stormpy.build_model[stormpy.Rational](program, options=options)
        if source.kind == "ma" and not model.is_closed:
            # maximal progress, as Storm's model checkers do first: a state with a probabilistic choice leaves
            # at once (its Markovian choice is dropped), and the states no longer reachable go (in place)
            model.close()
        return model
    except RuntimeError as exc:
        raise storm_error(exc, source.path) from None
    except Exception as exc:  # stormpy's own checks (e.g. undefined constants) raise other kinds
        raise storm_error(exc, source.path) from None


def states_where(model, formula, where: str) -> list[int]:
    """The states of the built model where a propositional state formula holds (Storm evaluates it)."""
    stormpy = _stormpy()
    try:
        result = stormpy.model_checking(model, formula)
    except RuntimeError as exc:
        raise storm_error(exc, where) from None
    return list(result.get_truth_values_vector())
