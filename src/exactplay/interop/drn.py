"""Storm's explicit DRN format: writing a model, reading one strictly, and turning it into a game model.

The format (as Storm's ``DirectEncodingParser`` reads it)::

    // comments
    @type: MDP                      DTMC or MDP (exactplay reads and writes these); CTMC, MA (read)
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

A continuous-time state starts with its exit rate, ``state 0 !5/2 [0] init``: a CTMC's transitions are
rates, a Markov automaton's Markovian states (``!E``, ``E > 0``) have one choice of probabilities, its
probabilistic states ``!0``; such a file is read as its embedded discrete-time model, whose unbounded
values (``P``, ``R``, and ``T``, the expected time) are the continuous-time model's (:mod:`.continuous`).

Reading is strict: any defect is one line ``FILE:LINE: what is wrong``; probabilities must sum to
exactly 1 (nothing is renormalised).  :func:`drn_to_model` turns a parsed file and a property
(``Pmax``/``Pmin``/``Rmax``/``Rmin``/``Tmax``/``Tmin``, ``--target`` and ``--avoid`` label expressions) into a
:class:`~exactplay.model.Model` the engine solves.

Writing is :mod:`exactplay.interop.drn_write`, reading :mod:`exactplay.interop.drn_read` (both
re-exported here), the label expressions :mod:`exactplay.interop.labels`; this module holds
:func:`drn_to_model`.
"""

from __future__ import annotations

from fractions import Fraction

from ..model import Model, ModelError
from .drn_read import NOLABEL, DrnFile, drn_name, parse_drn, read_drn  # noqa: F401
from .drn_write import write_drn  # noqa: F401  (re-exported)
from .labels import holds as _holds, parse_label_expr  # noqa: F401  (re-exported)

__all__ = ["DrnFile", "parse_drn", "read_drn", "write_drn", "drn_to_model", "parse_label_expr",
           "OBJECTIVES"]

OBJECTIVES = ("Pmax", "Pmin", "Rmax", "Rmin", "Tmax", "Tmin")  # T: the expected time (1/E a visit, 1 a step)


# ---------------------------------------------------------------- to a game model

def drn_arrays(drn: DrnFile, rindex: int | str | None = None):
    """The DRN file as :class:`~exactplay.interop.storm_arrays.ChoiceArrays` of plain lists (the reward model
    ``rindex``, if given: state rewards plus action rewards; ``"time"``: each state's mean sojourn, the
    expected time)."""
    from .continuous import CONTINUOUS
    from .storm_arrays import ChoiceArrays

    values = list(drn.probs)
    kind = CONTINUOUS.get(drn.type, drn.type).lower()
    arrays = ChoiceArrays(kind, drn.first, drn.start, drn.succ, drn.pk, values, list(drn.initial_states))
    if rindex == "time":  # the mean sojourn of each state; in discrete time each step takes 1 (Storm's T too)
        index: dict[Fraction, int] = {}
        sojourn = drn.sojourn if drn.sojourn is not None else [Fraction(1)] * len(drn)
        for x in [*sojourn, Fraction(0)]:
            if x not in index:
                index[x] = len(values)
                values.append(x)
        arrays.state_reward = [index[x] for x in sojourn]
        arrays.action_reward = [index[Fraction(0)]] * len(drn.action_names)
    elif rindex is not None:
        # the reader shares one tuple per distinct reward text: each distinct tuple's number is looked up once
        vecs = {id(v): v for v in drn.state_rewards}
        vecs.update((id(v), v) for v in drn.action_rewards)
        index: dict[Fraction, int] = {}
        at: dict[int, int] = {}
        for key, vec in vecs.items():
            x = vec[rindex] if vec is not None and rindex < len(vec) else Fraction(0)
            i = index.get(x)
            if i is None:
                i = index[x] = len(values)
                values.append(x)
            at[key] = i
        arrays.state_reward = [at[id(v)] for v in drn.state_rewards]
        arrays.action_reward = [at[id(v)] for v in drn.action_rewards]
    return arrays


