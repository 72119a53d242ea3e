"""Exact policy evaluation at the cut states only, and balls for every state.

A fixed policy on a component ``S`` (every state can leave ``S``): the cut states ``F`` (targets of
back edges of a depth-first search, :func:`.linear._feedback_order`) leave an acyclic graph, and
the search's post-order is a topological order of it.  For a cut ``f`` the forward pass of *reach
probabilities* ``rho_f(v)`` (the probability that a play from ``f`` visits the non-cut state ``v``
before it reaches a cut or leaves ``S``; ``rho_f(f) = 1``) gives

    x_f = sum_v rho_f(v) r(v)  +  sum_{t outside} w_f(t) V(t)  +  sum_k a_f(k) x_k,

with ``w_f(t) = sum_v rho_f(v) p(v, t)`` and ``a_f(k) = sum_v rho_f(v) p(v, k)``: small rationals
(products of probabilities), while the long numbers ``V(t)`` enter once per cut and exit.  The
``k x k`` system ``(I - A) x = c`` is solved exactly (:mod:`.linear_int`'s integers over one common
denominator ``D``: one reduction per cut).  The same canonical rationals as the full elimination.

The other states' values are then affine in the cut values; :func:`ball_pass` encloses them in
arb balls (one payoff component, in post-order) without a long number, for the decisions; their
exact values are computed only on demand (the eager evaluation, :mod:`.lazy_cyclic`).

>>> from gmpy2 import mpq
>>> cuts, post, m = cut_values([0, 1], lambda s: [(1 - s, mpq(1, 2)), (2, mpq(1, 2))],
...     lambda s: None, lambda t: (mpq(1, 3),), 1, mpq)
>>> cuts
{0: (mpq(1,3),)}
>>> bs = ball_pass(post, {0: cuts[0][0]}, lambda s: [(1 - s, mpq(1, 2)), (2, mpq(1, 2))],
...     lambda s: None, lambda t: fine_ball(mpq(1, 3)), {0})
>>> bs[1].contains(fine_ball(mpq(1, 3)))
True
"""

from __future__ import annotations

from typing import Any, Callable, Sequence

import flint
from flint import arb

from .linear import gauss_solve, _feedback_order
from .linear_int import _combine, common_denominator

__all__ = ["cut_values", "ball_pass", "fine_ball", "all_leave", "PREC"]

PREC = 192  # bits of the balls' working precision (their radii are rigorous at any precision)


def fine_ball(x: Any, bits: int = PREC) -> arb:
    """A ball containing the exact rational ``x``, relative radius about ``2^-bits``."""
    n, d = int(x.numerator), int(x.denominator)
    if n == 0:
        return arb(0)
    with flint.ctx.workprec(bits + 16):
        return _int_ball(n, bits) / _int_ball(d, bits)


def _int_ball(n: int, bits: int) -> arb:
    neg = n < 0
    if neg:
        n = -n
    k = max(0, n.bit_length() - bits)
    if k == 0:
        b = arb(n)
    else:
        a = n >> k  # a 2^k <= n < (a + 1) 2^k
        b = arb(2 * a + 1, 1) * arb(2) ** (k - 1)
    return -b if neg else b


def all_leave(post: Sequence[int], dist: Callable, in_s: set, passes: int = 3) -> bool:
    """True if every state of ``post`` (a post-order: successors first, but for back edges) has a
    path leaving ``in_s`` under ``dist`` that at most ``passes`` passes in that order prove: an exit,
    or a successor proved earlier (the later passes go over the states not proved yet: the targets
    of back edges come after their sources).  False means "not proved" (a state may be closed).

    >>> all_leave([1, 0], lambda s: [(s + 1, 1)], {0, 1})
    True
    >>> all_leave([1, 0], lambda s: [(0, 1)] if s else [(2, 1)], {0, 1})  # 1 is proved by the second pass
    True
    >>> all_leave([1, 0], lambda s: [(1 - s, 1)], {0, 1})
    False
    """
    proved: set[int] = set()
    add = proved.add
    todo = post
    for _ in range(passes):
        left = []
        for v in todo:
            for t, _ in dist(v):
                if t not in in_s or t in proved:
                    add(v)
                    break
            else:
                left.append(v)
        if not left:
            return True
        if len(left) == len(todo):
            return False
        todo = left
    return False


