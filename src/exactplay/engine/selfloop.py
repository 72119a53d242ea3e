"""One state with a self-loop: the closed form per action, each action's sum computed once.

A mixin of :class:`exactplay.engine.solve._Engine`.  For action ``a`` of state ``s`` let
``p_a`` be its probability of staying and ``A_a = r_a + sum_{t != s} p(t) V(t)`` (the
successors are solved).  Keeping ``a`` gives ``x_a = A_a / (1 - p_a)`` (``p_a = 1``: play
never ends, 0).  The value is the best ``x_a`` (earliest on a tie), and the one-step value
the margins compare is ``Q_a = A_a + p_a x*``: the same number as ``r_a + sum_t p(t) V(t)``
with ``V(s) = x*``, one product instead of a second pass over the successors.

With the filter (``filter=True``) and more than two actions, intervals in doubles with a proven
error bound (:mod:`.float_filter`) first rule out the actions whose ``x_a`` cannot be the best (an
interval entirely below another), only the remaining ``x_a`` are computed exactly, and then the
intervals of ``Q_a`` rule out the actions that are neither the best nor the runner-up; their ``Q_a`` is
``None``.  The exact comparison decides everything else, so values, policy, margins and ties are those
of the all-exact computation (tests/test_engine_filter.py, tests/test_float_filter.py).  The float of
each successor's value is made once per run (``_loop_floats``; a self-loop state leaves the float of
its ``x*`` there), and when the intervals of ``x_a`` leave one candidate it is the best without an
exact comparison.  Where a number is beyond the doubles nothing is ruled out.

The floats are read from the model's own distributions (its ``Fraction`` probabilities: ``float`` of
a Fraction is ``n / d``, correctly rounded), in one pass that also finds each action's probability of
staying (:func:`_scan`); only the actions compared exactly are read in the engine's numbers (:meth:`_acc`:
the model's pairs, each probability object converted once, :meth:`.exact_dists.DistributionConverter.prob`;
:meth:`_x_full`, several payoff components, converts its action): on the Race to 100, one of 12 actions
per state in the lazy solve, one more when its margin is read.

Lazily (``solve_model(..., lazy=True)``, no tie, no action that stays surely): the exact ``Q_a`` of
the kept actions and the margin are left pending (:class:`SelfLoopUnit`, :mod:`.lazy`) and
computed when first read; the optimal action is decided by the exact ``x_a`` as above.

The common case (one payoff component, no reward, every play ends, one staying pair per action) is
solved first by the fused :mod:`.selfloop_plain`, with the same numbers; this path does the rest.
"""

from __future__ import annotations

from typing import Any

from ..model import ModelError
from . import float_filter
from .lazy import Pending, Unit

__all__ = ["SelfLoops", "SelfLoopUnit"]


class SelfLoopUnit(Unit):
    """The pending exact action values ``Q_a = A_a + p_a x*`` and margin of one self-loop state.

    The optimal set is known without them: for ``p_a < 1``, ``Q_a - x* = (1 - p_a)(x_a - x*)``,
    so the ``Q_a`` order their actions against the best as the ``x_a`` do (compared exactly)."""

    def __init__(self, eng, s: int, keep: list[int], x_star, c: int, accs: dict, stays: list, opt: list[int]) -> None:
        self.eng, self.s, self.keep, self.x_star, self.c, self.accs, self.stays, self.opt = \
            eng, s, keep, x_star, c, accs, stays, opt

    def compute(self) -> None:
        q: list = [None] * len(self.stays)
        acc, s, c, accs = self.eng._acc, self.s, self.c, self.accs
        for a in self.keep:
            stay = self.stays[a]
            q[a] = acc(s, a, c, accs) + stay * self.x_star if stay else acc(s, a, c, accs)
        if self.eng._choose(self.s, q) != self.opt:
            raise RuntimeError(f"internal error: the exact choice at {self.eng.model.state_name(self.s)} differs "
                               "from the one the action values x_a gave")


def _scan(dist: list, s: int, pf: dict, fvals: dict) -> tuple[list[float], list]:
    """Per action ``d`` of ``s`` (the model's pairs), in one pass: the float sum of ``fl(p) fl(V(t))``
    over its pairs ``t != s``, in their order, and its staying probability object (``None``: no pair
    stays; a list: several do, in order).  ``pf`` maps ``id(p)`` of a probability object to its float.
    Raises ``KeyError`` for a probability or a successor not in ``pf``, ``fvals``."""
    sums, stay = [], []
    for d in dist:
        y, st = 0, None
        for t, p in d:
            if t == s:
                st = p if st is None else (st + [p] if type(st) is list else [st, p])
            else:
                y += pf[id(p)] * fvals[t]
        sums.append(y)
        stay.append(st)
    return sums, stay


