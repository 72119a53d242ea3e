"""An :class:`~exactplay.audit.result.AuditResult` as JSON, text and HTML, one layout for every game.

JSON: ``{"game", "params", "solver_under_audit", ...}`` then, per float program, its
answer check under ``rounding`` (plus its error and float value where the audit names
keys for them), each value-error summary and decision verdict under its own key, its
facts; then the instance's facts.  A program with a ``key`` nests its parts under it.
Infinite or out-of-range measures are ``null`` with a ``<field>_reason``
(:mod:`exactplay.strict_json`).

Text (and HTML, row for row): the title, what is under audit, the headline facts, then per program
``-- label``, the answer line, per table the max abs / rel / ulp errors with where, the
bound and bound/measured, per decision set the verdict counts, the smallest gap and
the wrong states, then the facts (``label: text``).
"""

from __future__ import annotations

import html
from typing import Any

from ...audit.judge import CERTIFIED, EXACT_TIE, UNRESOLVABLE, WRONG, state_json
from ...audit.result import AnswerCheck, AuditResult, DecisionVerdicts, Fact, FloatAudit, ValueErrors
from ...numbers.backends import format_pq
from ...numbers.decimals import sci
from ...strict_json import json_ready

__all__ = ["audit_json", "audit_lines", "audit_html", "LISTED"]

LISTED = 10  # wrong states listed in text and JSON


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
            "wrong_cells": [state_json(s) for s in wrong[:LISTED]]}


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


# ------------------------------------------------------------------ text and HTML: blocks of rows

# A block is (heading, rows): rows are (key, value) pairs; the text pads the keys of a block with a
# heading, the HTML makes one table row of each.  Facts form blocks without a heading.


def _answer_block(a: AnswerCheck) -> tuple:
    rr = a.rounding
    rows = []
    if rr.float_rounded is not None:
        rows.append(("float prints", f"{rr.float_rounded} ({'agree' if rr.float_digits_agree else 'DIFFER'}), "
                     f"from the float {rr.float_value!r}" + ("" if a.error is None else f"; error {a.error:.3e}")))
    rows.append(("exact digits", ("certain" if rr.certain else "NOT certain: the exact value is ON a rounding boundary")
                 + f" ({float(rr.distance):.3e} from the nearest rounding boundary at {rr.digits} decimals)"))
    if rr.float_digits_certain is not None:
        if rr.float_bound_holds is False:
            rows.append(("float digits", "NOT certain: the a-priori bound does not hold here "
                                         "(the float's exact error exceeds it)"))
        else:
            rows.append(("float digits",
                         f"{'certain' if rr.float_digits_certain else 'NOT certain'} from the bound alone"))
    return f"answer {a.name}: exact {rr.rounded}", rows


def _measure(x: float) -> str:
    return f"{x:{'.3e' if x >= 1e6 else '.2f'}}"


def _value_block(v: ValueErrors) -> tuple:
    a, at = v.audit, v.state_name
    rows = [("max abs error", f"{a.max_abs:.3e} at {at(a.max_abs_at)}"),
            ("max rel error", f"{a.max_rel:.3e} at {at(a.max_rel_at)}"),
            ("max ulps", f"{_measure(a.max_ulps)} at {at(a.max_ulps_at)}")]
    if a.bound is not None:
        rows.append(("a-priori bound", f"{a.bound:.3e}" + (f" ({a.bound_label})" if a.bound_label else "")))
        r = a.bound_ratio
        shown = "not applicable (the float table is exact)" if r is None else f"{r:.3g}"
        if a.within_bound is False:
            shown += " -- the measured error EXCEEDS the bound"
        rows.append(("bound/measured", shown))
    return f"{v.label} ({a.cells:,} {v.what}):", rows


