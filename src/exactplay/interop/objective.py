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
refused.  ``cumulative`` (PRISM-games' ``R[Fc target]``): a play that never reaches the target collects
its rewards forever, exactplay's own semantics of a play that never ends (``never_ending = "zero"``:
worth what it collected), for one player and for games; an infinite total is refused by the engine.

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
from itertools import compress
from operator import sub

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
                chooser: str = "chooser", cumulative: bool = False) -> tuple[Model, list[int]]:
    """The game model of ``arrays`` and a question (see the module docstring); also ``order``.

    ``target``/``avoid``: per state of ``arrays`` (``avoid`` None: none); ``reward``: ``R`` (the
    rewards are ``arrays.state_reward`` and ``arrays.action_reward``), else ``P``; ``direction``:
    ``"max"``/``"min"`` for one chooser, None for a DTMC (and ignored in a game, where ``sides``
    says who is who); ``choice_names[r]``: the name of choice ``r`` (used at states with two
    choices or more); ``state_names(order)``: the states' names in model order; ``labels[d]``: the
    labels of state ``d``; ``where(d)``: state ``d`` in an error message; ``chooser``: the name of
    the one player of an MDP; ``cumulative``: ``R[Fc target]`` (see the module docstring).
    """
    n = arrays.n
    if not arrays.initial:
        raise ModelError("the model has no initial state")
    if reward and (arrays.state_reward is None or arrays.action_reward is None):
        raise ModelError("R needs a reward model")
    init = arrays.initial[0]
    order = list(range(n))
    order[0], order[init] = init, 0
    gs, rs, col, vidx = (_as_list(x) for x in (arrays.group_start, arrays.row_start, arrays.column,
                                                arrays.value_index))
    nch = list(map(sub, gs[1:], gs))  # each state's number of choices
    if 0 in nch:
        raise ModelError(f"state {where(nch.index(0))} has no choice (a deadlock)")
    vals = arrays.values
    players = 2 if sides is not None else 1
    if players == 2:
        win, lose, stop = (_ONE, _ZERO), (_ZERO, _ONE), (_ZERO, _ZERO)
    else:
        win, lose, stop = (_ONE,), (_ZERO,), (_ZERO,)
    # each state's payoff index if it is terminal (in the explicit model's numbering): 0 win, 1 lose, 2 stop
    pay: list[int] = [-1] * n
    if not reward:  # absorbing: every choice is one entry, back to the state itself
        for d in range(n):
            a0 = gs[d]
            lo = rs[a0]
            if col[lo] == d and rs[a0 + 1] - lo == 1 and all(
                    rs[a + 1] - rs[a] == 1 and col[rs[a]] == d for a in range(a0 + 1, gs[d + 1])):
                pay[d] = 1
    if avoid is not None:
        for d in compress(range(n), avoid):
            if not target[d]:
                if reward:
                    raise ModelError(f"state {where(d)}: an until's avoided state in R (R[F target] only)")
                pay[d] = 1
    for d in compress(range(n), target):
        pay[d] = 2 if reward else 0
    # the model's arrays (the initial state swapped with 0), runs of states in whole slices (:func:`_kept`), the
    # terminal states' choices left out; probabilities 0 dropped (Storm keeps none, but a file may)
    zero = {i for i, v in enumerate(vals) if not v}
    if zero:  # (vals holds the rewards too: a reward 0 is no probability 0)
        zero &= set(vidx)
    first, start, succ, pk, choice_ids = _kept(order, pay, gs, rs, col, vidx, zero)
    if init != 0:
        succ = [init if t == 0 else 0 if t == init else t for t in succ]
    one = 0 if direction is not None and sides is None and arrays.kind != "dtmc" else -1
    if sides is not None:
        owners = _as_list(arrays.player)  # (-1: no player owns the state, see storm_arrays.extract)
        who = set(owners)
        unowned = next((d for d in range(n) if owners[d] < 0 and pay[d] < 0 and nch[d] > 1), None) if -1 in who else None
        if unowned is not None:
            raise ModelError(f"state {where(unowned)}: {nch[unowned]} choices, and no player owns them (give their "
                             "commands' actions or module to a player)")
        side = {p: sides.model_player(p) for p in who}
        movers = [-1 if pay[d] >= 0 or nch[d] < 2 else side[owners[d]] for d in order]
    else:
        movers = [-1 if pay[d] >= 0 or nch[d] < 2 else one for d in order]
    rew: list[int] = [-1] * len(choice_ids)
    rewards: list[tuple] = []
    if reward:
        srew, arew = _as_list(arrays.state_reward), _as_list(arrays.action_reward)
        made: dict[tuple[int, int], int] = {}
        j = 0
        for d in order:
            if pay[d] >= 0:
                continue
            sr = srew[d]
            for a in range(gs[d], gs[d + 1]):
                i = made.get((sr, arew[a]))
                if i is None:
                    total = vals[sr] + vals[arew[a]]
                    i = made[(sr, arew[a])] = -1 if not total else len(rewards)
                    if total:
                        rewards.append((total, -total) if players == 2 else (total,))
                rew[j] = i
                j += 1
    sp = Sparse(n, players, first, start, succ, pk, vals, movers, [pay[d] for d in order], [win, lose, stop],
                rew, rewards)
    if sides is not None:
        player_names, objective = sides.player_names(), "zero-sum"
    else:
        player_names, objective = [chooser], ("min" if direction == "min" else "max")
    names = [choice_names[c] for c in choice_ids]
    model_labels = None if labels is None else [labels[d] for d in order]
    model = ArrayModel(sp, name, player_names, objective, state_names=state_names(order), action_names=names,
                       labels=model_labels, initial_states=[order[d] for d in arrays.initial])  # (order: its own inverse)
    if reward:  # the engine's components (and one-state loops), computed once here: they answer the question below
        from ..engine.scc import components
        from ..engine.structure import self_loops

        model.keep_components(components(sp.n, first, start, succ) + self_loops(sp))
    if reward and not cumulative and model.has_end_component():  # some strategy can avoid the target forever
        if sides is not None:  # (exactplay's infinite values are for one player)
            require_reaching(model, lambda k: where(order[k]))
        model.never_ending = "infinite"
    return model, order


