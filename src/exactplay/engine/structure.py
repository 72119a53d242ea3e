"""The shape of a model for the engine: its components, their end components, and the witness.

An *end component* is a set of states where some choice of actions keeps play forever.  One lies
inside a strongly connected component ``C`` exactly when ``C``'s staying core -- its greatest subset
``X`` where every state has an action all of whose successors lie in ``X`` -- is not empty
(:meth:`Structure.staying_core`, one worklist pass).  A state *decides* when it chooses on a cycle
(a component of several states, or a self-loop) and its actions do not all move inside the component
with the same probabilities; a choice that does is decided by its exits alone.

The witness (:data:`~exactplay.engine.solution.WITNESSES`) pins the values down: ``termination``, no
end component; ``policy``, no deciding choice; else ``reachability`` for the one objective of the
deciding choices; ``reward`` where rewards lie at states from which play can go on forever.
:meth:`Structure.witness` also refuses the games the engine does not solve, each with
its reason.
"""

from __future__ import annotations

import bisect

from ..model import ModelError
from ..model.sparse import ArrayModel, Sparse
from .scc import components

__all__ = ["Structure", "staying_core", "local_choice", "reaching_positive", "EXACT_ONLY"]

# the refusal of every solver with the semantics "a play that never ends is worth 0" (balls, Dask, fast paths)
EXACT_ONLY = ("a strategy that does not end play with probability 1 is worth +infinity in this model (never_ending "
              "'infinite', e.g. Rmin/Rmax of a DRN file): it is solved only by the exact engine on one machine "
              "(--backend mpq, no --workers)")


