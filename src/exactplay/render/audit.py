"""An :class:`~exactplay.audit_result.AuditResult` as JSON, text and HTML, one layout for every game.

JSON: ``{"game", "params", "solver_under_audit", ...}`` then, per float program, its
answer check under ``rounding`` (plus its error and float value where the audit names
keys for them), each value-error summary and decision verdict under its own key, its
facts; then the instance's facts.  A program with a ``key`` nests its parts under it.
Infinite or out-of-range measures are ``null`` with a ``<field>_reason``
(:mod:`exactplay.strict_json`).

Text: the title, what is under audit, the headline facts, then per program
``-- label``, the answer line, per table the max abs / rel / ulp errors with where, the
bound and bound/measured, per decision set the verdict counts, the smallest gap and
the wrong states, then the facts (``label: text``).
"""

from __future__ import annotations

import html
from typing import Any

from ..audit import CERTIFIED, EXACT_TIE, UNRESOLVABLE, WRONG
from ..audit_result import AnswerCheck, AuditResult, DecisionVerdicts, Fact, FloatAudit, ValueErrors
from ..numbers import format_pq
from ..strict_json import json_ready

__all__ = ["audit_json", "audit_lines", "audit_html", "LISTED"]

LISTED = 10  # wrong states listed in text and JSON


def _state_json(state: Any) -> Any:
    return list(state) if isinstance(state, tuple) else state


def _wrong(d: DecisionVerdicts) -> list:
    return [s for s, c in d.audit.classes.items() if c == WRONG]


# ------------------------------------------------------------------ JSON


def _put(target: dict, key: str | None, value: Any) -> None:
    if key is None:
        return
    if key in target:  # two parts under one key: a bug in the game's audit, not an input
        raise ValueError(f"audit JSON: two parts under the key {key!r}")
    target[key] = value


def _answer_json(a: AnswerCheck) -> dict:
    return {"name": a.name, "value": format_pq(a.exact), **a.rounding.to_dict()}


def _decisions_json(d: DecisionVerdicts) -> dict:
    wrong = _wrong(d)
    return {**d.audit.to_dict(LISTED), "wrong_count": len(wrong),
            "wrong_cells": [_state_json(s) for s in wrong[:LISTED]]}


def _program_json(fa: FloatAudit, target: dict) -> None:
    if fa.answer is not None:
        a = fa.answer
        if a.float_key:
            _put(target, a.float_key, a.rounding.float_value)
        if a.error_key:
            _put(target, a.error_key, a.error)
        _put(target, a.key, _answer_json(a))
    for v in fa.values:
        _put(target, v.key, v.audit.to_dict())
    for d in fa.decisions:
        _put(target, d.key, _decisions_json(d))
    for f in fa.facts:
        _put(target, f.key, f.value)


def audit_json(result: AuditResult) -> dict:
    """The audit as strict-JSON-ready data (exact numbers ``"p/q"``; see the module doc)."""
    data: dict = {}
    _put(data, result.game_key, result.game)
    if result.params is not None:
        _put(data, "params", result.params)
    if result.solver is not None:
        _put(data, result.solver_key, result.solver)
    for f in result.headline:
        _put(data, f.key, f.value)
    for fa in result.audits:
        if fa.key is None:
            _program_json(fa, data)
        else:
            inner: dict = {}
            _program_json(fa, inner)
            _put(data, fa.key, inner)
    for f in result.facts:
        _put(data, f.key, f.value)
    return json_ready(data)


# ------------------------------------------------------------------ text


def _answer_lines(a: AnswerCheck) -> list[str]:
    rr = a.rounding
    line = f"answer {a.name}: exact {rr.rounded}"
    if rr.float_rounded is not None:
        line += f", float prints {rr.float_rounded} ({'agree' if rr.float_digits_agree else 'DIFFER'})"
    if a.error is not None:
        line += f"; float error {a.error:.3e}"
    lines = [line]
    more = f"  exact value {float(rr.distance):.3e} from the nearest rounding boundary at {rr.digits} decimals"
    if rr.float_digits_certain is not None:
        more += f"; float digits {'certain' if rr.float_digits_certain else 'NOT certain'} from the bound alone"
    return lines + [more]


