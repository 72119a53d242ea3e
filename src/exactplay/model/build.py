"""Enumerate a Python game's reachable states into a :class:`Model`.

Breadth-first from ``initial_state()``.  Every probability is read exactly
(:func:`~exactplay.model.protocol.to_rational`); duplicate successors of one
action are merged; zero-probability outcomes are dropped; an action whose
probabilities do not sum to exactly 1, a negative probability, a state that is
neither terminal nor has an action, or more than ``max_states`` states (a game
that is not finite, or too large for the memory limit) is refused with a
:class:`ModelError` naming the state.

:func:`build_model` enumerates with :func:`~exactplay.model.exact_enumeration.enumerate_exact`, which
reads the common kinds of actions itself and hands every other to :func:`careful_reader` (same model,
same checks, same messages); :func:`build_model_careful` is the generic enumeration
(:func:`enumerate_game`, also used by the parametric builder) with the careful reader alone.
"""

from __future__ import annotations

from collections import deque
from fractions import Fraction
from typing import Hashable

from ..progress import SILENT
from .compiled import MAX_STATES, Model, ModelError, exact_vector
from .enumerated import Enumerated, finish, mover_actions, protocol_header
from .exact_enumeration import enumerate_exact
from .protocol import to_rational

__all__ = ["build_model", "build_model_with_states", "build_model_careful", "careful_reader", "enumerate_game",
           "Enumerated"]


def _label(game, s) -> str:
    f = getattr(game, "state_label", None)
    return str(f(s)) if callable(f) else repr(s)


def build_model(game, max_states: int = MAX_STATES, progress=SILENT) -> Model:
    """The reachable part of ``game`` as a :class:`Model` (state 0 is the initial state).

    An exception raised by the game's own code is reported as a :class:`ModelError` (one line:
    the exception and its message), never as a traceback.
    """
    return build_model_with_states(game, max_states, progress)[0]


def build_model_with_states(game, max_states: int = MAX_STATES, progress=SILENT) -> tuple[Model, list]:
    """:func:`build_model`, and the game's own state objects in the model's order (``states[i]`` is
    the object of state ``i``: what :mod:`exactplay.api` keys its results by)."""
    found = enumerate_exact(game, max_states, progress, careful_reader(game))
    return model_of(found), found.objects


def enumerate_game(game, max_states: int, progress, read_action, what: str = "enumerating states") -> Enumerated:
    """Breadth-first from ``game.initial_state()``: every state's payoff or mover, actions and, per
    action, ``read_action(s, a, where, successor)`` -- the action's distribution as pairs
    ``(successor index, probability)``, each successor's index from ``successor(t)`` (which adds a
    new state, or refuses the state past ``max_states``).  The protocol (methods, objective, mover,
    distinct actions, hashable states, player names, rewards) is checked here once for every kind of
    probability.  An exception raised by the game's own code is reported as a
    :class:`ModelError` (one line: the exception and its message), never as a traceback."""
    try:
        return _enumerate(game, max_states, progress, read_action, what)
    except (ModelError, KeyboardInterrupt, MemoryError):
        raise
    except Exception as exc:  # the user's code (or a protocol violation it causes)
        raise ModelError(f"the game's code failed while its states were enumerated: "
                         f"{type(exc).__name__}: {str(exc)[:200]}") from None


