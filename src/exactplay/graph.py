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

from typing import Callable, Iterable, Mapping, Sequence

__all__ = ["tarjan", "has_end_component", "end_component_states", "reaching"]


def tarjan(adj: Sequence[Sequence[int]], nodes: Sequence[int] | None = None) -> list[list[int]]:
    """SCCs of the graph ``adj`` (node -> successors), sink-first.

    With ``nodes`` only those nodes are visited and edges leaving them are ignored.
    """
    n = len(adj)
    allowed = None
    if nodes is not None:
        allowed = set(nodes)
        roots = list(nodes)
    else:
        roots = range(n)
    index = {}
    low = {}
    on_stack = set()
    stack: list[int] = []
    out: list[list[int]] = []
    counter = 0
    for root in roots:
        if root in index:
            continue
        index[root] = low[root] = counter
        counter += 1
        stack.append(root)
        on_stack.add(root)
        work = [(root, iter(adj[root]))]
        while work:
            v, it = work[-1]
            advanced = False
            for w in it:
                if allowed is not None and w not in allowed:
                    continue
                if w not in index:
                    index[w] = low[w] = counter
                    counter += 1
                    stack.append(w)
                    on_stack.add(w)
                    work.append((w, iter(adj[w])))
                    advanced = True
                    break
                if w in on_stack and index[w] < low[v]:
                    low[v] = index[w]
            if advanced:
                continue
            work.pop()
            if work:
                u = work[-1][0]
                if low[v] < low[u]:
                    low[u] = low[v]
            if low[v] == index[v]:
                comp = []
                while True:
                    w = stack.pop()
                    on_stack.discard(w)
                    comp.append(w)
                    if w == v:
                        break
                out.append(comp)
    return out


def reaching(targets: Iterable[int], preds: Mapping[int, Sequence[int]]) -> set[int]:
    """The targets and every node with a path to one, walking ``preds`` (node -> predecessors).

    >>> sorted(reaching([2], {2: [1], 1: [0], 3: [2]}))
    [0, 1, 2]
    """
    out = set(targets)
    stack = list(out)
    while stack:
        t = stack.pop()
        for s in preds.get(t, ()):
            if s not in out:
                out.add(s)
                stack.append(s)
    return out


def has_end_component(states: Sequence[int], action_succ: Callable[[int], Sequence[set[int]]]) -> bool:
    """Whether some way of choosing actions keeps play inside ``states`` forever."""
    return bool(end_component_states(states, action_succ))


def end_component_states(states: Sequence[int], action_succ: Callable[[int], Sequence[set[int]]]) -> set[int]:
    """The states of the (maximal) end components inside ``states``: where some way of choosing
    actions keeps play forever.

    ``action_succ(s)`` gives, per action of ``s``, its set of successors.  The classic
    refinement: keep only actions all of whose successors stay in the state's own block (at
    first, the whole set), drop states left without such an action, split what remains into
    SCCs of the kept actions (the new blocks) and drop single states without a staying
    self-loop; repeat until nothing changes.

    >>> sorted(end_component_states([0, 1, 2], lambda s: {0: [{1, 2}], 1: [{0}], 2: [{2}]}[s]))
    [2]
    """
    current = set(states)
    block = {s: 0 for s in current}
    while current:
        kept: dict[int, list[set[int]]] = {}
        for s in current:
            acts = [succ for succ in action_succ(s) if all(block.get(t, -1) == block[s] for t in succ)]
            if acts:
                kept[s] = acts
        if not kept:
            return set()
        nodes = list(kept)
        order = {s: i for i, s in enumerate(nodes)}
        adj_list = [sorted({order[t] for succ in kept[s] for t in succ if t in order}) for s in nodes]
        comps = tarjan(adj_list)
        survivors: set[int] = set()
        new_block: dict[int, int] = {}
        for k, comp in enumerate(comps):
            members = {nodes[i] for i in comp}
            if len(members) == 1:
                (s,) = members
                if not any(succ == {s} for succ in kept[s]):
                    continue
            survivors |= members
            for s in members:
                new_block[s] = k
        if survivors == current and len(set(new_block.values())) == len(set(block.values())):
            return current
        current, block = survivors, new_block
    return set()