def _stay_objects(dist: list, s: int) -> list:
    """Per action of ``s``: its staying probability object, as :func:`_scan` (without the floats)."""
    stay: list = [None] * len(dist)
    for a, p in [(a, p) for a, d in enumerate(dist) for t, p in d if t == s]:
        st = stay[a]
        stay[a] = p if st is None else (st + [p] if type(st) is list else [st, p])
    return stay


class SelfLoops:
    _stay_floats: dict  # p_a -> (float of p_a, float of 1 - p_a or None: p_a = 1 or 1 - p_a too small)
    _prob_floats: dict  # id of one of the model's probability objects -> its float
    _loop_floats: dict  # component -> {state: float of its final value}
    _negative_floats: set  # the components where one of those floats is < 0 (then the general bound)

    def _self_loop(self, s: int) -> None:
        # the model's distributions (successors, probability objects): the floats rule most actions out,
        # and only the actions compared exactly are read exactly (_acc, _x_full; self.dist[s] is None here)
        trans = self.model.trans[s]
        n_act = len(trans)
        if self.dist[s] is None and self.witness != "termination":  # _finish reads the whole state
            self.dist[s] = self.convert.state(s)
        rew, P, zero, one = self.rew[s], self.P, self.zero, self.one
        chooser = self.model.mover[s] is not None and n_act > 1
        c, sign = self.keys[self.model.mover[s]] if chooser else (0, 1)
        filtering = chooser and self.filter and n_act > 2
        # one pass over the pairs: each action's staying probability (and its float sum when filtering)
        scanned = self._scan_floats(s, c, trans) if filtering else None
        stays, pairs = self._stays(_stay_objects(trans, s) if scanned is None else scanned[1], scanned is not None)
        if rew.count(None) != len(rew):
            for a, stay in enumerate(stays):
                if stay == one and rew[a] is not None:
                    raise ModelError(f"state {self.model.state_name(s)}: action {self.model.actions[s][a]!r} "
                                     "loops forever while collecting a reward (infinite total reward)")
        if not chooser:
            x = self._x_full(s, 0, stays)
            self.V[s] = x
            self._finish([s], {}, {})
            self.V[s] = x
            return
        accs: dict[int, Any] = {}  # action -> exact A_a in component c (:meth:`_acc`)

        def x_c(a: int) -> Any:  # exact x_a in component c
            return zero if stays[a] == one else self._acc(s, a, c, accs) / (one - stays[a])

        def x_full(a: int) -> tuple:  # component 0 is the mover's: x_c's number (same operations, same order)
            return (x_c(a),) if P == 1 and c == 0 else self._x_full(s, a, stays)

        floats = self._float_candidates(s, c, sign, stays, trans, scanned, pairs) if filtering else None
        candidates = range(n_act) if floats is None else floats[0]
        if len(candidates) == 1:  # the intervals left one action: no exact comparison to make
            best = candidates[0]
            opt_x = [best]
            xs = x_full(best)
        else:
            xcs = {a: x_c(a) for a in candidates}
            keyed = xcs if sign > 0 else {a: -x for a, x in xcs.items()}
            top = max(keyed.values())
            best = next(a for a in candidates if keyed[a] == top)
            opt_x = [a for a in candidates if keyed[a] == top]
            xs = (xcs[best],) if P == 1 and c == 0 else self._x_full(s, best, stays)
        self.V[s] = xs
        x_star = xs[c]
        if floats is not None:
            keep = self._float_keep(s, c, floats, x_star, sign)
            self.stats.exact_action_values += len(keep)
            self.stats.ruled_out_by_balls += n_act - len(keep)
        else:
            keep = range(n_act)
        if self.lazy_margins and one not in stays and len(opt_x) == 1:  # (`in`: == on each, after the identity)
            # no tie: the runner-up's exact value and the margin wait for a read
            self.margins[s] = self.q[s] = Pending(SelfLoopUnit(self, s, list(keep), x_star, c, accs, stays, opt_x))
            if self.witness == "termination":
                self._finish_one(s, {s: opt_x})
            else:
                self._finish([s], {s: opt_x}, {})
        else:
            q = [None] * n_act
            for a in keep:
                stay = stays[a]
                q[a] = self._acc(s, a, c, accs) + stay * x_star if stay else self._acc(s, a, c, accs)
            self._finish([s], {s: self._choose(s, q)}, {})
        if self.policy[s] != best:  # a later optimal action (the tie rule): its own vector, equal in component c
            self.V[s] = x_full(self.policy[s])

    def _action(self, s: int, a: int) -> tuple:
        """Action ``a`` of ``s`` in the engine's numbers (converted alone unless the state was)."""
        d = self.dist[s]
        return self.convert.action(s, a) if d is None else d[a]

    def _acc(self, s: int, a: int, c: int, accs: dict) -> Any:
        """``A_a = r_a + sum_{t != s} p(t) V(t)`` in component ``c``, exact (no ``0 + p v``), kept in ``accs``;
        read from the model's pairs, each probability object converted once (:mod:`.exact_dists`: the
        numbers of ``self.dist``, so a converted state gives the same sum)."""
        y = accs.get(a)
        if y is None:
            r = self.rew[s][a]
            y = r[c] if r is not None else None
            V, converted, prob = self.V, self.convert.converted, self.convert.prob
            for t, p in self.model.trans[s][a]:
                if t != s:
                    v = V[t][c]
                    if v:
                        q = converted(id(p)) or prob(p)  # (a probability is > 0: never falsy)
                        y = q * v if y is None else y + q * v
            accs[a] = y = self.zero if y is None else y
        return y

    def _x_full(self, s: int, a: int, stays: list) -> tuple:
        """``x_a = A_a / (1 - p_a)`` in every component (``p_a = 1``: 0, play never ends)."""
        P, zero, one = self.P, self.zero, self.one
        if stays[a] == one:
            return tuple([zero] * P)
        r = self.rew[s][a]
        acc = list(r) if r is not None else [zero] * P
        for t, p in self._action(s, a):
            if t != s:
                v = self.V[t]
                for k in range(P):
                    if v[k]:
                        acc[k] = acc[k] + p * v[k]
        leave = one - stays[a]
        return tuple(y / leave for y in acc)

    def _scan_floats(self, s: int, c: int, dist: list) -> tuple | None:
        """:func:`_scan` of ``s`` (``dist``: the model's distributions) in component ``c``, the floats of
        probabilities and successors met for the first time made first; ``None`` when an exact number
        is beyond the doubles."""
        fvals = self._loop_floats.get(c)  # state -> float of its value in component c
        if fvals is None:
            fvals = self._loop_floats[c] = {}
        pf = self._prob_floats
        try:
            try:
                return _scan(dist, s, pf, fvals)
            except KeyError:  # a probability or a successor met for the first time
                V = self.V
                for d in dist:
                    for t, p in d:
                        if id(p) not in pf:  # the model's Fraction: float(n / d), correctly rounded
                            pf[id(p)] = float_filter.probability_float(p)
                        if t != s:
                            if t not in fvals:
                                fvals[t] = v = float(V[t][c])
                                if v < 0:
                                    self._negative_floats.add(c)
                return _scan(dist, s, pf, fvals)
        except OverflowError:
            return None

    def _stays(self, stay: list, floats: bool) -> tuple[list, tuple | None]:
        """:meth:`_exact_stays` of the staying probability objects of :func:`_scan`, and (``floats``)
        their :meth:`_stay_pairs` (``None``: not asked, or beyond the doubles), made once per tuple of
        objects: the model's probability objects, alive while the engine runs, so their ids name them
        (a list, where several pairs of a state stay, is made per state: not cached)."""
        key = tuple(map(id, stay))
        got = self._stays_of.get(key)
        if got is not None and (got[1] is not None or not floats):
            return got
        stays = self._exact_stays(stay)
        pairs = None
        if floats:
            try:
                pairs = self._stay_pairs(stays)
            except OverflowError:
                pass
        got = (stays, pairs)
        if list not in set(map(type, stay)) and len(self._stays_of) < 4096:
            self._stays_of[key] = got
        return got

    def _exact_stays(self, stay: list) -> list:
        """The exact ``p_a`` from the staying probability objects of :func:`_scan` (several: added in order)."""
        converted, prob, zero = self.convert.converted, self.convert.prob, self.zero
        out = []
        for st in stay:
            if st is None:
                out.append(zero)
            elif type(st) is list:
                y = None
                for p in st:
                    v = converted(id(p)) or prob(p)
                    y = v if y is None else y + v
                out.append(y)
            else:  # (a probability is > 0: a converted one is never falsy)
                out.append(converted(id(st)) or prob(st))
        return out

    def _float_candidates(self, s: int, c: int, sign: int, stays: list, dist: list, scanned,
                          pairs: tuple | None = None) -> tuple | None:
        """The actions whose ``sign * x_a`` may be the largest, by the intervals of
        :mod:`.float_filter`, and what :meth:`_float_keep` needs; ``None`` (rule out nothing) when an
        exact number is beyond the doubles.  ``dist``: the model's distributions of ``s``,
        ``scanned``: their :meth:`_scan_floats`, ``pairs``: the :meth:`_stay_pairs` of ``stays``
        (``None``: beyond the doubles)."""
        if scanned is None:
            return None
        fvals = self._loop_floats[c]
        rew = self.rew[s]
        if c in self._negative_floats or rew.count(None) != len(rew):
            return self._float_candidates_signed(s, c, sign, stays, fvals)
        if pairs is None:
            return None
        leaves, fstays = pairs
        if None in leaves:
            return self._float_candidates_signed(s, c, sign, stays, fvals)
        # every term is >= 0: the relative bounds of float_filter.nonnegative_best; m >= the number of terms
        sums = scanned[0]
        m = max(map(len, dist))
        best = float_filter.nonnegative_best(sums, leaves, m, sign)
        if best is None:
            return self._float_candidates_signed(s, c, sign, stays, fvals)
        return best, sums, None, fstays, fvals, m

    def _float_candidates_signed(self, s: int, c: int, sign: int, stays: list, fvals: dict) -> tuple | None:
        """:meth:`_float_candidates` for any signs, rewards and stays (the general bound)."""
        try:
            sums, errs, leaves, fstays = self._float_sums(s, c, stays, fvals)
        except OverflowError:
            return None
        intervals = [float_filter.EVERYTHING if leave is None else float_filter.x_interval(y, e, leave, sign)
                     for y, e, leave in zip(sums, errs, leaves)]
        return float_filter.may_be_best(intervals), sums, errs, fstays, fvals, None

    def _float_keep(self, s: int, c: int, floats: tuple, x_star, sign: int) -> list:
        """The actions whose ``sign * Q_a`` may be the largest or the second largest (the floats of
        :meth:`_float_candidates`); every action when ``x*`` is beyond the doubles."""
        _, sums, errs, fstays, fvals, m = floats
        try:
            fx = float(x_star)
        except OverflowError:
            return list(range(len(sums)))
        fvals[s] = fx  # the float of V(s) in component c (the policy's x equals x* exactly)
        if fx < 0:
            self._negative_floats.add(c)
        if errs is None:  # every term and x* >= 0
            keep = float_filter.nonnegative_top_two(sums, fstays, fx, m, sign)
            return list(range(len(sums))) if keep is None else keep
        return float_filter.may_be_top_two([float_filter.q_interval(y, e, p, fx, sign)
                                            for y, e, p in zip(sums, errs, fstays)])

    def _stay_pairs(self, stays: list) -> tuple[list, list]:
        """The floats of ``1 - p_a`` (``None`` when ``p_a = 1`` or ``1 - p_a < 2^-1000``) and of ``p_a``."""
        known, one = self._stay_floats, self.one
        leaves, fstays = [], []
        for stay in stays:
            pair = known.get(stay)
            if pair is None:  # once per distinct p_a: the floats of p_a and of the exact 1 - p_a
                leave = float(one - stay) if stay != one else 0.0
                pair = known[stay] = (float_filter.probability_float(stay) if stay else 0.0,
                                      leave if leave >= float_filter.MIN_LEAVE else None)
            fstays.append(pair[0])
            leaves.append(pair[1])
        return leaves, fstays

    def _float_sums(self, s: int, c: int, stays: list, fvals: dict) -> tuple[list, list, list, list]:
        """Per action of ``s``: the float of ``A_a`` (component ``c``), its error bound
        (:func:`.float_filter.sum_error`), the float of ``1 - p_a`` (``None`` when ``p_a = 1`` or
        ``1 - p_a < 2^-1000``: not bounded) and the float of ``p_a``.  ``fvals`` caches the floats of
        the successors' values; raises ``OverflowError`` when an exact number is beyond the doubles."""
        pf = self._prob_floats
        sums, errs = [], []
        rew, V = self.rew[s], self.V
        for a, d in enumerate(self.model.trans[s]):
            try:
                terms = [pf[id(p)] * fvals[t] for t, p in d if t != s]
            except KeyError:  # a probability or a successor met for the first time
                for t, p in d:
                    if t != s:
                        if id(p) not in pf:
                            pf[id(p)] = float_filter.probability_float(p)
                        if t not in fvals:
                            fvals[t] = v = float(V[t][c])
                            if v < 0:
                                self._negative_floats.add(c)
                terms = [pf[id(p)] * fvals[t] for t, p in d if t != s]
            r = rew[a]
            if r is not None:
                terms.append(float(r[c]))
            sums.append(sum(terms))
            errs.append(float_filter.sum_error(terms))
        leaves, fstays = self._stay_pairs(stays)
        return sums, errs, leaves, fstays
