"""The report of any model: margins of the decisions, float value iteration's errors.

Figures, all computed from the exact solution:

* the exact margin best - runner-up of every choice state, on a log scale:
  how close the decisions come to a tie (exact ties are counted apart);
* the float value iteration's error in every state, on a log scale, against
  the smallest exact margin: a decision can only be flipped by rounding where
  the errors reach the margins.
"""

from __future__ import annotations

import math

from ...audit.judge import exact_minus_float
from ...engine import Solution
from ...engine.value_iteration import FloatSolution
from .pieces import Figure, GameReport
from .figures import log10_exact, new_figure

__all__ = ["model_report"]


def _margin_figure(sol: Solution) -> Figure:
    logs = [log10_exact(m) for m in sol.margins.values() if m]
    fig = new_figure(7.0, 4.2)
    ax = fig.add_subplot()
    if logs:
        ax.hist(logs, bins=min(60, max(5, len(logs) // 20)), color="#3b6ea5")
    ax.set_xlabel("log10 exact margin (best - runner-up, in the mover's objective)")
    ax.set_ylabel("choice states")
    ties = len(sol.ties)
    return Figure("margins", "How close the decisions come to a tie",
                  f"{len(logs):,} choice states with a strict best action; {ties:,} exact ties (not drawn). "
                  "Margins far left are decisions a float program can get wrong.", fig)


def _error_figure(sol: Solution, flt: FloatSolution) -> Figure:
    c = sol.components[0]
    errs = []
    for s in range(len(sol.model)):
        if sol.values[s] is None:  # +infinity (never_ending "infinite"): not compared
            continue
        d = abs(float(exact_minus_float(flt.values[s][c], sol.values[s][0])))
        errs.append(-17.0 if d == 0 else math.log10(d))
    fig = new_figure(7.0, 4.2)
    ax = fig.add_subplot()
    ax.plot(range(len(errs)), errs, ".", markersize=2, color="#a5503b")
    small = sol.smallest_margin()
    if small is not None:
        ax.axhline(log10_exact(small[0]), color="#333", linestyle="--", linewidth=1,
                   label="smallest exact margin")
        ax.legend(loc="best")
    ax.set_xlabel("state (in the order the model enumerates them)")
    ax.set_ylabel("log10 |float - exact| (-17: exact)")
    return Figure("float-error", "Float value iteration against the exact values",
                  f"{flt.sweeps} Gauss-Seidel sweeps; largest error 10^{max(errs):.1f}. Errors below the dashed "
                  "line cannot flip any decision.", fig)


def model_report(sol: Solution, flt: FloatSolution, solution, audit) -> GameReport:
    """The page of a model: ``solution`` (its Report) and ``audit`` (its AuditResult) as tables, two figures."""
    return GameReport(title=f"{sol.model.name}: exact solution and float audit", summary=[],
                      figures=[_margin_figure(sol), _error_figure(sol, flt)], audit=audit, solution=solution)
