"""A model checker's question (``P`` or ``R``, ``min``/``max``, a coalition) on an explicit model,
as a game model the engine solves.  One mapping, for Storm's DRN files and for PRISM/JANI models
built by stormpy (both read into :class:`~exactplay.interop.storm_arrays.ChoiceArrays`).

The mapping, for each state ``s`` of the explicit model:

* ``target`` holds: terminal, with payoff 1 (``P``) or 0 (``R``: nothing is collected from there);
* else ``avoid`` holds (the states where the left side of an until fails: ``P[a U b]`` is reaching
  ``b`` through ``a``-states only): terminal with payoff 0 (``P`` only);
* else, for ``P``, a state all of whose choices loop to itself: terminal with payoff 0 (it never
  reaches the target);
* else the state goes on with its choices (distributions as in the file); for ``R`` each choice
  collects ``state reward + action reward`` of the reward model.

Hence the value of a state is ``P[F target]`` (or ``P[!avoid U target]``), or the expected reward
collected until the target: a play that never ends is worth 0, as in exactplay's semantics, so
``P`` is exactly the probability of reaching the target.  ``R`` has Storm's (and PRISM's)
semantics: a strategy that does not reach the target with probability 1 collects +infinity (the
model's ``never_ending = "infinite"``, set when the model without the target has an end component:
:mod:`exactplay.proper`); in a game, where exactplay has no infinite values, such a model is
refused.

Who chooses: a state with two choices or more belongs to its player.  One player (an MDP) maximises
(``max``) or minimises (``min``) the value; a DTMC has no choice.  In a game (SMG) the players of
the coalition play against all the others, zero-sum: the coalition is the maximiser for ``max``
(then model player 0), the minimiser for ``min`` (model player 1), and a state's mover is the side
of its owner.  States are renumbered so that the (first) initial state is 0: it is swapped with
state 0; ``order[k]`` is the explicit model's number of model state ``k``.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from fractions import Fraction

import numpy as np

from ..model import Model, ModelError
from ..model.collector import fewer_collections
from ..model.sparse import ArrayModel, Sparse
from .storm_arrays import ChoiceArrays

__all__ = ["Sides", "reach_model", "require_reaching"]

_ONE, _ZERO = Fraction(1), Fraction(0)


@dataclass
class Sides:
    """A game's coalition against the rest: ``coalition`` the explicit model's player numbers in it,
    ``names`` the two sides' names (the coalition's first), ``direction`` the coalition's."""

    coalition: set[int]
    names: tuple[str, str]
    direction: str  # "max" | "min"

    def model_player(self, owner: int) -> int:
        """The model's player (0 maximises, 1 minimises) of a state owned by ``owner``."""
        ours = owner in self.coalition
        return 0 if ours == (self.direction == "max") else 1

    def player_names(self) -> list[str]:
        return list(self.names) if self.direction == "max" else [self.names[1], self.names[0]]


def reach_model(*args, **kwargs) -> tuple[Model, list[int]]:
    """:func:`_reach_model` with the cyclic garbage collector run less often (it re-walked the
    millions of tuples being made: 5.4 s of CPU instead of 2.0 s on 908k states)."""
    with fewer_collections():
        return _reach_model(*args, **kwargs)


