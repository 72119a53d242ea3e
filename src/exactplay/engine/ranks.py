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
from typing import Sequence

__all__ = ["rank_component"]


def rank_component(
    states: Sequence[int],
    relevant: dict[int, list[tuple[int, ...]]],
    every: set[int],
    ranks: list[int | None],
) -> None:
    """Fill ``ranks`` for ``states``.

    ``relevant[s]`` lists, per relevant action of ``s``, its successors;
    ``s`` in ``every`` needs all of them to reach a ranked successor, others need
    one.  States not in ``relevant`` are not eligible.  Ranks of successors
    outside ``states`` must already be final.
    """
    if len(states) == 1:
        _rank_one(states[0], relevant, every, ranks)
        return
    members = set(states)
    preds: dict[int, list[tuple[int, int]]] = {}
    need: dict[int, int] = {}
    done: dict[int, list[bool]] = {}
    seeds = set()
    for s, acts in relevant.items():
        need[s] = len(acts)
        done[s] = [False] * len(acts)
        for a, succ in enumerate(acts):
            for t in succ:
                preds.setdefault(t, []).append((s, a))
                if t not in members and ranks[t] is not None:
                    seeds.add(t)
    heap = [(ranks[t], t) for t in seeds]
    heapq.heapify(heap)
    while heap:
        r, t = heapq.heappop(heap)
        for s, a in preds.get(t, ()):
            if ranks[s] is not None or done[s][a]:
                continue
            if s in every:
                done[s][a] = True
                need[s] -= 1
                if need[s] == 0:
                    ranks[s] = r + 1
                    heapq.heappush(heap, (r + 1, s))
            else:
                ranks[s] = r + 1
                heapq.heappush(heap, (r + 1, s))


def _rank_one(s: int, relevant: dict[int, list[tuple[int, ...]]], every: set[int], ranks: list[int | None]) -> None:
    """:func:`rank_component` for one state, without a heap: per relevant action the lowest ranked
    successor (``s`` itself has no rank yet); ``every`` needs all actions (``1 +`` the largest of
    those), the others one (``1 +`` the smallest).

    >>> ranks = [0, 3, None]
    >>> _rank_one(2, {2: [(0, 2), (1,)]}, {2}, ranks); ranks[2]
    4
    >>> ranks[2] = None; _rank_one(2, {2: [(0, 2), (1,)]}, set(), ranks); ranks[2]
    1
    """
    acts = relevant.get(s)
    if acts is None or ranks[s] is not None:
        return
    lowest = []
    for succ in acts:
        found = [ranks[t] for t in succ if t != s and ranks[t] is not None]
        lowest.append(min(found) if found else None)
    if s in every:
        if lowest and None not in lowest:
            ranks[s] = 1 + max(lowest)
    else:
        found = [r for r in lowest if r is not None]
        if found:
            ranks[s] = 1 + min(found)
