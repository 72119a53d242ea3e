"""The common self-loop state in one pass: :meth:`.selfloop.SelfLoops._self_loop` fused for the plain case.

A mixin of :class:`exactplay.engine.solve._Engine`.  The plain case: one payoff component (``P = 1``,
the mover compares component 0), no reward at the state, the termination witness (every play ends),
the float filter on, more than two actions, every action staying in at most one pair with
``p_a < 1`` and ``1 - p_a >= 2^-1000``, and every float met so far ``>= 0``.  The Race to 100 is
nothing else: 10,000 such states of 12 actions.

The numbers are those of the general path, computed by the same operations in the same order:
the float sums of :func:`.selfloop._scan`, the bounds of :func:`.float_filter.nonnegative_best` and
:func:`.float_filter.nonnegative_top_two` (their ``_sorted`` forms: the same lists), the exact
``x_a = A_a / (1 - p_a)`` of the candidates (``A_a`` by :meth:`.selfloop.SelfLoops._acc`), the same
pending unit, rank, policy and statistics.  What is saved
is the general path's bookkeeping: its method calls and temporary lists per state, a second pass over
the pairs for the rank (:func:`_scan_ranked` finds it with the sums), and per tuple of staying
probabilities (cached, :meth:`_plain_stays`) the exact ``1 - p_a`` and the checks ``p_a != 1``.
Anything else -- a successor without a rank, a number beyond the doubles, a negative float, a bound
that cannot be used -- returns ``False`` before the state is touched (floats met for the first time
are made first, as the general path makes them), and the general path solves it
(tests/test_selfloop_plain.py compares the two).
"""

from __future__ import annotations

from typing import Any

from . import float_filter
from .lazy import Pending
from .selfloop import SelfLoopUnit

__all__ = ["PlainSelfLoops"]

MAX_CACHED = 4096  # tuples of staying probability objects kept (as :meth:`.selfloop.SelfLoops._stays`)
_UNRANKED = 1 << 62  # above every rank


def _scan_ranked(dist: list, s: int, pf: dict, fvals: dict, ranks: list) -> tuple[list[float], list, int]:
    """:func:`.selfloop._scan` of ``s`` and, in the same pass, the largest over the actions of the
    lowest rank of a successor ``t != s`` (``-1``: an action without one).  Raises ``KeyError`` as
    :func:`.selfloop._scan`, ``TypeError`` when a successor has no rank."""
    sums, stay = [], []
    worst = -1
    for d in dist:
        y, st, low = 0, None, _UNRANKED
        for t, p in d:
            if t == s:
                st = p if st is None else (st + [p] if type(st) is list else [st, p])
            else:
                y += pf[id(p)] * fvals[t]
                r = ranks[t]
                if r < low:
                    low = r
        sums.append(y)
        stay.append(st)
        if low == _UNRANKED:
            return sums, stay, -1
        if low > worst:
            worst = low
    return sums, stay, worst


