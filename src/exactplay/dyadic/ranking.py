"""The rankings a ball certificate needs where plays may go on forever, computed by the writer.

Where plays may go on forever (worth 0), a fixed point of the rounded operator is not enough:
the checker (:mod:`exactplay.checker.ball_model`, its own code) also requires every state with a
lower end ``L > 0`` to be *ranked* towards a positive payoff, and every non-terminal state with an
upper end ``U < 0`` towards a negative one.  With ``d = +1`` for ``L`` (``-1`` for ``U``) the
ranked states are an attractor: terminals with ``d * payoff > 0``; a choice state of the player
who wants ``d`` (key sign ``= d``, two actions or more) when some action ``a`` with
``d Q_a(X) >= d X_s`` has a ranked successor; any other state when every action has one.

A fixed point reached from a start near the exact values can be true and still unrankable: a
cycle ``0 -> 3 -> 2 -> 0`` of a maximiser holds ``L = 199/256`` while the action of state 2 that
leaves the cycle is worth ``Q(L) = 198.83/256 < 199/256`` (the value is ``7/9``).

*Why the clipped start is ranked* (``d = 1``; ``U`` is the mirror).  Let ``L`` be the fixed point
and ``M > 0`` the largest ``L_s`` over the unranked states with ``L_s > 0`` (those of earlier
components are all ranked), ``W`` the unranked states with ``L_s = M``.  Call an action ``a`` of
``s`` in ``W`` *holding* if ``Q_a(L) >= M`` and no successor is ranked: at a maximiser every
action with ``Q_a(L) >= M`` is holding (else ``s`` would be ranked); at a minimiser or chance
state the action without a ranked successor is, since ``L_s = floor(min_a Q_a(L))``.  A holding
action's successors are unranked, so at most ``M``, and average at least ``M``: all in ``W``.  Now
the iteration: the feedback states start at ``min(centre - r, 0) < M``, every other change is a
rounded step ``floor(opt_a Q_a(X))`` from a sub-solution, and the ends only rise towards ``L``.
The first state of ``W`` to reach ``M`` does so by a step with ``Q_a(X) >= M`` for a holding
``a`` (a maximiser: the action of the maximum, then ``Q_a(L) >= Q_a(X) >= M``; otherwise the
holding action, as the step is a minimum), while ``a``'s successors, all in ``W``, are still below
``M``: impossible.  So ``W`` is empty.

This module only decides which states are ranked, component by component, sink-first (a state's
rank depends only on its successors: later components read the flags of earlier ones).

>>> from fractions import Fraction as F
>>> from exactplay.model import Model
>>> m = Model("loop", 1, ["p"], "max", ["s", "w", "l"], [None, (F(1),), (F(0),)], [0, None, None],
...           [["stay", "go"], [], []], [[((0, F(1)),), ((1, F(1, 2)), (2, F(1, 2)))], [], []],
...           [[None, None], [], []])
>>> form = IntForm(m)
>>> r = Rankings(form, 8)
>>> r.rank([1], [0, 256, 0], 1), r.rank([2], [0, 256, 0], 1)
([], [])
>>> r.rank([0], [128, 256, 0], 1)       # L_s = 1/2: the action "go" is worth 1/2 and reaches the win
[]
>>> r.rank([0], [200, 256, 0], 1)       # L_s = 200/256 is held only by the loop: a fake end
[0]
"""

from __future__ import annotations

from .form import IntForm

__all__ = ["Rankings"]


class Rankings:
    """Ranked flags of both ends, filled component by component (sink-first)."""

    def __init__(self, form: IntForm, k: int) -> None:
        self.form, self.k = form, k
        n = len(form)
        self.ranked = {1: [False] * n, -1: [False] * n}
        # no terminal with d * payoff > 0 (e.g. no negative payoff, d = -1): nothing is ever ranked
        self.active = {d: any(x is not None and d * x > 0 for x in form.term) for d in (1, -1)}

    def rank(self, comp: list, X: list, d: int) -> list:
        """Rank the states of ``comp`` for the ends ``X`` (``d = 1``: lower, ``-1``: upper), every
        successor outside ``comp`` already ranked; returns the states of ``comp`` that need a ranking
        (``d X_s > 0``, not terminal) and have none."""
        form = self.form
        R = self.ranked[d]
        if not self.active[d]:
            return [s for s in comp if form.term[s] is None and d * X[s] > 0]
        if len(comp) == 1 and comp[0] not in form.succ[comp[0]]:
            return self._rank_one(comp[0], X, d)
        inside = set(comp)
        preds: dict = {s: [] for s in comp}
        hit: dict = {}
        missing: dict = {}
        seeds = []  # actions with a ranked successor outside the component
        for s in comp:  # (a cyclic component has no terminal)
            R[s] = False
            acts = form.acts[s]
            hit[s] = [False] * len(acts)
            missing[s] = len(acts)
            for a, (_, pairs, _) in enumerate(acts):
                out = False
                for t, _ in pairs:
                    if t in inside:
                        preds[t].append((s, a))
                    elif R[t]:
                        out = True
                if out:
                    seeds.append((s, a))
        stack = []
        for s, a in seeds:
            if not R[s] and self._hit(s, a, X, d, hit, missing):
                R[s] = True
                stack.append(s)
        while stack:
            t = stack.pop()
            for s, a in preds[t]:
                if R[s] or hit[s][a]:
                    continue
                if self._hit(s, a, X, d, hit, missing):
                    R[s] = True
                    stack.append(s)
        return [s for s in comp if form.term[s] is None and d * X[s] > 0 and not R[s]]

    def _rank_one(self, s: int, X: list, d: int) -> list:
        """:meth:`rank` of a component of one state without a self-loop."""
        form, R = self.form, self.ranked[d]
        if form.term[s] is not None:
            R[s] = d * form.term[s] > 0
            return []
        acts = form.acts[s]
        if form.sign[s] == d and len(acts) > 1:
            R[s] = False
            for a, (_, pairs, _) in enumerate(acts):
                if any(R[t] for t, _ in pairs):
                    num, den = form.q_exact(s, a, X, self.k)
                    if d * num >= d * X[s] * den:
                        R[s] = True
                        break
        else:
            R[s] = all(any(R[t] for t, _ in pairs) for _, pairs, _ in acts)
        return [s] if d * X[s] > 0 and not R[s] else []

    def _hit(self, s: int, a: int, X: list, d: int, hit: dict, missing: dict) -> bool:
        """Action ``a`` of ``s`` has a ranked successor: does ``s`` join?"""
        form = self.form
        hit[s][a] = True
        missing[s] -= 1
        if form.sign[s] == d and len(form.acts[s]) > 1:  # a choice of the player who wants d
            num, den = form.q_exact(s, a, X, self.k)
            return d * num >= d * X[s] * den
        return missing[s] == 0