class Structure:
    """The components of ``sp`` sinks first (``comps``, ``comp_of``), whether each holds an end component
    (``ec``), and for the model's objective (``keys``) the witness and the certified payoff components."""

    def __init__(self, model, sp: Sparse) -> None:
        self.model, self.sp = model, sp
        mine = isinstance(model, ArrayModel) and model.sparse is sp
        parts = model.take_components() if mine else None  # (R's mapping computes them first)
        if parts is None:
            parts = components(sp.n, sp.first, sp.start, sp.succ) + self_loops(sp)
        self.comps, self.comp_of, self.loops, sure = parts
        # whether each component holds an end component; a larger one's (a staying core, a pass over it) only
        # until some end component is known: the witness needs no more, the solve asks when it needs it
        # (a model that has answered "no end component" already -- R's mapping asks -- needs no pass at all)
        none = mine and model.known_end_component() is False
        self.ec = ec = [False if none else sure[comp[0]] == 1 if len(comp) == 1 else None for comp in self.comps]
        known = any(ec)
        for i, comp in enumerate(self.comps):
            if ec[i] is None and not known:
                ec[i] = self.has_end_component(comp)
                known = ec[i]
        if model.objective == "auto" and "_resolved_auto" not in model.__dict__:
            # every play ends exactly when no component holds an end component (:meth:`Model.resolved_objective`)
            zero_sum = model.num_players == 2 and not any(ec) and model.is_constant_sum()
            model.__dict__["_resolved_auto"] = "zero-sum" if zero_sum else "max"
        self.keys = model.keys()
        self.witness_name, self.reported = self.witness(ec)

    def staying_core(self, comp: list[int], inside: set[int]) -> bool:
        return staying_core(self.sp, comp, inside)

    def has_end_component(self, comp: list[int], inside: set[int] | None = None) -> bool:
        if len(comp) > 1:
            return self.staying_core(comp, set(comp) if inside is None else inside)
        s = comp[0]
        sp = self.sp
        return any(sp.start[a + 1] - sp.start[a] == 1 and sp.succ[sp.start[a]] == s
                   for a in range(sp.first[s], sp.first[s + 1]))

    def on_cycle(self, s: int) -> bool:
        """In a component of several states, or with a transition back to itself (:func:`self_loops`)."""
        return len(self.comps[self.comp_of[s]]) > 1 or bool(self.loops[s])

    def local_choice(self, s: int) -> bool:
        """Whether every action of ``s`` moves inside its component with the same probabilities."""
        ci = self.comp_of[s]
        return local_choice(self.sp, s, lambda t: self.comp_of[t] == ci)

    def deciding(self, s: int) -> bool:
        return self.on_cycle(s) and not self.local_choice(s)

    def witness(self, ec: list[bool]) -> tuple[str, list[int]]:
        """Which witness pins the values down, and which payoff components are certified; raises
        :class:`ModelError` for the games the engine refuses (as :func:`.ending.witness_kind`)."""
        model, sp, keys = self.model, self.sp, self.keys
        if model.never_ending == "infinite" and any(ec):
            raise ModelError(EXACT_ONLY)
        n = sp.n
        choosers = [s for s in range(n) if sp.mover[s] >= 0 and (sp.first[s + 1] - sp.first[s]) > 1]
        chooser_comps = {keys[sp.mover[s]][0] for s in choosers}
        if len(chooser_comps) > 1:
            per: dict[int, set[int]] = {}
            for s in choosers:
                if self.deciding(s):
                    per.setdefault(self.comp_of[s], set()).add(keys[sp.mover[s]][0])
            if any(len(v) > 1 for v in per.values()):
                raise ModelError(
                    "players with different objectives choose on a common cycle of play: such a game has no single "
                    "value (declare objective 'zero-sum' for a two-player game where player 1 minimises player 0's payoff)")
        if not any(ec):
            return "termination", list(range(model.num_players))
        rewarded = sp.rewards and any(r >= 0 for r in sp.rew)
        if rewarded:
            for i, comp in enumerate(self.comps):  # (every component's, here)
                if ec[i] is None:
                    ec[i] = self.has_end_component(comp)
            ends = self.surely_ending(ec)
            for s in range(n):
                if not ends[s] and any(sp.rew[a] >= 0 for a in range(sp.first[s], sp.first[s + 1])):
                    return self.reward_witness(chooser_comps, ec, s)
        if not any(self.deciding(s) for s in choosers):
            return "policy", list(range(model.num_players))
        if len(chooser_comps) > 1:
            raise ModelError(
                "choices on a cycle where play can go on forever, in a game whose players have different objectives: "
                "not supported (the values are certified for one objective there)")
        (c,) = chooser_comps
        if rewarded:
            for a, r in enumerate(sp.rew):
                if r >= 0 and sp.rewards[r][c] != 0:  # rewards where choices on a cycle can make play go on forever
                    return self.reward_witness(chooser_comps, ec, self.owner_of(a))
        self.refuse_negative_payoffs(c, "choices can make play go on forever (worth 0) is not supported: such values "
                                        "need not be attained")
        return "reachability", [c]

    def refuse_negative_payoffs(self, c: int, where: str) -> None:
        """:class:`ModelError` at the first terminal state whose payoff in component ``c`` is negative, in a game
        where ``where`` (the reachability and reward witnesses need payoffs >= 0)."""
        sp = self.sp
        for s in range(sp.n):
            if sp.pay[s] >= 0 and sp.payoffs[sp.pay[s]][c] < 0:
                raise ModelError(f"state {self.model.state_name(s)}: a negative payoff for "
                                 f"{self.model.player_names[c]} in a game where {where}")

    def reward_witness(self, chooser_comps: set[int], ec: list[bool], s: int) -> tuple[str, list[int]]:
        """``reward``: rewards at states from which play can go on forever (state ``s`` is one), where a play
        that never ends keeps the rewards it collected (PRISM-games' ``R[Fc phi]``).  Certified for the one
        objective ``c`` of the choosers (of the only player without choosers), whose rewards and payoffs must be
        >= 0; refused where a reward lies on an end component (play could collect it forever: the expected total
        reward can be infinite)."""
        model, sp, keys = self.model, self.sp, self.keys
        comps = chooser_comps or {k[0] for k in keys}
        if len(comps) > 1:
            raise ModelError(
                f"state {model.state_name(s)}: a reward at a state from which play can go on forever, in a game whose "
                "players have different objectives: not supported (the total reward is certified for one objective)")
        (c,) = comps
        who = model.player_names[c]
        for a, r in enumerate(sp.rew):
            if r >= 0 and sp.rewards[r][c] < 0:
                raise ModelError(
                    f"state {model.state_name(self.owner_of(a))}: a negative reward for {who} at a state from which "
                    "play can go on forever is not supported (the total reward is certified for rewards >= 0)")
        self.refuse_negative_payoffs(c, "play can go on forever while collecting rewards is not supported (the total "
                                        "reward is certified for payoffs >= 0)")
        from ..graph import end_component_actions

        first, start, succ = sp.first, sp.start, sp.succ
        for i, comp in enumerate(self.comps):
            if not ec[i]:
                continue
            for t, acts in end_component_actions(comp, lambda t: [
                    set(succ[start[a]:start[a + 1]]) for a in range(first[t], first[t + 1])]).items():
                for k in acts:
                    r = sp.rew[first[t] + k]
                    if r >= 0 and sp.rewards[r][c] > 0:
                        raise ModelError(
                            f"state {model.state_name(t)}: a reward on a cycle that the players can keep play on forever "
                            "(an end component): the expected total reward can be infinite there, not supported")
        return "reward", [c]

    def owner_of(self, a: int) -> int:
        """The state of choice ``a``."""
        return bisect.bisect_right(self.sp.first, a) - 1

    def surely_ending(self, ec: list[bool]) -> bytearray:
        """``ends[s]``: every play from ``s`` ends, whatever the players do (no end component is
        reachable): sinks first, a component reaches one if it holds one or moves to one that does."""
        sp, comp_of = self.sp, self.comp_of
        reach = bytearray(len(self.comps))
        ends = bytearray(sp.n)
        for i, comp in enumerate(self.comps):
            if ec[i]:
                reach[i] = 1
                continue
            hit = any(reach[comp_of[sp.succ[k]]] for s in comp
                      for k in range(sp.start[sp.first[s]], sp.start[sp.first[s + 1]]))
            if hit:
                reach[i] = 1
            else:
                for s in comp:
                    ends[s] = 1
        return ends


