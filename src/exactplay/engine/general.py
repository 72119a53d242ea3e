"""The exact engine on the model's arrays: components sink-first, a float guess, an exact proof.

Semantics (tests/test_engine.py): the value of a state is the expected terminal payoff plus the
expected total reward, a play that never ends is worth 0; at a state of player ``i`` the chosen
action maximises ``sign * V[comp]`` for ``(comp, sign) = keys[i]`` (:meth:`Model.keys`); the earlier
action wins exact ties, except that a maximiser where play can go on forever takes the earliest
optimal action that makes progress (decreases the rank).

The model (:class:`~exactplay.model.sparse.Sparse`) is condensed into strongly connected components
(:mod:`.scc`), solved sinks first, each reading only the values of earlier ones:

* one state without a self-loop: one exact Bellman step, ``Q_a = r_a + sum_t p_at V(t)``;
* one state with a self-loop: per action ``x_a = (r_a + sum_{t != s} p_at V(t)) / (1 - p_as)``
  (``p_as = 1``: the action never leaves, 0), the best ``x_a`` is the value;
* a larger component: its choices are guessed by float policy iteration (each policy evaluated by
  the same state elimination as the exact one, :mod:`.elimination`), then the guess is evaluated
  exactly and improved only on a strict exact improvement (policy iteration for one side,
  Hoffman-Karp strategy iteration for both sides of a zero-sum game, the minimiser's states that can
  keep the value at 0 fixed first), until no action is strictly better: the exact optimum.

The witness (:data:`~exactplay.engine.solution.WITNESSES`) and the refusals are decided up front
(:meth:`_Run.witness`), from the components and their end components (sets where some choice of
actions keeps play forever: :meth:`_Run.staying_core`).
"""

from __future__ import annotations

import heapq
from typing import Any

from ..model import ModelError
from ..model.sparse import Sparse
from ..numbers import get_backend
from ..progress import SILENT
from .elimination import closed_states, solve_transient
from .solution import SCCStats, Solution, with_second

__all__ = ["solve_general", "MAX_ROUNDS"]

INF = float("inf")

MAX_ROUNDS = 10_000  # exact policy / strategy iteration rounds in one component
FLOAT_ROUNDS = 200  # float policy iteration rounds of the guess in one component
FLOAT_SWITCH = 1e-12  # relative improvement a float round needs to switch an action
MIN_FLOAT_ARRAYS = 400  # components of at least this many states are guessed in numpy (:mod:`.float_policy`)


def solve_general(model, backend: str = "mpq", progress=SILENT) -> Solution:
    """Solve a compiled :class:`~exactplay.model.Model` exactly (values of every state, policy,
    margins, ties, action values, ranks)."""
    B = get_backend(backend)
    if not B.exact:
        from ..errors import UsageError

        raise UsageError("the engine computes exactly: choose the backend mpq or fraction")
    from ..model.collector import fewer_collections

    with fewer_collections(freeze=True):
        sp = model.__dict__.get("sparse") or Sparse.from_model(model)  # (an ArrayModel brings its arrays)
        return _Run(model, sp, B, progress).run()


