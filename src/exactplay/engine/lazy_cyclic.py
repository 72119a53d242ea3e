"""Cyclic components solved lazily: exact values at the cut states, decisions in balls.

A mixin of :class:`exactplay.engine.solve._Engine` (used for ``lazy=True``, gmpy2 ``mpq``,
components whose choice states have at most two actions; every other component keeps
:mod:`.cyclic`).  The strategy iteration is the same as :meth:`CyclicComponents._cyclic`, round by
round (the same policies, the same rounds), with three changes of representation:

* a policy evaluation (:class:`LazyEvaluation`) computes the exact values of the cut states only
  (:func:`.cuts.cut_values`: reach probabilities, each long number entering once per cut) and an
  arb ball of every state's value in the mover's component (:func:`.cuts.ball_pass`);
* an improvement step compares the two action values as balls: ``b - a`` proved ``> 0`` switches
  (a certified strict improvement), proved ``< 0`` keeps; where the balls overlap (ties, exact or
  near) the evaluation's exact values are computed (the eager :meth:`_evaluate`) and the exact
  comparison decides, as in the eager engine;
* the final choice: the optimal action as proved by the balls, or exactly where they overlap (so
  every exact tie is found exactly); the exact values of the non-cut states, the exact margins and
  action values ``q`` stay pending (:mod:`.lazy`) until read, then one :class:`ComponentUnit`
  replays the eager evaluation of the final policy and the eager :meth:`_choose`, checking that the
  cut values and the decisions are the ones found here.

So values, policy, ties, margins, q, ranks and statistics are those of the eager engine
(tests/test_engine_lazy.py checks it on random models with near and exact ties).
"""

from __future__ import annotations

from typing import Any

import flint
from flint import arb

from ..model import ModelError
from .cuts import PREC, all_leave, ball_pass, cut_values, fine_ball
from .lazy import Pending, Unit
from .linear import _feedback_order, closed_states

__all__ = ["LazyCyclic", "LazyEvaluation", "ComponentUnit"]

DEBUG = None
_ZERO = arb(0)  # exact: the same at every precision


def exact_point(b: arb, make) -> object:
    """The exact rational of a ball of radius 0 (a dyadic number ``m 2^e``).

    >>> from gmpy2 import mpq
    >>> exact_point(arb(3) / 4, mpq)
    mpq(3,4)
    """
    man, exp = b.mid().man_exp()
    man, exp = int(man), int(exp)
    return make(man << exp, 1) if exp >= 0 else make(man, 1 << -exp)


class LazyEvaluation:
    """One policy's values on a component: exact at the cuts, balls (component ``c``) everywhere."""

    def __init__(self, eng, S: list[int], pol: dict[int, int], zero_set: set[int], c: int, balls: bool) -> None:
        self.eng, self.S, self.pol, self.zero_set, self.c = eng, S, dict(pol), set(zero_set), c
        self.has_ec = has_ec = eng._comp_has_ec
        pol = self.pol
        nodes = [s for s in S if s not in zero_set] if zero_set else S
        in_s = set(nodes)
        edist, erew = eng.dist, eng.rew
        # the policy's distribution and reward per state, looked up once (no rewards in the model: no look-ups)
        pdist = {s: edist[s][pol[s]] for s in nodes}
        prew = {s: erew[s][pol[s]] for s in nodes} if eng.rewarded else None
        dist = pdist.__getitem__
        order = None
        closed: set[int] = set()
        if has_ec:
            order = _feedback_order(nodes, dist, in_s)
            if not all_leave(order[1], dist, in_s):  # else closed_states finds none: no pass of its own
                order = None
                closed = closed_states(nodes, lambda s: [t for t, _ in pdist[s]], in_s)
        for s in closed:
            if prew is not None and prew[s] is not None:
                raise ModelError(f"state {eng.model.state_name(s)}: play can go on forever here while "
                                 "collecting a reward (infinite total reward)")
        self.zeros = self.zero_set | closed  # exactly 0
        rest = [s for s in nodes if s not in closed] if closed else nodes
        zero = tuple([eng.zero] * eng.P)
        V, zeros, entered = eng.V, self.zeros, eng._entered
        self.cuts, post, m = cut_values(rest, dist, None if prew is None else prew.__getitem__,
                                        (lambda t: zero if t in zeros else V[t]) if zeros else V.__getitem__,
                                        eng.P, eng.B.make, [s for s in rest if entered[s]], order,
                                        None if closed else in_s)
        eng.stats.largest_dense = max(eng.stats.largest_dense, m)
        self.balls: dict[int, arb] = {}
        if balls:
            def reward_c(s):
                r = prew[s]
                return None if r is None else r[c]

            self.balls = ball_pass(post, {f: x[c] for f, x in self.cuts.items()}, dist,
                                   None if prew is None else reward_c,
                                   lambda t: eng._outside_ball(t, c), in_s if nodes is S else set(S),
                                   eng._fpballs, eng._fballs_of(c))
        self._exact: dict[int, tuple] | None = None
        self.other_balls: dict[int, arb] = {}  # state -> ball of the action it does not play (improvement step)
        self.kept: set[int] = set()  # states whose played action the improvement step proved strictly better

    def ball(self, s: int) -> arb:
        b = self.balls.get(s)
        return arb(0) if b is None else b

    def exact(self) -> dict[int, tuple]:
        """Every state's exact value: the eager evaluation of the same policy (cut values checked)."""
        if self._exact is None:
            eng = self.eng
            saved = (eng._last_q, eng._local_balls, eng._comp_has_ec)
            eng._comp_has_ec = self.has_ec
            try:
                vals = eng._evaluate(self.S, self.pol, self.zero_set)
            finally:
                eng._last_q, eng._local_balls, eng._comp_has_ec = saved
            for f, x in self.cuts.items():
                if vals[f] != x:
                    raise RuntimeError(f"internal error: the cut value of {eng.model.state_name(f)} differs "
                                       "from the full evaluation")
            self._exact = vals
        return self._exact


