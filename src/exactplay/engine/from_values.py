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

from ..model import Model
from ..model.collector import fewer_collections
from ..model.sparse import Sparse
from ..numbers.backends import get_backend
from ..progress import SILENT
from .finish import finish
from .run import Run
from .solution import Solution

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
    sp = model.__dict__.get("sparse") or Sparse.from_model(model)
    with fewer_collections(freeze=True):
        return _FromValues(model, sp, get_backend(backend), values).run_given(choices or {}, ties, tie_scope)


class _FromValues(Run):
    """The engine (:class:`.run.Run`) with the values of the states on cycles given instead of solved."""

    def __init__(self, model: Model, sp: Sparse, B, values: Mapping[int, tuple]) -> None:
        super().__init__(model, sp, B, SILENT)
        self.given = values

    def constant_total(self):
        return None  # the given values hold every certified component

    def run_given(self, choices: Mapping[int, int], ties: Iterable[int] | None = None,
                  tie_scope: Iterable[int] | None = None) -> Solution:
        self.prepare()
        m, sp, st = self.model, self.sp, self.stats
        make = self.B.make
        for comp, has_ec in zip(self.comps, self.ec):
            st.largest = max(st.largest, len(comp))
            st.with_end_component += bool(has_ec)
            s = comp[0]
            if len(comp) == 1 and sp.pay[s] >= 0 and s in self.given:
                if tuple(make(self.given[s][c].numerator, self.given[s][c].denominator)
                         for c in self.reported) != self.payv[sp.pay[s]]:
                    raise FastPathError(f"terminal state {m.state_name(s)}: the fast path's value is not the payoff")
            loop = any(sp.succ[k] == s for k in range(sp.start[sp.first[s]], sp.start[sp.first[s + 1]]))
            if len(comp) == 1 and not loop and (s not in self.given or sp.pay[s] >= 0):
                st.single += 1
                self.single(s)  # off every cycle: one exact Bellman step
                continue
            st.self_loop += len(comp) == 1
            st.cyclic += len(comp) > 1
            self.given_component(comp)
        self.agree(choices, ties, tie_scope)
        return self.solution()

    def given_component(self, comp: list[int]) -> None:
        """A component whose values the tables give: decisions by one step, then the Bellman check."""
        m, sp = self.model, self.sp
        make = self.B.make
        for s in comp:
            if s not in self.given:
                raise FastPathError(f"state {m.state_name(s)} lies on a cycle and the fast path gives no value for it")
            vec = self.given[s]
            self.V[s] = tuple(make(vec[c].numerator, vec[c].denominator) for c in self.reported)
        opt = {}
        for s in comp:
            if sp.pay[s] < 0 and self.is_choice(s):
                c = self.ckeys[sp.mover[s]][0]
                a0, a1 = sp.first[s], sp.first[s + 1]
                opt[s] = self.choose(s, self.qkeys(a0, a1, c))
                self.stats.exact_action_values += a1 - a0
        try:
            finish(self, comp, opt)
        except RuntimeError as exc:  # no witness: the values are a fake fixed point
            raise FastPathError(f"the fast path's values have no {self.witness_name} witness ({exc})") from None
        for s in comp:
            if sp.pay[s] < 0 and tuple(self.qvec(sp.first[s] + self.policy[s])) != self.V[s]:
                raise FastPathError(f"state {m.state_name(s)}: the fast path's value does not solve the Bellman "
                                    "equation (value of the optimal action)")

    def agree(self, choices: Mapping[int, int], ties: Iterable[int] | None, tie_scope: Iterable[int] | None) -> None:
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
