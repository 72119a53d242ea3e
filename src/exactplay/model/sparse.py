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
>>> m = Model("m", 1, ["p"], "max", ["a", "end"], [None, (F(1),)], [0, None], [["go", "stay"], []],
...           [[((1, F(1)),), ((0, F(1)),)], []], [[None, None], []])
>>> sp = Sparse.from_model(m)
>>> sp.first, sp.start, sp.succ, [sp.probs[k] for k in sp.pk], sp.pay
([0, 2, 2], [0, 1, 2], [1, 0], [Fraction(1, 1), Fraction(1, 1)], [-1, 0])
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from functools import cached_property
from typing import Any

from .compiled import Model

__all__ = ["Sparse", "ArrayModel"]


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

    def has_end_component(self, among: list[int] | None = None) -> bool:
        """Whether some way of choosing actions keeps play forever in some set of states: the attractor of
        leaving (drop every state none of whose choices keeps all its successors among the states not
        dropped, terminal states first) leaves a non-empty set (:meth:`Model.has_end_component`, on arrays).
        ``among``: only these states may stay (the others are dropped from the start), e.g. the states of
        the strongly connected components of several states, where every end component of two states or
        more lies.

        >>> Sparse(2, 1, [0, 1, 1], [0, 1], [0], [0], [Fraction(1)], [0, -1], [-1, 0], [(Fraction(1),)], [-1], []).has_end_component()
        True
        >>> Sparse(2, 1, [0, 1, 1], [0, 1], [0], [0], [Fraction(1)], [0, -1], [-1, 0], [(Fraction(1),)], [-1], []).has_end_component([1])
        False
        """
        n, first, start, succ = self.n, self.first, self.start, self.succ
        if among is None:
            among = range(n)
        elif not among:
            return False
        staying = [0] * n  # per state: its choices that may still stay
        preds: list[list[int] | None] = [None] * n  # per state: the choices (of states in among) that can move into it
        owner: list[int] = []
        for s in range(n):
            owner.extend([s] * (first[s + 1] - first[s]))
        for s in among:
            staying[s] = first[s + 1] - first[s]
            for a in range(first[s], first[s + 1]):
                for k in range(start[a], start[a + 1]):
                    p = preds[succ[k]]
                    if p is None:
                        preds[succ[k]] = [a]
                    else:
                        p.append(a)
        left = bytearray(len(start) - 1)
        dropped = [s for s in range(n) if not staying[s]]  # (terminal states have no choice)
        count = 0
        while dropped:
            t = dropped.pop()
            count += 1
            for a in preds[t] or ():
                if not left[a]:
                    left[a] = 1
                    s = owner[a]
                    staying[s] -= 1
                    if not staying[s]:
                        dropped.append(s)
        return count < n

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
        by_id: dict[int, int] = {}  # id of a probability object -> its index (the model keeps them alive)
        # id of a reward object -> its index (-1: none or zero); a builder hands the same tuple again (chefs'
        # one dish per turn, 13 Fractions: hashing it and testing any() per action was most of this pass)
        by_rid: dict[int, int] = {id(None): -1}
        add_succ, add_pk, add_start, add_rew = succ.append, pk.append, start.append, rew.append
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
                    add_succ(t)
                    i = by_id.get(id(x))
                    if i is None:
                        key = (x.numerator, x.denominator)
                        i = pindex.get(key)
                        if i is None:
                            i = pindex[key] = len(probs)
                            probs.append(x)
                        by_id[id(x)] = i
                    add_pk(i)
                add_start(len(succ))
                i = by_rid.get(id(r))
                if i is None:
                    if not any(r):
                        i = -1
                    else:
                        i = rindex.get(r)
                        if i is None:
                            i = rindex[r] = len(rewards)
                            rewards.append(r)
                    by_rid[id(r)] = i
                add_rew(i)
        first[n] = len(start) - 1
        return cls(n, model.num_players, first, start, succ, pk, probs, mover, pay, payoffs, rew, rewards)


