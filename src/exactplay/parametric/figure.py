"""Figures of a parametric solution: the value and each choice state's margin against the parameter.

Every plotted point is an exact rational function evaluated exactly at a rational ``p`` and only
then rounded to a float for drawing; breakpoints are drawn at their exact decimals.
"""

from __future__ import annotations

import math
from fractions import Fraction

from ..present.report import Figure
from ..present.report.figures import log10_exact, new_figure
from .regions import ParametricSolution
from .roots import Algebraic

__all__ = ["value_figure", "margin_figure"]

POINTS = 400  # sample points over the whole range


def _end(e) -> Fraction:
    if isinstance(e, Algebraic):
        return Fraction(e.decimal(12))
    return e


def _grid(ps: ParametricSolution):
    """Per region: the rational sample points strictly inside it."""
    lo, hi = ps.lo, ps.hi
    step = (hi - lo) / POINTS
    xs = [lo + step * (k + Fraction(1, 2)) for k in range(POINTS)]
    out = []
    for r in ps.regions:
        a, b = _end(r.lo), _end(r.hi)
        inside = [x for x in xs if a < x < b] or [r.sample]
        out.append(inside)
    return out


def _breaklines(ax, ps: ParametricSolution) -> None:
    for k, b in enumerate(ps.breakpoints):
        ax.axvline(float(_end(b.point)), color="#b3261e", linestyle="--", linewidth=0.8,
                   label="breakpoint" if k == 0 else None)


def value_figure(ps: ParametricSolution, comp: int | None = None) -> Figure:
    comp = ps.value_component() if comp is None else comp
    pm = ps.model
    fig = new_figure(7.0, 4.4)
    ax = fig.add_subplot()
    for k, (r, xs) in enumerate(zip(ps.regions, _grid(ps))):
        v = r.values[0][comp]
        ax.plot([float(x) for x in xs], [float(v.at(x)) for x in xs], "-", linewidth=1.6,
                color=f"C{k % 10}")
    _breaklines(ax, ps)
    ax.set_xlabel(pm.symbol)
    ax.set_ylabel(f"value to {pm.player_names[ps.components[comp]]}")
    if ps.breakpoints:
        ax.legend(loc="best")
    return Figure("value", f"The value of the initial state against {pm.symbol}",
                  f"{len(ps.regions)} region(s) of constant optimal policy (one colour each), "
                  f"{len(ps.breakpoints)} breakpoint(s) (dashed) where some state's best action flips.", fig)


def margin_figure(ps: ParametricSolution, max_states: int = 40) -> Figure:
    """Per choice state: the margin of its action over the runner-up, ``min_a margin_a(p)``."""
    pm = ps.model
    states = sorted({s for r in ps.regions for s in r.margins})
    fig = new_figure(7.0, 4.4)
    ax = fig.add_subplot()
    shown = states[:max_states]
    grids = _grid(ps)
    for i, s in enumerate(shown):
        xs_all, ys_all = [], []
        for r, xs in zip(ps.regions, grids):
            row = r.margins.get(s, {})
            for x in xs:
                m = min((m.at(x) for m in row.values()), default=None)
                xs_all.append(float(x))
                ys_all.append(math.nan if not m or m <= 0 else log10_exact(m))
            xs_all.append(math.nan)
            ys_all.append(math.nan)
        ax.plot(xs_all, ys_all, "-", linewidth=0.8, color=f"C{i % 10}", alpha=0.8)
    _breaklines(ax, ps)
    ax.set_xlabel(pm.symbol)
    ax.set_ylabel("log10 margin: chosen action - runner-up")
    if ps.breakpoints:
        ax.legend(loc="best")
    more = f" (the first {max_states} of {len(states)} drawn)" if len(states) > max_states else ""
    return Figure("margins", f"Each choice state's margin against {pm.symbol}",
                  f"{len(states)} choice state(s){more}; a margin falls to 0 (off the log scale) where that state's "
                  "best action flips. Exact ties (margin 0 on a whole region) are not drawn.", fig)