def _enumerate(game, max_states: int, progress, read_action, what: str) -> Enumerated:
    objective, n_players, reward_fn = protocol_header(game)
    index: dict[Hashable, int] = {}
    states: list[Hashable] = []
    terminal, mover, actions, trans, rewards = [], [], [], [], []
    try:
        start = game.initial_state()
        hash(start)
    except TypeError as exc:
        raise ModelError(f"initial state is not hashable: {exc}") from None
    index[start] = 0
    states.append(start)
    queue = deque([start])
    progress.start(what)
    labels: list[str] = []  # states are dequeued in index order: labels[i] is state i's
    checked_actions: set[tuple] = set()  # action lists already found distinct
    int_rewards: dict[tuple, tuple | None] = {}  # reward tuples of plain ints, read
    where = ""

    def successor(t) -> int:
        try:
            j = index.get(t)
        except TypeError as exc:
            raise ModelError(f"{where}: next state {t!r} is not hashable ({exc})") from None
        if j is None:
            j = index[t] = len(states)
            if j >= max_states:
                raise ModelError(f"{where}: more than {max_states:,} reachable states: the game is not "
                                 f"finite or too large for the state limit (raise it with --max-states)")
            states.append(t)
            queue.append(t)
        return j

    while queue:
        s = queue.popleft()
        label = _label(game, s)
        labels.append(label)
        where = f"state {label}"
        if game.is_terminal(s):
            pay = exact_vector(game.payoff(s), n_players, "payoff", where)
            n_players = len(pay) if n_players is None else n_players
            terminal.append(pay)
            mover.append(None)
            actions.append([])
            trans.append([])
            rewards.append([])
            continue
        m = game.mover(s)
        acts = mover_actions(game, s, m, lambda: where, checked_actions)
        dists, rews = [], []
        for a in acts:
            dists.append(read_action(s, a, where, successor))
            r = None
            if reward_fn is not None:
                raw = reward_fn(s, a)
                if raw is not None:
                    # a tuple of plain ints is read once (exact by type: a float never hits the cache)
                    plain = type(raw) is tuple and all(type(x) is int for x in raw)
                    r = int_rewards.get(raw, False) if plain else False
                    if r is False:
                        r = exact_vector(raw, n_players, "reward", f"{where}, action {a!r}")
                        if not any(r):
                            r = None
                        if plain:
                            int_rewards[raw] = r
            rews.append(r)
        terminal.append(None)
        mover.append(m)
        actions.append(acts)
        trans.append(dists)
        rewards.append(rews)
        if len(states) % 4096 == 0:
            progress.advance(0)
    return finish(game, n_players, objective, labels, terminal, mover, actions, trans, rewards)


def careful_reader(game):
    """``read_action`` for :func:`enumerate_game`: each probability read exactly by
    :func:`~exactplay.model.protocol.to_rational` (any exact kind: int, Fraction, mpq, ``"p/q"``),
    ``sum_t p_t = 1`` exactly, each ``p_t >= 0``; zero outcomes dropped, duplicate successors merged.
    Every defect is a one-line :class:`ModelError` naming the state and the action.  The fast
    builder (:mod:`exactplay.model.exact_enumeration`) hands any action it does not read itself to
    this reader, so the two agree on every message."""
    sums: dict[tuple, Fraction] = {}  # the sum of each distinct list of probabilities, computed once
    int_probs = {0: Fraction(0), 1: Fraction(1)}  # the probabilities a game writes as plain ints

    def read_action(s, a, where, successor) -> tuple:
        """``sum_t p_t = 1`` exactly, each ``p_t >= 0`` an exact rational; zero outcomes dropped."""
        dist: dict[int, Fraction] = {}
        key_parts = []
        for item in game.transitions(s, a):
            try:
                p, t = item
            except (TypeError, ValueError):
                raise ModelError(f"{where}, action {a!r}: a transition must be (probability, next_state), "
                                 f"got {item!r}") from None
            if type(p) is not Fraction:  # a Fraction is taken as it is (to_rational would return it)
                if type(p) is int and p in int_probs:
                    p = int_probs[p]
                else:
                    try:
                        p = to_rational(p, "probability")
                    except (TypeError, ValueError) as exc:
                        raise ModelError(f"{where}, action {a!r}: {exc}") from None
            pn = p.numerator
            if pn <= 0:
                if pn < 0:
                    raise ModelError(f"{where}, action {a!r}: negative probability {p}")
                key_parts.append((0, p.denominator))
                continue
            key_parts.append((pn, p.denominator))
            j = successor(t)
            dist[j] = dist[j] + p if j in dist else p
        key = tuple(key_parts)  # pairs of ints: cheaper to hash than Fractions
        total = sums.get(key)
        if total is None:
            total = sums[key] = sum((Fraction(n, d) for n, d in key_parts), Fraction(0))
        if total != 1:
            raise ModelError(f"{where}, action {a!r}: probabilities sum to {total}, not exactly 1")
        return tuple(dist.items())

    return read_action


def model_of(e: Enumerated) -> Model:
    """The :class:`Model` of an enumeration whose distributions were checked as they were read."""
    model = Model(name=e.name, num_players=e.num_players, player_names=e.player_names, objective=e.objective,
                  states=e.labels, terminal=e.terminal, mover=e.mover, actions=e.actions, trans=e.trans,
                  rewards=e.rewards)
    model.validate(distributions=False, widths_read=e.widths_read)  # each distribution checked as it was read
    return model


def build_model_careful(game, max_states: int = MAX_STATES, progress=SILENT) -> Model:
    """The same :class:`Model` as :func:`build_model`, by the generic enumeration and the careful
    reader alone (the builder before the fast path; kept as the reference the tests compare with)."""
    return model_of(enumerate_game(game, max_states, progress, careful_reader(game)))
