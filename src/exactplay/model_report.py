"""Presenting a model's exact solution and its float audit (text and JSON).

JSON numbers: exact values are ``"p/q"`` strings; errors are floats, and an
undefined or infinite error is ``null`` (strict JSON, never ``Infinity``).
"""

from __future__ import annotations

import math
from typing import Any

from .audit import audit_decisions, audit_values, decimal_digits
from .engine import Solution
from .engine.value_iteration import FloatSolution
from .games import Report
from .numbers import format_pq
from .render import exact_number

__all__ = ["solution_report", "audit_report"]

SHOWN = 10  # states listed in text output unless --all


def _finite(x: float | None) -> float | None:
    return x if x is not None and math.isfinite(x) else None


def _state_rows(sol: Solution) -> list[dict]:
    m = sol.model
    rows = []
    for s in range(len(m)):
        row: dict[str, Any] = {"state": s, "name": m.state_name(s),
                               "value": [format_pq(x) for x in sol.values[s]]}
        if m.terminal[s] is None:
            row["mover"] = m.mover[s]
            row["action"] = sol.action_name(s)
            if s in sol.margins:
                row["margin"] = format_pq(sol.margins[s])
            if s in sol.ties:
                row["tied_actions"] = [m.actions[s][a] for a in sol.ties[s]]
        row["rank"] = sol.ranks[s]
        rows.append(row)
    return rows


def solution_report(sol: Solution, digits: int = 8, full: bool = False, all_states: bool = False,
                    source: str = "") -> Report:
    m = sol.model
    comp = sol.components[0]
    value = sol.values[m.initial][0]
    num_data, num_lines = exact_number(value, digits, full)
    st = sol.stats
    smallest = sol.smallest_margin()
    choice_states = len(sol.margins)
    data = {
        "model": m.name,
        "source": source,
        "backend": sol.backend,
        "players": list(m.player_names),
        "objective": sol.objective,
        "witness": sol.witness,
        "states": len(m),
        "choice_states": choice_states,
        "answer_name": f"value of {m.state_name(m.initial)} to {m.player_names[comp]}",
        "answer": num_data,
        "initial_values": {m.player_names[c]: format_pq(x) for c, x in zip(sol.components, sol.values[m.initial])},
        "initial_action": sol.action_name(m.initial),
        "ties": len(sol.ties),
        "smallest_margin": None if smallest is None else {
            "value": format_pq(smallest[0]), "float": _finite(_float(smallest[0])), "state": smallest[1],
            "name": m.state_name(smallest[1])},
        "never_ending_states": len(sol.never_ends),
        "scc": st.to_dict(),
        "state_values": _state_rows(sol),
    }
    objective = {"zero-sum": f"zero-sum: {m.player_names[0]} maximises, {m.player_names[1] if m.num_players > 1 else ''} "
                             "minimises", "min": "the player minimises its payoff",
                 "max": "each player maximises its own payoff"}[sol.objective]
    lines = [f"{m.name}: {len(m):,} states, {choice_states:,} with a choice; {objective}",
             f"value of the initial state {m.state_name(m.initial)} to {m.player_names[comp]}:"]
    lines += num_lines
    others = [f"{m.player_names[c]} {decimal_digits(x, digits)}" for c, x in zip(sol.components, sol.values[m.initial])]
    if len(others) > 1:
        lines.append(f"all players : {', '.join(others)}")
    if m.terminal[m.initial] is None:
        lines.append(f"first action: {sol.action_name(m.initial)!r}"
                     + (f" (margin {_e(sol.margins[m.initial])})" if m.initial in sol.margins else ""))
    lines.append(f"exact ties  : {len(sol.ties)} states" + (
        " (" + ", ".join(m.state_name(s) for s in list(sol.ties)[:3]) + (", ..." if len(sol.ties) > 3 else "") + ")"
        if sol.ties else ""))
    if smallest is not None:
        lines.append(f"smallest margin best - runner-up: {_e(smallest[0])} at {m.state_name(smallest[1])}")
    if sol.never_ends:
        lines.append(f"never ends  : from {len(sol.never_ends)} states play goes on forever under optimal play "
                     "(worth 0 to every player)")
    lines.append(f"solved by   : {st.components:,} components ({st.single:,} single, {st.self_loop:,} self-loop, "
                 f"{st.cyclic:,} cyclic, largest {st.largest:,}, {st.cyclic_with_choices:,} with choices: "
                 f"{st.rounds:,} iteration rounds, at most {st.max_rounds:,}); dense unknowns at most "
                 f"{st.largest_dense:,}; witness: {sol.witness}")
    rows = data["state_values"]
    picked = rows if all_states else [r for r in rows if "margin" in r][:SHOWN]
    if picked:
        lines.append("states (value, optimal action, margin to the runner-up)" +
                     ("" if all_states else f": the first {len(picked)} choice states; --all lists every state"))
        for r in picked:
            val = ", ".join(decimal_digits(_fraction(v), digits) for v in r["value"])
            extra = ""
            if "action" in r and r.get("mover") is not None:
                extra = f"  {r['action']!r}"
                if "margin" in r:
                    extra += f"  margin {_e(_fraction(r['margin']))}"
                if "tied_actions" in r:
                    extra += f"  TIE {r['tied_actions']}"
            lines.append(f"  {r['name']}: {val}{extra}")
    return Report(data, lines)