class ComponentUnit(Unit):
    """The pending exact numbers of one lazily solved component: values, then margins and ``q``."""

    def __init__(self, eng, ev: LazyEvaluation, c: int) -> None:
        self.eng, self.ev, self.c = eng, ev, c
        self.pending = Pending(self)  # the placeholder of every slot this unit fills
        self.choices: dict[int, list[int]] = {}  # choice state -> the optimal set decided by the balls

    @property
    def depends(self) -> tuple:
        """The units of the pending successors outside the component (read by :meth:`compute`)."""
        eng = self.eng
        V, members = eng.V, set(self.ev.S)
        deps = set()
        for s in self.ev.S:
            for d in eng.dist[s]:
                for t, _ in d:
                    if t not in members and V.is_pending(t):
                        deps.add(V.raw(t).unit)
        return tuple(deps)

    def write_values(self) -> None:
        eng = self.eng
        vals = self.ev.exact()
        for s in self.ev.S:
            if eng.V.is_pending(s) and eng.V.raw(s).unit is self:
                list.__setitem__(eng.V, s, vals[s])

    def compute(self) -> None:
        self.write_values()
        eng, c = self.eng, self.c
        vals, pol = self.ev.exact(), self.ev.pol
        for s, opt in self.choices.items():
            if eng.margins.is_pending(s):
                # the played action's value is the state's: the evaluation solved V(s) = Q(s, pol(s)) exactly
                got = eng._choose(s, eng._action_values(s, c, None, (pol[s], vals[s][c])))
                if got != opt:
                    raise RuntimeError(f"internal error: the exact choice at {eng.model.state_name(s)} differs "
                                       "from the one the balls proved")


