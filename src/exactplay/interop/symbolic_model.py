"""The game model of a PRISM, PRISM-games or JANI file and one of its properties.

:func:`load` reads the file and the property (:mod:`.symbolic`), reads the question
(:mod:`.query`), builds the model exactly with stormpy and reads it into flat arrays
(:mod:`.storm_arrays`), lets Storm evaluate the property's state formulas (the target, and an
until's left side) on the built states, and maps the question onto a
:class:`~exactplay.model.Model` (:mod:`.objective`, the mapping the DRN path uses too).

In the model, states are named by their variable valuation (``s=5 & srep=1``) and choices by their
action label (``[roll]``); an unlabelled command, or two choices of one state with the same label,
by the command's module and updates (``player2: guess'=1``).  A state where Storm found no enabled
command (a deadlock: Storm adds a self-loop and the label ``deadlock``) is refused, unless
``fix_deadlocks`` keeps those self-loops, as PRISM's ``-fixdl`` does.
"""

from __future__ import annotations

import re
import time
from dataclasses import dataclass, field
from fractions import Fraction
from pathlib import Path

import numpy as np

from ..model import Model, ModelError
from ..model.collector import fewer_collections
from .objective import Sides, reach_model
from .query import Query, analyse
from .step_bound import unroll
from .storm_arrays import ChoiceArrays, Valuations, extract
from .symbolic import Source, build, choose_property, instantiate, parse_constants, read_source, states_where

__all__ = ["Loaded", "load"]


@dataclass
class Loaded:
    """A loaded model and question, with what the output names them by."""

    model: Model
    order: list[int]  # model state k is Storm's state order[k] (with a step bound, at one of its steps left)
    arrays: ChoiceArrays
    query: Query
    source: Source
    constants: dict[str, str]
    property_text: str  # as written (Storm's reading: query.text)
    property_origin: str
    initial: list[int]  # the model states of the initial states
    deadlocks: list[int] = field(default_factory=list)  # Storm's states with a self-loop added
    prop: object = None  # the stormpy Property, before the constants are defined
    seconds: dict = field(default_factory=dict)  # build, extract, convert (CPU)

    @property
    def kind(self) -> str:
        """The kind of the model solved: ``dtmc``, ``mdp`` or ``smg`` (a CTMC's and an MA's embedded model's)."""
        return self.arrays.kind

    @property
    def model_type(self) -> str:
        """The type the source declares, as shown: ``DTMC``, ``MDP``, ``SMG``, ``CTMC`` or ``MA``."""
        return self.arrays.continuous or self.kind.upper()

    def describe(self) -> str:
        consts = ",".join(f"{k}={v}" for k, v in self.constants.items())
        return f"{Path(self.source.path).name}" + (f" ({consts})" if consts else "")


def _coalition(query: Query, arrays: ChoiceArrays, source: Source) -> Sides:
    names = arrays.player_names
    members = set()
    for x in query.coalition:
        if x in names:
            members.add(names.index(x))
        elif x.isdigit() and 1 <= int(x) <= len(names):
            members.add(int(x) - 1)
        else:
            raise ModelError(f"{query.text[:60]}: <<{x}>> is not a player of {source.path} (its players: "
                             f"{', '.join(names) or 'none'}; or their numbers 1..{len(names)})")
    ours = ",".join(names[i] for i in sorted(members))
    rest = ",".join(names[i] for i in range(len(names)) if i not in members) or "nobody"
    return Sides(members, (f"<<{ours}>>", rest), query.direction)


def _short_origin(info: str) -> str:
    """``(player2: [] guard -> 1 : (guess' = 1);)`` -> ``player2: guess'=1``."""
    text = info.strip()
    if text.startswith("(") and text.endswith(")"):
        text = text[1:-1]
    module, sep, rest = text.partition(":")
    if not sep or "->" not in rest:
        return re.sub(r"\s+", " ", text)[:80]
    updates = rest.split("->", 1)[1].strip().rstrip(";").strip()
    updates = re.sub(r"^1\s*:\s*", "", updates)
    updates = re.sub(r"\(\s*([A-Za-z_][A-Za-z0-9_]*')\s*=\s*([^()]*?)\s*\)", r"\1=\2", updates)
    updates = re.sub(r"\(\s*(\d+)\s*/\s*(\d+)\s*\)", r"\1/\2", updates)
    updates = re.sub(r"\s*:\s*", ":", re.sub(r"\s+", " ", updates))
    return f"{module.strip()}: {updates}"[:120]


