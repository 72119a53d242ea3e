"""Where the expected reward until a terminal state is infinite: graph searches only.

One player, ``T`` the terminal states, ``post(s, a)`` the successors of action ``a`` at ``s``.  With
Storm's semantics (a strategy that does not reach ``T`` with probability 1 is worth +infinity):

* **min** (``Rmin``): ``V(s) = +inf`` exactly outside ``Prob1E(T)``, the states from which *some*
  strategy reaches ``T`` almost surely.  ``Prob1E`` is the greatest set ``X`` such that from every
  state of ``X`` the target can be reached with positive probability using only actions whose
  successors all stay in ``X``: starting from ``X_0`` = every state, round ``r`` keeps in
  ``X_{r+1}`` the states of ``X_r`` that reach ``T`` by such actions (a backward search) and removes
  the others, until nothing is removed.  The *round* of a removed state is its witness: a state
  ``s`` of round ``r`` is not terminal, and every action of ``s`` either has a successor of an
  earlier round, or has all its successors in round ``r`` (the round-``r`` states are a trap inside
  ``X_r``).  By induction over the rounds no strategy reaches ``T`` almost surely from there: playing
  the trap's actions stays in it forever, and any other action moves, with positive probability, to
  a state of an earlier round.  The allowed actions of a finite state are those with every
  successor finite (any other action risks an infinite value).
* **max** (``Rmax``): ``V(s) = +inf`` exactly outside ``Prob1A(T)``, the states from which *every*
  strategy reaches ``T`` almost surely: the complement is the set ``I`` of states that reach, by a
  path avoiding ``T``, the staying core ``E`` (the greatest set of non-terminal states each with an
  action whose successors all stay in it).  The witness of ``s`` in ``I`` is its *rank* (0 in ``E``,
  else one more than the least rank among its successors in ``I``) and an action: at rank 0 one
  whose successors all have rank 0, elsewhere one with a successor of lower rank; following them
  reaches ``E`` with positive probability and never leaves it, avoiding ``T``.  From a finite state
  every action stays among the finite states and terminals, where no end component is left, so
  every strategy ends play there.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..model import Model

__all__ = ["InfiniteStates", "infinite_states"]


@dataclass
class InfiniteStates:
    """The states of infinite value and their witnesses.

    ``rank[s]`` the witness rank of each infinite state (min: its round; max: its rank toward the
    staying core); ``action[s]`` (max only) the witness action; ``allowed[s]`` per finite
    non-terminal state the indices of the actions of finite one-step value."""

    direction: str
    rank: dict[int, int]
    action: dict[int, int]
    allowed: list[list[int] | None]

    def is_finite(self, s: int) -> bool:
        return s not in self.rank


def infinite_states(model: Model, direction: str) -> InfiniteStates:
    """The infinite states of ``model`` (``direction`` ``"min"`` or ``"max"``, see the module)."""
    n = len(model)
    terminal, trans = model.terminal, model.trans
    if direction == "min":
        rank = _outside_prob1e(n, terminal, trans)
        action: dict[int, int] = {}
    else:
        rank, action = _outside_prob1a(model)
    allowed: list[list[int] | None] = [None] * n
    for s in range(n):
        if terminal[s] is None and s not in rank:
            allowed[s] = [a for a, d in enumerate(trans[s]) if all(t not in rank for t, _ in d)]
    return InfiniteStates(direction, rank, action, allowed)


def _predecessors(n: int, trans) -> list[list[tuple[int, int]]]:
    preds: list[list[tuple[int, int]]] = [[] for _ in range(n)]
    for s in range(n):
        for a, d in enumerate(trans[s]):
            for t, _ in d:
                preds[t].append((s, a))
    return preds


def _outside_prob1e(n: int, terminal, trans) -> dict[int, int]:
    """The states outside ``Prob1E(T)`` with their rounds (the module's min case)."""
    preds = _predecessors(n, trans)
    inside = bytearray(b"\x01") * n  # X_r
    rank: dict[int, int] = {}
    r = 0
    while True:
        # the actions of X_r whose successors all stay in X_r
        ok = {}
        for s in range(n):
            if inside[s] and terminal[s] is None:
                for a, d in enumerate(trans[s]):
                    ok[s, a] = all(inside[t] for t, _ in d)
        reach = bytearray(n)
        stack = [s for s in range(n) if inside[s] and terminal[s] is not None]
        for s in stack:
            reach[s] = 1
        while stack:
            t = stack.pop()
            for s, a in preds[t]:
                if not reach[s] and inside[s] and ok.get((s, a)):
                    reach[s] = 1
                    stack.append(s)
        removed = [s for s in range(n) if inside[s] and not reach[s]]
        if not removed:
            return rank
        for s in removed:
            inside[s] = 0
            rank[s] = r
        r += 1


def _outside_prob1a(model: Model) -> tuple[dict[int, int], dict[int, int]]:
    """The states outside ``Prob1A(T)``, their ranks and witness actions (the module's max case)."""
    n, terminal, trans = len(model), model.terminal, model.trans
    core = model._staying_pass()[1]  # the staying core (Model.has_end_component's pass)
    rank = {s: 0 for s in range(n) if core[s]}
    action = {s: next(a for a, d in enumerate(trans[s]) if all(core[t] for t, _ in d)) for s in rank}
    preds = _predecessors(n, trans)
    frontier = sorted(rank)
    r = 0
    while frontier:  # breadth first, backwards, through non-terminal states: the least ranks
        r += 1
        found = sorted({s for t in frontier for s, _ in preds[t] if terminal[s] is None and s not in rank})
        for s in found:
            rank[s] = r
        for s in found:
            action[s] = next(a for a, d in enumerate(trans[s]) if any(rank.get(t, r) < r for t, _ in d))
        frontier = found
    return rank, action
