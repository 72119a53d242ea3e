"""Chef Showdown, exact and fast: integer numerators over one denominator per alive set.

Write every skill over one common denominator, ``p_k = a_k / F`` and
``b_k = c_k / F`` with ``c_k = F - a_k`` (for Fibonacci skills ``F = F_{n+1}``).
Every value of an alive set ``M`` (all ``W_{M,t}(i)`` and ``D_{M,t}``) is kept as
an integer numerator over one denominator ``Den(M)``.  With the chosen success
states' vectors ``U_r = u_r / L`` and ``V_r = v_r / L`` over a common multiple ``L``
of their denominators and ``N_M = F^q - c_0 c_1 ... c_{q-1}``, the seed's
closed form becomes, in integers (``n_r`` over ``F^{q-r} L N_M``, ``n_0`` over ``L N_M``)::

    n_0     = sum_r (c_0 ... c_{r-1}) a_r F^{q-1-r} u_r
    n_{q-1} = a_{q-1} u_{q-1} N_M + c_{q-1} n_0
    n_r     = a_r u_r N_M F^{q-r-1} + c_r n_{r+1}                (r = q-2 .. 1)

and the same for the dishes with ``u_r`` replaced by ``F L + a_r v_r`` (and
``a_r`` by 1).  So ``Den(M) = F^{q-1} L N_M`` and a whole alive set costs only
multiplications of big integers by small ones, additions, and the few gcds
that form ``L`` and take out the common factor of the set once at the end --
instead of a gcd after every operation as ``mpq`` does.

Targets are compared through a float shadow of each value (correctly rounded,
so relative error at most 2^-53); when the two best shadows are within a
relative 2^-40 the candidates are compared exactly by cross-multiplication,
which also finds every exact tie.  Only two layers are held at a time.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any, Callable

try:
    from gmpy2 import gcd, lcm, mpz
    from gmpy2 import mpq as _rational
except ImportError:  # the same integers, slower: Python ints (E(14) then takes minutes)
    from math import gcd, lcm

    mpz = int
    _rational = Fraction

from ..progress import SILENT
from .chefs_cycle import TIE_RULES, masks_of_size, members

SHADOW_CLOSE = 2.0**-40


def _shadow(num, den) -> float:
    """num/den as a float with relative error below 3.01 * 2^-53.

    Both are cut to their top ~80 bits (relative error 2^-79), each converted
    (2^-53) and divided (2^-53): linear time, where ``int / int`` is quadratic.
    """
    if not num:
        return 0.0
    s = max(0, int(den.bit_length()) - 80)
    return float(num >> s) / float(den >> s)


@dataclass
class FastMask:
    """An alive set: ``w[r][s]`` / ``den`` = W_{M,m_r}(m_s), ``d[r]`` / ``den`` = D_{M,m_r}."""

    members: list[int]
    den: Any
    w: list[list[Any]]
    d: list[Any]
    target: list[int | None]
    prev_win: list[float]  # float shadow of W_{M,m_r}(m_{r-1}): the previous mover's chance
    ties: list = field(default_factory=list)  # movers r whose best target is exactly tied


@dataclass
class FastSolution:
    n: int
    tie: str
    full: FastMask = None
    ties: list = field(default_factory=list)  # (mask, mover, [tied targets]) over all states
    policy: dict = field(default_factory=dict)  # (mask, mover) -> target, when kept
    exact_compares: int = 0
    peak_numbers: int = 0  # most integers held at once (two layers)
    peak_bits: int = 0  # their total size in bits
    value_bits: int = 0  # total size of every value computed (all layers): the bit work is at least this

    def value(self, x):
        """``x / Den(full set)`` as an mpq (GMP reduces it)."""
        return _rational(x, self.full.den)

    @property
    def E(self):
        return self.value(self.full.d[0])

    @property
    def W1(self) -> list:
        return [self.value(x) for x in self.full.w[0]]


def common_denominator(skills) -> tuple[int, list[int]]:
    """``F`` and the numerators ``a_k`` with ``p_k = a_k / F``, F the lcm of the denominators."""
    fr = [Fraction(s) for s in skills]
    F = 1
    for f in fr:
        F = F * f.denominator // math.gcd(F, f.denominator)
    return F, [int(f * F) for f in fr]


def _compare(x_num, x_den, y_num, y_den) -> int:
    """Sign of x - y for two fractions with positive denominators."""
    lhs, rhs = x_num * y_den, y_num * x_den
    return (lhs > rhs) - (lhs < rhs)


def solve_fast(
    skills,
    tie: str = "nearest",
    reduce: bool = False,
    keep_policy: bool = False,
    visit: Callable[[int, dict], None] | None = None,
    progress=SILENT,
) -> FastSolution:
    """Exact solution for the skills (Fractions, mpq or ints) with the given tie rule.

    ``reduce`` divides each alive set's values by their common gcd; it makes the
    denominators only ~0.2% shorter (n = 14: 516,900 vs 517,897 bits) and costs
    ~35% more time, so it is off by default.
    """
    if tie not in TIE_RULES:
        raise ValueError(f"tie rule must be one of {TIE_RULES}")
    n = len(skills)
    F_int, a_int = common_denominator(skills)
    F = mpz(F_int)
    a = [mpz(x) for x in a_int]
    c = [F - x for x in a]
    sol = FastSolution(n, tie)
    one = mpz(1)
    prev = {1 << i: FastMask([i], one, [[one]], [mpz(0)], [None], [1.0]) for i in range(n)}
    if visit:
        visit(1, prev)
    Fpow = [F**k for k in range(n + 1)]
    farthest = tie == "farthest"
    progress.start(f"chefs n={n} (fast exact)", 2**n - 1 - n)
    for q in range(2, n + 1):
        layer = {}
        for mask in masks_of_size(n, q):
            mem = members(mask)
            layer[mask] = _solve_mask(mask, mem, q, prev, a, c, F, Fpow, farthest, reduce, sol, keep_policy)
            progress.advance()
        sol.value_bits += sum(int(m.den.bit_length()) * (q * q + q) for m in layer.values())
        nums = sum(q * q + q + 1 for _ in layer) + sum(len(m.members) ** 2 + len(m.members) + 1 for m in prev.values())
        if nums > sol.peak_numbers:
            sol.peak_numbers = nums
            sol.peak_bits = sum(int(m.den.bit_length()) * (len(m.members) ** 2 + len(m.members) + 1)
                                for lay in (layer, prev) for m in lay.values())
        if visit:
            visit(q, layer)
        prev = layer
    sol.full = prev[(1 << n) - 1]
    return sol


def _solve_mask(mask, mem, q, prev, a, c, F, Fpow, farthest, reduce, sol, keep_policy) -> FastMask:
    chosen = []  # (successor FastMask, next index, index of target in mem)
    target = []
    ties = []
    for r in range(q):
        t = mem[r]
        cands = []  # (shadow, distance, successor, next index, position of t in successor)
        for dist in range(1, q):
            j_idx = (r + dist) % q
            S = mask & ~(1 << mem[j_idx])
            st = prev[S]
            # position of t in S, and of next_S(t)
            t_pos = r if j_idx > r else r - 1
            nxt = (t_pos + 1) % (q - 1)
            cands.append((st.prev_win[nxt], dist, st, nxt, t_pos, j_idx))
        best = _best_target(cands, farthest, sol)
        if best[1]:
            ties.append((r, best[1]))
            sol.ties.append((mask, t, sorted(mem[x[5]] for x in best[1])))
        _, _, st, nxt, _, j_idx = best[0]
        chosen.append((st, nxt, j_idx))
        target.append(mem[j_idx])
        if keep_policy:
            sol.policy[(mask, t)] = mem[j_idx]
    # L: a common multiple of the chosen successors' denominators
    dens = []
    for st, _, _ in chosen:
        if not any(st.den is d for d in dens):
            dens.append(st.den)
    L = dens[0]
    for d in dens[1:]:
        if L % d:
            L = lcm(L, d)
    cof = {id(d): L // d for d in dens}
    ar = [a[m] for m in mem]
    cr = [c[m] for m in mem]
    prod_c = mpz(1)
    for x in cr:
        prod_c *= x
    Nm = Fpow[q] - prod_c
    u = []
    v = []
    FL = F * L
    for r, (st, nxt, j_idx) in enumerate(chosen):
        k = cof[id(st.den)]
        row = [x * k for x in st.w[nxt]]
        row.insert(j_idx, mpz(0))
        u.append(row)
        v.append(FL + ar[r] * (st.d[nxt] * k))
    # n_0 and m_0 (dishes)
    n0 = [mpz(0)] * q
    m0 = mpz(0)
    pc = mpz(1)
    for r in range(q):
        K = pc * Fpow[q - 1 - r]
        Ka = K * ar[r]
        n0 = [x + Ka * y for x, y in zip(n0, u[r])]
        m0 += K * v[r]
        pc *= cr[r]
    nn = [None] * q
    mm = [None] * q
    nn[0], mm[0] = n0, m0
    nxt_n, nxt_m = n0, m0
    for r in range(q - 1, 0, -1):
        s = Nm * Fpow[q - r - 1]
        sa = s * ar[r]
        cur_n = [sa * x + cr[r] * y for x, y in zip(u[r], nxt_n)]
        cur_m = s * v[r] + cr[r] * nxt_m
        nn[r], mm[r] = cur_n, cur_m
        nxt_n, nxt_m = cur_n, cur_m
    # common denominator F^{q-1} L N_M: scale n_r (denominator F^{q-r} L N_M) by F^{r-1}
    den = Fpow[q - 1] * L * Nm
    w = [[x * Fpow[q - 1] for x in nn[0]]] + [[x * Fpow[r - 1] for x in nn[r]] for r in range(1, q)]
    d = [mm[0] * Fpow[q - 1]] + [mm[r] * Fpow[r - 1] for r in range(1, q)]
    if reduce:
        g = den
        for row in w:
            for x in row:
                if x:
                    g = gcd(g, x)
                    if g == 1:
                        break
            if g == 1:
                break
        if g != 1:
            for x in d:
                g = gcd(g, x)
                if g == 1:
                    break
        if g != 1:
            den = den // g
            w = [[x // g for x in row] for row in w]
            d = [x // g for x in d]
    prev_win = [_shadow(w[r][r - 1], den) for r in range(q)]
    return FastMask(mem, den, w, d, target, prev_win, ties)


def _best_target(cands, farthest, sol):
    """The chosen candidate and the list of candidates exactly tied with it.

    Float shadows decide when the two largest differ by more than a relative
    2^-40; otherwise the close candidates are compared exactly.
    """
    top = max(x[0] for x in cands)
    close = [x for x in cands if x[0] >= top - top * SHADOW_CLOSE]
    if len(close) == 1:
        return close[0], []
    # exact comparison among the close ones (in order of distance)
    best = close[0]
    tied = [best]
    for x in close[1:]:
        sol.exact_compares += 1
        bst, bn, bt = best[2], best[3], best[4]
        xst, xn, xt = x[2], x[3], x[4]
        cmp = _compare(xst.w[xn][xt], xst.den, bst.w[bn][bt], bst.den)
        if cmp > 0:
            best, tied = x, [x]
        elif cmp == 0:
            tied.append(x)
            if farthest:
                best = x
    return best, (tied if len(tied) > 1 else [])
