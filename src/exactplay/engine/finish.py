"""Ranks and the final policy of a solved component (a mixin of :class:`exactplay.engine.solve._Engine`).

The ranks are the certificate's witness (:mod:`exactplay.engine.solution`, ``WITNESSES``); under the
reachability witness they depend on which states have a positive value, asked through
:meth:`Finish._positive` (a ball first where the engine keeps the exact value pending, :mod:`.lazy_cyclic`).
"""

from __future__ import annotations

from .ranks import rank_component

__all__ = ["Finish"]


class Finish:
    def _positive(self, s: int) -> bool:
        """Whether ``V(s)`` (component 0) is positive."""
        return self.V[s][0] > 0

    def _nonzero(self, s: int) -> bool:
        """Whether some component of ``V(s)`` is not 0."""
        return any(self.V[s])

    def _finish(self, states: list[int], opt: dict[int, list[int]], key_c: dict[int, int]) -> None:
        """Ranks for ``states`` (values known), then the policy by the tie rule.

        Relevant actions (:func:`.ranks.rank_component`): termination, every action of every state;
        reachability, in a state of positive value the optimal actions of a maximiser (one needed),
        every action elsewhere (all needed); policy, the chosen action.  The policy is the first
        optimal action, under reachability a maximiser's first optimal action with a successor of
        lower rank."""
        if len(states) == 1 and self.witness == "termination":
            self._finish_one(states[0], opt)
            return
        w = self.witness
        dist, ranks, policy = self.dist, self.ranks, self.policy
        mover, keys = self.model.mover, self.keys
        if w == "termination":
            relevant = {s: dist[s] for s in states}
            every = set(states)
        elif w == "reachability":
            relevant, every = {}, set()
            positive = self._positive
            for s in states:
                if positive(s):
                    acts = dist[s]
                    m = mover[s]
                    if m is not None and len(acts) > 1 and keys[m][1] > 0:
                        o = opt[s]
                        relevant[s] = (acts[o[0]],) if len(o) == 1 else [acts[a] for a in o]
                    else:
                        relevant[s] = acts
                        every.add(s)
        else:  # policy: the chosen action only (choices are not on cycles here)
            relevant = {s: (dist[s][opt[s][0] if s in opt else 0],) for s in states}
            every = set()
        rank_component(states, relevant, every, ranks)
        for s in states:
            o = opt.get(s)
            if o is None:
                policy[s] = 0
                continue
            choice = o[0]
            if w == "reachability" and len(o) > 1:
                r = ranks[s]
                if r is not None and keys[mover[s]][1] > 0:
                    acts = dist[s]
                    choice = next(a for a in o
                                  if any(ranks[t] is not None and ranks[t] < r for t, _ in acts[a]))
            policy[s] = choice
        self._check_ranks(states)

    def _finish_one(self, s: int, opt: dict[int, list[int]]) -> None:
        """:meth:`_finish` for one state under the termination witness: every action needs a ranked
        successor, so the rank is 1 + the largest, over the actions, of the lowest successor rank."""
        ranks = self.ranks
        if ranks[s] is None:
            worst = None
            for d in self.model.trans[s]:  # the successors only (the same as the engine's distributions)
                low = None
                for t, _ in d:
                    if t != s:
                        r = ranks[t]
                        if r is not None and (low is None or r < low):
                            low = r
                if low is None:
                    worst = None
                    break
                if worst is None or low > worst:
                    worst = low
            if worst is not None:
                ranks[s] = worst + 1
        self.policy[s] = opt[s][0] if s in opt else 0
        self._check_ranks([s])

    def _check_ranks(self, states: list[int]) -> None:
        """The witness must exist: an unranked state where one is required is an engine bug."""
        ranks = self.ranks
        for s in states:
            if ranks[s] is not None:
                continue
            w = self.witness
            if w == "termination" or (w == "reachability" and self._positive(s)) or (
                    w == "policy" and (self._nonzero(s) or self.rew[s][self.policy[s]] is not None)):
                raise RuntimeError(f"internal error: no {w} witness for state {self.model.state_name(s)}")

