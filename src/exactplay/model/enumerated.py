"""The reachable part of a game as the enumerations find it (before it becomes a model)."""

from __future__ import annotations

from dataclasses import dataclass

from .compiled import MAX_PLAYERS, OBJECTIVES, ModelError, check_objective

__all__ = ["Enumerated", "protocol_header", "mover_actions", "distinct_actions", "stored_actions", "finish"]


@dataclass
class Enumerated:
    """The reachable part of a game, state ``i`` the ``i``-th found (breadth-first from the start):
    what :class:`Model` (or a parametric model) is made of, the numbers as ``read_action`` gave them."""

    name: str
    num_players: int
    player_names: list
    objective: str
    labels: list
    terminal: list
    mover: list
    actions: list
    trans: list
    rewards: list
    widths_read: bool = False  # every payoff and reward read against num_players (declared by the game)
    objects: list | None = None  # the game's own state objects, state i the i-th (None: not kept)


def protocol_header(game) -> tuple:
    """``(objective, num_players or None, reward function or None)`` of a game, after checking that
    it has the protocol's methods and a known objective (both enumerations start here)."""
    for method in ("initial_state", "is_terminal", "payoff", "mover", "transitions"):
        if not callable(getattr(game, method, None)):
            raise ModelError(f"the game object has no method {method}() (see exactplay.model.protocol)")
    objective = getattr(game, "objective", "auto") or "auto"
    if objective not in OBJECTIVES:
        raise ModelError(f"objective {objective!r}: choose one of {', '.join(OBJECTIVES)}")
    reward_fn = getattr(game, "reward", None)
    n_players = getattr(game, "num_players", None)
    if isinstance(n_players, int) and n_players > MAX_PLAYERS:
        raise ModelError(f"num_players {n_players:,} is more than the limit of {MAX_PLAYERS:,} players")
    return objective, n_players, reward_fn if callable(reward_fn) else None


def mover_actions(game, s, m, where, checked: set) -> list:
    """The actions of state ``s``, whose mover is ``m`` (``[None]``: chance only), after checking the
    mover is a player number, that there is an action and that they are distinct (a tuple of
    actions already in ``checked`` is not checked again).  ``where()`` names the state."""
    if m is None:
        return [None]
    if isinstance(m, bool) or not isinstance(m, int) or m < 0:
        raise ModelError(f"{where()}: mover {m!r} is not a player number (0, 1, ...) or None")
    acts = list(game.actions(s))
    distinct_once(acts, m, where, checked)
    return acts


def distinct_once(acts: list, m: int, where, checked: set) -> None:
    """:func:`distinct_actions` unless the tuple of ``acts`` is in ``checked`` (unhashable actions:
    checked each time)."""
    try:
        seen = tuple(acts) in checked
    except TypeError:
        seen = False
    if not seen:
        distinct_actions(acts, m, where, checked)


def distinct_actions(acts: list, m, where, checked: set) -> None:
    """Refuse a state of player ``m`` with no action or with two equal actions (compared by their
    ``repr``); distinct ones are added to ``checked`` (if hashable).  ``where()`` names the state."""
    if not acts:
        raise ModelError(f"{where()}: player {m} to move but there is no action")
    if len(set(map(repr, acts))) != len(acts):
        raise ModelError(f"{where()}: actions are not distinct: {acts!r}")
    try:
        checked.add(tuple(acts))
    except TypeError:
        pass


def stored_actions(acts: list, label) -> list:
    """The actions of one state as a model stores them: ``None``, strings and integers as they are,
    any other action as its ``repr`` (a model file stores an action as its text).  Actions kept as
    they are were found distinct already; ``label()`` names the state if the texts now clash."""
    stored = [repr(a) if a is not None and not isinstance(a, (str, int)) else a for a in acts]
    if any(x is not y for x, y in zip(stored, acts)) and len(set(map(repr, stored))) != len(stored):
        raise ModelError(f"state {label()}: actions {stored!r} are not distinct once "
                         "written out (a model file stores an action as its text)")
    return stored


def finish(game, n_players, objective: str, labels, terminal, mover, actions, trans, rewards,
           to_store=None, widths_read: bool = False) -> Enumerated:
    """The :class:`Enumerated` of a finished enumeration, after the checks that need all of it: some
    terminal state (the payoffs' length), each state's actions as stored (:func:`stored_actions`;
    ``to_store``: the states whose actions may need it, all by default), the player names."""
    if n_players is None:
        raise ModelError("no terminal state is reachable, so the game has no payoffs: every play goes on forever")
    if n_players > MAX_PLAYERS:
        raise ModelError(f"payoffs of {n_players:,} players: more than the limit of {MAX_PLAYERS:,} players")
    check_objective(objective, n_players)
    for s in range(len(actions)) if to_store is None else to_store:
        actions[s] = stored_actions(actions[s], lambda: labels[s])
    names = list(getattr(game, "player_names", None) or [f"player {i}" for i in range(n_players)])
    if len(names) != n_players or not all(isinstance(x, str) for x in names):
        raise ModelError(f"player_names {names!r} must be {n_players} strings, one per player")
    return Enumerated(name=str(getattr(game, "name", type(game).__name__)), num_players=n_players,
                      player_names=names, objective=objective, labels=labels, terminal=terminal, mover=mover,
                      actions=actions, trans=trans, rewards=rewards, widths_read=widths_read)
