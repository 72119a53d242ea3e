"""The fast breadth-first enumeration behind :func:`exactplay.model.build_model`.

It finds the same states in the same order, reads the same exact numbers and makes every check
the careful enumeration (:func:`exactplay.model.build.enumerate_game` with
:func:`~exactplay.model.build.careful_reader`) makes; it only does the common case with less work:

* an action's outcomes whose probabilities are all plain ``Fraction`` objects or the ints 0 and 1
  are read in one loop: the probability is kept as it is (``0 < p`` from its numerator), the sum is
  checked in integers, ``sum n_i / d_i = N / D`` with ``N == D`` at the end (``D`` grows only when a
  denominator does not divide it: one common denominator, the usual case, costs one addition per
  outcome), and each successor is interned with one dictionary look-up;
* ``mpq`` and ``"p/q"`` probabilities are read by the careful reader the first times they appear (the
  first 64 actions it reads), then by value from what it read (the same Fraction);
* anything else in an action -- a float, a new ``"p/q"`` string or ``mpq``, a negative or a wrong
  sum, a malformed pair, an unhashable state, the state limit -- hands the whole action to the
  careful reader, which reads it again from ``transitions(s, a)`` (successors met before in this
  action were numbered in the same order, so the numbers agree) and raises its one-line error or
  returns the action as today.  So a game's transitions are read twice only where they are not
  plain, and every error message is the careful reader's;
* a successor met twice in one action adds the two probabilities once per distinct pair of
  fractions (a cache keyed by their numerators and denominators);
* the fast reader runs inside the enumeration's loop (no call per action); the first positive
  outcome sets the running sum; a player's mover and actions are checked there too, and a tuple of
  distinct ``str``, ``int`` or ``None`` actions the game returns again (the very object, kept alive,
  as hold's ``("hold", "continue")``) is not checked again, and such actions are distinct as text
  (``repr``) exactly when they are distinct as values (one set of them);
* payoff and reward vectors of plain ints are read once per distinct tuple;
* the cyclic garbage collector runs 1/140th as often while it enumerates (it cost as much as the
  enumeration: every collection of the old generation walks the whole growing model);
* state labels (``state_label``, else ``repr``) are made in one pass at the end; an error message
  makes the label of its own state.

``tests/test_exact_enumeration.py`` proves the models equal, field by field, to the careful
builder's on every built-in game, the examples and user models with rewards, and every error the same.
"""

from __future__ import annotations

from fractions import Fraction

from .collector import fewer_collections
from .compiled import ModelError, exact_vector
from .enumerated import Enumerated, distinct_actions, distinct_once, finish, mover_actions, protocol_header
from .protocol import _MPQ, to_rational

__all__ = ["enumerate_exact"]

_INTS = frozenset((int,))
_PLAIN_ACTIONS = frozenset((str, int, type(None)))  # actions a model stores as they are
_STR = frozenset((str,))


def enumerate_exact(game, max_states: int, progress, careful) -> Enumerated:
    """Breadth-first from ``game.initial_state()`` (see the module's docstring); ``careful`` is the
    careful reader (``read_action(s, a, where, successor)``) every unusual action goes to.  An
    exception raised by the game's own code is a one-line :class:`ModelError`, as in
    :func:`~exactplay.model.build.enumerate_game`."""
    with fewer_collections(freeze=True):  # the growing model out of the older generations' collections
        try:
            return _enumerate(game, max_states, progress, careful)
        except (ModelError, KeyboardInterrupt, MemoryError):
            raise
        except Exception as exc:  # the user's code (or a protocol violation it causes)
            raise ModelError(f"the game's code failed while its states were enumerated: "
                             f"{type(exc).__name__}: {str(exc)[:200]}") from None


