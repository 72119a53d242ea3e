"""Figures of the Race report.

1. The optimal ``T`` over the positions ``(a, b)``.
2. The published float program's error in ``F(a, b)``, in ulps of its value:
   ``|F_float - F| / ulp(F_float)``, the exact difference rounded once.
3. ``log10`` of the exact gap between the best and the runner-up candidate
   ``F_t(a, b)``, with the cells whose gap is at most the flip threshold
   ``2 x bound`` (float-unresolvable) and the exact ties marked.
"""

from __future__ import annotations

import math

from exactplay.audit.judge import EXACT_TIE, UNRESOLVABLE, WRONG, exact_minus_float
from exactplay.games.race import audit_result, run_audit, solve_result
from exactplay.present.render.solve import solve_report
from exactplay.progress import SILENT
from exactplay.present.report import Figure, GameReport
from exactplay.present.report.figures import discrete_map, grid_heatmap, log10_exact, new_figure

AXES = ("b: points Player 2 still needs", "a: points Player 1 still needs")


def build(target: int = 100, backend: str = "mpq", progress=SILENT) -> GameReport:
    r = run_audit(target, backend, progress=progress)
    exact, flt, values, decisions = r["exact"], r["float"], r["values"], r["decisions"]
    N = target
    figures = [
        _optimal_t(exact, N),
        _float_ulps(exact, flt, values, N),
        _gap_map(decisions, N),
    ]
    return GameReport(f"The Race (Project Euler 232), target {N}", [], figures, audit=audit_result(r),
                      solution=solve_report(solve_result(exact)))


def _optimal_t(exact, N: int) -> Figure:
    grid = [[exact.best_t[(a, b)] for b in range(1, N + 1)] for a in range(1, N + 1)]
    cmap, norm, vs = discrete_map([t for row in grid for t in row])
    fig = new_figure()
    ax = fig.add_subplot()
    im = grid_heatmap(ax, grid, *AXES, cmap=cmap, norm=norm)
    cb = fig.colorbar(im, ax=ax, ticks=vs)
    cb.set_label("optimal T (smallest on exact ties)")
    title = f"Optimal number of tosses T in every position, target {N}"
    ax.set_title(title)
    share = {t: sum(row.count(t) for row in grid) for t in vs}
    top = max(vs)
    if len(vs) == 1:
        caption = f"Player 2 tosses T = {top} in every position."
    else:
        caption = (
            f"Read across a row: the further Player 2 is behind (large b, small a) the larger the gamble; "
            f"T = {vs[0]} in {share[vs[0]]} of {N * N} cells, the largest T = {top} in {share[top]}."
        )
    return Figure("optimal-t", title, caption, fig)


def _float_ulps(exact, flt, values, N: int) -> Figure:
    grid = []
    for a in range(1, N + 1):
        row = []
        for b in range(1, N + 1):
            y = flt.F[a][b]
            err = abs(float(exact_minus_float(y, exact.F[a][b])))
            row.append(err / math.ulp(y))
        grid.append(row)
    fig = new_figure()
    ax = fig.add_subplot()
    im = grid_heatmap(ax, grid, *AXES, cmap="magma")
    cb = fig.colorbar(im, ax=ax)
    cb.set_label("|F_float - F_exact| in ulps of F_float")
    title = f"Rounding error of the published float program in F(a, b), target {N}"
    ax.set_title(title)
    exact_cells = sum(1 for row in grid for e in row if e == 0)
    caption = (
        f"Bright cells carry the largest error: at most {values.max_ulps:.2f} ulps (at {values.max_ulps_at}); "
        f"{exact_cells} of {N * N} float values are exact"
        + (", that is all of them." if values.bound_ratio is None else
           f", and the largest absolute error {values.max_abs:.2e} is {values.bound_ratio:.0f} times below the "
           "a-priori bound.")
    )
    return Figure("float-ulps", title, caption, fig)


def _gap_map(decisions, N: int) -> Figure:
    # numpy comes with matplotlib; only its masked arrays are used, for the blank cells
    from matplotlib.lines import Line2D
    from numpy import ma

    grid = [[math.nan] * N for _ in range(N)]
    unresolvable, ties, wrong = [], [], []
    for (a, b), gap in decisions.gaps.items():
        cls = decisions.classes[(a, b)]
        grid[a - 1][b - 1] = log10_exact(gap) if gap != 0 else math.nan
        if cls == UNRESOLVABLE:
            unresolvable.append((b, a))
        elif cls == EXACT_TIE:
            ties.append((b, a))
        elif cls == WRONG:
            wrong.append((b, a))
    fig = new_figure()
    ax = fig.add_subplot()
    im = grid_heatmap(ax, ma.masked_invalid(grid), *AXES, cmap="viridis")
    cb = fig.colorbar(im, ax=ax)
    threshold = math.log10(decisions.flip_threshold)
    cb.set_label("log10(exact best - runner-up)")
    cb.ax.axhline(threshold, color="red", linewidth=2)
    marker = max(0.5, min(12.0, 200.0 / N))
    for cells, style, label in (
        (unresolvable, dict(marker=".", color="black", linewidths=0),
         f"float-unresolvable: gap <= 2 x bound ({len(unresolvable)})"),
        (ties, dict(marker="x", color="red"), f"exact tie ({len(ties)})"),
        (wrong, dict(marker="o", color="red"), f"float choice wrong ({len(wrong)})"),
    ):
        if cells:
            xs, ys = zip(*cells)
            ax.scatter(xs, ys, s=marker if style["marker"] == "." else 4 * marker, label=label, **style)
    if N > 1 and any(not math.isnan(v) for row in grid for v in row):
        ax.contour(range(1, N + 1), range(1, N + 1), ma.masked_invalid(grid), levels=[threshold],
                   colors="red", linewidths=1.2, linestyles="solid")
        handles, labels = ax.get_legend_handles_labels()
        handles.append(Line2D([], [], color="red", linewidth=1.2))
        labels.append(f"gap = 2 x bound = {decisions.flip_threshold:.1e}")
        ax.legend(handles, labels, loc="lower right", fontsize=8, framealpha=0.9, markerscale=3)
    title = f"Exact gap between the best and the second-best T, target {N}"
    ax.set_title(title)
    smallest = decisions.smallest_gap
    if smallest is None:
        caption = "No position offers a choice."
    elif unresolvable:
        caption = (
            f"Dotted cells, beyond the red line, have a gap below the flip threshold {decisions.flip_threshold:.1e} "
            f"(red mark on the colour bar): rounding alone could reorder the two best T there, yet the float pick "
            f"is an exact best in {decisions.unresolvable_on_best} of {len(unresolvable)}; smallest gap "
            f"{float(smallest):.1e} at {decisions.smallest_gap_at}."
        )
    else:
        caption = (
            f"Every gap is above the flip threshold {decisions.flip_threshold:.1e} (red mark on the colour bar), so "
            f"every float decision is certified; the smallest, {float(smallest):.1e}, is at {decisions.smallest_gap_at}."
        )
    if ties or wrong:
        caption += f" Red marks: {len(ties)} exact ties, {len(wrong)} wrong float choices."
    return Figure("decision-gap", title, caption, fig)
