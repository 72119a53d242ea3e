"""Graphs for the checker: strongly connected components (iterative Tarjan).

Standard library only; nothing recurses, so no model is too deep.
"""

from __future__ import annotations


def sccs(succ: list[list[int]]) -> list[int]:
    """Iterative Tarjan: the component number of every node, sinks first (a component's number is
    higher than those of the components it reaches)."""
    n = len(succ)
    index = [-1] * n
    low = [0] * n
    comp = [-1] * n  # -1 while the node is unvisited or on the stack
    stack: list[int] = []
    counter = 0
    ncomp = 0
    for root in range(n):
        if index[root] >= 0:
            continue
        index[root] = low[root] = counter
        counter += 1
        stack.append(root)
        work = [(root, iter(succ[root]))]
        while work:
            v, it = work[-1]
            for w in it:
                if index[w] < 0:
                    index[w] = low[w] = counter
                    counter += 1
                    stack.append(w)
                    work.append((w, iter(succ[w])))
                    break
                if comp[w] < 0 and index[w] < low[v]:  # visited, not yet in a component: on the stack
                    low[v] = index[w]
            else:
                work.pop()
                if work:
                    u = work[-1][0]
                    if low[v] < low[u]:
                        low[u] = low[v]
                if low[v] == index[v]:
                    while True:
                        w = stack.pop()
                        comp[w] = ncomp
                        if w == v:
                            break
                    ncomp += 1
    return comp
