"""Ranks and the final policy of a solved component, and the states that never end.

The ranks are the certificate's witness (:data:`~exactplay.engine.solution.WITNESSES`):

* termination: every action of every state has a successor of lower rank;
* reachability: at a state of positive value, some optimal action of a maximiser (every action of a
  minimiser or chance state) has a successor of lower rank;
* reward: as reachability, where the terminals and the states of value 0 have rank 0;
* policy: the chosen action has a successor of lower rank wherever the value or the reward is not 0.

Each rank is the least the rule allows (ranked states popped in layers of increasing rank).  The policy
is the first optimal action; under reachability a maximiser takes the first optimal action with a
successor of lower rank (a tied action that loops forever would not attain the value), and so under reward.
"""

from __future__ import annotations

import heapq

__all__ = ["finish", "finish_one", "rank", "never_ending"]


def finish_one(eng, s: int, opt: list[int] | None) -> None:
    """:func:`finish` for a component of one state ``s`` (``opt``: its optimal actions, None if it does not
    choose): the same ranks and policy, without the tables of a larger component.  Its successors other
    than itself are ranked already, so each relevant action's lowest successor rank decides: an ``every``
    state gets ``1 +`` the largest of them (all needed), another ``1 +`` the smallest."""
    sp, ranks, V = eng.sp, eng.ranks, eng.V
    w = eng.witness_name
    a0 = sp.first[s]
    if w == "termination":
        acts, every = range(a0, sp.first[s + 1]), True
    elif w == "reachability" or w == "reward":
        if V[s][0] > 0:
            m = sp.mover[s]
            if opt is not None and eng.ckeys[m][1] > 0:
                acts, every = [a0 + a for a in opt], False
            else:
                acts, every = range(a0, sp.first[s + 1]), True
        else:
            acts = None
            if w == "reward":
                ranks[s] = 0
    else:
        acts, every = (a0 + (opt[0] if opt is not None else 0),), False
    if acts is not None and ranks[s] is None:
        succ, start = sp.succ, sp.start
        best = None
        for a in acts:
            low = None
            for k in range(start[a], start[a + 1]):
                t = succ[k]
                if t != s:
                    r = ranks[t]
                    if r is not None and (low is None or r < low):
                        low = r
            if low is None:
                if every:
                    best = None
                    break
                continue
            if best is None or (low > best if every else low < best):
                best = low
        if best is not None:
            ranks[s] = best + 1
    if opt is None:
        eng.policy[s] = 0
    else:
        choice = opt[0]
        if (w == "reachability" or w == "reward") and len(opt) > 1:
            r = ranks[s]
            if r and eng.ckeys[sp.mover[s]][1] > 0:  # (rank 0: of value 0 under reward)
                choice = next(a for a in opt if any(
                    ranks[sp.succ[k]] is not None and ranks[sp.succ[k]] < r
                    for k in range(sp.start[a0 + a], sp.start[a0 + a + 1])))
        eng.policy[s] = choice
    if ranks[s] is None and (w == "termination" or w == "reward" or (w == "reachability" and V[s][0] > 0) or (
            w == "policy" and (any(V[s]) or eng.rw[a0 + eng.policy[s]] is not None))):
        raise RuntimeError(f"internal error: no {w} witness for state {eng.model.state_name(s)}")


def finish(eng, states: list[int], opt: dict[int, list[int]]) -> None:
    """Ranks for ``states`` (values known), then the policy by the tie rule.

    Relevant actions: termination, every action of every state (all needed); reachability and reward, in
    a state of positive value the optimal actions of a maximiser (one needed), every action elsewhere (all
    needed; under reward the states of value 0 have rank 0); policy, the chosen action.  The policy is the first optimal action, under reachability a
    maximiser's first optimal action with a successor of lower rank."""
    sp, ranks, policy, V = eng.sp, eng.ranks, eng.policy, eng.V
    w = eng.witness_name
    relevant: dict[int, list[int]] = {}
    every: set[int] = set()
    if w == "termination":
        for s in states:
            relevant[s] = list(range(sp.first[s], sp.first[s + 1]))
        every = set(states)
    elif w == "reachability" or w == "reward":
        for s in states:
            if w == "reward" and not V[s][0] > 0:
                ranks[s] = 0
            elif V[s][0] > 0:
                a0 = sp.first[s]
                m = sp.mover[s]
                if m >= 0 and eng.nch(s) > 1 and eng.ckeys[m][1] > 0:
                    relevant[s] = [a0 + a for a in opt[s]]
                else:
                    relevant[s] = list(range(a0, sp.first[s + 1]))
                    every.add(s)
    else:
        for s in states:
            relevant[s] = [sp.first[s] + (opt[s][0] if s in opt else 0)]
    rank(eng, states, relevant, every)
    for s in states:
        o = opt.get(s)
        if o is None:
            policy[s] = 0
            continue
        choice = o[0]
        if (w == "reachability" or w == "reward") and len(o) > 1:
            r = ranks[s]
            if r and eng.ckeys[sp.mover[s]][1] > 0:  # (rank 0: of value 0 under reward)
                a0 = sp.first[s]
                choice = next(a for a in o if any(
                    ranks[sp.succ[k]] is not None and ranks[sp.succ[k]] < r
                    for k in range(sp.start[a0 + a], sp.start[a0 + a + 1])))
        policy[s] = choice
    for s in states:  # the witness must exist: an unranked state where one is required is an engine bug
        if ranks[s] is None and (w == "termination" or w == "reward" or (w == "reachability" and V[s][0] > 0) or (
                w == "policy" and (any(V[s]) or eng.rw[sp.first[s] + policy[s]] is not None))):
            raise RuntimeError(f"internal error: no {w} witness for state {eng.model.state_name(s)}")


