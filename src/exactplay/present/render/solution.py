"""An engine :class:`~exactplay.engine.Solution` of a user's model as a
:class:`~exactplay.solve_result.SolveResult`, rendered in JSON, text and HTML by
:mod:`exactplay.present.render.solve` (the renderer of the built-in games' solve too).

JSON numbers: exact values are ``"p/q"`` strings; the float of a margin beyond the double
range is the largest finite double of its sign, never ``Infinity``.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from ...audit.judge import decimal_digits
from ...engine import Solution
from ..rendered import Report
from ...numbers.decimals import sci
from ...numbers.backends import InfiniteValue, format_pq
from ...solve_result import Decision, Fact, SolveResult, Table, margin_of
from .solve import solve_report

__all__ = ["solution_report", "solution_result", "solution_html"]

SHOWN = 10  # states listed in text output unless --all


def _state_rows(sol: Solution, only: int | None = None) -> list[dict]:
    """A row per state (value, mover, action, margin, tied actions, rank); ``only``: the first that many
    choice states (a state with a margin), for the text output without ``--all``."""
    m = sol.model
    values, policy, margins, ties, ranks = sol.values, sol.policy, sol.margins, sol.ties, sol.ranks
    mover, terminal = m.mover, m.terminal
    name, action = m.state_name, m.action_name
    rows = []
    for s in (range(len(m)) if only is None else sorted(margins)[:only]):
        v = values[s]
        row: dict[str, Any] = {"state": s, "name": name(s), "value": None if v is None else [format_pq(x) for x in v]}
        if v is None:  # +infinity (never_ending "infinite")
            row["value_reason"] = sol.infinite_reason(s)
        if terminal[s] is None:
            a = policy[s]
            row["mover"] = mover[s]
            row["action"] = None if a is None else action(s, a)
            if s in margins:
                row["margin"] = format_pq(margins[s])
            if s in ties:
                row["tied_actions"] = [action(s, b) for b in ties[s]]
        row["rank"] = ranks[s]
        rows.append(row)
    return rows


def solution_result(sol: Solution, digits: int = 8, full: bool = False, all_states: bool = False,
                    source: str = "", every_row: bool = True) -> SolveResult:
    """A user's model solved by the engine as a :class:`~exactplay.solve_result.SolveResult`: the
    answer (the initial state's value to the first certified component), the first action with its
    margin, the smallest margin, and the model's facts (players, objective, witness, ties, the
    components solved, every state's row; ``every_row=False``: only the rows the text shows)."""
    m = sol.model
    comp = sol.components[0]
    st = sol.stats
    choice_states = len(sol.margins)
    objective = {"zero-sum": f"zero-sum: {m.player_names[0]} maximises, {m.player_names[1] if m.num_players > 1 else ''} "
                             "minimises", "min": "the player minimises its payoff",
                 "max": "each player maximises its own payoff"}[sol.objective]
    if m.never_ending == "infinite":
        objective += "; a strategy that does not end play with probability 1 is worth +inf"
    v0 = sol.values[m.initial]
    infinite = v0 is None
    if infinite:
        v0 = [None] * len(sol.components)
    others = [f"{m.player_names[c]} {'inf' if x is None else decimal_digits(x, digits)}"
              for c, x in zip(sol.components, v0)]
    tied = ", ".join(m.state_name(s) for s in list(sol.ties)[:3]) + (", ..." if len(sol.ties) > 3 else "")
    rows = _state_rows(sol) if every_row or all_states else _state_rows(sol, SHOWN)
    picked = rows if all_states else [r for r in rows if "margin" in r][:SHOWN]
    decisions = [] if m.terminal[m.initial] is not None else [Decision(
        m.state_name(m.initial), sol.action_name(m.initial), sol.margins.get(m.initial),
        text=repr(sol.action_name(m.initial)), note="the initial state")]
    facts = [
        Fact("model", None, m.name), Fact("source", None, source),
        Fact("players", None, list(m.player_names)), Fact("objective", None, sol.objective),
        Fact("witness", None, sol.witness), Fact("states", None, len(m)), Fact("choice_states", None, choice_states),
        Fact("initial_values", "all players" if len(others) > 1 else None,
             {m.player_names[c]: None if x is None else format_pq(x) for c, x in zip(sol.components, v0)},
             ", ".join(others)),
        Fact("initial_action", None, sol.action_name(m.initial)),
        Fact("ties", "exact ties", len(sol.ties), f"{len(sol.ties)} states" + (f" ({tied})" if sol.ties else "")),
        Fact("never_ending_states", "never ends" if sol.never_ends else None, len(sol.never_ends),
             f"from {len(sol.never_ends)} states play goes on forever under optimal play (no payoff: worth the rewards it collects)"),
    ]
    if infinite:
        facts.append(Fact("initial_values_reason", None, sol.infinite_reason(m.initial)))
    if sol.witness == "proper":
        first = next(iter(sorted(sol.infinite)), None)
        facts.append(Fact("infinite_states", "infinite", len(sol.infinite),
                          f"{len(sol.infinite)} states of value +inf" + ("" if first is None else
                          f" ({sol.infinite_reason(first).removeprefix('infinite: ')}; e.g. {m.state_name(first)})")))
    facts += [
        Fact("scc", "solved by", st.to_dict(),
             f"{st.components:,} components ({st.single:,} single, {st.self_loop:,} self-loop, "
             f"{st.cyclic:,} cyclic, largest {st.largest:,}, {st.cyclic_with_choices:,} with choices: "
             f"{st.rounds:,} iteration rounds, at most {st.max_rounds:,}); dense unknowns at most "
             f"{st.largest_dense:,}; witness: {sol.witness}"),
    ]
    facts += _initial_facts(sol, digits)
    if picked:
        facts.append(Table(
            "state_values", "states (value, optimal action, margin to the runner-up)"
            + ("" if all_states else f": the first {len(picked)} choice states; --all lists every state"),
            ("name", "value", "extra"), rows, template="{name}: {value}{extra}",
            text_rows=[{"name": r["name"], "value": "inf" if r["value"] is None else
                        ", ".join(decimal_digits(Fraction(v), digits) for v in r["value"]),
                        "extra": _extra(r)} for r in picked]))
    else:
        facts.append(Fact("state_values", None, rows))
    return SolveResult(
        None, None, sol.backend, f"{m.name}: {len(m):,} states, {choice_states:,} with a choice; {objective}",
        f"value of {m.state_name(m.initial)} to {m.player_names[comp]}",
        InfiniteValue(sol.infinite_reason(m.initial)) if infinite else v0[0], digits, full,
        answer_label=(f"value of the initial state {m.state_name(m.initial)} to {m.player_names[comp]}:"
                      if len(m.initial_states) == 1 else f"value of the first of the {len(m.initial_states):,} "
                      f"initial states, {m.state_name(m.initial)}, to {m.player_names[comp]}:"),
        decisions=decisions, smallest_margin=margin_of(sol), facts=facts)


def _initial_facts(sol: Solution, digits: int) -> list:
    """A model with several initial states: each one's value, the smallest and the largest (JSON
    ``initial_states``; text: the range, then the values, the first :data:`SHOWN` unless --full)."""
    from ...model.initial_values import initial_range

    m = sol.model
    r = initial_range(m.initial_states, lambda s: None if sol.values[s] is None else sol.values[s][0])
    if r is None:
        return []
    rows = [{"name": m.state_name(s), "value": r.decimal(v, digits)} for s, v in zip(r.states, r.values)]
    return [Fact("initial_states", "initial states", r.to_json(m.state_name, digits=digits),
                 r.summary(m.state_name, digits) + f"; the answer above is the first, state {m.state_name(m.initial)}"),
            Table(None, f"values of the {len(rows):,} initial states to {m.player_names[sol.components[0]]}",
                  ("name", "value"), rows, shown=SHOWN, template="state {name}: {value}")]


def _extra(r: dict) -> str:
    """A state row's action, margin and tie, as the state table shows them."""
    if "action" not in r or r.get("mover") is None:
        return ""
    extra = f"  {r['action']!r}"
    if "margin" in r:
        extra += f"  margin {sci(Fraction(r['margin']))}"
    if "tied_actions" in r:
        extra += f"  TIE {r['tied_actions']}"
    return extra


def solution_report(sol: Solution, digits: int = 8, full: bool = False, all_states: bool = False,
                    source: str = "", every_row: bool = True) -> Report:
    """The solve of a user's model, rendered by :mod:`exactplay.present.render.solve` (JSON data and text)."""
    return solve_report(solution_result(sol, digits, full, all_states, source, every_row))


def solution_html(report: Report) -> str:
    """A solution's text as an HTML fragment (a table of its labelled lines); a built-in game's
    solve (a :class:`~exactplay.present.render.solve.SolveReport`) by :func:`~exactplay.present.render.solve.solve_html`."""
    result = getattr(report, "result", None)
    if result is not None:
        from .solve import solve_html

        return solve_html(result)
    import html

    rows = []
    for line in report.lines:
        key, sep, value = line.partition(": ")
        rows.append((key.strip(), value) if sep and len(key) < 40 else ("", line))
    return ('<section class="solution"><table><tbody>' + "".join(
        f"<tr><th>{html.escape(k)}</th><td>{html.escape(v)}</td></tr>" for k, v in rows) + "</tbody></table></section>")
