"""An :class:`~exactplay.audit.enclosure_result.EnclosureResult` as JSON, text and HTML, one layout for all.

Text (HTML: the same rows, one table per section)::

    <title>  [<arithmetic>]
    under audit : ...                                  (headline facts)
    enclosure   : [lower, upper] contains the exact value (width w)
    decimal     : 0.12345678  (certified by balls at P bits: ...)  | NOT certified ...; k decimals certain
    widths      : the widest of the N enclosed values: w at <state>
    decisions   : C of N certified at P bits, U unresolved at this precision (S s)   (one per precision round)
                  unresolved, e.g. ...
    -- <float program>
       float answer   : prints ...; balls certify ...: agree (certified)
       float values   : every ... within E of the exact value (largest at ...); certainly off by >= L at ...
       float decisions: certified correct ..., wrong ..., unresolved ...
    <fact label>: <text>

JSON: ``game`` (or ``model``), ``params``, the headline facts, ``backend``, ``prec_bits``, the answer
(the :class:`~exactplay.numbers.balls.ZivDecimal` fields plus ``run_enclosure``) under its key, ``widths``
(``states``, ``largest``, ``largest_at``), the decisions
(``total``, ``certified``, ``unresolved``, ``unresolved_sample``, their facts), each float program's
measures at their paths, the facts.  Numbers with no double value follow :mod:`exactplay.strict_json`.
An :class:`~exactplay.audit.enclosure_result.ExactHandover` (``auto``) writes what the balls found first
(text) or under ``ball`` (JSON), then the exact answer as its own renderer writes it.
"""

from __future__ import annotations

import html
from decimal import Decimal, localcontext
from fractions import Fraction
from typing import Any

from ...audit.judge import state_json
from ...audit.result import AuditResult, Fact
from ...numbers.decimals import decimal_digits
from ...audit.enclosure_result import (UNBOUNDED, VERDICTS, AnswerEnclosure, DecisionCertificates, EnclosureResult,
                                FloatJudgement, WidthSummary)
from ...numbers.backends import format_pq
from ...strict_json import INFINITE, OUT_OF_RANGE, NonFinite, json_ready
from .audit import audit_html, audit_json, audit_lines

__all__ = ["enclosure_json", "enclosure_lines", "enclosure_html", "decimal_text"]

KEY = 12  # label width of the head rows ("enclosure   : ...")
PROGRAM_KEY = 15  # label width of a float program's rows ("float decisions: ...")
AGREE = {True: "agree (certified)", False: "DIFFER (certified)", None: "not decided at this precision"}


def _state_json(state: Any) -> Any:
    return [] if state is None else state_json(state)


def _put(target: dict, path: tuple, value: Any) -> None:
    for k in path[:-1]:
        target = target.setdefault(k, {})
    if path[-1] in target:  # two parts under one key: a bug in the result's keys, not an input
        raise ValueError(f"enclosure JSON: two parts under the key {'.'.join(path)!r}")
    target[path[-1]] = value


def _number(x: Fraction, spec: str) -> str:
    """``x`` formatted as a double would be, also beyond the double range (``3.3e+399``).

    >>> _number(Fraction(10**400, 3), ".3e"), _number(Fraction(1, 3), ".3e")
    ('3.333e+399', '3.333e-01')
    """
    try:
        return format(float(x), spec)
    except OverflowError:
        with localcontext() as ctx:
            ctx.prec = 20
            return format(Decimal(x.numerator) / Decimal(x.denominator), spec)


def _width(lower: Fraction | None, upper: Fraction | None, prec: int) -> float:
    """The width as a double, or the documented encoding of a width with no double value."""
    if lower is None:
        return NonFinite(INFINITE, "the ball is " + UNBOUNDED.format(prec=prec))
    try:
        return float(upper - lower)
    except OverflowError:
        return NonFinite(OUT_OF_RANGE, f"width {_number(upper - lower, '.3e')}")


def _ends_json(lower: Fraction | None, upper: Fraction | None, prec: int) -> dict:
    """``p/q`` ends and the width; an unbounded ball's ends and width are infinite measures."""
    if lower is None:
        unbounded = NonFinite(INFINITE, "the ball is " + UNBOUNDED.format(prec=prec))
        return {"lower": unbounded, "upper": unbounded, "width": unbounded}
    return {"lower": format_pq(lower), "upper": format_pq(upper), "width": _width(lower, upper, prec)}


# ------------------------------------------------------------------ JSON


def _answer_json(a: AnswerEnclosure) -> dict:
    z = a.decimal
    return {"digits": z.digits, "decimal": z.rounded, "decimal_certified": z.rounded is not None,
            "certain_digits": z.certain_digits, "prec_bits": z.prec, "evaluations": z.evaluations,
            **_ends_json(z.lower, z.upper, z.prec),
            "run_enclosure": {**_ends_json(a.lower, a.upper, a.prec), "prec_bits": a.prec}}


