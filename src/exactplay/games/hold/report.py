"""Figures of the Hold or Continue? report.

1. Exact decision maps: hold or continue over (score c, turn total x) for a
   few opponent scores h, with the states where the published program
   decides otherwise marked.
2. Where the published program's decisions are wrong: per score pair (c, h),
   how many turn totals x it gets wrong; next to it, the states where the
   statement's promised separation ``|p_hold - p_continue| > 1e-5`` fails.
3. Values: the exact ``V(c, h)`` and the published table's ``dp[c][h] - V(c, h)``.
"""

from __future__ import annotations

import math
from fractions import Fraction

from matplotlib.colors import ListedColormap
from matplotlib.patches import Patch

from exactplay.audit.judge import EXACT_TIE
from exactplay.games.hold import SEPARATION, audit_result, run_audit, solve_result
from exactplay.progress import SILENT
from exactplay.present.render.solve import solve_report
from exactplay.present.report import Figure, GameReport
from exactplay.present.report.figures import grid_heatmap, new_figure

DECISION_COLOURS = ListedColormap(["#9ecae1", "#fd8d3c", "#d62728"])  # continue, hold, exact tie


def opponent_scores(target: int) -> list[int]:
    """A few opponent scores to draw: 0, a third, two thirds, and the last query score T - 2."""
    top = target - 2
    return sorted({0, top // 3, (2 * top) // 3, top})


def build(target: int = 75, faces: int = 6, backend: str = "mpq", progress=SILENT) -> GameReport:
    r = run_audit(target, faces, backend, progress)
    ds = r["decisions_seed"]
    wrong = {s for s, best in ds.exact_best.items() if ds.float_choice[s] not in best}
    figures = [_decision_maps(r, target, wrong), _wrong_counts(r, target, wrong), _values(r, target)]
    return GameReport(f"Hold or Continue?, target {target}, {faces} faces", [], figures,
                      audit=audit_result(r, target, faces), solution=solve_report(solve_result(r["exact"], faces)))


def _decision_maps(r: dict, T: int, wrong: set) -> Figure:
    from numpy import ma

    exact, ds = r["exact"], r["decisions_seed"]
    hs = opponent_scores(T)
    cols = 2 if len(hs) > 1 else 1
    rows = math.ceil(len(hs) / cols)
    fig = new_figure(4.6 * cols, 4.4 * rows + 0.6)
    axes = fig.subplots(rows, cols, squeeze=False).ravel()
    top = T - 2
    for ax, h in zip(axes, hs):
        grid = [[math.nan] * (T - 1) for _ in range(top + 1)]  # x = 2..T
        for c in range(top + 1):
            pol = exact.policy[c][h]
            for x in range(2, T - c + 1):
                tie = ds.classes.get((c, h, x)) == EXACT_TIE
                grid[c][x - 2] = 2 if tie else (1 if pol[x - 2] == "H" else 0)
        im = grid_heatmap(ax, ma.masked_invalid(grid), "x: turn total", "c: mover's score",
                          cmap=DECISION_COLOURS, x0=2, y0=0)
        im.set_clim(-0.5, 2.5)
        marks = [(x, c) for (c, hh, x) in wrong if hh == h]
        if marks:
            xs, ys = zip(*marks)
            ax.scatter(xs, ys, s=max(0.5, 600.0 / T), color="black", marker=".", linewidths=0,
                       label="published program decides otherwise")
        ax.set_title(f"opponent score h = {h}  ({len(marks)} published decisions wrong)", fontsize=9)
    for ax in axes[len(hs):]:
        ax.set_visible(False)
    handles = [Patch(color=DECISION_COLOURS(0), label="continue"), Patch(color=DECISION_COLOURS(1), label="hold")]
    if ds.counts[EXACT_TIE]:
        handles.append(Patch(color=DECISION_COLOURS(2), label="exact tie"))
    handles.append(Patch(color="black", label="published program decides otherwise"))
    fig.legend(handles=handles, loc="outside lower center", ncols=len(handles), fontsize=8)
    title = f"Exact optimal decision in every state, target {T}"
    fig.suptitle(title)
    caption = (
        "Orange: hold, blue: continue, for each score c (rows) and turn total x (columns); the boundary moves with "
        "the opponent's score h. Black dots: the published program answers the other way."
    )
    return Figure("decision-maps", title, caption, fig)


def _wrong_counts(r: dict, T: int, wrong: set) -> Figure:
    from numpy import ma

    top = T - 2
    counts = [[0] * (top + 1) for _ in range(top + 1)]
    for c, h, _x in wrong:
        counts[c][h] += 1
    fig = new_figure(11.5, 5.0)
    left, right = fig.subplots(1, 2)
    grid = [[v if v else math.nan for v in row] for row in counts]
    im = grid_heatmap(left, ma.masked_invalid(grid), "h: opponent's score", "c: mover's score", cmap="Reds", x0=0,
                      y0=0)
    fig.colorbar(im, ax=left, label="turn totals x with a wrong published decision")
    left.set_title(f"Published program: {len(wrong)} wrong decisions (blank: none)", fontsize=9)
    ex_c = r["exact_candidates"]
    sep = Fraction(SEPARATION)
    close = [(c, h, x) for (c, h, x), cd in ex_c.items() if abs(Fraction(cd["H"] - cd["C"])) < sep]
    if close:
        gaps = [float(abs(Fraction(ex_c[s]["H"] - ex_c[s]["C"]))) for s in close]
        sc = right.scatter([h for _, h, _ in close], [c for c, _, _ in close],
                           c=[math.log10(g) if g else -20 for g in gaps], cmap="viridis", s=18)
        fig.colorbar(sc, ax=right, label="log10 |p_hold - p_continue| (exact)")
    right.set_xlim(-0.5, top + 0.5)
    right.set_ylim(-0.5, top + 0.5)
    right.set_xlabel("h: opponent's score")
    right.set_ylabel("c: mover's score")
    right.set_title(f"{len(close)} states closer than the promised 1e-5", fontsize=9)
    right.grid(alpha=0.3)
    title = f"Where the published answers fail, target {T}"
    fig.suptitle(title)
    smallest = min(close, key=lambda s: abs(Fraction(ex_c[s]["H"] - ex_c[s]["C"]))) if close else None
    low = sum(1 for c, _h, _x in wrong if c < T // 3)
    caption = (
        f"Left: wrong published answers per score pair (c, h); they pile up at low scores ({low} of {len(wrong)} "
        f"have c < {T // 3}), where the most turn totals remain. Right: {len(close)} query states break the statement's 1e-5 separation"
        + (f"; the closest is {smallest} (c, h, x)." if smallest else ".")
    )
    return Figure("wrong-decisions", title, caption, fig)


def _values(r: dict, T: int) -> Figure:
    exact, seed = r["exact"], r["seed"]
    top = T - 2
    V = [[float(exact.V[c][h]) for h in range(top + 1)] for c in range(top + 1)]
    D = [[seed.dp[c][h] - float(Fraction(exact.V[c][h])) for h in range(top + 1)] for c in range(top + 1)]
    fig = new_figure(11.5, 5.0)
    left, right = fig.subplots(1, 2)
    im = grid_heatmap(left, V, "h: opponent's score", "c: mover's score", cmap="viridis", x0=0, y0=0)
    im.set_clim(0, 1)
    fig.colorbar(im, ax=left, label="V(c, h): mover's winning probability (exact)")
    left.set_title("Exact value at the start of a turn", fontsize=9)
    lim = max(1e-12, max(abs(v) for row in D for v in row))
    im2 = grid_heatmap(right, D, "h: opponent's score", "c: mover's score", cmap="RdBu_r", x0=0, y0=0)
    im2.set_clim(-lim, lim)
    fig.colorbar(im2, ax=right, label="dp[c][h] - V(c, h)")
    right.set_title("Published table minus the exact value", fontsize=9)
    title = f"Start-of-turn values, target {T}"
    fig.suptitle(title)
    vs = r["values_seed"]
    caption = (
        f"Left: the true values. Right: the published table is off by up to {vs.max_abs:.2f} (at {vs.max_abs_at}); "
        "below the diagonal (c < h) it overstates the mover's chance (red), above it understates (blue): its "
        "bisection solves A = f(A), not the game's 2-cycle."
    )
    return Figure("values", title, caption, fig)
