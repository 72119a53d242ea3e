"""The seed's two ``getMaxCoin`` programs, ported generic over the number type.

* :func:`seed_dp_min` -- ``V[i] + min(maxCoin(i+2, j), maxCoin(i+1, j-1))``,
  with ``0`` for the cells outside the table (``left``/``bottom``);
* :func:`seed_dp_sum` -- ``max(Sum(i, j) - C(i+1, j), Sum(i, j) - C(i, j-1))``,
  sums kept in the lower triangle of the same matrix.
"""

from __future__ import annotations

from typing import Any, Sequence

from exactplay.numbers.backends import Backend, get_backend
from exactplay.games.coins.row import LEFT, RIGHT, to_backend


def seed_dp_min(row: Sequence[Any], backend: Backend | str = "float", keep: bool = False):
    """The seed's first ``getMaxCoin``, in the field of ``backend``.

    ``left = maxCoin[i+2][j]`` if ``i+2 <= j`` else 0, ``bottom = maxCoin[i][j-2]``
    if ``j-2 >= i`` else 0, and ``maxCoin[i+1][j-1]`` read from the (zero) lower
    triangle when ``k = 1``.  Returns ``(value, M, candidates)``; ``candidates``
    (if ``keep``) maps ``(i, j)`` to ``{left: coins[i] + min(...), right: coins[j] + min(...)}``.
    """
    B = get_backend(backend)
    coins = to_backend(B, row)
    n = len(coins)
    M = [[B.zero] * n for _ in range(n)]
    cands = {} if keep else None
    for i in range(n):
        M[i][i] = coins[i]
    for k in range(1, n):
        i, j = 0, k
        while i < n - k:
            left = M[i + 2][j] if i + 2 <= j else B.zero
            bottom = M[i][j - 2] if j - 2 >= i else B.zero
            a = coins[i] + min(left, M[i + 1][j - 1])
            b = coins[j] + min(M[i + 1][j - 1], bottom)
            M[i][j] = max(a, b)
            if keep:
                cands[(i, j)] = {LEFT: a, RIGHT: b}
            i += 1
            j += 1
    return M[0][n - 1], M, cands


def seed_dp_sum(row: Sequence[Any], backend: Backend | str = "float", keep: bool = False):
    """The seed's second ``getMaxCoin``: ``T[j][i] = T[j-1][i] + coins[j]`` (sums),
    ``T[i][j] = max(T[j][i] - T[i+1][j], T[j][i] - T[i][j-1])``."""
    B = get_backend(backend)
    coins = to_backend(B, row)
    n = len(coins)
    T = [[B.zero] * n for _ in range(n)]
    cands = {} if keep else None
    for i in range(n):
        T[i][i] = coins[i]
    for k in range(1, n):
        i, j = 0, k
        while i < n - k:
            T[j][i] = T[j - 1][i] + coins[j]
            a = T[j][i] - T[i + 1][j]
            b = T[j][i] - T[i][j - 1]
            T[i][j] = max(a, b)
            if keep:
                cands[(i, j)] = {LEFT: a, RIGHT: b}
            i += 1
            j += 1
    return T[0][n - 1], T, cands


def upper_map(M: list) -> dict:
    """``{(i, j): M[i][j]}`` for ``i <= j``: the maxCoin part of a seed matrix."""
    n = len(M)
    return {(i, j): M[i][j] for i in range(n) for j in range(i, n)}


def float_choices(cands: dict) -> dict:
    """The side the float values prefer (``>=`` keeps left, like ``max(a, b)`` returning ``a``)."""
    return {s: (LEFT if c[LEFT] >= c[RIGHT] else RIGHT) for s, c in cands.items()}
