"""Exact evaluation of a stored policy on the checker's own model.

A certificate v2 may store the policy without the values (``solution.values``
absent).  The checker then computes the values itself, exactly, from the
model it has read or rebuilt and the stored policy ``pi``, and goes on with the
same checks as for stored values (Bellman, ranks, policy, margins, ties,
answer), which do not care where the values came from.

Under ``pi`` (over the certified components)::

    V(s) = payoff(s)                                   at a terminal state,
    V(s) = 0                                           if no terminal can be reached from s under pi,
    V(s) = r_pi(s) + sum_t P_pi(s, t) V(t)             otherwise.

The second line is the semantics of a play that never ends (worth 0 to every
player; a reward there is refused: by ``check_ranks`` under the policy witness, where
such a state holds no rank and must be worth 0 with no reward, and by the model's no-reward
rule under the reachability witness).  On the remaining
states every state reaches a terminal with positive probability, so the
system has exactly one solution (``I - P`` restricted to them is
non-singular), found sink-first over the strongly connected components of
``pi``'s graph:

* a state on no cycle: one step, ``V(s) = r + sum_t p V(t)`` (back-substitution
  in reverse topological order);
* a self-loop that stays with probability ``q < 1``:
  ``V(s) = (r + sum_{t != s} p V(t)) / (1 - q)``;
* a larger component: the targets ``F`` of the back edges of a depth-first
  search are feedback states (without them the component is acyclic); in the
  search's postorder every other state is affine in the values of ``F``,
  ``V(s) = c(s) + sum_f a(s, f) V(f)`` (``a`` is the same for every component
  of the value, only ``c`` is a vector); the ``|F|`` equations of ``F`` are
  solved by exact Gauss-Jordan elimination (``|F|`` right-hand sides' worth of
  components at once) and substituted back.

Standard library only (numbers are the checker's: gmpy2's ``mpq`` when
installed, :class:`fractions.Fraction` with ``check --stdlib``); nothing here
is shared with the engine.  Nothing recurses.
"""

from __future__ import annotations

from ._graph import sccs
from ._ints import ratio
from ._strict import fail


MAX_FEEDBACK = 5_000  # feedback states of one component: Gauss-Jordan costs |F|^3 exact operations


class PolicyEvaluation:
    def evaluate_policy(self) -> None:
        """Set ``self.V`` (one tuple per state over the certified components) to the exact values of
        ``self.policy`` on the model; ``self.pay``/``self.rew`` are the projected payoffs/rewards."""
        n, C = self.n, len(self.components)
        zero = (0,) * C
        pay, policy = self.pay, self.policy
        # the policy's distribution and reward per state (terminals: none)
        step = [None if pay[s] is not None else self.trans[s][policy[s]] for s in range(n)]
        # states from which a terminal is reached under the policy (backwards over its edges)
        preds: list[list[int]] = [[] for _ in range(n)]
        for s in range(n):
            if step[s] is not None:
                for t, _ in step[s]:
                    preds[t].append(s)
        live = [p is not None for p in pay]
        stack = [s for s in range(n) if live[s]]
        while stack:
            t = stack.pop()
            for s in preds[t]:
                if not live[s]:
                    live[s] = True
                    stack.append(s)
        del preds
        V: list = [pay[s] if pay[s] is not None else (None if live[s] else zero) for s in range(n)]
        succ = [[t for t, _ in step[s] if V[t] is None] if V[s] is None else [] for s in range(n)]
        comp = sccs(succ)  # numbered sinks first
        members: dict[int, list[int]] = {}
        for s in range(n):
            if V[s] is None:
                members.setdefault(comp[s], []).append(s)
        self.evaluated = {"single": 0, "self_loop": 0, "cyclic": 0, "feedback": 0}
        for c in sorted(members):
            states = members[c]
            if len(states) > 1:
                self._cyclic(states, step, V)
                continue
            s = states[0]
            stay = 0
            total = list(self.rew[s][policy[s]] or zero)
            for t, p in step[s]:
                if t == s:
                    stay += p
                    continue
                _add(total, p, V[t])
            if stay:
                self.evaluated["self_loop"] += 1
                leave = ratio(1, 1) - stay
                V[s] = tuple(x / leave if x else x for x in total)
            else:
                self.evaluated["single"] += 1
                V[s] = tuple(total)
        self.V = V

    def _cyclic(self, states: list[int], step, V: list) -> None:
        """A strongly connected component of the policy's graph (two states or more): feedback states
        by a depth-first search, the others affine in them (postorder), Gauss-Jordan on the feedback
        equations."""
        C = len(self.components)
        zero = (0,) * C
        inside = set(states)
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
        policy = self.policy
        const: dict[int, list] = {}
        coef: dict[int, list] = {}

        def expand(s):
            """``r + sum p V(t)`` of state ``s`` as (constant vector, coefficients on the feedback states)."""
            total = list(self.rew[s][policy[s]] or zero)
            a = [0] * k
            for t, p in step[s]:
                if t in feedback:
                    a[feedback[t]] += p
                elif t in inside:
                    _add(total, p, const[t])
                    for j, x in enumerate(coef[t]):
                        if x:
                            a[j] += p * x
                else:
                    _add(total, p, V[t])
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
        x = _gauss_jordan(rows, k, C, order[0])
        for f in order:
            V[f] = tuple(x[feedback[f]])
        for s in post:
            if s in feedback:
                continue
            total = const.pop(s)
            for j, a in enumerate(coef.pop(s)):
                if a:
                    _add(total, a, V[order[j]])
            V[s] = tuple(total)


def _add(total: list, p, vector) -> None:
    """``total += p * vector``, skipping zeros (and the multiplication when ``p`` is 1)."""
    if p == 1:
        for i, x in enumerate(vector):
            if x:
                total[i] += x
        return
    for i, x in enumerate(vector):
        if x:
            total[i] += p * x


def _gauss_jordan(rows: list, k: int, C: int, where: int) -> list:
    """Solve ``A x = B`` exactly (``rows[i] = [A_i (k entries), B_i (C entries)]``): Gauss-Jordan with the
    first non-zero pivot of each column; a singular system fails (it cannot be, when every state of the
    component reaches a terminal under the policy)."""
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
            b[:] = [x * inv if x else x for x in b]
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
            for j in range(C):
                if b[j]:
                    br[j] -= m * b[j]
    return [rows[i][1] for i in range(k)]
