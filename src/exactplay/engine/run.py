"""One solve: the model's numbers in the engine's field, the results, and the driver over the components.

:class:`Run` holds what a solve computes -- the values ``V``, the policy, the ranks, margins, ties and
action values ``q`` -- and the model's probabilities, payoffs and rewards converted once into the
engine's numbers (gmpy2 ``mpq`` or ``Fraction``), projected on the certified payoff components.  It
visits the components sinks first (:meth:`Run.run`) and hands each to the solver of its kind:

* one state without a self-loop: one exact Bellman step, ``Q_a = r_a + sum_t p_at V(t)``
  (:meth:`Run.single`);
* one state with a self-loop: the closed form per action (:mod:`.selfloop`);
* a larger component: a float guess, then exact policy or strategy iteration (:mod:`.cyclic`).

Every decision goes through :meth:`Run.choose` (optimal set, margin, ties) and :func:`.finish.finish`
(ranks, the tie rule).
"""

from __future__ import annotations

from functools import cached_property
from typing import Any

from ..model.sparse import Sparse
from .cyclic import cyclic, split
from .elimination import closed_states
from .finish import finish_one, never_ending
from .selfloop import self_loop
from .solution import SCCStats, Solution, constant_sum_total, with_second
from .structure import Structure, reaching_positive, self_loops, staying_core

__all__ = ["Run", "INF"]

INF = float("inf")
_NONE = type(None)


