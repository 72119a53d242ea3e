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

Targets are compared through *proved enclosures* of each value (see
:func:`enclosure`): two dyadic numbers ``lo <= W <= hi`` with 64-bit integer
mantissas and unbounded integer exponents, built from the leading bits of the
numerator and the denominator separately, in integer arithmetic only -- no
float, no underflow, no rounding that is not accounted for.  A candidate whose
upper end lies below the largest lower end is provably not a best target; when
more than one candidate survives that filter they are compared exactly by
cross-multiplication, which also finds every exact tie.  Only two layers are
held at a time, and an alive set of size q-1 is dropped as soon as the last of
its n-q+1 supersets (the only sets that read it) is solved.
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

from exactplay.audit.enclosure import best_threshold
from exactplay.progress import SILENT
from exactplay.games.chefs.cycle import TIE_RULES, masks_of_size, members

PREC = 64  # bits of an enclosure's mantissas (and of the leading bits read from num and den)
ZERO = (float("-inf"), 0)  # the key of the value 0: below the key of every positive number


def _key_down(m: int, e: int) -> tuple:
    """The largest ``(e', m')`` with ``2^(PREC-1) <= m' < 2^PREC`` and ``m' 2^e' <= m 2^e`` (m > 0)."""
    k = m.bit_length() - PREC
    if k > 0:
        return (e + k, m >> k)
    return (e + k, m << -k)


def _key_up(m: int, e: int) -> tuple:
    """The smallest ``(e', m')`` with ``2^(PREC-1) <= m' < 2^PREC`` and ``m' 2^e' >= m 2^e`` (m > 0)."""
    k = m.bit_length() - PREC
    if k <= 0:
        return (e + k, m << -k)
    m = -((-m) >> k)  # ceiling of m / 2^k
    if m >> PREC:  # rounded up to 2^PREC exactly: renormalise (exact)
        return (e + k + 1, m >> 1)
    return (e + k, m)


