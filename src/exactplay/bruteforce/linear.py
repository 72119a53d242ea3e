"""Gauss-Jordan elimination over exact rationals (``Fraction``, ``mpq``: any exact field).

``rows`` is an augmented matrix ``[A | B]`` with ``A`` square of size ``n``;
in place it becomes ``[I | A^-1 B]`` (partial pivoting on the first non-zero
entry: exact arithmetic needs no pivot by size).

>>> from fractions import Fraction as Q
>>> rows = [[Q(2), Q(1), Q(5)], [Q(1), Q(3), Q(10)]]
>>> gauss_jordan(rows, 2)
>>> [r[2] for r in rows]
[Fraction(1, 1), Fraction(3, 1)]
>>> solve_linear([[Q(1), Q(1)], [Q(1), Q(-1)]], [Q(3), Q(1)])
[Fraction(2, 1), Fraction(1, 1)]
"""

from __future__ import annotations

from typing import Any

__all__ = ["gauss_jordan", "solve_linear"]


def gauss_jordan(rows: list[list[Any]], n: int) -> None:
    """Reduce the augmented ``rows`` (``n`` equations, ``n`` unknowns, then right-hand sides) in place.

    Raises :class:`ValueError` if ``A`` is singular.
    """
    for col in range(n):
        piv = next((r for r in range(col, n) if rows[r][col] != 0), None)
        if piv is None:
            raise ValueError(f"singular system: no pivot in column {col}")
        rows[col], rows[piv] = rows[piv], rows[col]
        pr = rows[col]
        inv = 1 / pr[col]
        pr[:] = [x * inv for x in pr]
        nz = [j for j in range(col, len(pr)) if pr[j] != 0]  # sparse pivot row: touch only its non-zeros
        for r in range(n):
            if r != col and rows[r][col] != 0:
                f = rows[r][col]
                row = rows[r]
                for j in nz:
                    row[j] -= f * pr[j]


def solve_linear(A: list[list[Any]], b: list[Any]) -> list[Any]:
    """The solution ``x`` of ``A x = b`` (``A`` square, non-singular), ``A`` and ``b`` left unchanged."""
    n = len(A)
    rows = [list(r) + [v] for r, v in zip(A, b)]
    gauss_jordan(rows, n)
    return [rows[r][n] for r in range(n)]
