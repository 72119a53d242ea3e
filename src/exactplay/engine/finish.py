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
        """Ranks for ``states`` (values known), then the policy by the tie rule."""
        if len(states) == 1 and self.witness == "termination":
            self._finish_one(states[0], opt)
            return
        relevant: dict[int, list[tuple[int, ...]]] = {}
        every: set[int] = set()
        w = self.witness
        for s in states:
            acts = self.dist[s]
            if w == "termination":
                relevant[s] = [tuple(t for t, _ in d) for d in acts]
                every.add(s)
            elif w == "reachability":
                if self._positive(s):
                    maximiser = self._is_choice(s) and self.keys[self.model.mover[s]][1] > 0
                    chosen = opt[s] if maximiser else range(len(acts))
                    relevant[s] = [tuple(t for t, _ in acts[a]) for a in chosen]
                    if not maximiser:
                        every.add(s)
            else:  # policy: the chosen action only (choices are not on cycles here)
                a = opt[s][0] if s in opt else 0
                relevant[s] = [tuple(t for t, _ in acts[a])]
        rank_component(states, relevant, every, self.ranks)
        for s in states:
            if s not in opt:
                self.policy[s] = 0
                continue
            choice = opt[s][0]
            r = self.ranks[s]
            if w == "reachability" and r is not None and self.keys[self.model.mover[s]][1] > 0:
                choice = next(a for a in opt[s]
                              if any(self.ranks[t] is not None and self.ranks[t] < r for t, _ in self.dist[s][a]))
            self.policy[s] = choice
        self._check_ranks(states)

    def _finish_one(self, s: int, opt: dict[int, list[int]]) -> None:
        """:meth:`_finish` for one state under the termination witness: every action needs a ranked
        successor, so the rank is 1 + the largest, over the actions, of the lowest successor rank."""
        ranks = self.ranks
        if ranks[s] is None:
            worst = None
            for d in self.dist[s]:
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
        for s in states:
            if self.ranks[s] is not None:
                continue
            w = self.witness
            if w == "termination" or (w == "reachability" and self._positive(s)) or (
                    w == "policy" and (self._nonzero(s) or self.rew[s][self.policy[s]] is not None)):
                raise RuntimeError(f"internal error: no {w} witness for state {self.model.state_name(s)}")

