"""Strongly connected components of a model's arrays, sinks first (Tarjan, iterative).

The graph: state ``s`` moves to ``succ[k]`` for the transitions ``k`` of its choices,
``start[first[s]] .. start[first[s+1]]`` (:class:`~exactplay.model.sparse.Sparse`).  Tarjan's algorithm
closes a component only after every component it reaches, so the list comes out sinks first: the
order in which the engine solves them (a component reads only the values of earlier ones).

>>> # 0 -> 1 -> 2 -> 1, 2 -> 3
>>> comps, comp_of = components(4, [0, 1, 2, 4, 4], [0, 1, 2, 3, 4], [1, 2, 1, 3])
>>> comps, comp_of
([[3], [2, 1], [0]], [2, 1, 1, 0])
"""

from __future__ import annotations

__all__ = ["components"]


def components(n: int, first: list[int], start: list[int], succ: list[int],
               nodes: list[int] | None = None) -> tuple[list[list[int]], list[int]]:
    """``(comps, comp_of)``: the components sinks first, and the position of each state's component.

    ``nodes``: the components of the subgraph on these states only (edges out of it are not
    followed; ``comp_of`` is ``-1`` outside it).

    >>> components(4, [0, 1, 2, 4, 4], [0, 1, 2, 3, 4], [1, 2, 1, 3], nodes=[1, 2])[0]
    [[2, 1]]
    """
    index = [-1] * n
    low = [0] * n
    on = bytearray(n)
    comp_of = [-1] * n
    stack: list[int] = []
    comps: list[list[int]] = []
    counter = 0
    if nodes is not None:  # outside the subgraph: marked visited and never on the stack
        index = [n] * n
        for s in nodes:
            index[s] = -1
    for root in (range(n) if nodes is None else nodes):
        if index[root] >= 0:
            continue
        index[root] = low[root] = counter
        counter += 1
        stack.append(root)
        on[root] = 1
        calls = [(root, start[first[root]], start[first[root + 1]])]
        while calls:
            v, pos, end = calls[-1]
            descended = False
            while pos < end:
                w = succ[pos]
                pos += 1
                if index[w] < 0:
                    calls[-1] = (v, pos, end)
                    index[w] = low[w] = counter
                    counter += 1
                    stack.append(w)
                    on[w] = 1
                    calls.append((w, start[first[w]], start[first[w + 1]]))
                    descended = True
                    break
                if on[w] and index[w] < low[v]:
                    low[v] = index[w]
            if descended:
                continue
            calls.pop()
            if low[v] == index[v]:
                k = len(comps)
                comp = []
                while True:
                    w = stack.pop()
                    on[w] = 0
                    comp_of[w] = k
                    comp.append(w)
                    if w == v:
                        break
                comps.append(comp)
            if calls:
                u = calls[-1][0]
                if low[v] < low[u]:
                    low[u] = low[v]
    return comps, comp_of
