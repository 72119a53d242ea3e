"""One region of a parametric certificate: Bellman identities and the signs of the margins.

An identity ``A = c_0 + sum_i c_i V_i`` of rational functions (``A = A_n / A_d``, ``V_i = N_i / D_i``,
``c_i`` polynomials) holds iff the polynomial ``F = A_n L - A_d (c_0 L + sum_i c_i N_i L / D_i)``
is 0, ``L`` the product of the distinct ``D_i``.  ``deg F <= B = deg L + max(deg A_n, deg A_d +
max(0, max_i deg c_i + deg N_i - deg D_i))``, so ``F = 0`` iff it vanishes at ``B + 1`` points:
``x = 0, 1, ..., B`` (exact integer and rational arithmetic, standard library only).
"""

from __future__ import annotations

from fractions import Fraction as F
from math import lcm
from typing import Any

from ..errors import VerificationError
from ._sturm import Endpoint, no_root_between, sign, sub
from ._strict import listed as _list, rational as _rational

__all__ = ["RegionCheck", "_fail", "_poly", "_rf"]


def _fail(message: str, field: str, state: Any = None):
    raise VerificationError(message, field=field, state=state)


def _poly(x: Any, field: str, state: Any = None) -> list:
    f = [_rational(c, field, state) for c in _list(x, field, state)]
    if f and f[-1] == 0:
        _fail("a polynomial's last (highest-degree) coefficient is 0", field, state)
    return f


def _rf(x: Any, field: str, state: Any = None) -> tuple[list, list]:
    num, den = _list(x, field, state, 2)
    n, d = _poly(num, field, state), _poly(den, field, state)
    if not d:
        _fail("zero denominator", field, state)
    return n, d


class _Scaled:
    """A polynomial with rational coefficients as ``g / d``, ``g`` integer, ``d > 0``: ``g(x)`` at integers, memoized."""

    __slots__ = ("g", "d", "deg", "memo")

    def __init__(self, f: list) -> None:
        d = lcm(*(c.denominator for c in f)) if f else 1
        self.g = [int(c * d) for c in f]
        self.d = d
        self.deg = len(f) - 1
        self.memo: dict[int, int] = {}

    def __call__(self, x: int) -> int:
        v = self.memo.get(x)
        if v is None:
            acc = 0
            for c in reversed(self.g):
                acc = acc * x + c
            v = self.memo[x] = acc
        return v


