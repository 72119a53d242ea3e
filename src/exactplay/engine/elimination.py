"""Solving ``x = b + Q x`` on one strongly connected component: state elimination, then a dense rest.

The system of a component under a fixed policy: unknowns ``x_0 .. x_{k-1}`` (the component's states
that can leave it), ``Q`` substochastic (``q_ij >= 0``, row sums ``<= 1``, every state reaches a row
with sum ``< 1``), so ``I - Q`` is invertible; ``b_i`` is a vector of ``P`` numbers (one per payoff
component: the rewards plus the values of the successors outside the component).

State elimination (Gaussian elimination on ``I - Q`` in the order of least fill) removes an unknown
``k`` by substituting its equation into the others:

    x_k = (b_k + sum_{j != k} q_kj x_j) / (1 - q_kk)
    q_ij += q_ik q_kj / (1 - q_kk),  b_i += q_ik b_k / (1 - q_kk)    for every row i with q_ik != 0

Fill: ``|pred(k)| * |succ(k)|`` new entries at most (Markowitz's count); the unknown with the least
count goes first (a heap, counts refreshed lazily).  Among equal counts, the one with the fewest terms
gathered goes first: its own (the equations substituted into it, one to start) plus the most of a row that
has pointed at it (the row it is substituted into).  On a ring (each unknown reaching the next) the sums
then pair up as in a tree instead of piling into one row that every later unknown is added to, so the exact
numbers added stay shorter (chefs' rings of 13-component vectors, ~25,000-bit denominators at n = 12).  On the chains and trees of dice games the count
stays small and every unknown is eliminated this way; when the cheapest count exceeds a bound
(``max_fill``) the rest is dense in effect (a ring of states where each reaches all the others), and
the remaining unknowns are solved at once as a dense system (:func:`dense_solve`: python-flint's
exact ``fmpq_mat.solve`` for rationals, LU in floats), then the eliminated ones by back-substitution in
the reverse order.

The same code runs in any field whose numbers support ``+ * /``: gmpy2 ``mpq`` and ``Fraction`` for the
exact values, ``float`` for the float policy iteration that guesses the policy.

>>> from fractions import Fraction as F
>>> h = F(1, 2)
>>> # x0 = 1/2 x1 + 1/2 * 1, x1 = 1/2 x0: x0 = 2/3, x1 = 1/3
>>> solve_transient([{1: h}, {0: h}], [[h], [F(0)]], F(0), F(1))
[[Fraction(2, 3)], [Fraction(1, 3)]]
"""

from __future__ import annotations

import heapq
from typing import Any, Callable, Sequence

__all__ = ["solve_transient", "dense_solve", "closed_states", "MAX_FILL"]

MAX_FILL = 64  # Markowitz count beyond which the remaining unknowns are solved as one dense system