class ArrayModel(Model):
    """A :class:`~exactplay.model.compiled.Model` made from its arrays (a DRN or PRISM file read straight
    into a :class:`Sparse`): the engine reads the arrays; the per-state lists of the model's other readers
    (``states``, ``terminal``, ``mover``, ``actions``, ``trans``, ``rewards``, ``labels``) are made on first use.

    ``state_names``: a name per state (default its number); ``action_names``: a name per choice (``None``:
    numbered, and ``None`` at a state with one choice); ``labels``: per state its atomic propositions.
    """

    def __init__(self, sp: Sparse, name: str, player_names: list[str], objective: str,
                 state_names: list[str] | None = None, action_names: list[Any] | None = None,
                 labels: list[list[str]] | None = None, initial: int = 0, initial_states: list[int] | None = None,
                 never_ending: str = "zero") -> None:
        d = self.__dict__
        d.update(sparse=sp, name=name, num_players=sp.num_players, player_names=list(player_names),
                 objective=objective, initial=initial, initial_states=list(initial_states or [initial]),
                 never_ending=never_ending)
        d["_state_names"], d["_action_names"], d["_labels"] = state_names, action_names, labels

    def has_end_component(self) -> bool:
        """:meth:`Sparse.has_end_component` of the arrays, computed once (the arrays are not changed after
        the model is made): ``R``'s mapping asks it, and the engine's :class:`~exactplay.engine.structure.Structure`
        then knows that no component holds an end component without a pass over each."""
        d = self.__dict__
        known = d.get("_end_component_known")
        if known is None:
            known = d["_end_component_known"] = self.sparse.has_end_component()
        return known

    def known_end_component(self) -> bool | None:
        """:meth:`has_end_component` if it has been computed already, else None (nothing computed here)."""
        return self.__dict__.get("_end_component_known")

    def keep_components(self, parts: tuple) -> None:
        """Keep the arrays' components for the engine (``(comps, comp_of, loops, sure)``: what
        :class:`~exactplay.engine.structure.Structure` computes first), and the end-component answer they give."""
        comps, _, _, sure = parts
        self.__dict__["_components"] = parts
        self.__dict__["_end_component_known"] = any(sure) or self.sparse.has_end_component(
            [s for comp in comps if len(comp) > 1 for s in comp])

    def take_components(self) -> tuple | None:
        """The components kept by :meth:`keep_components` (handed over once: the engine's own then), or None."""
        return self.__dict__.pop("_components", None)

    def action_name(self, s: int, a: int) -> Any:
        """:meth:`Model.action_name` from the arrays (no list of every state's actions)."""
        cached = self.__dict__.get("actions")
        if cached is not None:
            return cached[s][a]
        sp = self.sparse
        a0, a1 = sp.first[s], sp.first[s + 1]
        if a1 - a0 == 1 and sp.mover[s] < 0:
            return None
        names = self.__dict__["_action_names"]
        return str(a) if names is None else names[a0 + a]

    def plain(self) -> Model:
        """The same model with its lists (a :class:`Model`, e.g. for :func:`dataclasses.replace`)."""
        return Model(self.name, self.num_players, self.player_names, self.objective, self.states, self.terminal,
                     self.mover, self.actions, self.trans, self.rewards, self.labels, self.initial, self.never_ending,
                     self.initial_states)

    def is_constant_sum(self) -> bool:
        sp = self.sparse
        sums = {p[0] + p[1] for p in sp.payoffs}
        return len(sums) <= 1 and all(r[0] + r[1] == 0 for r in sp.rewards)

    def state_name(self, s: int) -> str:
        names = self.__dict__["_state_names"]
        return str(s) if names is None else str(names[s])

    def __len__(self) -> int:
        return self.sparse.n

    def __repr__(self) -> str:
        return f"ArrayModel({self.name!r}, {self.sparse.n:,} states, {self.sparse.choices:,} choices)"

    @cached_property
    def states(self) -> list:
        names = self.__dict__["_state_names"]
        return list(names) if names is not None else [str(s) for s in range(self.sparse.n)]

    @cached_property
    def terminal(self) -> list:
        sp = self.sparse
        return [None if i < 0 else sp.payoffs[i] for i in sp.pay]

    @cached_property
    def mover(self) -> list:
        sp = self.sparse
        return [None if m < 0 else m for m in sp.mover]

    @cached_property
    def actions(self) -> list:
        sp = self.sparse
        names = self.__dict__["_action_names"]
        out = []
        for s in range(sp.n):
            a0, a1 = sp.first[s], sp.first[s + 1]
            if a1 - a0 == 1 and sp.mover[s] < 0:
                out.append([None])
            elif names is None:
                out.append([str(a) for a in range(a1 - a0)])
            else:
                out.append(names[a0:a1])
        return out

    @cached_property
    def trans(self) -> list:
        sp = self.sparse
        succ, pk, probs, start = sp.succ, sp.pk, sp.probs, sp.start
        return [[tuple((succ[k], probs[pk[k]]) for k in range(start[a], start[a + 1]))
                 for a in range(sp.first[s], sp.first[s + 1])] for s in range(sp.n)]

    @cached_property
    def rewards(self) -> list:
        sp = self.sparse
        return [[None if sp.rew[a] < 0 else sp.rewards[sp.rew[a]] for a in range(sp.first[s], sp.first[s + 1])]
                for s in range(sp.n)]

    @cached_property
    def labels(self) -> list:
        labels = self.__dict__["_labels"]
        return labels if labels is not None else [[] for _ in range(self.sparse.n)]
