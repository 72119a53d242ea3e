"""Step bounds, ``P[F<=k psi]``, ``P[phi U<=k psi]`` and ``R[C<=k]``: the model unrolled over the steps left.

A product state ``(d, j)`` is model state ``d`` with ``j`` steps left, ``0 <= j <= k``; only those reachable
from ``(init, k)`` are made, in breadth-first order (the initial states first).  ``(d, j)`` is a target when
``psi`` holds at ``d`` (whatever ``j``); else it is avoided (a terminal of payoff 0 in
:func:`~exactplay.interop.objective.reach_model`) when ``phi`` fails at ``d`` (an until) or ``j = 0``; else its
choices are ``d``'s, each successor ``t`` becoming ``(t, j - 1)`` with the same exact probability.  So the
value of ``(init, k)`` is the probability of reaching ``psi`` within ``k`` steps through ``phi``-states, the
best over the strategies that may depend on the steps left (PRISM's semantics of a step bound), and the
unrolled model is acyclic: every transition lowers ``j``.  With ``reward`` (``R[C<=k]``, no ``psi``) the
states ``(d, 0)`` are the targets (terminal, collecting nothing) and the others collect ``d``'s state
reward and their choice's action reward: the expected reward of the first ``k`` steps.  A terminal product state keeps one self-loop (a
choice of no consequence: ``reach_model`` drops the choices of terminal states).

>>> import numpy as np
>>> from fractions import Fraction
>>> from exactplay.interop.storm_arrays import ChoiceArrays
>>> a = ChoiceArrays("dtmc", np.array([0, 1, 2]), np.array([0, 2, 3]), np.array([0, 1, 1]), np.array([0, 0, 1]),
...                  [Fraction(1, 2), Fraction(1)], [0])      # 0 -> 1/2 itself + 1/2 goal; 1 (goal) -> itself
>>> u = unroll(a, 2, [False, True], None)
>>> u.base, u.steps, list(u.target), list(u.avoid)           # (0,2) -> (0,1), (1,1); (0,1) -> (0,0), (1,0)
([0, 0, 1, 0, 1], [2, 1, 1, 0, 0], [0, 0, 1, 0, 1], [0, 0, 0, 1, 0])
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction

import numpy as np

from ..model import ModelError
from .storm_arrays import ChoiceArrays

__all__ = ["Unrolled", "unroll", "MAX_UNROLLED"]

MAX_UNROLLED = 20_000_000  # product states made at most (a bound far past any --max-states)


@dataclass
class Unrolled:
    """The unrolled model: ``arrays`` (states ``0 .. m-1``), each state's model state ``base`` and
    ``steps`` left, ``target``/``avoid`` per state, each choice's model choice ``row`` (None: a terminal
    state's self-loop)."""

    arrays: ChoiceArrays
    base: list[int]
    steps: list[int]
    target: bytearray
    avoid: bytearray
    row: list[int | None]


def unroll(arrays: ChoiceArrays, k: int, target: Sequence[bool], avoid: Sequence[bool] | None,
           reward: bool = False) -> Unrolled:
    """The reachable product of ``arrays`` with the steps left ``k .. 0`` (see the module docstring)."""
    gs, rs = arrays.group_start.tolist(), arrays.row_start.tolist()
    col, vidx = arrays.column.tolist(), arrays.value_index.tolist()
    base = list(arrays.initial)  # (distinct Storm states): the first product states, (d, k)
    steps = [k] * len(base)
    index = {(d, k): q for q, d in enumerate(base)}
    group, rows, cols, vals, row_of = [0], [0], [], [], []
    tgt, avd = bytearray(), bytearray()
    values = list(arrays.values)
    one = next((i for i, v in enumerate(values) if v == 1), None)
    if one is None:
        one = len(values)
        values.append(Fraction(1))
    p = 0
    while p < len(base):
        d, j = base[p], steps[p]
        hit = bool(target[d]) or (reward and j == 0)
        stop = not hit and (j == 0 or (avoid is not None and bool(avoid[d])))
        tgt.append(hit)
        avd.append(stop)
        if hit or stop:  # terminal: one self-loop
            cols.append(p)
            vals.append(one)
            rows.append(len(cols))
            row_of.append(None)
        else:
            for r in range(gs[d], gs[d + 1]):
                for e in range(rs[r], rs[r + 1]):
                    key = (col[e], j - 1)
                    q = index.get(key)
                    if q is None:
                        q = index[key] = len(base)
                        if q >= MAX_UNROLLED:
                            raise ModelError(f"the step bound {k} unrolls the model past {MAX_UNROLLED:,} states")
                        base.append(col[e])
                        steps.append(j - 1)
                    cols.append(q)
                    vals.append(vidx[e])
                rows.append(len(cols))
                row_of.append(r)
        group.append(len(row_of))
        p += 1
    out = ChoiceArrays(arrays.kind, np.array(group, dtype=np.int64), np.array(rows, dtype=np.int64),
                       np.array(cols, dtype=np.int64), np.array(vals, dtype=np.int64), values,
                       list(range(len(arrays.initial))))
    at = np.array(base, dtype=np.int64)
    if arrays.player is not None:
        out.player = arrays.player[at]
        out.player_names = list(arrays.player_names)
    inverse: dict[int, list[int]] = {}
    for q, d in enumerate(base):
        inverse.setdefault(d, []).append(q)
    out.labels = {label: sorted(q for d in states for q in inverse.get(d, ())) for label, states in arrays.labels.items()}
    if arrays.state_reward is not None:  # (a terminal's self-loop collects nothing: reach_model drops it)
        out.reward_name = arrays.reward_name
        out.state_reward = arrays.state_reward[at]
        out.action_reward = arrays.action_reward[np.array([0 if r is None else r for r in row_of], dtype=np.int64)]
    if arrays.choice_label is not None:
        out.choice_label = [None if r is None else arrays.choice_label[r] for r in row_of]
    return Unrolled(out, base, steps, tgt, avd, row_of)