def _decisions_json(d: DecisionCertificates) -> dict:
    data = {"total": d.total, "certified": d.certified, "unresolved": d.unresolved,
            "unresolved_sample": [_state_json(s) for s in d.unresolved_sample]}
    if d.rounds_key:
        data[d.rounds_key] = [{"prec_bits": r.prec, "certified": r.certified, "unresolved": r.unresolved,
                               "seconds": round(r.seconds, 3)} for r in d.rounds]
    for f in d.facts:
        if f.key is not None:
            _put(data, (f.key,), f.value)
    return data


def _measure_json(fj: FloatJudgement, measure: str) -> Any:
    value = getattr(fj, measure)
    if measure == "verdicts":
        return {k: value.get(k, 0) for k in VERDICTS}
    if measure.endswith("_at"):
        return _state_json(value)
    if measure == "wrong_sample":
        return [_state_json(s) for s in value]
    return value


def _float_json(fj: FloatJudgement, data: dict) -> None:
    for measure, path in fj.keys.items():
        if getattr(fj, measure.removesuffix("_at")) is not None:  # a place "..._at" comes with its measure
            _put(data, path, _measure_json(fj, measure))


def _facts_json(facts: list[Fact], data: dict) -> None:
    for f in facts:
        if f.key is not None:
            _put(data, (f.key,), f.value)


def _exact_json(exact: Any) -> dict:
    if isinstance(exact, AuditResult):
        return audit_json(exact)
    return dict(exact.data)


def _handover_json(r: EnclosureResult) -> dict:
    h = r.handover
    ball: dict = {"prec_bits": r.prec}
    if h.reason is not None:
        ball["unresolved"] = h.reason
    elif r.floats:
        ball["float_decisions"] = {k: r.floats[0].verdicts.get(k, 0) for k in VERDICTS}
    elif r.decisions is not None:
        ball.update(decisions=r.decisions.total, certified=r.decisions.certified)
    return {**_exact_json(h.exact), "ball": ball}


def enclosure_json(r: EnclosureResult) -> dict:
    """The result as strict-JSON-ready data (see the module doc)."""
    if r.handover is not None:
        return json_ready(_handover_json(r))
    data: dict = {}
    _put(data, (r.game_key,), r.game)
    if r.params is not None:
        _put(data, ("params",), r.params)
    _facts_json(r.headline, data)
    _put(data, ("backend",), r.backend)
    _put(data, ("prec_bits",), r.prec)
    a = r.answer
    if a is not None:
        if a.name_key:
            _put(data, (a.name_key,), a.name)
        _put(data, (a.key,), _answer_json(a))
    if r.widths is not None:
        w = r.widths
        _put(data, (w.key,), {"states": w.states, "largest": w.largest, "largest_at": _state_json(w.largest_at)})
    if r.decisions is not None:
        _put(data, (r.decisions.key,), _decisions_json(r.decisions))
    for fj in r.floats:
        _float_json(fj, data)
    _facts_json(r.facts, data)
    return json_ready(data)


# ------------------------------------------------------------------ rows: text and HTML

# A section is (heading or None, rows); a row is (label, text): label "" continues the row above.


def decimal_text(a: AnswerEnclosure) -> str:
    """The decimal row: certified (and at which precision), or how many decimals are certain."""
    z = a.decimal
    if z.rounded is not None:
        return (f"{z.rounded}  (certified by balls at {z.prec} bits: "
                f"the enclosure's width is {_number(z.upper - z.lower, '.2e')})")
    if z.lower is None:
        return f"NOT certified to {z.digits} decimals: the ball is " + UNBOUNDED.format(prec=z.prec)
    if z.certain_digits < 0:
        return (f"NOT certified to {z.digits} decimals at {z.prec} bits; not even the integer part is certain "
                f"(the ball is [{_number(z.lower, '.3e')}, {_number(z.upper, '.3e')}])")
    shown = decimal_digits(z.lower, z.certain_digits)
    return f"NOT certified to {z.digits} decimals at {z.prec} bits; {z.certain_digits} decimals certain: {shown}"


def _answer_rows(a: AnswerEnclosure) -> list[tuple]:
    if a.lower is None:
        enclosure = "the ball is " + UNBOUNDED.format(prec=a.prec)
    else:
        enclosure = (f"[{_number(a.lower, '.17g')}, {_number(a.upper, '.17g')}] contains the exact value "
                     f"(width {_number(a.width, '.2e')})")
    return [("enclosure", enclosure), ("decimal", decimal_text(a))]


def _width_rows(w: WidthSummary) -> list[tuple]:
    where = "" if w.largest_at is None else f" at {w.state_name(w.largest_at)}"
    return [("widths", f"the widest of the {w.states:,} enclosed {w.what}: {w.largest:.2e}{where}")]


def _fact_rows(facts: list[Fact], continued: bool = False) -> list[tuple]:
    return [("" if continued else (f.label or ""), (f"{f.label}: " if continued and f.label else "") + f.shown())
            for f in facts if f.label is not None]


def _decision_rows(d: DecisionCertificates) -> list[tuple]:
    rows = [("decisions", (f"{r.certified:,} of {d.total:,} {d.what}certified at {r.prec} bits, {r.unresolved:,} "
                           f"unresolved at this precision ({d.context}{r.seconds:.1f} s)")) for r in d.rounds]
    if d.unresolved_sample:
        sample = ", ".join(d.state_name(s) for s in d.unresolved_sample[:d.shown])
        rows.append(("", f"unresolved, e.g. {d.sample_intro}{sample}{d.sample_note}"))
    return rows + _fact_rows(d.facts, continued=True)


