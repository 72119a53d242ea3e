"""Certified comparison: balls that contain exact values, exact arithmetic only where they overlap.

A decision between actions needs the exact values only of the actions that
can be the best or the runner-up.  :func:`ball` encloses an exact rational in
a ball of python-flint's ``arb`` (midpoint and radius, every operation
rounded outwards, exponents unbounded: no overflow, no underflow); the value
of an action, ``r + sum p * V(t)``, is then a ball computed from the balls of
``p`` and ``V(t)`` that is **guaranteed to contain** the exact value.  An
action whose ball lies entirely below the balls of two other actions is
neither the best nor the runner-up, whatever the exact values are; every
other action is evaluated exactly (:func:`may_be_top_two`).  Nothing is
decided by a float: the balls only rule out, and the exact comparison decides.

How a ball is made without reading a huge number whole: with ``P`` = 64 and
``k = max(0, bits(n) - P)``, ``a = floor(n / 2^k)`` gives ``a 2^k <= n < (a+1) 2^k``,
so ``n`` lies in the ball ``(a + 1/2) 2^k +- 2^(k-1)`` (exactly ``a`` when k = 0);
the same for the denominator, and the quotient of two balls contains ``n/d``.

>>> from fractions import Fraction
>>> from flint import arb
>>> b = ball(Fraction(1, 3))
>>> bool(b.lower() < arb(1) / 3 < b.upper()) or b.contains(arb(1) / 3)
True
>>> may_be_top_two([ball(Fraction(1)), ball(Fraction(1, 2)), ball(Fraction(1, 3))])
[0, 1]

**The one certified comparison.**  Every "cheap comparison first" of the tool
(the engine's balls, race's float shadow, chefs' dyadic enclosures, hold's
fixed point) is this rule: each candidate ``i`` has cheap bounds ``lows[i]``,
``highs[i]`` (any ordered type) such that ``lows[j] > highs[i]`` *proves* that the
exact value of ``j`` exceeds that of ``i`` (true when ``lows[k] <= x_k <= highs[k]``;
a caller may also shift its whole error onto one side, as race does).  Then:

* :func:`may_be_best` -- ``i`` is ruled out when one other value is proved above it
  (:func:`best_threshold` is its threshold);
* :func:`may_be_top_two` -- ruled out when two others are proved above it
  (every best and the runner-up survive); :func:`top_two_threshold` is its
  threshold, for callers that filter in their own loop;
* :func:`undecided` -- for pairs ``a[x]``, ``b[x]`` each within ``err`` of its exact
  value, the ``x`` whose order the bounds cannot prove (``|a - b| <= 2 err``).

The survivors, and only they, are compared exactly by the caller (exact values,
cross-multiplication, or a whole exact recomputation): what the bounds cannot
separate is decided exactly, and nothing is decided by rounding.

>>> may_be_best([1, 5, 4], [2, 6, 5])  # 5 <= x_1: x_0 <= 2 is below it; x_2 may reach 5
[1, 2]
>>> may_be_top_two([1, 5, 4, 0], [2, 6, 5, 3])  # x_0 <= 2 and x_3 <= 3 lie below 4 <= x_2 and 5 <= x_1
[1, 2]
>>> undecided([10, 20, 30], [13, 25, 30], 2, range(3))  # |a - b| <= 4: not separated
[0, 2]
"""

from __future__ import annotations

from typing import Any, Iterable, Sequence

__all__ = ["ball", "best_threshold", "may_be_best", "may_be_top_two", "top_two_threshold", "undecided", "PRECISION_BITS"]

PRECISION_BITS = 64
# python-flint is imported on the first ball, so the games that use only the bounds rule start fast
_arb: Any = None
_two: Any = None


def _load_arb() -> None:
    global _arb, _two
    from flint import arb

    _arb, _two = arb, arb(2)


def _int_ball(n: int) -> Any:
    """A ball containing the non-negative integer ``n``, from its leading bits only."""
    k = max(0, int(n.bit_length()) - PRECISION_BITS)
    if k == 0:
        return _arb(int(n))
    a = int(n >> k)
    # a 2^k <= n < (a + 1) 2^k
    return _arb(2 * a + 1, 1) * (_two ** (k - 1))


def ball(x: Any) -> Any:
    """A ball containing the exact rational ``x`` (``int``, ``Fraction`` or gmpy2 ``mpq``)."""
    if isinstance(x, int):
        n, d = x, 1
    else:
        n, d = x.numerator, x.denominator
    if _arb is None:
        _load_arb()
    if n == 0:
        return _arb(0)
    neg = n < 0
    b = _int_ball(-n if neg else n) / _int_ball(d)
    return -b if neg else b


def may_be_best(lows: Sequence[Any], highs: Sequence[Any]) -> list[int]:
    """Indices that can hold the largest value: ``i`` is kept unless ``max(lows) > highs[i]``.

    Every exact best, and every value exactly tied with it, is kept (its high
    end is at least its value, which is at least the largest low end).
    """
    top = best_threshold(lows)
    return [i for i, h in enumerate(highs) if not top > h]


def best_threshold(lows: Iterable[Any]) -> Any:
    """The largest low end: value ``i`` may be the best exactly when ``not threshold > highs[i]``."""
    return max(lows)


def top_two_threshold(ends: Iterable[Any], smallest: bool = False) -> Any:
    """The second-largest of the low ends: value ``i`` may be the best or the runner-up exactly
    when ``not threshold > highs[i]`` (two others are proved above it otherwise).

    ``smallest=True`` mirrors it for "smaller is better": the second-smallest of the high ends,
    and ``i`` survives when ``not lows[i] > threshold``.  (When the bounds are one rounded value
    moved by a fixed factor, e.g. ``v (1 - slack)``, the caller may apply the factor to the
    threshold instead: rounding is monotone, so the order statistic is the same number.)
    """
    ordered = sorted(ends) if smallest else sorted(ends, reverse=True)
    return ordered[1]


def may_be_top_two(balls: Sequence[Any], highs: Sequence[Any] | None = None) -> list[int]:
    """Indices that can hold the largest or the second-largest value.

    ``may_be_top_two(balls)`` takes arb balls; ``may_be_top_two(lows, highs)``
    the bounds of the rule above.  ``i`` is ruled out only when two other values
    are proved above it, i.e. when the second-largest low end exceeds ``highs[i]``
    (the two largest low ends are never another's ``i`` own: ``highs[i] >= lows[i]``).
    """
    if len(balls) <= 2:
        return list(range(len(balls)))
    if highs is None:
        lows = [b.lower() for b in balls]
        highs = [b.upper() for b in balls]
    else:
        lows = balls
    second = top_two_threshold(lows)
    return [i for i, h in enumerate(highs) if not second > h]


def undecided(a: Sequence[Any], b: Sequence[Any], err: Any, indices) -> list:
    """The ``x`` in ``indices`` where ``a[x]`` and ``b[x]``, each within ``err`` of its exact value,
    cannot be ordered by the bounds: ``[a - err, a + err]`` and ``[b - err, b + err]`` overlap."""
    margin = 2 * err
    return [x for x in indices if abs(a[x] - b[x]) <= margin]