def cut_values(nodes: Sequence[int], dist: Callable, reward: Callable, known: Callable, n_comp: int,
               mpq: Callable, extra: Sequence[int] = (), order: tuple | None = None,
               in_s: set | None = None) -> tuple[dict[int, tuple], list[int], int]:
    """Exact values of the cut states of ``nodes`` under the policy ``dist`` (every state can leave),
    the post-order (successors first) of ``nodes`` and the number of cuts; ``known(t)`` is the value of ``t`` outside.
    The states of ``extra`` (e.g. those entered from outside) get their exact values too: one more
    forward pass each, ``x_e = c(e) + sum_k a_e(k) x_k``.  ``order``: ``_feedback_order(nodes, dist,
    set(nodes))`` when the caller has it already; ``in_s``: ``set(nodes)`` when the caller has it;
    ``reward=None``: no state has a reward."""
    if in_s is None:
        in_s = set(nodes)
    unknown, post = order if order is not None else _feedback_order(nodes, dist, in_s)
    m = len(unknown)
    extra = [e for e in extra if e in in_s and e not in unknown]
    if not m and not extra:
        return {}, post, 0
    R = range(n_comp)
    forward = post[::-1]
    last = len(post) - 1
    rows = []  # per cut: (exits {t: w}, rewards [(rho, r)], coefficients {k: a})
    one = mpq(1)
    targets = sorted(unknown, key=unknown.get) + extra  # the cuts (row k = cut k), then the extra states
    where = dict.fromkeys(in_s, -1)  # state of S -> its cut number, -1 for a state that is no cut
    where.update(unknown)
    for f in targets:
        rows.append(_reach_row(f, forward[last - post.index(f):], dist, reward, where, one))
    # the constants as integers over one common denominator D per payoff component
    outside = {t: known(t) for exits, _, _ in rows for t in exits}
    Ds = []
    for c in R:
        dens = {kv[c].denominator for kv in outside.values() if kv[c]}
        dens |= {r[c].denominator for _, rews, _ in rows for _, r in rews if r[c]}
        Ds.append(common_denominator(dens))

    def numerators(vec) -> list:
        return [vec[c].numerator * (Ds[c] // vec[c].denominator) if vec[c] else 0 for c in R]

    out_num = {t: numerators(kv) for t, kv in outside.items()}
    forms = []
    for exits, rews, _ in rows:
        terms = [(int(w.denominator), w.numerator, out_num[t]) for t, w in exits.items()]
        terms += [(int(r_v.denominator), r_v.numerator, numerators(r)) for r_v, r in rews]
        forms.append(_combine(terms, R))
    zero, one = mpq(0), mpq(1)
    A = []
    for i, (_, _, coef) in enumerate(rows[:m]):
        row = [zero] * m
        row[i] = one
        for k, a in coef.items():
            row[k] = row[k] - a
        A.append(row)
    inv = gauss_solve(A, [[one if i == j else zero for j in range(m)] for i in range(m)], zero) if m else []
    cuts: dict[int, tuple] = {}
    xs = []
    for k in range(m):
        terms = []
        for j in range(m):
            w = inv[k][j]
            if w:
                fn, fk = forms[j]
                terms.append((int(w.denominator) * fk, w.numerator, fn))
        xs.append(_combine(terms, R))
    for i, f in enumerate(targets):
        if i < m:
            num, scale = xs[i]
        else:
            fn, fk = forms[i]
            terms = [(fk, 1, fn)]
            for k, a in rows[i][2].items():
                xn, xk = xs[k]
                terms.append((int(a.denominator) * xk, a.numerator, xn))
            num, scale = _combine(terms, R)
        cuts[f] = tuple(mpq(num[c], Ds[c] * scale) if num[c] else zero for c in R)
    return cuts, post, m


def _reach_row(f: int, after: Sequence[int], dist: Callable, reward: Callable, where: dict, one: Any
               ) -> tuple[dict, list, dict]:
    """The forward pass of the reach probabilities ``rho_f`` over ``after`` (``f`` and the states
    after it in topological order): ``(w_f, [(rho_f(v), r(v))], a_f)`` -- the exits ``{t: w_f(t)}``,
    the rewards collected and the cut coefficients ``{k: a_f(k)}``; it stops when no reach
    probability is pending.  ``where[t]``: the cut number ``k`` of a cut of ``S``, -1 for another
    state of ``S``, absent outside (one look-up per transition)."""
    rho = {f: one}
    exits: dict[int, Any] = {}
    rews: list = []
    coef: dict[int, Any] = {}
    pop, rget, eget, cget, wget = rho.pop, rho.get, exits.get, coef.get, where.get
    for v in after:
        r_v = pop(v, None)
        if r_v is None:
            continue
        if reward is not None:
            r = reward(v)
            if r is not None:
                rews.append((r_v, r))
        last_p = None
        for t, p in dist(v):
            if p is not last_p:  # (a state's probabilities are mostly one shared object: one product each)
                last_p, w = p, r_v * p
            k = wget(t)
            if k is None:  # outside S
                x = eget(t)
                exits[t] = w if x is None else x + w
            elif k < 0:
                x = rget(t)
                rho[t] = w if x is None else x + w
            else:
                x = cget(k)
                coef[k] = w if x is None else x + w
        if not rho:
            break
    return exits, rews, coef


def ball_pass(post: Sequence[int], cut_exact: dict[int, Any], dist: Callable, reward: Callable,
              outside_ball: Callable[[int], arb], in_s: set, pballs: dict | None = None,
              outside: dict | None = None) -> dict[int, arb]:
    """Balls of every state of ``post`` in one payoff component: cuts from their exact values,
    the others ``r + sum p V(t)`` in post-order (exactly ``x`` when
    there is no reward and every successor is the exact point ``x``: the probabilities sum to 1) (``outside_ball(t)`` for ``t`` outside ``S``;
    states of ``S`` missing from ``post`` -- closed or zero -- are exactly 0).  ``pballs``: a cache
    probability -> ``fine_ball(p)`` (filled here); ``outside``: balls of states outside ``S`` known
    already (``outside_ball`` is asked for the others); ``reward=None``: no state has a reward."""
    if pballs is None:
        pballs = {}
    if outside is None:
        outside = {}
    out: dict[int, arb] = {}
    get, out_get, p_get = out.get, outside.get, pballs.get
    zero = arb(0)
    with flint.ctx.workprec(PREC):
        for f, x in cut_exact.items():
            out[f] = fine_ball(x)
        for v in post:
            if v in cut_exact:
                continue
            r = reward(v) if reward is not None else None
            b = fine_ball(r) if r else zero
            same = None if r else True  # all successors one exact point x: the value is x exactly
            last_p = None
            for t, p in dist(v):
                tb = get(t)
                if tb is None:
                    if t in in_s:
                        tb = zero
                    else:
                        tb = out_get(t)
                        if tb is None:
                            tb = outside_ball(t)
                if same is True:
                    same = tb if tb.is_exact() else None
                elif same is not None and not (tb.is_exact() and tb == same):
                    same = None
                if not tb.is_zero():
                    if p is not last_p:  # (a state's probabilities are mostly one shared object)
                        last_p = p
                        pb = p_get(p)
                        if pb is None:
                            pb = pballs[p] = fine_ball(p)
                    b = b + pb * tb
            out[v] = b if same is None or same is True else same
    return out
