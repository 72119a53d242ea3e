"""The engine's :class:`Solution` from values a hand-written fast path computed.

A game may keep a hand-written exact solver for speed.  Its tables give the
value vector ``V(s)`` of states of the game's model; this module turns them
into the same typed :class:`Solution` the engine returns, by the engine's own
decision rules and nothing else:

* values of states the tables do not give are one exact Bellman step from
  their successors (only states off every cycle: a state on a cycle must be
  given, the step would need its own value);
* at every choice state the one-step action values
  ``Q_a = r_a + sum_t p_a(t) V(t)`` in the mover's component, the optimal set
  ``{a : sign Q_a = max_b sign Q_b}``, the margin (best minus runner-up, 0 on
  a tie) and the ties;
* the policy by the engine's tie rule (the earliest optimal action; with the
  reachability witness a maximiser takes the earliest optimal action that
  lowers its rank) and the witness ranks, component by component, sink first.

Nothing is taken on trust: every given value must solve the Bellman equation
``V(s) = Q_{policy(s)}(s)`` exactly (policy optimal by construction), the
witness must exist (a fake fixed point has no ranks: refused), and where the
fast path reports its own choices (``choices``: state -> action index) or ties
(``ties``: the states it found tied, among ``tie_scope``), they must agree with
the optimal sets.  A table that fails any of this raises :class:`FastPathError`.
"""

from __future__ import annotations

from typing import Iterable, Mapping

from ..graph import has_end_component, tarjan
from ..model import Model
from ..progress import SILENT
from .solution import Solution
from .solve import _Engine, witness_kind

__all__ = ["solution_from_values", "state_index", "FastPathError"]


class FastPathError(RuntimeError):
    """The hand-written tables do not give the engine's solution (a bug in the fast path)."""


def solution_from_values(
    model: Model,
    values: Mapping[int, tuple],
    backend: str = "mpq",
    choices: Mapping[int, int] | None = None,
    ties: Iterable[int] | None = None,
    tie_scope: Iterable[int] | None = None,
) -> Solution:
    """The :class:`Solution` of ``model`` whose values are ``values`` (state index -> value vector
    over all players; only the engine's certified components are read, ``None`` elsewhere is fine).

    ``choices``: the fast path's own choice per state (must be optimal); ``ties`` with
    ``tie_scope``: the states of the scope the fast path found exactly tied (must be the same set).
    """
    return _FromValues(model, values, backend).run(choices or {}, ties, tie_scope)


class _FromValues(_Engine):
    def __init__(self, model: Model, values: Mapping[int, tuple], backend: str) -> None:
        super().__init__(model, backend, SILENT)
        self.given = values

    def run(self, choices: Mapping[int, int], ties: Iterable[int] | None = None,
            tie_scope: Iterable[int] | None = None) -> Solution:
        m = self.model
        comps = tarjan(self.succ)
        ec = []
        for comp in comps:
            if len(comp) == 1:
                s = comp[0]
                ec.append(any(len(d) == 1 and d[0][0] == s for d in m.trans[s]))
            else:
                ec.append(has_end_component(comp, lambda s: [{t for t, _ in d} for d in m.trans[s]]))
        self.witness, components = witness_kind(m, comps, ec)
        self._setup_projection(components)
        n = self.n
        self.V = [None] * n
        self.policy = [None] * n
        self.ranks = [None] * n
        self.margins, self.ties, self.q = {}, {}, {}
        self._last_q, self._balls, self._local_balls, self._pballs = {}, {}, {}, {}
        st = self.stats
        st.components = len(comps)
        for comp, has_ec in zip(comps, ec):
            st.largest = max(st.largest, len(comp))
            st.with_end_component += has_ec
            if len(comp) == 1 and self.pay[comp[0]] is not None and comp[0] in self.given:
                s = comp[0]
                if tuple(self.num(self.given[s][c]) for c in self.components) != self.pay[s]:
                    raise FastPathError(f"terminal state {m.state_name(s)}: the fast path's value is not the payoff")
            if len(comp) == 1 and comp[0] not in self.succ[comp[0]] and (
                    comp[0] not in self.given or self.pay[comp[0]] is not None):
                st.single += 1
                self._single(comp[0])  # off every cycle: one exact Bellman step
                continue
            st.self_loop += len(comp) == 1
            st.cyclic += len(comp) > 1
            self._given(comp)
        self._agree(choices, ties, tie_scope)
        return Solution(
            model=m, backend=self.B.name, objective=m.resolved_objective(), keys=m.keys(),
            components=components, witness=self.witness, values=self.V, policy=self.policy,
            margins=self.margins, ties=self.ties, q=self.q, ranks=self.ranks, never_ends=self._never_ending(),
            stats=st,
        )

    def _given(self, comp: list[int]) -> None:
        """A component whose values the tables give: decisions by one step, then the Bellman check."""
        m = self.model
        for s in comp:
            if s not in self.given:
                raise FastPathError(f"state {m.state_name(s)} lies on a cycle and the fast path gives no value for it")
            vec = self.given[s]
            self.V[s] = tuple(self.num(vec[c]) for c in self.components)
        opt = {}
        for s in comp:
            if self.pay[s] is None and self._is_choice(s):
                c = self.keys[m.mover[s]][0]
                opt[s] = self._choose(s, [self._q_key(s, a, c) for a in range(len(self.dist[s]))])
                self.stats.exact_action_values += len(self.dist[s])
        try:
            self._finish(comp, opt, {})
        except FastPathError:
            raise
        except RuntimeError as exc:  # no witness: the values are a fake fixed point
            raise FastPathError(f"the fast path's values have no {self.witness} witness ({exc})") from None
        for s in comp:
            if self.pay[s] is None and tuple(self._q(s, self.policy[s])) != self.V[s]:
                raise FastPathError(f"state {m.state_name(s)}: the fast path's value does not solve the Bellman "
                                    "equation (value of the optimal action)")

    def _agree(self, choices: Mapping[int, int], ties: Iterable[int] | None, tie_scope: Iterable[int] | None) -> None:
        m = self.model
        for s, a in choices.items():
            if a not in self.ties.get(s, [self.policy[s]]):
                raise FastPathError(f"state {m.state_name(s)}: the fast path chooses {m.actions[s][a]!r}, "
                                    "which is not optimal under its own values")
        if ties is not None:
            scope = set(tie_scope) if tie_scope is not None else set(range(self.n))
            mine = set(ties) & scope
            engine = {s for s in self.ties if s in scope}
            if mine != engine:
                s = min(mine ^ engine)
                raise FastPathError(f"state {m.state_name(s)}: the fast path {'finds' if s in mine else 'misses'} "
                                    "an exact tie")


def state_index(model: Model) -> dict:
    """The model's state index by its stored state (the game's ``state_label`` when it has one)."""
    return {lab: i for i, lab in enumerate(model.states)}