class _Run:
    def __init__(self, model, sp: Sparse, B, progress) -> None:
        self.model, self.sp, self.B, self.progress = model, sp, B, progress
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

    # ------------------------------------------------------------ structure

    def nch(self, s: int) -> int:
        return self.sp.first[s + 1] - self.sp.first[s]

    def staying_core(self, comp: list[int], inside: set[int]) -> bool:
        """Whether the component holds an end component: its greatest subset ``X`` where every state
        has an action all of whose successors lie in ``X`` is non-empty (worklist, each action once)."""
        sp = self.sp
        first, start, succ = sp.first, sp.start, sp.succ
        count: dict[int, int] = {}
        owner: dict[int, int] = {}
        waiting: dict[int, list[int]] = {}
        drop = []
        for s in comp:
            c = 0
            for a in range(first[s], first[s + 1]):
                ks = range(start[a], start[a + 1])
                if all(succ[k] in inside for k in ks):
                    c += 1
                    owner[a] = s
                    for k in ks:
                        waiting.setdefault(succ[k], []).append(a)
            count[s] = c
            if not c:
                drop.append(s)
        dead: set[int] = set()
        removed = 0
        while drop:
            t = drop.pop()
            removed += 1
            for a in waiting.get(t, ()):
                if a not in dead:
                    dead.add(a)
                    s = owner[a]
                    count[s] -= 1
                    if not count[s]:
                        drop.append(s)
        return removed < len(comp)

    def has_end_component(self, comp: list[int], inside: set[int] | None = None) -> bool:
        if len(comp) > 1:
            return self.staying_core(comp, set(comp) if inside is None else inside)
        s = comp[0]
        sp = self.sp
        return any(sp.start[a + 1] - sp.start[a] == 1 and sp.succ[sp.start[a]] == s
                   for a in range(sp.first[s], sp.first[s + 1]))

    def on_cycle(self, s: int) -> bool:
        ci = self.comp_of[s]
        if len(self.comps[ci]) > 1:
            return True
        sp = self.sp
        return any(sp.succ[k] == s for k in range(sp.start[sp.first[s]], sp.start[sp.first[s + 1]]))

    def local_choice(self, s: int, inside: set[int] | None = None) -> bool:
        """Whether every action of ``s`` moves inside its component (``inside``) with the same probabilities."""
        sp = self.sp
        if inside is None:
            comp_of = self.comp_of
            ci = comp_of[s]
        ref = None
        for a in range(sp.first[s], sp.first[s + 1]):
            part = {sp.succ[k]: sp.pk[k] for k in range(sp.start[a], sp.start[a + 1])
                    if (comp_of[sp.succ[k]] == ci if inside is None else sp.succ[k] in inside)}
            if ref is None:
                ref = part
            elif part != ref:
                return False
        return True

    def deciding(self, s: int) -> bool:
        return self.on_cycle(s) and not self.local_choice(s)

    def witness(self, ec: list[bool]) -> tuple[str, list[int]]:
        """Which witness pins the values down, and which payoff components are certified; raises
        :class:`ModelError` for the games the engine refuses (as :func:`.ending.witness_kind`)."""
        model, sp, keys = self.model, self.sp, self.keys
        n = sp.n
        choosers = [s for s in range(n) if sp.mover[s] >= 0 and self.nch(s) > 1]
        chooser_comps = {keys[sp.mover[s]][0] for s in choosers}
        if len(chooser_comps) > 1:
            per: dict[int, set[int]] = {}
            for s in choosers:
                if self.deciding(s):
                    per.setdefault(self.comp_of[s], set()).add(keys[sp.mover[s]][0])
            if any(len(v) > 1 for v in per.values()):
                raise ModelError(
                    "players with different objectives choose on a common cycle of play: such a game has no single "
                    "value (declare objective 'zero-sum' for a two-player game where player 1 minimises player 0's payoff)")
        if not any(ec):
            return "termination", list(range(model.num_players))
        rewarded = sp.rewards and any(r >= 0 for r in sp.rew)
        if rewarded:
            ends = self.surely_ending(ec)
            for s in range(n):
                if not ends[s] and any(sp.rew[a] >= 0 for a in range(sp.first[s], sp.first[s + 1])):
                    raise ModelError(
                        f"state {model.state_name(s)}: a reward at a state from which play can go on forever is not "
                        "supported (the expected total reward needs every play from there to end)")
        if not any(self.deciding(s) for s in choosers):
            return "policy", list(range(model.num_players))
        if len(chooser_comps) > 1:
            raise ModelError(
                "choices on a cycle where play can go on forever, in a game whose players have different objectives: "
                "not supported (the values are certified for one objective there)")
        (c,) = chooser_comps
        if rewarded:
            for a, r in enumerate(sp.rew):
                if r >= 0 and sp.rewards[r][c] != 0:
                    s = self.owner_of(a)
                    raise ModelError(
                        f"state {model.state_name(s)}: rewards in a game where choices on a cycle can make play go on "
                        "forever are not supported (only terminal payoffs are certified there)")
        for s in range(n):
            if sp.pay[s] >= 0 and sp.payoffs[sp.pay[s]][c] < 0:
                raise ModelError(
                    f"state {model.state_name(s)}: a negative payoff for {model.player_names[c]} in a game where "
                    "choices can make play go on forever (worth 0) is not supported: such values need not be attained")
        return "reachability", [c]

    def owner_of(self, a: int) -> int:
        import bisect

        return bisect.bisect_right(self.sp.first, a) - 1

    def surely_ending(self, ec: list[bool]) -> bytearray:
        """``ends[s]``: every play from ``s`` ends, whatever the players do (no end component is
        reachable): sinks first, a component reaches one if it holds one or moves to one that does."""
        sp, comp_of = self.sp, self.comp_of
        reach = bytearray(len(self.comps))
        ends = bytearray(sp.n)
        for i, comp in enumerate(self.comps):
            if ec[i]:
                reach[i] = 1
                continue
            hit = any(reach[comp_of[sp.succ[k]]] for s in comp
                      for k in range(sp.start[sp.first[s]], sp.start[sp.first[s + 1]]))
            if hit:
                reach[i] = 1
            else:
                for s in comp:
                    ends[s] = 1
        return ends

    # ------------------------------------------------------------ driver

    def run(self) -> Solution:
        """Solve every component, sinks first."""
        self.prepare()
        st = self.stats
        self.progress.start(f"solving {self.sp.n:,} states in {len(self.comps):,} components ({self.B.name})", self.sp.n)
        for comp, has_ec in zip(self.comps, self.ec):
            st.largest = max(st.largest, len(comp))
            st.with_end_component += has_ec
            self.component(comp, has_ec)
            self.progress.advance(len(comp))
        return self.solution()

    def solution(self) -> Solution:
        model = self.model
        total = self.total
        values = self.V if total is None else with_second(self.V, self.B.make(total.numerator, total.denominator))
        return Solution(
            model=model, backend=self.B.name, objective=model.resolved_objective(), keys=self.keys,
            components=self.reported, witness=self.witness_name, policy=self.policy, values=values,
            margins=self.margins, ties=self.ties, q=self.q, ranks=self.ranks,
            never_ends=[] if self.witness_name == "termination" else self.never_ending(),
            stats=self.stats)

    def prepare(self) -> None:
        """:meth:`condense`, then :meth:`setup` for its witness."""
        self.condense()
        self.setup(self.witness_name, self.reported)

    def condense(self) -> None:
        """The components (sinks first) and their end components, the objective and the witness."""
        model, sp = self.model, self.sp
        from .scc import components

        self.comps, self.comp_of = components(sp.n, sp.first, sp.start, sp.succ)
        self.ec = ec = [self.has_end_component(comp) for comp in self.comps]
        if model.objective == "auto" and "_resolved_auto" not in model.__dict__:
            # every play ends exactly when no component holds an end component (:meth:`Model.resolved_objective`)
            zero_sum = model.num_players == 2 and not any(ec) and model.is_constant_sum()
            model.__dict__["_resolved_auto"] = "zero-sum" if zero_sum else "max"
        self.keys = model.keys()
        self.witness_name, self.reported = self.witness(ec)
        self.stats.components = len(self.comps)

    def setup(self, witness: str, reported: list[int]) -> None:
        """The model's numbers in the engine's field, projected on the certified payoff components
        (``reported``, or only the first where the second is its constant-sum complement)."""
        model, sp, B = self.model, self.sp, self.B
        self.keys = model.keys()
        self.witness_name, self.reported = witness, reported
        self.total = self.constant_total()
        proj = self.reported if self.total is None else [0]
        self.P = len(proj)
        index = {c: i for i, c in enumerate(proj)}
        self.ckeys = [(index.get(c), sign) for c, sign in self.keys]
        make = B.make
        self.bp = [make(x.numerator, x.denominator) for x in sp.probs]
        self.fp = [float(x) for x in sp.probs]
        self.ft = [self.fp[i] for i in sp.pk]  # the float probability of each transition
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
        self.arrays = None
        self.live = self.reaching_positive() if witness == "reachability" else None

    def component(self, comp: list[int], has_ec: bool | None = None) -> None:
        """Values, policy and ranks of one component (its successors solved)."""
        st = self.stats
        if len(comp) > 1:
            st.cyclic += 1
            inside = set(comp)
            if has_ec is None:
                has_ec = self.staying_core(comp, inside)
            if not (self.live is not None and self.split(comp, inside)):
                self.cyclic(comp, inside, has_ec)
            return
        s = comp[0]
        sp = self.sp
        if any(sp.succ[k] == s for k in range(sp.start[sp.first[s]], sp.start[sp.first[s + 1]])):
            st.self_loop += 1
            self.self_loop(s)
        else:
            st.single += 1
            self.single(s)

    def reaching_positive(self) -> bytearray:
        """``live[s]``: some play from ``s`` reaches a terminal state of positive payoff (in the one certified
        component of the reachability witness); from the other states every play is worth 0."""
        sp = self.sp
        c = self.reported[0]
        n = sp.n
        preds: list[list[int] | None] = [None] * n
        first, start, succ = sp.first, sp.start, sp.succ
        for s in range(n):
            for k in range(start[first[s]], start[first[s + 1]]):
                t = succ[k]
                p = preds[t]
                if p is None:
                    preds[t] = [s]
                else:
                    p.append(s)
        live = bytearray(n)
        stack = [s for s in range(n) if sp.pay[s] >= 0 and sp.payoffs[sp.pay[s]][c] > 0]
        for s in stack:
            live[s] = 1
        while stack:
            for s in preds[stack.pop()] or ():
                if not live[s]:
                    live[s] = 1
                    stack.append(s)
        return live

    def split(self, comp: list[int], inside: set[int]) -> bool:
        """Under the reachability witness: fix the states of value 0 to 0 first -- those that reach no positive
        payoff, and, where only a minimiser chooses, those where she can keep play away from it forever
        (:meth:`zero_region`) -- then solve the rest component by component (it falls apart into smaller
        ones, often into single states), and decide the zero states last.  False if there is nothing to fix."""
        sp, live, V = self.sp, self.live, self.V
        zero = {s for s in comp if not live[s]}
        choice = [s for s in comp if self.is_choice(s)]
        signs = {self.ckeys[sp.mover[s]][1] for s in choice}
        if signs == {-1}:
            pol = {s: 0 for s in comp}
            c = self.ckeys[sp.mover[choice[0]]][0]
            zero |= self.zero_region(comp, inside, pol, set(choice), c)
        if not zero:
            return False
        for s in zero:
            V[s] = self.vzero
        rest = [s for s in comp if s not in zero]
        if rest:
            from .scc import components

            for sub in components(sp.n, sp.first, sp.start, sp.succ, nodes=rest)[0]:
                self.component(sub)
        opt = {}
        for s in zero:
            if self.is_choice(s):
                c = self.ckeys[sp.mover[s]][0]
                opt[s] = self.choose(s, [self.qkey(a, c) for a in range(sp.first[s], sp.first[s + 1])])
        self.finish(sorted(zero), opt)
        return True

    def constant_total(self):
        """``K`` when player 1's value is ``K - V_0`` everywhere (:func:`.solution.constant_sum_total`)."""
        from .solution import constant_sum_total

        return constant_sum_total(self.model, self.witness_name, self.reported)

    # ------------------------------------------------------------ Bellman pieces

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
        sp, V = self.sp, self.V
        r = self.rw[a]
        lo, hi = sp.start[a], sp.start[a + 1]
        if r is None and hi - lo == 1:
            return V[sp.succ[lo]][c]
        out = r[c] if r is not None else self.zero
        succ, pk, bp = sp.succ, sp.pk, self.bp
        for k in range(lo, hi):
            x = V[succ[k]][c]
            if x:
                out = out + bp[pk[k]] * x
        return out

    def choose(self, s: int, q: list) -> list[int]:
        """Record the optimal set, margin and ties of a choice state from its action values ``q``."""
        sign = self.ckeys[self.sp.mover[s]][1]
        self.q[s] = list(q)
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

    # ------------------------------------------------------------ one state

    def single(self, s: int) -> None:
        sp = self.sp
        if sp.pay[s] >= 0:
            v = self.V[s] = self.payv[sp.pay[s]]
            if self.witness_name != "reachability" or v[0] > 0:
                self.ranks[s] = 0
            return
        a0 = sp.first[s]
        if not self.is_choice(s):
            self.V[s] = tuple(self.qvec(a0))
            self.finish([s], {})
            return
        c = self.ckeys[sp.mover[s]][0]
        q = [self.qkey(a, c) for a in range(a0, sp.first[s + 1])]
        opt = {s: self.choose(s, q)}
        self.V[s] = (q[opt[s][0]],) if self.P == 1 else tuple(self.qvec(a0 + opt[s][0]))
        self.finish([s], opt)
        if self.policy[s] != opt[s][0]:
            self.V[s] = tuple(self.qvec(a0 + self.policy[s]))

    def self_loop(self, s: int) -> None:
        """``x_a = A_a / (1 - p_as)`` per action, ``A_a = r_a + sum_{t != s} p_at V(t)``; the best ``x_a`` is the
        value, and the one-step values ``Q_a = A_a + p_as x*`` are compared for the margin.

        With more than two actions, intervals in doubles with a proven error bound (:mod:`.float_filter`) rule
        out first the actions whose ``x_a`` cannot be the best, then those whose ``Q_a`` can be neither the
        best nor the runner-up (their ``Q_a`` is ``None``); only the others are computed exactly."""
        sp = self.sp
        a0, a1 = sp.first[s], sp.first[s + 1]
        if not self.is_choice(s):
            acc, stay = self.loop_sum(s, a0)
            self.V[s] = self.loop_value(s, a0, acc, stay)
            self.finish([s], {})
            return
        c, sign = self.ckeys[sp.mover[s]]
        floats = self.loop_floats(s, c) if a1 - a0 > 2 else None
        if floats is not None:
            from .float_filter import may_be_best, x_interval

            cands = may_be_best([(0.0, 0.0) if leave == 0.0 else x_interval(fa, e, leave, sign)
                                 for fa, e, _, leave in floats])
        else:
            cands = range(a1 - a0)
        exact = {a: self.loop_sum(s, a0 + a) for a in cands}
        xs = {a: self.loop_value(s, a0 + a, *exact[a]) for a in cands}
        best = max(cands, key=lambda a: (sign * xs[a][c], -a))
        x = xs[best][c]
        self.V[s] = xs[best]
        if floats is not None:
            from .float_filter import may_be_top_two, q_interval

            xf = self.vfloat(s, c)
            top = may_be_top_two([q_interval(fa, e, fstay, xf, sign) for fa, e, fstay, _ in floats])
        else:
            top = range(a1 - a0)
        q: list = [None] * (a1 - a0)
        for a in top:
            if a not in exact:
                exact[a] = self.loop_sum(s, a0 + a)
            acc, stay = exact[a]
            q[a] = acc[c] + stay * x
        opt = {s: self.choose(s, q)}
        self.finish([s], opt)
        a = self.policy[s]
        if a != best:
            self.V[s] = self.loop_value(s, a0 + a, *exact[a])

    def loop_sum(self, s: int, a: int) -> tuple[list, Any]:
        """``(A_a, p_as)`` exactly: ``A_a = r_a + sum_{t != s} p_at V(t)`` (one number per component)."""
        sp, V, P = self.sp, self.V, self.P
        succ, pk, bp = sp.succ, sp.pk, self.bp
        r = self.rw[a]
        acc = list(r) if r is not None else [self.zero] * P
        stay = self.zero
        for k in range(sp.start[a], sp.start[a + 1]):
            t = succ[k]
            if t == s:
                stay = bp[pk[k]]
                continue
            v = V[t]
            p = bp[pk[k]]
            for c in range(P):
                if v[c]:
                    acc[c] = acc[c] + p * v[c]
        return acc, stay

    def loop_value(self, s: int, a: int, acc: list, stay) -> tuple:
        """``x_a = A_a / (1 - p_as)``; 0 if the action never leaves (with a reward: infinite, refused)."""
        if stay == self.one:
            if self.rw[a] is not None:
                raise ModelError(f"state {self.model.state_name(s)}: action "
                                 f"{self.model.actions[s][a - self.sp.first[s]]!r} never leaves while collecting a "
                                 "reward (infinite total reward)")
            return self.vzero
        leave = self.one - stay
        return tuple(x / leave for x in acc)

    def loop_floats(self, s: int, c: int) -> list[tuple[float, float, float, float]] | None:
        """Per action ``(fl(A_a), error bound, fl(p_as), fl(1 - p_as))`` in component ``c`` (:mod:`.float_filter`;
        ``fl(1 - p_as) = 0.0`` for an action that never leaves), or ``None`` where the doubles cannot bound them
        (a number out of range, a probability below the normal doubles, a leaving probability below 2^-1000);
        an action that never leaves while collecting a reward is refused here too."""
        from .float_filter import MIN_LEAVE, REL, TINY

        sp = self.sp
        succ, start, ft, pk = sp.succ, sp.start, self.ft, sp.pk
        if self.subnormal and any(pk[k] in self.subnormal for k in range(start[sp.first[s]], start[sp.first[s + 1]])):
            return None
        cache = self.floats[c]
        V = self.V
        out = []
        try:
            for a in range(sp.first[s], sp.first[s + 1]):
                r = self.rw[a]
                terms = [float(r[c])] if r is not None else []
                stay = -1
                for k in range(start[a], start[a + 1]):
                    t = succ[k]
                    if t == s:
                        stay = k
                        continue
                    f = cache.get(t)
                    if f is None:
                        f = cache[t] = float(V[t][c])
                    terms.append(ft[k] * f)
                if stay < 0:
                    leave, fstay = 1.0, 0.0
                else:
                    leave, fstay = self.leave_float(pk[stay]), ft[stay]
                    if leave == 0.0:
                        self.loop_value(s, a, [], self.one)  # (refuses a reward)
                        out.append((0.0, 0.0, 1.0, 0.0))
                        continue
                    if leave < MIN_LEAVE:
                        return None
                fa = sum(terms)
                m = len(terms)
                e = (m + 4) * REL * sum(map(abs, terms)) + (4 * m + 8) * TINY
                if not (abs(fa) < INF and e < INF):
                    return None
                out.append((fa, e, fstay, leave))
        except OverflowError:
            return None
        return out

    def leave_float(self, i: int) -> float:
        """``fl(1 - p)`` of the probability ``probs[i]``, from the exact difference (made once)."""
        f = self.leaves.get(i)
        if f is None:
            f = self.leaves[i] = float(1 - self.sp.probs[i])
        return f

    # ------------------------------------------------------------ a larger component

    def cyclic(self, comp: list[int], inside: set[int], has_ec: bool) -> None:
        sp = self.sp
        self.has_ec = has_ec
        self.arrays = None  # (the float arrays of a large component, :meth:`array_guess`)
        choice = [s for s in comp if self.is_choice(s)]
        pol = {s: 0 for s in comp}
        if not choice:
            self.evaluate(comp, inside, pol, set())
            self.finish(comp, {})
            return
        self.stats.cyclic_with_choices += 1
        if all(self.local_choice(s, inside) for s in choice):
            self.local_choices(comp, inside, choice, pol)
            return
        objs = {self.ckeys[sp.mover[s]][0] for s in choice}
        if len(objs) != 1 or None in objs:
            raise ModelError("choices of players with different objectives on one cycle")
        (c,) = objs
        maxers = [s for s in choice if self.ckeys[sp.mover[s]][1] > 0]
        miners = [s for s in choice if self.ckeys[sp.mover[s]][1] < 0]
        self.float_guess(comp, inside, choice, pol, c)
        rounds = 0
        while True:
            rounds += 1
            if rounds > MAX_ROUNDS:
                raise ModelError(f"strategy iteration did not converge in {MAX_ROUNDS} rounds "
                                 f"(component of {len(comp)} states)")
            if miners:
                self.min_reply(comp, inside, pol, miners, c, has_ec)
            else:
                self.evaluate(comp, inside, pol, set())
            if not maxers or not self.improve(maxers, pol, c, 1):
                break
        st = self.stats
        st.rounds += rounds
        st.max_rounds = max(st.max_rounds, rounds)
        evaluated = dict(pol)
        key = {s: self.V[s][c] for s in comp}
        opt = {s: self.choose(s, [self.qkey(a, c) for a in range(sp.first[s], sp.first[s + 1])]) for s in choice}
        self.finish(comp, opt)
        final = {s: self.policy[s] for s in comp}
        if final != evaluated:
            self.evaluate(comp, inside, final, set())
            for s in comp:
                if self.V[s][c] != key[s]:
                    raise RuntimeError("internal error: the tie-broken policy changes the value at "
                                       f"{self.model.state_name(s)}")

    def local_choices(self, comp, inside, choice, pol) -> None:
        """Choices that do not feed back into the component: each is decided by its exits alone
        (``r_a + sum_{t outside} p V(t)``, the inside part being the same for every action), then one
        exact evaluation."""
        sp, V = self.sp, self.V
        for s in choice:
            c, sign = self.ckeys[sp.mover[s]]
            outs = []
            for a in range(sp.first[s], sp.first[s + 1]):
                r = self.rw[a]
                x = r[c] if r is not None else self.zero
                for k in range(sp.start[a], sp.start[a + 1]):
                    t = sp.succ[k]
                    if t not in inside and V[t][c]:
                        x = x + self.bp[sp.pk[k]] * V[t][c]
                outs.append(sign * x)
            pol[s] = outs.index(max(outs))
        self.evaluate(comp, inside, pol, set())
        opt = {}
        for s in choice:
            c = self.ckeys[sp.mover[s]][0]
            opt[s] = self.choose(s, [self.qkey(a, c) for a in range(sp.first[s], sp.first[s + 1])])
        self.finish(comp, opt)
        if any(self.policy[s] != pol[s] for s in comp):
            raise RuntimeError("internal error: a local choice differs from its one-step optimum")

    def closed(self, nodes: list[int], inside: set[int], pol: dict[int, int]) -> set[int]:
        """The states of ``nodes`` that cannot leave ``inside`` under ``pol`` (their plays never end there)."""
        sp = self.sp
        first, start, succ = sp.first, sp.start, sp.succ

        def moves(s):
            a = first[s] + pol[s]
            return succ[start[a]:start[a + 1]]

        return closed_states(nodes, moves, inside)

    def evaluate(self, comp, inside, pol, zero_set) -> None:
        """The exact values of ``comp`` under ``pol`` into ``V``: ``zero_set`` and the states that cannot
        leave are 0 (a reward there would be infinite: refused), the rest by :func:`.elimination.solve_transient`."""
        sp, V = self.sp, self.V
        nodes = [s for s in comp if s not in zero_set]
        closed = self.closed(nodes, inside - zero_set if zero_set else inside, pol) if self.has_ec else set()
        for s in zero_set:
            V[s] = self.vzero
        for s in closed:
            if self.rw[sp.first[s] + pol[s]] is not None:
                raise ModelError(f"state {self.model.state_name(s)}: play can go on forever here while "
                                 "collecting a reward (infinite total reward)")
            V[s] = self.vzero
        rest = [s for s in nodes if s not in closed]
        if not rest:
            return
        idx = {s: i for i, s in enumerate(rest)}
        P, zero = self.P, self.zero
        succ, pk, bp = sp.succ, sp.pk, self.bp
        rows, b = [], []
        for s in rest:
            a = sp.first[s] + pol[s]
            r = self.rw[a]
            bs = list(r) if r is not None else [zero] * P
            row = {}
            for k in range(sp.start[a], sp.start[a + 1]):
                t = succ[k]
                i = idx.get(t)
                p = bp[pk[k]]
                if i is not None:
                    row[i] = p
                else:
                    v = V[t]
                    for c in range(P):
                        if v[c]:
                            bs[c] = bs[c] + p * v[c]
            rows.append(row)
            b.append(bs)
        x = self.guessed(comp, pol, rest, rows, b) if self.arrays is not None and not zero_set else None
        for s, xs in zip(rest, x or solve_transient(rows, b, zero, self.one)):
            V[s] = tuple(xs)

    def guessed(self, comp, pol, rest, rows, b):
        """The exact values of ``rest`` from the component's float evaluation of ``pol``, when their simplest
        nearby fractions satisfy the system exactly (:func:`.rational_guess.verified_guess`), else ``None``."""
        cf, order, cstart = self.arrays
        if order is not comp or self.P != 1:
            return None
        from .rational_guess import verified_guess

        np = cf.np
        x = cf.evaluate(np.asarray(cstart[:-1]) + np.asarray([pol[s] for s in comp]))
        pos = {s: i for i, s in enumerate(comp)}
        return verified_guess(rows, b, [x[pos[s]] for s in rest], self.B.make)

    def improve(self, states, pol, c, sign) -> bool:
        """Switch each state to its best action when that is strictly better (exactly); True if any switched."""
        sp = self.sp
        switched = False
        for s in states:
            a0 = sp.first[s]
            cur = pol[s]
            vs = self.V[s][c]
            q = [vs if a - a0 == cur else self.qkey(a, c) for a in range(a0, sp.first[s + 1])]
            keyed = q if sign > 0 else [-x for x in q]
            best = max(keyed)
            if best > keyed[cur]:
                pol[s] = keyed.index(best)
                switched = True
        return switched

    def min_reply(self, comp, inside, pol, miners, c, has_ec) -> None:
        """The minimiser's best reply (policy iteration) with the maximiser's actions fixed in ``pol``;
        the states where she can keep play away from positive value forever are fixed to 0 first."""
        sp = self.sp
        zero_set: set[int] = set()
        if has_ec:
            zero_set = self.zero_region(comp, inside, pol, set(miners), c)
            for s in miners:
                if s in zero_set:
                    pol[s] = next(a - sp.first[s] for a in range(sp.first[s], sp.first[s + 1])
                                  if all(sp.succ[k] in zero_set or (sp.succ[k] not in inside
                                                                     and not self.V[sp.succ[k]][c])
                                         for k in range(sp.start[a], sp.start[a + 1])))
        free = [s for s in miners if s not in zero_set]
        while True:
            self.evaluate(comp, inside, pol, zero_set)
            if not free or not self.improve(free, pol, c, -1):
                return

    def zero_region(self, comp, inside, pol, miners: set[int], c: int) -> set[int]:
        """States of the component where the minimiser can keep play away from positive value forever:
        the complement of the least set ``P`` with ``s in P`` iff every action of ``s`` considered (all of a
        minimiser's, the policy's elsewhere) has a successor in ``P`` or outside of positive value."""
        sp, V = self.sp, self.V
        need: dict[int, int] = {}
        waiting: dict[int, list[int]] = {s: [] for s in comp}
        owner: list[int] = []
        hit = bytearray()
        stack = []
        for s in comp:
            acts = range(sp.first[s], sp.first[s + 1]) if s in miners else (sp.first[s] + pol[s],)
            open_count = 0
            for a in acts:
                i = len(owner)
                owner.append(s)
                for k in range(sp.start[a], sp.start[a + 1]):
                    t = sp.succ[k]
                    if t in inside:
                        waiting[t].append(i)
                    elif V[t][c] > 0:
                        hit.append(1)
                        break
                else:
                    hit.append(0)
                    open_count += 1
            need[s] = open_count
            if not open_count:
                stack.append(s)
        while stack:
            for i in waiting[stack.pop()]:
                if not hit[i]:
                    hit[i] = 1
                    s = owner[i]
                    need[s] -= 1
                    if not need[s]:
                        stack.append(s)
        return {s for s in comp if need[s]}

    # ------------------------------------------------------------ the float guess

    def vfloat(self, t: int, c: int) -> float:
        """The float of ``V(t)[c]``, a final value (made once; ``OverflowError`` beyond the doubles)."""
        cache = self.floats[c]
        f = cache.get(t)
        if f is None:
            f = cache[t] = float(self.V[t][c])
            if not abs(f) < INF:
                raise OverflowError("a value beyond the doubles")
        return f

    def float_guess(self, comp, inside, choice, pol, c) -> None:
        """Float policy iteration inside the component (both sides switching to their best action by more
        than a relative ``FLOAT_SWITCH``), from the policy that is greedy with the inside valued 0: a guess
        that the exact iteration then proves or improves.  A large component runs it in numpy and scipy
        (:mod:`.float_policy`), and keeps the arrays for the exact evaluations' guesses (:meth:`evaluate`)."""
        sp = self.sp
        succ, pk, fp = sp.succ, sp.pk, self.fp
        base: dict[int, float] = {}  # per action: reward + outside part, in floats
        ins: dict[int, list] = {}  # per action: (position, probability) inside
        idx = {s: i for i, s in enumerate(comp)}
        for s in comp:
            for a in range(sp.first[s], sp.first[s + 1]):
                r = self.rw[a]
                x = float(r[c]) if r is not None else 0.0
                part = []
                for k in range(sp.start[a], sp.start[a + 1]):
                    t = succ[k]
                    if t in inside:
                        part.append((idx[t], fp[pk[k]]))
                    else:
                        x += fp[pk[k]] * self.vfloat(t, c)
                base[a] = x
                ins[a] = part
        signs = {s: self.ckeys[sp.mover[s]][1] for s in choice}
        if len(comp) >= MIN_FLOAT_ARRAYS:
            self.array_guess(comp, pol, base, ins, signs)
            return
        val = [0.0] * len(comp)
        for rounds in range(FLOAT_ROUNDS):
            switched = False
            for s in choice:
                a0 = sp.first[s]
                sign = signs[s]
                qs = [sign * (base[a] + sum(p * val[i] for i, p in ins[a])) for a in range(a0, sp.first[s + 1])]
                cur = qs[pol[s]]
                best = max(qs)
                if best > cur + FLOAT_SWITCH * max(1.0, abs(cur)) or (rounds == 0 and best > cur):
                    pol[s] = qs.index(best)
                    switched = True
            if not switched and rounds:
                return
            val = self.float_evaluate(comp, inside, pol, base, ins)

    def array_guess(self, comp, pol, base, ins, signs) -> None:
        """:meth:`float_guess` on arrays (:class:`.float_policy.ComponentFloats`): from the greedy policy with
        the inside valued 0, then policy iteration."""
        from .float_policy import ComponentFloats

        sp = self.sp
        state_of, cstart, sign, bases, tc, tt, tp = [], [0], [], [], [], [], []
        for i, s in enumerate(comp):
            for a in range(sp.first[s], sp.first[s + 1]):
                j = len(bases)
                state_of.append(i)
                bases.append(base[a])
                for t, p in ins[a]:
                    tc.append(j)
                    tt.append(t)
                    tp.append(p)
            cstart.append(len(bases))
            sign.append(signs.get(s, 1))
        cf = ComponentFloats(len(comp), state_of, cstart, sign, bases, tc, tt, tp)
        np = cf.np
        local = np.asarray(cstart[:-1]) + np.asarray([pol[s] for s in comp])
        cf.improve(local, np.zeros(len(comp)), 0.0)
        local, x = cf.iterate(local, FLOAT_ROUNDS, FLOAT_SWITCH)
        for i, s in enumerate(comp):
            pol[s] = int(local[i]) - cstart[i]
        self.arrays = (cf, comp, cstart)

    def float_evaluate(self, comp, inside, pol, base, ins) -> list[float]:
        sp = self.sp
        closed = self.closed(comp, inside, pol) if self.has_ec else set()
        rest = [i for i, s in enumerate(comp) if s not in closed]
        val = [0.0] * len(comp)
        if not rest:
            return val
        pos = {i: j for j, i in enumerate(rest)}
        rows, b = [], []
        for i in rest:
            a = sp.first[comp[i]] + pol[comp[i]]
            rows.append({pos[j]: p for j, p in ins[a] if j in pos})
            b.append([base[a]])
        try:
            x = solve_transient(rows, b, 0.0, 1.0)
        except ZeroDivisionError:  # (a float round-off made a leaving state look closed): keep the guess
            return val
        for i, xi in zip(rest, x):
            val[i] = xi[0]
        return val

    # ------------------------------------------------------------ ranks and the final policy

    def finish(self, states: list[int], opt: dict[int, list[int]]) -> None:
        """Ranks for ``states`` (values known), then the policy by the tie rule.

        Relevant actions: termination, every action of every state (all needed); reachability, in a state
        of positive value the optimal actions of a maximiser (one needed), every action elsewhere (all
        needed); policy, the chosen action.  The policy is the first optimal action, under reachability a
        maximiser's first optimal action with a successor of lower rank."""
        sp, ranks, policy, V = self.sp, self.ranks, self.policy, self.V
        w = self.witness_name
        relevant: dict[int, list[int]] = {}
        every: set[int] = set()
        if w == "termination":
            for s in states:
                relevant[s] = list(range(sp.first[s], sp.first[s + 1]))
            every = set(states)
        elif w == "reachability":
            for s in states:
                if V[s][0] > 0:
                    a0 = sp.first[s]
                    m = sp.mover[s]
                    if m >= 0 and self.nch(s) > 1 and self.ckeys[m][1] > 0:
                        relevant[s] = [a0 + a for a in opt[s]]
                    else:
                        relevant[s] = list(range(a0, sp.first[s + 1]))
                        every.add(s)
        else:
            for s in states:
                relevant[s] = [sp.first[s] + (opt[s][0] if s in opt else 0)]
        self.rank(states, relevant, every)
        for s in states:
            o = opt.get(s)
            if o is None:
                policy[s] = 0
                continue
            choice = o[0]
            if w == "reachability" and len(o) > 1:
                r = ranks[s]
                if r is not None and self.ckeys[sp.mover[s]][1] > 0:
                    a0 = sp.first[s]
                    choice = next(a for a in o if any(
                        ranks[sp.succ[k]] is not None and ranks[sp.succ[k]] < r
                        for k in range(sp.start[a0 + a], sp.start[a0 + a + 1])))
            policy[s] = choice
        for s in states:  # the witness must exist: an unranked state where one is required is an engine bug
            if ranks[s] is None and (w == "termination" or (w == "reachability" and V[s][0] > 0) or (
                    w == "policy" and (any(V[s]) or self.rw[sp.first[s] + policy[s]] is not None))):
                raise RuntimeError(f"internal error: no {w} witness for state {self.model.state_name(s)}")

    def rank(self, states: list[int], relevant: dict[int, list[int]], every: set[int]) -> None:
        """Least ranks: an ``every`` state gets ``1 + r`` once each relevant action has a successor of rank
        ``<= r``, another once one relevant action has; ranked states are popped in layers of increasing rank."""
        sp, ranks = self.sp, self.ranks
        succ, start = sp.succ, sp.start
        if len(states) == 1:
            s = states[0]
            acts = relevant.get(s)
            if acts is None or ranks[s] is not None:
                return
            lowest = []
            for a in acts:
                found = [ranks[succ[k]] for k in range(start[a], start[a + 1])
                         if succ[k] != s and ranks[succ[k]] is not None]
                lowest.append(min(found) if found else None)
            if s in every:
                if lowest and None not in lowest:
                    ranks[s] = 1 + max(lowest)
            else:
                found = [r for r in lowest if r is not None]
                if found:
                    ranks[s] = 1 + min(found)
            return
        preds: dict[int, list[int]] = {}
        need: dict[int, int] = {}
        owner: list[int] = []
        for s, acts in relevant.items():
            need[s] = len(acts) if s in every else 1
            for a in acts:
                i = len(owner)
                owner.append(s)
                for k in range(start[a], start[a + 1]):
                    preds.setdefault(succ[k], []).append(i)
        members = set(states)
        layers: dict[int, list[int]] = {}
        for t in preds:
            if t not in members and (r := ranks[t]) is not None:
                layers.setdefault(r, []).append(t)
        order = list(layers)
        heapq.heapify(order)
        done = bytearray(len(owner))
        while order:
            r = heapq.heappop(order)
            nxt = layers.get(r + 1)
            for t in layers.pop(r):
                for i in preds.get(t, ()):
                    s = owner[i]
                    if ranks[s] is not None or done[i]:
                        continue
                    done[i] = 1
                    need[s] -= 1
                    if not need[s]:
                        ranks[s] = r + 1
                        if nxt is None:
                            nxt = layers[r + 1] = []
                            heapq.heappush(order, r + 1)
                        nxt.append(s)

    def never_ending(self) -> list[int]:
        """States from which no play ends under the final policy, sinks first component by component."""
        sp, policy = self.sp, self.policy
        reach = bytearray(sp.n)
        for comp in self.comps:
            rest = []
            for s in comp:
                if sp.pay[s] >= 0:
                    reach[s] = 1
                    continue
                a = sp.first[s] + policy[s]
                if any(reach[sp.succ[k]] for k in range(sp.start[a], sp.start[a + 1])):
                    reach[s] = 1
                else:
                    rest.append(s)
            if not rest or len(comp) == 1:
                continue
            waiting: dict[int, list[int]] = {}
            stack = []
            for s in rest:
                a = sp.first[s] + policy[s]
                ks = range(sp.start[a], sp.start[a + 1])
                if any(reach[sp.succ[k]] for k in ks):
                    reach[s] = 1
                    stack.append(s)
                else:
                    for k in ks:
                        waiting.setdefault(sp.succ[k], []).append(s)
            while stack:
                for s in waiting.get(stack.pop(), ()):
                    if not reach[s]:
                        reach[s] = 1
                        stack.append(s)
        return [s for s in range(sp.n) if not reach[s]]
