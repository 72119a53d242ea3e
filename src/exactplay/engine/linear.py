"""Exact evaluation of a fixed policy inside one strongly connected component.

Under a fixed action per state the values of a component ``S`` solve::

    V(s) = r(s) + sum_{t in S} p(s,t) V(t) + sum_{t not in S} p(s,t) V(t)

with the values outside ``S`` known.  States of ``S`` that cannot leave ``S``
under the policy never end: they are worth 0 (:func:`closed_states`).  The
rest is solved without a dense elimination of the whole component:

1. A depth-first search marks the target of every back edge as an *unknown*
   (a feedback vertex set: every cycle contains a back edge, so removing the
   unknowns leaves an acyclic graph).
2. In the search's post-order every other state becomes an affine form
   ``c(s) + sum_k a_k(s) x_k`` in the unknowns (successors finish first).
3. The unknowns' own equations ``x_k = c(f_k) + sum_j a_j(f_k) x_j`` form a
   small dense system ``(I - A) x = c``, solved by Gauss-Jordan elimination
   over the exact field, one right-hand side per payoff component.

In dice games the unknowns are the few states where a turn starts (e.g. two
in a Pig component of hundreds of states), so the cost is a handful of dense
unknowns plus one pass over the component.
"""

from __future__ import annotations

from typing import Any, Callable, Sequence

__all__ = ["closed_states", "evaluate_component", "gauss_solve", "SingularSystem"]


class SingularSystem(ArithmeticError):
    """The linear system has no unique solution (a bug: closed states are removed first)."""


def closed_states(nodes: Sequence[int], succ: Callable[[int], Sequence[int]], in_s: set[int]) -> set[int]:
    """States of ``nodes`` from which no path under ``succ`` leaves ``in_s``: ``nodes`` less the
    states that reach an exit (a state with a successor outside ``in_s``), walking the edges back.

    >>> sorted(closed_states([0, 1, 2, 3], {0: [1], 1: [0, 9], 2: [3], 3: [2]}.__getitem__, {0, 1, 2, 3}))
    [2, 3]
    """
    exits = []
    preds: dict[int, list[int]] = {}
    for s in nodes:
        leaves = False
        for t in succ(s):
            if t in in_s:
                w = preds.get(t)
                if w is None:
                    preds[t] = [s]
                else:
                    w.append(s)
            else:
                leaves = True
        if leaves:
            exits.append(s)
    reach = set(exits)
    stack = exits
    while stack:
        for s in preds.get(stack.pop(), ()):
            if s not in reach:
                reach.add(s)
                stack.append(s)
    return set() if len(reach) == len(nodes) else set(nodes) - reach


def _equations(forms: dict, unknown: dict, zero, one) -> tuple[list, list]:
    """``(A, c)``: the rows ``x_f - sum_k coef_k x_k = const`` of the unknowns' affine forms
    ``forms[f] = (const, coef)``, row ``unknown[f]`` for each unknown ``f``."""
    A, rhs = [], []
    for f in sorted(unknown, key=unknown.get):
        const, coef = forms[f]
        row = [zero] * len(unknown)
        row[unknown[f]] = one
        for k, a in coef.items():
            row[k] = row[k] - a
        A.append(row)
        rhs.append(const)
    return A, rhs


def gauss_solve(A: list[list[Any]], rhs: list[list[Any]], zero: Any) -> list[list[Any]]:
    """Solve ``A x = rhs`` exactly (Gauss-Jordan, first non-zero pivot); rows of ``rhs`` are vectors.

    >>> from fractions import Fraction as F
    >>> gauss_solve([[F(2), F(1)], [F(1), F(3)]], [[F(3)], [F(5)]], F(0))
    [[Fraction(4, 5)], [Fraction(7, 5)]]
    """
    m = len(A)
    rows = [list(A[i]) + list(rhs[i]) for i in range(m)]
    for col in range(m):
        piv = next((r for r in range(col, m) if rows[r][col] != zero), None)
        if piv is None:
            raise SingularSystem(f"singular system at column {col} of {m}")
        if piv != col:
            rows[col], rows[piv] = rows[piv], rows[col]
        prow = rows[col]
        inv = 1 / prow[col]
        prow = rows[col] = [x * inv for x in prow]
        for r in range(m):
            if r == col:
                continue
            f = rows[r][col]
            if f != zero:
                rr = rows[r]
                rows[r] = [a - f * b for a, b in zip(rr, prow)]
    return [row[m:] for row in rows]