def _float(x) -> float:
    """``x`` as a float; beyond the double range, the largest finite double of its sign."""
    try:
        return float(x)
    except OverflowError:
        return 1.7976931348623157e308 if x > 0 else -1.7976931348623157e308


def _e(x, digits: int = 3) -> str:
    """``x`` in scientific notation, never raising on values beyond the double range."""
    try:
        return f"{float(x):.{digits}e}"
    except OverflowError:
        return "beyond +1.8e+308" if x > 0 else "beyond -1.8e+308"


def _fraction(pq: str):
    from fractions import Fraction

    return Fraction(pq)


def audit_report(sol: Solution, flt: FloatSolution, what: str, digits: int = 8, bound: float | None = None,
                 bound_label: str = "") -> Report:
    """Judge a float solution (values per state, decisions) against the exact one."""
    m = sol.model
    comp_index = sol.components
    exact = {(s,): sol.values[s][0] for s in range(len(m))}
    approx = {(s,): flt.values[s][comp_index[0]] for s in range(len(m))}
    va = audit_values(exact, approx)
    e = bound if bound is not None else va.max_abs
    label = bound_label or "measured (a posteriori): the largest value error of the float table"
    # decisions: the float table's greedy choice at every choice state
    exact_c, float_c, choice = {}, {}, {}
    for s, qs in sol.q.items():
        if s not in flt.q:
            continue
        sign = sol.keys[m.mover[s]][1]
        # actions the balls proved neither best nor runner-up carry no exact value (None): left out
        exact_c[(s,)] = {a: sign * x for a, x in enumerate(qs) if x is not None}
        float_c[(s,)] = {a: sign * x for a, x in enumerate(flt.q[s])}
        fk = float_c[(s,)]
        choice[(s,)] = max(range(len(qs)), key=lambda a: (fk[a], -a))
    da = audit_decisions(exact_c, float_c, choice, e) if exact_c else None
    value = sol.values[m.initial][0]
    fv = flt.values[m.initial][comp_index[0]]
    from .audit import rounding_report

    rr = rounding_report(value, digits, fv, e)
    data = {
        "model": m.name, "float_solver": what, "states": len(m),
        "values": va.to_dict(),
        "bound": _finite(e), "bound_derivation": label,
        "decisions": None if da is None else da.to_dict(),
        "rounding": rr.to_dict(),
    }
    if flt.sweeps:
        data["sweeps"] = flt.sweeps
        data["last_change"] = _finite(flt.last_change)
    lines = [f"Audit of {what} on {m.name} ({len(m):,} states)"]
    if flt.sweeps:
        lines.append(f"sweeps        : {flt.sweeps} (last change {flt.last_change:.3e})")
    lines += [
        f"max abs error : {va.max_abs:.3e} at {m.state_name(va.max_abs_at[0])}",
        f"max rel error : {va.max_rel:.3e} at {m.state_name(va.max_rel_at[0])}",
        f"max ulps      : {va.max_ulps:.2f} at {m.state_name(va.max_ulps_at[0])}",
    ]
    if da is not None:
        lines.append("decisions     : " + ", ".join(f"{k} {v}" for k, v in da.counts.items())
                     + f" (flip threshold 2 x {e:.3e}, {label})")
        lines.append(f"                float choice differs from the exact best in {da.decisions_differ} states")
    lines.append(f"rounded answer: exact {rr.rounded}, float prints {rr.float_rounded} "
                 f"({'agree' if rr.float_digits_agree else 'DIFFER'})")
    return Report(data, lines)