def _choice_names(arrays: ChoiceArrays, built) -> list[str | None]:
    """The name of every choice: its label, else (or when a state's labels repeat) its origin."""
    rows = arrays.rows
    names: list[str | None] = list(arrays.choice_label) if arrays.choice_label is not None else [None] * rows
    gs = arrays.group_start
    several = np.nonzero(np.diff(gs) > 1)[0].tolist()
    origins = built.choice_origins if built.has_choice_origins() else None
    gl = gs.tolist()
    short: dict[str, str] = {}  # many choices come from one command: its name made once
    for s in several:
        r0, r1 = gl[s], gl[s + 1]
        labs = names[r0:r1]
        if None not in labs and len(set(labs)) == len(labs):
            continue
        seen: dict[str, int] = {}
        for r in range(r0, r1):
            label = names[r]
            origin = None
            if origins is not None:
                try:
                    info = origins.get_choice_info(r)
                except (MemoryError, RuntimeError):  # (stormpy cannot describe some choices: QVBS's bitcoin-attack)
                    origins = info = None
            if origins is not None:
                origin = short.get(info)
                if origin is None:
                    origin = short[info] = _short_origin(info)
            if label is None:
                name = origin or f"choice {r - r0}"
            elif labs.count(label) > 1:
                name = f"{label} ({origin})" if origin else label
            else:
                name = label
            k = seen.get(name, 0)
            seen[name] = k + 1
            names[r] = name if not k else f"{name}#{k + 1}"
    return names


def _state_labels(arrays: ChoiceArrays, source: Source) -> list:
    """Each state's labels: the model's own (PRISM ``label``), ``init`` and ``deadlock`` (a state
    without any: one shared empty tuple)."""
    own = {lab.name for lab in getattr(source.program, "labels", [])} | {"init", "deadlock"}
    out: list = [()] * arrays.n
    for label in sorted(arrays.labels):
        if label in own:
            for s in arrays.labels[label]:
                out[s] = [*out[s], label]
    return out


def _known_reward(query: Query, source: Source) -> None:
    """``R{"name"}`` names one of the model's reward models (checked before the build)."""
    if query.operator != "R" or source.language != "prism":
        return
    names = [r.name for r in source.program.reward_models]
    if query.reward_name is None and len(names) != 1:
        raise ModelError(f"{query.text[:60]}: " + (f"{len(names)} reward models ({', '.join(names)}): name one, "
                                                  'R{"...\"}' if names else "R needs a reward model, and the model has none"))
    if query.reward_name is not None and query.reward_name not in names:
        shown = ", ".join('"' + n + '"' for n in names) or "none"
        raise ModelError(f"{query.text[:60]}: no reward model \"{query.reward_name}\" (the model's: {shown})")


def _reward_name(query: Query, built) -> str | None:
    if query.operator != "R":
        return None
    names = sorted(built.reward_models)
    if query.reward_name is not None:
        if query.reward_name not in names:
            raise ModelError(f"{query.text[:60]}: no reward model \"{query.reward_name}\" (the model's: "
                             f"{', '.join(names) or 'none'})")
        return query.reward_name
    if not names:
        raise ModelError(f"{query.text[:60]}: R needs a reward model, and the model has none")
    if len(names) > 1:
        raise ModelError(f"{query.text[:60]}: {len(names)} reward models ({', '.join(names)}): name one, R{{\"...\"}}")
    return names[0]