class LazyCyclic:
    _cur_balls: dict | None = None  # balls (component 0) of the component being solved, for _positive
    rewarded = True  # whether some action has a reward (set by _setup_projection; False: none looked up)

    def _lazy_applies(self, S: list[int], choice: list[int]) -> bool:
        if not self.lazy or self.B.name != "mpq":
            return False
        dist = self.dist
        if len(choice) == 1 or max(map(len, map(dist.__getitem__, choice)), default=0) > 2:
            return False
        if not choice and self.P > 1:  # several payoff components, nothing to decide (chefs: 13): the cut
            return False  # values do not help, later components read every value (:mod:`.raw_values` instead)
        keys, mover = self.keys, self.model.mover
        comps = {keys[mover[s]][0] for s in choice}
        return len(comps) <= 1 and None not in comps

    def _fballs_of(self, c: int) -> dict[int, arb]:
        """State -> fine ball of its value in payoff component ``c`` (the states solved so far that asked)."""
        fb = self._fballs.get(c)
        if fb is None:
            fb = self._fballs[c] = {}
        return fb

    def _outside_ball(self, t: int, c: int) -> arb:
        """The fine ball of ``V[t][c]`` (cached)."""
        fb = self._fballs_of(c)
        b = fb.get(t)
        if b is None:
            b = fb[t] = fine_ball(self.V[t][c])
        return b

    def _fine_pball(self, p) -> arb:
        b = self._fpballs.get(p)
        if b is None:
            b = self._fpballs[p] = fine_ball(p)
        return b

    def _q_ball(self, s: int, a: int, ev: LazyEvaluation, c: int) -> arb:
        """A ball of action ``a``'s value at ``s``: ``r + sum p V(t)``, ``V`` from the evaluation's balls
        inside the component and the stored balls outside (the arithmetic of :func:`.cuts.ball_pass`)."""
        r = self.rew[s][a]
        rewarded = r is not None and r[c]
        b = fine_ball(r[c]) if rewarded else _ZERO
        inside = ev.balls
        members = self._members
        outside = self._fballs.get(c) or self._fballs_of(c)
        pballs = self._fpballs
        same = None if rewarded else True  # every successor the exact point x: exactly x (cuts.ball_pass)
        last_p = None
        for t, p in self.dist[s][a]:
            tb = inside.get(t)  # (the evaluation's balls are of members only: one look-up inside)
            if tb is None:
                if t in members:
                    tb = _ZERO
                else:
                    tb = outside.get(t)
                    if tb is None:
                        tb = self._outside_ball(t, c)
            if same is True:
                same = tb if tb.is_exact() else None
            elif same is not None and not (tb.is_exact() and tb == same):
                same = None
            if not tb.is_zero():
                if p is not last_p:  # (an action's probabilities are mostly one shared object)
                    last_p = p
                    pb = pballs.get(p)
                    if pb is None:
                        pb = pballs[p] = fine_ball(p)
                b = b + pb * tb
        return b if same is None or same is True else same

    def _cyclic_lazy(self, S: list[int], has_ec: bool, choice: list[int]) -> None:
        with flint.ctx.workprec(PREC):  # the balls' arithmetic (fine_ball has its own)
            self._cyclic_lazy_body(S, has_ec, choice)

    def _cyclic_lazy_body(self, S: list[int], has_ec: bool, choice: list[int]) -> None:
        self._comp_has_ec = has_ec
        self._members = set(S)
        if not choice:
            ev = LazyEvaluation(self, S, {s: 0 for s in S}, set(), 0, self.witness == "reachability")
            self._store_lazy(S, ev, 0)
            self._finish(S, {}, {})
            self._cur_balls = None
            return
        self.stats.cyclic_with_choices += 1
        keys, mover = self.keys, self.model.mover
        (c,) = {keys[mover[s]][0] for s in choice}
        maxers = [s for s in choice if keys[mover[s]][1] > 0]
        miners = [s for s in choice if keys[mover[s]][1] < 0]
        pol, ev = self._strategy_iteration(
            S, c, maxers, miners, lambda pol: self._min_reply_lazy(S, pol, miners, c, has_ec),
            lambda pol: LazyEvaluation(self, S, pol, set(), c, True), self._improve_lazy)
        evaluated = dict(pol)
        unit = self._store_lazy(S, ev, c)
        opt = {s: self._choose_lazy(s, ev, c, unit, keys[mover[s]][1]) for s in choice}
        self._finish(S, opt, {})
        policy = self.policy
        if any(policy[s] != evaluated[s] for s in S):
            final = {s: self.policy[s] for s in S}
            ev2 = LazyEvaluation(self, S, final, set(), c, True)
            for f, x in ev2.cuts.items():  # the same values in component c: exactly at the cuts, in balls elsewhere
                if (ev.cuts[f][c] != x[c]) if f in ev.cuts else not ev.ball(f).overlaps(fine_ball(x[c])):
                    raise RuntimeError("internal error: the tie-broken policy changes the value at "
                                       f"{self.model.state_name(f)}")
            for s in S:
                if not ev.ball(s).overlaps(ev2.ball(s)):
                    raise RuntimeError("internal error: the tie-broken policy changes the value at "
                                       f"{self.model.state_name(s)}")
            unit.ev = ev2  # the other components may differ: the stored values are the final policy's
            zero = tuple([self.zero] * self.P)
            pending = Pending(unit)
            for s in S:
                if s in ev2.cuts:
                    self.V[s] = ev2.cuts[s]
                elif s in ev2.zeros:
                    self.V[s] = zero
                else:
                    self.V[s] = pending
        self._cur_balls = None
        unit.ev.balls, unit.ev.other_balls, unit.ev.kept = {}, {}, set()  # the pending work replays the exact evaluation only

    def _store_lazy(self, S: list[int], ev: LazyEvaluation, c: int) -> ComponentUnit:
        """Exact values at the cuts and of the states worth 0; the others pending on one unit."""
        V, cuts, zeros = self.V, ev.cuts, ev.zeros
        zero = tuple([self.zero] * self.P)
        unit = ComponentUnit(self, ev, c)
        pending = unit.pending
        put = list.__setitem__
        for s in S:
            x = cuts.get(s)
            put(V, s, x if x is not None else zero if s in zeros else pending)
        self._fballs_of(c).update(ev.balls)
        self._cur_balls = ev.balls if c == 0 else None
        return unit

    def _positive(self, s: int) -> bool:
        """Whether ``V[s][0] > 0``: by the current component's ball where the value is pending and the
        ball proves the sign, else exactly."""
        balls = self._cur_balls
        if balls is not None:
            b = balls.get(s)
            if b is not None and type(list.__getitem__(self.V, s)) is Pending:
                if b > 0:
                    return True
                if b < 0 or b.is_zero():
                    return False
        return self.V[s][0] > 0

    def _choose_lazy(self, s: int, ev: LazyEvaluation, c: int, unit: ComponentUnit, sign: int) -> list[int]:
        """The optimal set of a two-action choice state (``sign`` 1: the mover maximises component ``c``,
        -1: minimises): by balls, else exactly (the eager _choose)."""
        a = ev.pol[s]
        if s in ev.kept:  # the improvement step proved ``a`` strictly better on this evaluation (the same balls)
            opt = [a]
            self.margins[s] = self.q[s] = unit.pending
            unit.choices[s] = opt
            return opt
        cur = ev.balls.get(s)
        if cur is None:
            cur = _ZERO
        other = ev.other_balls.get(s)
        if other is None:
            other = self._q_ball(s, 1 - a, ev, c)
        q0, q1 = (cur, other) if a == 0 else (other, cur)
        if q0.is_exact() and q1.is_exact() and q0 == q1:  # one exact point (radius 0): a tie
            x = self.zero if q0.is_zero() else exact_point(q0, self.B.make)
            self.q[s] = [x, x]
            self.ties[s], self.margins[s] = [0, 1], self.zero
            return [0, 1]
        d = q0 - q1 if sign > 0 else q1 - q0
        if d > 0 or d < 0:
            opt = [0] if d > 0 else [1]
            self.margins[s] = self.q[s] = unit.pending
            unit.choices[s] = opt
            return opt
        unit.write_values()
        if DEBUG is not None:
            DEBUG.append((s, [q0, q1], d))
        return self._choose(s, self._action_values(s, c))

    def _improve_lazy(self, states: list[int], pol: dict[int, int], ev: LazyEvaluation, c: int, sign: int) -> bool:
        """:meth:`CyclicComponents._improve` for two-action states, balls first."""
        switched = False
        balls, other_balls, evaluated, kept = ev.balls, ev.other_balls, ev.pol, ev.kept
        for s in states:
            a = pol[s]
            cur = balls.get(s)
            if cur is None:
                cur = _ZERO
            other = self._q_ball(s, 1 - a, ev, c)
            played = a == evaluated[s]
            if played:
                other_balls[s] = other
            d = other - cur if sign > 0 else cur - other
            if d > 0:
                pol[s] = 1 - a
                switched = True
                continue
            if d < 0:  # proved worse
                if played:
                    kept.add(s)
                continue
            if cur.is_exact() and other.is_exact() and cur == other:  # one exact point
                continue
            local = ev.exact()
            x_cur = local[s][c]
            x_other = self._q_key(s, 1 - a, c, local)
            if (x_other > x_cur) if sign > 0 else (x_other < x_cur):
                pol[s] = 1 - a
                switched = True
        return switched

    def _min_reply_lazy(self, S, pol, miners, c, has_ec) -> LazyEvaluation:
        """:meth:`CyclicComponents._min_reply` with lazy evaluations."""
        zero_set: set[int] = set()
        if has_ec:
            zero_set = self._min_zero_region(S, pol, set(miners), c)
            members = set(S)
            for s in miners:
                if s in zero_set:
                    pol[s] = next(a for a, d in enumerate(self.dist[s])
                                  if all(t in zero_set or (t not in members and not self.V[t][c]) for t, _ in d))
        free = [s for s in miners if s not in zero_set]
        while True:
            ev = LazyEvaluation(self, S, pol, zero_set, c, True)
            if not free or not self._improve_lazy(free, pol, ev, c, -1):
                return ev