class RegionCheck:
    def __init__(self, ch, k: int, reg: Any, left, right) -> None:
        from ._strict import keys as _keys

        self.ch, self.k, self.left, self.right = ch, k, left, right
        self.reg = _keys(reg, ("policy", "values", "margins"), (), f"regions[{k}]")
        self.field = f"regions[{k}]"
        self.margins_checked = 0
        self.scaled: dict[tuple, _Scaled] = {}
        self.no_roots: dict[tuple, bool] = {}

    def S(self, f: list) -> _Scaled:
        key = tuple(f)
        s = self.scaled.get(key)
        if s is None:
            s = self.scaled[key] = _Scaled(f)
        return s

    def run(self) -> list:
        ch, field = self.ch, self.field
        pol = _list(self.reg["policy"], field + ".policy", None, ch.n)
        for s in range(ch.n):
            want_none = ch.terminal[s] is not None
            a = pol[s]
            if want_none != (a is None) or (a is not None and not (type(a) is int and 0 <= a < ch.n_actions[s])):
                _fail(f"policy entry {a!r} is not an action of this state", field + ".policy", s)
        self.policy = pol
        vals = _list(self.reg["values"], field + ".values", None, ch.n)
        self.V = []
        for s in range(ch.n):
            row = _list(vals[s], field + ".values", s, ch.P)
            self.V.append([tuple(self.S(f) for f in _rf(v, field + ".values", s)) for v in row])
        self.point = self.interior_point()
        self.check_denominators(vals)
        for s in range(ch.n):
            self.check_bellman(s)
        self.check_margins()
        return pol

    def interior_point(self) -> F:
        for _ in range(400):
            u = self.left.hi if isinstance(self.left, Endpoint) else self.left
            v = self.right.lo if isinstance(self.right, Endpoint) else self.right
            if u < v:
                return (u + v) / 2
            for e in (self.left, self.right):
                if isinstance(e, Endpoint):
                    e.refine()
        _fail("the region is empty", self.field)

    def no_root(self, f: list) -> bool:
        key = tuple(f)
        r = self.no_roots.get(key)
        if r is None:
            r = self.no_roots[key] = len(f) == 1 or no_root_between(f, self.left, self.right)
        return r

    def check_denominators(self, vals) -> None:
        for s in range(self.ch.n):
            for c in range(self.ch.P):
                den = _rf(vals[s][c], self.field + ".values", s)[1]
                if not self.no_root(den):
                    _fail(f"the denominator of component {c} vanishes inside the region", self.field + ".values", s)

    def identity(self, A: tuple, c0: F, terms: list[tuple[list, tuple]]) -> bool:
        """``A == c0 + sum c_i V_i`` as rational functions (terms: ``(c_i, (N_i, D_i))``).

        With every polynomial ``f = g_f / d_f`` (``g_f`` integer) and ``K`` the product of the ``d_D``
        of the distinct denominators, ``K F(x) / (...)`` reads, in integers at each point:
        ``g_An d_Ad W prod g_D == g_Ad d_An W (c0 prod g_D + sum_i w_i g_ci g_Ni prod_{D != D_i} g_D)``,
        ``w_i = d_Di / (d_ci d_Ni)`` and ``W`` the common denominator of ``c0`` and the ``w_i``.
        """
        An, Ad = A
        dens: dict[int, _Scaled] = {}
        for _, (_, D) in terms:
            dens.setdefault(id(D), D)
        Ds = list(dens.values())
        dL = sum(D.deg for D in Ds)
        extra = max([0] + [len(c) - 1 + N.deg - D.deg for c, (N, D) in terms])
        B = dL + max(An.deg, Ad.deg + extra)
        cs = [(self.S(c), N, D) for c, (N, D) in terms]
        weights = [F(D.d, cp.d * N.d) for cp, N, D in cs]
        W = lcm(F(c0).denominator, *(w.denominator for w in weights))
        c0W = int(F(c0) * W)
        wW = [int(w * W) for w in weights]
        left_scale, right_scale = Ad.d * W, An.d
        index = {id(D): i for i, D in enumerate(Ds)}
        for x in range(B + 1):
            dv = [D(x) for D in Ds]
            prefix = [1]
            for y in dv:
                prefix.append(prefix[-1] * y)
            suffix = [1]
            for y in reversed(dv):
                suffix.append(suffix[-1] * y)
            suffix.reverse()
            L = prefix[-1]
            acc = c0W * L
            for (cp, N, D), w in zip(cs, wW):
                i = index[id(D)]
                acc += w * cp(x) * N(x) * prefix[i] * suffix[i + 1]
            if An(x) * left_scale * L != Ad(x) * right_scale * acc:
                return False
        return True

    def check_bellman(self, s: int) -> None:
        ch = self.ch
        for c in range(ch.P):
            if ch.terminal[s] is not None:
                ok = self.identity(self.V[s][c], ch.terminal[s][c], [])
            else:
                a = self.policy[s]
                r = ch.rewards[s][a]
                ok = self.identity(self.V[s][c], r[c] if r is not None else F(0),
                                   [(q, self.V[t][c]) for t, q in ch.trans[s][a]])
            if not ok:
                what = "payoff" if ch.terminal[s] is not None else "Bellman equation under the policy"
                _fail(f"component {c}: the value is not the {what} (as a rational function of {ch.symbol})",
                      self.field + ".values", s)

    def check_margins(self) -> None:
        ch, field = self.ch, self.field + ".margins"
        want = {(s, a) for s in range(ch.n) if ch.mover[s] is not None and ch.n_actions[s] > 1
                for a in range(ch.n_actions[s]) if a != self.policy[s]}
        seen = set()
        for item in _list(self.reg["margins"], field):
            s, a, num, den = _list(item, field, None, 4)
            if (s, a) not in want or (s, a) in seen:
                _fail(f"margin for action {a!r} is not expected (or repeated)", field, s)
            seen.add((s, a))
            m = (self.S(_poly(num, field, s)), self.S(_poly(den, field, s)))
            if not m[1].g:
                _fail("zero denominator", field, s)
            comp, sgn = ch.keys[ch.mover[s]]
            b = self.policy[s]
            rb, ra = ch.rewards[s][b], ch.rewards[s][a]
            c0 = sgn * ((rb[comp] if rb else 0) - (ra[comp] if ra else 0))
            coef: dict[int, list] = {}
            for t, q in ch.trans[s][b]:
                coef[t] = sub(coef.get(t, []), [-x for x in q])
            for t, q in ch.trans[s][a]:
                coef[t] = sub(coef.get(t, []), q)
            terms = [([sgn * x for x in cq], self.V[t][comp]) for t, cq in coef.items() if cq]
            if not self.identity(m, F(c0), terms):
                _fail(f"the margin of action {ch.model['actions'][s][a]!r} is not the difference of the one-step "
                      "values", field, s)
            n_poly, d_poly = _poly(num, field, s), _poly(den, field, s)
            if not n_poly:
                if a < b:
                    _fail(f"action {ch.model['actions'][s][a]!r} ties with the policy's everywhere and comes first "
                          "(the earlier action wins ties)", self.field + ".policy", s)
            elif not (self.no_root(n_poly) and self.no_root(d_poly)
                      and sign(n_poly, self.point) * sign(d_poly, self.point) > 0):
                _fail(f"action {ch.model['actions'][s][a]!r} is better than the policy's somewhere in the region "
                      "(the margin is not > 0 on the whole region)", field, s)
            self.margins_checked += 1
        missing = sorted(want - seen)
        if missing:
            _fail(f"no margin for action {missing[0][1]}", field, missing[0][0])
