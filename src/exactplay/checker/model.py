"""Independent check of a certificate v2 of kind ``"model"`` (any finite game of chance).

Standard library only (:class:`fractions.Fraction`, ``json``, ``hashlib``); it
imports nothing from the engine, the model package, the certificate writer or
the games, so a bug there cannot hide itself by being shared with the check.
``verify(cert)`` returns a one-line summary or raises
:class:`~exactplay.errors.VerificationError` naming the field (and the state,
by index, where there is one) of the first failure.  No input, however
malformed, ends in a traceback; nothing recurses; numbers longer than
:data:`MAX_NUMBER_CHARS` characters and models over :data:`MAX_STATES` states
are refused.

What is verified (everything but :data:`UNVERIFIED`):

1. *The envelope*: ``format``, ``version`` 2, ``kind`` ``"model"``; no unknown
   key anywhere (top level, model, states, actions, solution, answer).
2. *The model* (the explicit model format, as the writer canonically writes
   it): players, objective, state ids equal to their positions, ``initial``;
   terminal states carry one payoff per player, other states a mover (a
   player of the objective, or ``null`` for chance: then exactly one action)
   and actions whose outcomes are distinct existing states with canonical
   ``"p/q"`` probabilities (lowest terms, positive) summing to exactly 1,
   rewards of one entry per player.  ``model_sha256`` is the SHA-256 of
   ``json.dumps(model, sort_keys=True, separators=(",", ":"))``.
3. *The objective*, resolved here: ``auto`` is ``zero-sum`` for two players
   whose terminal payoffs all sum to one constant and whose rewards all sum
   to 0, in a game where every play ends (a play that never ends is worth 0
   to both, so the sum is not constant there: such a game must declare
   ``zero-sum``), else ``max``.  Keys: ``max`` -- player i maximises component i;
   ``zero-sum`` -- player 0 maximises component 0, player 1 minimises it;
   ``min`` -- player 0 minimises component 0.
4. *The witness* is the one the model calls for (recomputed: iterative Tarjan
   SCCs and the attractor of the terminal states): ``termination`` when every
   play ends under all strategies (components: all players); otherwise
   ``policy`` when no choice state (a player with two actions or more) lies on
   a cycle (all players); otherwise ``reachability`` (the one key component c
   all choosers share; every payoff and reward of c must be >= 0).  Choosers
   with different key components and a choice on a cycle have no single
   value: refused.
5. *Bellman, exactly, at every state*: terminal values are the payoffs;
   otherwise, with ``Q_a = reward_a + sum p V(t)`` (over the components),
   ``V = Q_policy`` and at choice states the policy attains the optimum of
   ``sign * Q_a[key]``.  In the reachability witness ``V[c] >= 0``.
6. *Ranks*: each rank is checked locally against its successors' ranks
   (``None`` counting as infinity), and local consistency pins them down to
   the least ranks the rule allows, so they are checked exactly:

   * termination: terminals 0; elsewhere ``1 + max_a min_t rank(t)``, finite
     everywhere (every action of every state has a successor of lower rank);
   * reachability: terminals with a positive payoff 0; states of value 0
     unranked; states of positive value ranked, ``1 + min`` over the optimal
     actions at a maximiser's choice, ``1 + max_a min_t`` elsewhere.  This is
     what rules out the fake fixed points of end components (Chatterjee,
     Quatmann et al., TACAS 2025);
   * policy: terminals 0; elsewhere ``1 + min_t rank(t)`` over the policy
     action's successors; an unranked state has value 0 and no reward on its
     policy action.

7. *The policy* is canonical: the earliest optimal action, except at a
   maximiser's choice of positive value in the reachability witness, where it
   is the earliest optimal action with a successor of lower rank; terminals
   ``null``, single-action states 0.
8. *Margins and ties*: at every choice state the best minus the runner-up in
   the mover's objective (``0/1`` on a tie), ``null`` elsewhere; the ties are
   exactly the choice states with two optimal actions or more, all listed.
   The compared action values are the one-step ``Q_a = reward_a + sum p V(t)``
   everywhere, self-loops included (an action that loops forever then ties
   with the optimum; the policy rule above says which one is taken).
9. *The answer*: the initial state, ``components[0]``, its exact value, the
   decimal correctly rounded half-to-even to ``digits`` places, the name
   recomputed from the model; ``smallest_margin`` is the smallest non-zero
   margin at its lowest state, or ``null``.

Why this suffices.  Termination: every play ends under all strategies, so the
Bellman equations have exactly one solution, the value (a stopping game), and
the policy's equations V = Q_policy determine the other components.  Policy:
no choice is on a cycle, so by induction over the SCCs the optimal choices are
those of the checked values; with the policy fixed, the states that cannot
reach a terminal are unranked (a rank proves a path to a terminal), hence
worth 0 with no reward, and on the others the chain leaves with positive
probability, so V = Q_policy has one solution.  Reachability: V >= 0 and
Bellman make V an upper bound (the minimiser's optimal actions make V plus the
collected reward a supermartingale); the ranks make the policy reach a
positive terminal from every state of positive value whatever the minimiser
does, so V is also attained: V is the value.
"""

