"""Figures of the coin-row report.

1. The optimal line of play: the row of coins, coloured by the player who
   takes each one, numbered in the order they are taken.
2. The exact values ``V(i, j)`` against the seed's two float programs: the
   error ``|V_float(i, j) - V(i, j)|`` over the states ``i <= j``.
3. The exact choice (left / right / tie) in every state, with the states
   where a float program decides differently or by rounding marked.
"""

from __future__ import annotations

import math
from fractions import Fraction

from matplotlib.colors import ListedColormap
from matplotlib.patches import Patch

from exactplay.audit.judge import CERTIFIED, EXACT_TIE
from exactplay.errors import UsageError
from exactplay.games.coins import solve_result
from exactplay.games.coins.audit import audit_result, run_audit
from exactplay.games.coins.row import LEFT, RIGHT, resolve_row
from exactplay.games.coins.seed import upper_map
from exactplay.games.coins.solver import line_of_play
from exactplay.numbers.backends import as_fraction
from exactplay.progress import SILENT
from exactplay.present.render.solve import solve_report
from exactplay.present.report import Figure, GameReport
from exactplay.present.report.figures import grid_heatmap, log10_exact, new_figure

FORMULATIONS = (("min", "first DP: V[i] + min(...)"), ("sum", "second DP: Sum - C(...)"))
PLAYER_COLOURS = ("tab:blue", "tab:orange")


def _show(x) -> str:
    f = as_fraction(x)
    return str(f.numerator) if f.denominator == 1 else f"{float(f):g}" if len(str(f)) > 9 else str(f)


def build(coins=None, file=None, backend: str = "mpq", progress=SILENT) -> GameReport:
    row = resolve_row(coins, file)
    if len(row) < 2:
        raise UsageError("a report needs at least two coins (with one there is no choice to draw)")
    r = run_audit(row, backend, progress=progress)
    exact = r["exact"]
    figures = [_line_of_play(exact), _float_errors(r, row), _decisions(r)]
    return GameReport(f"Coin row, {exact.n} coins", [], figures, audit=audit_result(row, r),
                      solution=solve_report(solve_result(row, exact)))


def _line_of_play(exact) -> Figure:
    moves = line_of_play(exact)
    n = exact.n
    values = [float(as_fraction(c)) for c in exact.coins]
    order = {m["position"]: m for m in moves}
    fig = new_figure(max(6.0, min(14.0, 0.35 * n + 3)), 4.6)
    ax = fig.add_subplot()
    for pos in range(n):
        m = order[pos]
        ax.bar(pos, values[pos], color=PLAYER_COLOURS[m["player"] - 1], edgecolor="black", linewidth=0.4,
               hatch="//" if m["tie"] else None)
        if n <= 40:
            ax.annotate(str(m["move"]), (pos, values[pos]), xytext=(0, 2), textcoords="offset points",
                        ha="center", va="bottom", fontsize=8)
    handles = [Patch(color=PLAYER_COLOURS[0], label="taken by player 1 (moves first)"),
               Patch(color=PLAYER_COLOURS[1], label="taken by player 2")]
    if any(m["tie"] for m in moves):
        handles.append(Patch(facecolor="white", edgecolor="black", hatch="//", label="tie: the other end as good"))
    fig.legend(handles=handles, fontsize=8, loc="outside lower center", ncols=len(handles))
    ax.set_xlabel("position in the row (0-based)")
    ax.set_ylabel("coin value")
    ax.margins(y=0.15)
    title = f"Optimal line of play, {n} coins"
    ax.set_title(title)
    first = sum((as_fraction(m["coin"]) for m in moves if m["player"] == 1), Fraction(0))
    caption = (
        f"Blue coins go to the first player ({_show(first)} in all, the guaranteed value); "
        + ("the numbers give the order in which the coins are taken" if n <= 40 else "colours give the owner")
        + _ties_text(sum(m["tie"] for m in moves))
    )
    return Figure("line-of-play", title, caption, fig)


def _ties_text(k: int) -> str:
    if k == 0:
        return "; no move along this line is a tie."
    return f"; {k} move{'s are ties and take' if k > 1 else ' is a tie and takes'} the left coin (hatched)."


def _error_grid(exact, M) -> list:
    fmap = upper_map(M)
    n = exact.n
    grid = [[math.nan] * n for _ in range(n)]
    for (i, j), x in exact.V.items():
        err = abs(Fraction(fmap[(i, j)]) - as_fraction(x))
        grid[i][j] = log10_exact(err) if err else math.nan
    return grid


