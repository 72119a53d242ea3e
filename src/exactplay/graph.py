"""Graph algorithms shared by the model and the engine: strongly connected components (Tarjan,
iterative) and end components.

:func:`tarjan` returns the components of a directed graph in the order
Tarjan's algorithm closes them, which is sink-first: a component is emitted
only after every component reachable from it.  Solving them in that order
means every successor outside the current component is already known.

>>> tarjan([[1], [0, 2], [], [2]])
[[2], [1, 0], [3]]
"""

from __future__ import annotations

from typing import Callable, Sequence

__all__ = ["tarjan", "tarjan_indexed", "has_end_component", "end_component_states", "end_component_actions", "staying_core"]


def tarjan(adj: Sequence[Sequence[int]]) -> list[list[int]]:
    """SCCs of the graph ``adj`` (node -> successors), sink-first."""
    return tarjan_indexed(adj)[0]


def tarjan_indexed(adj: Sequence[Sequence[int]]) -> tuple[list[list[int]], list[int]]:
    """:func:`tarjan`'s components, and ``comp_of[v]``, the position of ``v``'s component in that list.

    (A node's ``low`` is not read once its component is closed: it becomes ``comp_of``.)

    >>> tarjan_indexed([[1], [0, 2], [], [2]])
    ([[2], [1, 0], [3]], [1, 1, 0, 2])
    """
    n = len(adj)
    index = [-1] * n
    low = [0] * n
    on_stack = bytearray(n)
    stack: list[int] = []
    out: list[list[int]] = []
    counter = 0
    for root in range(n):
        if index[root] >= 0:
            continue
        index[root] = low[root] = counter
        counter += 1
        stack.append(root)
        on_stack[root] = 1
        work = [(root, iter(adj[root]))]
        while work:
            v, it = work[-1]
            advanced = False
            for w in it:
                iw = index[w]
                if iw < 0:
                    index[w] = low[w] = counter
                    counter += 1
                    stack.append(w)
                    on_stack[w] = 1
                    work.append((w, iter(adj[w])))
                    advanced = True
                    break
                if on_stack[w] and iw < low[v]:
                    low[v] = iw
            if advanced:
                continue
            work.pop()
            lv = low[v]
            if work:
                u = work[-1][0]
                if lv < low[u]:
                    low[u] = lv
            if lv == index[v]:
                comp = []
                k = len(out)
                while True:
                    w = stack.pop()
                    on_stack[w] = 0
                    low[w] = k
                    comp.append(w)
                    if w == v:
                        break
                out.append(comp)
    return out, low


def has_end_component(states: Sequence[int], action_succ: Callable[[int], Sequence[set[int]]]) -> bool:
    """Whether some way of choosing actions keeps play inside ``states`` forever: whether
    :func:`staying_core` is non-empty (one worklist pass, no strongly connected components).

    >>> has_end_component([0, 1], lambda s: [{1 - s}, {2}]), has_end_component([0, 1], lambda s: [{1 - s, 2}])
    (True, False)
    """
    trans = {s: [[(t, None) for t in succ] for succ in action_succ(s)] for s in states}
    return bool(staying_core(states, trans))


def staying_core(states: Sequence[int], trans) -> set[int]:
    """The greatest set ``R`` of ``states`` where every state has an action all of whose successors
    lie in ``R`` (``trans[s]``: per action of ``s``, its distribution ``((t, p), ...)``).

    ``R`` is empty exactly when ``states`` holds no end component: fixing such an action at each
    state of a non-empty ``R`` gives a Markov chain closed in ``R``, whose bottom strongly connected
    components are end components; and every end component inside ``states`` lies in ``R`` (each
    of its states keeps an action inside it).  So every state of ``R`` reaches an end component,
    and ``R`` holds them all: ``R`` and the end components' states are reached from the same states.

    The worklist (an attractor of leaving): an action counts while all its successors are in; a
    state whose last counted action stops counting is dropped, and the actions that move into it
    stop counting.  Each edge inside is looked at a bounded number of times.

    >>> sorted(staying_core([0, 1, 2], {0: [((1, 1), (2, 1))], 1: [((0, 1),)], 2: [((2, 1),)]}))
    [0, 1, 2]
    >>> sorted(staying_core([0, 1, 2], {0: [((1, 1), (3, 1))], 1: [((0, 1),)], 2: [((2, 1),)]}))
    [2]
    >>> staying_core([0, 1], {0: [((1, 1),)], 1: [((0, 1), (2, 1))]})
    set()
    """
    members = set(states)
    staying: dict[int, int] = {}  # per state: its actions all of whose successors are still in
    dropped = []
    for s in states:  # first only count (often no state drops: then ``R`` is all of ``states``)
        k = 0
        for d in trans[s]:
            for t, _ in d:
                if t not in members:
                    break
            else:
                k += 1
        if k:
            staying[s] = k
        else:
            dropped.append(s)
    if not dropped:
        return members
    users: dict[int, list[list]] = {}  # state t -> the counted actions [s, counts] with t as a successor
    for s in staying:
        for d in trans[s]:
            for t, _ in d:
                if t not in members:
                    break
            else:
                action = [s, True]
                for t, _ in d:
                    into = users.get(t)
                    if into is None:
                        users[t] = [action]
                    else:
                        into.append(action)
    gone = set(dropped)
    while dropped:
        for action in users.get(dropped.pop(), ()):
            if action[1]:
                action[1] = False
                s = action[0]
                staying[s] -= 1
                if not staying[s]:
                    gone.add(s)
                    dropped.append(s)
    return members - gone


