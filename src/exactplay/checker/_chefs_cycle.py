"""Chef Showdown's checker: the exact values of one alive set's cycle of movers, as integer
numerators over one denominator (standard library; gmpy2 integers when installed)."""

from __future__ import annotations

from ._ints import big, gcd


def _successor(mask: int, mem: list[int], r: int, j_idx: int) -> tuple[int, int, int]:
    """For mover mem[r] removing mem[j_idx]: (mask of M minus the target, index of
    next(mover) among the survivors, index of the mover among them) -- members keep
    their order, so the mover's index drops by one when the target was before it."""
    t_pos = r if j_idx > r else r - 1
    return mask & ~(1 << mem[j_idx]), (t_pos + 1) % (len(mem) - 1), t_pos


class _Values:
    """Values of one alive set: ``num[r][s] / den`` = W_{M,m_r}(m_s), ``dish[r] / den`` = D_{M,m_r}."""

    __slots__ = ("den", "num", "dish", "trunc")

    def __init__(self, den, num, dish):
        self.den, self.num, self.dish = den, num, dish
        self.trunc = {}

    def floor64(self, r: int, s: int) -> int:
        key = (r, s)
        if key not in self.trunc:
            self.trunc[key] = (self.num[r][s] << 64) // self.den
        return self.trunc[key]


def _compare(a: _Values, ar, as_, b: _Values, br, bs) -> int:
    """Sign of W_a(ar, as_) - W_b(br, bs), exactly."""
    fa, fb = a.floor64(ar, as_), b.floor64(br, bs)
    if fa >= fb + 2:
        return 1
    if fb >= fa + 2:
        return -1
    lhs, rhs = a.num[ar][as_] * b.den, b.num[br][bs] * a.den
    return (lhs > rhs) - (lhs < rhs)


def _solve_cycle(mask, mem, policy, prev, a, c, F) -> _Values:
    """X_r = p_r U_r + b_r X_{r+1} around the cycle of one alive set, in integers.

    With p = a/F, b = c/F, U_r = u_r/L:  X_0 = sum_r c_0..c_{r-1} a_r F^{q-1-r} u_r / (L N),
    N = F^q - c_0..c_{q-1}; then X_r (denominator F^{q-r} L N) = a_r u_r N F^{q-r-1} + c_r X_{r+1}.
    Dishes: the same with a_r u_r replaced by F L + a_r v_r.
    """
    q = len(mem)
    succ = []
    for r, t in enumerate(mem):
        j_idx = mem.index(policy[(mask, t)])
        S, nxt, _ = _successor(mask, mem, r, j_idx)
        succ.append((prev[S], nxt, j_idx))
    L = big(1)
    for st, _, _ in succ:
        if L % st.den:
            L = L * st.den // gcd(L, st.den)
    u, v = [], []
    for r, (st, nxt, j_idx) in enumerate(succ):
        k = L // st.den
        row = [x * k for x in st.num[nxt]]
        row.insert(j_idx, 0)
        u.append([a[mem[r]] * x for x in row])
        v.append(F * L + a[mem[r]] * st.dish[nxt] * k)
    Fp = [F**e for e in range(q + 1)]
    prod_c = big(1)
    for m in mem:
        prod_c *= c[m]
    N = Fp[q] - prod_c
    x0 = [big(0)] * q
    y0 = big(0)
    pc = big(1)
    for r in range(q):
        K = pc * Fp[q - 1 - r]
        x0 = [x + K * y for x, y in zip(x0, u[r])]
        y0 += K * v[r]
        pc *= c[mem[r]]
    xs, ys = [None] * q, [None] * q
    xs[0], ys[0] = x0, y0
    nx, ny = x0, y0
    for r in range(q - 1, 0, -1):
        s = N * Fp[q - r - 1]
        cr = c[mem[r]]
        nx = [s * x + cr * y for x, y in zip(u[r], nx)]
        ny = s * v[r] + cr * ny
        xs[r], ys[r] = nx, ny
    den = Fp[q - 1] * L * N
    num = [[x * Fp[q - 1] for x in xs[0]]] + [[x * Fp[r - 1] for x in xs[r]] for r in range(1, q)]
    dish = [ys[0] * Fp[q - 1]] + [ys[r] * Fp[r - 1] for r in range(1, q)]
    return _Values(den, num, dish)