def _value_lines(v: ValueErrors) -> list[str]:
    a, at = v.audit, v.state_name
    lines = [
        f"{v.label} ({a.cells:,} {v.what}):",
        f"  max abs error : {a.max_abs:.3e} at {at(a.max_abs_at)}",
        f"  max rel error : {a.max_rel:.3e} at {at(a.max_rel_at)}",
        f"  max ulps      : {a.max_ulps:{'.3e' if a.max_ulps >= 1e6 else '.2f'}} at {at(a.max_ulps_at)}",
    ]
    if a.bound is not None:
        lines.append(f"  a-priori bound: {a.bound:.3e}" + (f" ({a.bound_label})" if a.bound_label else ""))
        r = a.bound_ratio
        shown = "not applicable (the float table is exact)" if r is None else f"{r:.3g}"
        if a.within_bound is False:
            shown += " -- the measured error EXCEEDS the bound"
        lines.append(f"  bound/measured: {shown}")
    return lines


def _decision_lines(d: DecisionVerdicts) -> list[str]:
    a, at, what = d.audit, d.state_name, d.what
    c = a.counts
    lines = [f"{d.label}: certified {c[CERTIFIED]:,}, exact tie {c[EXACT_TIE]:,}, wrong {c[WRONG]:,}, "
             f"float-unresolvable {c[UNRESOLVABLE]:,} (of {sum(c.values()):,} {what} with a choice)"]
    line = f"  float choice differs from the exact best in {a.decisions_differ:,} {what}"
    if c[UNRESOLVABLE]:
        line += f"; {a.unresolvable_on_best:,} float-unresolvable ones still on an exact best"
    lines.append(line)
    if a.smallest_gap is not None:
        lines.append(f"  smallest exact gap best - runner-up: {_float_text(a.smallest_gap)} at "
                     f"{at(a.smallest_gap_at)} (flip threshold 2 x bound = {a.flip_threshold:.3e})")
    wrong = _wrong(d)
    if wrong:
        shown = ", ".join(at(s) for s in wrong[:LISTED])
        lines.append(f"  wrong: {shown}" + (f" (first {LISTED} of {len(wrong):,})" if len(wrong) > LISTED else ""))
    return lines


def _float_text(x: Any) -> str:
    try:
        return f"{float(x):.3e}"
    except OverflowError:
        return "beyond +1.8e+308" if x > 0 else "beyond -1.8e+308"


def _fact_lines(facts: list[Fact], indent: str = "") -> list[str]:
    return [indent + (f"{f.label}: {f.shown()}" if f.label else f.shown()) for f in facts if f.label is not None
            or (f.key is None and f.text)]


def _solver_lines(solver: Any) -> list[str]:
    if solver is None:
        return []
    if isinstance(solver, dict):
        return ["under audit:"] + [f"  {k}: {v}" for k, v in solver.items()]
    return [f"under audit: {solver}"]


def audit_lines(result: AuditResult) -> list[str]:
    """The audit as text lines (see the module doc)."""
    lines = [result.title] + _solver_lines(result.solver) + _fact_lines(result.headline)
    for fa in result.audits:
        pad = "   " if fa.label else ""
        if fa.label:
            lines.append(f"-- {fa.label}")
        body: list[str] = []
        if fa.answer is not None:
            body += _answer_lines(fa.answer)
        for v in fa.values:
            body += _value_lines(v)
        for d in fa.decisions:
            body += _decision_lines(d)
        body += _fact_lines(fa.facts)
        lines += [pad + line for line in body]
    return lines + _fact_lines(result.facts)


# ------------------------------------------------------------------ HTML


def _rows(cells: list[tuple[str, str]]) -> str:
    return "".join(f"<tr><th>{html.escape(k)}</th><td>{html.escape(v)}</td></tr>" for k, v in cells)


def _table_lines(lines: list[str]) -> str:
    cells = []
    for line in lines:
        key, sep, value = line.strip().partition(": ")
        cells.append((key, value) if sep else ("", key))
    return "<table><tbody>" + _rows(cells) + "</tbody></table>"


def audit_html(result: AuditResult) -> str:
    """The audit as an HTML fragment: one table per float program, then the findings."""
    parts = [f"<p>{html.escape(result.title)}</p>"]
    head = _solver_lines(result.solver) + _fact_lines(result.headline)
    if head:
        parts.append(_table_lines(head))
    for fa in result.audits:
        if fa.label:
            parts.append(f"<h3>{html.escape(fa.label)}</h3>")
        body: list[str] = []
        if fa.answer is not None:
            body += _answer_lines(fa.answer)
        for v in fa.values:
            body += _value_lines(v)
        for d in fa.decisions:
            body += _decision_lines(d)
        body += _fact_lines(fa.facts)
        parts.append(_table_lines(body))
    if result.facts:
        parts.append(_table_lines(_fact_lines(result.facts)))
    return '<section class="audit">' + "\n".join(parts) + "</section>"