def _enumerate(game, max_states: int, progress, careful) -> Enumerated:
    objective, n_players, reward_fn = protocol_header(game)
    declared = n_players is not None  # then every payoff and reward is read against it
    label_fn = getattr(game, "state_label", None)
    label_fn = label_fn if callable(label_fn) else repr

    def where_of(s) -> str:
        return f"state {str(label_fn(s))}"

    try:
        start = game.initial_state()
        hash(start)
    except TypeError as exc:
        raise ModelError(f"initial state is not hashable: {exc}") from None
    states = [start]
    index = {start: 0}
    index_get = index.get
    terminal, mover, actions, trans, rewards = [], [], [], [], []
    to_store: list[int] = []  # states with an action that is not None, str or int
    checked_actions: set[tuple] = set()  # action lists already found distinct
    plain_tuples: dict[int, tuple] = {}  # id -> a tuple of distinct str, int or None actions the game returned
    plain_vectors: dict[str, dict] = {"payoff": {}, "reward": {}}  # tuples of plain ints, read
    plain_objects: dict[int, tuple] = {}  # id -> (the tuple, payoff or reward, its vector), a few thousand
    is_terminal, payoff_fn, mover_fn, transitions = game.is_terminal, game.payoff, game.mover, game.transitions
    actions_fn = getattr(game, "actions", None)  # a game of chance alone may have none
    one = Fraction(1)
    other_kinds: dict = {}  # mpq or "p/q" string -> (its Fraction, numerator, denominator), positive ones
    n_careful = [0]  # actions read by the careful reader so far
    merged: dict[tuple, Fraction] = {}  # p_j + p of duplicate successors, by the four integers
    where = ""

    def successor(t) -> int:  # the careful reader's
        try:
            j = index_get(t)
        except TypeError as exc:
            raise ModelError(f"{where}: next state {t!r} is not hashable ({exc})") from None
        if j is None:
            j = len(states)
            if j >= max_states:
                raise ModelError(f"{where}: more than {max_states:,} reachable states: the game is not "
                                 f"finite or too large for the state limit (raise it with --max-states)")
            index[t] = j
            states.append(t)
        return j

    def remember_kinds(s, a) -> None:
        """After the careful reader accepted an action: its positive mpq and ``"p/q"`` probabilities
        as Fractions, for the fast reader (the careful reader made the same Fraction of each)."""
        if len(other_kinds) > 65536:
            other_kinds.clear()
        for p, _ in transitions(s, a):
            if type(p) is _MPQ or type(p) is str:
                f = to_rational(p, "probability")
                if f > 0:
                    other_kinds[p] = (f, f.numerator, f.denominator)

    def vector(raw, what: str, s, a=None):
        """A payoff or reward vector read exactly; a tuple of plain ints once per distinct tuple (and
        once per tuple object: a game that returns the same tuple again is not re-examined)."""
        same = plain_objects.get(id(raw))
        if same is not None and same[0] is raw and same[1] == what:  # the very object (kept alive)
            return same[2]
        plain = type(raw) is tuple and _INTS.issuperset(map(type, raw))
        read = plain_vectors[what]
        vec = read.get(raw, False) if plain else False
        if vec is False:
            at = where_of(s) if what == "payoff" else f"{where_of(s)}, action {a!r}"
            vec = exact_vector(raw, n_players, what, at)
            if what == "reward" and not any(vec):
                vec = None
            if plain:
                read[raw] = vec
        if plain:
            if len(plain_objects) > 4096:
                plain_objects.clear()
            plain_objects[id(raw)] = (raw, what, vec)
        return vec

    where_s = lambda: where_of(s)  # noqa: E731 (names the state being read)
    progress.start("enumerating states")
    i = 0
    while i < len(states):
        s = states[i]
        i += 1
        if not i & 4095:
            progress.advance(0)
        if is_terminal(s):
            pay = vector(payoff_fn(s), "payoff", s)
            n_players = len(pay) if n_players is None else n_players
            terminal.append(pay)
            mover.append(None)
            actions.append([])
            trans.append([])
            rewards.append([])
            continue
        m = mover_fn(s)
        if m is None:
            acts = [None]
        elif type(m) is int and m >= 0 and actions_fn is not None:
            raw = actions_fn(s)
            acts = list(raw)
            if plain_tuples.get(id(raw)) is not raw:  # not a tuple of plain actions checked before
                if _PLAIN_ACTIONS.issuperset(map(type, acts)):  # equal as values exactly when equal as text
                    if not acts or len(set(acts)) != len(acts):
                        distinct_actions(acts, m, where_s, checked_actions)  # refuses them
                    if type(raw) is tuple and len(plain_tuples) < 256:  # immutable, kept alive: its id names it
                        plain_tuples[id(raw)] = raw
                else:
                    to_store.append(i - 1)
                    distinct_once(acts, m, where_s, checked_actions)
        else:
            acts = mover_actions(game, s, m, where_s, checked_actions)  # refuses the mover
        dists, rews = [], []
        for a in acts:
            dist = None
            try:
                # the plain reader (see the module's docstring): dist stays None unless the action is plain
                out: dict[int, Fraction] = {}
                num, den = 0, 1  # the sum so far, num / den
                for p, t in transitions(s, a):
                    tp = type(p)
                    if tp is Fraction:
                        n = p._numerator
                        if n <= 0:
                            if n:
                                break
                            continue
                        d = p._denominator
                    elif tp is int:
                        if p == 1:
                            p, n, d = one, 1, 1
                        elif p == 0:
                            continue
                        else:
                            break
                    else:  # an mpq or a "p/q" string: read once per distinct value, a positive one kept
                        got = other_kinds.get(p) if tp is _MPQ or tp is str else None
                        if got is None:
                            break
                        p, n, d = got
                    if d == den:
                        num += n
                    elif not num:  # the first positive outcome
                        num, den = n, d
                    elif den % d == 0:
                        num += n * (den // d)
                    else:
                        num, den = num * d + n * den, den * d
                    j = index_get(t)
                    if j is None:
                        j = len(states)
                        if j >= max_states:
                            break
                        index[t] = j
                        states.append(t)
                    if j in out:  # a successor met again: p_j + p, one Fraction addition per distinct pair
                        q = out[j]
                        key = (q._numerator, q._denominator, n, d)
                        total = merged.get(key)
                        if total is None:
                            if len(merged) > 65536:
                                merged.clear()
                            total = merged[key] = q + p
                        out[j] = total
                    else:
                        out[j] = p
                else:
                    if num == den:
                        dist = tuple(out.items())
            except Exception:  # a malformed pair, an unhashable state, the game's own error: read again
                dist = None
            if dist is None:
                where = where_of(s)
                dist = careful(s, a, where, successor)
                if n_careful[0] < 64:  # the first few careful reads teach the fast reader mpq and "p/q"
                    n_careful[0] += 1
                    remember_kinds(s, a)
            dists.append(dist)
            if reward_fn is not None:
                raw = reward_fn(s, a)
                rews.append(None if raw is None else vector(raw, "reward", s, a))
        terminal.append(None)
        mover.append(m)
        actions.append(acts)
        trans.append(dists)
        rewards.append(rews if reward_fn is not None else [None] * len(acts))
    if n_players is None:  # finish() refuses it; the labels are not needed then
        return finish(game, n_players, objective, [], terminal, mover, actions, trans, rewards, to_store)
    labels = list(map(label_fn, states))
    if not _STR.issuperset(map(type, labels)):
        labels = [x if type(x) is str else str(x) for x in labels]
    found = finish(game, n_players, objective, labels, terminal, mover, actions, trans, rewards, to_store, declared)
    found.objects = states  # the game's own states, for a reader that keys the results by them (exactplay.api)
    return found
