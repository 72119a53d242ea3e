"""Reading an explicit model one state at a time (the format: :mod:`exactplay.model.explicit`).

:class:`StateReader` turns the top-level fields and then each state, as it comes, into the
model's lists; successors are named by id and resolved once every state is known.  It is fed
either a parsed dict (:func:`~exactplay.model.explicit.model_from_json`) or, by :func:`read_text`,
a file's text walked with :class:`~exactplay.checker._json.Cursor`: each top-level field and each
state is parsed on its own, so that every count is refused before what lies past it is built:

* the players: a number at most :data:`~exactplay.model.compiled.MAX_PLAYERS` (the checker's
  limit), a list of names read name by name up to the same limit;
* the states: at most ``max_states`` (``--max-states``), the next one refused before it is parsed;
  a file that may hold more (its ``{`` bound its states) has them counted first, each parsed and
  dropped, so that one over the limit is refused with nothing built; one within it is read a state
  at a time (never parsed whole: memory is the text and the model);
* a top-level field not of the format is refused before its value is parsed, and a field that
  holds one value (format, version, name, objective, initial) before a list or an object is;
  ``initial_states`` is a list of ids read one at a time, at most ``max_states`` of them;
* the objective must fit the players (:func:`~exactplay.model.compiled.check_objective`),
  refused as soon as both are read;
* JSON floats, ``NaN`` and ``Infinity`` are refused, a name given twice in one object is refused
  with its line and column, an integer literal has at most
  :data:`~exactplay.model.protocol.MAX_NUMBER_CHARS` digits (as a ``"p/q"`` string).
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from ..checker.readers import Cursor, bounded_int_digits, line_column, scanner
from .compiled import MAX_PLAYERS, MAX_STATES, NEVER_ENDING, OBJECTIVES, Model, ModelError, check_objective, exact_vector
from .protocol import MAX_NUMBER_CHARS, to_rational

__all__ = ["StateReader", "read_text", "FORMAT", "TOP_FIELDS"]

FORMAT = "exactplay-model"
TOP_FIELDS = ("format", "version", "name", "players", "objective", "never_ending", "initial", "initial_states",
              "states")
STATE_FIELDS = {"id", "payoff", "mover", "actions", "next", "labels", "name"}
ACTION_FIELDS = {"name", "next", "reward"}


def _refuse_float(text: str):
    raise ModelError(f"the number {text[:40]} is a JSON float: write probabilities and payoffs as \"p/q\" strings")


def player_names(players: Any) -> list[str]:
    """The names of ``players`` (a number of players or a list of names), at most :data:`MAX_PLAYERS`."""
    if isinstance(players, int) and not isinstance(players, bool) and players >= 1:
        if players > MAX_PLAYERS:
            raise ModelError(f"field 'players': {players:,} players is more than the limit of {MAX_PLAYERS:,}")
        return [f"player {i}" for i in range(players)]
    if isinstance(players, list) and players and all(isinstance(p, str) for p in players):
        if len(players) > MAX_PLAYERS:
            raise ModelError(f"field 'players': {len(players):,} players is more than the limit of {MAX_PLAYERS:,}")
        return list(players)
    raise ModelError("field 'players': give a number of players or a list of names")


class StateReader:
    """The model being read: the top-level fields as given, then :meth:`add` per state, then :meth:`model`."""

    def __init__(self, max_states: int = MAX_STATES):
        self.max_states = max_states
        self.fields: dict[str, Any] = {}
        self.names: list[str] | None = None
        self.objective: str | None = None
        self.ids: dict[Any, int] = {}
        self.first_id: Any = None
        self.terminal, self.mover, self.actions, self.trans, self.rewards = [], [], [], [], []
        self.labels, self.state_names = [], []

    # ------------------------------------------------------------ the top-level fields

    def header(self, final: bool = False) -> None:
        """Check the top-level fields read so far (``final``: all of them, the missing ones too)."""
        f = self.fields
        if final or "format" in f:
            if f.get("format") != FORMAT:
                raise ModelError(f"not an exactplay model: field 'format' must be {FORMAT!r}")
        if final or "version" in f:
            if f.get("version") != 1:
                raise ModelError(f"unsupported model version {f.get('version')!r} (this exactplay reads version 1)")
        if self.names is None and (final or "players" in f):
            self.names = player_names(f.get("players"))
        if self.objective is None and (final or "objective" in f):
            objective = f.get("objective", "auto")
            if objective not in OBJECTIVES:
                raise ModelError(f"field 'objective': {objective!r} is not one of {', '.join(OBJECTIVES)}")
            self.objective = objective
        if self.names is not None and self.objective is not None:
            check_objective(self.objective, len(self.names))
        if final or "never_ending" in f:
            never_ending = f.get("never_ending", "zero")
            if never_ending not in NEVER_ENDING:
                raise ModelError(f"field 'never_ending': {str(never_ending)[:40]!r} is not one of "
                                 f"{', '.join(NEVER_ENDING)}")
            if final and never_ending == "infinite" and (len(self.names) != 1
                                                         or self.objective not in ("auto", "max", "min")):
                raise ModelError("field 'never_ending': 'infinite' (a strategy that does not end play with probability "
                                 "1 is worth +infinity) is for one player who maximises or minimises")

    # ------------------------------------------------------------ one state

    def limit(self, i: int) -> None:
        """Refuse state ``i`` (0-based) before it is read if it is one more than ``max_states``."""
        if i >= self.max_states:
            raise ModelError(f"more than {self.max_states:,} states, the limit (raise it with --max-states)")

    @staticmethod
    def shape(i: int, st: Any) -> Any:
        """The id of state ``i``, after the checks of its shape alone (an object with an id, known
        fields, a payoff or a mover): what the count of the states checks too."""
        if not isinstance(st, dict) or "id" not in st:
            raise ModelError(f"states[{i}]: a state is an object with an 'id'")
        sid = st["id"]
        if isinstance(sid, bool) or not isinstance(sid, (str, int)):
            raise ModelError(f"states[{i}]: id {sid!r} must be a string or an integer")
        unknown = set(st) - STATE_FIELDS
        if unknown:
            raise ModelError(f"state {sid!r}: unknown field(s) {', '.join(sorted(map(str, unknown)))}")
        if "payoff" not in st and "mover" not in st:
            raise ModelError(f"state {sid!r}: give 'payoff' (terminal) or 'mover' (a player index, or null for "
                             "chance)")
        return sid

    def add(self, i: int, st: Any) -> None:
        """State ``i`` of the file (in file order), read and checked; its successors stay ids."""
        self.limit(i)
        sid = self.shape(i, st)
        if sid in self.ids:
            raise ModelError(f"states[{i}]: duplicate id {sid!r}")
        self.ids[sid] = i
        if i == 0:
            self.first_id = sid
        n = None if self.names is None else len(self.names)
        where = f"state {sid!r}"
        lab = st.get("labels", [])
        if not isinstance(lab, list) or not all(isinstance(x, str) for x in lab):
            raise ModelError(f"{where}: 'labels' must be a list of strings")
        self.labels.append(list(lab))
        self.state_names.append(str(st.get("name", sid)))
        if "payoff" in st:
            if "mover" in st or "actions" in st or "next" in st:
                raise ModelError(f"{where}: a terminal state (with 'payoff') has no mover, actions or next")
            self.terminal.append(exact_vector(st["payoff"], n, "payoff", where))
            self.mover.append(None)
            self.actions.append([])
            self.trans.append([])
            self.rewards.append([])
            return
        m = st["mover"]
        if m is not None and (isinstance(m, bool) or not isinstance(m, int) or m < 0 or n is not None and m >= n):
            players = "" if n is None else f" 0..{n - 1}"  # players not read yet: Model.validate checks the range
            raise ModelError(f"{where}: mover {m!r} is not a player index{players} or null")
        if "next" in st:
            if m is not None or "actions" in st:
                raise ModelError(f"{where}: 'next' directly on a state is for chance states (mover null) only")
            acts = [{"next": st["next"]}]
        else:
            acts = st.get("actions")
        if not isinstance(acts, list) or not acts:
            raise ModelError(f"{where}: 'actions' must be a non-empty list")
        if m is None and len(acts) != 1:
            raise ModelError(f"{where}: a chance state (mover null) has exactly one action")
        a_names, dists, rews = [], [], []
        for k, act in enumerate(acts):
            if not isinstance(act, dict) or "next" not in act:
                raise ModelError(f"{where}, action {k}: an action is an object with 'next'")
            extra = set(act) - ACTION_FIELDS
            if extra:
                raise ModelError(f"{where}, action {k}: unknown field(s) {', '.join(sorted(extra))}")
            name = act.get("name", None if m is None else k)
            a_names.append(name)
            dists.append(self._distribution(act["next"], f"{where}, action {name!r}"))
            r = None
            if "reward" in act:
                r = exact_vector(act["reward"], n, "reward", f"{where}, action {name!r}")
                if not any(r):
                    r = None
            rews.append(r)
        if len(set(map(repr, a_names))) != len(a_names):
            raise ModelError(f"{where}: action names are not distinct")
        self.terminal.append(None)
        self.mover.append(m)
        self.actions.append(a_names)
        self.trans.append(dists)
        self.rewards.append(rews)

    @staticmethod
    def _distribution(nxt: Any, where: str) -> dict:
        """``{successor id: probability}`` of one action: exact, non-negative, summing to exactly 1,
        zero outcomes dropped and a successor named twice merged."""
        if not isinstance(nxt, list) or not nxt:
            raise ModelError(f"{where}: 'next' must be a non-empty list of [probability, id]")
        dist: dict[Any, Fraction] = {}
        total = Fraction(0)
        for item in nxt:
            if not isinstance(item, list) or len(item) != 2:
                raise ModelError(f"{where}: each outcome is [probability, id]")
            try:
                p = to_rational(item[0], "probability")
            except (TypeError, ValueError) as exc:
                raise ModelError(f"{where}: {exc}") from None
            if p < 0:
                raise ModelError(f"{where}: negative probability {p}")
            t = item[1]
            if isinstance(t, bool) or not isinstance(t, (str, int)):
                raise ModelError(f"{where}: unknown successor {str(t)[:40]!r}")
            total += p
            if p:
                dist[t] = dist.get(t, Fraction(0)) + p
        if total != 1:
            raise ModelError(f"{where}: probabilities sum to {total}, not exactly 1")
        return dist

    # ------------------------------------------------------------ the model

    def model(self) -> Model:
        """The :class:`Model`, the initial state renumbered 0 (the others keep their order)."""
        self.header(final=True)
        n = len(self.terminal)
        if not n:
            raise ModelError("field 'states': a non-empty list of states is required")
        starts = self.fields.get("initial_states")
        first = starts[0] if isinstance(starts, list) and starts else self.first_id
        initial = self.fields.get("initial", first)
        if isinstance(initial, bool) or not isinstance(initial, (str, int)) or initial not in self.ids:
            raise ModelError(f"field 'initial': unknown state {initial!r}")
        if starts is not None and (
                not isinstance(starts, list) or len(starts) < 2 or starts[0] != initial
                or any(isinstance(x, bool) or not isinstance(x, (str, int)) or x not in self.ids for x in starts)
                or len(set(starts)) != len(starts)):
            raise ModelError("field 'initial_states': a list of two or more distinct states, the initial state "
                             f"{initial!r} first")
        init = self.ids[initial]
        order = [init] + [i for i in range(n) if i != init]
        new = [0] * n
        for k, old in enumerate(order):
            new[old] = k
        ids = self.ids
        starts = [] if starts is None else [new[ids[x]] for x in starts]
        for old in range(n):
            dists = self.trans[old]
            for a, dist in enumerate(dists):
                try:
                    dists[a] = tuple((new[ids[t]], p) for t, p in dist.items())
                except KeyError:
                    bad = next(t for t in dist if t not in ids)
                    sid = next(s for s, i in ids.items() if i == old)
                    raise ModelError(f"state {sid!r}, action {self.actions[old][a]!r}: unknown successor "
                                     f"{str(bad)[:40]!r}") from None
        self.ids = {}

        def moved(lst: list) -> list:
            return [lst[old] for old in order]

        model = Model(
            name=str(self.fields.get("name", "model")),
            num_players=len(self.names),
            player_names=self.names,
            objective=self.objective,
            states=moved(self.state_names),
            terminal=moved(self.terminal),
            mover=moved(self.mover),
            actions=moved(self.actions),
            trans=moved(self.trans),
            rewards=moved(self.rewards),
            labels=moved(self.labels),
            never_ending=self.fields.get("never_ending", "zero"),
            initial_states=starts,
        )
        model.validate(distributions=False)  # each distribution was checked as it was read
        return model


def read_text(text: str, max_states: int = MAX_STATES) -> Model:
    """The model of an explicit model file's ``text``, walked one top-level field and one state at a
    time (the bounds: the module docstring).  Raises :class:`ModelError`, or the JSON reader's
    errors (``json.JSONDecodeError``, :class:`~exactplay.checker._json.DuplicateName`, ``ValueError``
    for an integer literal of more than :data:`~exactplay.model.protocol.MAX_NUMBER_CHARS` digits).

    Every state is an object, so the text's ``{`` bound the states (the top level is one more); when
    that bound passes ``max_states`` the states are counted first, each parsed and dropped, so that a
    file over the limit is refused in the time it takes to parse ``max_states`` states, with nothing
    built (a legal file that large is parsed twice: about a tenth more time)."""
    with bounded_int_digits(MAX_NUMBER_CHARS):
        if text.count("{") - 1 > max_states:
            _walk(text, StateReader(max_states), build=False)
        reader = StateReader(max_states)
        _walk(text, reader, build=True)
        return reader.model()


def _walk(text: str, reader: StateReader, build: bool) -> None:
    """Read ``text``'s top-level fields into ``reader`` and each state with :meth:`StateReader.add`
    (``build``), or only parse and count the states (refusing the one past the limit)."""
    cur = Cursor(text, scanner(parse_float=_refuse_float, parse_constant=_refuse_float), MAX_NUMBER_CHARS)
    first = cur.peek()
    if first and first != "{":
        raise ModelError("not a model: the top level is not an object")
    for name, at in cur.members():
        if name not in TOP_FIELDS:
            line, col = line_column(text, at)
            raise ModelError(f"line {line}, column {col}: unknown field {name[:60]!r} (a model has "
                             f"{', '.join(TOP_FIELDS)})")
        if name == "states":
            reader.header()
            if cur.peek() != "[":
                raise ModelError("field 'states': a non-empty list of states is required")
            for i in cur.elements():
                reader.limit(i)
                if cur.peek() != "{":
                    raise ModelError(f"states[{i}]: a state is an object with an 'id'")
                st = cur.value()
                if build:
                    reader.add(i, st)
                else:
                    reader.shape(i, st)
        elif name == "initial_states" and cur.peek() == "[":  # ids, read one at a time, at most a state each
            starts = []
            for i in cur.elements():
                reader.limit(i)
                if cur.peek() in ("[", "{"):
                    raise ModelError("field 'initial_states': a list of state ids (strings or integers)")
                starts.append(cur.value())
            reader.fields[name] = starts
        elif name == "players" and cur.peek() == "[":
            names = []
            for i in cur.elements():
                if i >= MAX_PLAYERS:
                    raise ModelError(f"field 'players': more than {MAX_PLAYERS:,} players, the limit")
                if cur.peek() != '"':
                    raise ModelError("field 'players': give a number of players or a list of names")
                names.append(cur.value())
            reader.fields[name] = names
        else:
            if cur.peek() in ("[", "{"):
                raise ModelError(f"field {name!r}: one value (a string or a number), not a list or an object")
            reader.fields[name] = cur.value()
    cur.end()
