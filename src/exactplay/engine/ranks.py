"""Ranking witnesses: integer ranks that rule out fake fixed points.

Ranks are computed component by component, in increasing order (a heap of
ranked states), so each rank is the smallest the rule allows:

* ``every`` states (termination witness everywhere; in the reachability witness
  the minimiser and chance states of positive value) get rank ``1 + r`` as
  soon as each of their relevant actions has a successor of rank ``<= r``;
* ``some`` states (maximiser states of positive value; every state in the
  policy witness) get rank ``1 + r`` as soon as one relevant action has a
  successor of rank ``r``.

States that never qualify stay unranked (``None``).
"""

from __future__ import annotations

import heapq
from typing import Any, Sequence

__all__ = ["rank_component"]


def rank_component(
    states: Sequence[int],
    relevant: dict[int, Sequence[Sequence[tuple[int, Any]]]],
    every: set[int],
    ranks: list[int | None],
) -> None:
    """Fill ``ranks`` for ``states``.

    ``relevant[s]`` lists, per relevant action of ``s``, its distribution (pairs ``(t, p)``, the
    successors ``t`` count); ``s`` in ``every`` needs all of them to reach a ranked successor,
    others need one.  States not in ``relevant`` are not eligible.  Ranks of successors outside
    ``states`` must already be final.  Each relevant action gets a number ``i`` (state ``owner[i]``,
    flag ``done[i]``); ranked states are popped in layers of increasing rank, so each rank is the least.

    >>> ranks = [None, None, None, 0, None]  # 0 -> 1 or 3; 1 -> 0; 2 (every) -> {0} and {1, 4}
    >>> rank_component([0, 1, 2], {0: [[(1, 1)], [(3, 1)]], 1: [[(0, 1)]], 2: [[(0, 1)], [(1, 1), (4, 1)]]},
    ...                {2}, ranks); ranks
    [1, 2, 3, 0, None]
    """
    if len(states) == 1:
        _rank_one(states[0], relevant, every, ranks)
        return
    preds: dict[int, list[int]] = {}  # successor t -> the relevant actions with t as a successor
    need: dict[int, int] = {}
    owner: list[int] = []
    i = 0
    for s, acts in relevant.items():
        need[s] = len(acts) if s in every else 1
        for d in acts:
            owner.append(s)
            for t, _ in d:
                w = preds.get(t)
                if w is None:
                    preds[t] = [i]
                else:
                    w.append(i)
            i += 1
    members = set(states)
    layers: dict[int, list[int]] = {}  # rank -> the ranked states of that rank still to pop
    for t in preds:
        if t not in members and (r := ranks[t]) is not None:
            layer = layers.get(r)
            if layer is None:
                layers[r] = [t]
            else:
                layer.append(t)
    order = list(layers)  # the ranks of the layers, popped least first
    heapq.heapify(order)
    done = bytearray(i)
    while order:
        r = heapq.heappop(order)
        nxt = layers.get(r + 1)  # (the order within a layer does not change which rank a state gets)
        for t in layers.pop(r):
            for i in preds.get(t, ()):
                s = owner[i]
                if ranks[s] is not None or done[i]:
                    continue
                done[i] = 1
                left = need[s] - 1
                need[s] = left
                if not left:
                    ranks[s] = r + 1
                    if nxt is None:
                        nxt = layers[r + 1] = []
                        heapq.heappush(order, r + 1)
                    nxt.append(s)


def _rank_one(s: int, relevant: dict[int, Sequence[Sequence[tuple[int, Any]]]], every: set[int],
              ranks: list[int | None]) -> None:
    """:func:`rank_component` for one state, without a heap: per relevant action the lowest ranked
    successor (``s`` itself has no rank yet); ``every`` needs all actions (``1 +`` the largest of
    those), the others one (``1 +`` the smallest).

    >>> ranks = [0, 3, None]
    >>> _rank_one(2, {2: [[(0, 1), (2, 1)], [(1, 1)]]}, {2}, ranks); ranks[2]
    4
    >>> ranks[2] = None; _rank_one(2, {2: [[(0, 1), (2, 1)], [(1, 1)]]}, set(), ranks); ranks[2]
    1
    """
    acts = relevant.get(s)
    if acts is None or ranks[s] is not None:
        return
    lowest = []
    for d in acts:
        found = [ranks[t] for t, _ in d if t != s and ranks[t] is not None]
        lowest.append(min(found) if found else None)
    if s in every:
        if lowest and None not in lowest:
            ranks[s] = 1 + max(lowest)
    else:
        found = [r for r in lowest if r is not None]
        if found:
            ranks[s] = 1 + min(found)