from __future__ import annotations

import hashlib
import json
from fractions import Fraction
from typing import Any

from ..errors import VerificationError

__all__ = ["verify", "UNVERIFIED", "MAX_STATES", "MAX_NUMBER_CHARS"]

UNVERIFIED = ("tool_version", "notes")  # informational: returned, never checked
MAX_STATES = 3_000_000
MAX_NUMBER_CHARS = 1_000_000  # characters of one "p/q"
MAX_DIGITS = 100_000  # answer.digits

TOP_REQUIRED = ("format", "version", "kind", "model", "model_sha256", "solution", "answer", "smallest_margin")
MODEL_KEYS = ("format", "version", "name", "players", "objective", "initial", "states")
STATE_KEYS = ("id", "name", "labels", "payoff", "mover", "actions", "next")
ACTION_KEYS = ("name", "next", "reward")
SOLUTION_KEYS = ("objective", "witness", "components", "values", "policy", "ranks", "margins", "ties")
ANSWER_KEYS = ("name", "state", "component", "value", "decimal", "digits")
OBJECTIVES = ("auto", "max", "zero-sum", "min")
INF = float("inf")

_DIGITS = frozenset("0123456789")


class _Where:
    """The field being read, so that an unforeseen error still names it."""

    field = "certificate"
    state: Any = None


def _fail(message: str, field: str, state: Any = None):
    raise VerificationError(message, field=field, state=state)


def verify(cert: Any) -> str:
    """Verify a parsed certificate v2 of kind ``"model"``; return a one-line summary."""
    where = _Where()
    try:
        return _Checker(cert, where).run()
    except VerificationError:
        raise
    except RecursionError:
        raise VerificationError("malformed certificate (nested too deeply)", field=where.field,
                                state=where.state) from None
    except MemoryError:
        raise VerificationError("certificate too large for this machine", field=where.field) from None
    except Exception as exc:  # noqa: BLE001 - the promise: no traceback on malformed input
        raise VerificationError(f"malformed certificate ({type(exc).__name__}: {str(exc)[:80]})",
                                field=where.field, state=where.state) from None


# ---------------------------------------------------------------- strict readers


def _rational(x: Any, field: str, state: Any = None) -> Fraction:
    """Canonical ``"p/q"``: q >= 1, lowest terms, no sign on 0, no leading zeros."""
    if not isinstance(x, str):
        _fail(f"expected a 'p/q' string, found {type(x).__name__}", field, state)
    if len(x) > MAX_NUMBER_CHARS:
        _fail(f"number of {len(x):,} characters is longer than the {MAX_NUMBER_CHARS:,} allowed", field, state)
    num, slash, den = x.partition("/")
    body = num[1:] if num.startswith("-") else num
    if (not slash or not body or not den or not set(body) <= _DIGITS or not set(den) <= _DIGITS
            or (len(body) > 1 and body[0] == "0") or den[0] == "0"):
        _fail(f"{x[:40]!r} is not a canonical 'p/q' rational", field, state)
    p, q = int(num), int(den)
    if body == "0" and (num != "0" or q != 1):
        _fail(f"{x[:40]!r}: zero is written '0/1'", field, state)
    value = Fraction(p, q)
    if value.denominator != q:
        _fail(f"rational {x[:40]!r} is not in lowest terms", field, state)
    return value


def _int(x: Any, field: str, state: Any = None) -> int:
    if not isinstance(x, int) or isinstance(x, bool):
        _fail(f"expected an integer, found {_show(x)}", field, state)
    return x


def _keys(obj: Any, required: tuple, optional: tuple, field: str, state: Any = None) -> dict:
    if not isinstance(obj, dict):
        _fail(f"expected an object, found {type(obj).__name__}", field, state)
    unknown = [k for k in obj if k not in required and k not in optional]
    if unknown:
        _fail(f"unknown key(s) {', '.join(sorted(map(str, unknown)))[:80]}", field, state)
    missing = [k for k in required if k not in obj]
    if missing:
        _fail(f"missing key(s) {', '.join(missing)}", field, state)
    return obj


def _list(x: Any, field: str, state: Any = None, length: int | None = None) -> list:
    if not isinstance(x, list):
        _fail(f"expected a list, found {type(x).__name__}", field, state)
    if length is not None and len(x) != length:
        _fail(f"expected {length} entries, found {len(x)}", field, state)
    return x


def _show(x: Any) -> str:
    if isinstance(x, int) and x.bit_length() > 200:
        return f"an integer of {x.bit_length():,} bits"
    if isinstance(x, (list, dict)):
        text = json.dumps(x, allow_nan=False)[:60] if len(x) < 20 else f"a {type(x).__name__} of {len(x):,} entries"
        return text if len(text) <= 40 else text[:37] + "..."
    text = repr(x)
    return text if len(text) <= 40 else text[:37] + "..."


def _pq(x: Fraction) -> str:
    """``x`` for a message: exact when short, else about 12 significant digits and its size."""
    if x.numerator.bit_length() + x.denominator.bit_length() <= 200:
        return f"{x.numerator}/{x.denominator}"
    try:
        approx = f"{float(x):.12g}"
    except OverflowError:
        approx = "a huge number"
    return f"{approx} (a p/q of {x.numerator.bit_length() + x.denominator.bit_length():,} bits)"