def _float_errors(r: dict, row) -> Figure:
    from numpy import ma

    from exactplay.games.coins.seed import seed_dp_min, seed_dp_sum

    exact = r["exact"]
    n = exact.n
    fig = new_figure(11.0, 5.0)
    axes = fig.subplots(1, 2, sharey=True)
    grids = [_error_grid(exact, seed_dp_min(row, "float")[1]), _error_grid(exact, seed_dp_sum(row, "float")[1])]
    finite = [v for g in grids for rw in g for v in rw if not math.isnan(v)]
    vmin, vmax = (min(finite), max(finite)) if finite else (-17.0, -15.0)
    if vmin == vmax:
        vmin, vmax = vmin - 0.5, vmax + 0.5
    im = None
    for ax, grid, (key, name) in zip(axes, grids, FORMULATIONS):
        im = grid_heatmap(ax, ma.masked_invalid(grid), "j: last coin of the row (0-based)",
                          "i: first coin of the row (0-based)", cmap="magma", x0=0, y0=0)
        im.set_clim(vmin, vmax)
        exact_cells = sum(1 for rw in grid for v in rw if math.isnan(v)) - n * (n - 1) // 2
        ax.set_title(f"{name}\n{exact_cells} of {len(exact.V)} float values exact (blank)", fontsize=9)
    fig.colorbar(im, ax=list(axes), label="log10 |V_float(i,j) - V(i,j)|")
    title = f"Float error of the seed's two programs in every state, {n} coins"
    fig.suptitle(title)
    a, b = r["min"], r["sum"]
    if not finite:
        caption = ("Every float value of both programs is exact here (blank panels): with these coins no "
                   "operation rounds.")
    else:
        caption = (
            f"Only states i <= j exist (lower right triangle); blank cells are exact. Largest errors: "
            f"{a['values'].max_abs:.1e} (first DP, bound {a['bound']:.1e}) and {b['values'].max_abs:.1e} "
            f"(second DP, bound {b['bound']:.1e}); the answer errors are {a['answer_error']:.1e} and "
            f"{b['answer_error']:.1e}."
        )
    return Figure("float-errors", title, caption, fig)


def _decisions(r: dict) -> Figure:
    from numpy import ma

    exact = r["exact"]
    n = exact.n
    code = {LEFT: 0, RIGHT: 1, "tie": 2}
    grid = [[math.nan] * n for _ in range(n)]
    for (i, j), c in exact.choice.items():
        if i < j:
            grid[i][j] = code[c]
    fig = new_figure(8.4, 5.6)
    ax = fig.add_subplot()
    cmap = ListedColormap(["#9ecae1", "#fdae6b", "#d62728"])
    im = grid_heatmap(ax, ma.masked_invalid(grid), "j: last coin of the row (0-based)",
                      "i: first coin of the row (0-based)", cmap=cmap, x0=0, y0=0)
    im.set_clim(-0.5, 2.5)
    handles = [Patch(color=cmap(k), label=lab) for k, lab in
               enumerate(("take the left coin", "take the right coin", "exact tie"))]
    marks = (("min", dict(marker="x", color="black"), "first DP"),
             ("sum", dict(marker="o", facecolors="none", edgecolors="purple", linewidths=1.2), "second DP"))
    flagged: set = set()
    for key, style, name in marks:
        a = r[key]
        states = set(a["flipped"]) | set(a["ties_broken_by_rounding"]) | set(a["float_ties_not_exact"]) | {
            s for s, c in a["decisions"].classes.items() if c not in (CERTIFIED, EXACT_TIE)}
        flagged |= states
        if states:
            ys, xs = zip(*sorted(states))
            size = max(4.0, 400.0 / n) * (3 if style["marker"] == "o" else 1)
            ax.scatter(xs, ys, s=size, **style,
                       label=f"{name}: float choice\nnot certified ({len(states)})")
    h2, _ = ax.get_legend_handles_labels()
    fig.legend(handles=handles + h2, fontsize=8, loc="outside right upper")
    title = f"Exact optimal choice in every state, {n} coins"
    ax.set_title(title)
    ties = len(exact.ties())
    caption = (
        f"Each cell is a row of coins i..j with the player to move choosing an end; red cells ({ties}) are exact ties. "
        + (f"Marked cells ({len(flagged)}) are where a float program's choice is not certified by the exact values."
           if flagged else "No float decision differs from the exact one or depends on rounding.")
    )
    return Figure("decisions", title, caption, fig)