def end_component_states(states: Sequence[int], action_succ: Callable[[int], Sequence[set[int]]]) -> set[int]:
    """The states of the (maximal) end components inside ``states``: where some way of choosing
    actions keeps play forever (the states of :func:`end_component_actions`).

    >>> sorted(end_component_states([0, 1, 2], lambda s: {0: [{1, 2}], 1: [{0}], 2: [{2}]}[s]))
    [2]
    >>> sorted(end_component_states([0, 1, 2, 3], lambda s: [{(s + 1) % 3}, {3}] if s < 3 else [{0}, {3, 2}]))
    [0, 1, 2, 3]
    """
    return set(end_component_actions(states, action_succ))


def end_component_actions(states: Sequence[int], action_succ: Callable[[int], Sequence[set[int]]]) -> dict[int, list[int]]:
    """Per state of a (maximal) end component inside ``states``, the indices of its actions that lie in
    one: the actions some way of choosing can take forever while play stays in the component.

    ``action_succ(s)`` gives, per action of ``s``, its set of successors.  The classic
    refinement: keep only actions all of whose successors stay in the state's own block (at
    first, the whole set) among the surviving states; a state left without such an action is
    dropped, and the actions of its predecessors are checked again at once (an attractor, so
    one round removes every state that cannot stay); then the survivors are split into SCCs of
    the kept actions (the new blocks); repeat until no block splits.  The kept actions are then
    those of the end components: each block is strongly connected under them and closed.

    >>> end_component_actions([0, 1], lambda s: [{1 - s}, {2}])
    {0: [0], 1: [0]}
    >>> end_component_actions([0, 1], lambda s: [{0, 1}] if s == 0 else [{1}, {0}])
    {0: [0], 1: [0, 1]}
    >>> end_component_actions([0, 1], lambda s: [{1}] if s == 0 else [{1}])
    {1: [0]}
    """
    current = set(states)
    succs: dict[int, list[set[int]]] = {s: [set(succ) for succ in action_succ(s)] for s in current}
    kept: dict[int, list[int]] = {s: list(range(len(succs[s]))) for s in current}
    block = {s: 0 for s in current}
    while current:
        preds: dict[int, list[int]] = {}
        for s in current:
            for a in kept[s]:
                for t in succs[s][a]:
                    if t != s:
                        preds.setdefault(t, []).append(s)
        stack = list(current)
        while stack:
            s = stack.pop()
            if s not in current:
                continue
            b = block[s]
            acts = [a for a in kept[s] if all(t in current and block[t] == b for t in succs[s][a])]
            if len(acts) == len(kept[s]):
                continue
            kept[s] = acts
            if not acts:
                current.discard(s)
                stack.extend(u for u in preds.get(s, ()) if u in current)
        if not current:
            return {}
        nodes = sorted(current)
        order = {s: i for i, s in enumerate(nodes)}
        adj_list = [sorted({order[t] for a in kept[s] for t in succs[s][a]}) for s in nodes]
        comps = tarjan(adj_list)
        if len(comps) == len({block[s] for s in current}):  # no block split: each is strongly connected
            return {s: kept[s] for s in nodes}
        for k, comp in enumerate(comps):
            for i in comp:
                block[nodes[i]] = k
    return {}