def _decimal(x: Fraction, digits: int) -> str:
    """``x`` correctly rounded to ``digits`` decimals, half to even, as text."""
    n = round(x * 10**digits)  # Fraction.__round__: exact, half to even
    sign = "-" if n < 0 else ""
    s = str(abs(n)).rjust(digits + 1, "0")
    return f"{sign}{s[:-digits]}.{s[-digits:]}" if digits > 0 else f"{sign}{s}"


def _sccs(succ: list[list[int]]) -> list[int]:
    """Iterative Tarjan: the component number of every node."""
    n = len(succ)
    index = [-1] * n
    low = [0] * n
    comp = [-1] * n
    on_stack = [False] * n
    stack: list[int] = []
    counter = 0
    ncomp = 0
    for root in range(n):
        if index[root] >= 0:
            continue
        index[root] = low[root] = counter
        counter += 1
        stack.append(root)
        on_stack[root] = True
        work = [(root, 0)]
        while work:
            v, i = work[-1]
            nxt = succ[v]
            if i < len(nxt):
                work[-1] = (v, i + 1)
                w = nxt[i]
                if index[w] < 0:
                    index[w] = low[w] = counter
                    counter += 1
                    stack.append(w)
                    on_stack[w] = True
                    work.append((w, 0))
                elif on_stack[w] and index[w] < low[v]:
                    low[v] = index[w]
                continue
            work.pop()
            if work:
                u = work[-1][0]
                if low[v] < low[u]:
                    low[u] = low[v]
            if low[v] == index[v]:
                while True:
                    w = stack.pop()
                    on_stack[w] = False
                    comp[w] = ncomp
                    if w == v:
                        break
                ncomp += 1
    return comp


# ---------------------------------------------------------------- the checker