def _kept(order: list[int], pay: list[int], gs: list[int], rs: list[int], col: list[int], vidx: list[int],
          zero: set[int]) -> tuple[list[int], list[int], list[int], list[int], list[int]]:
    """The model's ``first, start, succ, pk`` (successors in the explicit numbering) and each kept choice's
    number in ``arrays``: the states in ``order``, a terminal state's choices left out, transitions with a
    probability index in ``zero`` dropped.  Without such transitions, runs of consecutive states (``order``
    swaps only the initial state with 0) are copied in whole slices, their offsets shifted."""
    n = len(order)
    first: list[int] = []
    start, succ, pk, choice_ids = [0], [], [], []
    if zero:
        for d in order:
            first.append(len(choice_ids))
            if pay[d] >= 0:
                continue
            for a in range(gs[d], gs[d + 1]):
                keep = [k for k in range(rs[a], rs[a + 1]) if vidx[k] not in zero]
                succ.extend(col[k] for k in keep)
                pk.extend(vidx[k] for k in keep)
                start.append(len(succ))
                choice_ids.append(a)
        first.append(len(choice_ids))
        return first, start, succ, pk, choice_ids
    terminal = [d for d in range(n) if pay[d] >= 0]
    cuts = sorted({0, n, 1, order[0], order[0] + 1}.union(terminal, [d + 1 for d in terminal]))
    for k0, k1 in zip(cuts, cuts[1:]):
        d0 = order[k0]  # (a run of several states is not moved: d0 == k0)
        if pay[d0] >= 0:
            first.append(len(choice_ids))
            continue
        d1 = d0 + k1 - k0
        g0, g1 = gs[d0], gs[d1]
        off = len(choice_ids) - g0
        first.extend(gs[d0:d1] if not off else [g + off for g in gs[d0:d1]])
        lo, hi = rs[g0], rs[g1]
        shift = len(succ) - lo
        succ.extend(col[lo:hi])
        pk.extend(vidx[lo:hi])
        start.extend(rs[g0 + 1:g1 + 1] if not shift else [r + shift for r in rs[g0 + 1:g1 + 1]])
        choice_ids.extend(range(g0, g1))
    first.append(len(choice_ids))
    return first, start, succ, pk, choice_ids


def _as_list(x) -> list:
    """A plain list of a sequence of ints (a numpy array's ``tolist``)."""
    return x.tolist() if hasattr(x, "tolist") else list(x)


def require_reaching(model: Model, where: Callable[[int], str] = str) -> None:
    """``R``: every strategy must reach the target (a terminal state) with probability 1, i.e. there
    is no end component (:meth:`~exactplay.model.Model.has_end_component`); else refused, naming a
    state of one (``where(k)``: model state ``k`` in the message)."""
    if not model.has_end_component():
        return
    stuck = sorted(model.end_component_states())
    raise ModelError(f"from state {where(stuck[0])} some strategy never reaches the target (an end component "
                     "outside it): the expected reward is infinite or not supported; exactplay solves Rmin/Rmax "
                     "when every strategy reaches the target with probability 1; PRISM-games' R[Fc target] counts "
                     "a play that never reaches it at the rewards it collects")
