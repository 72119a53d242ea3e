"""A :class:`~exactplay.games.race.RaceTable` from the fast exact solver (:mod:`.exact`).

The solver keeps ``F(a, b) = n / D`` unreduced; the table hands out ``mpq`` values in
lowest terms, each made (one gcd) the first time it is read -- the CLI's ``solve``
reads only ``G(N, N)``.  ``G(a, b) = (F(a-1, b) + F(a, b)) / 2`` is made the same way.
"""

from __future__ import annotations

from exactplay.games.race import exact
from exactplay.numbers.backends import Backend


class LazyRow:
    """Row ``a`` of F (``g=False``) or G (``g=True``): ``row[b]`` is an mpq, made on first read."""

    __slots__ = ("rows", "a", "g", "cache")

    def __init__(self, rows: "LazyTable", a: int, g: bool):
        self.rows, self.a, self.g, self.cache = rows, a, g, {}

    def __len__(self) -> int:
        return self.rows.N + 1

    def __iter__(self):
        return (self[b] for b in range(len(self)))

    def __eq__(self, other) -> bool:
        return list(self) == list(other)

    def __getitem__(self, b: int):
        if not 0 <= b <= self.rows.N:
            raise IndexError(b)
        v = self.cache.get(b)
        if v is None:
            v = self.cache[b] = self.rows.value(self.a, b, self.g)
        return v


class LazyTable:
    """F or G over ``0 <= a, b <= N`` from the numerators and denominators of the solver."""

    def __init__(self, Fn, FD, mpq, g: bool):
        self.N = len(Fn) - 1
        self.Fn, self.FD, self.mpq, self.g = Fn, FD, mpq, g
        self.rows = [LazyRow(self, a, g) for a in range(self.N + 1)]
        self.F = self if not g else None

    def value(self, a: int, b: int, g: bool):
        if not g:
            if self.Fn[a] is None:
                raise LookupError(f"row {a} of the race table was not kept (solve_table(..., keep_table=False))")
            return self.mpq(self.Fn[a][b], self.FD[a][b])
        if a == 0:
            return self.mpq(0)
        if b == 0:
            return self.mpq(1)
        return (self.F.rows[a - 1][b] + self.F.rows[a][b]) / 2

    def __len__(self) -> int:
        return self.N + 1

    def __iter__(self):
        return iter(self.rows)

    def __eq__(self, other) -> bool:
        """Equal to a table (lists of rows) with the same values."""
        return len(self) == len(other) and all(list(r) == list(o) for r, o in zip(self, other))

    def __getitem__(self, a: int) -> LazyRow:
        return self.rows[a]


def solve_table_fast(N: int, B: Backend, t_max: int, keep_candidates: bool, progress, keep_table: bool = True):
    """:func:`exactplay.games.race.solve_table` in ``mpq`` by anti-diagonals (same values and choices).

    ``keep_table=False`` keeps only rows N-1 and N of F (enough for G(N, N)): memory
    O(band * N) numbers instead of O(N^2)."""
    progress.start(f"race target {N} ({B.name}, by anti-diagonals)", exact.steps(N))
    st = exact.solve(N, t_max, keep_candidates, progress, keep_table=keep_table)
    st.Hn = st.He = st.Fe = st.shadow = None  # only F's numerators and denominators are read from here on
    return table_of(N, B, t_max, st.Fn, st.FD, st.best_t, st.cands if keep_candidates else None)


def table_of(N: int, B: Backend, t_max: int, Fn, FD, best_t, cands):
    """The :class:`RaceTable` of ``F(a, b) = Fn[a][b] / FD[a][b]`` (rows None: not kept), the chosen
    ``best_t[a][b]`` and the candidates ``{(a, b): {t: (n, D)}}`` (None: not kept)."""
    from exactplay.games.race.result import RaceTable

    F = LazyTable(Fn, FD, B.make, False)
    G = LazyTable(Fn, FD, B.make, True)
    G.F = F
    table = RaceTable(N, B.name, t_max, F, G)
    cells = table.cells()  # row-major, the reference path's order (audits list states in it)
    table.best_t = {(a, b): best_t[a][b] for a, b in cells}
    if cands is not None:
        table.candidates = {cell: {t: B.make(n, D) for t, (n, D) in cands[cell].items()} for cell in cells}
    return table
