"""The one certified comparison: cheap bounds rule candidates out, exact arithmetic decides the rest.

A decision between actions needs the exact values only of the actions that can be the best or the
runner-up.  Every "cheap comparison first" of the tool (race's float shadow, chefs' dyadic
enclosures, hold's fixed point) is this rule: each candidate ``i`` has cheap bounds ``lows[i]``,
``highs[i]`` (any ordered type) such that ``lows[j] > highs[i]`` *proves* that the
exact value of ``j`` exceeds that of ``i`` (true when ``lows[k] <= x_k <= highs[k]``;
a caller may also shift its whole error onto one side, as race does).  Then:

* ``i`` may be the best unless one other value is proved above it: :func:`best_threshold`;
* ``i`` may be the best or the runner-up unless two others are proved above it (every best and
  the runner-up survive): :func:`top_two_threshold`;
* :func:`undecided` -- for pairs ``a[x]``, ``b[x]`` each within ``err`` of its exact
  value, the ``x`` whose order the bounds cannot prove (``|a - b| <= 2 err``).

The survivors, and only they, are compared exactly by the caller (exact values,
cross-multiplication, or a whole exact recomputation): what the bounds cannot
separate is decided exactly, and nothing is decided by rounding.

>>> best_threshold([1, 5, 4]), top_two_threshold([1, 5, 4, 0])  # highs [2, 6, 5, 3]: 1, 2 survive
(5, 4)
>>> undecided([10, 20, 30], [13, 25, 30], 2, range(3))  # |a - b| <= 4: not separated
[0, 2]
"""

from __future__ import annotations

from typing import Any, Iterable, Sequence

__all__ = ["best_threshold", "top_two_threshold", "undecided"]


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


def undecided(a: Sequence[Any], b: Sequence[Any], err: Any, indices) -> list:
    """The ``x`` in ``indices`` where ``a[x]`` and ``b[x]``, each within ``err`` of its exact value,
    cannot be ordered by the bounds: ``[a - err, a + err]`` and ``[b - err, b + err]`` overlap."""
    margin = 2 * err
    return [x for x in indices if abs(a[x] - b[x]) <= margin]