def _counts(verdicts: dict) -> str:
    return ", ".join(f"{k} {verdicts.get(k, 0):,}" for k in VERDICTS)


def _float_rows(fj: FloatJudgement, r: EnclosureResult) -> list[tuple]:
    z = r.answer.decimal if r.answer is not None else None
    certified = "(no answer)" if z is None else (z.rounded or f"(not certified: {z.certain_digits} decimals certain)")
    shown = "" if fj.float_value is None else f" (the float {fj.float_value!r})"
    values = f"every {r.values_name} within {fj.error_upper:.3e} of the exact value"
    if fj.error_upper_at is not None:
        values += f" (largest at {fj.error_upper_at})"
    if fj.error_lower is not None:
        values += (f"; certainly off by >= {fj.error_lower:.3e} at {fj.error_lower_at}" if fj.error_lower_at
                   is not None else "; none certainly off at this precision")
    rows = [("float answer", f"prints {fj.printed}{shown}; balls certify {certified}: {AGREE[fj.agrees]}"),
            ("float values", values), ("float decisions", _counts(fj.verdicts))]
    if fj.wrong_sample:
        rows.append(("", "wrong, e.g. " + ", ".join(map(str, fj.wrong_sample[:4]))
                     + (f"; the largest certified loss (best - float choice) >= {fj.wrong_loss:.1e}"
                        if fj.wrong_loss else "")))
    if fj.by_exact is not None:
        rows.append(("", "the unresolved ones, decided exactly (--backend auto): "
                         + ", ".join(f"{k} {v:,}" for k, v in fj.by_exact.items())))
    return rows


def _sections(r: EnclosureResult) -> list[tuple[str | None, list[tuple], int]]:
    """(heading, rows, label width) in the order of the text."""
    head = _fact_rows(r.headline)
    if r.answer is not None:
        head += _answer_rows(r.answer)
    if r.widths is not None:
        head += _width_rows(r.widths)
    if r.decisions is not None:
        head += _decision_rows(r.decisions)
    out = [(None, head, KEY)] + [(fj.label, _float_rows(fj, r), PROGRAM_KEY) for fj in r.floats]
    return out + [(None, _fact_rows(r.facts), KEY)]


def _row_text(label: str, text: str, width: int) -> str:
    return f"{label:<{width}}: {text}" if label else " " * (width + 2) + text


def _title(r: EnclosureResult) -> str:
    return r.title + (f"  [{r.arithmetic}]" if r.arithmetic else "")


def _handover_preface(r: EnclosureResult) -> list[tuple]:
    h = r.handover
    done = "audited" if h.command == "audit" else "solved"
    if h.reason is not None:
        return [(None, f"balls ({r.prec} bits): {h.reason}; {done} exactly (--backend auto):")]
    if r.floats:
        counts = _counts(r.floats[0].verdicts)
        return [(None, f"balls ({r.prec} bits): float decisions {counts}; "
                       f"the unresolved ones {done} exactly (--backend auto):")]
    decided = "decided" if done == "solved" else done
    return _decision_rows(r.decisions) + [(None, f"the unresolved ones {decided} exactly (--backend auto):")]


def _exact_lines(exact: Any) -> list[str]:
    return audit_lines(exact) if isinstance(exact, AuditResult) else list(exact.lines)


def enclosure_lines(r: EnclosureResult) -> list[str]:
    """The result as text lines (see the module doc)."""
    if r.handover is not None:
        pre = [text if label is None else _row_text(label, text, KEY) for label, text in _handover_preface(r)]
        return pre + _exact_lines(r.handover.exact)
    lines = [_title(r)]
    for heading, rows, width in _sections(r):
        pad = "   " if heading else ""
        if heading:
            lines.append(f"-- {heading}")
        lines += [pad + _row_text(label, text, width) for label, text in rows]
    return lines


def _table(rows: list[tuple]) -> str:
    esc = html.escape
    return "<table><tbody>" + "".join(f"<tr><td>{esc(label or '')}</td><td>{esc(text)}</td></tr>"
                                      for label, text in rows) + "</tbody></table>"


def enclosure_html(r: EnclosureResult) -> str:
    """The result as an HTML fragment: the rows of the text, one table per section."""
    esc = html.escape
    if r.handover is not None:
        exact = r.handover.exact
        body = (audit_html(exact) if isinstance(exact, AuditResult)
                else "<pre>" + esc("\n".join(_exact_lines(exact))) + "</pre>")
        return ('<section class="enclosure">' + _table(_handover_preface(r)) + "\n" + body + "</section>")
    parts = [f"<p>{esc(_title(r))}</p>"]
    for heading, rows, _ in _sections(r):
        if not rows:
            continue
        if heading:
            parts.append(f"<h3>{esc(heading)}</h3>")
        parts.append(_table(rows))
    return '<section class="enclosure">' + "\n".join(parts) + "</section>"
