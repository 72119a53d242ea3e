"""Float bounds with a proven error bound: which actions of a self-loop state can be the best
(or the best and the runner-up), ruled out in doubles instead of balls (:mod:`.selfloop`).

Like the balls (:mod:`exactplay.audit.enclosure`) these bounds only *rule out*: an action is dropped
only when its interval lies entirely below another's (below two others' for the runner-up), and
every survivor is compared exactly.  Where anything is out of the doubles' range (an exact number
too large for a float, a sum that overflows, a probability of leaving below ``2^-1000``) the
caller rules out nothing.

**The bound.**  Let ``u = 2^-53`` (the unit roundoff; the proof below uses ``2^-52``, which also
covers a conversion that truncates) and ``gamma_k = k u / (1 - k u)``.  An action's sum
``A = r + sum_i p_i v_i`` (``m`` terms, the reward one of them) is computed from the correctly
rounded floats ``fl(p_i) = p_i (1 + d)`` (a probability below ``2^-1022`` is refused: :func:`probability_float`),
``fl(v_i) = v_i (1 + d')``, ``|d|, |d'| <= u``, so each
term ``y_i = fl(fl(p_i) fl(v_i))`` is within ``gamma_3 |p_i v_i|`` of ``p_i v_i`` and the float
sum of the ``y_i`` is within ``gamma_(m-1) sum |y_i|`` of their exact sum (recursive summation;
a compensated one is closer still).  With ``M = fl(sum |y_i|) >= (1 - gamma_(m-1)) sum |y_i|``:

    |fl(A) - A| <= (gamma_(m-1) + gamma_3 / (1 - gamma_3)) sum |y_i| <= (m + 3.01) 2^-52 M,

and the subnormal range adds at most ``2^-1074`` per rounded operation (``(3m + 3)`` of them,
each scaled by a probability ``<= 1``).  :func:`sum_error` returns ``e = (m + 4) 2^-50 M +
(4m + 8) 2^-1074``, which also covers ``2u |fl(A)| <= 2^-51 1.01 M`` (the division below).

*The closed form* ``x = A / L``, ``L = 1 - p_stay`` converted from the exact ``L`` (``fl(L) =
L (1 + d)``, ``L >= 2^-1000``, a normal number): ``|fl(fl(A) / fl(L)) - x| <= (e_A (1 + u) +
2u |fl(A)|) / fl(L) <= e / fl(L)``; :func:`x_interval` uses ``2 e / fl(L)``.

*The one-step value* ``Q = A + p x*``: ``|fl(fl(A) + fl(fl(p) fl(x*))) - Q| <= e + gamma_3 |p x*| +
u |fl(Q)| + 2^-1073 <= 1.26 e + 2^-49 |fl(p) fl(x*)| + 2^-1073`` (``2^-48 M <= e``);
:func:`q_interval` uses ``2 e + 2^-48 |fl(p) fl(x*)| + 2^-1070``.

*The interval ends* ``fl(y - E)``, ``fl(y + E)`` are rounded too, by at most ``u (|y| + E)``; both
``E`` are at least ``2^-48`` times a bound of ``|y|``, so that rounding is under ``0.04 E``: with the
factor ``2`` above, every interval still contains the exact value.  The negation (a minimiser's
``sign = -1``) is exact.  tests/test_float_filter.py checks the intervals contain the exact values
(near ties closer than ``1e-16``, exact ties, tiny and huge magnitudes) and that the engine decides
exactly as with every action exact (``filter=False``).

>>> from fractions import Fraction
>>> e = sum_error([0.5, 0.25])
>>> lo, hi = x_interval(0.75, e, 0.5, 1)
>>> bool(lo <= Fraction(3, 2) <= hi), hi - lo < 1e-13
(True, True)
>>> may_be_best([(0.0, 1.0), (0.5, 3.0), (2.5, 3.0)])
[1, 2]
>>> may_be_top_two([(0.0, 1.0), (0.5, 2.0), (2.5, 3.0)])
[0, 1, 2]
>>> may_be_top_two([(0.0, 1.0), (1.5, 2.0), (2.5, 3.0)])
[1, 2]
"""