class Run:
    """The state of one exact solve of ``model`` (its arrays ``sp``) in the field ``B``."""

    def __init__(self, model, sp: Sparse, B, progress, filter: bool = True) -> None:
        self.model, self.sp, self.B, self.progress = model, sp, B, progress
        self.filter = filter  # the float filter of many-action self-loops (:mod:`.selfloop`)
        self.zero, self.one = B.zero, B.one
        self.stats = SCCStats()
        n = sp.n
        self.n = n
        self.policy: list[int | None] = [None] * n
        self.ranks: list[int | None] = [None] * n
        self.margins: dict[int, Any] = {}
        self.ties: dict[int, list[int]] = {}
        self.q: dict[int, list] = {}
        self.V: list[tuple | None] = [None] * n

    @cached_property
    def ft(self) -> list[float]:
        """The float probability of each transition (made when the float filter first asks)."""
        fp = self.fp
        return [fp[i] for i in self.sp.pk]

    def nch(self, s: int) -> int:
        return self.sp.first[s + 1] - self.sp.first[s]

    def run(self) -> Solution:
        """Solve every component, sinks first."""
        self.prepare()
        st = self.stats
        self.progress.start(f"solving {self.sp.n:,} states in {len(self.comps):,} components ({self.B.name})", self.sp.n)
        advance = self.progress.advance
        loops, single = self.loops, self.single
        for comp, has_ec in zip(self.comps, self.ec):
            if has_ec:
                st.with_end_component += 1
            if len(comp) == 1:  # (most components: :meth:`component` for one state, inline)
                s = comp[0]
                if loops[s]:
                    st.self_loop += 1
                    self_loop(self, s)
                else:
                    st.single += 1
                    single(s)
            else:
                st.largest = max(st.largest, len(comp))
                self.component(comp, has_ec)
            advance(len(comp))
        if self.comps:
            st.largest = max(st.largest, 1)
        return self.solution()

    def solution(self) -> Solution:
        model = self.model
        total = self.total
        values = self.V if total is None else with_second(self.V, self.B.make(total.numerator, total.denominator))
        return Solution(
            model=model, backend=self.B.name, objective=model.resolved_objective(), keys=self.keys,
            components=self.reported, witness=self.witness_name, policy=self.policy, values=values,
            margins=self.margins, ties=self.ties, q=self.q, ranks=self.ranks,
            never_ends=[] if self.witness_name == "termination" else never_ending(self),
            stats=self.stats)

    def prepare(self) -> None:
        """The model's :class:`~.structure.Structure`, then :meth:`setup` for its witness."""
        self.condense()
        self.setup(self.witness_name, self.reported)

    def condense(self) -> None:
        """The components (sinks first) and their end components, the objective and the witness."""
        st = Structure(self.model, self.sp)
        self.comps, self.comp_of, self.ec = st.comps, st.comp_of, st.ec
        self.loops = st.loops
        self.witness_name, self.reported = st.witness_name, st.reported
        self.stats.components = len(self.comps)

    def setup(self, witness: str, reported: list[int]) -> None:
        """The model's numbers in the engine's field, projected on the certified payoff components
        (``reported``, or only the first where the second is its constant-sum complement)."""
        model, sp, B = self.model, self.sp, self.B
        self.keys = model.keys()
        self.witness_name, self.reported = witness, reported
        if getattr(self, "loops", None) is None:  # (a Dask worker sets up without the condensation)
            self.loops = self_loops(sp)[0]
        self.total = self.constant_total()
        proj = self.reported if self.total is None else [0]
        self.P = len(proj)
        index = {c: i for i, c in enumerate(proj)}
        self.ckeys = [(index.get(c), sign) for c, sign in self.keys]
        make = B.make
        self.bp = [make(x.numerator, x.denominator) for x in sp.probs]
        self.fp = [float(x) for x in sp.probs]
        from .float_filter import MIN_NORMAL

        self.subnormal = {i for i, f in enumerate(self.fp) if f < MIN_NORMAL}  # (the filter cannot bound them)
        self.leaves: dict[int, float] = {}
        self.payv = [tuple(make(p[c].numerator, p[c].denominator) for c in proj) for p in sp.payoffs]
        self.rwv = []
        for r in sp.rewards:
            if any(r[c] for c in proj):
                self.rwv.append(tuple(make(r[c].numerator, r[c].denominator) for c in proj))
            else:
                self.rwv.append(None)
        self.rw = [None if r < 0 else self.rwv[r] for r in sp.rew]
        self.vzero = tuple([self.zero] * self.P)
        self.floats: list[dict[int, float]] = [{} for _ in range(self.P)]
        self.layouts: dict[tuple, tuple | None] = {}  # the self-loop float layouts by shape (:mod:`.selfloop`)
        self.arrays = None
        self.live = (reaching_positive(self.sp, reported[0], getattr(self, "comps", None))
                     if witness in ("reachability", "reward") else None)

    def component(self, comp: list[int], has_ec: bool | None = None) -> None:
        """Values, policy and ranks of one component (its successors solved)."""
        st = self.stats
        if len(comp) > 1:
            st.cyclic += 1
            inside = set(comp)
            if self.live is not None and split(self, comp, inside):
                return
            if has_ec is None:
                has_ec = staying_core(self.sp, comp, inside)
            cyclic(self, comp, inside, has_ec)
            return
        s = comp[0]
        if self.loops[s]:
            st.self_loop += 1
            self_loop(self, s)
        else:
            st.single += 1
            self.single(s)

    def constant_total(self):
        """``K`` when player 1's value is ``K - V_0`` everywhere (:func:`.solution.constant_sum_total`)."""
        return constant_sum_total(self.model, self.witness_name, self.reported)

    def qvec(self, a: int) -> list:
        """``r_a + sum_t p V(t)``, one number per certified component."""
        sp, V = self.sp, self.V
        r = self.rw[a]
        lo, hi = sp.start[a], sp.start[a + 1]
        if r is None and hi - lo == 1:
            return list(V[sp.succ[lo]])
        P = self.P
        out = list(r) if r is not None else [self.zero] * P
        succ, pk, bp = sp.succ, sp.pk, self.bp
        for k in range(lo, hi):
            v = V[succ[k]]
            p = bp[pk[k]]
            for c in range(P):
                if v[c]:
                    out[c] = out[c] + p * v[c]
        return out

    def qkey(self, a: int, c: int) -> Any:
        """``r_a + sum_t p V(t)`` in component ``c`` (:meth:`qkeys` of one action)."""
        return self.qkeys(a, a + 1, c)[0]

    def qkeys(self, a0: int, a1: int, c: int) -> list:
        """The values ``r_a + sum_t p V(t)`` in component ``c`` of the actions ``a0 .. a1 - 1`` (one state's)."""
        sp, V, rw, zero, bp = self.sp, self.V, self.rw, self.zero, self.bp
        start, succ, pk = sp.start, sp.succ, sp.pk
        out = []
        hi = start[a0]
        for a in range(a0, a1):
            lo, hi = hi, start[a + 1]
            r = rw[a]
            if r is None:
                if hi - lo == 1:
                    out.append(V[succ[lo]][c])
                    continue
                x = zero
            else:
                x = r[c]
            for k in range(lo, hi):
                v = V[succ[k]][c]
                if v:
                    x = x + bp[pk[k]] * v
            out.append(x)
        return out

    def choose(self, s: int, q: list) -> list[int]:
        """Record the optimal set, margin and ties of a choice state from its action values ``q``."""
        sign = self.ckeys[self.sp.mover[s]][1]
        self.q[s] = list(q)
        partial = _NONE in map(type, q)  # (by type: ``None in q`` compares each mpq with None, microseconds each)
        if not partial and len(q) != 2:  # every action's value known: the best without negating them
            # the best (the first of the best: max and min keep the first), then the best of the others: a
            # tie exactly when they are equal.  2k - 2 comparisons (a comparison of long values costs a cross
            # multiplication, and ``==`` one too), where testing every action against the best took 4k - 3
            pick = max if sign > 0 else min
            best = pick(q)
            i = list(map(id, q)).index(id(best))  # (an earlier copy of the same object would be the best)
            second = pick(q[:i] + q[i + 1:])
            if second == best:
                opt = [a for a, x in enumerate(q) if x == best]
                self.ties[s] = opt
                self.margins[s] = self.zero
                return opt
            self.margins[s] = best - second if sign > 0 else second - best
            return [i]
        known = [a for a, x in enumerate(q) if x is not None] if partial else [0, 1]
        if len(known) == 2:  # two actions, or the float filter's best and runner-up: one subtraction decides
            # and is the margin (long values: a comparison of two costs about as much as their difference)
            i, j = known
            d = q[i] - q[j] if sign > 0 else q[j] - q[i]
            if d:
                self.margins[s] = d if d > 0 else -d
                return [i] if d > 0 else [j]
            self.ties[s] = [i, j]
            self.margins[s] = self.zero
            return [i, j]
        keyed = q if sign > 0 else [None if x is None else -x for x in q]
        best = max(x for x in keyed if x is not None)
        opt = [a for a, x in enumerate(keyed) if x is not None and x == best]
        if len(opt) > 1:
            self.ties[s] = opt
            self.margins[s] = self.zero
        else:
            self.margins[s] = best - max(x for x in keyed if x is not None and x != best)
        return opt

    def is_choice(self, s: int) -> bool:
        return self.sp.mover[s] >= 0 and self.nch(s) > 1

    def single(self, s: int) -> None:
        sp = self.sp
        if sp.pay[s] >= 0:
            v = self.V[s] = self.payv[sp.pay[s]]
            if self.witness_name != "reachability" or v[0] > 0:
                self.ranks[s] = 0
            return
        a0, a1 = sp.first[s], sp.first[s + 1]
        m = sp.mover[s]
        if m < 0 or a1 - a0 == 1:
            self.V[s] = (self.qkeys(a0, a1, 0)[0],) if self.P == 1 else tuple(self.qvec(a0))
            finish_one(self, s, None)
            return
        c = self.ckeys[m][0]
        q = self.qkeys(a0, a1, c)
        opt = self.choose(s, q)
        self.V[s] = (q[opt[0]],) if self.P == 1 else tuple(self.qvec(a0 + opt[0]))
        finish_one(self, s, opt)
        if self.policy[s] != opt[0]:
            self.V[s] = tuple(self.qvec(a0 + self.policy[s]))

    def closed(self, nodes: list[int], inside: set[int], pol: dict[int, int]) -> set[int]:
        """The states of ``nodes`` that cannot leave ``inside`` under ``pol`` (their plays never end there)."""
        sp = self.sp
        first, start, succ = sp.first, sp.start, sp.succ

        def moves(s):
            a = first[s] + pol[s]
            return succ[start[a]:start[a + 1]]

        return closed_states(nodes, moves, inside)

    def vfloat(self, t: int, c: int) -> float:
        """The float of ``V(t)[c]``, a final value (made once; ``OverflowError`` beyond the doubles)."""
        cache = self.floats[c]
        f = cache.get(t)
        if f is None:
            f = cache[t] = float(self.V[t][c])
            if not abs(f) < INF:
                raise OverflowError("a value beyond the doubles")
        return f
