"""A built-in game's :class:`~exactplay.solve_result.SolveResult` as JSON, text and HTML.

One layout for every game: the title; the answer (exact value, certified decimals); each
further exact quantity the same way; the optimal decisions the game points out (with their
exact margin when known); the smallest margin best - runner-up; then the game's facts and
tables.  Every part is a *block* of ``(label, text)`` rows: the text prints ``label: text``
(a table: its label, then its rows), the HTML makes one table row of each, the JSON holds the
same facts under their keys (exact numbers as ``"p/q"`` strings, never a float NaN/Infinity).
"""

from __future__ import annotations

from typing import Any

from ...audit.result import Fact
from ..rendered import Report
from ...numbers.decimals import sci
from ...numbers.backends import format_pq
from ...solve_result import Decision, ExactQuantity, Margin, SolveResult, Table
from . import exact_number

__all__ = ["solve_json", "solve_lines", "solve_html", "solve_report", "SolveReport"]


class SolveReport(Report):
    """The rendered :class:`Report` of a solve, keeping its typed ``result``."""

    def __init__(self, data: dict, lines: list[str], result: SolveResult):
        super().__init__(data, lines)
        self.result = result


def _e(x: Any) -> str:
    """An exact number in scientific notation (3 digits), never raising beyond the double range.

    >>> from fractions import Fraction
    >>> _e(Fraction(1, 3)), _e(0)
    ('3.333e-01', '0 (exact tie)')
    """
    return sci(x) if x else "0 (exact tie)"


def _float(x: Any) -> float | None:
    """``x`` as a float; beyond the double range, the largest finite double of its sign.

    >>> _float(10**400), _float(-10**400) == -_float(10**400)
    (1.7976931348623157e+308, True)
    """
    try:
        return float(x)
    except OverflowError:
        return 1.7976931348623157e308 if x > 0 else -1.7976931348623157e308


def _pq(x: Any) -> str | None:
    return None if x is None else format_pq(x)


def _numbers(result: SolveResult) -> dict:
    """Each exact number of the result (the answer, then the quantities, by JSON key) as
    :func:`exact_number` gives it: fields and lines, computed once (a value of 10^5 digits takes
    a good part of a second to print)."""
    out = {"answer": exact_number(result.answer, result.digits if result.places is None else result.places,
                                  result.full)}
    for q in result.quantities:
        if q.value is not None:
            out[q.key] = exact_number(q.value, result.digits if q.places is None else q.places, result.full)
    return out


def _decision_json(d: Decision) -> dict:
    """``action`` as the model names it (chefs: the 0-based index of the target); ``action_text``, when
    the game words it otherwise, as the text shows it (chefs: ``target chef 2``)."""
    out = {"state": d.state, "action": d.action, "margin": _pq(d.margin)}
    if d.text is not None and d.text != str(d.action):
        out["action_text"] = d.text
    return out


def _margin_json(m: Margin) -> dict:
    return {"value": format_pq(m.value), "float": _float(m.value), "state": m.state, "name": m.name}


def _cell(x: Any) -> str:
    if isinstance(x, (list, tuple)):
        return "(" + ",".join(_cell(v) for v in x) + ")"
    if isinstance(x, bool):
        return "yes" if x else "no"
    if isinstance(x, str) and x.endswith("/1") and x[:-2].lstrip("-").isdigit():
        return x[:-2]  # an exact integer "p/1" shows as p
    return str(x)


def solve_json(result: SolveResult, numbers: dict | None = None) -> dict:
    """The JSON of a solve (strict-JSON-ready); ``numbers``: :func:`_numbers` if already made."""
    numbers = _numbers(result) if numbers is None else numbers
    data: dict = {} if result.game is None else {"game": result.game, "params": result.params}
    data.update({"backend": result.backend, "answer_name": result.answer_name,
                 "answer": numbers["answer"][0]})
    for q in result.quantities:
        data[q.key] = None if q.value is None else numbers[q.key][0]
    if result.decisions:
        data["decisions"] = [_decision_json(d) for d in result.decisions]
    if result.smallest_margin is not None:
        data["smallest_margin"] = _margin_json(result.smallest_margin)
    for f in result.facts:
        if f.key is not None:
            data[f.key] = f.rows if isinstance(f, Table) else f.value
    return data


def _quantity_lines(q: ExactQuantity, numbers: dict) -> list[str]:
    if q.value is None:
        return [q.missing]
    return [q.label] + numbers[q.key][1]


def _decision_row(d: Decision) -> tuple[str, str]:
    action = _cell(d.action) if d.text is None else d.text
    margin = "" if d.margin is None else f" (margin best - runner-up {_e(d.margin)})"
    return f"optimal action at {d.state}" + (f" ({d.note})" if d.note else ""), action + margin


def _table_rows(result: SolveResult, t: Table) -> list[tuple[str, str]]:
    every = t.rows if t.text_rows is None else t.text_rows
    rows = every if result.full or t.shown is None else every[:t.shown]
    out = [("", "  " + ("  ".join(f"{c} {_cell(r[c])}" for c in t.columns if c in r) if t.template is None
                        else t.template.format(**{c: _cell(r[c]) for c in t.columns}))) for r in rows]
    if len(rows) < len(every):
        out.append(("", f"  ... {len(every) - len(rows)} more ({t.more})"))
    return out


def _blocks(result: SolveResult, numbers: dict) -> list[tuple[str | None, list[tuple[str, str]]]]:
    """``(heading or None, rows)`` in the order of the text; a row's label "" means a bare line."""
    label = [] if result.answer_label is None else [result.answer_label]
    blocks: list = [(None, [("", line) for line in label + numbers["answer"][1]])]
    for q in result.quantities:
        blocks.append((None, [("", line) for line in _quantity_lines(q, numbers)]))
    rows = [_decision_row(d) for d in result.decisions]
    m = result.smallest_margin
    if m is not None:
        rows.append(("smallest margin", f"best - runner-up {_e(m.value)} at {m.name}"))
    blocks.append((None, rows))
    for f in result.facts:
        if isinstance(f, Table):
            blocks.append((f.label, _table_rows(result, f)))
        elif isinstance(f, Fact) and f.label is not None:
            blocks.append((None, [(f.label, f.shown())]))
    return blocks


def solve_lines(result: SolveResult, numbers: dict | None = None) -> list[str]:
    """The solve as text lines (see the module doc)."""
    lines = [result.title]
    for heading, rows in _blocks(result, _numbers(result) if numbers is None else numbers):
        if heading is not None:
            lines.append(heading)
        lines += [f"{k}: {v}" if k else v for k, v in rows]
    return lines


def solve_html(result: SolveResult) -> str:
    """The solve as an HTML fragment: the title, then one table row per text row (its label in a
    ``<th>``, its text in a ``<td>``)."""
    import html

    esc = html.escape
    cells = []
    for heading, rows in _blocks(result, _numbers(result)):
        if heading is not None:
            cells.append(f'<tr><th colspan="2">{esc(heading.rstrip(":"))}</th></tr>')
        cells += [f"<tr><th>{esc(k)}</th><td>{esc(v)}</td></tr>" for k, v in rows]
    return (f'<section class="solution"><p>{esc(result.title)}</p><table><tbody>' + "".join(cells)
            + "</tbody></table></section>")


def solve_report(result: SolveResult) -> SolveReport:
    """The :class:`Report` (JSON data and text lines) a built-in ``solve`` returns."""
    numbers = _numbers(result)
    return SolveReport(solve_json(result, numbers), solve_lines(result, numbers), result)
