"""One state with a self-loop: the closed form per action, the float filter first.

For action ``a`` of state ``s`` let ``p_a`` be its probability of staying and ``A_a = r_a + sum_{t != s}
p_at V(t)`` (the successors are solved).  Keeping ``a`` gives ``x_a = A_a / (1 - p_a)`` (``p_a = 1``: play
never ends, 0; with a reward that is an infinite total reward, refused).  The value is the best ``x_a``
(earliest on a tie), and the one-step values the margins compare are ``Q_a = A_a + p_a x*``: the same
numbers as ``r_a + sum_t p_at V(t)`` with ``V(s) = x*``, one product instead of a second pass.

With more than two actions, intervals in doubles with a proven error bound (:mod:`.float_filter`) rule
out first the actions whose ``x_a`` cannot be the best, then those whose ``Q_a`` can be neither the best
nor the runner-up (their ``Q_a`` is ``None``): only the others are computed exactly, and the exact
comparison decides, so values, policy, margins and ties are those of the all-exact computation
(tests/test_float_filter.py).  Where a number is beyond the doubles nothing is ruled out.
"""

from __future__ import annotations

from itertools import repeat
from math import isfinite
from operator import add, mul, neg, sub, truediv
from typing import Any

from ..model import ModelError
from .finish import finish_one

__all__ = ["self_loop"]

INF = float("inf")


def self_loop(eng, s: int) -> None:
    """``x_a = A_a / (1 - p_as)`` per action, ``A_a = r_a + sum_{t != s} p_at V(t)``; the best ``x_a`` is the
    value, and the one-step values ``Q_a = A_a + p_as x*`` are compared for the margin.

    With more than two actions, intervals in doubles with a proven error bound (:mod:`.float_filter`) rule
    out first the actions whose ``x_a`` cannot be the best, then those whose ``Q_a`` can be neither the
    best nor the runner-up (their ``Q_a`` is ``None``); only the others are computed exactly."""
    sp = eng.sp
    a0, a1 = sp.first[s], sp.first[s + 1]
    if not eng.is_choice(s):
        acc, stay = loop_sum(eng, s, a0)
        eng.V[s] = loop_value(eng, s, a0, acc, stay)
        finish_one(eng, s, None)
        return
    c, sign = eng.ckeys[sp.mover[s]]
    floats = loop_floats(eng, s, c) if a1 - a0 > 2 and eng.filter else None
    if floats is not None:
        fas, es, fstays, leaves, min_leave, max_stay = floats
        cands = best_candidates(fas, es, leaves, sign, min_leave)
    else:
        cands = range(a1 - a0)
    exact = {a: loop_sum(eng, s, a0 + a) for a in cands}
    if len(cands) == 1:
        best = cands[0]
        xbest = loop_value(eng, s, a0 + best, *exact[best])
    else:
        xs = {a: loop_value(eng, s, a0 + a, *exact[a]) for a in cands}
        best = max(cands, key=lambda a: (sign * xs[a][c], -a))
        xbest = xs[best]
    x = xbest[c]
    eng.V[s] = xbest
    if floats is not None:
        top = top_two_candidates(fas, es, fstays, max_stay, eng.vfloat(s, c), sign)
    else:
        top = range(a1 - a0)
    q: list = [None] * (a1 - a0)
    for a in top:
        if a == best:  # (Q = A + p x* = x* for the best: x* = A / (1 - p), or 0 = A when it never leaves)
            q[a] = x
            continue
        if a not in exact:
            exact[a] = loop_sum(eng, s, a0 + a)
        acc, stay = exact[a]
        q[a] = acc[c] + stay * x
    finish_one(eng, s, eng.choose(s, q))
    a = eng.policy[s]
    if a != best:
        eng.V[s] = loop_value(eng, s, a0 + a, *exact[a])


def best_candidates(fas: list[float], es: list[float], leaves: list[float], sign: int,
                    min_leave: float) -> list[int]:
    """The actions whose ``sign * x_a`` may be the largest: every action :func:`.float_filter.may_be_best`
    keeps from the intervals of :func:`.float_filter.x_interval`, and perhaps a few more.

    One width for all, ``E = fl(2 max(e) / min(leave))`` (``min_leave``), at least each action's
    ``fl(2 e_a / leave_a)`` (rounding is monotone), so ``[fl(y_a - E), fl(y_a + E)]`` contains
    ``sign * x_a`` (the module :mod:`.float_filter`'s proof, whose slack covers any width at least the
    action's); the largest low end is that of the largest ``y``.  An action that never leaves comes as
    ``fl(A) = e = 0``, leave ``1.0``: ``y = 0``, exact.  Where an end is not finite nothing is ruled out."""
    ys = list(map(truediv, fas, leaves))
    if sign < 0:
        ys = list(map(neg, ys))
    width = 2.0 * max(es) / min_leave
    top = max(ys)
    if not (isfinite(sum(ys)) and isfinite(top + width) and isfinite(min(ys) - width)):
        return list(range(len(ys)))
    low = top - width
    return [a for a, y in enumerate(ys) if not low > y + width]