def rank(eng, states: list[int], relevant: dict[int, list[int]], every: set[int]) -> None:
    """Least ranks: an ``every`` state gets ``1 + r`` once each relevant action has a successor of rank
    ``<= r``, another once one relevant action has; ranked states are popped in layers of increasing rank."""
    sp, ranks = eng.sp, eng.ranks
    succ, start = sp.succ, sp.start
    if len(states) == 1:
        s = states[0]
        acts = relevant.get(s)
        if acts is None or ranks[s] is not None:
            return
        lowest = []
        for a in acts:
            found = [ranks[succ[k]] for k in range(start[a], start[a + 1])
                     if succ[k] != s and ranks[succ[k]] is not None]
            lowest.append(min(found) if found else None)
        if s in every:
            if lowest and None not in lowest:
                ranks[s] = 1 + max(lowest)
        else:
            found = [r for r in lowest if r is not None]
            if found:
                ranks[s] = 1 + min(found)
        return
    preds: dict[int, list[int]] = {}
    need: dict[int, int] = {}
    owner: list[int] = []
    for s, acts in relevant.items():
        need[s] = len(acts) if s in every else 1
        for a in acts:
            i = len(owner)
            owner.append(s)
            for k in range(start[a], start[a + 1]):
                preds.setdefault(succ[k], []).append(i)
    layers: dict[int, list[int]] = {}
    for t in preds:
        if (r := ranks[t]) is not None:  # (a member ranked already: of value 0 under reward, rank 0)
            layers.setdefault(r, []).append(t)
    order = list(layers)
    heapq.heapify(order)
    done = bytearray(len(owner))
    while order:
        r = heapq.heappop(order)
        nxt = layers.get(r + 1)
        for t in layers.pop(r):
            for i in preds.get(t, ()):
                s = owner[i]
                if ranks[s] is not None or done[i]:
                    continue
                done[i] = 1
                need[s] -= 1
                if not need[s]:
                    ranks[s] = r + 1
                    if nxt is None:
                        nxt = layers[r + 1] = []
                        heapq.heappush(order, r + 1)
                    nxt.append(s)


def never_ending(eng) -> list[int]:
    """States from which no play ends under the final policy, sinks first component by component."""
    sp, policy = eng.sp, eng.policy
    first, start, succ, pay = sp.first, sp.start, sp.succ, sp.pay
    reach = bytearray(sp.n)
    for comp in eng.comps:
        if len(comp) == 1:  # (most components: one state, its successors decided)
            s = comp[0]
            if pay[s] >= 0:
                reach[s] = 1
            else:
                a = first[s] + policy[s]
                for t in succ[start[a]:start[a + 1]]:
                    if reach[t]:
                        reach[s] = 1
                        break
            continue
        # a larger component: its states whose policy moves reach a state already reached, walking back
        waiting: dict[int, list[int]] = {}
        stack = []
        for s in comp:
            if pay[s] >= 0:
                reach[s] = 1
                stack.append(s)
                continue
            a = first[s] + policy[s]
            nxt = succ[start[a]:start[a + 1]]
            for t in nxt:
                if reach[t]:
                    reach[s] = 1
                    stack.append(s)
                    break
            else:
                for t in nxt:
                    w = waiting.get(t)
                    if w is None:
                        waiting[t] = [s]
                    else:
                        w.append(s)
        while stack:
            for s in waiting.get(stack.pop(), ()):
                if not reach[s]:
                    reach[s] = 1
                    stack.append(s)
    return [s for s in range(sp.n) if not reach[s]]
