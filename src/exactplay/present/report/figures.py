"""Drawing helpers shared by the per-game figure modules: matplotlib ``Figure`` objects saved by
their own canvas (Agg for PNG), no pyplot and no change to matplotlib's backend for the process."""

from __future__ import annotations

import math
from fractions import Fraction

import matplotlib
from matplotlib.colors import BoundaryNorm, ListedColormap
from matplotlib.figure import Figure

from ...numbers.backends import as_fraction


def new_figure(width: float = 7.0, height: float = 5.6) -> Figure:
    """A figure with constrained layout, not attached to any GUI."""
    return Figure(figsize=(width, height), layout="constrained")


def log10_exact(x) -> float:
    """``log10(x)`` of an exact positive rational, without underflow (``-inf`` for 0)."""
    f = as_fraction(x) if not isinstance(x, Fraction) else x
    if f == 0:
        return -math.inf
    return math.log10(abs(f.numerator)) - math.log10(f.denominator)


def grid_heatmap(ax, grid, x_label: str, y_label: str, cmap="viridis", norm=None, x0: int = 1, y0: int = 1):
    """``grid[i][j]`` drawn at x = x0 + j, y = y0 + i (origin at the lower left)."""
    rows, cols = len(grid), len(grid[0])
    im = ax.imshow(
        grid,
        origin="lower",
        aspect="auto" if rows != cols else "equal",
        interpolation="nearest",
        cmap=cmap,
        norm=norm,
        extent=(x0 - 0.5, x0 + cols - 0.5, y0 - 0.5, y0 + rows - 0.5),
    )
    ax.set_xlabel(x_label)
    ax.set_ylabel(y_label)
    return im


def discrete_map(values):
    """A colormap and norm giving each integer in ``values`` its own colour."""
    vs = sorted(set(values))
    base = matplotlib.colormaps["tab10" if len(vs) <= 10 else "tab20"]
    cmap = ListedColormap([base(i) for i in range(len(vs))])
    bounds = [v - 0.5 for v in vs] + [vs[-1] + 0.5]
    if len(vs) > 1 and vs != list(range(vs[0], vs[-1] + 1)):  # gaps between the values
        bounds = [vs[0] - 0.5] + [(a + b) / 2 for a, b in zip(vs, vs[1:])] + [vs[-1] + 0.5]
    return cmap, BoundaryNorm(bounds, cmap.N), vs
