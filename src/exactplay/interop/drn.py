"""Storm's explicit DRN format: writing a model, reading one strictly, and turning it into a game model.

The format (as Storm's ``DirectEncodingParser`` reads it)::

    // comments
    @type: MDP                      DTMC or MDP (exactplay reads and writes these two)
    @value_type: rational           exact p/q numbers (double files are read as exact decimals)
    @parameters
                                    (an empty line: no parameters)
    @reward_models
    steps                           names, separated by spaces
    @nr_states
    4
    @nr_choices
    6
    @model
    state 0 [0] init "a label"      state rewards in [..] (one per reward model), then labels
        action wait [1/3]           action name (__NOLABEL__: none), action rewards
            1 : 1/2                 successor : probability
            2 : 1/2

Reading is strict: any defect is one line ``FILE:LINE: what is wrong``; probabilities must sum to
exactly 1 (nothing is renormalised).  :func:`drn_to_model` turns a parsed file and a property
(``Pmax``/``Pmin``/``Rmax``/``Rmin``, ``--target`` and ``--avoid`` label expressions) into a
:class:`~exactplay.model.Model` the engine solves.

Writing is :mod:`exactplay.interop.drn_write`, reading :mod:`exactplay.interop.drn_read` (both
re-exported here), the label expressions :mod:`exactplay.interop.labels`; this module holds
:func:`drn_to_model`.
"""

from __future__ import annotations

from fractions import Fraction

from ..model import Model, ModelError
from .drn_read import MAX_DRN_BYTES, NOLABEL, DrnAction, DrnFile, drn_name, parse_drn, read_drn  # noqa: F401
from .drn_write import state_labels, write_drn  # noqa: F401  (re-exported)
from .labels import holds as _holds, parse_label_expr  # noqa: F401  (re-exported)

__all__ = ["DrnFile", "DrnAction", "parse_drn", "read_drn", "write_drn", "drn_to_model", "parse_label_expr",
           "OBJECTIVES"]

OBJECTIVES = ("Pmax", "Pmin", "Rmax", "Rmin")


# ---------------------------------------------------------------- to a game model

def drn_to_model(drn: DrnFile, objective: str, target: str, avoid: str | None = None,
                 reward: str | None = None) -> tuple[Model, list[int]]:
    """The game model of a DRN file and a property; also ``order[k]`` = the DRN number of model state ``k``.

    ``target`` states become terminal with payoff 1 (``P``) or 0 (``R``), ``avoid`` states (not in the
    target) terminal with payoff 0; a state all of whose actions loop to itself is terminal with payoff
    0 (``P``; for ``R`` it stays, never reaching the target).  The single player maximises (``max``)
    or minimises (``min``).  ``R`` has Storm's semantics: a strategy that does not reach the target
    with probability 1 has an infinite expected reward (the model's ``never_ending = "infinite"``,
    :mod:`exactplay.proper`; where every strategy reaches it the two semantics agree and it is left
    ``"zero"``).  Model states are the DRN states, except that the (first) initial state is
    swapped with state 0 (the engine's initial state); each state's name is its DRN number.  Every state
    labelled ``init`` is an initial state (``Model.initial_states``, in the file's order).
    """
    if objective not in OBJECTIVES:
        raise ModelError(f"--objective {objective!r}: choose one of {', '.join(OBJECTIVES)}")
    known = drn.all_labels()
    texpr = parse_label_expr(target, known, "--target")
    aexpr = parse_label_expr(avoid, known, "--avoid") if avoid else None
    is_reward = objective.startswith("R")
    n = len(drn)
    order = list(range(n))
    order[0], order[drn.initial] = drn.initial, 0
    pos = {d: k for k, d in enumerate(order)}
    rindex = None
    if is_reward:
        if not drn.reward_models and not any(drn.state_rewards) and not any(a.rewards for acts in drn.actions for a in acts):
            raise ModelError(f"{drn.path}: {objective} needs a reward model, and the file has none")
        names = drn.reward_models or ["rew0"]
        if reward is None:
            if len(names) > 1:
                raise ModelError(f"{drn.path}: {len(names)} reward models ({', '.join(names)}): choose one with --reward")
            rindex = 0
        elif reward not in names:
            raise ModelError(f"--reward {reward!r}: the file's reward models are {', '.join(names)}")
        else:
            rindex = names.index(reward)
    elif reward is not None:
        raise ModelError("--reward is for the objectives Rmin and Rmax")
    terminal, mover, actions, trans, rewards, labels, states = [], [], [], [], [], [], []
    for k in range(n):
        d = order[k]
        labs = drn.labels[d]
        labels.append(list(labs))
        states.append(str(d))  # the name is the DRN number (JSON float-table rows may use it)
        acts = drn.actions[d]
        absorbing = all(set(a.trans) == {d} for a in acts)
        if _holds(texpr, labs):
            pay = Fraction(0) if is_reward else Fraction(1)
        elif aexpr is not None and _holds(aexpr, labs):
            if is_reward:
                raise ModelError(f"{drn.path}:{drn.lines[d]}: --avoid is for Pmax and Pmin (an avoided state "
                                 "makes the expected reward infinite)")
            pay = Fraction(0)
        elif absorbing and not is_reward:
            pay = Fraction(0)
        else:
            pay = None
        if pay is not None:
            terminal.append((pay,))
            mover.append(None)
            actions.append([])
            trans.append([])
            rewards.append([])
            continue
        terminal.append(None)
        mover.append(0 if len(acts) > 1 else None)
        names, seen = [], {}
        for i, a in enumerate(acts):
            name = a.name if a.name != NOLABEL else str(i)
            if name in seen:
                name = f"{name}#{i}"
            seen[name] = i
            names.append(name if len(acts) > 1 else None)
        actions.append(names)
        trans.append([tuple((pos[t], p) for t, p in sorted(a.trans.items(), key=lambda x: pos[x[0]])) for a in acts])
        rs = []
        for a in acts:
            if rindex is None:
                rs.append(None)
                continue
            x = Fraction(0)
            sr = drn.state_rewards[d]
            if rindex < len(sr):
                x += sr[rindex]
            if rindex < len(a.rewards):
                x += a.rewards[rindex]
            rs.append((x,) if x else None)
        rewards.append(rs)
    model = Model(
        name=f"{drn_name(drn.path)}: {objective} {target}" + (f" avoiding {avoid}" if avoid else ""), num_players=1, player_names=["chooser"],
        objective="min" if objective.endswith("min") else "max",
        states=states, terminal=terminal, mover=mover, actions=actions, trans=trans, rewards=rewards,
        labels=labels, initial_states=[pos[d] for d in drn.initial_states],
    )
    model.validate()
    if is_reward and model.has_end_component():  # some strategy can avoid the target forever
        model.never_ending = "infinite"
        model.validate()
    return model, order

