"""Nonnegative numbers with a wide exponent, as numpy arrays: ``x = m 2^e``, for the Race's complements.

``1 - F(a, 1) = 3^-a`` falls below the smallest double (``2^-1074``) at ``a = 678``, so
the complements of :mod:`.interval` keep a float64 mantissa ``m`` and an ``int64``
exponent ``e`` per bound.  Stored numbers are *normal*: ``m in [1/2, 1)``, or
``m = 0`` with ``e = ZERO_E`` (below every other exponent, so ``(e, m)`` orders the
numbers lexicographically).

The operations (all on nonnegative numbers, bounds rounded outwards):

* :func:`normal` -- ``frexp``: exact;
* :func:`combine` -- ``c1 x1 + c2 x2`` for double constants ``c1, c2 >= 0`` (or a
  lower/upper enclosure of them): both terms are brought to the larger exponent ``E`` by
  ``ldexp(m, k)``, ``k <= 0``, which is exact while ``k >= -SHIFT_EXACT``
  (``m >= 1/2`` stays normal: ``2^-1001 > 2^-1022``); further down the term is below
  ``m 2^-SHIFT_EXACT`` and is bounded by ``0`` (lower) or ``m 2^-SHIFT_EXACT`` (upper).  The two
  products and the sum are rounded to nearest and moved at least one double outwards
  (:func:`dn`, :func:`up`): the rounding lemmas of :mod:`.interval`;
* :func:`less` -- the exact order ``x < y``; :func:`least` -- the exact minimum over axis 0;
* :func:`to_float_up` / :func:`to_float_down` -- conversions to one double (:func:`normal` from one).

>>> m, e = normal(np.array([3.0, 0.0]))
>>> m.tolist(), e.tolist() == [2, ZERO_E]
([0.75, 0.0], True)
>>> lo = combine(np.array([0.5]), np.array([-2000]), np.array([0.5]), np.array([-2001]), 1.0, 1.0, False)
>>> lo[0].tolist(), lo[1].tolist()   # 2^-2001 + 2^-2002 = 0.75 * 2^-2000, moved down
([0.7499999999999997], [-2000])
"""

from __future__ import annotations

import numpy as np

ZERO_E = -(1 << 40)  # the exponent of 0
SHIFT_EXACT = 1000  # ldexp(m, k) is exact for m in [1/2, 1), -SHIFT_EXACT <= k <= 0
_TINY = np.ldexp(1.0, -1074)  # the smallest subnormal
_DOWN, _UP = 1.0 - 2.0**-52, 1.0 + 2.0**-52


def dn(x):
    """A lower bound of the nonnegative exact real ``r`` whose rounding to nearest is ``x``:
    ``max(x (1 - 2^-52) - 2^-1074, 0) <= pred(x) <= r`` (see :mod:`.interval`; four times
    faster than ``nextafter``).

    >>> y = dn(np.array([1.0, 0.0, 5e-324, 0.75]))
    >>> bool(np.all(y <= np.nextafter(np.array([1.0, 0.0, 5e-324, 0.75]), -np.inf).clip(0)))
    True
    """
    return np.maximum(x * _DOWN - _TINY, 0.0)


def up(x):
    """An upper bound of the exact real ``r >= 0`` rounded to ``x``: ``x (1 + 2^-52) + 2^-1074 >= succ(x)``.

    >>> x = np.array([1.0, 0.0, 5e-324, 0.75, 2.0**-1022])
    >>> bool(np.all(up(x) >= np.nextafter(x, np.inf)))
    True
    """
    return x * _UP + _TINY


def normal(m: np.ndarray, e: np.ndarray | int = 0) -> tuple[np.ndarray, np.ndarray]:
    """``m 2^e`` (``m >= 0`` a double) as a normal pair: ``frexp``, exact."""
    f, k = np.frexp(m)
    return f, np.where(f == 0, ZERO_E, k + np.asarray(e, dtype=np.int64))


def _shift(m, k, upper: bool):
    """``m 2^k`` for ``k <= 0``, ``0 <= m < 1``: exact if ``k >= -SHIFT_EXACT``.  Below, the upper end
    is ``m 2^-SHIFT_EXACT`` (larger, exact) and the lower end ``ldexp(m, -1100) = 0`` (``m 2^-1100`` is
    below half the smallest subnormal, so it rounds to 0)."""
    if upper:
        return np.ldexp(m, np.maximum(k, -SHIFT_EXACT))
    return np.ldexp(m, np.where(k < -SHIFT_EXACT, -1100, k))


def combine(m1, e1, m2, e2, c1, c2, upper: bool):
    """``c1 x1 + c2 x2`` rounded down (``upper=False``, from lower bounds of the ``x``'s and ``c``'s)
    or up; a normal pair.  ``c1, c2`` are doubles or arrays broadcasting with the ``m``'s."""
    E = np.maximum(e1, e2)
    y1, y2 = _shift(m1, e1 - E, upper), _shift(m2, e2 - E, upper)
    out = up if upper else dn
    s = out(out(c1 * y1) + out(c2 * y2))
    return normal(s, np.where(E == ZERO_E, 0, E))


def less(m1, e1, m2, e2):
    """``x1 < x2`` exactly, for normal pairs.

    >>> bool(less(np.array(0.0), np.array(ZERO_E), np.array(0.5), np.array(-9999)))
    True
    """
    return (e1 < e2) | ((e1 == e2) & (m1 < m2))


def least(m, e):
    """The minimum over axis 0 of normal pairs, exactly: the smallest exponent, then mantissa."""
    emin = e.min(axis=0)
    return np.where(e == emin, m, np.inf).min(axis=0), emin


def larger(m1, e1, m2, e2):
    """The larger of two normal pairs, elementwise."""
    first = less(m2, e2, m1, e1)
    return np.where(first, m1, m2), np.where(first, e1, e2)


def smaller(m1, e1, m2, e2):
    """The smaller of two normal pairs, elementwise."""
    first = less(m1, e1, m2, e2)
    return np.where(first, m1, m2), np.where(first, e1, e2)


def to_float_up(m, e):
    """A double ``>= m 2^e``: ``ldexp`` rounded to nearest (IEEE scaleB), moved up one double."""
    return up(np.ldexp(m, np.maximum(e, -1100)))


def to_float_down(m, e):
    """A double ``<= m 2^e`` (``>= 0``)."""
    return dn(np.ldexp(m, np.maximum(e, -1100)))