def _reach_model(arrays: ChoiceArrays, target: Sequence[bool], avoid: Sequence[bool] | None, reward: bool,
                direction: str | None, name: str, choice_names: Sequence[str | None],
                state_names: Callable[[list[int]], Sequence], sides: Sides | None = None,
                labels: Sequence[Sequence[str]] | None = None, where: Callable[[int], str] = str,
                chooser: str = "chooser") -> tuple[Model, list[int]]:
    """The game model of ``arrays`` and a question (see the module docstring); also ``order``.

    ``target``/``avoid``: per state of ``arrays`` (``avoid`` None: none); ``reward``: ``R`` (the
    rewards are ``arrays.state_reward`` and ``arrays.action_reward``), else ``P``; ``direction``:
    ``"max"``/``"min"`` for one chooser, None for a DTMC (and ignored in a game, where ``sides``
    says who is who); ``choice_names[r]``: the name of choice ``r`` (used at states with two
    choices or more); ``state_names(order)``: the states' names in model order; ``labels[d]``: the
    labels of state ``d``; ``where(d)``: state ``d`` in an error message; ``chooser``: the name of
    the one player of an MDP.
    """
    n = arrays.n
    if not arrays.initial:
        raise ModelError("the model has no initial state")
    if reward and (arrays.state_reward is None or arrays.action_reward is None):
        raise ModelError("R needs a reward model")
    init = arrays.initial[0]
    order = list(range(n))
    order[0], order[init] = init, 0
    gs, rs, col = arrays.group_start, arrays.row_start, arrays.column
    nrows = gs[1:] - gs[:-1]  # choices per state
    if n and int(nrows.min()) == 0:
        d = int(np.argmin(nrows))
        raise ModelError(f"state {where(d)} has no choice (a deadlock)")
    vals = arrays.values
    players = 2 if sides is not None else 1
    if players == 2:
        win, lose, stop = (_ONE, _ZERO), (_ZERO, _ONE), (_ZERO, _ZERO)
    else:
        win, lose, stop = (_ONE,), (_ZERO,), (_ZERO,)
    # each state's payoff if it is terminal (in the explicit model's numbering)
    pay: list = [None] * n
    if not reward:  # absorbing: every choice is one entry, back to the state itself
        owner = np.repeat(np.arange(n), nrows)
        row_abs = ((rs[1:] - rs[:-1]) == 1) & (col[rs[:-1]] == owner)
        for d in np.nonzero(np.logical_and.reduceat(row_abs, gs[:-1]))[0].tolist():
            pay[d] = lose
    if avoid is not None:
        for d in range(n):
            if avoid[d] and not target[d]:
                if reward:
                    raise ModelError(f"state {where(d)}: an until's avoided state in R (R[F target] only)")
                pay[d] = lose
    for d in range(n):
        if target[d]:
            pay[d] = stop if reward else win
    # the model's numbering: the initial state swapped with 0; its arrays, in bulk (numpy), with the
    # terminal states' choices left out
    perm = np.array(order, dtype=np.int64)
    cm = col
    if init != 0:
        cm = col.copy()
        cm[col == init] = 0
        cm[col == 0] = init
    terminal = np.array([p is not None for p in pay], dtype=bool)
    going = ~terminal[perm]  # per model state
    counts = np.where(going, nrows[perm], 0)
    choice_ids = _ranges(gs[perm][going], counts[going])  # the explicit choices, in model order
    tr_lens = (rs[1:] - rs[:-1])[choice_ids]
    tr_ids = _ranges(rs[choice_ids], tr_lens)
    vi = arrays.value_index[tr_ids]
    zero_values = [i for i, v in enumerate(vals) if not v]
    if zero_values:  # Storm keeps no zero entries, but a file may
        keep = ~np.isin(vi, zero_values)
        owner_choice = np.repeat(np.arange(len(choice_ids)), tr_lens)
        tr_lens = np.bincount(owner_choice[keep], minlength=len(choice_ids))
        tr_ids, vi = tr_ids[keep], vi[keep]
    first = np.concatenate(([0], np.cumsum(counts))).tolist()
    start = np.concatenate(([0], np.cumsum(tr_lens))).tolist()
    # payoffs: a table of the three vectors; movers: the side (games) or the one chooser at choice states
    payoffs = [win, lose, stop]
    pay_index = {id(win): 0, id(lose): 1, id(stop): 2}
    pay_of = [-1 if p is None else pay_index[id(p)] for p in pay]
    one = 0 if direction is not None and sides is None and arrays.kind != "dtmc" else None
    several = nrows > 1
    if sides is not None:
        owners = arrays.player
        side = {p: sides.model_player(p) for p in set(owners.tolist())}
        movers = np.array([side[p] for p in owners.tolist()], dtype=np.int64)
    else:
        movers = np.full(n, -1 if one is None else one, dtype=np.int64)
    movers = np.where(several & ~terminal, movers, -1)[perm].tolist()
    rew: list[int] = [-1] * len(choice_ids)
    rewards: list[tuple] = []
    if reward:
        srew, arew = arrays.state_reward, arrays.action_reward
        choice_state = np.repeat(np.arange(n), nrows)
        made: dict[tuple[int, int], int] = {}
        for j, (sr, ar) in enumerate(zip(srew[choice_state[choice_ids]].tolist(), arew[choice_ids].tolist())):
            i = made.get((sr, ar))
            if i is None:
                total = vals[sr] + vals[ar]
                i = made[(sr, ar)] = -1 if not total else len(rewards)
                if total:
                    rewards.append((total, -total) if players == 2 else (total,))
            rew[j] = i
    sp = Sparse(n, players, first, start, cm[tr_ids].tolist(), vi.tolist(), vals, movers,
                [pay_of[d] for d in order], payoffs, rew, rewards)
    if sides is not None:
        player_names, objective = sides.player_names(), "zero-sum"
    else:
        player_names, objective = [chooser], ("min" if direction == "min" else "max")
    names = [choice_names[c] for c in choice_ids.tolist()]
    model_labels = None if labels is None else [labels[d] for d in order]
    model = ArrayModel(sp, name, player_names, objective, state_names=list(state_names(order)), action_names=names,
                       labels=model_labels, initial_states=[order[d] for d in arrays.initial])  # (order: its own inverse)
    if reward and sp.has_end_component():  # some strategy can avoid the target forever
        if sides is not None:  # (exactplay's infinite values are for one player)
            require_reaching(model, lambda k: where(order[k]))
        model.never_ending = "infinite"
    return model, order


def _ranges(starts, lengths):
    """``concatenate([arange(a, a + l) for a, l in zip(starts, lengths)])``, in bulk.

    >>> _ranges(np.array([5, 0, 9]), np.array([2, 0, 3])).tolist()
    [5, 6, 9, 10, 11]
    """
    lengths = np.asarray(lengths, dtype=np.int64)
    total = int(lengths.sum())
    if not total:
        return np.zeros(0, dtype=np.int64)
    offsets = np.cumsum(lengths) - lengths  # where each range starts in the output
    out = np.ones(total, dtype=np.int64)
    nz = lengths > 0
    out[offsets[nz]] = np.asarray(starts, dtype=np.int64)[nz] - np.concatenate(([0], (np.asarray(starts)[nz][:-1]
                                                                                      + lengths[nz][:-1] - 1)))
    return np.cumsum(out)


def require_reaching(model: Model, where: Callable[[int], str] = str) -> None:
    """``R``: every strategy must reach the target (a terminal state) with probability 1, i.e. there
    is no end component (:meth:`~exactplay.model.Model.has_end_component`); else refused, naming a
    state of one (``where(k)``: model state ``k`` in the message)."""
    if not model.has_end_component():
        return
    stuck = sorted(model.end_component_states())
    raise ModelError(f"from state {where(stuck[0])} some strategy never reaches the target (an end component "
                     "outside it): the expected reward is infinite or not supported; exactplay solves Rmin/Rmax "
                     "when every strategy reaches the target with probability 1")