def _action_names(drn: DrnFile) -> list[str]:
    """Each choice's name: the DRN action name, its index for ``__NOLABEL__``, ``name#i`` when repeated."""
    all_names, first = drn.action_names, drn.first
    n = len(drn)
    # the common case at once: no __NOLABEL__ and no name twice at one state (the names kept as they are), checked
    # once per distinct sequence of a state's names (they repeat: echoring's 104,114 states have 5)
    if NOLABEL not in all_names and all(len(set(seq)) == len(seq) for seq in set(
            map(tuple, map(all_names.__getitem__, map(slice, first, first[1:]))))):
        return list(all_names)
    names = []
    for d in range(n):
        seen = set()
        for i, name in enumerate(all_names[first[d]:first[d + 1]]):
            if name == NOLABEL:
                name = str(i)
            if name in seen:
                name = f"{name}#{i}"
            seen.add(name)
            names.append(name)
    return names


def drn_to_model(drn: DrnFile, objective: str, target: str, avoid: str | None = None,
                 reward: str | None = None) -> tuple[Model, list[int]]:
    """The game model of a DRN file and a property; also ``order[k]`` = the DRN number of model state ``k``.

    ``target`` states become terminal with payoff 1 (``P``) or 0 (``R``), ``avoid`` states (not in the
    target) terminal with payoff 0; a state all of whose actions loop to itself is terminal with payoff
    0 (``P``; for ``R`` it stays, never reaching the target).  The single player maximises (``max``)
    or minimises (``min``).  ``R`` has Storm's semantics: a strategy that does not reach the target
    with probability 1 has an infinite expected reward (the model's ``never_ending = "infinite"``,
    :mod:`exactplay.proper`; where every strategy reaches it the two semantics agree and it is left
    ``"zero"``).  Model states are the DRN states, except that the initial state is swapped
    with state 0 (the engine's initial state); each state's name is its DRN number.  The mapping is
    :func:`exactplay.interop.objective.reach_model`'s (shared with PRISM and JANI models).
    """
    from .objective import reach_model

    if objective not in OBJECTIVES:
        raise ModelError(f"--objective {objective!r}: choose one of {', '.join(OBJECTIVES)}")
    known = drn.all_labels()
    texpr = parse_label_expr(target, known, "--target")
    aexpr = parse_label_expr(avoid, known, "--avoid") if avoid else None
    is_reward = objective[0] in "RT"
    rindex = None
    if objective[0] == "T":
        if reward is not None:
            raise ModelError("--reward is for the objectives Rmin and Rmax")
        rindex = "time"
    elif is_reward:
        if not drn.reward_models and not any(drn.state_rewards) and not any(drn.action_rewards):
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
    targets = _holding(texpr, drn.labels)
    avoided = None
    if aexpr is not None:
        avoided = [not t and a for t, a in zip(targets, _holding(aexpr, drn.labels))]
        if is_reward and any(avoided):
            d = avoided.index(True)
            raise ModelError(f"{drn.path}:{drn.lines[d]}: --avoid is for Pmax and Pmin (an avoided state "
                             "makes the expected reward infinite)")
    name = f"{drn_name(drn.path)}: {objective} {target}" + (f" avoiding {avoid}" if avoid else "")
    return reach_model(drn_arrays(drn, rindex), targets, avoided, is_reward,
                       "min" if objective.endswith("min") else "max", name, _action_names(drn),
                       lambda order: list(map(str, order)),  # the name is the DRN number (JSON float-table rows may use it)
                       labels=drn.labels, where=lambda d: f"{d} ({drn.path}:{drn.lines[d]})")


def _holding(expr, labels: list[list[str]]) -> list[bool]:
    """Whether ``expr`` holds, per state: once per distinct list of labels (the reader shares one list
    per distinct text, alive in ``labels`` meanwhile: its ``id`` names it)."""
    memo: dict[int, bool] = {}
    return [memo[i] if (i := id(labs)) in memo else memo.setdefault(i, _holds(expr, labs)) for labs in labels]
