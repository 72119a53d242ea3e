"""The Race in exact arithmetic, fast: unreduced integer numerators, one anti-diagonal at a time.

**Where the denominators come from.**  Put ``S = G(a, b-d) = (F(a-1, b-d) + F(a, b-d)) / 2``
into the candidate ``F_t = (2 q S + (1 - q) F') / (1 + q)`` with ``q = 2^-t`` and
multiply by ``2^t``: the 2 of G cancels the 2 of ``2 q S``, and::

    F_t(a, b) = (H(a, b-d) + (2^t - 1) F(a-1, b)) / (2^t + 1),    H(a, b) = F(a-1, b) + F(a, b) = 2 G(a, b)

(``H = 2`` when ``d >= b``; ``F(0, b) = 0``, ``F(a, 0) = 1``).  So every F and H is an
integer combination of earlier values divided by one factor ``2^t + 1``: its
denominator divides a product of the numbers ``2^t + 1``, t = 1 .. t_max, and of
no power of 2.  Over the primes ``p`` of those numbers (3, 5, 17, 11, 13, 43, 257,
19, 41, ...) each value is kept as ``n / D`` with ``D = prod p^e_p`` and the
exponent vector ``e`` alongside, **never reduced**:

* ``x + y`` with exponents ``ex, ey``: ``L = max(ex, ey)`` (per prime), and
  ``n = nx * c(L - ex) + ny * c(L - ey)`` where ``c(k) = prod p^k_p`` is a cofactor
  (memoised; the exponent vectors are packed in one integer, see :mod:`.denominators`);
* dividing by ``2^t + 1`` adds its exponents to ``e``;
* ``x < y`` compares ``nx c(M - ex)`` with ``ny c(M - ey)``, ``M = max(ex, ey)``: exact,
  ties included.

Every step is a multiplication by a cofactor and an addition, with no gcd (GMP's gcd
was ~70% of the time of the ``mpq`` path).  An ``mpq`` is made (one gcd) only for the
values a caller reads.  The kept denominators are within a few bits of the reduced
ones (target 100: 1,598 vs 1,589 bits for F(100, 100)).

**The float filter** is the one of :func:`exactplay.games.race._exact_cell`, evaluated
for a whole anti-diagonal ``a + b = s`` at once with numpy: the cells of one
anti-diagonal depend only on earlier ones (``F(a-1, b)`` is on ``s - 1``, ``H(a, b-d)``
on ``s - d``), and numpy's elementwise ``* + /`` on float64 are the same IEEE
operations, in the same order, as the scalar code, so the shadows, and hence the
candidates evaluated exactly, are bit for bit those of the reference path.  The
shadow inputs ``float(F)``, ``float(1 - F)``, ``float(G)``, ``float(1 - G)`` are
correctly rounded (:func:`.denominators.ratio_pair`); without ``keep_candidates`` the G
inputs come from the float F's instead (sound, see :func:`shadow_filter`).  When the
shadows prove the best t, only that candidate is evaluated exactly.

:func:`antidiagonal` ``(state, s, rows)`` solves the cells of anti-diagonal ``a + b = s``
with ``a`` in ``rows`` from a :class:`RaceState`: the unit of work for a parallel driver.
:func:`solve` runs them in bands of :data:`BAND` rows, which needs only the band's rows
of H and the row above it (memory ``O(BAND * N)`` numbers when the table is not kept).
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
from gmpy2 import mpz

from exactplay.games.race.denominators import (GUARD, LANE, Cofactors, denominator_primes, lane_max, ratio_pair, unpack)

SHADOW_SLACK = 2.0**-40  # the same as exactplay.games.race.SHADOW_SLACK
TINY = 2.0**-960  # a shadow input below this (or a nonzero one read as 0) may be subnormal
ZERO, ONE, TWO = mpz(0), mpz(1), mpz(2)
MPZ = type(TWO)


@dataclass
class RaceState:
    """Everything the anti-diagonals share.

    ``Fn[a][b], FD[a][b], Fe[a][b]``: F(a, b) = Fn / FD, FD = prod p^Fe (unreduced);
    ``Hn[a][b], He[a][b]``: H(a, b) = 2 G(a, b) = Hn / prod p^He;
    ``shadow``: ``(FC, GC)``, ``FC[0] = F``, ``FC[1] = 1 - F`` (and G) in float, correctly
    rounded, each (N+1) x (N+1);
    ``best_t[a][b]``: the chosen t; ``cands[(a, b)]``: ``{t: (n, D)}`` of the candidates
    evaluated exactly, when ``keep_candidates``.  Rows of F and H are allocated by
    :meth:`open_rows` and may be dropped (None) once no later cell reads them.
    """

    N: int
    t_max: int
    keep_candidates: bool = False
    primes: tuple = ()
    fexp: list = field(default_factory=list)
    guards: int = 0
    consts: tuple = ()  # d = 2^(t-1) and q = 2^-t as (T, 1) columns
    smallest: float = 1.0  # the smallest shadow written so far
    keep_table: bool = True  # False: F(a-1, b) is forgotten once (a, b) has read it (rows N-1, N stay)
    cof: Cofactors = None
    Fn: list = None
    FD: list = None
    Fe: list = None
    Hn: list = None
    He: list = None
    shadow: tuple = None
    best_t: list = None  # best_t[a][b]: the chosen t
    cands: dict = field(default_factory=dict)

    @classmethod
    def start(cls, N: int, t_max: int, keep_candidates: bool = False) -> "RaceState":
        """The boundary: F(0, b) = 0, F(a, 0) = 1 (and H(a, 0) = 2: never read)."""
        primes, fexp = denominator_primes(t_max)
        # an exponent of F(a, b) is at most (a + b - 1) times the largest in one 2^t + 1 (by induction
        # along the recurrence, as in checker/_bounds.race_digits): it must fit a lane below its guard bit
        if 2 * N * max(max(unpack(f, len(primes)), default=0) for f in fexp) >= 1 << GUARD:
            raise ValueError(f"target {N} is too large for {LANE}-bit exponent lanes")
        z = 0
        cof = Cofactors(primes)
        st = cls(N, t_max, keep_candidates, primes, fexp, cof.guards, cof=cof)
        st.Fn, st.FD, st.Fe, st.Hn, st.He = ([None] * (N + 1) for _ in range(5))
        st.best_t = [[0] * (N + 1) for _ in range(N + 1)]
        st.Fn[0], st.FD[0], st.Fe[0] = [ZERO] * (N + 1), [ONE] * (N + 1), [z] * (N + 1)
        FC, GC = np.zeros((2, N + 1, N + 1)), np.zeros((2, N + 1, N + 1))  # [x, 1 - x]
        FC[1], GC[1] = 1.0, 1.0
        FC[0, 1:, 0] = GC[0, 1:, 0] = 1.0
        FC[1, 1:, 0] = GC[1, 1:, 0] = 0.0
        st.shadow = (FC, GC)
        ts = np.arange(1, t_max + 1)[:, None]
        st.consts = (1 << (ts - 1), np.ldexp(1.0, -ts))
        return st

    def open_rows(self, a0: int, a1: int) -> None:
        """Allocate rows a0..a1 of F and H with their b = 0 entries F(a, 0) = 1, H(a, 0) = 2."""
        N = self.N
        for a in range(a0, a1 + 1):
            self.Fn[a], self.FD[a], self.Fe[a] = [ONE] + [ZERO] * N, [ONE] * (N + 1), [0] * (N + 1)
            self.Hn[a], self.He[a] = [TWO] + [ZERO] * N, [0] * (N + 1)


def shadow_filter(st: RaceState, A: np.ndarray, Bv: np.ndarray) -> tuple[list, list]:
    """Per cell (a, b) = (A[i], Bv[i]): the t's the float shadow cannot rule out (as a row of
    T booleans), and the best t when the shadows prove it (else 0).

    Exactly the test of ``_exact_cell``: ``F_t`` and its complement
    ``(2 q (1 - S) + (1 - q)(1 - F')) / (1 + q)`` in float; with more than two
    t's, keep those with ``F_t >= second-largest * (1 - slack)`` and
    ``1 - F_t <= second-smallest * (1 + slack)``.  ``S = G(a, b-d)`` reads column
    ``max(b-d, 0)``: ``G(a, 0) = 1`` is the value for ``d >= b``.

    Each shadow is within a relative ``6 * 2^-53`` of its exact value (normal
    inputs), so ``F_i >= F_j (1 + slack)`` or ``1 - F_i <= (1 - F_j) / (1 + slack)`` in
    float proves ``F_i > F_j`` exactly.  The best t is proved (and not tied) when the
    largest ``F_t`` shadow exceeds every other so, or the smallest ``1 - F_t`` shadow is
    below every other so.

    When candidates are not kept, the G inputs are not correctly rounded but
    ``(float F(a-1, b) + float F(a, b)) / 2`` (and the same for ``1 - G``): two
    nonnegative numbers each within ``2^-53``, added with one rounding, so within
    ``2 * 2^-53``, and a shadow within ``8 * 2^-53``: the slack ``2^-40`` covers it just
    the same.  Every exact best and runner-up still survives (a third candidate may
    differ from the reference's), so values and choices are the same; with
    ``keep_candidates`` the shadows are the reference's, bit for bit.

    Once a shadow below :data:`TINY` has been written (it may be subnormal, or 0 for
    a nonzero value), a cell reading such an input keeps every t and decides nothing.
    """
    FC, GC = st.shadow
    T, m = st.t_max, len(A)
    d, q = st.consts
    Bd = np.maximum(Bv - d, 0)  # (T, m)
    SS = GC[:, A, Bd]  # (2, T, m): S and 1 - S
    prev = FC[:, A - 1, Bv][:, None, :]  # (2, 1, m): F(a-1, b) and 1 - F(a-1, b)
    aFC = (2 * q * SS + (1 - q) * prev) / (1 + q)  # the same IEEE operations as _exact_cell
    aF, aC = aFC[0], aFC[1]
    S, Sc, f_prev, c_prev = SS[0], SS[1], prev[0, 0], prev[1, 0]
    tiny = None
    if st.smallest < TINY:
        inside = Bd > 0
        tiny = ((f_prev < TINY) & (A > 1)) | (c_prev < TINY) | np.any(inside & ((S < TINY) | (Sc < TINY)), axis=0)
    srt = np.sort(aFC, axis=1)
    if T > 2:
        second_F = srt[0, -2] * (1 - SHADOW_SLACK)
        second_C = srt[1, 1] * (1 + SHADOW_SLACK)
        keep = (aF >= second_F) & (aC <= second_C)
        if tiny is not None:
            keep |= tiny
    else:
        keep = np.ones((T, m), dtype=bool)
    if T > 1:
        # the largest F shadow above every other by the slack, or the smallest 1 - F below every other
        by_F = srt[0, -1] >= srt[0, -2] * (1 + SHADOW_SLACK)
        by_C = srt[1, 0] * (1 + SHADOW_SLACK) <= srt[1, 1]
        best = np.where(by_F, np.argmax(aF, axis=0), np.argmin(aC, axis=0)) + 1
        decided = by_F | by_C
        if tiny is not None:
            decided &= ~tiny
        best = np.where(decided, best, 0).tolist()
    else:
        best = [1] * m
    return keep.T.tolist(), best


def candidate_value(st: RaceState, a: int, b: int, t: int, nz, Dz, ez) -> tuple:
    """``F_t(a, b) = (H(a, b-d) + (2^t - 1) F(a-1, b)) / (2^t + 1)`` as ``(n, D, e)``; F(a-1, b) = nz / Dz."""
    d = 1 << (t - 1)
    if d >= b:
        nx, ex = TWO, 0
    else:
        nx, ex = st.Hn[a][b - d], st.He[a][b - d]
    if ex == ez:
        L, n, D = ez, nx + ((1 << t) - 1) * nz, Dz
    else:
        cof = st.cof
        L = lane_max(ex, ez, st.guards)
        cz = cof[L - ez]
        n = nx * cof[L - ex] + ((1 << t) - 1) * nz * cz
        D = Dz * cz
    return n, D * ((1 << t) + 1), L + st.fexp[t]


def antidiagonal(st: RaceState, s: int, rows: tuple[int, int] | None = None,
                 cols: tuple[int, int] | None = None) -> None:
    """Solve every cell (a, b) with ``a + b = s``, ``a`` in ``rows`` and ``b`` in ``cols``
    (inclusive; default ``1 .. N`` each, the whole anti-diagonal), in ``st``.

    Reads anti-diagonals ``< s`` only (F on ``s - 1``, H on ``s - d`` in the same row);
    writes F, H, the shadows, ``best_t`` (largest exact value, then smallest t) and the
    candidates.  Only the best candidate is evaluated exactly when the shadows decide
    the cell and candidates are not kept.
    """
    N = st.N
    r0, r1 = rows or (1, N)
    c0, c1 = cols or (1, N)
    a_lo, a_hi = max(r0, s - c1), min(r1, s - c0)
    if a_lo > a_hi:
        return
    A = np.arange(a_lo, a_hi + 1)
    Bv = s - A
    allowed, decided = shadow_filter(st, A, Bv)
    tl = range(1, st.t_max + 1)
    cof, guards = st.cof, st.guards
    Fn, FD, Fe, Hn, He = st.Fn, st.FD, st.Fe, st.Hn, st.He
    keep = st.keep_candidates
    drop = not st.keep_table
    fexp, best_t = st.fexp, st.best_t
    out_F, out_G = [], []
    for a, ts, bt in zip(range(a_lo, a_hi + 1), allowed, decided):
        b = s - a
        Tb = best_t[a]
        nz, Dz, ez = Fn[a - 1][b], FD[a - 1][b], Fe[a - 1][b]
        if bt and not keep:  # candidate_value, inlined
            t = bt
            d = 1 << (t - 1)
            if d >= b:
                nx, ex = TWO, 0
            else:
                nx, ex = Hn[a][b - d], He[a][b - d]
            if ex == ez:
                L, n, D = ez, nx + ((1 << t) - 1) * nz, Dz
            else:
                L = lane_max(ex, ez, guards)
                cz = cof[L - ez]
                n = nx * cof[L - ex] + ((1 << t) - 1) * nz * cz
                D = Dz * cz
            D *= (1 << t) + 1
            e = L + fexp[t]
        else:
            ts = [t for t, k in zip(tl, ts) if k]
            cands = [(t,) + candidate_value(st, a, b, t, nz, Dz, ez) for t in ts]
            if bt:
                best = cands[ts.index(bt)]
            else:
                best = cands[0]
                for c in cands[1:]:
                    if _greater(cof, c, best):
                        best = c
            t, n, D, e = best
            if keep:
                st.cands[(a, b)] = {c[0]: (c[1], c[2]) for c in cands}
        if type(n) is not MPZ or type(D) is not MPZ:
            _leak(n if type(n) is not MPZ else D, (a, b))
        Fn[a][b], FD[a][b], Fe[a][b] = n, D, e
        if drop and 1 < a < N:  # F(a-1, b) has had its only reader, (a, b)
            Fn[a - 1][b] = FD[a - 1][b] = None
        Tb[b] = t
        # H(a, b) = F(a-1, b) + F(a, b)
        if e == ez:
            hn, hD, he = nz + n, D, e
        else:
            he = lane_max(e, ez, guards)
            cF = cof[he - e]
            hn, hD = n * cF + nz * cof[he - ez], D * cF
        Hn[a][b], He[a][b] = hn, he
        out_F.append(ratio_pair(n, D))
        if keep:
            out_G.append(ratio_pair(hn, hD << 1))
    FC, GC = st.shadow
    vF = np.array(out_F)
    FC[:, A, Bv] = vF.T
    if keep:  # G correctly rounded: the reference path's shadows, so the same candidates
        vG = np.array(out_G).T
    else:  # G = (F(a-1, b) + F(a, b)) / 2 from the float F's: within 2 units (relative), see shadow_filter
        vG = (FC[:, A - 1, Bv] + vF.T) * 0.5
    GC[:, A, Bv] = vG
    st.smallest = min(st.smallest, float(vF.min()), float(vG.min()))


def _leak(value, cell):
    from exactplay.numbers.backends import FloatLeak

    raise FloatLeak(f"{type(value).__name__} value {value!r} in the exact race table at {cell}")


def _greater(cof, x, y) -> bool:
    """``x > y`` exactly for candidates ``(t, n, D, e)`` (value n / D, D = prod p^e)."""
    ex, ey = x[3], y[3]
    if ex == ey:
        return x[1] > y[1]
    M = lane_max(ex, ey, cof.guards)
    return x[1] * cof[M - ex] > y[1] * cof[M - ey]


BAND = 128  # rows solved together up to target 500: memory ~ BAND rows of H, numpy calls ~ N^2 / BAND
BAND_LARGE = 48  # beyond: H rows of up to ~40k-bit numbers, so fewer rows at a time


def solve(N: int, t_max: int, keep_candidates: bool = False, progress=None, keep_table: bool = True,
          band: int | None = None) -> RaceState:
    """Every cell, in bands of ``band`` rows; inside a band, by anti-diagonals.

    A cell reads F of the row above (the band's, or the previous band's last row) and
    H of its own row, so a band needs only its rows and the row above it: with
    ``keep_table=False`` only rows ``N-1`` and ``N`` of F stay (G(N, N) = H(N, N) / 2)
    and memory is ``O(band * N)`` numbers, not ``O(N^2)``.  ``progress`` advances once
    per anti-diagonal of a band: ``sum_bands (rows + N - 1)`` steps (:func:`steps`).
    Every stored F is checked to be ``mpz / mpz``.
    """
    band = band or default_band(N)
    st = RaceState.start(N, t_max, keep_candidates)
    st.keep_table = keep_table
    for a0 in range(1, N + 1, band):
        a1 = min(N, a0 + band - 1)
        st.open_rows(a0, a1)
        for s in range(a0 + 1, a1 + N + 1):
            antidiagonal(st, s, (a0, a1))
            if progress is not None:
                progress.advance()
        for a in range(a0, a1 + 1):
            st.Hn[a] = st.He[a] = None  # H is read only inside its own row
        if not keep_table:  # F is read by the next row only; keep rows N-1, N for G(N, N)
            for a in range(max(1, a0 - 1), min(a1, N - 1)):
                st.Fn[a] = st.FD[a] = st.Fe[a] = None
    return st


def default_band(N: int) -> int:
    return BAND if N <= 500 else BAND_LARGE


def steps(N: int, band: int | None = None) -> int:
    """The number of progress steps of :func:`solve`."""
    band = band or default_band(N)
    return sum(min(N, a0 + band - 1) - a0 + N for a0 in range(1, N + 1, band))
