"""Exact evaluation of a stored policy on the checker's own model.

A certificate v2 may store the policy without the values (``solution.values``
absent).  The checker then computes the values itself, exactly, from the
model it has read or rebuilt and the stored policy ``pi``, and goes on with the
same checks as for stored values (Bellman, ranks, policy, ties, answer), which
do not care where the values came from.

Under ``pi`` (over the certified components)::

    V(s) = payoff(s)                                   at a terminal state,
    V(s) = 0                                           if no terminal and no reward can be reached from s under pi,
    V(s) = r_pi(s) + sum_t P_pi(s, t) V(t)             otherwise.

The second line is the semantics of a play that never ends (worth 0 to every
player; under the reward witness it keeps the rewards it collected before; a policy that
keeps play forever on a cycle collecting a reward, an infinite total, fails).  On the remaining
states every state reaches a terminal or leaves for good towards states worth 0 with positive
probability, so the system has exactly one solution (``I - P`` restricted to them is
non-singular), found sink-first over the strongly connected components of
``pi``'s graph:

* a state on no cycle: one step, ``V(s) = r + sum_t p V(t)`` (back-substitution
  in reverse topological order); one outcome of probability 1 and no reward is
  the successor's value itself;
* a self-loop that stays with probability ``q < 1``:
  ``V(s) = (r + sum_{t != s} p V(t)) / (1 - q)``;
* a larger component: the targets ``F`` of the back edges of a depth-first
  search are feedback states (without them the component is acyclic); in the
  search's postorder every other state is affine in the values of ``F``,
  ``V(s) = c(s) + sum_f a(s, f) V(f)`` (``a`` is the same for every component
  of the value, only ``c`` is a vector); the ``|F|`` equations of ``F`` are
  solved by exact Gauss-Jordan elimination (``|F|`` right-hand sides' worth of
  components at once) and substituted back.

**Numbers.**  A value is a pair ``(numerators, denominator)``: one integer per
certified component over one positive integer, not reduced (:mod:`._values`).
The states of one component of the policy's graph share one denominator: the
least common multiple ``L`` of the denominators of the values it reads from
outside (its *exits*) times a small factor.  Inside a component the unknowns
are ``L V``: the exits' values scaled to integers, the probabilities and
rewards are the model's small rationals, so every exact operation there has a
small denominator and costs time linear in the size of the numbers (no gcd of
two huge numbers); only ``L`` takes one gcd per distinct exit denominator.

Standard library only (numbers are the checker's: gmpy2's ``mpz``/``mpq`` when
installed, ``int`` and :class:`fractions.Fraction` with ``check --stdlib``);
nothing here is shared with the engine.  Nothing recurses.
"""

from __future__ import annotations

from ._graph import sccs
from ._ints import big, gcd, ratio
from ._strict import fail
from ._values import constant, lcm_of


MAX_FEEDBACK = 5_000  # feedback states of one component: Gauss-Jordan costs |F|^3 exact operations