def top_two_candidates(fas: list[float], es: list[float], fstays: list[float], max_stay: float, xf: float,
                       sign: int) -> list[int]:
    """The actions whose ``sign * Q_a`` may be the best or the runner-up: every action
    :func:`.float_filter.may_be_top_two` keeps from the intervals of :func:`.float_filter.q_interval`, and
    perhaps a few more (all of them when there are at most two).

    One width for all (as in :func:`best_candidates`), ``E = fl(2 max(e) + fl(fl(max(p) |x*|) 4) 2^-50 +
    16 2^-1074)`` (``max_stay = max(fl(p_a))``), at least each action's width in :func:`.float_filter.q_interval`
    (``|fl(p_a x*)| = fl(p_a |x*|)``, rounding monotone); the second largest low end is that of the second
    largest ``y``."""
    from .float_filter import REL, TINY

    n = len(fas)
    if n <= 2:
        return list(range(n))
    ys = list(map(add, fas, map(mul, fstays, repeat(xf))))
    if sign < 0:
        ys = list(map(neg, ys))
    width = 2.0 * max(es) + ((max_stay * abs(xf)) * 4.0) * REL + 16.0 * TINY
    ordered = sorted(ys)
    if not (isfinite(sum(ys)) and isfinite(ordered[-1] + width) and isfinite(ordered[0] - width)):
        return list(range(n))
    low = ordered[-2] - width
    return [a for a, y in enumerate(ys) if not low > y + width]


def loop_sum(eng, s: int, a: int) -> tuple[list, Any]:
    """``(A_a, p_as)`` exactly: ``A_a = r_a + sum_{t != s} p_at V(t)`` (one number per component; with one
    component the sum starts from its first product, no ``0 + p v``)."""
    sp, V, P = eng.sp, eng.V, eng.P
    succ, pk, bp = sp.succ, sp.pk, eng.bp
    r = eng.rw[a]
    stay = eng.zero
    if P == 1:
        x = r[0] if r is not None else None
        for k in range(sp.start[a], sp.start[a + 1]):
            t = succ[k]
            if t == s:
                stay = bp[pk[k]]
                continue
            v = V[t][0]
            if v:
                x = bp[pk[k]] * v if x is None else x + bp[pk[k]] * v
        return [eng.zero if x is None else x], stay
    acc = list(r) if r is not None else [eng.zero] * P
    for k in range(sp.start[a], sp.start[a + 1]):
        t = succ[k]
        if t == s:
            stay = bp[pk[k]]
            continue
        v = V[t]
        p = bp[pk[k]]
        for c in range(P):
            if v[c]:
                acc[c] = acc[c] + p * v[c]
    return acc, stay


def loop_value(eng, s: int, a: int, acc: list, stay) -> tuple:
    """``x_a = A_a / (1 - p_as)``; 0 if the action never leaves (with a reward: infinite, refused)."""
    if stay == eng.one:
        if eng.rw[a] is not None:
            raise ModelError(f"state {eng.model.state_name(s)}: action "
                             f"{eng.model.actions[s][a - eng.sp.first[s]]!r} never leaves while collecting a "
                             "reward (infinite total reward)")
        return eng.vzero
    leave = eng.one - stay
    return tuple(x / leave for x in acc)


def loop_floats(eng, s: int, c: int) -> tuple | None:
    """Per action ``fl(A_a)``, its error bound ``e``, ``fl(p_as)`` and ``fl(1 - p_as)`` in component ``c``
    (:mod:`.float_filter`), four lists, then ``min(fl(1 - p_as))`` and ``max(fl(p_as))``; or ``None`` where
    the doubles cannot bound them (a number out of range, a probability below the normal doubles, a leaving
    probability below 2^-1000).  An action that never leaves comes as ``fl(A) = e = 0``, ``fl(p) = 1.0``
    and leave ``1.0`` (its ``x`` is 0), and is refused if it collects a reward.

    The products ``fl(p) fl(V(t))`` of all the state's transitions are made in one pass (C-level maps), the
    staying ones reading ``V(s) = 0.0``: a term ``+0.0`` changes no float sum, and ``m`` (the error
    bound's count) leaves it out, as if the staying transition were skipped.  What depends only on the
    state's shape (its probabilities, action lengths, staying positions and rewards) is made once per
    shape (:func:`loop_layout`)."""
    sp = eng.sp
    a0, a1 = sp.first[s], sp.first[s + 1]
    start = sp.start
    lo, hi = start[a0], start[a1]
    ts = sp.succ[lo:hi]
    lay = loop_layout(eng, s, c, ts, a0, a1)
    if lay is None:
        return None
    slices, leaves, fstays, k1, k0, frs, never, min_leave, max_stay = lay
    cache = eng.floats[c]
    cache[s] = 0.0  # (the state's own value is not known yet: its products are 0.0, left out of m)
    try:
        get = cache.__getitem__
        try:
            fv = list(map(get, ts))
        except KeyError:  # (each state's float is made once, at its first read)
            V = eng.V
            for t in ts:
                if t not in cache:
                    cache[t] = float(V[t][c])
            fv = list(map(get, ts))
    except OverflowError:
        return None
    finally:
        del cache[s]
    y = list(map(mul, eng.ft[lo:hi], fv))
    if frs is None:
        fas = list(map(sum, map(y.__getitem__, slices)))
        big = fas if min(y) >= 0.0 else list(map(sum, map(list(map(abs, y)).__getitem__, slices)))
    else:
        fas = list(map(sum, map(y.__getitem__, slices), frs))
        big = list(map(sum, map(list(map(abs, y)).__getitem__, slices), map(abs, frs)))
    es = list(map(add, map(mul, k1, big), k0))
    if not sum(es) < INF:  # (also a nan; |fl(A)| <= fl(sum |y|) by monotone rounding)
        return None
    for a in never:
        fas[a] = es[a] = 0.0
    return fas, es, fstays, leaves, min_leave, max_stay


