"""The audit of a user model's float solution: values per state and decisions, judged exactly.

Builds an :class:`~exactplay.audit.result.AuditResult` (rendered by :mod:`exactplay.present.render`):
the float table is float value iteration on the model, or a user's table; the decisions are
its greedy choices at every choice state, classified against the bound (the measured
largest value error when no a-priori bound is given).
"""

from __future__ import annotations

import math

from .judge import audit_decisions, audit_values
from .result import AuditResult, DecisionVerdicts, Fact, FloatAudit, ValueErrors, answer_check
from ..engine import Solution
from ..engine.value_iteration import FloatSolution

__all__ = ["audit_model"]


def _finite(x: float | None) -> float | None:
    return x if x is not None and math.isfinite(x) else None


def audit_model(sol: Solution, flt: FloatSolution, what: str, digits: int = 8, bound: float | None = None,
                bound_label: str = "", component: int | None = None) -> AuditResult:
    """Judge a float solution (values per state, decisions) against the exact one, in payoff
    ``component`` (default: the first one solved).  A decision is judged where the mover optimises
    that component, or, in a two-player zero-sum game whose values sum to a constant ``K`` in every
    state, the other one (the mover's objective in this component: its one-step values ``K - Q``)."""
    m = sol.model
    comp_index = sol.components
    k = 0 if component is None else comp_index.index(component)
    comp_index = [comp_index[k]] + [c for c in comp_index if c != comp_index[k]]
    from ..engine.solution import constant_sum_total

    total = constant_sum_total(m, sol.witness, sol.components) if k else None
    if sol.values[m.initial] is None:
        from ..errors import UsageError

        raise UsageError(f"the value of the initial state is infinite ({sol.infinite_reason(m.initial)}): the audit "
                         "compares finite values (solve and certify show the infinite states)")
    # the states of infinite value (never_ending "infinite", graph witnesses) are not compared
    finite = [s for s in range(len(m)) if sol.values[s] is not None]
    exact = {(s,): sol.values[s][k] for s in finite}
    approx = {(s,): flt.values[s][comp_index[0]] for s in finite}
    va = audit_values(exact, approx)
    e = bound if bound is not None else va.max_abs
    label = bound_label or "measured (a posteriori): the largest value error of the float table"
    # decisions: the float table's greedy choice at every choice state
    exact_c, float_c, choice = {}, {}, {}
    for s, qs in sol.q.items():
        if s not in flt.q:
            continue
        key_comp, sign = sol.keys[m.mover[s]]
        if k and key_comp != comp_index[0]:  # (the float values flt.q are in this component too)
            if total is None:
                continue  # this mover optimises another component
            sign = -sign  # maximising sign * Q is maximising -sign * (K - Q)
            qs = [None if x is None else total - x for x in qs]
        # actions the balls proved neither best nor runner-up carry no exact value (None): left out
        # (and, never_ending "infinite", the actions of infinite value: judged among the finite ones)
        exact_c[(s,)] = {a: sign * x for a, x in enumerate(qs) if x is not None}
        keep = range(len(qs)) if not sol.infinite else list(exact_c[(s,)])
        float_c[(s,)] = {a: sign * flt.q[s][a] for a in keep}
        fk = float_c[(s,)]
        choice[(s,)] = max(keep, key=lambda a: (fk[a], -a))
    da = audit_decisions(exact_c, float_c, choice, e) if exact_c else None
    value = sol.values[m.initial][k]
    fv = flt.values[m.initial][comp_index[0]]
    # the float's digits are proved only by an a-priori bound, not by the measured error

    def name(state) -> str:
        return m.state_name(state[0])

    facts = [Fact("states", None, len(m)),
             *([Fact("infinite_states", "infinite", len(sol.infinite), f"{len(sol.infinite):,} states of value +inf "
                     "(by graph search; not compared)")] if sol.witness == "proper" else []),
             Fact("bound", "decisions judged with the bound", _finite(e), f"{e:.3e} ({label})"),
             Fact("bound_derivation", None, label)]
    if da is None:
        facts.append(Fact("decisions", None, None))
    if flt.sweeps:
        facts += [Fact("sweeps", "sweeps", flt.sweeps, f"{flt.sweeps} (last change {flt.last_change:.3e})"),
                  Fact("last_change", None, _finite(flt.last_change))]
    player = m.player_names[comp_index[0]]
    return AuditResult(
        game=m.name, game_key="model", params=None,
        title=f"Audit of {m.name} ({len(m):,} states)",
        solver=what, solver_key="float_solver",
        audits=[FloatAudit(
            answer=answer_check(f"value of {m.state_name(m.initial)} to {player}", value, digits, fv, bound),
            values=[ValueErrors("values", "values", va, name)],
            decisions=[] if da is None else [DecisionVerdicts(
                "decisions", "decisions", da, name)],
            facts=facts,
        )],
    )
