"""The solution's values, read strictly; Bellman's equations and the ranks, checked exactly.

With ``Q_a = reward_a + sum_t p(t) V(t)`` over the certified components:
terminal values are the payoffs; ``V(s) = Q_policy(s)``; at a choice state the
policy attains ``max_a sign * Q_a[key]``.  Ranks are checked against their
successors' ranks, which pins them to the least ranks the witness's rule allows
(termination: ``1 + max_a min_t``; policy: ``1 + min_t`` over the policy action;
reachability: ``1 + min`` over a maximiser's optimal actions, ``1 + max_a min_t``
elsewhere, only at states of positive value).
"""

from __future__ import annotations

from ._strict import INF, SOLUTION_KEYS, fail, integer, keys, listed, pq, rational, show


class Bellman:
    def read_solution(self) -> None:
        self.at("solution")
        required = tuple(k for k in SOLUTION_KEYS if k != "values")
        sol = keys(self.cert["solution"], required, ("values", "infinite"), "solution")
        n = self.n
        self.at("solution.objective")
        if sol["objective"] != self.objective:
            fail(f"objective {show(sol['objective'])} is not the model's ({self.objective!r})",
                  "solution.objective")
        self.at("solution.witness")
        if sol["witness"] != self.witness:
            fail(f"witness {show(sol['witness'])} is not the one this model calls for ({self.witness!r}: "
                  + {"termination": "every play ends under all strategies",
                     "policy": "no choice lies on a cycle",
                     "reachability": "choices lie on cycles that can go on forever",
                     "proper": "never_ending 'infinite' where a strategy may never end play"}[self.witness] + ")",
                  "solution.witness")
        proper = self.witness == "proper"
        self.at("solution.infinite")
        if ("infinite" in sol) != proper:
            fail("the infinite witness ranks are given exactly with the witness 'proper'", "solution.infinite")
        if proper:
            self.infinite = listed(sol["infinite"], "solution.infinite", None, n)
            for s, r in enumerate(self.infinite):
                if r is not None and (integer(r, "solution.infinite", s) < 0 or r > n):
                    fail(f"rank {show(r)} is out of range 0..{n}", "solution.infinite", s)
        self.at("solution.components")
        if sol["components"] != self.components or not all(type(c) is int for c in sol["components"]):
            fail(f"components {show(sol['components'])} are not {self.components}", "solution.components")
        C = len(self.components)
        # the projections of payoffs and rewards onto the certified components
        comps = self.components
        self.pay = [None if p is None else tuple(p[c] for c in comps) for p in self.payoff]
        self.rew = [[None if r is None else tuple(r[c] for c in comps) for r in rs] for rs in self.rewards]
        self.kidx = [(comps.index(c) if c in comps else None, sign) for c, sign in self.keys]
        self.at("solution.policy")
        policy = listed(sol["policy"], "solution.policy", None, n)
        for s, a in enumerate(policy):
            if self.payoff[s] is not None:
                if a is not None:
                    fail("a terminal state has no policy (null)", "solution.policy", s)
                continue
            a = integer(a, "solution.policy", s)
            if not 0 <= a < len(self.trans[s]):
                fail(f"action {show(a)} does not exist ({len(self.trans[s])} actions)", "solution.policy", s)
        self.policy = policy
        self.at("solution.ranks")
        ranks = listed(sol["ranks"], "solution.ranks", None, n)
        for s, r in enumerate(ranks):
            if r is not None and (integer(r, "solution.ranks", s) < 0 or r > n):
                fail(f"rank {show(r)} is out of range 0..{n}", "solution.ranks", s)
        self.ranks = ranks
        self.at("solution.margins")
        self.margins_in = listed(sol["margins"], "solution.margins", None, n)
        self.at("solution.ties")
        self.ties_in = listed(sol["ties"], "solution.ties")
        if "values" not in sol:  # policy only: the values are the policy's, evaluated here exactly
            if proper:
                fail("a certificate of infinite values stores its values", "solution.values")
            self.stored = "policy"
            self.at("solution.policy")
            self.evaluate_policy()
            return
        self.stored = "values"
        self.at("solution.values")
        values = listed(sol["values"], "solution.values", None, n)
        self.V = []
        for s, row in enumerate(values):
            self.at("solution.values", s)
            if row is None and proper:  # +infinity: its witness is checked by _proper
                if self.infinite[s] is None:
                    fail("a value is null (infinite) without an infinite witness rank", "solution.values", s)
                self.V.append(None)
                continue
            if proper and self.infinite[s] is not None:
                fail("a finite value at a state with an infinite witness rank (its value is null)",
                     "solution.values", s)
            listed(row, "solution.values", s, C)
            self.V.append(tuple(rational(x, "solution.values", s) for x in row))

    # ------------------------------------------------------------ Bellman

    def q(self, s: int, a: int) -> tuple:
        """``Q_a(s) = r_a + sum_t p V(t)`` over the certified components."""
        r = self.rew[s][a]
        out = list(r) if r is not None else [0] * len(self.components)
        V = self.V
        for t, p in self.trans[s][a]:
            if p == 1:
                for i, x in enumerate(V[t]):
                    if x:
                        out[i] += x
                continue
            for i, x in enumerate(V[t]):
                if x:
                    out[i] += p * x
        return tuple(out)

    def q_key(self, s: int, a: int, k: int):
        """Component ``k`` of ``Q_a(s)`` alone (what the mover compares)."""
        r = self.rew[s][a]
        out = r[k] if r is not None else 0
        V = self.V
        for t, p in self.trans[s][a]:
            x = V[t][k]
            if x:
                out += x if p == 1 else p * x
        return out

    def check_bellman(self) -> None:
        self.opt_q: dict[int, list[int]] = {}  # one-step optimal actions at choice states
        self.qk: dict[int, list] = {}  # their one-step values Q_a in the mover's key component
        for s in range(self.n):
            self.at("solution.values", s)
            v = self.V[s]
            if self.witness == "reachability" and v[0] < 0:
                fail(f"value {pq(v[0])} is negative: with payoffs and rewards >= 0 no value is",
                      "solution.values", s)
            if self.pay[s] is not None:
                if v != self.pay[s]:
                    fail(f"terminal value {self.fmt(v)} is not the payoff {self.fmt(self.pay[s])}",
                          "solution.values", s)
                continue
            a = self.policy[s]
            # evaluated values are the policy's by construction (V = Q_policy exactly: the evaluation
            # solved those equations), so only stored values are checked against them
            qa = v if self.stored == "policy" else self.q(s, a)
            if v != qa:
                fail(f"Bellman: the value {self.fmt(v)} is not the policy action {a}'s "
                      f"reward plus expected value {self.fmt(qa)}", "solution.values", s)
            if self.is_choice(s):
                k, sign = self.kidx[self.mover[s]]
                qk = [qa[k] if b == a else self.q_key(s, b, k) for b in range(len(self.trans[s]))]
                self.qk[s] = qk
                keyed = [sign * x for x in qk]
                best = max(keyed)
                if keyed[a] != best:
                    b = keyed.index(best)
                    fail(f"Bellman: the policy action {a} is not optimal for player {self.mover[s]}: action {b} "
                          f"gives {pq(sign * best)}, action {a} {pq(sign * keyed[a])}", "solution.policy", s)
                self.opt_q[s] = [b for b, x in enumerate(keyed) if x == best]

    def fmt(self, v: tuple) -> str:
        text = "(" + ", ".join(pq(x) for x in v) + ")"
        return text if len(text) <= 60 else text[:57] + "..."

    # ------------------------------------------------------------ ranks

    def expected_rank(self, s: int) -> float:
        """The least rank ``s`` can have given its successors' stored ranks (INF: none)."""
        R = self.ranks

        def low(dist) -> float:
            return min((R[t] for t, _ in dist if R[t] is not None), default=INF)

        w = self.witness
        if self.payoff[s] is not None:
            if w == "reachability" and not self.pay[s][0] > 0:
                return INF
            return 0
        acts = self.trans[s]
        if w == "termination":
            return 1 + max(low(d) for d in acts)
        if w == "policy":
            return 1 + low(acts[self.policy[s]])
        if not self.V[s][0] > 0:
            return INF
        if self.is_choice(s) and self.kidx[self.mover[s]][1] > 0:
            return 1 + min(low(acts[a]) for a in self.opt_q[s])
        return 1 + max(low(d) for d in acts)

    def check_ranks(self) -> None:
        w = self.witness
        for s in range(self.n):
            self.at("solution.ranks", s)
            want = self.expected_rank(s)
            have = self.ranks[s]
            terminal = self.payoff[s] is not None
            if have is None:
                if want != INF:
                    fail(f"no rank, but the least rank the {w} rule allows here is {want}", "solution.ranks", s)
                if w == "termination":
                    fail("no rank: the termination witness ranks every state (some play may never end)",
                          "solution.ranks", s)
                if w == "reachability" and not terminal and self.V[s][0] > 0:
                    fail(f"value {pq(self.V[s][0])} > 0 but no rank: the rank condition fails, the value is "
                          "not attained (a fake fixed point)", "solution.ranks", s)
                if w == "policy" and not terminal:
                    if any(self.V[s]) or self.rew[s][self.policy[s]] is not None:
                        fail("an unranked state (its play never ends under the policy) must have value 0 and no "
                              "reward", "solution.ranks", s)
                continue
            if w == "reachability" and terminal and want == INF:
                fail(f"rank {have} at a terminal state of payoff 0 (only positive payoffs are ranked)",
                      "solution.ranks", s)
            if w == "reachability" and not terminal and not self.V[s][0] > 0:
                fail(f"rank {have} at a state of value 0 (only states of positive value are ranked)",
                      "solution.ranks", s)
            if want > have:
                what = {"termination": "some action has no successor of lower rank",
                        "policy": "the policy action has no successor of lower rank",
                        "reachability": ("no optimal action has a successor of lower rank"
                                         if self.is_choice(s) and self.kidx[self.mover[s]][1] > 0
                                         else "some action has no successor of lower rank")}[w]
                fail(f"rank {have}: the rank condition fails ({what}); the values are not "
                      f"pinned down here (a fake fixed point)", "solution.ranks", s)
            if want < have:
                fail(f"rank {have} is not the least rank the {w} rule allows ({want})", "solution.ranks", s)

    # ------------------------------------------------------------ policy, margins, ties