from __future__ import annotations

from operator import truediv

__all__ = ["EVERYTHING", "INF", "MIN_LEAVE", "REL", "TINY", "probability_float", "sum_error", "x_interval", "q_interval", "may_be_best", "may_be_top_two",
           "nonnegative_best", "nonnegative_top_two", "nonnegative_best_sorted", "nonnegative_top_two_sorted"]

INF = float("inf")
EVERYTHING = (-INF, INF)  # the interval of an action the doubles cannot bound
MIN_LEAVE = 2.0 ** -1000  # below it 1 - p_stay is not trusted to be a normal double
MIN_NORMAL = 2.0 ** -1022  # the smallest normal double
REL = 2.0 ** -50  # e = (m + 4) REL M + (4m + 8) TINY
TINY = 2.0 ** -1074


def probability_float(p) -> float:
    """The float of a probability ``0 < p <= 1``, correctly rounded and a normal double (relative error
    at most ``u``); ``OverflowError`` below ``2^-1022``, where the error would be absolute and, times a
    huge value, unbounded (the caller then rules out nothing).

    >>> from fractions import Fraction
    >>> probability_float(Fraction(1, 3)) == 1 / 3
    True
    """
    f = float(p)
    if f < MIN_NORMAL:
        raise OverflowError("a probability below the normal doubles")
    return f


def sum_error(terms: list[float]) -> float:
    """``e = (m + 4) 2^-50 M + (4m + 8) 2^-1074`` for the ``m`` float terms ``y_i`` of an action's
    sum, ``M = fl(sum |y_i|)``: a bound of ``|fl(sum y_i) - A|`` (the module's proof); ``inf`` when
    the sum overflows.

    >>> sum_error([]) > 0, sum_error([1e308, 1e308])
    (True, inf)
    """
    m = len(terms)
    return (m + 4) * REL * sum(map(abs, terms)) + (4 * m + 8) * TINY


def x_interval(a: float, e: float, leave: float, sign: int) -> tuple[float, float]:
    """An interval containing ``sign * A / L`` for the float ``a`` of ``A``, its error bound ``e``
    (:func:`sum_error`) and ``leave = fl(L)`` (``L`` exact, at least :data:`MIN_LEAVE`); ``EVERYTHING``
    when a number is not finite."""
    y = sign * a / leave
    err = 2.0 * e / leave
    lo, hi = y - err, y + err
    return (lo, hi) if -INF < lo and hi < INF else EVERYTHING


def q_interval(a: float, e: float, stay: float, x_star: float, sign: int) -> tuple[float, float]:
    """An interval containing ``sign * (A + p x*)`` for the floats ``a`` of ``A`` (error bound ``e``),
    ``stay = fl(p)`` and ``x_star = fl(x*)``; ``EVERYTHING`` when a number is not finite."""
    px = stay * x_star
    y = sign * (a + px)
    err = 2.0 * e + (abs(px) * 4.0) * REL + 16.0 * TINY
    lo, hi = y - err, y + err
    return (lo, hi) if -INF < lo and hi < INF else EVERYTHING


def may_be_best(intervals: list[tuple[float, float]]) -> list[int]:
    """Indices whose interval is not entirely below another's (every exact best and its exact ties)."""
    top = max([lo for lo, _ in intervals])
    return [i for i, (_, hi) in enumerate(intervals) if not top > hi]


def may_be_top_two(intervals: list[tuple[float, float]]) -> list[int]:
    """Indices whose interval is not entirely below two others' (every best and the runner-up);
    all of them when there are at most two."""
    if len(intervals) <= 2:
        return list(range(len(intervals)))
    second = sorted([lo for lo, _ in intervals], reverse=True)[1]
    return [i for i, (_, hi) in enumerate(intervals) if not second > hi]


