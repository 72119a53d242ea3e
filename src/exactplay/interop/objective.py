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
``P`` is exactly the probability of reaching the target.  ``R`` requires that every strategy (of
every player) reaches the target with probability 1, i.e. that the model without the target has
no end component; else it is refused (the expected reward would be infinite for some strategy,
which exactplay does not represent).

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

from ..model import Model, ModelError
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


def reach_model(arrays: ChoiceArrays, target: Sequence[bool], avoid: Sequence[bool] | None, reward: bool,
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
    if not 0 < len(arrays.initial):
        raise ModelError("the model has no initial state")
    if reward and (arrays.state_reward is None or arrays.action_reward is None):
        raise ModelError("R needs a reward model")
    init = arrays.initial[0]
    order = list(range(n))
    order[0], order[init] = init, 0
    swapped = init != 0
    gs = arrays.group_start.tolist()
    rs = arrays.row_start.tolist()
    col = arrays.column.tolist()
    vidx = arrays.value_index.tolist()
    vals = arrays.values
    players = 2 if sides is not None else 1
    if sides is not None:
        owner = arrays.player.tolist()
        side = {p: sides.model_player(p) for p in set(owner)}
    if reward:
        srew = arrays.state_reward.tolist()
        arew = arrays.action_reward.tolist()
    if players == 2:
        win, lose = (_ONE, _ZERO), (_ZERO, _ONE)
        stop = (_ZERO, _ZERO)
    else:
        win, lose = (_ONE,), (_ZERO,)
        stop = (_ZERO,)
    terminal, mover, actions, trans, rewards = [], [], [], [], []
    t_append, m_append, a_append, tr_append, r_append = (terminal.append, mover.append, actions.append,
                                                         trans.append, rewards.append)
    one = 0 if direction is not None and sides is None and arrays.kind != "dtmc" else None
    for k in range(n):
        d = order[k] if swapped else k
        if target[d]:
            pay = stop if reward else win
        elif avoid is not None and avoid[d]:
            if reward:
                raise ModelError(f"state {where(d)}: an until's avoided state in R (R[F target] only)")
            pay = lose
        else:
            first, last = gs[d], gs[d + 1]
            if first == last:
                raise ModelError(f"state {where(d)} has no choice (a deadlock)")
            if not reward and all(rs[r + 1] - rs[r] == 1 and col[rs[r]] == d for r in range(first, last)):
                pay = lose  # absorbing: never reaches the target
            else:
                pay = None
        if pay is not None:
            t_append(pay)
            m_append(None)
            a_append([])
            tr_append([])
            r_append([])
            continue
        t_append(None)
        several = last - first > 1
        if several:
            m_append(side[owner[d]] if sides is not None else one)
            a_append([choice_names[r] for r in range(first, last)])
        else:
            m_append(None)
            a_append([None])
        dists = []
        for r in range(first, last):
            a, b = rs[r], rs[r + 1]
            targets = col[a:b]
            if swapped:
                targets = [order[t] if t == init or t == 0 else t for t in targets]
            probs = [vals[i] for i in vidx[a:b]]
            if _ZERO in probs:
                dists.append(tuple((t, p) for t, p in zip(targets, probs) if p))
            else:
                dists.append(tuple(zip(targets, probs)))
        tr_append(dists)
        if reward:
            rs_row = []
            base = vals[srew[d]]
            for r in range(first, last):
                x = base + vals[arew[r]]
                rs_row.append(None if not x else ((x, -x) if players == 2 else (x,)))
            r_append(rs_row)
        else:
            r_append([None] * (last - first))
    if sides is not None:
        player_names, objective = sides.player_names(), "zero-sum"
    else:
        player_names, objective = [chooser], ("min" if direction == "min" else "max")
    model_labels = [] if labels is None else [list(labels[d]) for d in order]
    model = Model(name=name, num_players=players, player_names=player_names, objective=objective,
                  states=state_names(order), terminal=terminal, mover=mover, actions=actions, trans=trans,
                  rewards=rewards, labels=model_labels)
    model.validate(distributions=False)
    if reward:
        require_reaching(model, lambda k: where(order[k]))
    return model, order


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
