"""Reading the explicit model of a certificate v2 of kind ``"model"``, strictly.

The model format is :mod:`exactplay.model.explicit`'s, as the writer canonically
writes it: players, objective, state ids equal to their positions, ``initial`` (and
``initial_states``, two or more distinct states, ``initial`` first, when there are several);
terminal states carry one payoff per player, other states a mover (a player, or
``null`` for chance: then exactly one action) and actions whose outcomes are
distinct existing states with canonical ``"p/q"`` probabilities (lowest terms,
positive) summing to exactly 1, rewards of one entry per player; ``never_ending``
(``"infinite"``, one player: a strategy that does not end play with probability 1 is worth
+infinity) only when not the default ``"zero"``.
``model_sha256`` is the SHA-256 of ``json.dumps(model, sort_keys=True,
separators=(",", ":"))`` (the canonical serialization, see
:mod:`exactplay.checker.rules.canonical`).

:class:`ModelReader` fills the checker's model attributes (``name``,
``player_names``, ``P``, ``declared_objective``, ``n``, ``initial``, ``initial_states``,
``state_names``, ``payoff``, ``mover``, ``trans``, ``rewards``) that
:mod:`exactplay.checker.rules` fills from its own rebuild for a built-in game.
"""

from __future__ import annotations

import hashlib
import json
from fractions import Fraction

from ..errors import VerificationError
from ._strict import ACTION_KEYS, MAX_PLAYERS, OBJECTIVES, STATE_KEYS, fail, integer, keys, listed, pq, rational, show

_STATE_SET = frozenset(STATE_KEYS)
_ACTION_SET = frozenset(ACTION_KEYS)
MAX_CACHED = 1 << 16  # distinct number texts remembered (a model's probabilities repeat)
MAX_CACHED_CHARS = 64
_ABSENT = object()