def nonnegative_best(sums: list[float], leaves: list[float], m: int, sign: int) -> list[int] | None:
    """The actions whose ``sign * x_a`` may be the largest, ``x_a = A_a / L_a``, when every term of
    every ``A_a`` is ``>= 0`` (probabilities times values ``>= 0``, no reward): ``sums[a] = fl(A_a)``
    of at most ``m`` terms, ``leaves[a] = fl(L_a) >= 2^-1000``; ``None`` when a float is not finite.

    Then ``M = fl(A)`` and ``fx = fl(fl(A) / fl(L)) >= 0`` is within ``(m + 4) 2^-50 (1 + 2u) fx +
    (4m + 8) 2^-1074 / fl(L)`` of ``x`` (the module's bound), so ``[fx (1 - K) - K0, fx (1 + K) + K0]``
    with ``K = (m + 4) 2^-49`` and ``K0 = fl((8m + 16) 2^-1074 / min fl(L))`` (at least twice the
    subnormal term of every action, and ``>= 16 * 2^-1074``) contains ``x`` with room for a factor 2:
    ``1 +- K`` is exact (a multiple of ``2^-52``), and the roundings of each end move it by less than
    ``2u (fx (1 + K) + K0) + 2^-1074``, far below the half of ``K fx + K0`` left over.
    The rounding is monotone, so the largest low end is the low end of the largest ``fx``.

    >>> nonnegative_best([1.0, 0.5, 0.2], [1.0, 0.5, 0.25], 3, 1), nonnegative_best([1.0, 0.5, 0.2], [1.0, 0.5, 0.25], 3, -1)
    ([0, 1], [2])
    """
    fx = list(map(truediv, sums, leaves))
    largest = max(fx)
    if not largest < INF:
        return None
    k, k0 = (m + 4) * 2.0 ** -49, (8 * m + 16) * TINY / min(leaves)
    up, down = 1.0 + k, 1.0 - k
    if sign > 0:
        top = largest * down - k0
        return [a for a, x in enumerate(fx) if not top > x * up + k0]
    bottom = min(fx) * up + k0
    return [a for a, x in enumerate(fx) if not x * down - k0 > bottom]


def nonnegative_top_two(sums: list[float], stays: list[float], x_star: float, m: int, sign: int) -> list[int] | None:
    """The actions whose ``sign * Q_a`` may be the largest or the second largest, ``Q_a = A_a + p_a x*``,
    in the case of :func:`nonnegative_best` (``x* >= 0``, ``stays[a] = fl(p_a)``, ``x_star = fl(x*)``);
    ``None`` when a float is not finite.

    ``fq = fl(fl(A) + fl(fl(p) fl(x*)))`` is within ``(m + 4) 2^-50 fl(A) + gamma_3 p x* + u fq +
    (4m + 8) 2^-1074 + 2^-1073 <= (m + 5) 2^-50 (1 + 2u) fq + (4m + 10) 2^-1074`` of ``Q``; the ends are
    those of :func:`nonnegative_best` with ``K = (m + 5) 2^-49`` and ``K0 = (8m + 24) 2^-1074``.

    >>> nonnegative_top_two([0.5, 0.25, 0.0], [0.5, 0.5, 0.5], 1.0, 3, 1)
    [0, 1]
    >>> nonnegative_top_two([0.5, 0.25, 0.0], [0.5, 0.5, 0.5], 1.0, 3, -1)
    [1, 2]
    """
    if len(sums) <= 2:
        return list(range(len(sums)))
    fq = [y + p * x_star for y, p in zip(sums, stays)]
    if not max(fq) < INF:
        return None
    k, k0 = (m + 5) * 2.0 ** -49, (8 * m + 24) * TINY
    up, down = 1.0 + k, 1.0 - k
    if sign > 0:
        second = sorted(fq)[-2] * down - k0
        return [a for a, q in enumerate(fq) if not second > q * up + k0]
    second = sorted(fq)[1] * up + k0
    return [a for a, q in enumerate(fq) if not q * down - k0 > second]