class _Checker:
    def __init__(self, cert: Any, where: _Where):
        self.cert = cert
        self.where = where

    def at(self, field: str, state: Any = None) -> None:
        self.where.field = field
        self.where.state = state

    def run(self) -> str:
        cert = self.cert
        self.at("certificate")
        _keys(cert, TOP_REQUIRED, UNVERIFIED, "certificate")
        self.at("format")
        if cert["format"] != "exactplay-certificate":
            _fail(f"format {_show(cert['format'])} is not 'exactplay-certificate'", "format")
        self.at("version")
        if _int(cert["version"], "version") != 2:
            _fail(f"version {_show(cert['version'])} is not 2", "version")
        self.at("kind")
        if cert["kind"] != "model":
            _fail(f"kind {_show(cert['kind'])} is not 'model'", "kind")
        self.check_digest()
        self.read_model()
        self.graph()
        self.resolve_objective()
        self.check_witness()
        self.read_solution()
        self.check_bellman()
        self.check_ranks()
        self.check_policy()
        self.check_margins_and_ties()
        self.check_answer()
        self.check_smallest_margin()
        ans = self.answer_text
        return (f"model {self.name!r}: {self.n:,} states, objective {self.objective}, {self.witness} witness: "
                f"Bellman, ranks, policy, margins and {len(self.ties):,} tie(s) verified; "
                f"{ans}")

    # ------------------------------------------------------------ model

    def check_digest(self) -> None:
        self.at("model_sha256")
        stored = self.cert["model_sha256"]
        if not isinstance(stored, str):
            _fail(f"expected a hex string, found {type(stored).__name__}", "model_sha256")
        model = self.cert["model"]
        states = model.get("states") if isinstance(model, dict) else None
        if isinstance(states, list) and len(states) > MAX_STATES:
            _fail(f"{len(states):,} states is more than this checker's limit of {MAX_STATES:,}", "model.states")
        raw = json.dumps(model, sort_keys=True, separators=(",", ":"), allow_nan=False).encode("utf-8")
        digest = hashlib.sha256(raw).hexdigest()
        if digest != stored:
            _fail(f"the model's SHA-256 is {digest}, not the stored {stored[:64]!r}", "model_sha256")

    def read_model(self) -> None:
        self.at("model")
        model = _keys(self.cert["model"], ("format", "version", "players", "states"),
                      ("name", "objective", "initial"), "model")
        self.at("model.format")
        if model["format"] != "exactplay-model":
            _fail(f"format {_show(model['format'])} is not 'exactplay-model'", "model.format")
        self.at("model.version")
        if _int(model["version"], "model.version") != 1:
            _fail(f"model version {_show(model['version'])} is not 1", "model.version")
        self.at("model.name")
        name = model.get("name", "model")
        if not isinstance(name, str):
            _fail("the model's name is not a string", "model.name")
        self.name = name
        self.at("model.players")
        players = model["players"]
        if isinstance(players, int) and not isinstance(players, bool):
            if not 1 <= players <= 1000:
                _fail(f"{_show(players)} players: give 1 to 1000", "model.players")
            self.player_names = [f"player {i}" for i in range(players)]
        elif isinstance(players, list) and players and all(isinstance(p, str) for p in players):
            if len(players) > 1000:
                _fail(f"{len(players)} players: give 1 to 1000", "model.players")
            self.player_names = list(players)
        else:
            _fail("give a number of players or a non-empty list of names", "model.players")
        P = self.P = len(self.player_names)
        self.at("model.objective")
        objective = model.get("objective", "auto")
        if not isinstance(objective, str) or objective not in OBJECTIVES:
            _fail(f"objective {_show(objective)} is not one of {', '.join(OBJECTIVES)}", "model.objective")
        self.declared_objective = objective
        self.at("model.states")
        states = _list(model["states"], "model.states")
        n = self.n = len(states)
        if not n:
            _fail("no state", "model.states")
        if n > MAX_STATES:
            _fail(f"{n:,} states is more than this checker's limit of {MAX_STATES:,}", "model.states")
        self.at("model.initial")
        initial = _int(model.get("initial", 0), "model.initial")
        if not 0 <= initial < n:
            _fail(f"initial state {_show(initial)} does not exist", "model.initial")
        self.initial = initial

        self.state_names: list[str] = []
        self.payoff: list[tuple | None] = []
        self.mover: list[int | None] = []
        self.trans: list[list[list[tuple[int, Fraction]]]] = []
        self.rewards: list[list[tuple | None]] = []
        for s, st in enumerate(states):
            f = "model.states"
            self.at(f, s)
            _keys(st, ("id",), STATE_KEYS[1:], f, s)
            if _int(st["id"], f + ".id", s) != s:
                _fail(f"state id {_show(st['id'])} is not its position {s}", f + ".id", s)
            sname = st.get("name", str(s))
            if not isinstance(sname, str):
                _fail("a state's name is a string", f + ".name", s)
            self.state_names.append(sname)
            if "labels" in st:
                lab = st["labels"]
                if not isinstance(lab, list) or not all(isinstance(x, str) for x in lab):
                    _fail("labels are a list of strings", f + ".labels", s)
            if "payoff" in st:
                if "mover" in st or "actions" in st or "next" in st:
                    _fail("a terminal state (with a payoff) has no mover, actions or next", f, s)
                pay = _list(st["payoff"], f + ".payoff", s, P)
                self.payoff.append(tuple(_rational(x, f + ".payoff", s) for x in pay))
                self.mover.append(None)
                self.trans.append([])
                self.rewards.append([])
                continue
            self.payoff.append(None)
            if "mover" not in st:
                _fail("a state has a payoff (terminal) or a mover (a player, or null for chance)", f, s)
            m = st["mover"]
            if m is not None:
                m = _int(m, f + ".mover", s)
                if not 0 <= m < P:
                    _fail(f"mover {_show(m)} is not a player 0..{P - 1}", f + ".mover", s)
            self.mover.append(m)
            if "next" in st:
                if m is not None or "actions" in st:
                    _fail("'next' on a state is for chance states (mover null) only", f + ".next", s)
                acts = [{"next": st["next"]}]
            else:
                if "actions" not in st:
                    _fail("a non-terminal state has actions", f + ".actions", s)
                acts = _list(st["actions"], f + ".actions", s)
                if not acts:
                    _fail("a non-terminal state has at least one action", f + ".actions", s)
            if m is None and len(acts) != 1:
                _fail(f"a chance state has exactly one action, not {len(acts)}", f + ".actions", s)
            dists, rews, names = [], [], set()
            for k, act in enumerate(acts):
                fa = f + ".actions"
                _keys(act, ("next",), ("name", "reward"), fa, s)
                key = json.dumps(act.get("name", None if m is None else k), sort_keys=True, allow_nan=False)
                if key in names:
                    _fail(f"action {k}: the action names are not distinct", fa + ".name", s)
                names.add(key)
                nxt = _list(act["next"], fa + ".next", s)
                if not nxt:
                    _fail(f"action {k} has no outcome", fa + ".next", s)
                dist, seen, total = [], set(), Fraction(0)
                for item in nxt:
                    _list(item, fa + ".next", s, 2)
                    p = _rational(item[0], fa + ".next", s)
                    if p <= 0:
                        _fail(f"action {k}: probability {_pq(p)} is not positive", fa + ".next", s)
                    t = _int(item[1], fa + ".next", s)
                    if not 0 <= t < n:
                        _fail(f"action {k}: successor {_show(t)} does not exist", fa + ".next", s)
                    if t in seen:
                        _fail(f"action {k}: successor {t} is listed twice", fa + ".next", s)
                    seen.add(t)
                    total += p
                    dist.append((t, p))
                if total != 1:
                    _fail(f"action {k}: probabilities sum to {_pq(total)}, not exactly 1", fa + ".next", s)
                dists.append(dist)
                r = None
                if "reward" in act:
                    vec = _list(act["reward"], fa + ".reward", s, P)
                    r = tuple(_rational(x, fa + ".reward", s) for x in vec)
                    if not any(r):
                        r = None
                rews.append(r)
            self.trans.append(dists)
            self.rewards.append(rews)

    def resolve_objective(self) -> None:
        self.at("model.objective")
        obj = self.declared_objective
        if obj == "auto":
            sums = {p[0] + p[1] for p in self.payoff if p is not None} if self.P == 2 else set()
            rewards_ok = self.P == 2 and all(r is None or r[0] + r[1] == 0 for rs in self.rewards for r in rs)
            obj = "zero-sum" if self.P == 2 and len(sums) <= 1 and rewards_ok and self.terminates else "max"
        self.objective = obj
        if obj == "zero-sum":
            self.keys = [(0, 1), (0, -1)]
        elif obj == "min":
            self.keys = [(0, -1)]
        else:
            self.keys = [(i, 1) for i in range(self.P)]
        for s, m in enumerate(self.mover):
            if m is not None and m >= len(self.keys):
                _fail(f"mover {m} has no objective under {obj!r} (players 0..{len(self.keys) - 1} choose)",
                      "model.states.mover", s)

    def local_choice(self, s: int) -> bool:
        c = self.comp[s]
        parts = {tuple(sorted((t, p) for t, p in d if self.comp[t] == c)) for d in self.trans[s]}
        return len(parts) == 1

    def is_choice(self, s: int) -> bool:
        return self.mover[s] is not None and len(self.trans[s]) > 1

    # ------------------------------------------------------------ graph and witness

    def graph(self) -> None:
        self.at("model.states")
        n = self.n
        self.succ = [sorted({t for d in self.trans[s] for t, _ in d}) for s in range(n)]
        comp = _sccs(self.succ)
        size: dict[int, int] = {}
        for c in comp:
            size[c] = size.get(c, 0) + 1
        self.on_cycle = [size[comp[s]] > 1 or s in self.succ[s] for s in range(n)]
        self.comp = comp
        # the attractor of the terminal states: every play ends under all strategies iff it is everything
        preds: list[list[tuple[int, int]]] = [[] for _ in range(n)]
        need = [len(self.trans[s]) for s in range(n)]
        done = [[False] * len(self.trans[s]) for s in range(n)]
        for s in range(n):
            for a, d in enumerate(self.trans[s]):
                for t, _ in d:
                    preds[t].append((s, a))
        queue = [s for s in range(n) if self.payoff[s] is not None]
        reached = [self.payoff[s] is not None for s in range(n)]
        while queue:
            t = queue.pop()
            for s, a in preds[t]:
                if reached[s] or done[s][a]:
                    continue
                done[s][a] = True
                need[s] -= 1
                if need[s] == 0:
                    reached[s] = True
                    queue.append(s)
        self.terminates = all(reached)
        # a reward needs every play from its state to end: the state must not reach a set where
        # some choice of actions keeps play forever (an end component)
        forever = self._end_component_states()
        rpreds: list[list[int]] = [[] for _ in range(n)]
        for s in range(n):
            for t in self.succ[s]:
                rpreds[t].append(s)
        can_stay = [s in forever for s in range(n)]
        stack = list(forever)
        while stack:
            t = stack.pop()
            for s in rpreds[t]:
                if not can_stay[s]:
                    can_stay[s] = True
                    stack.append(s)
        self.surely_ends = [not x for x in can_stay]

    def _end_component_states(self) -> set[int]:
        """States of some end component: keep the actions staying in the state's own block (at first
        every live state), drop states without one, split into SCCs of the kept actions (the new
        blocks), drop single states without a staying self-loop; repeat until nothing changes."""
        current = {s for s in range(self.n) if self.payoff[s] is None}
        block = {s: 0 for s in current}
        while current:
            kept = {s: [{t for t, _ in d} for d in self.trans[s] if all(block.get(t, -1) == block[s] for t, _ in d)]
                    for s in current}
            kept = {s: acts for s, acts in kept.items() if acts}
            nodes = sorted(kept)
            index = {s: i for i, s in enumerate(nodes)}
            succ = [sorted({index[t] for a in kept[s] for t in a if t in index}) for s in nodes]
            comp = _sccs(succ)
            size: dict[int, int] = {}
            for c in comp:
                size[c] = size.get(c, 0) + 1
            survivors = {nodes[i] for i in range(len(nodes))
                         if size[comp[i]] > 1 or any(a == {nodes[i]} for a in kept[nodes[i]])}
            new_block = {nodes[i]: comp[i] for i in range(len(nodes)) if nodes[i] in survivors}
            if survivors == current and len(set(new_block.values())) == len(set(block.values())):
                return current
            current, block = survivors, new_block
        return set()

    def check_witness(self) -> None:
        self.at("model")
        choosers = [s for s in range(self.n) if self.is_choice(s)]
        key_comps = sorted({self.keys[self.mover[s]][0] for s in choosers})
        # a choice on a cycle whose actions all move inside the cycle's component with the same
        # probabilities does not feed back into it (it is decided by its exits): it does not count
        cyclic_choice = [s for s in choosers if self.on_cycle[s] and not self.local_choice(s)]
        per_component: dict[int, set[int]] = {}
        for s in cyclic_choice:
            per_component.setdefault(self.comp[s], set()).add(self.keys[self.mover[s]][0])
        mixed = [s for s in cyclic_choice if len(per_component[self.comp[s]]) > 1]
        if mixed:
            _fail("players with different objectives choose on a cycle of play: such a game has no single value",
                  "model", mixed[0])
        if not self.terminates:
            for s in range(self.n):
                if not self.surely_ends[s] and any(r is not None for r in self.rewards[s]):
                    _fail("a reward at a state from which play can go on forever (the total reward of a play "
                          "that never ends is not certified)", "model", s)
        if self.terminates:
            witness, components = "termination", list(range(self.P))
        elif not cyclic_choice:
            witness, components = "policy", list(range(self.P))
        else:
            witness = "reachability"
            if len(key_comps) > 1:
                _fail("choices on a cycle where play can go on forever, by players of different objectives: the "
                      "reachability witness certifies one objective", "model", cyclic_choice[0])
            (c,) = key_comps
            components = [c]
            for s in range(self.n):
                if self.payoff[s] is not None and self.payoff[s][c] < 0:
                    _fail(f"a negative payoff for {self.player_names[c]} where plays can go on forever "
                          "(the reachability witness needs payoffs >= 0)", "model", s)
                for r in self.rewards[s]:
                    if r is not None and r[c] != 0:
                        _fail(f"a reward for {self.player_names[c]} in a game where choices on a cycle can make "
                              "play go on forever (the reachability witness certifies payoffs, not rewards)",
                              "model", s)
        self.witness = witness
        self.components = components

    # ------------------------------------------------------------ solution

    def read_solution(self) -> None:
        self.at("solution")
        sol = _keys(self.cert["solution"], SOLUTION_KEYS, (), "solution")
        n = self.n
        self.at("solution.objective")
        if sol["objective"] != self.objective:
            _fail(f"objective {_show(sol['objective'])} is not the model's ({self.objective!r})",
                  "solution.objective")
        self.at("solution.witness")
        if sol["witness"] != self.witness:
            _fail(f"witness {_show(sol['witness'])} is not the one this model calls for ({self.witness!r}: "
                  + {"termination": "every play ends under all strategies",
                     "policy": "no choice lies on a cycle",
                     "reachability": "choices lie on cycles that can go on forever"}[self.witness] + ")",
                  "solution.witness")
        self.at("solution.components")
        if sol["components"] != self.components or not all(type(c) is int for c in sol["components"]):
            _fail(f"components {_show(sol['components'])} are not {self.components}", "solution.components")
        C = len(self.components)
        self.at("solution.values")
        values = _list(sol["values"], "solution.values", None, n)
        self.V = []
        for s, row in enumerate(values):
            self.at("solution.values", s)
            _list(row, "solution.values", s, C)
            self.V.append(tuple(_rational(x, "solution.values", s) for x in row))
        self.at("solution.policy")
        policy = _list(sol["policy"], "solution.policy", None, n)
        for s, a in enumerate(policy):
            if self.payoff[s] is not None:
                if a is not None:
                    _fail("a terminal state has no policy (null)", "solution.policy", s)
                continue
            a = _int(a, "solution.policy", s)
            if not 0 <= a < len(self.trans[s]):
                _fail(f"action {_show(a)} does not exist ({len(self.trans[s])} actions)", "solution.policy", s)
        self.policy = policy
        self.at("solution.ranks")
        ranks = _list(sol["ranks"], "solution.ranks", None, n)
        for s, r in enumerate(ranks):
            if r is not None and (_int(r, "solution.ranks", s) < 0 or r > n):
                _fail(f"rank {_show(r)} is out of range 0..{n}", "solution.ranks", s)
        self.ranks = ranks
        self.at("solution.margins")
        self.margins_in = _list(sol["margins"], "solution.margins", None, n)
        self.at("solution.ties")
        self.ties_in = _list(sol["ties"], "solution.ties")
        # the projections of payoffs and rewards onto the certified components
        comps = self.components
        self.pay = [None if p is None else tuple(p[c] for c in comps) for p in self.payoff]
        self.rew = [[None if r is None else tuple(r[c] for c in comps) for r in rs] for rs in self.rewards]
        self.kidx = [(comps.index(c) if c in comps else None, sign) for c, sign in self.keys]

    # ------------------------------------------------------------ Bellman

    def q(self, s: int, a: int) -> tuple:
        r = self.rew[s][a]
        out = list(r) if r is not None else [Fraction(0)] * len(self.components)
        V = self.V
        for t, p in self.trans[s][a]:
            for i, x in enumerate(V[t]):
                if x:
                    out[i] += p * x
        return tuple(out)

    def check_bellman(self) -> None:
        self.opt_q: dict[int, list[int]] = {}  # one-step optimal actions at choice states
        self.qs: dict[int, list[tuple]] = {}  # their one-step values Q_a
        for s in range(self.n):
            self.at("solution.values", s)
            v = self.V[s]
            if self.witness == "reachability" and v[0] < 0:
                _fail(f"value {_pq(v[0])} is negative: with payoffs and rewards >= 0 no value is",
                      "solution.values", s)
            if self.pay[s] is not None:
                if v != self.pay[s]:
                    _fail(f"terminal value {self.fmt(v)} is not the payoff {self.fmt(self.pay[s])}",
                          "solution.values", s)
                continue
            a = self.policy[s]
            qs = [self.q(s, b) for b in range(len(self.trans[s]))] if self.is_choice(s) else None
            qa = qs[a] if qs is not None else self.q(s, a)
            if v != qa:
                _fail(f"Bellman: the value {self.fmt(v)} is not the policy action {a}'s "
                      f"reward plus expected value {self.fmt(qa)}", "solution.values", s)
            if self.is_choice(s):
                k, sign = self.kidx[self.mover[s]]
                self.qs[s] = qs
                keyed = [sign * x[k] for x in qs]
                best = max(keyed)
                if keyed[a] != best:
                    b = keyed.index(best)
                    _fail(f"Bellman: the policy action {a} is not optimal for player {self.mover[s]}: action {b} "
                          f"gives {_pq(sign * best)}, action {a} {_pq(sign * keyed[a])}", "solution.policy", s)
                self.opt_q[s] = [b for b, x in enumerate(keyed) if x == best]

    def fmt(self, v: tuple) -> str:
        text = "(" + ", ".join(_pq(x) for x in v) + ")"
        return text if len(text) <= 60 else text[:57] + "..."

    # ------------------------------------------------------------ ranks

    def expected_rank(self, s: int) -> float:
        """The least rank ``s`` can have given its successors' stored ranks (INF: none)."""
        R = self.ranks

        def low(dist) -> float:
            return min((R[t] for t, _ in dist if R[t] is not None), default=INF)

        w = self.witness
        if self.payoff[s] is not None:
            if w == "reachability" and not self.pay[s][0] > 0:
                return INF
            return 0
        acts = self.trans[s]
        if w == "termination":
            return 1 + max(low(d) for d in acts)
        if w == "policy":
            return 1 + low(acts[self.policy[s]])
        if not self.V[s][0] > 0:
            return INF
        if self.is_choice(s) and self.kidx[self.mover[s]][1] > 0:
            return 1 + min(low(acts[a]) for a in self.opt_q[s])
        return 1 + max(low(d) for d in acts)

    def check_ranks(self) -> None:
        w = self.witness
        for s in range(self.n):
            self.at("solution.ranks", s)
            want = self.expected_rank(s)
            have = self.ranks[s]
            terminal = self.payoff[s] is not None
            if have is None:
                if want != INF:
                    _fail(f"no rank, but the least rank the {w} rule allows here is {want}", "solution.ranks", s)
                if w == "termination":
                    _fail("no rank: the termination witness ranks every state (some play may never end)",
                          "solution.ranks", s)
                if w == "reachability" and not terminal and self.V[s][0] > 0:
                    _fail(f"value {_pq(self.V[s][0])} > 0 but no rank: the rank condition fails, the value is "
                          "not attained (a fake fixed point)", "solution.ranks", s)
                if w == "policy" and not terminal:
                    if any(self.V[s]) or self.rew[s][self.policy[s]] is not None:
                        _fail("an unranked state (its play never ends under the policy) must have value 0 and no "
                              "reward", "solution.ranks", s)
                continue
            if w == "reachability" and terminal and want == INF:
                _fail(f"rank {have} at a terminal state of payoff 0 (only positive payoffs are ranked)",
                      "solution.ranks", s)
            if w == "reachability" and not terminal and not self.V[s][0] > 0:
                _fail(f"rank {have} at a state of value 0 (only states of positive value are ranked)",
                      "solution.ranks", s)
            if want > have:
                what = {"termination": "some action has no successor of lower rank",
                        "policy": "the policy action has no successor of lower rank",
                        "reachability": ("no optimal action has a successor of lower rank"
                                         if self.is_choice(s) and self.kidx[self.mover[s]][1] > 0
                                         else "some action has no successor of lower rank")}[w]
                _fail(f"rank {have}: the rank condition fails ({what}); the values are not "
                      f"pinned down here (a fake fixed point)", "solution.ranks", s)
            if want < have:
                _fail(f"rank {have} is not the least rank the {w} rule allows ({want})", "solution.ranks", s)

    # ------------------------------------------------------------ policy, margins, ties

    def compared(self, s: int) -> list[Fraction]:
        """The mover's signed one-step values ``sign * Q_a[k]`` of the actions of choice state ``s``,
        ``Q_a = r_a + sum p V(t)``: what policy, margins and ties are defined by."""
        k, sign = self.kidx[self.mover[s]]
        return [sign * q[k] for q in self.qs[s]]

    def check_policy(self) -> None:
        self.opt: dict[int, list[int]] = {}
        self.best: dict[int, list[Fraction]] = {}
        for s in range(self.n):
            self.at("solution.policy", s)
            if self.payoff[s] is not None:
                continue
            a = self.policy[s]
            if not self.is_choice(s):
                if a != 0:
                    _fail(f"policy {a} at a state with a single action (0)", "solution.policy", s)
                continue
            keyed = self.compared(s)
            self.best[s] = keyed
            best = max(keyed)
            opt = [b for b, x in enumerate(keyed) if x == best]
            self.opt[s] = opt
            want = opt[0]
            rule = "the earliest optimal action"
            r = self.ranks[s]
            if self.witness == "reachability" and self.kidx[self.mover[s]][1] > 0 and r is not None:
                rule = "the earliest optimal action with a successor of lower rank"
                want = next((b for b in opt if any(self.ranks[t] is not None and self.ranks[t] < r
                                                   for t, _ in self.trans[s][b])), None)
                if want is None:
                    _fail("no optimal action has a successor of lower rank", "solution.policy", s)
            if a != want:
                _fail(f"policy {a} is not {rule} ({want})", "solution.policy", s)

    def check_margins_and_ties(self) -> None:
        self.margin: dict[int, Fraction] = {}
        for s in range(self.n):
            self.at("solution.margins", s)
            stored = self.margins_in[s]
            if s not in self.opt:
                if stored is not None:
                    _fail("a margin at a state that is not a choice (null)", "solution.margins", s)
                continue
            keyed, opt = self.best[s], self.opt[s]
            best = keyed[opt[0]]
            want = Fraction(0) if len(opt) > 1 else best - max(x for x in keyed if x != best)
            self.margin[s] = want
            if stored is None:
                _fail(f"no margin at a choice state ({_pq(want)})", "solution.margins", s)
            got = _rational(stored, "solution.margins", s)
            if got != want:
                _fail(f"margin {_pq(got)} is not the best minus the runner-up ({_pq(want)})", "solution.margins", s)
        self.ties = [[s, opt] for s, opt in sorted(self.opt.items()) if len(opt) > 1]
        want = dict((s, opt) for s, opt in self.ties)
        self.at("solution.ties")
        got: dict[int, list] = {}
        last = -1
        for i, item in enumerate(self.ties_in):
            if not (isinstance(item, list) and len(item) == 2 and type(item[0]) is int
                    and isinstance(item[1], list) and all(type(a) is int for a in item[1])):
                _fail(f"entry {i} is not [state, [action, ...]]", "solution.ties")
            s = item[0]
            if s <= last:
                _fail(f"entry {i}: the ties are not listed once each in increasing state order",
                      "solution.ties", s)
            last = s
            got[s] = item[1]
        for s in sorted(set(want) | set(got)):
            if s not in got:
                _fail(f"the tie of actions {want[s]} is not listed", "solution.ties", s)
            if s not in want:
                _fail("a tie is listed where there is none", "solution.ties", s)
            if got[s] != want[s]:
                _fail(f"the tied actions are {want[s]}, not {_show(got[s])}", "solution.ties", s)

    # ------------------------------------------------------------ answer

    def check_answer(self) -> None:
        self.at("answer")
        ans = _keys(self.cert["answer"], ANSWER_KEYS, (), "answer")
        s0 = self.initial
        self.at("answer.state")
        if _int(ans["state"], "answer.state") != s0:
            _fail(f"state {_show(ans['state'])} is not the initial state {s0}", "answer.state")
        self.at("answer.component")
        c = self.components[0]
        if _int(ans["component"], "answer.component") != c:
            _fail(f"component {_show(ans['component'])} is not {c}", "answer.component")
        self.at("answer.value")
        value = _rational(ans["value"], "answer.value", s0)
        if value != self.V[s0][0]:
            _fail(f"value {_pq(value)} is not the verified value {_pq(self.V[s0][0])}", "answer.value", s0)
        self.at("answer.digits")
        digits = _int(ans["digits"], "answer.digits")
        if not 0 <= digits <= MAX_DIGITS:
            _fail(f"digits {_show(digits)} is not in 0..{MAX_DIGITS}", "answer.digits")
        self.at("answer.decimal")
        dec = _decimal(value, digits)
        if ans["decimal"] != dec:
            _fail(f"decimal {_show(ans['decimal'])} is not the value correctly rounded ({dec[:40]})",
                  "answer.decimal", s0)
        self.at("answer.name")
        name = f"value of {self.state_names[s0]} to {self.player_names[c]}"
        if ans["name"] != name:
            _fail(f"name {_show(ans['name'])} is not {name!r}", "answer.name")
        self.answer_text = f"{name} = {dec}"

    def check_smallest_margin(self) -> None:
        self.at("smallest_margin")
        nonzero = [(m, s) for s, m in self.margin.items() if m]
        stored = self.cert["smallest_margin"]
        if not nonzero:
            if stored is not None:
                _fail("there is no non-zero margin (null)", "smallest_margin")
            return
        m, s = min(nonzero)
        if stored is None:
            _fail(f"the smallest non-zero margin is {_pq(m)} at state {s}, not null", "smallest_margin", s)
        _keys(stored, ("value", "state"), (), "smallest_margin")
        got = _rational(stored["value"], "smallest_margin.value")
        if got != m:
            _fail(f"value {_pq(got)} is not the smallest non-zero margin {_pq(m)}", "smallest_margin.value", s)
        if _int(stored["state"], "smallest_margin.state") != s:
            _fail(f"state {_show(stored['state'])} is not the lowest state with the smallest margin ({s})",
                  "smallest_margin.state", s)