def self_loops(sp: Sparse) -> tuple[bytearray, bytearray]:
    """``(loops, sure)``: per state, whether some transition goes back to it, and whether some choice goes
    back to it surely (a one-state end component); one pass over the transitions.

    >>> self_loops(Sparse(2, 1, [0, 2, 2], [0, 1, 3], [0, 0, 1], [0, 1, 1], [1, 1/2], [0, -1], [-1, 0], [(1,)], [-1, -1], []))
    (bytearray(b'\\x01\\x00'), bytearray(b'\\x01\\x00'))
    """
    n, first, start, succ = sp.n, sp.first, sp.start, sp.succ
    loops, sure = bytearray(n), bytearray(n)
    ends = list(map(start.__getitem__, first))  # per state: where its transitions start (and the last end)
    for s, lo, hi in zip(range(n), ends, ends[1:]):
        if lo != hi and s in succ[lo:hi]:  # (one look at all the state's transitions; its actions only then)
            loops[s] = 1
            for a in range(first[s], first[s + 1]):
                if start[a + 1] - start[a] == 1 and succ[start[a]] == s:
                    sure[s] = 1
                    break
    return loops, sure


def reaching_positive(sp: Sparse, c: int, comps: list[list[int]] | None = None) -> bytearray:
    """``live[s]``: some play from ``s`` reaches a terminal state of positive payoff, or an action of
    positive reward, in component ``c``; from the other states every play is worth 0 there (payoffs and
    rewards >= 0).  With ``comps`` (the strongly connected components, sinks first) one pass over them:
    the states of a component reach the same states, so a component is live when one of its states is
    such a terminal state, has such an action or moves to a live state (of an earlier component);
    without, one walk back along every transition."""
    n = sp.n
    first, start, succ, pay = sp.first, sp.start, sp.succ, sp.pay
    positive = [p[c] > 0 for p in sp.payoffs]
    gain = [r[c] > 0 for r in sp.rewards]
    paid = [s for s in range(n) if pay[s] < 0 and any(
        r >= 0 and gain[r] for r in sp.rew[first[s]:first[s + 1]])] if any(gain) else []
    live = bytearray(n)
    for s in paid:
        live[s] = 1
    if comps is not None:
        for comp in comps:
            hit = False
            for s in comp:
                if pay[s] >= 0:
                    hit = positive[pay[s]]
                elif live[s]:
                    hit = True
                else:
                    for t in succ[start[first[s]]:start[first[s + 1]]]:
                        if live[t]:
                            hit = True
                            break
                if hit:
                    break
            if hit:
                for s in comp:
                    live[s] = 1
        return live
    preds: list[list[int] | None] = [None] * n
    for s in range(n):
        for k in range(start[first[s]], start[first[s + 1]]):
            t = succ[k]
            p = preds[t]
            if p is None:
                preds[t] = [s]
            else:
                p.append(s)
    stack = [s for s in range(n) if pay[s] >= 0 and positive[pay[s]]] + paid
    for s in stack:
        live[s] = 1
    while stack:
        for s in preds[stack.pop()] or ():
            if not live[s]:
                live[s] = 1
                stack.append(s)
    return live

def staying_core(sp: Sparse, comp: list[int], inside: set[int]) -> bool:
    """Whether the component holds an end component: its greatest subset ``X`` where every state
    has an action all of whose successors lie in ``X`` is non-empty (worklist, each action once).
    An action's successors are tested with one ``issuperset`` of their slice; the worklist stops as
    soon as the last state that could stay is dropped (then the answer is False)."""
    first, start, succ = sp.first, sp.start, sp.succ
    within = inside.issuperset
    count: dict[int, int] = {}  # per state that can stay: its actions still all inside
    waiting: dict[int, list[int]] = {}  # per state: the staying actions that move to it
    drop = []
    for s in comp:
        c = 0
        for a in range(first[s], first[s + 1]):
            ts = succ[start[a]:start[a + 1]]
            if within(ts):
                c += 1
                for t in ts:
                    w = waiting.get(t)
                    if w is None:
                        waiting[t] = [a]
                    else:
                        w.append(a)
        if c:
            count[s] = c
        else:
            drop.append(s)
    if not drop or not count:
        return bool(count)
    owner = {a: s for s in count for a in range(first[s], first[s + 1])}
    dead: set[int] = set()
    left = len(count)
    while drop:
        for a in waiting.get(drop.pop(), ()):
            if a not in dead:
                dead.add(a)
                s = owner[a]
                c = count[s] = count[s] - 1
                if not c:
                    left -= 1
                    if not left:
                        return False
                    drop.append(s)
    return True


def local_choice(sp: Sparse, s: int, inside) -> bool:
    """Whether every action of ``s`` moves inside the component (``inside(t)``: ``t`` is in it) with the same
    probabilities (then its choice is decided by the exits alone)."""
    ref = None
    for a in range(sp.first[s], sp.first[s + 1]):
        part = {sp.succ[k]: sp.pk[k] for k in range(sp.start[a], sp.start[a + 1]) if inside(sp.succ[k])}
        if ref is None:
            ref = part
        elif part != ref:
            return False
    return True