class ModelReader:
    def check_digest(self) -> None:
        self.at("model_sha256")
        stored = self.cert["model_sha256"]
        if not isinstance(stored, str):
            fail(f"expected a hex string, found {type(stored).__name__}", "model_sha256")
        model = self.cert["model"]
        states = model.get("states") if isinstance(model, dict) else None
        if isinstance(states, list) and len(states) > self.max_states:
            fail(f"{len(states):,} states is more than this checker's limit of {self.max_states:,}", "model.states")
        raw = json.dumps(model, sort_keys=True, separators=(",", ":"), allow_nan=False).encode("utf-8")
        digest = hashlib.sha256(raw).hexdigest()
        if digest != stored:
            fail(f"the model's SHA-256 is {digest}, not the stored {stored[:64]!r}", "model_sha256")

    def read_model(self) -> None:
        self.at("model")
        model = keys(self.cert["model"], ("format", "version", "players", "states"),
                      ("name", "objective", "initial", "never_ending", "initial_states"), "model")
        self.at("model.format")
        if model["format"] != "exactplay-model":
            fail(f"format {show(model['format'])} is not 'exactplay-model'", "model.format")
        self.at("model.version")
        if integer(model["version"], "model.version") != 1:
            fail(f"model version {show(model['version'])} is not 1", "model.version")
        self.at("model.name")
        name = model.get("name", "model")
        if not isinstance(name, str):
            fail("the model's name is not a string", "model.name")
        self.name = name
        self.at("model.players")
        players = model["players"]
        if isinstance(players, int) and not isinstance(players, bool):
            if not 1 <= players <= MAX_PLAYERS:
                fail(f"{show(players)} players: give 1 to {MAX_PLAYERS}", "model.players")
            self.player_names = [f"player {i}" for i in range(players)]
        elif isinstance(players, list) and players and all(isinstance(p, str) for p in players):
            if len(players) > MAX_PLAYERS:
                fail(f"{len(players)} players: give 1 to {MAX_PLAYERS}", "model.players")
            self.player_names = list(players)
        else:
            fail("give a number of players or a non-empty list of names", "model.players")
        P = self.P = len(self.player_names)
        self.at("model.objective")
        objective = model.get("objective", "auto")
        if not isinstance(objective, str) or objective not in OBJECTIVES:
            fail(f"objective {show(objective)} is not one of {', '.join(OBJECTIVES)}", "model.objective")
        self.declared_objective = objective
        self.at("model.never_ending")
        never_ending = model.get("never_ending", "zero")
        if never_ending == "zero" and "never_ending" in model:
            fail("never_ending 'zero' is the default: the canonical model leaves it out", "model.never_ending")
        if never_ending not in ("zero", "infinite"):
            fail(f"never_ending {show(never_ending)} is not 'zero' or 'infinite'", "model.never_ending")
        if never_ending == "infinite" and (P != 1 or objective not in ("auto", "max", "min")):
            fail("never_ending 'infinite' is for one player who maximises or minimises", "model.never_ending")
        self.never_ending = never_ending
        self.at("model.states")
        states = listed(model["states"], "model.states")
        n = self.n = len(states)
        if not n:
            fail("no state", "model.states")
        if n > self.max_states:
            fail(f"{n:,} states is more than this checker's limit of {self.max_states:,}", "model.states")
        self.at("model.initial")
        initial = integer(model.get("initial", 0), "model.initial")
        if not 0 <= initial < n:
            fail(f"initial state {show(initial)} does not exist", "model.initial")
        self.initial = initial
        self.initial_states = [initial]
        if "initial_states" in model:  # several initial states (a DRN file's): the initial state first
            self.at("model.initial_states")
            starts = [integer(x, "model.initial_states") for x in listed(model["initial_states"], "model.initial_states")]
            if len(starts) < 2 or starts[0] != initial:
                fail(f"initial states {show(starts[:5])}: two or more, the initial state {initial} first",
                     "model.initial_states")
            if len(set(starts)) != len(starts) or not all(0 <= x < n for x in starts):
                fail("initial states are distinct existing states", "model.initial_states")
            self.initial_states = starts

        self.state_names: list[str] = []
        self.payoff: list[tuple | None] = []
        self.mover: list[int | None] = []
        self.trans: list[list[list[tuple[int, Fraction]]]] = []
        self.rewards: list[list[tuple | None]] = []
        self.numbers: dict = {}  # "p/q" text -> its checked value (short texts, at most MAX_CACHED)
        fast = self._state_fast
        for s, st in enumerate(states):
            if not fast(s, st):
                self._state(s, st)

    def _state_fast(self, s: int, st) -> bool:
        """State ``s`` read when it has the canonical shape and every check passes; ``False`` (nothing
        recorded) on anything else, which :meth:`_state` then reads and reports, naming what is wrong.
        The same checks, made cheaply: the numbers' texts are read once (:meth:`number`)."""
        if type(st) is not dict or type(st.get("id")) is not int or st["id"] != s or not st.keys() <= _STATE_SET:
            return False
        name = st.get("name", _ABSENT)
        if name is _ABSENT:
            name = str(s)
        elif type(name) is not str:
            return False
        lab = st.get("labels", _ABSENT)
        if lab is not _ABSENT and (type(lab) is not list or not all(type(x) is str for x in lab)):
            return False
        number = self.number
        if "payoff" in st:
            pay = st["payoff"]
            if "mover" in st or "actions" in st or "next" in st or type(pay) is not list or len(pay) != self.P:
                return False
            vec = tuple(number(x) for x in pay)
            if None in vec:
                return False
            self.state_names.append(name)
            self.payoff.append(vec)
            self.mover.append(None)
            self.trans.append([])
            self.rewards.append([])
            return True
        if "mover" not in st or "next" in st:
            return False
        m = st["mover"]
        if m is not None and (type(m) is not int or not 0 <= m < self.P):
            return False
        acts = st.get("actions")
        if type(acts) is not list or not acts or (m is None and len(acts) != 1):
            return False
        n, P = self.n, self.P
        dists, rews = [], []
        names = set() if len(acts) > 1 else None
        for k, act in enumerate(acts):
            if type(act) is not dict or not act.keys() <= _ACTION_SET:
                return False
            if names is not None:
                key = act.get("name", None if m is None else k)
                t = type(key)
                key = (t is str, key) if t is str or t is int else json.dumps(key, sort_keys=True, allow_nan=False)
                if key in names:
                    return False
                names.add(key)
            nxt = act.get("next")
            if type(nxt) is not list or not nxt:
                return False
            dist = []
            for item in nxt:
                if type(item) is not list or len(item) != 2:
                    return False
                p, t = number(item[0]), item[1]
                if p is None or not p > 0 or type(t) is not int or not 0 <= t < n:
                    return False
                dist.append((t, p))
            if len(dist) == 1:
                if dist[0][1] != 1:
                    return False
            else:
                if len({t for t, _ in dist}) != len(dist) or sum(p for _, p in dist) != 1:
                    return False
            dists.append(dist)
            if "reward" in act:
                r = act["reward"]
                if type(r) is not list or len(r) != P:
                    return False
                r = tuple(number(x) for x in r)
                if None in r:
                    return False
                if not any(r):
                    r = None
            else:
                r = None
            rews.append(r)
        self.state_names.append(name)
        self.payoff.append(None)
        self.mover.append(m)
        self.trans.append(dists)
        self.rewards.append(rews)
        return True

    def number(self, x):
        """The value of a checked canonical ``"p/q"`` text, or ``None`` if it is not one (then the
        strict reader says why); each short text is checked once."""
        v = self.numbers.get(x) if type(x) is str else None
        if v is None:
            if type(x) is not str:
                return None
            try:
                v = rational(x, "model.states")
            except VerificationError:
                return None
            if len(x) <= MAX_CACHED_CHARS and len(self.numbers) < MAX_CACHED:
                self.numbers[x] = v
        return v

    def _state(self, s: int, st) -> None:
        """State ``s`` read strictly (the first defect fails, naming the field and the state)."""
        f = "model.states"
        P, n = self.P, self.n
        self.at(f, s)
        keys(st, ("id",), STATE_KEYS[1:], f, s)
        if integer(st["id"], f + ".id", s) != s:
            fail(f"state id {show(st['id'])} is not its position {s}", f + ".id", s)
        sname = st.get("name", str(s))
        if not isinstance(sname, str):
            fail("a state's name is a string", f + ".name", s)
        self.state_names.append(sname)
        if "labels" in st:
            lab = st["labels"]
            if not isinstance(lab, list) or not all(isinstance(x, str) for x in lab):
                fail("labels are a list of strings", f + ".labels", s)
        if "payoff" in st:
            if "mover" in st or "actions" in st or "next" in st:
                fail("a terminal state (with a payoff) has no mover, actions or next", f, s)
            pay = listed(st["payoff"], f + ".payoff", s, P)
            self.payoff.append(tuple(rational(x, f + ".payoff", s) for x in pay))
            self.mover.append(None)
            self.trans.append([])
            self.rewards.append([])
            return
        self.payoff.append(None)
        if "mover" not in st:
            fail("a state has a payoff (terminal) or a mover (a player, or null for chance)", f, s)
        m = st["mover"]
        if m is not None:
            m = integer(m, f + ".mover", s)
            if not 0 <= m < P:
                fail(f"mover {show(m)} is not a player 0..{P - 1}", f + ".mover", s)
        self.mover.append(m)
        if "next" in st:
            if m is not None or "actions" in st:
                fail("'next' on a state is for chance states (mover null) only", f + ".next", s)
            acts = [{"next": st["next"]}]
        else:
            if "actions" not in st:
                fail("a non-terminal state has actions", f + ".actions", s)
            acts = listed(st["actions"], f + ".actions", s)
            if not acts:
                fail("a non-terminal state has at least one action", f + ".actions", s)
        if m is None and len(acts) != 1:
            fail(f"a chance state has exactly one action, not {len(acts)}", f + ".actions", s)
        dists, rews, names = [], [], set()
        for k, act in enumerate(acts):
            fa = f + ".actions"
            keys(act, ("next",), ("name", "reward"), fa, s)
            key = json.dumps(act.get("name", None if m is None else k), sort_keys=True, allow_nan=False)
            if key in names:
                fail(f"action {k}: the action names are not distinct", fa + ".name", s)
            names.add(key)
            nxt = listed(act["next"], fa + ".next", s)
            if not nxt:
                fail(f"action {k} has no outcome", fa + ".next", s)
            dist, seen, total = [], set(), Fraction(0)
            for item in nxt:
                listed(item, fa + ".next", s, 2)
                p = rational(item[0], fa + ".next", s)
                if p <= 0:
                    fail(f"action {k}: probability {pq(p)} is not positive", fa + ".next", s)
                t = integer(item[1], fa + ".next", s)
                if not 0 <= t < n:
                    fail(f"action {k}: successor {show(t)} does not exist", fa + ".next", s)
                if t in seen:
                    fail(f"action {k}: successor {t} is listed twice", fa + ".next", s)
                seen.add(t)
                total += p
                dist.append((t, p))
            if total != 1:
                fail(f"action {k}: probabilities sum to {pq(total)}, not exactly 1", fa + ".next", s)
            dists.append(dist)
            r = None
            if "reward" in act:
                vec = listed(act["reward"], fa + ".reward", s, P)
                r = tuple(rational(x, fa + ".reward", s) for x in vec)
                if not any(r):
                    r = None
            rews.append(r)
        self.trans.append(dists)
        self.rewards.append(rews)