def _decision_block(d: DecisionVerdicts) -> tuple:
    a, at, what = d.audit, d.state_name, d.what
    c = a.counts
    rows = [("verdicts", f"certified {c[CERTIFIED]:,}, exact tie {c[EXACT_TIE]:,}, wrong {c[WRONG]:,}, "
                         f"float-unresolvable {c[UNRESOLVABLE]:,}")]
    differ = f"{a.decisions_differ:,} {what} (float choice not an exact best)"
    if c[UNRESOLVABLE]:
        differ += f"; {a.unresolvable_on_best:,} float-unresolvable ones still on an exact best"
    rows.append(("float differs", differ))
    if a.beyond_bound:
        rows.append(("off the bound", f"{len(a.beyond_bound):,} of the wrong {what} have float candidates farther "
                                      f"from the exact ones than the bound: the program computes other values there "
                                      f"(a bug, or an earlier decision that differs, e.g. an exact tie broken the "
                                      f"other way)"))
    if a.smallest_gap is not None:
        rows.append(("smallest gap", f"{sci(a.smallest_gap)} at {at(a.smallest_gap_at)} (best - runner-up, "
                                     f"exact; flip threshold 2 x bound = {a.flip_threshold:.3e})"))
    wrong = _wrong(d)
    if wrong:
        rows.append(("wrong", ", ".join(at(s) for s in wrong[:LISTED])
                     + (f" (first {LISTED} of {len(wrong):,})" if len(wrong) > LISTED else "")))
    return f"{d.label}, {sum(c.values()):,} {what} with a choice:", rows


def _fact_block(facts: list[Fact]) -> tuple:
    return None, [(f.label or "", f.shown()) for f in facts if f.label is not None or (f.key is None and f.text)]


def _solver_block(solver: Any) -> tuple:
    if isinstance(solver, dict):
        return "under audit:", [(k, str(v)) for k, v in solver.items()]
    return None, [] if solver is None else [("under audit", str(solver))]


def _program_blocks(fa: FloatAudit) -> list[tuple]:
    blocks = [] if fa.answer is None else [_answer_block(fa.answer)]
    blocks += [_value_block(v) for v in fa.values] + [_decision_block(d) for d in fa.decisions]
    return blocks + [_fact_block(fa.facts)]


def _sections(result: AuditResult) -> list[tuple[str | None, list[tuple]]]:
    """(program label or None, its blocks) in the order of the text."""
    head = (None, [_solver_block(result.solver), _fact_block(result.headline)])
    return [head] + [(fa.label or None, _program_blocks(fa)) for fa in result.audits] + [
        (None, [_fact_block(result.facts)])]


def _block_lines(block: tuple) -> list[str]:
    heading, rows = block
    if heading is None:
        return [f"{k}: {v}" if k else v for k, v in rows]
    width = max([14] + [len(k) for k, _ in rows if len(k) <= 18])
    return [heading] + [f"  {k:{width}}: {v}" for k, v in rows]


def audit_lines(result: AuditResult) -> list[str]:
    """The audit as text lines (see the module doc)."""
    lines = [result.title]
    for label, blocks in _sections(result):
        pad = "   " if label else ""
        if label:
            lines.append(f"-- {label}")
        lines += [pad + line for block in blocks for line in _block_lines(block)]
    return lines


def audit_html(result: AuditResult) -> str:
    """The audit as an HTML fragment: one table per float program, a heading row per part."""
    esc = html.escape
    parts = [f"<p>{esc(result.title)}</p>"]
    for label, blocks in _sections(result):
        rows = []
        for heading, cells in blocks:
            if heading is not None:
                rows.append(f'<tr><th colspan="2">{esc(heading.rstrip(":"))}</th></tr>')
            rows += [f"<tr><td>{esc(k)}</td><td>{esc(v)}</td></tr>" for k, v in cells]
        if not rows:
            continue
        if label:
            parts.append(f"<h3>{esc(label)}</h3>")
        parts.append("<table><tbody>" + "".join(rows) + "</tbody></table>")
    return '<section class="audit">' + "\n".join(parts) + "</section>"
