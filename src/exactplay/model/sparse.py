"""The model as flat arrays (compressed sparse rows), the form the engine works on.

State ``s`` has the choices ``first[s] .. first[s+1]-1`` (none at a terminal state; one at a chance
state), choice ``a`` the transitions ``start[a] .. start[a+1]-1``; transition ``k`` goes to
``succ[k]`` with probability ``probs[pk[k]]`` (each distinct probability stored once, exactly).
``mover[s]`` is the choosing player (``-1``: chance or terminal), ``pay[s]`` the index of the state's
payoff vector in ``payoffs`` (``-1``: play goes on), ``rew[a]`` the index of choice ``a``'s reward
vector in ``rewards`` (``-1``: none).

Flat lists of ints rather than one object per state: the engine's passes walk them with integer
indexing, and the big models of other tools (Storm's DRN, PRISM) are read straight into them.

>>> from fractions import Fraction as F
>>> from exactplay.model.compiled import Model
>>> m = Model("m", 1, ["p"], "max", ["a", "end"], [None, (F(1),)], [0, None], [["go", "stay"], []],
...           [[((1, F(1)),), ((0, F(1)),)], []], [[None, None], []])
>>> sp = Sparse.from_model(m)
>>> sp.first, sp.start, sp.succ, [sp.probs[k] for k in sp.pk], sp.pay
([0, 2, 2], [0, 1, 2], [1, 0], [Fraction(1, 1), Fraction(1, 1)], [-1, 0])
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Any

__all__ = ["Sparse"]


@dataclass
class Sparse:
    n: int
    num_players: int
    first: list[int]
    start: list[int]
    succ: list[int]
    pk: list[int]
    probs: list[Fraction]
    mover: list[int]
    pay: list[int]
    payoffs: list[tuple]
    rew: list[int]
    rewards: list[tuple]

    @property
    def choices(self) -> int:
        return len(self.start) - 1

    @classmethod
    def from_model(cls, model) -> "Sparse":
        """The arrays of a :class:`~exactplay.model.compiled.Model` (its numbering kept)."""
        n = len(model.states)
        first = [0] * (n + 1)
        start = [0]
        succ: list[int] = []
        pk: list[int] = []
        probs: list[Fraction] = []
        pindex: dict[Any, int] = {}
        mover = [-1] * n
        pay = [-1] * n
        payoffs: list[tuple] = []
        payindex: dict[tuple, int] = {}
        rew: list[int] = []
        rewards: list[tuple] = []
        rindex: dict[tuple, int] = {}
        term, movers, trans, rws = model.terminal, model.mover, model.trans, model.rewards
        for s in range(n):
            first[s] = len(start) - 1
            p = term[s]
            if p is not None:
                i = payindex.get(p)
                if i is None:
                    i = payindex[p] = len(payoffs)
                    payoffs.append(p)
                pay[s] = i
                continue
            m = movers[s]
            mover[s] = -1 if m is None else m
            for d, r in zip(trans[s], rws[s]):
                for t, x in d:
                    succ.append(t)
                    key = (x.numerator, x.denominator)
                    i = pindex.get(key)
                    if i is None:
                        i = pindex[key] = len(probs)
                        probs.append(x)
                    pk.append(i)
                start.append(len(succ))
                if r is None or not any(r):
                    rew.append(-1)
                else:
                    i = rindex.get(r)
                    if i is None:
                        i = rindex[r] = len(rewards)
                        rewards.append(r)
                    rew.append(i)
        first[n] = len(start) - 1
        return cls(n, model.num_players, first, start, succ, pk, probs, mover, pay, payoffs, rew, rewards)
