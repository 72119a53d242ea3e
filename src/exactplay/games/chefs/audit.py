"""Chef Showdown's audit: the published float programs against the exact solution, value by value
against the a-priori bounds, and every choice; both tie rules."""

from __future__ import annotations

from exactplay.audit import audit_decisions, audit_values, rounding_report
from exactplay.games.chefs import cycle
from exactplay.games.chefs.bound import a_priori_bounds
from exactplay.games.chefs.fmt import _decimals, pq
from exactplay.games.chefs.instance import _audit_limit, _tie_json, chef_set, in_backend, instance, solve_exact
from exactplay.games.chefs.skills import float_skills
from exactplay.numbers import Backend, get_backend
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
        "nearest": {"E": pq(r["E"]), "E_decimal": _decimals([r["E"]], digits)[0],
                    "W": _decimals(r["W1"], digits), "exact_ties": len(r["ties"])},
        "farthest": {"E": pq(r["E_far"]), "E_decimal": _decimals([r["E_far"]], digits)[0],
                     "W": _decimals(r["W1_far"], digits), "exact_ties": len(r["ties_far"])},
        "E_depends_on_tie_rule": r["E"] != r["E_far"],
        "W_depends_on_tie_rule": r["W1"] != r["W1_far"],
        "ties_nearest_first": _tie_json(r["ties"]),
    }
