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
        from .float_filter import may_be_best, x_interval

        cands = may_be_best([(0.0, 0.0) if leave == 0.0 else x_interval(fa, e, leave, sign)
                             for fa, e, _, leave in floats])
    else:
        cands = range(a1 - a0)
    exact = {a: loop_sum(eng, s, a0 + a) for a in cands}
    xs = {a: loop_value(eng, s, a0 + a, *exact[a]) for a in cands}
    best = max(cands, key=lambda a: (sign * xs[a][c], -a))
    x = xs[best][c]
    eng.V[s] = xs[best]
    if floats is not None:
        from .float_filter import may_be_top_two, q_interval

        xf = eng.vfloat(s, c)
        top = may_be_top_two([q_interval(fa, e, fstay, xf, sign) for fa, e, fstay, _ in floats])
    else:
        top = range(a1 - a0)
    q: list = [None] * (a1 - a0)
    for a in top:
        if a not in exact:
            exact[a] = loop_sum(eng, s, a0 + a)
        acc, stay = exact[a]
        q[a] = acc[c] + stay * x
    finish_one(eng, s, eng.choose(s, q))
    a = eng.policy[s]
    if a != best:
        eng.V[s] = loop_value(eng, s, a0 + a, *exact[a])


def loop_sum(eng, s: int, a: int) -> tuple[list, Any]:
    """``(A_a, p_as)`` exactly: ``A_a = r_a + sum_{t != s} p_at V(t)`` (one number per component)."""
    sp, V, P = eng.sp, eng.V, eng.P
    succ, pk, bp = sp.succ, sp.pk, eng.bp
    r = eng.rw[a]
    acc = list(r) if r is not None else [eng.zero] * P
    stay = eng.zero
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


def loop_floats(eng, s: int, c: int) -> list[tuple[float, float, float, float]] | None:
    """Per action ``(fl(A_a), error bound, fl(p_as), fl(1 - p_as))`` in component ``c`` (:mod:`.float_filter`;
    ``fl(1 - p_as) = 0.0`` for an action that never leaves), or ``None`` where the doubles cannot bound them
    (a number out of range, a probability below the normal doubles, a leaving probability below 2^-1000);
    an action that never leaves while collecting a reward is refused here too."""
    from .float_filter import MIN_LEAVE, REL, TINY

    sp = eng.sp
    succ, start, ft, pk = sp.succ, sp.start, eng.ft, sp.pk
    if eng.subnormal and any(pk[k] in eng.subnormal for k in range(start[sp.first[s]], start[sp.first[s + 1]])):
        return None
    cache = eng.floats[c]
    V = eng.V
    out = []
    try:
        for a in range(sp.first[s], sp.first[s + 1]):
            r = eng.rw[a]
            terms = [float(r[c])] if r is not None else []
            stay = -1
            for k in range(start[a], start[a + 1]):
                t = succ[k]
                if t == s:
                    stay = k
                    continue
                f = cache.get(t)
                if f is None:
                    f = cache[t] = float(V[t][c])
                terms.append(ft[k] * f)
            if stay < 0:
                leave, fstay = 1.0, 0.0
            else:
                leave, fstay = leave_float(eng, pk[stay]), ft[stay]
                if leave == 0.0:
                    loop_value(eng, s, a, [], eng.one)  # (refuses a reward)
                    out.append((0.0, 0.0, 1.0, 0.0))
                    continue
                if leave < MIN_LEAVE:
                    return None
            fa = sum(terms)
            m = len(terms)
            e = (m + 4) * REL * sum(map(abs, terms)) + (4 * m + 8) * TINY
            if not (abs(fa) < INF and e < INF):
                return None
            out.append((fa, e, fstay, leave))
    except OverflowError:
        return None
    return out


def leave_float(eng, i: int) -> float:
    """``fl(1 - p)`` of the probability ``probs[i]``, from the exact difference (made once)."""
    f = eng.leaves.get(i)
    if f is None:
        f = eng.leaves[i] = float(1 - eng.sp.probs[i])
    return f
