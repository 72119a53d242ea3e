"""Where play can go on forever: the engine's condensation with its end components, the states
that surely end, the states entered from other components, and the witness kind.

An end component lies inside one strongly connected component ``C``; ``C`` holds one exactly
when its staying core (:func:`exactplay.graph.staying_core`, one worklist pass) is non-empty.
Inside ``C`` every state reaches every other, so a component reaches an end component exactly
when it holds one or one of its successor components reaches one: sink-first, one look at each
edge leaving a component without an end component gives the states that surely end (those
that reach none), with no reverse adjacency and no exact end-component states.
"""

from __future__ import annotations

from itertools import compress

from ..graph import staying_core, tarjan_indexed
from ..model import Model, ModelError
from .cyclic import local_choice

__all__ = ["condense", "component_index", "surely_ending_states", "entered_states", "some_reward", "witness_kind",
           "EXACT_ONLY"]

# the refusal of every solver with the semantics "a play that never ends is worth 0" (balls, Dask, fast paths)
EXACT_ONLY = ("a strategy that does not end play with probability 1 is worth +infinity in this model (never_ending "
              "'infinite', e.g. Rmin/Rmax of a DRN file): it is solved only by the exact engine on one machine (--backend mpq, no --workers)")


def component_index(comps: list[list[int]], n: int) -> list[int]:
    """``comp_of[s]``: the position in ``comps`` of the component holding ``s``.

    >>> component_index([[2], [1, 0]], 3)
    [1, 1, 0]
    """
    comp_of = [0] * n
    for i, comp in enumerate(comps):
        for s in comp:
            comp_of[s] = i
    return comp_of


def condense(model: Model, succ: list[list[int]]) -> tuple[list[list[int]], list[bool], list[int]]:
    """The components, sinks first (Tarjan over ``succ``), whether each holds an end component, and
    :func:`component_index`.  Records the states that surely end with the model
    (:meth:`Model.record_surely_ending`), unless it knows them already."""
    m = model
    n = len(m)
    trans = m.trans
    comps, comp_of = tarjan_indexed(succ)
    if m.objective == "auto" and any(len(comp) > 1 for comp in comps):
        # (read by witness_kind anyway) may find that every play ends; with no cyclic component the
        # loop below finds the end components cheaper (race: saves a pass over 480,000 transitions)
        m.resolved_objective()
    ends = m.__dict__.get("_surely_ending")
    if ends is not None and len(ends) == n:
        return comps, [False] * len(comps), comp_of
    known = ends is not None  # whether the model is known to have an end component
    ec = []
    for comp in comps:
        if len(comp) == 1:
            s = comp[0]
            loop = any(len(d) == 1 and d[0][0] == s for d in trans[s])
            ec.append(loop)
            known = known or loop
        else:  # (no action keeping play inside: the core's first pass drops every state, one pass)
            inside = bool(staying_core(comp, trans))
            ec.append(inside)
            # the first such component without one: maybe the model has none (Pig), one linear pass
            if not inside and not known and not m.has_end_component():
                m.surely_ending(set())  # no end component: every play ends
                return comps, [False] * len(comps), comp_of
            known = True
    if ends is None:
        m.record_surely_ending(surely_ending_states(comps, ec, succ, comp_of))
    return comps, ec, comp_of


def surely_ending_states(comps: list[list[int]], ec: list[bool], succ: list[list[int]], comp_of: list[int]) -> set[int]:
    """The states that reach no end component (so every play from them ends, whatever the players
    choose): the states of the components, sink-first, that hold none (``ec``) and have no edge
    into a component that reaches one.

    >>> comps, succ = [[3], [2], [1, 0]], [[1], [0, 2], [3], []]
    >>> sorted(surely_ending_states(comps, [False, False, False], succ, component_index(comps, 4)))
    [0, 1, 2, 3]
    >>> sorted(surely_ending_states(comps, [False, True, False], succ, component_index(comps, 4)))
    [3]
    """
    reach = bytearray(len(comps))
    out: list[int] = []
    for i, comp in enumerate(comps):
        if ec[i]:
            reach[i] = 1
            continue
        for s in comp:
            for t in succ[s]:
                if reach[comp_of[t]]:
                    reach[i] = 1
                    break
            if reach[i]:
                break
        else:
            out.extend(comp)
    return set(out)