def solve_transient(rows: list[dict[int, Any]], b: list[list[Any]], zero: Any, one: Any,
                    max_fill: int = MAX_FILL) -> list[list[Any]]:
    """The solution of ``x_i = b_i + sum_j rows[i][j] x_j`` (``rows[i]`` may hold ``i`` itself: a self-loop).

    ``rows`` and ``b`` are consumed (changed in place).  Returns one list of ``P`` numbers per unknown.
    """
    k = len(rows)
    if k == 0:
        return []
    P = len(b[0])
    preds: list[set[int]] = [set() for _ in range(k)]
    for i, row in enumerate(rows):
        for j in row:
            if j != i:
                preds[j].add(i)
    alive = bytearray(b"\x01") * k
    weight = [1] * k  # equations gathered into each row
    into = [1] * k  # the largest weight of a row that has pointed at it (only grows)
    heap = [(len(preds[i]) * (len(rows[i]) - (i in rows[i])), 2, i) for i in range(k)]
    heapq.heapify(heap)
    order: list[int] = []  # eliminated unknowns, in order
    left = k
    while heap:
        cost, terms, i = heap[0]
        if not alive[i]:
            heapq.heappop(heap)
            continue
        row = rows[i]
        now = len(preds[i]) * (len(row) - (i in row))
        if now != cost or weight[i] + into[i] != terms:  # stale: push the fresh key
            heapq.heapreplace(heap, (now, weight[i] + into[i], i))
            continue
        if cost > max_fill and left > 1:
            break
        heapq.heappop(heap)
        alive[i] = 0
        left -= 1
        order.append(i)
        bi = b[i]
        loop = row.pop(i, None)
        if loop is not None:  # x_i = (b_i + sum q_ij x_j) / (1 - q_ii)
            f = one / (one - loop)
            for j in row:
                row[j] = row[j] * f
            bi = b[i] = [x * f for x in bi]
        for j in row:
            preds[j].discard(i)
        wi = weight[i]
        for p in preds[i]:
            rp = rows[p]
            a = rp.pop(i)
            bp = b[p]
            for c in range(P):
                if bi[c]:
                    bp[c] = bp[c] + a * bi[c]
            wp = weight[p] = weight[p] + wi
            for j, w in row.items():
                old = rp.get(j)
                rp[j] = a * w if old is None else old + a * w
                if j != p:
                    preds[j].add(p)
                    if into[j] < wp:
                        into[j] = wp
        preds[i] = set()
    x: list[list[Any] | None] = [None] * k
    rest = [i for i in range(k) if alive[i]]
    if rest:
        for i, xi in zip(rest, dense_solve(rest, rows, b, zero, one)):
            x[i] = xi
    for i in reversed(order):
        xi = list(b[i])
        for j, w in rows[i].items():
            xj = x[j]
            for c in range(P):
                if xj[c]:
                    xi[c] = xi[c] + w * xj[c]
        x[i] = xi
    return x  # type: ignore[return-value]


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


def dense_solve(rest: Sequence[int], rows: list[dict[int, Any]], b: list[list[Any]], zero: Any, one: Any) -> list[list[Any]]:
    """``(I - Q) x = b`` on the unknowns ``rest`` (their rows refer only to each other), solved densely:
    exact rationals by python-flint (``fmpq_mat.solve``, fraction-free), floats by Gaussian elimination
    with partial pivoting (numpy's LAPACK LU when the system is large)."""
    if isinstance(one, float):
        return _dense_float(rest, rows, b)
    return _dense_exact(rest, rows, b, one)


def _dense_exact(rest, rows, b, one) -> list[list[Any]]:
    from flint import fmpq, fmpq_mat

    make = type(one)
    r = len(rest)
    P = len(b[rest[0]])
    pos = {s: i for i, s in enumerate(rest)}
    A = fmpq_mat(r, r)
    B = fmpq_mat(r, P)
    for i, s in enumerate(rest):
        A[i, i] = 1
        for j, w in rows[s].items():
            A[i, pos[j]] = A[i, pos[j]] - fmpq(int(w.numerator), int(w.denominator))
        for c, x in enumerate(b[s]):
            if x:
                B[i, c] = fmpq(int(x.numerator), int(x.denominator))
    X = A.solve(B)
    out = []
    for i in range(r):
        row = []
        for c in range(P):
            v = X[i, c]
            row.append(make(int(v.p), int(v.q)))
        out.append(row)
    return out


def _dense_float(rest, rows, b) -> list[list[float]]:
    r = len(rest)
    P = len(b[rest[0]])
    pos = {s: i for i, s in enumerate(rest)}
    if r > 24:
        import numpy as np

        A = np.eye(r)
        B = np.zeros((r, P))
        for i, s in enumerate(rest):
            for j, w in rows[s].items():
                A[i, pos[j]] -= w
            B[i] = b[s]
        return np.linalg.solve(A, B).tolist()
    M = []
    for i, s in enumerate(rest):
        row = [0.0] * r
        row[i] = 1.0
        for j, w in rows[s].items():
            row[pos[j]] -= w
        M.append(row + list(b[s]))
    for c in range(r):  # Gauss-Jordan with partial pivoting
        piv = max(range(c, r), key=lambda i: abs(M[i][c]))
        M[c], M[piv] = M[piv], M[c]
        d = M[c][c]
        if d == 0.0:
            raise ZeroDivisionError("singular float system")
        pc = M[c] = [x / d for x in M[c]]
        for i in range(r):
            if i != c and M[i][c]:
                f = M[i][c]
                Mi = M[i]
                M[i] = [x - f * y for x, y in zip(Mi, pc)]
    return [row[r:] for row in M]
