"""How the API's results show themselves: a ``repr`` of a few hundred characters whatever the size, and
a compact HTML table for notebooks (``_repr_html_``).

Exact numbers of many digits are cut in the middle (``123456...890123/...``, with their digit
counts); every text is HTML-escaped.

>>> short_number(Fraction(10**40 + 1, 3))
'100000000000...000000000001/3 (41 digits / 1)'
>>> html_table("t", [("a", "<b>")])
'<table class="exactplay"><caption>t</caption><tr><th style="text-align:left">a</th><td style="text-align:left">&lt;b&gt;</td></tr></table>'
"""

from __future__ import annotations

import html
import math
from fractions import Fraction
from typing import Any, Iterable

__all__ = ["short_number", "short_text", "html_table", "solution_repr", "solution_html", "audit_repr", "audit_html",
           "check_html"]


def short_text(text: str, keep: int = 30) -> str:
    """``text`` cut in its middle past ``2 * keep + 3`` characters.

    >>> short_text("x" * 100, 3)
    'xxx...xxx'
    """
    return text if len(text) <= 2 * keep + 3 else f"{text[:keep]}...{text[-keep:]}"


def short_number(x: Any) -> str:
    """An exact number as ``p/q`` (long ones cut, with their digit counts), or ``inf``."""
    if x is None or x == math.inf:
        return "inf"
    if not isinstance(x, Fraction):
        x = Fraction(x)
    num, den = str(x.numerator), str(x.denominator)
    if len(num) + len(den) <= 40:
        return f"{num}/{den}"
    from ..present.render import shorten

    digits = len(num.lstrip("-"))
    return f"{shorten(num)}/{shorten(den)} ({digits} digits / {len(den)})"


def html_table(caption: str, rows: Iterable[tuple[str, str]]) -> str:
    """A two-column table: each row a label and a text (both escaped)."""
    left = 'style="text-align:left"'
    body = "".join(f"<tr><th {left}>{html.escape(k)}</th><td {left}>{html.escape(v)}</td></tr>" for k, v in rows)
    return f'<table class="exactplay"><caption>{html.escape(caption)}</caption>{body}</table>'


# ------------------------------------------------------------ Solution

def _policy_summary(sol) -> str:
    """The initial state's action and how often each action is chosen."""
    from collections import Counter

    pol = sol.policy
    if not len(pol):
        return "no player moves (chance only)"
    counts = Counter(map(repr, pol.values())) if len(pol) <= 200_000 else None
    first = pol.get(sol.initial, None) if sol.initial in pol else None
    head = f"{first!r} at the initial state; " if first is not None else ""
    if counts is None:
        return f"{head}{len(pol):,} states with a mover"
    top = ", ".join(f"{a} {n:,}" for a, n in counts.most_common(4))
    return f"{head}{len(pol):,} states with a mover: {top}{', ...' if len(counts) > 4 else ''}"


def _ties(sol) -> str:
    ties = sol.ties
    if not len(ties):
        return "none"
    first = ", ".join(short_text(repr(s), 30) for s in list(ties)[:3])
    return f"{len(ties):,} states ({first}{', ...' if len(ties) > 3 else ''})"


def _smallest(sol) -> str:
    m = sol.smallest_margin
    return "none" if m is None else f"{float(m[0]):.3e} at {short_text(repr(m[1]), 40)}"


def solution_rows(sol) -> list[tuple[str, str]]:
    return [
        ("game", short_text(sol.source.shown, 60)),
        ("states", f"{len(sol):,} ({len(sol.engine.margins):,} with a choice)"),
        ("answer", short_text(sol.answer, 60)),
        ("value", short_number(sol.value)),
        ("decimal", sol.decimal(8)),
        ("policy", short_text(_policy_summary(sol), 80)),
        ("ties", _ties(sol)),
        ("smallest margin", _smallest(sol)),
        ("witness", sol.witness),
    ]


def solution_repr(sol) -> str:
    """``<Solution of GAME: ANSWER = VALUE (DECIMAL), N states, ...>``, at most about 400 characters."""
    return (f"<Solution of {short_text(sol.source.shown, 40)}: {short_text(sol.answer, 40)} = {short_number(sol.value)} "
            f"({sol.decimal(8)}); {len(sol):,} states, {len(sol.engine.margins):,} with a choice, "
            f"{len(sol.engine.ties):,} ties, smallest margin {_smallest(sol)}>")


def solution_html(sol) -> str:
    return html_table("exactplay solution", solution_rows(sol))


# ------------------------------------------------------------ Audit

def _measure(x: float | None, at: Any) -> str:
    if x is None:
        return "none"
    return f"{x:.3e} at {short_text(repr(at), 40)}"


def audit_rows(a) -> list[tuple[str, str]]:
    c = a.counts
    rows = [
        ("game", short_text(a.solution.source.shown, 60)),
        ("under audit", short_text(a.what, 80)),
        ("answer", f"exact {a.exact_decimal}, float {a.float_value!r} prints {a.float_decimal} "
                   f"({'agree' if a.digits_agree else 'DIFFER'})"),
        ("max abs error", _measure(a.max_abs_error, a.max_abs_error_at)),
        ("max rel error", _measure(a.max_rel_error, a.max_rel_error_at)),
        ("max ulps", _measure(a.max_ulps, a.max_ulps_at)),
        ("bound", "none (a-priori bound not given)" if a.bound is None else f"{a.bound:.3e}"),
        ("decisions", f"certified {c['certified']:,}, wrong {c['wrong']:,}, ties {c['ties']:,}, "
                      f"unresolved {c['unresolved']:,}"),
    ]
    if a.wrong:
        rows.append(("wrong", ", ".join(short_text(repr(s), 30) for s in a.wrong[:3])
                     + (", ..." if len(a.wrong) > 3 else "")))
    return rows


def audit_repr(a) -> str:
    c = a.counts
    return (f"<Audit of {short_text(a.solution.source.shown, 40)}: max abs error {_measure(a.max_abs_error, a.max_abs_error_at)}"
            f"; decisions certified {c['certified']:,}, wrong {c['wrong']:,}, ties {c['ties']:,}, unresolved "
            f"{c['unresolved']:,}; answer digits {'agree' if a.digits_agree else 'DIFFER'}>")


def audit_html(a) -> str:
    return html_table("exactplay audit", audit_rows(a))


# ------------------------------------------------------------ check

def check_html(results) -> str:
    rows = [("ok" if r.ok else "FAIL", short_text(r.message.replace("\n", " "), 200)) for r in results]
    failed = sum(not r.ok for r in results)
    caption = f"exactplay check: {len(rows) - failed} of {len(rows)} verified" if not failed else \
        f"exactplay check: {failed} of {len(rows)} FAILED"
    return html_table(caption, rows)
