"""The witness ``proper``: a model with ``never_ending`` ``"infinite"`` (one player, objective min or
max), where a strategy that does not end play with probability 1 is worth +infinity (Storm's
expected reward until the target, the target states terminal).

Stored: ``values`` (a ``null`` row is +infinity), ``infinite`` (per state the witness rank of an
infinite value, ``null`` elsewhere), ``policy``, ``ranks``, ``margins``, ``ties``.  ``I`` is the set of
states with an infinite rank, ``F`` the other non-terminal states; the *allowed* actions of a state
of ``F`` are those with every successor outside ``I``.  Checked, exactly:

1. *The infinite states, by graph alone.*  No state of ``I`` is terminal.
   min: every action of ``s`` in ``I`` has a successor in ``I`` of lower rank, or all its successors
   in ``I`` of the same rank.  By induction over the ranks no strategy reaches a terminal state with
   probability 1 from ``s``: while play stays among the states of ``s``'s rank it never ends, and an
   action with a successor of lower rank goes there with positive probability, from where (induction)
   the probability of ending is below 1.
   max: the policy action of ``s`` has, at rank 0, every successor in ``I`` at rank 0; at a rank
   ``k > 0``, a successor in ``I`` of rank below ``k``.  Following the policy reaches the rank-0 states
   with positive probability and never leaves them: some strategy avoids every terminal state with
   positive probability.  (It is the earliest such action.)
2. *The finite states.*  min: the policy action is allowed.  max: every action is allowed (else the
   state's value would be +infinity).  Bellman: ``V = Q_policy`` with ``Q_a = r_a + sum p V(t)``, and
   ``V = min`` (``max``) of ``Q_a`` over the allowed actions; terminal values are the payoffs.
3. *Ranks*: terminals 0, ``I`` unranked, every state of ``F`` ranked; min: one more than the least
   rank of a successor of an optimal allowed action, max: ``1 + max_a min_t rank(t)`` over every
   action (checked locally, which pins each rank down).
4. *Rewards* (min): a negative reward on an allowed action needs every strategy of allowed actions
   to end play (the attractor of the terminals through the allowed actions covers ``F``).
5. *Policy, margins, ties*: the policy is min: the earliest optimal allowed action with a successor
   of lower rank; max: the earliest optimal action; 0 at ``I`` (min) and at single-action states.
   Margins (best minus runner-up in the mover's objective, 0 on a tie) and ties (two optimal allowed
   actions or more) at the states of ``F`` with a mover and two allowed actions or more.

Why this suffices.  max: from ``F`` every action stays in ``F`` and the terminals (2), where the
ranks (3) prove that every strategy ends play; so ``F`` is exactly where every strategy ends play
almost surely (with 1: ``I`` is the rest), and there the Bellman equations of the stopping game have
one solution, the value.  min: the policy's ranks decrease toward a terminal state, so from every
state of ``F`` it ends play almost surely (``F`` is where some strategy does: with 1, exactly) with
the worth ``V``.  A strategy that ends play almost surely plays allowed actions almost surely (any
other reaches ``I`` with positive probability), and along it ``V(X_k)`` plus the rewards collected
is a submartingale (2: ``V <= Q_a``); at the end of play ``V`` is the payoff, so its worth is at
least ``V`` (rewards ``>= 0``: monotone convergence; else, by 4, play ends in expected finitely many
steps: dominated convergence).  So ``V`` is the least worth, the value.
"""

from __future__ import annotations

from ._strict import fail, pq, rational