def loop_layout(eng, s: int, c: int, ts: list[int], a0: int, a1: int) -> tuple | None:
    """What :func:`loop_floats` needs of the state's shape, made once per shape: per action its slice of
    the state's transitions, ``fl(1 - p_as)`` (``1.0`` for an action that never leaves or does not stay),
    ``fl(p_as)`` (``0.0`` for one that does not stay), the factors ``(m + 4) 2^-50`` and ``(4m + 8) 2^-1074``
    of its error bound, the rewards' floats (``None``: no reward) and the actions that never leave;
    ``None`` where the doubles cannot bound the state."""
    sp = eng.sp
    start, pk, rew = sp.start, sp.pk, sp.rew
    lo = start[a0]
    ps = tuple(pk[lo:start[a1]])
    stays = []  # the offsets of the staying transitions, in order
    k = -1
    try:
        while True:
            k = ts.index(s, k + 1)
            stays.append(k)
    except ValueError:
        pass
    key = (c, ps, tuple(map(sub, start[a0:a1 + 1], repeat(lo))), tuple(stays), tuple(rew[a0:a1]))
    layouts = eng.layouts
    if key in layouts:
        return layouts[key]
    if len(layouts) > 100_000:  # (a model whose states share few shapes: the memory stays bounded)
        layouts.clear()
    lay = layouts[key] = make_layout(eng, s, c, ps, key[2], stays, a0, a1)
    return lay


def make_layout(eng, s: int, c: int, ps: tuple, bounds: tuple, stays: list[int], a0: int, a1: int) -> tuple | None:
    """:func:`loop_layout`'s tuple for a shape not met before."""
    from .float_filter import MIN_LEAVE, REL, TINY

    if eng.subnormal and not eng.subnormal.isdisjoint(ps):
        return None
    fp, rw = eng.fp, eng.rw
    slices, leaves, fstays, k1, k0, frs, never = [], [], [], [], [], [], []
    stays = stays + [bounds[-1]]  # (a sentinel past the end)
    si, nxt = 0, stays[0]
    for a in range(a1 - a0):
        i, j = bounds[a], bounds[a + 1]
        slices.append(slice(i, j))
        m = j - i
        stay = -1
        while nxt < j:
            stay, si = nxt, si + 1
            nxt = stays[si]
        if stay < 0:
            leave, fstay = 1.0, 0.0
        else:
            m -= 1
            leave, fstay = leave_float(eng, ps[stay]), fp[ps[stay]]
            if leave == 0.0:
                loop_value(eng, s, a0 + a, [], eng.one)  # (refuses a reward)
                leave, fstay = 1.0, 1.0
                never.append(a)
            elif leave < MIN_LEAVE:
                return None
        r = rw[a0 + a]
        if r is None:
            frs.append(0.0)
        else:
            try:
                frs.append(float(r[c]))
            except OverflowError:
                return None
            m += 1
        leaves.append(leave)
        fstays.append(fstay)
        k1.append((m + 4) * REL)
        k0.append((4 * m + 8) * TINY)
    if not all(map(isfinite, frs)):
        return None
    return (slices, leaves, fstays, k1, k0, (frs if any(r is not None for r in rw[a0:a1]) else None), never,
            min(leaves), max(fstays))


def leave_float(eng, i: int) -> float:
    """``fl(1 - p)`` of the probability ``probs[i]``, from the exact difference (made once)."""
    f = eng.leaves.get(i)
    if f is None:
        f = eng.leaves[i] = float(1 - eng.sp.probs[i])
    return f
