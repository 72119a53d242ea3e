"""The Race in float64 intervals with outward rounding, one anti-diagonal at a time (numpy).

**What is computed.**  For every cell ``(a, b)``, ``1 <= a, b <= N``, and every
gamble ``t = 1 .. t_max``, intervals of the candidate (see :mod:`exactplay.games.race`)
and of its complement::

    F_t = alpha_t S_t + beta_t F',            1 - F_t = alpha_t (1 - S_t) + beta_t (1 - F'),
    alpha_t = 2 q_t / (1 + q_t),  beta_t = (1 - q_t) / (1 + q_t),  q_t = 2^-t,

with ``F' = F(a-1, b)`` and ``S_t = G(a, b - d_t)`` (``= 1`` when ``d_t = 2^(t-1) >= b``);
then ``F = max_t F_t``, ``C = 1 - F = min_t (1 - F_t)`` and
``G = (F(a-1, b) + F(a, b)) / 2``, ``1 - G = (C(a-1, b) + C(a, b)) / 2``.  Both forms
are nonnegative combinations (``alpha_t + beta_t = 1``): the F form is accurate where
F is small, the complement where F is close to 1 (``1 - F(a, 1) = 3^-a``), and each
interval is intersected with the other's mirror (``F = 1 - C``).

**Rounding lemma.**  In IEEE 754 binary64 with rounding to nearest, let ``r`` be the
exact real result of ``+``, ``*``, ``/`` or ``ldexp`` (scaleB) on doubles, ``|r|`` below
the overflow threshold, and ``x = fl(r)`` the double returned.  Then
``pred(x) <= r <= succ(x)`` (the neighbouring doubles).  *Proof:* ``x`` is a double
nearest to ``r`` among all doubles, subnormals and zero included; if ``r > succ(x)``
then ``succ(x)`` lies strictly between ``x`` and ``r`` and is nearer to ``r``: a
contradiction; the same for ``pred(x)``.  (No overflow here: every operand and result
lies in ``[0, 2]``, divisors in ``[1, 2]``.)  Subtraction is covered too: the code's
``1.0 - x`` is the addition ``1.0 + (-x)``, and negating a double is exact (a sign flip),
so the lemma applies to it unchanged (its result lies in ``[-1, 1]``: no overflow either).

**Outward steps** (:func:`~.wide.dn`, :func:`~.wide.up`, one multiply and one add instead
of ``nextafter``): for a double ``x >= 0``,
``dn(x) = max(fl(fl(x (1 - 2^-52)) - 2^-1074), 0) <= pred(x)`` unless ``pred(x) < 0``, and
``up(x) = fl(fl(x (1 + 2^-52)) + 2^-1074) >= succ(x)``.  *Proof:* for normal ``x`` in
``[2^E, 2^(E+1))`` the unit ``u = 2^(E-52) <= x 2^-52``, so ``x (1 - 2^-52) <= x - u <=
pred(x)`` and ``x (1 + 2^-52) >= x + u = succ(x)``; rounding is monotone and ``pred(x)``,
``succ(x)`` are doubles, so the rounded products stay on their side, and adding or
subtracting ``2^-1074`` then rounding keeps them there.  For subnormal ``x`` and 0 the
products round back to ``x`` (or nearer 0 for ``dn``) and ``-+ 2^-1074`` is exact: one
unit.  So if ``r >= 0`` rounds to ``x``, ``dn(x) <= r <= up(x)`` (``dn`` clamps at 0,
which is still ``<= r``).

**Enclosure theorem.**  Let every input interval contain its exact value, all ends
``>= 0``.  A lower end is computed as ``dn(dn(alpha_lo * S_lo) + dn(beta_lo * F'_lo))``
and an upper end with ``up`` and the upper ends, where
``alpha_lo = dn(fl(2q / (1 + q))) <= alpha_t <= alpha_hi`` and likewise ``beta``
(``2q``, ``1 +- q`` are exact doubles for ``t <= 52``; one rounded division).  Since
``(x, y) -> alpha x + beta y`` is increasing in every argument on nonnegative numbers,
the lemma at each operation gives ``F_t in [lo, hi]``; the true value is a probability,
so ``min(hi, 1)`` is still an enclosure.  ``max`` and ``min`` are increasing, so
``[max_t lo_t, max_t hi_t]`` encloses ``F`` and ``[min_t lo_t, min_t hi_t]`` encloses
``C``; ``dn(1 - C_hi) <= F <= up(1 - C_lo)`` by the lemma again (``F >= 0``, so a
clamped 0 is a lower end).  The complements run on wide pairs ``m 2^e``
(:mod:`.wide`: exact alignment by ``ldexp`` while it is exact, a bound below
``2^-1000`` of the larger term beyond), so ``3^-a`` never underflows.  The boundary
values ``F(0, b) = 0``, ``F(a, 0) = G(a, 0) = 1`` are exact.  By induction over the
anti-diagonals ``a + b = s`` (a cell reads ``F(a-1, b)`` on ``s - 1`` and ``G(a, b-d)``
on ``s - d`` and ``s - d - 1``), every interval encloses its exact value.

**Certified decisions.**  The best ``t`` of a cell is certified when one candidate
``w`` is proved above every other ``t``: ``lo(F_w) > hi(F_t)`` or
``hi(1 - F_w) < lo(1 - F_t)`` (either proves ``F_w > F_t`` exactly).  A certified
``w`` is therefore the exact unique maximiser; otherwise the cell is *unresolved at
53 bits* (its exact gap is below what these intervals separate).

**Memory.**  ``S_t`` reaches ``d_t`` columns back along the row, up to the whole row
(``2^(t_max - 1) > N``), so the anti-diagonals still needed span the whole table.
Instead the rows are solved in bands of ``R`` rows (anti-diagonal by anti-diagonal
inside a band): a band reads only its rows and the last row of the band before,
so memory is 12 arrays of ``(R + 1) (N + 1)`` numbers (F, G and the wide complements,
lower and upper), not ``O(N^2)``: ~290 MB whatever ``N`` (``R = 3,000,000 / (N + 1)``).
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field

import numpy as np

from exactplay.progress import SILENT

from . import wide
from .table import t_limit
from .wide import ZERO_E, dn, up

SAMPLE = 10  # unresolved cells listed by name
BAND_DOUBLES = 3_000_000  # numbers per band array (12 arrays of 8 bytes: ~290 MB in all); R = this / (N + 1)


def coefficients(t_max: int) -> tuple[np.ndarray, ...]:
    """``alpha_lo, alpha_hi, beta_lo, beta_hi``, each of shape ``(t_max, 1)``:
    ``alpha_t = 2 q / (1 + q)``, ``beta_t = (1 - q) / (1 + q)``, ``q = 2^-t``, enclosed.

    >>> al, ah, bl, bh = coefficients(2)
    >>> bool(al[0, 0] < 2 / 3 < ah[0, 0]) and bool(bl[1, 0] < 0.6 < bh[1, 0])
    True
    """
    if t_max > 52:
        raise ValueError("t_max > 52: 1 +- 2^-t would not be exact doubles")
    q = np.ldexp(1.0, -np.arange(1, t_max + 1))[:, None]
    alpha, beta = (2 * q) / (1 + q), (1 - q) / (1 + q)  # 2q, 1 - q, 1 + q exact: one rounding each
    return dn(alpha), up(alpha), dn(beta), up(beta)


@dataclass
class IntervalRun:
    """What an interval run found.  Intervals are ``(lower, upper)`` pairs of floats."""

    target: int
    t_max: int
    rows_per_band: int
    answer: tuple = (0.0, 1.0)  # G(N, N)
    answer_complement: tuple = (0.0, 1.0)  # 1 - G(N, N), as doubles
    answer_complement_wide: tuple = ((0.0, 0), (0.5, 1))  # 1 - G(N, N), ends as (mantissa, exponent)
    first: dict = field(default_factory=dict)  # "after_player1_misses"/"after_player1_scores" -> (t, certified)
    decisions: int = 0
    certified: int = 0
    unresolved_by_row: np.ndarray | None = None  # [a] -> unresolved cells in row a
    unresolved_cells: list = field(default_factory=list)  # the first SAMPLE unresolved cells (a, b)
    seconds: float = 0.0  # wall clock
    cpu_seconds: float = 0.0  # this process's CPU time (the machine is shared)
    band_bytes: int = 0  # the band arrays' memory
    tables: dict | None = None  # with keep: full (N+1, N+1) arrays, see interval_run

    @property
    def unresolved_count(self) -> int:
        return self.decisions - self.certified

    def unresolved_sample(self, k: int = 10) -> list:
        """The first ``k`` rows with unresolved cells, as ``(row, count)``."""
        rows = np.nonzero(self.unresolved_by_row)[0][:k]
        return [(int(a), int(self.unresolved_by_row[a])) for a in rows]


def steps(N: int, R: int) -> int:
    """Anti-diagonals solved in all: ``sum over bands of (rows + N - 1)``."""
    return sum(min(N, a0 + R - 1) - a0 + N for a0 in range(1, N + 1, R))


def rows_per_band(N: int) -> int:
    return max(1, min(N, BAND_DOUBLES // (N + 1)))


def interval_run(N: int, t_max: int | None = None, keep: bool = False, progress=SILENT,
                 rows: int | None = None, keep_choices: bool = False) -> IntervalRun:
    """Every cell of target ``N`` in float64 intervals (see the module docstring).

    ``keep`` (small N): one band of all N rows, and ``run.tables`` holds the full arrays
    ``F`` (value intervals, shape ``(2, N+1, N+1)``: lower, upper), ``Cm``, ``Ce`` (the
    complements' mantissas and exponents, the same shape), ``best`` (``(N+1, N+1)``: the
    certified t, or the uncertified pick), ``certified`` (bool) and ``cand_F``, ``cand_Cm``,
    ``cand_Ce`` (``(2, t_max, N+1, N+1)``: every candidate's intervals).  ``keep_choices``: only
    ``best`` (int8), ``certified`` and ``F``, in bands (``18 (N+1)^2`` bytes: for cross-checks).
    """
    t_max = t_limit(N) if t_max is None else t_max
    R = N if keep else (rows or rows_per_band(N))
    run = IntervalRun(N, t_max, R)
    run.unresolved_by_row = np.zeros(N + 1, dtype=np.int64)
    W = N + 1
    al, ah, bl, bh = coefficients(t_max)
    d = (1 << np.arange(t_max, dtype=np.int64))[:, None]  # d_t = 2^(t-1)
    tix = np.arange(t_max)[:, None]
    # band arrays, rows 0..R (row 0 is the row above the band): F, G in doubles; their
    # complements C = 1 - F, D = 1 - G as wide pairs (mantissa, exponent); lower and upper ends
    FL, FH, GL, GH, CLm, CHm, DLm, DHm = (np.zeros((R + 1, W)) for _ in range(8))
    CLe, CHe, DLe, DHe = (np.full((R + 1, W), ZERO_E, dtype=np.int64) for _ in range(4))
    run.band_bytes = 12 * FL.nbytes
    CLm[0, 1:] = CHm[0, 1:] = 0.5  # F(0, b) = 0 (FL, FH already 0), C(0, b) = 1 = 0.5 * 2^1
    CLe[0, 1:] = CHe[0, 1:] = 1
    FL[:, 0] = FH[:, 0] = GL[:, 0] = GH[:, 0] = 1.0  # F(a, 0) = G(a, 0) = 1, complements 0
    if keep:
        shape = (2, W, W)
        tabs = {"F": np.zeros(shape), "Cm": np.zeros(shape), "Ce": np.zeros(shape, dtype=np.int64),
                "best": np.zeros((W, W), dtype=np.int64), "certified": np.zeros((W, W), dtype=bool),
                "cand_F": np.zeros((2, t_max, W, W)), "cand_Cm": np.zeros((2, t_max, W, W)),
                "cand_Ce": np.zeros((2, t_max, W, W), dtype=np.int64)}
        run.tables = tabs
    elif keep_choices:
        run.tables = {"best": np.zeros((W, W), dtype=np.int8), "certified": np.zeros((W, W), dtype=bool),
                      "F": np.zeros((2, W, W))}
    progress.start(f"race target {N} in float64 intervals (bands of {R} rows, by anti-diagonals)", steps(N, R))
    start, cpu = time.perf_counter(), time.process_time()
    pending = 0
    for a0 in range(1, N + 1, R):
        a1 = min(N, a0 + R - 1)
        for s in range(a0 + 1, a1 + N + 1):
            A = np.arange(max(a0, s - N), min(a1, s - 1) + 1)
            Bv = s - A
            i = A - a0 + 1
            S = i * W + np.maximum(Bv - d, 0)  # (T, m): flat index of S_t, column 0 when d_t >= b (G(a, 0) = 1)
            P, Q = (i - 1) * W + Bv, i * W + Bv  # flat indices of (a-1, b) and (a, b)
            # candidates: lower ends from lower ends (dn after every operation), upper from upper (up)
            fl = np.maximum(dn(dn(al * GL.take(S)) + dn(bl * FL.take(P))), 0.0)
            fh = np.minimum(up(up(ah * GH.take(S)) + up(bh * FH.take(P))), 1.0)
            clm, cle = wide.combine(DLm.take(S), DLe.take(S), CLm.take(P), CLe.take(P), al, bl, False)
            chm, che = wide.combine(DHm.take(S), DHe.take(S), CHm.take(P), CHe.take(P), ah, bh, True)
            best, sure = decide(fl, fh, clm, cle, chm, che, tix)
            # the cell: F = max_t F_t, C = min_t C_t, each intersected with the other's mirror
            vfl, vfh = fl.max(axis=0), fh.max(axis=0)
            (vclm, vcle), (vchm, vche) = wide.least(clm, cle), wide.least(chm, che)
            vfl, vfh = (np.maximum(vfl, dn(1.0 - wide.to_float_up(vchm, vche))),
                        np.minimum(vfh, up(1.0 - wide.to_float_down(vclm, vcle))))
            vclm, vcle = wide.larger(vclm, vcle, *wide.normal(np.maximum(dn(1.0 - vfh), 0.0)))
            vchm, vche = wide.smaller(vchm, vche, *wide.normal(up(1.0 - vfl)))
            for X, v in ((FL, vfl), (FH, vfh), (CLm, vclm), (CLe, vcle), (CHm, vchm), (CHe, vche)):
                X.reshape(-1)[Q] = v
            # G = (F(a-1, b) + F(a, b)) / 2 and D = 1 - G the same way (the halving of D is exact: e - 1)
            gl, gh = dn(dn(FL.take(P) + vfl) * 0.5), up(up(FH.take(P) + vfh) * 0.5)
            GL.reshape(-1)[Q], GH.reshape(-1)[Q] = gl, gh
            dlm, dle = wide.combine(CLm.take(P), CLe.take(P), vclm, vcle, 1.0, 1.0, False)
            dhm, dhe = wide.combine(CHm.take(P), CHe.take(P), vchm, vche, 1.0, 1.0, True)
            dle, dhe = np.where(dlm > 0, dle - 1, ZERO_E), np.where(dhm > 0, dhe - 1, ZERO_E)
            for X, v in ((DLm, dlm), (DLe, dle), (DHm, dhm), (DHe, dhe)):
                X.reshape(-1)[Q] = v
            n_sure = int(sure.sum())
            run.decisions += len(A)
            run.certified += n_sure
            if n_sure < len(A):
                run.unresolved_by_row[A[~sure]] += 1
                if len(run.unresolved_cells) < SAMPLE:
                    run.unresolved_cells += list(zip(A[~sure].tolist(), Bv[~sure].tolist()))[:SAMPLE]
            if keep:
                tabs["F"][:, A, Bv] = vfl, vfh
                tabs["Cm"][:, A, Bv], tabs["Ce"][:, A, Bv] = (vclm, vchm), (vcle, vche)
                tabs["best"][A, Bv], tabs["certified"][A, Bv] = best + 1, sure
                tabs["cand_F"][:, :, A, Bv] = fl, fh
                tabs["cand_Cm"][:, :, A, Bv], tabs["cand_Ce"][:, :, A, Bv] = (clm, chm), (cle, che)
            elif keep_choices:
                run.tables["best"][A, Bv], run.tables["certified"][A, Bv] = best + 1, sure
                run.tables["F"][:, A, Bv] = vfl, vfh
            if s >= 2 * N - 1:
                _first(run, A, Bv, best, sure, gl, gh, (dlm, dle), (dhm, dhe))
            pending += 1
            if pending >= 64:
                progress.advance(pending)
                pending = 0
        last = a1 - a0 + 1  # the band's last row is the next band's row 0
        for X in (FL, FH, GL, GH, CLm, CHm, DLm, DHm, CLe, CHe, DLe, DHe):
            X[0] = X[last]
    progress.advance(pending)
    run.seconds, run.cpu_seconds = time.perf_counter() - start, time.process_time() - cpu
    return run


def decide(fl, fh, clm, cle, chm, che, tix):
    """Per column (cell) of the ``(T, m)`` candidate intervals: ``(index, certified)``.

    Two proposals, the largest lower end of ``F_t`` and the smallest upper end of
    ``1 - F_t`` (wide pairs); one is certified when for every other ``t``,
    ``lo(F_w) > hi(F_t)`` or ``hi(1 - F_w) < lo(1 - F_t)``.  Uncertified cells get the
    first proposal.

    >>> fl, fh = np.array([[0.1], [0.5]]), np.array([[0.2], [0.6]])
    >>> (clm, cle), (chm, che) = wide.normal(1 - fh), wide.normal(1 - fl)
    >>> decide(fl, fh, clm, cle, chm, che, np.arange(2)[:, None])
    (array([1]), array([ True]))
    >>> fh[0] = 0.55   # now [0.1, 0.55] overlaps [0.5, 0.6], in F and in 1 - F
    >>> (clm, cle), (chm, che) = wide.normal(1 - fh), wide.normal(1 - fl)
    >>> decide(fl, fh, clm, cle, chm, che, np.arange(2)[:, None])
    (array([1]), array([False]))
    """
    cols = np.arange(fl.shape[1])
    emin = che.min(axis=0)
    w_c = np.argmin(np.where(che == emin, chm, np.inf), axis=0)
    out, sure = None, None
    for w in (np.argmax(fl, axis=0), w_c):
        sep = (fl[w, cols] > fh) | wide.less(chm[w, cols], che[w, cols], clm, cle) | (tix == w)
        ok = sep.all(axis=0)
        if out is None:
            out, sure = w, ok
        else:
            out = np.where(sure, out, w)
            sure = sure | ok
    return out, sure


def _first(run: IntervalRun, A, Bv, best, sure, gl, gh, dlo, dhi) -> None:
    """Record the first choices (cells (N, N) and (N-1, N)) and the answer G(N, N) (its complement
    ``D = 1 - G`` as a wide pair, converted outwards)."""
    N = run.target
    for k, (a, b) in enumerate(zip(A.tolist(), Bv.tolist())):
        if b != N:
            continue
        if a == N:
            run.first["after_player1_misses"] = (int(best[k]) + 1, bool(sure[k]))
            dl, dh = float(wide.to_float_down(dlo[0][k], dlo[1][k])), float(wide.to_float_up(dhi[0][k], dhi[1][k]))
            lo, hi = max(float(gl[k]), float(dn(1.0 - dh))), min(float(gh[k]), float(up(1.0 - dl)))
            run.answer, run.answer_complement = (lo, hi), (dl, dh)
            run.answer_complement_wide = ((float(dlo[0][k]), int(dlo[1][k])), (float(dhi[0][k]), int(dhi[1][k])))
        elif a == N - 1:
            run.first["after_player1_scores"] = (int(best[k]) + 1, bool(sure[k]))