def nonnegative_best_sorted(sums: list[float], leaves: list[float], m: int, sign: int,
                            min_leave: float | None = None) -> list[int] | None:
    """:func:`nonnegative_best`, the same list, found from the sorted floats when one action stands out
    (``min_leave``: ``min(leaves)`` if the caller has it).

    Each end of an interval, ``fl(fl(fx (1 + K)) + K0)`` and ``fl(fl(fx (1 - K)) - K0)``, is a
    nondecreasing function of ``fx`` (rounding is monotone), so the actions kept are those whose
    ``fx`` is on one side of a threshold: when the best ``fx`` is alone and the next one is already
    ruled out, the best is the only one kept (its index, found once); otherwise the full test.

    >>> nonnegative_best_sorted([1.0, 0.5, 0.2], [1.0, 0.5, 0.25], 3, 1), nonnegative_best_sorted([1.0, 0.5, 0.2], [1.0, 0.5, 0.25], 3, -1)
    ([0, 1], [2])
    >>> nonnegative_best_sorted([1.0, 0.5, 0.1], [1.0, 1.0, 1.0], 3, 1), nonnegative_best_sorted([1.0, 0.5, 0.1], [1.0, 1.0, 1.0], 3, -1)
    ([0], [2])
    """
    fx = list(map(truediv, sums, leaves))
    if len(fx) > 1:
        sx = sorted(fx)
        if not sx[-1] < INF:
            return None
        k, k0 = (m + 4) * 2.0 ** -49, (8 * m + 16) * TINY / (min(leaves) if min_leave is None else min_leave)
        if sign > 0:  # (the kept are those whose high end reaches the largest low end)
            top = sx[-1] * (1.0 - k) - k0
            if sx[-2] < sx[-1] and top > sx[-2] * (1.0 + k) + k0:
                return [fx.index(sx[-1])]
        else:
            bottom = sx[0] * (1.0 + k) + k0
            if sx[1] > sx[0] and sx[1] * (1.0 - k) - k0 > bottom:
                return [fx.index(sx[0])]
    return nonnegative_best(sums, leaves, m, sign)


def nonnegative_top_two_sorted(sums: list[float], stays: list[float], x_star: float, m: int, sign: int) -> list[int] | None:
    """:func:`nonnegative_top_two`, the same list, found from the sorted floats when two actions stand
    out (the argument of :func:`nonnegative_best_sorted`): the two best ``fq`` distinct, both kept, and
    the third already ruled out; otherwise the full test.

    >>> nonnegative_top_two_sorted([0.5, 0.25, 0.0], [0.5, 0.5, 0.5], 1.0, 3, 1)
    [0, 1]
    >>> nonnegative_top_two_sorted([0.5, 0.25, 0.0], [0.5, 0.5, 0.5], 1.0, 3, -1)
    [1, 2]
    """
    if len(sums) > 2:
        fq = [y + p * x_star for y, p in zip(sums, stays)]
        sq = sorted(fq)
        if not sq[-1] < INF:
            return None
        k, k0 = (m + 5) * 2.0 ** -49, (8 * m + 24) * TINY
        up, down = 1.0 + k, 1.0 - k
        if sign > 0:
            second = sq[-2] * down - k0
            if sq[-3] < sq[-2] < sq[-1] and not second > sq[-2] * up + k0 and second > sq[-3] * up + k0:
                a, b = fq.index(sq[-1]), fq.index(sq[-2])
                return [a, b] if a < b else [b, a]
        else:
            second = sq[1] * up + k0
            if sq[0] < sq[1] < sq[2] and not sq[1] * down - k0 > second and sq[2] * down - k0 > second:
                a, b = fq.index(sq[0]), fq.index(sq[1])
                return [a, b] if a < b else [b, a]
    return nonnegative_top_two(sums, stays, x_star, m, sign)
