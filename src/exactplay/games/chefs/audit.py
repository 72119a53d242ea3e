"""Chef Showdown's audit: the published float programs against the exact solution, value by value
against the a-priori bounds, and every choice; both tie rules."""

from __future__ import annotations

from exactplay.audit.judge import audit_decisions, audit_values, exact_minus_float, rounding_report
from exactplay.audit.result import AnswerCheck, AuditResult, DecisionVerdicts, Fact, FloatAudit, ValueErrors
from exactplay.games.chefs import cycle
from exactplay.games.chefs.bound import a_priori_bounds
from exactplay.games.chefs.fmt import _decimals
from exactplay.games.chefs.instance import (_audit_limit, _params, _tie_json, chef_set, in_backend, instance,
                                            solve_exact)
from exactplay.games.chefs.skills import float_skills
from exactplay.numbers.backends import Backend, format_pq, get_backend
from exactplay.progress import SILENT


def _state(mask: int, mover: int) -> tuple:
    return (chef_set(mask), mover + 1)


def _tables(sol: cycle.Solution):
    """W values, D values, candidates and choices of a kept solution, keyed by state."""
    W, D, cands, choice = {}, {}, {}, {}
    for q, layer in sol.layers.items():
        for mask, st in layer.items():
            for r, t in enumerate(st.members):
                s = _state(mask, t)
                D[s] = st.D[r]
                for k, i in enumerate(st.members):
                    W[s + (i + 1,)] = st.W[r][k]
                if q > 1:
                    cands[s] = {j + 1: v for j, v in st.cands[r].items()}
                    choice[s] = st.target[r] + 1
    return W, D, cands, choice


def run_audit(n=None, skills=None, backend: Backend | str = "mpq", digits: int = 8, progress=SILENT) -> dict:
    """Float solver vs the exact reference (all values and decisions), and both tie rules."""
    n, skills, fib = instance(n, skills)
    _audit_limit(n)
    B = get_backend(backend)
    flt = cycle.solve(float_skills(skills), "float", keep=True, keep_cands=True, progress=progress)
    ref = cycle.solve(in_backend(B, skills), B, keep=True, keep_cands=True, progress=progress)
    progress.start("rounding bounds of the float solver", None)
    bound_w, bound_d, label = a_priori_bounds(float_skills(skills), flt)
    progress.start("collecting the exact and float tables", None)
    eW, eD, ecands, _ = _tables(ref)
    fW, fD, fcands, fchoice = _tables(flt)
    del flt
    progress.start(f"comparing {len(eW):,} win probabilities and {len(eD):,} dish counts", None)
    values = audit_values(eW, fW, bound_w, label)
    dishes = audit_values(eD, fD, bound_d, label + "; dishes scaled by the largest D of each layer")
    progress.start("judging the float decisions", len(ecands))
    decisions = audit_decisions(ecands, fcands, fchoice, bound_w, progress=progress)
    E, fE = ref.E, fD[_state((1 << n) - 1, 0)]
    W1 = list(ref.W1)
    ties = list(ref.ties)
    del eW, fW, eD, fD, ecands, fcands, ref
    far = solve_exact(skills, B, "farthest", progress)  # the other tie rule
    return {
        "n": n, "skills": skills, "fib": fib,
        "values": values, "dishes": dishes, "decisions": decisions,
        "rounding": rounding_report(E, digits, fE, bound_d),
        "E": E, "W1": W1, "ties": ties,
        "E_far": far.E, "W1_far": list(far.W1), "ties_far": list(far.ties),
        "float_E": fE,
    }


def _tie_rule_json(r: dict, digits: int) -> dict:
    return {
        "nearest": {"E": format_pq(r["E"]), "E_decimal": _decimals([r["E"]], digits)[0],
                    "W": _decimals(r["W1"], digits), "exact_ties": len(r["ties"])},
        "farthest": {"E": format_pq(r["E_far"]), "E_decimal": _decimals([r["E_far"]], digits)[0],
                     "W": _decimals(r["W1_far"], digits), "exact_ties": len(r["ties_far"])},
        "E_depends_on_tie_rule": r["E"] != r["E_far"],
        "W_depends_on_tie_rule": r["W1"] != r["W1_far"],
        "ties_nearest_first": _tie_json(r["ties"]),
    }


SOLVER_UNDER_AUDIT = "published closed-form cycle solver in float, nearest-target tie rule on float comparisons"


def _tie_rule_text(tr: dict, n: int) -> str:
    return (f"nearest E({n}) = {tr['nearest']['E_decimal']} ({tr['nearest']['exact_ties']} tied states), "
            f"farthest E({n}) = {tr['farthest']['E_decimal']} ({tr['farthest']['exact_ties']} tied states): "
            + ("E DEPENDS on the tie rule" if tr["E_depends_on_tie_rule"] else "E does not depend on the tie rule")
            + ("; W DEPENDS on it" if tr["W_depends_on_tie_rule"] else "; W does not depend on it"))


def audit_result(r: dict, digits: int = 8) -> AuditResult:
    """The typed audit of :func:`run_audit`'s output ``r``: the float solver's values, dish counts,
    decisions and E(n), and the exact answer under both tie rules."""
    n, values, dishes = r["n"], r["values"], r["dishes"]
    tr = _tie_rule_json(r, digits)
    error = abs(float(exact_minus_float(r["float_E"], r["E"])))
    return AuditResult(
        game="chefs", params=_params(n, r["skills"], r["fib"]),
        title=f"Audit of the published Chef Showdown solver, n = {n} ({values.cells} winner probabilities "
              f"W_M,t(i), {dishes.cells} expected dish counts D_M,t)",
        solver=SOLVER_UNDER_AUDIT,
        audits=[FloatAudit(
            answer=AnswerCheck(f"E({n})", r["E"], r["rounding"], error),
            values=[ValueErrors("winner_values", "W: winner probabilities W_M,t(i)", values),
                    ValueErrors("dish_values", "D: expected dish counts D_M,t", dishes)],
            decisions=[DecisionVerdicts("decisions", "decisions (targets)", r["decisions"])],
        )],
        facts=[Fact("tie_rule", "tie rule", tr, _tie_rule_text(tr, n)),
               Fact(None, "W (nearest) ", text=" ".join(tr["nearest"]["W"])),
               Fact(None, "W (farthest)", text=" ".join(tr["farthest"]["W"]))],
    )