class PlainSelfLoops:
    _plain_of: dict  # tuple of ids of staying probability objects -> the record of :meth:`_plain_stays`

    _plain: bool  # the run allows the plain case: filter on, termination witness, one component (prepare)

    def _plain_loop(self, s: int) -> bool:
        """Solve the self-loop state ``s`` as the general path does, if it is the plain case (the
        module's docstring); ``False``, with nothing written but caches, where the general path must."""
        trans = self.model.trans[s]
        n_act = len(trans)
        mover = self.model.mover[s]
        if not self._plain or n_act < 3 or mover is None or self.rew[s].count(None) != n_act:
            return False
        c, sign = self.keys[mover]
        if c != 0 or 0 in self._negative_floats:  # (negative: the general bound)
            return False
        fvals = self._loop_floats.get(0)
        try:  # (TypeError: no floats yet, or a successor without a rank, which _finish_one skips)
            sums, stay, worst = _scan_ranked(trans, s, self._prob_floats, fvals, self.ranks)
        except KeyError:  # a float not made yet
            scanned = self._plain_scan(s, trans)
            if scanned is None:
                return False
            sums, stay, worst, fvals = scanned
        except TypeError:
            return False
        if worst < 0:  # an action without a successor: _finish_one leaves no rank
            return False
        rec = self._plain_stays(stay)
        if rec is None:
            return False
        stays, leaves, fstays, exact_leaves, min_leave = rec
        m = max(map(len, trans))  # >= the number of terms of every action (as _float_candidates)
        candidates = float_filter.nonnegative_best_sorted(sums, leaves, m, sign, min_leave)
        if candidates is None:
            return False
        accs: dict[int, Any] = {}  # action -> exact A_a
        if len(candidates) == 1:  # the intervals left one action: no exact comparison to make
            best = candidates[0]
            opt_x = [best]
            x_star = self._acc(s, best, 0, accs) / exact_leaves[best]
        else:
            xcs = {a: self._acc(s, a, 0, accs) / exact_leaves[a] for a in candidates}
            keyed = xcs if sign > 0 else {a: -x for a, x in xcs.items()}
            top = max(keyed.values())
            best = next(a for a in candidates if keyed[a] == top)
            opt_x = [a for a in candidates if keyed[a] == top]
            x_star = xcs[best]
        self.V[s] = (x_star,)
        try:  # the floats of Q_a = A_a + p_a x* (as _float_keep; every term and x* >= 0)
            fx = float(x_star)
        except OverflowError:
            keep = list(range(n_act))
        else:
            fvals[s] = fx  # the float of V(s), read by the states before it
            if fx < 0:
                self._negative_floats.add(0)
            keep = float_filter.nonnegative_top_two_sorted(sums, fstays, fx, m, sign)
            if keep is None:
                keep = list(range(n_act))
        stats = self.stats
        stats.exact_action_values += len(keep)
        stats.ruled_out_by_balls += n_act - len(keep)
        if self.lazy_margins and len(opt_x) == 1:  # (no p_a is 1 here)
            self.margins[s] = self.q[s] = Pending(SelfLoopUnit(self, s, keep, x_star, 0, accs, stays, opt_x))
            # Finish._finish_one: every successor ranked (else _scan_ranked's TypeError), so the rank
            # is 1 + the largest, over the actions, of the lowest successor rank; the policy is the best
            if self.ranks[s] is None:
                self.ranks[s] = worst + 1
            self.policy[s] = best
            return True
        q = [None] * n_act
        for a in keep:
            q[a] = self._acc(s, a, 0, accs) + stays[a] * x_star if stays[a] else self._acc(s, a, 0, accs)
        self._finish([s], {s: self._choose(s, q)}, {})
        a = self.policy[s]
        if a != best:  # a later optimal action (the tie rule): its own x, equal to x*
            self.V[s] = (self._acc(s, a, 0, accs) / exact_leaves[a],)
        return True

    def _plain_scan(self, s: int, trans: list) -> tuple | None:
        """:func:`_scan_ranked` of ``s`` in component 0 and the floats it read from, the floats met for
        the first time made first, as the general path makes them (:meth:`.selfloop.SelfLoops._scan_floats`);
        ``None`` (the general path) when a number is beyond the doubles, a float is negative or a
        successor has no rank."""
        if self._scan_floats(s, 0, trans) is None or 0 in self._negative_floats:
            return None
        fvals = self._loop_floats[0]
        try:
            return (*_scan_ranked(trans, s, self._prob_floats, fvals, self.ranks), fvals)
        except TypeError:
            return None

    def _plain_stays(self, stay: list) -> tuple | None:
        """For the staying probability objects of :func:`.selfloop._scan`: the exact ``p_a``, the floats
        of ``1 - p_a`` and of ``p_a`` (:meth:`.selfloop.SelfLoops._stays`), the exact ``1 - p_a`` and the
        smallest float of ``1 - p_a``, once per tuple of objects; ``None`` (not the plain case) when an action stays in several pairs,
        a number is beyond the doubles or some ``1 - p_a`` is not bounded (``p_a = 1`` among them)."""
        key = tuple(map(id, stay))
        rec = self._plain_of.get(key)
        if rec is not None:
            return rec
        if list in set(map(type, stay)):
            return None
        stays, pairs = self._stays(stay, True)
        if pairs is None or None in pairs[0]:
            return None
        one = self.one
        rec = (stays, pairs[0], pairs[1], [one - p for p in stays], min(pairs[0]) if stays else None)
        if len(self._plain_of) < MAX_CACHED:  # the objects are the model's, alive while the engine runs
            self._plain_of[key] = rec
        return rec