def evaluate_component(
    nodes: Sequence[int],
    dist: Callable[[int], Sequence[tuple[int, Any]]],
    reward: Callable[[int], Sequence[Any] | None],
    known: Callable[[int], Sequence[Any]],
    n_comp: int,
    zero: Any,
    one: Any,
) -> tuple[dict[int, tuple], int]:
    """Values of ``nodes`` (all able to leave the component) under a fixed policy,
    and the number of unknowns of the dense system that was solved.

    ``dist(s)`` is the policy's distribution at ``s`` (successor, probability),
    ``reward(s)`` its reward vector or ``None``, ``known(t)`` the value vector of
    a successor outside ``nodes``.
    """
    in_s = set(nodes)
    unknown, post = _feedback_order(nodes, dist, in_s)
    if n_comp == 1:
        return _evaluate_scalar(post, unknown, in_s, dist, reward, known, zero, one), len(unknown)
    forms: dict[int, tuple[list, dict]] = {}
    for v in post:
        r = reward(v)
        const = list(r) if r is not None else [zero] * n_comp
        coef: dict[int, Any] = {}
        for t, p in dist(v):
            if t not in in_s:
                kv = known(t)
                for c in range(n_comp):
                    if kv[c]:
                        const[c] = const[c] + p * kv[c]
            elif t in unknown:
                k = unknown[t]
                coef[k] = coef.get(k, zero) + p
            else:
                tc, tk = forms[t]
                for c in range(n_comp):
                    if tc[c]:
                        const[c] = const[c] + p * tc[c]
                for k, a in tk.items():
                    coef[k] = coef.get(k, zero) + p * a
        forms[v] = (const, coef)
    m = len(unknown)
    xs: list[list[Any]] = []
    if m:
        A, rhs = _equations(forms, unknown, zero, one)
        xs = gauss_solve(A, rhs, zero)
    out: dict[int, tuple] = {}
    for v in post:
        if v in unknown:
            out[v] = tuple(xs[unknown[v]])
            continue
        const, coef = forms[v]
        val = list(const)
        for k, a in coef.items():
            xk = xs[k]
            for c in range(n_comp):
                if xk[c]:
                    val[c] = val[c] + a * xk[c]
        out[v] = tuple(val)
    return out, m


def _feedback_order(nodes, dist, in_s) -> tuple[dict[int, int], list[int]]:
    """Depth-first post-order of ``nodes`` and the unknowns: the targets of back edges.

    The search starts at each not yet visited node in the order of ``nodes`` and follows the
    successors ``t`` of ``dist(v)`` (pairs ``(t, p)``) in their order, inside ``in_s`` only
    (``in_s`` is ``set(nodes)``); an unknown is numbered when its first back edge is met.

    >>> _feedback_order([0, 1, 2], {0: [(1, 0)], 1: [(2, 0), (0, 0)], 2: [(1, 0), (7, 0)]}.__getitem__, {0, 1, 2})
    ({1: 0, 0: 1}, [2, 1, 0])
    """
    unknown: dict[int, int] = {}
    post: list[int] = []
    append = post.append
    state = dict.fromkeys(nodes, 0)  # 0 not visited, 1 on the search path, 2 finished; absent: outside
    for root in nodes:
        if state[root]:
            continue
        state[root] = 1
        stack = [(root, iter(dist(root)))]
        push = stack.append
        while stack:
            v, it = stack[-1]
            for w, _ in it:
                st = state.get(w)
                if st == 0:
                    state[w] = 1
                    push((w, iter(dist(w))))
                    break
                if st == 1 and w not in unknown:
                    unknown[w] = len(unknown)
            else:
                stack.pop()
                state[v] = 2
                append(v)
    return unknown, post


def _evaluate_scalar(post, unknown, in_s, dist, reward, known, zero, one) -> dict[int, tuple]:
    """:func:`evaluate_component` for one payoff component: the same affine forms, scalars."""
    forms: dict[int, tuple[Any, dict]] = {}
    for v in post:
        r = reward(v)
        const = r[0] if r is not None else zero
        coef: dict[int, Any] = {}
        for t, p in dist(v):
            if t not in in_s:
                kv = known(t)[0]
                if kv:
                    const = const + p * kv
            elif t in unknown:
                k = unknown[t]
                coef[k] = coef[k] + p if k in coef else p
            else:
                tc, tk = forms[t]
                if tc:
                    const = const + p * tc
                for k, a in tk.items():
                    coef[k] = coef[k] + p * a if k in coef else p * a
        forms[v] = (const, coef)
    m = len(unknown)
    xs: list[Any] = []
    if m:
        A, rhs = _equations(forms, unknown, zero, one)
        xs = [x[0] for x in gauss_solve(A, [[c] for c in rhs], zero)]
    out: dict[int, tuple] = {}
    for v in post:
        if v in unknown:
            out[v] = (xs[unknown[v]],)
            continue
        const, coef = forms[v]
        for k, a in coef.items():
            xk = xs[k]
            if xk:
                const = const + a * xk
        out[v] = (const,)
    return out