def load(path: str, const: str | None = None, prop: str | None = None, props: str | None = None,
         fix_deadlocks: bool = False) -> Loaded:
    """Read, build and map a PRISM/JANI model and a property (see the module docstring)."""
    seconds = {}
    t0 = time.process_time()
    source = read_source(path)
    constants = parse_constants(const)
    chosen, origin, written = choose_property(source, prop, props)
    parsed = chosen
    program, chosen = instantiate(source, constants, chosen)
    query = analyse(chosen, source.kind, written)
    _known_reward(query, source)
    built = build(source, program, chosen)
    seconds["build"] = time.process_time() - t0
    t0 = time.process_time()
    with fewer_collections():
        arrays = extract(built, _reward_name(query, built), source.player_names)
    if query.operator == "T":  # the expected time: each visit's mean sojourn (discrete time: 1 a step), a state reward
        values = arrays.values
        if arrays.sojourn is None:
            values.append(Fraction(1))
            arrays.sojourn = np.full(arrays.n, len(values) - 1, dtype=np.int64)
        values.append(Fraction(0))
        arrays.state_reward = arrays.sojourn
        arrays.action_reward = np.full(arrays.rows, len(values) - 1, dtype=np.int64)
    seconds["extract"] = time.process_time() - t0
    t0 = time.process_time()
    names = arrays.valuations or Valuations([], [], None)
    deadlocks = arrays.labels.get("deadlock", [])
    if deadlocks and not fix_deadlocks:
        shown = "; ".join(names.of_storm_state(d) if arrays.valuations else str(d) for d in deadlocks[:3])
        raise ModelError(f"{path}: {len(deadlocks):,} deadlock state(s), where no command is enabled ({shown}"
                         + ("; ..." if len(deadlocks) > 3 else "") + "): fix the model, or give --fix-deadlocks "
                         "(a self-loop there, as PRISM does)")
    n = arrays.n
    target = bytearray(n)
    for s in states_where(built, query.right, path) if query.right is not None else ():  # (None: R[C<=k])
        target[s] = 1
    avoid = None
    if query.left is not None:
        avoid = bytearray(b"\x01") * n
        for s in states_where(built, query.left, path):
            avoid[s] = 0
    sides = _coalition(query, arrays, source) if arrays.kind == "smg" else None
    with fewer_collections():
        choice_names = _choice_names(arrays, built)
        labels = _state_labels(arrays, source)

    valued = arrays.valuations is not None

    def state_names(order):
        return names.renumbered(order) if valued else [str(d) for d in order]

    def where(d: int) -> str:
        return names.of_storm_state(d) if valued else str(d)

    mapped = arrays  # what reach_model maps: Storm's states, or with a step bound their product with the steps left
    if query.steps is not None:  # P[F<=k], P[U<=k], R[C<=k]: the model unrolled over the steps left (:mod:`.step_bound`)
        base_where = where
        u = unroll(arrays, query.steps, target, avoid, query.operator != "P")
        mapped, target, avoid = u.arrays, u.target, u.avoid
        choice_names = [None if r is None else choice_names[r] for r in u.row]
        labels = [labels[d] for d in u.base]

        def where(q: int) -> str:  # noqa: F811 -- a product state: the model state and the steps left
            j = u.steps[q]
            return f"{base_where(u.base[q])}, {j} step{'' if j == 1 else 's'} left"

        def state_names(order):  # noqa: F811
            return [where(q) for q in order]

    consts = ",".join(f"{k}={v}" for k, v in constants.items())
    name = f"{Path(path).name}" + (f" ({consts})" if consts else "") + f": {written}"
    model, order = reach_model(mapped, target, avoid, query.operator != "P", query.direction, name, choice_names,
                               state_names, sides, labels, where, "scheduler", query.cumulative)
    seconds["convert"] = time.process_time() - t0
    initial = [order[d] for d in mapped.initial]  # order is a swap: its own inverse
    if query.steps is not None:
        order = [u.base[q] for q in order]  # each model state's Storm state
    return Loaded(model, order, arrays, query, source, constants, written, origin, initial,
                  deadlocks=list(deadlocks), prop=parsed, seconds=seconds)
