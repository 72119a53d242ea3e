"""Chef Showdown by brute force, for small n: the whole game as one linear system.

Under a fixed deterministic policy ``target(M, t)`` every state ``(M, t)`` with
``|M| >= 2`` moves to ``(M\\{j}, next(t))`` with probability ``p_t`` and to
``(M, next_M(t))`` otherwise.  So, over all such states at once::

    x_s = p_t x_{success(s)} + (1 - p_t) x_{failure(s)} + r_s

with ``r_s = 1`` for the dish count and, for chef i's winning probability, the
absorbing value 1 at ``({i}, i)``.  This is solved by Gaussian elimination over
``Fraction`` -- no layers, no cycle formula -- to test both.  Also: the policy
read from a solution and all strategies of one chef.
"""

from __future__ import annotations

from fractions import Fraction

from exactplay.bruteforce import assignments, gauss_jordan
from exactplay.games.chefs.cycle import members


def next_alive(mask: int, t: int, n: int) -> int:
    """The first chef after t (cyclically) in ``mask``."""
    for d in range(1, n + 1):
        k = (t + d) % n
        if mask >> k & 1:
            return k
    raise ValueError("empty alive set")


def states(n: int) -> list[tuple[int, int]]:
    """Every state (mask, mover) with at least two chefs alive."""
    return [(m, t) for m in range(1, 1 << n) if bin(m).count("1") >= 2 for t in members(m)]


def policy_of(solution) -> dict:
    """``(mask, mover) -> target`` from a kept :class:`chefs_cycle.Solution`."""
    out = {}
    for q, layer in solution.layers.items():
        if q < 2:
            continue
        for mask, st in layer.items():
            for r, t in enumerate(st.members):
                out[(mask, t)] = st.target[r]
    return out


def solve_system(skills, policy: dict) -> tuple[dict, dict]:
    """All W and D under ``policy``: ``({(mask, mover): [W(1..n)]}, {(mask, mover): D})``."""
    n = len(skills)
    S = states(n)
    index = {s: k for k, s in enumerate(S)}
    size = len(S)
    rhs_count = n + 1  # W(0..n-1), then D
    # rows: [coefficients..., rhs...]
    rows = []
    for (mask, t) in S:
        p = Fraction(skills[t])
        row = [Fraction(0)] * size + [Fraction(0)] * rhs_count
        row[index[(mask, t)]] += 1
        j = policy[(mask, t)]
        succ_mask = mask & ~(1 << j)
        fail = (mask, next_alive(mask, t, n))
        row[index[fail]] -= 1 - p
        if bin(succ_mask).count("1") == 1:
            row[size + t] += p  # t is the last chef: it wins
        else:
            row[index[(succ_mask, next_alive(succ_mask, t, n))]] -= p
        row[size + n] = Fraction(1)
        rows.append(row)
    gauss_jordan(rows, size)  # nonsingular: every chef has p > 0
    W = {s: [rows[k][size + i] for i in range(n)] for s, k in index.items()}
    D = {s: rows[k][size + n] for s, k in index.items()}
    return W, D


def chef_decision_states(n: int, chef: int) -> list[tuple[int, int]]:
    """The states where ``chef`` moves and has a real choice (three or more alive)."""
    return [(m, t) for (m, t) in states(n) if t == chef and bin(m).count("1") >= 3]


def strategies(n: int, chef: int):
    """Every deterministic strategy of one chef: a target for each of its decision states."""
    dec = chef_decision_states(n, chef)
    return assignments({(m, t): [j for j in members(m) if j != chef] for m, t in dec})
