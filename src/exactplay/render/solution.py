"""An engine :class:`~exactplay.engine.Solution` as JSON, text and HTML.

JSON numbers: exact values are ``"p/q"`` strings; a margin beyond the double range
has no float (``null``), never ``Infinity``.
"""

from __future__ import annotations

import math
from typing import Any

import html

from ..audit import decimal_digits
from ..engine import Solution
from ..games import Report
from ..numbers import format_pq
from . import exact_number

__all__ = ["solution_report", "solution_html"]

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


def solution_html(report: Report) -> str:
    """A solution's text as an HTML fragment (a table of its labelled lines); a built-in game's
    solve (a :class:`~exactplay.render.solve.SolveReport`) by :func:`~exactplay.render.solve.solve_html`."""
    result = getattr(report, "result", None)
    if result is not None:
        from .solve import solve_html

        return solve_html(result)
    rows = []
    for line in report.lines:
        key, sep, value = line.partition(": ")
        rows.append((key.strip(), value) if sep and len(key) < 40 else ("", line))
    return ('<section class="solution"><table><tbody>' + "".join(
        f"<tr><th>{html.escape(k)}</th><td>{html.escape(v)}</td></tr>" for k, v in rows) + "</tbody></table></section>")