class Proper:
    def check_proper(self) -> None:
        """The checks of the module docstring, in order (they fill ``margin`` and ``ties``)."""
        I = self.infinite
        for s in range(self.n):
            if I[s] is not None and self.payoff[s] is not None:
                fail("a terminal state's value is its payoff, not infinite", "solution.infinite", s)
        self._infinite_witness()
        self._finite_bellman()
        self._proper_ranks()
        self._proper_rewards()
        self._proper_choices()

    def _infinite_witness(self) -> None:
        I = self.infinite
        for s in range(self.n):
            r = I[s]
            if r is None:
                continue
            self.at("solution.infinite", s)
            if self.objective == "min":
                for a, d in enumerate(self.trans[s]):
                    lower = any(I[t] is not None and I[t] < r for t, _ in d)
                    if not lower and not all(I[t] == r for t, _ in d):
                        fail(f"rank {r}: action {a} has no successor of lower infinite rank and a successor "
                             "outside its rank: the target may be reached almost surely from here",
                             "solution.infinite", s)
                want = 0
            else:
                def avoids(d) -> bool:
                    if r == 0:
                        return all(I[t] == 0 for t, _ in d)
                    return any(I[t] is not None and I[t] < r for t, _ in d)

                want = next((a for a, d in enumerate(self.trans[s]) if avoids(d)), None)
                if want is None:
                    fail(f"rank {r}: no action " + ("keeps every successor at infinite rank 0" if r == 0 else
                         "has a successor of lower infinite rank") + ": the witness does not avoid the target",
                         "solution.infinite", s)
            self.at("solution.policy", s)
            if self.policy[s] != want:
                fail(f"policy {self.policy[s]} at an infinite state is not {want} (" +
                     ("the earliest action" if self.objective == "min" else
                      "the earliest action of the witness") + ")", "solution.policy", s)

    def allowed(self, s: int) -> list[int]:
        I = self.infinite
        return [a for a, d in enumerate(self.trans[s]) if all(I[t] is None for t, _ in d)]

    def _finite_bellman(self) -> None:
        self.allowed_of: dict[int, list[int]] = {}
        self.opt_q: dict[int, list[int]] = {}
        self.qk: dict[int, dict[int, object]] = {}
        sign = -1 if self.objective == "min" else 1
        for s in range(self.n):
            self.at("solution.values", s)
            v = self.V[s]
            if self.payoff[s] is not None:
                if v != self.pay[s]:
                    fail(f"terminal value {self.fmt(v)} is not the payoff {self.fmt(self.pay[s])}",
                          "solution.values", s)
                continue
            if v is None:
                continue
            ok = self.allowed(s)
            self.allowed_of[s] = ok
            a = self.policy[s]
            if self.objective == "max" and len(ok) != len(self.trans[s]):
                b = next(b for b in range(len(self.trans[s])) if b not in ok)
                fail(f"action {b} moves to a state of infinite value: this state's maximum is infinite",
                      "solution.values", s)
            if a not in ok:
                fail(f"the policy action {a} moves to a state of infinite value", "solution.policy", s)
            qk = {b: self.q_key(s, b, 0) for b in ok}
            self.qk[s] = qk
            if v[0] != qk[a]:
                fail(f"Bellman: the value {self.fmt(v)} is not the policy action {a}'s reward plus expected "
                      f"value {pq(qk[a])}", "solution.values", s)
            best = max(sign * x for x in qk.values())
            if sign * qk[a] != best:
                b = next(b for b in ok if sign * qk[b] == best)
                fail(f"Bellman: the policy action {a} is not optimal among the actions of finite value: action "
                      f"{b} gives {pq(qk[b])}, action {a} {pq(qk[a])}", "solution.policy", s)
            self.opt_q[s] = [b for b in ok if sign * qk[b] == best]

    def _proper_ranks(self) -> None:
        R, INF = self.ranks, float("inf")

        def low(d) -> float:
            return min((R[t] for t, _ in d if R[t] is not None), default=INF)

        for s in range(self.n):
            self.at("solution.ranks", s)
            if self.payoff[s] is not None:
                want = 0
            elif self.V[s] is None:
                if R[s] is not None:
                    fail(f"rank {R[s]} at a state of infinite value (null)", "solution.ranks", s)
                continue
            elif self.objective == "min":
                want = 1 + min(low(self.trans[s][a]) for a in self.opt_q[s])
            else:
                want = 1 + max(low(d) for d in self.trans[s])
            if want == INF:
                fail("no rank can be given here: " + ("no optimal action leads toward a terminal state (the value is "
                     "a fake fixed point)" if self.objective == "min" else "some action has no ranked successor "
                     "(some strategy may never end play)"), "solution.ranks", s)
            if R[s] != want:
                fail(f"rank {R[s]} is not the least rank the proper rule allows ({want})", "solution.ranks", s)

    def _proper_rewards(self) -> None:
        if self.objective != "min":
            return
        negative = [s for s, ok in self.allowed_of.items()
                    if any(self.rew[s][a] is not None and self.rew[s][a][0] < 0 for a in ok)]
        if not negative:
            return
        # the attractor of the terminals through the allowed actions: every strategy of them ends play
        preds: dict[int, list[tuple[int, int]]] = {}
        need = {s: len(ok) for s, ok in self.allowed_of.items()}
        for s, ok in self.allowed_of.items():
            for a in ok:
                for t, _ in self.trans[s][a]:
                    preds.setdefault(t, []).append((s, a))
        done: set = set()
        reached = {s for s in range(self.n) if self.payoff[s] is not None}
        stack = list(reached)
        while stack:
            for s, a in preds.get(stack.pop(), ()):
                if (s, a) in done:
                    continue
                done.add((s, a))
                need[s] -= 1
                if need[s] == 0:
                    reached.add(s)
                    stack.append(s)
        if len(reached) < self.n - sum(1 for r in self.infinite if r is not None):
            fail("a negative reward where the actions of finite value can keep play going forever (the least "
                  "expected reward need not be attained)", "model", negative[0])

    def _proper_choices(self) -> None:
        self.margin = {}
        ties = []
        sign = -1 if self.objective == "min" else 1
        for s in range(self.n):
            self.at("solution.policy", s)
            if self.payoff[s] is not None or self.V[s] is None:
                stored = self.margins_in[s]
                if stored is not None:
                    fail("a margin at a state that is not a choice of finite value (null)", "solution.margins", s)
                if self.payoff[s] is None and len(self.trans[s]) == 1 and self.policy[s] != 0:
                    fail(f"policy {self.policy[s]} at a state with a single action (0)", "solution.policy", s)
                continue
            opt = self.opt_q[s]
            if self.objective == "min":
                r = self.ranks[s]
                want = next((b for b in opt if any(self.ranks[t] is not None and self.ranks[t] < r
                                                   for t, _ in self.trans[s][b])), None)
                rule = "the earliest optimal action with a successor of lower rank"
            else:
                want, rule = opt[0], "the earliest optimal action"
            if self.policy[s] != want:
                fail(f"policy {self.policy[s]} is not {rule} ({want})", "solution.policy", s)
            ok = self.allowed_of[s]
            choice = self.mover[s] is not None and len(ok) > 1
            self.at("solution.margins", s)
            stored = self.margins_in[s]
            if not choice:
                if stored is not None:
                    fail("a margin at a state without two actions of finite value (null)", "solution.margins", s)
                continue
            keyed = {b: sign * self.qk[s][b] for b in ok}
            best = keyed[opt[0]]
            margin = 0 * best if len(opt) > 1 else best - max(x for b, x in keyed.items() if b not in opt)
            self.margin[s] = margin
            if stored is None:
                fail(f"no margin at a choice state ({pq(margin)})", "solution.margins", s)
            got = rational(stored, "solution.margins", s)
            if got != margin:
                fail(f"margin {pq(got)} is not the best minus the runner-up ({pq(margin)})", "solution.margins", s)
            if len(opt) > 1:
                ties.append([s, list(opt)])
        self.ties = ties
        self.check_ties_listed(dict((s, opt) for s, opt in ties))
