"""Figures of the War report: exact values against the published float program.

1. ``Pr(A wins turns 1..t) = sum_d P_t(d)`` for every turn ``t``, exact and
   float, divided by the independent-turns guess ``w^t`` with
   ``w = (n - S) / (2 (n - 1))`` (24/51 for the full deck).
2. The relative error ``|P_float - P| / P`` of every float entry ``P_t(d)``,
   per turn, against the a-priori relative bound ``gamma_L`` of that entry.
"""

from __future__ import annotations

from fractions import Fraction

from exactplay.games.war import solve_result
from exactplay.games.war.audit import audit_result, run_audit
from exactplay.games.war.bound import gamma, rounding_depths
from exactplay.numbers.backends import UNIT_ROUNDOFF, as_fraction, get_backend
from exactplay.present.render.solve import solve_report
from exactplay.progress import SILENT
from exactplay.present.report import Figure, GameReport
from exactplay.present.report.figures import new_figure


def build(ranks: int = 13, suits: int = 4, backend: str = "mpq", progress=SILENT) -> GameReport:
    r = run_audit(ranks, suits, backend, progress)
    figures = [_sweep_by_turn(r, ranks, suits), _relative_errors(r, ranks, suits)]
    return GameReport(f"War in a sweep, {ranks} ranks x {suits} suits", [], figures,
                      audit=audit_result(r, ranks, suits),
                      solution=solve_report(solve_result(ranks, suits, r["exact"], get_backend(backend).name)))


def _sweep_by_turn(r: dict, ranks: int, suits: int) -> Figure:
    """Pr(A wins turns 1..t) divided by the independent-turns guess ``w^t``, exact and float."""
    exact, flt = r["exact"], r["float"]
    n = ranks * suits
    turns = list(range(len(exact)))
    # first-turn win chance: B's card is one of the n - suits of another rank, half of them lower
    w = Fraction(n - suits, 2 * (n - 1)) if n > 1 else Fraction(0)
    w_text = f"{(n - suits) // 2}/{n - 1}" if (n - suits) % 2 == 0 else f"{n - suits}/{2 * (n - 1)}"
    exact_p = [sum(as_fraction(v) for v in P.values()) for P in exact]
    float_p = [Fraction(sum(P.values())) for P in flt]
    fig = new_figure(7.0, 5.0)
    ax = fig.add_subplot()
    if w:
        ax.plot(turns, [float(x / w**t) for t, x in enumerate(exact_p)], "o-", color="black", markersize=4,
                label="exact (rational)")
        ax.plot(turns, [float(y / w**t) for t, y in enumerate(float_p)], "x", color="tab:orange", markersize=8,
                label="published float program")
        ax.axhline(1.0, color="tab:green", linestyle=":", label=f"independent turns: ({w_text})^t")
    ax.set_xlabel("turn t")
    ax.set_ylabel(f"Pr(A wins turns 1..t) / ({w_text})^t")
    title = f"A's chance to win the first t turns, against independent turns ({ranks} ranks x {suits} suits)"
    ax.set_title(title, fontsize=10)
    if w:
        ax.legend(fontsize=8)
    else:  # one rank: no turn can be won, nothing to plot
        ax.text(0.5, 0.5, "A cannot win a turn: every card has the same rank", transform=ax.transAxes, ha="center")
    ax.grid(alpha=0.3)
    last = len(exact) - 1
    ratio = float(exact_p[-1] / w**last) if w else float("nan")
    coin = float(Fraction(1, 2) ** last / exact_p[-1]) if exact_p[-1] else float("nan")
    caption = (
        f"The float crosses sit on the exact dots (relative error {r['p_rel_error']:.1e} at the end); treating the "
        f"turns as independent is off by the factor {ratio:.4f} after {last} turns, the coin-toss guess (1/2)^t "
        f"by the factor {coin:.2f}."
    )
    return Figure("sweep-by-turn", title, caption, fig)


def _relative_errors(r: dict, ranks: int, suits: int) -> Figure:
    exact, flt = r["exact"], r["float"]
    depths = rounding_depths(ranks, suits)
    xs, ys, bound_t, bound_v = [], [], [], []
    zero = 0
    for t, P in enumerate(exact):
        worst_bound = 0.0
        for d, x in P.items():
            xf = as_fraction(x)
            rel = float(abs(Fraction(flt[t][d]) - xf) / xf) if xf else 0.0
            worst_bound = max(worst_bound, gamma(depths[t][d]))
            if rel == 0:
                zero += 1
                continue
            xs.append(t)
            ys.append(rel)
        if t:
            bound_t.append(t)
            bound_v.append(worst_bound)
    fig = new_figure(7.0, 5.0)
    ax = fig.add_subplot()
    ax.scatter(xs, ys, s=8, alpha=0.5, color="tab:orange", label="float entry P_t(d) (one dot per deck d)")
    ax.plot(bound_t, bound_v, "-", color="red", label="a-priori bound gamma_L (largest L of the turn)")
    ax.axhline(UNIT_ROUNDOFF, color="grey", linestyle=":", label="unit roundoff 2^-53")
    ax.set_yscale("log")
    ax.set_xlabel("turn t")
    ax.set_ylabel("|P_float - P_exact| / P_exact")
    title = f"Relative error of every float table entry ({ranks} ranks x {suits} suits)"
    ax.set_title(title)
    ax.legend(fontsize=8, loc="lower right")
    ax.grid(alpha=0.3)
    caption = (
        f"Every dot stays under the red bound ({r['entries_over_bound']} exceptions; worst error/bound "
        f"{r['worst_error_over_bound']:.2f}); the largest relative error is {max(ys, default=0.0) / UNIT_ROUNDOFF:.1f} "
        f"units of 2^-53, far below the bound. "
        f"{zero} exact {'entry is' if zero == 1 else 'entries are'} not drawn."
    )
    return Figure("relative-errors", title, caption, fig)