def enclosure(num, den) -> tuple[tuple, tuple]:
    """Keys ``lo, hi`` of two dyadic numbers with ``lo <= num/den <= hi`` (num >= 0, den > 0).

    A key ``(e, m)`` stands for ``m * 2^e`` with ``2^(P-1) <= m < 2^P`` (P = PREC),
    or is :data:`ZERO` for 0.  **Keys compare (as Python tuples) exactly as the
    numbers they stand for**: if ``e > e'`` then ``m 2^e >= 2^(P-1+e) >= 2^(P+e')
    > m' 2^e'``, and for equal ``e`` the mantissas decide; ``ZERO``'s ``-inf``
    is below every integer exponent.  So comparing keys is exact -- no rounding,
    no overflow, no underflow, whatever the exponents (the command line accepts
    skills down to 10^-1992, ~2^-6617, and winning chances go lower still: far
    below a float's smallest 2^-1074, where the old float shadow read 0).

    **The bound.**  Let ``s_a = max(0, bits(num) - P)``, ``a = floor(num / 2^s_a)``,
    ``s_b = max(0, bits(den) - P)``, ``b = floor(den / 2^s_b)`` (the leading P bits),
    and ``a+ = a + [s_a > 0]``, ``b+ = b + [s_b > 0]``.  Then (truncation)
    ``a 2^s_a <= num <= a+ 2^s_a`` and ``b 2^s_b <= den <= b+ 2^s_b``, so::

        floor(a 2^s / b+) 2^(s_a-s_b-s)  <=  num/den  <=  ceil(a+ 2^s / b) 2^(s_a-s_b-s)

    for any ``s >= 0`` (here chosen so the quotients have at least P bits).
    Normalising the lower end rounds its mantissa down and the upper end's up
    (:func:`_key_down`, :func:`_key_up`), which keeps both inequalities.  Hence
    ``lo <= num/den <= hi`` holds for *every* input, and this is all the target
    choice relies on.  (How wide the enclosure is only decides how often the exact
    comparison runs: cutting a and b, the two divisions and the two normalisations each
    cost a factor at most ``1 + 2^(1-P)``, so ``hi/lo < 1 + 2^(4-P)``, and only
    values within about 2^-60 of each other reach the exact comparison.)
    """
    if not num:
        return ZERO, ZERO
    s_a = max(0, int(num.bit_length()) - PREC)
    s_b = max(0, int(den.bit_length()) - PREC)
    a = int(num >> s_a)
    b = int(den >> s_b)
    a_up = a + (s_a > 0)
    b_up = b + (s_b > 0)
    s = max(0, PREC + b_up.bit_length() - a.bit_length() + 1)  # a 2^s / b+ >= 2^PREC
    e = s_a - s_b - s
    lo = _key_down((a << s) // b_up, e)
    hi = _key_up(-((-(a_up << s)) // b), e)
    return lo, hi


@dataclass
class FastMask:
    """An alive set: ``w[r][s]`` / ``den`` = W_{M,m_r}(m_s), ``d[r]`` / ``den`` = D_{M,m_r}."""

    members: list[int]
    den: Any
    w: list[list[Any]]
    d: list[Any]
    target: list[int | None]
    prev_win: list[tuple]  # enclosure (lo, hi) of W_{M,m_r}(m_{r-1}): the previous mover's chance
    ties: list = field(default_factory=list)  # movers r whose best target is exactly tied


@dataclass
class FastSolution:
    n: int
    tie: str
    full: FastMask = None
    ties: list = field(default_factory=list)  # (mask, mover, [tied targets]) over all states
    policy: dict = field(default_factory=dict)  # (mask, mover) -> target, when kept
    exact_compares: int = 0
    peak_numbers: int = 0  # most integers held at once (a layer and what the next still reads of the one below)
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


def integer_skills(skills) -> tuple:
    """``F, a, c, Fpow``: the common denominator, ``a_k``, ``c_k = F - a_k`` and ``F^0..F^n`` (mpz).

    >>> integer_skills([Fraction(1, 3), Fraction(1, 2)])
    (mpz(6), [mpz(2), mpz(3)], [mpz(4), mpz(3)], [mpz(1), mpz(6), mpz(36)])
    """
    F_int, a_int = common_denominator(skills)
    F = mpz(F_int)
    a = [mpz(x) for x in a_int]
    return F, a, [F - x for x in a], [F**k for k in range(len(skills) + 1)]


def singleton(i: int) -> FastMask:
    """The alive set ``{i}``: chef i has won (``W = 1``, no dishes left, no target)."""
    one = mpz(1)
    return FastMask([i], one, [[one]], [mpz(0)], [None], [enclosure(one, one)])


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
    F, a, c, Fpow = integer_skills(skills)
    sol = FastSolution(n, tie)
    prev = {1 << i: singleton(i) for i in range(n)}
    if visit:
        visit(1, prev)
    farthest = tie == "farthest"
    progress.start(f"chefs n={n} (fast exact)", 2**n - 1 - n)
    live = [0, 0]  # numbers and bits held now
    for q in range(2, n + 1):
        layer = {}
        # S of size q-1 is read by its n-q+1 supersets M = S + {j}; free it after the last one
        waiting = dict.fromkeys(prev, n - q + 1)
        live[0] = sum(_numbers(m) for m in prev.values())
        live[1] = sum(_bits(m) for m in prev.values())
        for mask in masks_of_size(n, q):
            mem = members(mask)
            st = layer[mask] = _solve_mask(mask, mem, q, prev, a, c, F, Fpow, farthest, reduce, sol, keep_policy)
            live[0] += _numbers(st)
            live[1] += _bits(st)
            if live[0] > sol.peak_numbers:
                sol.peak_numbers = live[0]
            sol.peak_bits = max(sol.peak_bits, live[1])
            for j in mem:
                S = mask & ~(1 << j)
                waiting[S] -= 1
                if not waiting[S]:
                    gone = prev.pop(S)
                    live[0] -= _numbers(gone)
                    live[1] -= _bits(gone)
            progress.advance()
        sol.value_bits += sum(int(m.den.bit_length()) * (q * q + q) for m in layer.values())
        if visit:
            visit(q, layer)
        prev = layer
    sol.full = prev[(1 << n) - 1]
    return sol


def _numbers(m: FastMask) -> int:
    """Integers an alive set of size q holds: q^2 winner numerators, q dishes, the denominator."""
    q = len(m.members)
    return q * q + q + 1


def _bits(m: FastMask) -> int:
    """Their size, counting each as long as the denominator (which bounds them, up to a few bits)."""
    return int(m.den.bit_length()) * _numbers(m)


def _solve_mask(mask, mem, q, prev, a, c, F, Fpow, farthest, reduce, sol, keep_policy) -> FastMask:
    chosen = []  # (successor FastMask, next index, index of target in mem)
    target = []
    ties = []
    for r in range(q):
        t = mem[r]
        cands = []  # (enclosure, distance, successor, next index, position of t in successor, target index)
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
    prev_win = [enclosure(w[r][r - 1], den) for r in range(q)]
    return FastMask(mem, den, w, d, target, prev_win, ties)


def _best_target(cands, farthest, sol):
    """The chosen candidate and the list of candidates exactly tied with it.

    ``x[0]`` is the enclosure ``(lo, hi)`` of candidate x's value (proved by
    :func:`enclosure`), and keys compare exactly.  Let ``top`` be the largest
    ``lo``, owned by candidate c, and ``v*`` the best value.  Then
    ``top <= v(c) <= v*``, so:

    * a candidate with ``hi < top`` has value ``<= hi < top <= v*``: it is neither
      a best target nor tied with one, and is dropped without an exact comparison;
    * every best candidate b has ``hi(b) >= v(b) = v* >= top``: it is kept
      (:func:`exactplay.audit.enclosure.best_threshold`, the tool's one certified comparison).

    If one candidate is kept it is the unique best; otherwise the kept ones are
    compared exactly (cross-multiplication), in order of distance, by the tie rule
    -- so the choice and the set of exact ties are those of the exact recurrence.
    """
    top = best_threshold(x[0][0] for x in cands)
    close = [x for x in cands if x[0][1] >= top]
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
