"""Policy, margins and ties: each recomputed from the verified values and compared.

The policy is the earliest optimal action (at a maximiser's choice of positive
value in the reachability and reward witnesses: the earliest optimal action with a
lower-ranked successor); a margin is the best minus the runner-up in the
mover's objective (0 on a tie), stored with the values only; the ties are
exactly the choice states with two optimal actions or more.
"""

from __future__ import annotations

from fractions import Fraction

from ._strict import fail, pq, rational, show


class Choices:
    def check_policy(self) -> None:
        for s in range(self.n):
            self.at("solution.policy", s)
            if self.payoff[s] is not None:
                continue
            a = self.policy[s]
            if not self.is_choice(s):
                if a != 0:
                    fail(f"policy {a} at a state with a single action (0)", "solution.policy", s)
                continue
            opt = self.optimal(s)
            want = opt[0]
            rule = "the earliest optimal action"
            r = self.ranks[s]
            if (self.witness == "reachability" or self.witness == "reward") and self.kidx[self.mover[s]][1] > 0 and r:
                rule = "the earliest optimal action with a successor of lower rank"
                want = next((b for b in opt if any(self.ranks[t] is not None and self.ranks[t] < r
                                                   for t, _ in self.trans[s][b])), None)
                if want is None:
                    fail("no optimal action has a successor of lower rank", "solution.policy", s)
            if a != want:
                fail(f"policy {a} is not {rule} ({want})", "solution.policy", s)

    def check_margins_and_ties(self) -> None:
        """Stored margins (with stored values) are recomputed exactly at every choice state; the ties are
        the choice states with two optimal actions or more, all listed."""
        if self.margins_in is not None:
            for s in range(self.n):
                self.at("solution.margins", s)
                stored = self.margins_in[s]
                if self.payoff[s] is not None or not self.is_choice(s):
                    if stored is not None:
                        fail("a margin at a state that is not a choice (null)", "solution.margins", s)
                    continue
                want = self.margin_of(s)
                if stored is None:
                    fail(f"no margin at a choice state ({pq(want)})", "solution.margins", s)
                got = rational(stored, "solution.margins", s)
                if got != want:
                    fail(f"margin {pq(got)} is not the best minus the runner-up ({pq(want)})",
                          "solution.margins", s)
        self.ties = [[s, opt] for s, opt in sorted(self.opt_q.items()) if len(opt) > 1]
        self.check_ties_listed(dict((s, opt) for s, opt in self.ties))

    def check_ties_listed(self, want: dict[int, list[int]]) -> None:
        """``solution.ties`` lists exactly the ties ``want`` (state -> tied actions), in increasing state order."""
        self.at("solution.ties")
        got: dict[int, list] = {}
        last = -1
        for i, item in enumerate(self.ties_in):
            if not (isinstance(item, list) and len(item) == 2 and type(item[0]) is int
                    and isinstance(item[1], list) and all(type(a) is int for a in item[1])):
                fail(f"entry {i} is not [state, [action, ...]]", "solution.ties")
            s = item[0]
            if s <= last:
                fail(f"entry {i}: the ties are not listed once each in increasing state order",
                      "solution.ties", s)
            last = s
            got[s] = item[1]
        for s in sorted(set(want) | set(got)):
            if s not in got:
                fail(f"the tie of actions {want[s]} is not listed", "solution.ties", s)
            if s not in want:
                fail("a tie is listed where there is none", "solution.ties", s)
            if got[s] != want[s]:
                fail(f"the tied actions are {want[s]}, not {show(got[s])}", "solution.ties", s)

    def margin_of(self, s: int):
        """The exact margin of choice state ``s``: the best minus the runner-up in the mover's objective,
        0 on a tie."""
        got = self.exact_margin.get(s)
        if got is not None:
            return got
        if len(self.optimal(s)) > 1:
            return Fraction(0)
        return self.exact_choice(s)[1]

    # ------------------------------------------------------------ answer