class PolicyEvaluation:
    keep_values = False  # True: keep every state's value, check them after the whole evaluation (tests)

    def evaluate_policy(self) -> None:
        """Set ``self.W`` (per state: numerators over the certified components and a denominator) to
        the exact values of ``self.policy`` on the model; ``self.pay``/``self.rew`` are the projected
        payoffs/rewards.

        The components of the policy's graph are solved in the order of the model's own components
        (sinks first), and as soon as a component of the model is solved its states' Bellman checks
        run (:meth:`bellman_state`: every successor of every action is solved by then); a value no
        state still to be checked reads is dropped (its sign is kept), so the exact values in memory
        are those of a frontier, not of the whole model."""
        n, C = self.n, len(self.components)
        zero = constant((0,) * C)
        pay, policy = self.pay, self.policy
        # the policy's distribution per state (terminals: none), its graph among the other states
        step = [None if pay[s] is not None else self.trans[s][policy[s]] for s in range(n)]
        succ = [[t for t, _ in d if pay[t] is None] if d is not None else [] for d in step]
        pcomp = sccs(succ)  # numbered sinks first
        del succ
        # the policy's components grouped by the model's (both numbered sinks first)
        model_comp = self.comp
        groups: dict[int, dict[int, list[int]]] = {}
        for s in range(n):
            groups.setdefault(model_comp[s], {}).setdefault(pcomp[s] if pay[s] is None else -1, []).append(s)
        # a component of the policy's graph reaches a terminal (it is live) when one of its states has a
        # successor that is a terminal or in a live component: it is strongly connected, so all of it
        # does; sinks first, every successor's component is decided before
        parts_of: dict[int, list[int]] = {}
        for parts in groups.values():
            for c, states in parts.items():
                if c >= 0:
                    parts_of[c] = states
        live_comp: set[int] = set()
        rew = self.rew
        for c in sorted(parts_of):
            if any(pay[t] is not None or (pcomp[t] != c and pcomp[t] in live_comp)
                   for s in parts_of[c] for t, _ in step[s]):
                live_comp.add(c)
            else:
                paid = next((s for s in parts_of[c] if any(rew[s][policy[s]] or ())), None)
                if paid is not None:  # (the reward witness: worth its rewards where it reaches no terminal)
                    if all(pcomp[t] == c for s in parts_of[c] for t, _ in step[s]):
                        fail("the policy keeps play forever on a cycle that collects a reward: the total reward "
                              "is infinite", "solution.policy", paid)
                    live_comp.add(c)
        del parts_of
        V: list = [constant(pay[s]) if pay[s] is not None else (None if pcomp[s] in live_comp else zero)
                   for s in range(n)]
        self.W = V
        keep = set(getattr(self, "initial_states", None) or [self.initial])  # read after the checks
        for parts in groups.values():  # plays that never end: known already (value 0), with the terminals
            dead = [c for c in parts if c >= 0 and c not in live_comp]
            for c in dead:
                parts.setdefault(-1, []).extend(parts.pop(c))
        del pcomp, live_comp
        # how many states still to be checked read each state's value (the initial state's is kept), and
        # the model's components by height (0 for a sink, else one more than the highest below): a
        # topological order that finishes one height before the next, so the values still read are
        # about two heights' worth, not a depth-first search's long frontier
        readers = [0] * n
        height: dict[int, int] = {}
        msucc = self.succ
        for mc in sorted(groups):
            h = 0
            for states in groups[mc].values():
                for s in states:
                    for t in msucc[s]:
                        if t != s:
                            readers[t] += 1
                            ct = model_comp[t]
                            if ct != mc and height[ct] >= h:
                                h = height[ct] + 1
            height[mc] = h
        self.evaluated = {"single": 0, "self_loop": 0, "cyclic": 0, "feedback": 0}
        if not self.keep_values:
            self.begin_decisions()
        rew = self.rew
        for mc in sorted(groups, key=lambda mc: (height[mc], mc)):
            parts = groups.pop(mc)
            for c in sorted(parts):
                states = parts[c]
                if c < 0:  # terminals and plays that never end: known already
                    continue
                if len(states) > 1 or any(t == states[0] for t, _ in step[states[0]]):
                    self._component(states, step, V)
                    continue
                s = states[0]
                self.evaluated["single"] += 1
                dist, r = step[s], rew[s][policy[s]]
                if r is None and len(dist) == 1:  # probability 1: the successor's value itself
                    V[s] = V[dist[0][0]]
                    continue
                V[s] = _combine(dist, r, V, C)
            if self.keep_values:  # checked after the whole evaluation (check_bellman)
                continue
            for states in parts.values():
                for s in states:
                    self.bellman_state(s)
            for states in parts.values():
                for s in states:
                    for t in self.succ[s]:
                        if t != s:
                            readers[t] -= 1
                            if not readers[t] and t not in keep:
                                V[t] = None
                    if not readers[s] and s not in keep:
                        V[s] = None

    def _component(self, states: list[int], step, V: list) -> None:
        """A strongly connected component of the policy's graph (two states or more, or one with a
        self-loop), in the scaled unknowns ``W = L V``: feedback states by a depth-first search, the
        others affine in them (postorder), Gauss-Jordan on the feedback equations.  A vector of the
        component is ``[integers, d]`` (the integers over a small ``d``); the affine coefficients on the
        feedback states are the model's small rationals."""
        C = len(self.components)
        inside = set(states)
        policy, rew = self.policy, self.rew
        # L: the least common multiple of the exits' denominators; the exits' values times L, integers
        exits: dict[int, tuple] = {}
        dens = []
        for s in states:
            for t, _ in step[s]:
                if t not in inside and t not in exits:
                    exits[t] = V[t]
                    dens.append(V[t][1])
        L = lcm_of(dens)
        factor: dict[int, object] = {}
        for t, (nums, den) in exits.items():
            f = factor.get(id(den))
            if f is None:
                f = factor[id(den)] = L // den
            exits[t] = ([x * f if x else 0 for x in nums] if f != 1 else list(nums), 1)
        scaled_rew: dict[int, tuple] = {}

        def reward(s) -> list:
            r = rew[s][policy[s]]
            if r is None:
                return [[0] * C, 1]
            got = scaled_rew.get(id(r))
            if got is None:
                d = lcm_of([x.denominator for x in r if x])
                got = scaled_rew[id(r)] = ([x.numerator * (d // x.denominator) * L if x else 0 for x in r], d)
            return [list(got[0]), got[1]]

        if len(states) == 1:  # a self-loop: (r + sum_{t != s} p W(t)) / (1 - q)
            s = states[0]
            self.evaluated["self_loop"] += 1
            stay = 0
            total = reward(s)
            for t, p in step[s]:
                if t == s:
                    stay += p
                    continue
                _axpy(total, p, exits[t])
            leave = ratio(1, 1) - stay
            u, w = leave.numerator, leave.denominator
            self._store([s], {s: ([x * w if x else 0 for x in total[0]], total[1] * u)}, L, V)
            return
        feedback: dict[int, int] = {}
        post: list[int] = []
        state = {states[0]: 1}  # 1 on the stack, 2 finished
        work = [(states[0], 0)]
        while work:
            s, i = work[-1]
            dist = step[s]
            if i < len(dist):
                work[-1] = (s, i + 1)
                t = dist[i][0]
                if t not in inside:
                    continue
                mark = state.get(t)
                if mark is None:
                    state[t] = 1
                    work.append((t, 0))
                elif mark == 1 and t not in feedback:
                    feedback[t] = len(feedback)
                continue
            work.pop()
            state[s] = 2
            post.append(s)
        if len(post) != len(states):  # a component is strongly connected: the search reaches it all
            fail("the policy's graph is not what its components say (internal error)", "solution.policy", states[0])
        k = len(feedback)
        if k > MAX_FEEDBACK:  # a hostile model could ask for an elimination of days
            fail(f"the policy's cycles need {k:,} feedback states in one component, more than the {MAX_FEEDBACK:,} a "
                 "policy-only certificate is evaluated with (store the values)", "solution.policy", states[0])
        self.evaluated["cyclic"] += 1
        self.evaluated["feedback"] += k
        const: dict[int, list] = {}
        coef: dict[int, list] = {}

        def expand(s):
            """``r + sum p W(t)`` of state ``s`` as (constant vector, coefficients on the feedback states)."""
            total = reward(s)
            a = [0] * k
            for t, p in step[s]:
                if t in feedback:
                    a[feedback[t]] += p
                elif t in inside:
                    _axpy(total, p, const[t])
                    for j, x in enumerate(coef[t]):
                        if x:
                            a[j] += p * x
                else:
                    _axpy(total, p, exits[t])
            return total, a

        for s in post:
            if s not in feedback:
                const[s], coef[s] = expand(s)
        # the feedback equations: x_f - sum_g a(f, g) x_g = c(f)
        order = sorted(feedback, key=feedback.get)
        rows = []
        for f in order:
            total, a = expand(f)
            a = [-x for x in a]
            a[feedback[f]] += 1
            rows.append([a, total])
        x = _gauss_jordan(rows, k, order[0])
        W = {f: x[feedback[f]] for f in order}
        for s in post:
            if s in feedback:
                continue
            total = const.pop(s)
            for j, a in enumerate(coef.pop(s)):
                if a:
                    _axpy(total, a, W[order[j]])
            W[s] = total
        self._store(states, W, L, V)

    def _store(self, states: list[int], W: dict, L, V: list) -> None:
        """``V(s) = W(s) / L`` over one denominator: ``L`` times the least common multiple of the
        (small) denominators of the scaled vectors ``W``."""
        Q = lcm_of([W[s][1] for s in states])
        den = big(L * Q)
        scale: dict = {}
        for s in states:
            ints, d = W[s]
            m = scale.get(d)
            if m is None:
                m = scale[d] = Q // d
            V[s] = (tuple(x * m if x else 0 for x in ints) if m != 1 else tuple(ints), den)


def _combine(dist, r, V: list, C: int) -> tuple:
    """``r + sum_t p V(t)`` as numerators over ``lcm(denominators of the V(t)) * lcm(denominators of
    the p and of r)``."""
    dens = [V[t][1] for t, _ in dist]
    L = lcm_of(dens)
    B = lcm_of([p.denominator for _, p in dist] + ([x.denominator for x in r if x] if r is not None else []))
    total = [0] * C
    factor: dict[int, object] = {}
    for t, p in dist:
        nums, den = V[t]
        f = factor.get(id(den))
        if f is None:
            f = factor[id(den)] = L // den
        w = p.numerator * (B // p.denominator) * f
        for i, x in enumerate(nums):
            if x:
                total[i] += w * x
    if r is not None:
        for i, x in enumerate(r):
            if x:
                total[i] += x.numerator * (B // x.denominator) * L
    return tuple(big(x) for x in total), big(L * B)


def _axpy(total: list, p, vector) -> None:
    """``total += p * vector`` for vectors ``[integers, d]`` (value ``integers / d``) and a small rational
    ``p``: over the least common multiple of the two denominators, zeros skipped."""
    ints, d = total
    v_ints, v_d = vector
    pn, pd = p.numerator, p.denominator
    dv = pd * v_d
    if dv == d:
        m2 = pn
    else:
        g = gcd(d, dv)
        new = d // g * dv
        m1, m2 = new // d, pn * (new // dv)
        if m1 != 1:
            for i, x in enumerate(ints):
                if x:
                    ints[i] = x * m1
        total[1] = new
    if m2 == 1:
        for i, x in enumerate(v_ints):
            if x:
                ints[i] += x
        return
    for i, x in enumerate(v_ints):
        if x:
            ints[i] += m2 * x


def _gauss_jordan(rows: list, k: int, where: int) -> list:
    """Solve ``A x = B`` exactly (``rows[i] = [A_i (k small rationals), B_i (a vector [integers, d])]``):
    Gauss-Jordan with the first non-zero pivot of each column; a singular system fails (it cannot be,
    when every state of the component reaches a terminal under the policy)."""
    for col in range(k):
        piv = next((r for r in range(col, k) if rows[r][0][col]), None)
        if piv is None:
            fail("the policy's equations on a cycle are singular (internal error: every state here reaches "
                 "a terminal)", "solution.policy", where)
        rows[col], rows[piv] = rows[piv], rows[col]
        a, b = rows[col]
        if a[col] != 1:
            inv = ratio(1, 1) / a[col]  # never 1 / int: a float must not enter
            a[:] = [x * inv if x else x for x in a]
            n, d = inv.numerator, inv.denominator
            b[0] = [x * n if x else 0 for x in b[0]]
            b[1] = b[1] * d
        for r in range(k):
            if r == col:
                continue
            ar, br = rows[r]
            m = ar[col]
            if not m:
                continue
            for j in range(col, k):
                if a[j]:
                    ar[j] -= m * a[j]
            _axpy(br, -m, b)
    return [rows[i][1] for i in range(k)]


__all__ = ["PolicyEvaluation", "MAX_FEEDBACK"]