def entered_states(succ: list[list[int]], comps: list[list[int]], comp_of: list[int] | None = None) -> list[bool]:
    """``entered[t]``: some state of another component moves to ``t`` (later components read its value).

    >>> entered_states([[1, 2], [0], [], [3]], [[3], [2], [1, 0]])
    [False, False, True, False]
    """
    if comp_of is None:
        comp_of = component_index(comps, len(succ))
    entered = [False] * len(succ)
    for s, ts in enumerate(succ):
        cs = comp_of[s]
        for t in ts:
            if comp_of[t] != cs:
                entered[t] = True
    return entered


def some_reward(model: Model) -> bool:
    """Whether some action has a reward (``model.has_rewards``; with a player, a reward vector is a
    non-empty tuple, so ``any`` of a state's rewards is true exactly when one is not None).

    >>> from types import SimpleNamespace as M
    >>> some_reward(M(num_players=1, rewards=[[None], [None, (0,)]])), some_reward(M(num_players=1, rewards=[[None], []]))
    (True, False)
    """
    if not model.num_players:
        return model.has_rewards
    return any(map(any, model.rewards))


def witness_kind(model: Model, comps: list[list[int]], ec: list[bool], succ: list | None = None,
                 comp_of: list[int] | None = None) -> tuple[str, list[int]]:
    """Which witness pins the values down, and which payoff components are certified
    (``succ``: the successors of each state, ``comp_of``: :func:`component_index`, if the caller has them).

    A choice *decides* when its state is on a cycle (a component of several states, or a self-loop) and
    its actions do not all move inside the component with the same probabilities (such a choice, e.g.
    Chef Showdown's failure branch, is decided by its exits alone).  ``termination``: no end component;
    ``policy``: no deciding choice; else ``reachability`` for the one objective of the deciding choices.

    Raises :class:`ModelError` for the games the engine refuses.
    """
    n = len(model)
    if model.never_ending == "infinite" and any(ec):
        raise ModelError(EXACT_ONLY)
    keys = model.keys()
    mover, actions = model.mover, model.actions
    if comp_of is None:
        comp_of = component_index(comps, n)
    members: dict[int, set[int]] = {}

    def deciding(s: int) -> bool:
        i = comp_of[s]
        comp = comps[i]
        if len(comp) == 1 and s not in (succ[s] if succ is not None else model.successors(s)):
            return False
        inside = members.get(i)
        if inside is None:
            inside = members[i] = set(comp)
        return not local_choice(model, s, inside)

    def choosers():  # model.choice_states(), one at a time
        return (s for s in range(n) if mover[s] is not None and len(actions[s]) > 1)

    # the players that choose somewhere: the movers of the states with several actions (map and
    # compress run in C: no Python step per state)
    players = set(compress(mover, map((1).__lt__, map(len, actions))))
    chooser_comps = {keys[p][0] for p in players if p is not None}
    if len(chooser_comps) > 1:  # (with one objective, no component can have two)
        per_component: dict[int, set[int]] = {}
        for s in choosers():
            if deciding(s):
                per_component.setdefault(comp_of[s], set()).add(keys[model.mover[s]][0])
        if any(len(objectives) > 1 for objectives in per_component.values()):
            raise ModelError(
                "players with different objectives choose on a common cycle of play: such a game has no single "
                "value (declare objective 'zero-sum' for a two-player game where player 1 minimises player 0's payoff)")
    if not any(ec):
        return "termination", list(range(model.num_players))
    rewards = some_reward(model)
    if rewards:
        ends = model.surely_ending()
        for s in range(n):
            if s not in ends and any(r is not None for r in model.rewards[s]):
                raise ModelError(
                    f"state {model.state_name(s)}: a reward at a state from which play can go on forever is not "
                    "supported (the expected total reward needs every play from there to end)")
    if not any(deciding(s) for s in choosers()):
        return "policy", list(range(model.num_players))
    if len(chooser_comps) > 1:
        raise ModelError(
            "choices on a cycle where play can go on forever, in a game whose players have different objectives: "
            "not supported (the values are certified for one objective there)")
    (c,) = chooser_comps
    rewarded = [s for s in range(n) for r in model.rewards[s] if r is not None and r[c] != 0] if rewards else []
    if rewarded:
        raise ModelError(
            f"state {model.state_name(rewarded[0])}: rewards in a game where choices on a cycle can make play go on "
            "forever are not supported (only terminal payoffs are certified there)")
    negative = [s for s in range(n) if model.terminal[s] is not None and model.terminal[s][c] < 0]
    if negative:
        raise ModelError(
            f"state {model.state_name(negative[0])}: a negative payoff for {model.player_names[c]} in a game where "
            "choices can make play go on forever (worth 0) is not supported: such values need not be attained")
    return "reachability", [c]
