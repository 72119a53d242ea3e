"""The solution's values, read strictly; Bellman's equations and the ranks, checked exactly.

With ``Q_a = reward_a + sum_t p(t) V(t)`` over the certified components:
terminal values are the payoffs; ``V(s) = Q_policy(s)``; at a choice state the
policy attains ``max_a sign * Q_a[key]``.  The optimal actions are found by the
values' fixed-point shadows (:mod:`._values`) and, where those do not separate
two actions, exactly.  Ranks are checked against their
successors' ranks, which pins them to the least ranks the witness's rule allows
(termination: ``1 + max_a min_t``; policy: ``1 + min_t`` over the policy action;
reachability: ``1 + min`` over a maximiser's optimal actions, ``1 + max_a min_t``
elsewhere, only at states of positive value; reward: so, terminals and value 0 rank 0).
"""

from __future__ import annotations

from ._ints import ratio
from ._strict import INF, SOLUTION_KEYS, fail, integer, keys, listed, pq, rational, show
from ._values import BITS, FIXED_ERROR, ExactView, constant, exact, fixed


MAX_ROWS = 1 << 16  # distinct rows of values remembered while reading them
ROW_CHARS = 64  # characters of each number of a row remembered


class Bellman:
    def read_solution(self) -> None:
        self.at("solution")
        required = tuple(k for k in SOLUTION_KEYS if k not in ("values", "margins"))
        sol = keys(self.cert["solution"], required, ("values", "margins", "infinite"), "solution")
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
                     "reward": "rewards lie where play can go on forever",
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
        self.at("solution.ties")
        self.ties_in = listed(sol["ties"], "solution.ties")
        if ("values" in sol) != ("margins" in sol):
            if "values" in sol:
                fail("missing key(s) margins (stored with the values)", "solution")
            fail("margins are stored with the values only (a policy-only certificate has none)", "solution.margins")
        if "values" not in sol:  # policy only: the values are the policy's, evaluated here exactly
            if proper:
                fail("a certificate of infinite values stores its values", "solution.values")
            self.stored = "policy"
            self.margins_in = None
            self.at("solution.policy")
            self.evaluate_policy()
            self.V = ExactView(self.W)
            return
        self.stored = "values"
        self.at("solution.margins")
        self.margins_in = listed(sol["margins"], "solution.margins", None, n)
        self.at("solution.values")
        values = listed(sol["values"], "solution.values", None, n)
        self.V = []  # as stored: exact rationals, None for +infinity (witness proper)
        rows: dict[tuple, tuple] = {}  # a row of short texts -> its checked values: rows repeat in big models
        for s, row in enumerate(values):
            if type(row) is list and len(row) == C and all(type(x) is str and len(x) <= ROW_CHARS for x in row):
                known = rows.get(tuple(row))
                if known is not None and not (proper and self.infinite[s] is not None):
                    self.V.append(known)
                    continue
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
            if len(rows) < MAX_ROWS and all(len(x) <= ROW_CHARS for x in row):
                rows[tuple(row)] = self.V[-1]
        made = {id(v): constant(v) for v in rows.values()}  # a repeated row's (nums, den) made once
        self.W = [None if v is None else made.get(id(v)) or constant(v) for v in self.V]

    def values(self) -> list[tuple]:
        """Every state's verified values as exact rationals (tests: with ``keep_values``, or stored)."""
        return [tuple(exact(v, k) for k in range(len(v[0]))) for v in self.W]

    # ------------------------------------------------------------ Bellman

    def q(self, s: int, a: int) -> tuple:
        """``Q_a(s) = r_a + sum_t p V(t)`` over the certified components, exactly (stored values)."""
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
        """Component ``k`` of ``Q_a(s)`` alone (what the mover compares), exactly."""
        r = self.rew[s][a]
        out = r[k] if r is not None else 0
        if self.stored == "values":
            for t, p in self.trans[s][a]:
                x = self.V[t][k]
                if x:
                    out += x if p == 1 else p * x
            return out
        for t, p in self.trans[s][a]:
            nums, den = self.W[t]
            if nums[k]:
                out += p * ratio(nums[k], den)
        return out

    def shadow(self, s: int, a: int, k: int) -> tuple[int, int]:
        """``(shadow, bound)`` of component ``k`` of ``Q_a(s)`` (:mod:`._values`): the exact value times
        ``2^BITS`` lies in ``[shadow, shadow + bound)``."""
        r = self.rew[s][a]
        total = 0
        if r is not None and r[k]:
            total = (r[k].numerator << BITS) // r[k].denominator
        fix = self.fix[k]
        V = self.W
        dist = self.trans[s][a]
        for t, p in dist:
            f = fix[t]
            if f is None:
                f = fix[t] = fixed(V[t], k)
            if f:
                total += f if p == 1 else (p.numerator * f) // p.denominator
        return total, len(dist) + FIXED_ERROR + 1

    def begin_decisions(self) -> None:
        """What the Bellman checks of the states collect (before the first :meth:`bellman_state`)."""
        self.opt_q: dict[int, list[int]] = {}  # one-step optimal actions where they are not [policy]
        self.exact_margin: dict[int, object] = {}  # margins known exactly
        self.margin_bounds: list = []  # (state, low) of margins times 2^BITS, candidates for the smallest
        self.low_high = None  # the least upper bound of a non-zero margin seen so far
        self.fix = {k: [None] * self.n for k in {k for k, _ in self.kidx if k is not None}}
        self.positive = bytearray(self.n)  # V(s)[0] > 0 (what the reachability ranks read)
        self.nonzero = bytearray(self.n)  # some component of V(s) is not 0 (what the policy ranks read)

    def check_bellman(self) -> None:
        """Terminal values, ``V = Q_policy`` (stored values) and, at every choice state, the optimal
        actions: the policy must be one of them (evaluated values: checked as they were solved)."""
        if self.stored == "policy" and not self.keep_values:
            return
        self.begin_decisions()
        for s in range(self.n):
            self.bellman_state(s)

    def bellman_state(self, s: int) -> None:
        """State ``s``'s checks; the values of every successor of every action are known."""
        self.at("solution.values", s)
        v = self.W[s]
        nums = v[0]
        if nums[0] > 0:
            self.positive[s] = 1
        if any(nums):
            self.nonzero[s] = 1
        if (self.witness == "reachability" or self.witness == "reward") and nums[0] < 0:
            fail(f"value {pq(exact(v, 0))} is negative: with payoffs and rewards >= 0 no value is",
                  "solution.values", s)
        stored = self.stored == "values"
        if self.pay[s] is not None:
            if stored and self.V[s] != self.pay[s]:
                fail(f"terminal value {self.fmt(self.V[s])} is not the payoff {self.fmt(self.pay[s])}",
                      "solution.values", s)
            return
        a = self.policy[s]
        # evaluated values are the policy's by construction (V = Q_policy exactly: the evaluation
        # solved those equations), so only stored values are checked against them
        if stored:
            dist = self.trans[s][a]  # one outcome (of probability 1) and no reward: its value
            qa = self.V[dist[0][0]] if len(dist) == 1 and self.rew[s][a] is None else self.q(s, a)
            if self.V[s] != qa:
                fail(f"Bellman: the value {self.fmt(self.V[s])} is not the policy action {a}'s "
                      f"reward plus expected value {self.fmt(qa)}", "solution.values", s)
        if self.is_choice(s):
            self._decide(s, a)

    def _decide(self, s: int, a: int) -> None:
        """The optimal actions of choice state ``s`` (policy ``a``) by the fixed-point shadows, exactly
        where they do not separate; the margin's bounds (or its exact value)."""
        k, sign = self.kidx[self.mover[s]]
        acts = range(len(self.trans[s]))
        v = self.W[s]
        f = self.fix[k][s]
        if f is None:
            f = self.fix[k][s] = fixed(v, k)
        if len(acts) == 2:  # the common case, the same rule without the lists
            x, e = self.shadow(s, 1 - a, k)
            if sign > 0:
                lo_a, hi_a, lo_b, hi_b = f, f + FIXED_ERROR, x, x + e
            else:
                lo_a, hi_a, lo_b, hi_b = -f - FIXED_ERROR, -f, -x - e, -x
            if lo_a > hi_b:  # the policy's action is the only optimal one
                self._margin_bounds(s, lo_a - hi_b, hi_a - lo_b)
                return
        lows, highs = [], []
        for b in acts:
            x, e = (f, FIXED_ERROR) if b == a else self.shadow(s, b, k)  # the policy's Q is V(s)
            lo, hi = (x, x + e) if sign > 0 else (-x - e, -x)
            lows.append(lo)
            highs.append(hi)
        best_low = max(lows)
        cands = [b for b in acts if highs[b] >= best_low]
        if len(cands) == 1:
            (b,) = cands
            opt = cands
            others_hi = max(h for c, h in enumerate(highs) if c != b)
            others_lo = max(lo for c, lo in enumerate(lows) if c != b)
            self._margin_bounds(s, lows[b] - others_hi, highs[b] - others_lo)
        else:
            opt, margin = self.exact_choice(s)
            if margin is not None:
                low = (margin.numerator << BITS) // margin.denominator
                self._margin_bounds(s, low, low + 1)
        if a not in opt:
            b = opt[0]
            best, mine = self.q_key(s, b, k), exact(v, k)
            fail(f"Bellman: the policy action {a} is not optimal for player {self.mover[s]}: action {b} "
                  f"gives {pq(best)}, action {a} {pq(mine)}", "solution.policy", s)
        if opt != [a]:
            self.opt_q[s] = opt

    def q_pair(self, s: int, a: int, k: int) -> tuple:
        """Component ``k`` of ``Q_a(s)`` exactly, as ``(numerator, denominator > 0)`` not reduced (the
        policy's: ``V(s)``; one outcome of probability 1 without reward: its successor's value)."""
        if a == self.policy[s]:
            nums, den = self.W[s]
            return nums[k], den
        dist, r = self.trans[s][a], self.rew[s][a]
        if len(dist) == 1 and dist[0][1] == 1 and (r is None or not r[k]):
            nums, den = self.W[dist[0][0]]
            return nums[k], den
        x = self.q_key(s, a, k)
        return x.numerator, x.denominator

    def exact_choice(self, s: int) -> tuple:
        """``(optimal actions, margin)`` of choice state ``s`` by exact comparisons (cross-multiplied,
        nothing reduced); the margin (best minus runner-up) is None on a tie."""
        k, sign = self.kidx[self.mover[s]]
        keyed = []
        for b in range(len(self.trans[s])):
            n, d = self.q_pair(s, b, k)
            keyed.append((sign * n, d))
        bn, bd = keyed[0]
        for n, d in keyed[1:]:
            if n * bd > bn * d:
                bn, bd = n, d
        opt = [b for b, (n, d) in enumerate(keyed) if n * bd == bn * d]
        if len(opt) > 1:
            return opt, None
        rn, rd = None, None
        for b, (n, d) in enumerate(keyed):
            if b != opt[0] and (rn is None or n * rd > rn * d):
                rn, rd = n, d
        margin = ratio(bn * rd - rn * bd, bd * rd)
        self.exact_margin[s] = margin
        return opt, margin

    def _margin_bounds(self, s: int, low: int, high: int) -> None:
        """Keep ``s`` as a candidate for the smallest non-zero margin unless another's is surely smaller."""
        if self.low_high is not None and low > self.low_high:
            return
        if self.low_high is None or high < self.low_high:
            self.low_high = high
        self.margin_bounds.append((s, low))
        self.margin_of(s)  # exactly now: the values it reads may be dropped later
        if len(self.margin_bounds) > 64 and len(self.margin_bounds) & (len(self.margin_bounds) - 1) == 0:
            self.margin_bounds = [(t, lo) for t, lo in self.margin_bounds if lo <= self.low_high]

    def optimal(self, s: int) -> list[int]:
        """The one-step optimal actions of choice state ``s``."""
        return self.opt_q.get(s) or [self.policy[s]]

    def fmt(self, v: tuple) -> str:
        text = "(" + ", ".join(pq(x) for x in v) + ")"
        return text if len(text) <= 60 else text[:57] + "..."

    # ------------------------------------------------------------ ranks

    def expected_rank(self, s: int) -> float:
        """The least rank ``s`` can have given its successors' stored ranks (INF: none)."""
        R = self.ranks
        w = self.witness
        if self.payoff[s] is not None:
            if w == "reachability" and not self.pay[s][0] > 0:
                return INF
            return 0
        acts = self.trans[s]
        if w == "policy":
            acts = (acts[self.policy[s]],)
        elif w == "reachability" or w == "reward":
            if not self.positive[s]:
                return INF if w == "reachability" else 0
            if self.is_choice(s) and self.kidx[self.mover[s]][1] > 0:  # the best of the optimal actions
                best = INF
                for a in self.optimal(s):
                    for t, _ in acts[a]:
                        r = R[t]
                        if r is not None and r < best:
                            best = r
                return 1 + best
        worst = -1  # the worst action's lowest successor rank
        for d in acts:
            low = INF
            for t, _ in d:
                r = R[t]
                if r is not None and r < low:
                    low = r
            if low > worst:
                worst = low
        return 1 + worst

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
                if (w == "reachability" or w == "reward") and not terminal and self.positive[s]:
                    fail("the value is > 0 but there is no rank: the rank condition fails, the value is "
                          "not attained (a fake fixed point)", "solution.ranks", s)
                if w == "policy" and not terminal:
                    if self.nonzero[s] or self.rew[s][self.policy[s]] is not None:
                        fail("an unranked state (its play never ends under the policy) must have value 0 and no "
                              "reward", "solution.ranks", s)
                continue
            if w == "reachability" and terminal and want == INF:
                fail(f"rank {have} at a terminal state of payoff 0 (only positive payoffs are ranked)",
                      "solution.ranks", s)
            if w == "reachability" and not terminal and not self.positive[s]:
                fail(f"rank {have} at a state of value 0 (only states of positive value are ranked)",
                      "solution.ranks", s)
            if want > have:
                what = ("the policy action has no successor of lower rank" if w == "policy" else
                        "no optimal action has a successor of lower rank" if w != "termination" and self.is_choice(s)
                        and self.kidx[self.mover[s]][1] > 0 else "some action has no successor of lower rank")
                fail(f"rank {have}: the rank condition fails ({what}); the values are not "
                      f"pinned down here (a fake fixed point)", "solution.ranks", s)
            if want < have:
                fail(f"rank {have} is not the least rank the {w} rule allows ({want})", "solution.ranks", s)

    # ------------------------------------------------------------ policy, margins, ties
