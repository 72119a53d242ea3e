"""Attractor passes of the engine (worklists, each edge once): the minimiser's zero region of a
cyclic component, and the states that never end under a policy.

The zero region: in a component ``S`` where the minimiser (states ``miners``) plays every action and the other
states play ``pol``, the states of *positive* value are the least set ``P`` with

    s in P  <=>  every action of s considered has a successor in P, or outside S of positive value

(a minimiser's state needs all its actions to hit ``P``: else she keeps play away from it).  The
zero region is ``S \\ P``.  The least fixed point is computed by a worklist (each action counted
once, as in :func:`exactplay.engine.ranks.rank_component`), not by sweeps until nothing changes.

>>> # 0 (min) -> {1} or {0}; 1 -> {2 outside, positive}; 2 (min) -> {2} or {1}
>>> dist = {0: [((1, 1),), ((0, 1),)], 1: [((9, 1),)], 2: [((2, 1),), ((1, 1),)]}
>>> sorted(zero_region([0, 1, 2], lambda s: dist[s], {0, 2}, {}, lambda t: t == 9))
[0, 2]
"""

from __future__ import annotations

from typing import Callable, Sequence

__all__ = ["zero_region", "never_ending"]


def zero_region(S: Sequence[int], dist: Callable, miners: set[int], pol: dict[int, int],
                outside_positive: Callable[[int], bool]) -> set[int]:
    """States of ``S`` where the minimiser can keep play away from positive value forever.

    ``dist(s)``: the actions' distributions of ``s``; the non-minimiser ``s`` plays ``pol.get(s, 0)``;
    ``outside_positive(t)``: whether ``t`` (outside ``S``) has a positive value.  Each considered
    action not hitting a positive outside state gets a number ``i`` (its state ``owner[i]``, flag
    ``hit[i]``); ``need[s]`` counts the actions of ``s`` not yet hitting ``P``, ``s`` joins ``P`` at 0."""
    need = dict.fromkeys(S, 0)
    waiting: dict[int, list[int]] = {s: [] for s in S}  # state t of S -> the actions (numbers) with t as a
    wait_of = waiting.get  # successor; also the membership test of S (one look-up per successor)
    owner: list[int] = []
    hit = bytearray()
    stack: list[int] = []
    out_pos: dict[int, bool] = {}
    for s in S:
        acts = dist(s)
        open_count = 0
        for d in (acts if s in miners else (acts[pol.get(s, 0)],)):
            i = len(owner)
            owner.append(s)
            for t, _ in d:
                w = wait_of(t)
                if w is not None:
                    w.append(i)
                    continue
                x = out_pos.get(t)
                if x is None:
                    x = out_pos[t] = outside_positive(t)
                if x:
                    hit.append(1)  # hits P at once: its waiting entries are void
                    break
            else:
                hit.append(0)
                open_count += 1
        if open_count:
            need[s] = open_count
        else:
            stack.append(s)
    while stack:
        for i in waiting[stack.pop()]:
            if not hit[i]:
                hit[i] = 1
                s = owner[i]
                left = need[s] - 1
                need[s] = left
                if not left:
                    stack.append(s)
    return {s for s, left in need.items() if left}


def never_ending(terminal: Sequence, trans: Sequence, policy: Sequence[int],
                 comps: Sequence[Sequence[int]] | None = None) -> list[int]:
    """States from which no play ends under ``policy`` (no terminal state is reachable), ascending.

    ``comps``: the strongly connected components of the whole model (every action), sinks first,
    if the caller has them: then each component is decided after every component it moves to, by
    one look at its states' policy successors (up to the first that reaches a terminal state),
    and a walk back along the policy's edges only among the states that look found nothing
    (:func:`_never_ending_sink_first`).  Without them, one walk back from the terminal states.

    >>> never_ending([None, None, (1,)], [[((1, 1),)], [((0, 1),)], []], [0, 0, None])
    [0, 1]
    >>> never_ending([None, None, (1,)], [[((1, 1),)], [((0, 1),), ((2, 1),)]], [0, 1, None])
    []
    >>> never_ending([None, None, (1,)], [[((1, 1),)], [((0, 1),), ((2, 1),)]], [0, 0, None], [[2], [1, 0]])
    [0, 1]
    """
    if comps is not None:
        return _never_ending_sink_first(terminal, trans, policy, comps)
    n = len(terminal)
    preds: list[list[int]] = [[] for _ in range(n)]
    reach = bytearray(n)  # reach[s]: a terminal state is reachable from s under the policy
    stack = []
    for s in range(n):
        if terminal[s] is None:
            for t, _ in trans[s][policy[s]]:
                preds[t].append(s)
        else:
            reach[s] = 1
            stack.append(s)
    while stack:
        for s in preds[stack.pop()]:
            if not reach[s]:
                reach[s] = 1
                stack.append(s)
    return [s for s in range(n) if not reach[s]]


def _never_ending_sink_first(terminal: Sequence, trans: Sequence, policy: Sequence[int],
                             comps: Sequence[Sequence[int]]) -> list[int]:
    """:func:`never_ending` component by component, sinks first (a policy edge stays in its
    component or goes to an earlier one, already decided)."""
    n = len(terminal)
    reach = bytearray(n)
    for comp in comps:
        rest = []
        for s in comp:
            if terminal[s] is not None:
                reach[s] = 1
                continue
            for t, _ in trans[s][policy[s]]:
                if reach[t]:
                    reach[s] = 1
                    break
            else:
                rest.append(s)
        if not rest or len(comp) == 1:  # a lone state's successors are decided (or itself)
            continue
        # some states of a cyclic component found no reached successor in that look (maybe one
        # reached later in it): look again, and walk back from the states reached now
        waiting: dict[int, list[int]] = {}
        stack = []
        for s in rest:
            d = trans[s][policy[s]]
            for t, _ in d:
                if reach[t]:
                    reach[s] = 1
                    stack.append(s)
                    break
            else:
                for t, _ in d:
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
    return [s for s in range(n) if not reach[s]]
