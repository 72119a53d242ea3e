"""Float bounds with a proven error bound: which actions of a self-loop state can be the best
(or the best and the runner-up), ruled out in doubles instead of balls (:mod:`.selfloop`).

The intervals here are per action, as the proof below bounds them; the engine runs their bulk form,
one width per state at least every action's (:func:`.selfloop.best_candidates`,
:func:`.selfloop.top_two_candidates`), which keeps every action these keep (tests/test_selfloop_bulk.py
holds it to them).

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


__all__ = ["EVERYTHING", "INF", "MIN_LEAVE", "REL", "TINY", "probability_float", "sum_error", "x_interval", "q_interval", "may_be_best",
           "may_be_top_two"]

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
