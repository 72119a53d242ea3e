"""Figures of the Chef Showdown report.

With Fibonacci skills the instance of every size ``m = 2..n`` is solved (the
Project Euler sequence ``E(m)``); with ``--skills`` only the given instance.

1. ``E(m)``, exact, and the relative error of the published float solver's
   ``E(m)`` in units of ``2^-53``.
2. The number of states whose best target is exactly tied, per ``m``, under
   the seed's rule (nearest target) and the opposite rule (farthest).
3. The tie-break dependence: ``(E_farthest - E_nearest) / E_nearest`` per ``m``, and
   the winner vector of the largest instance under both rules.
"""

from __future__ import annotations

from fractions import Fraction

from exactplay.games.chefs import cycle
from exactplay.games.chefs import fibonacci_skills, float_skills, instance, solve_exact
from exactplay.numbers.backends import as_fraction
from exactplay.progress import SILENT
from exactplay.present.report import Figure, GameReport
from exactplay.present.report.figures import new_figure

U = Fraction(1, 2**53)


def _sizes(n: int, skills, fib: bool) -> list[tuple[int, tuple]]:
    return [(m, fibonacci_skills(m)) for m in range(2, n + 1)] if fib else [(n, skills)]


def build(n=None, skills=None, backend: str = "mpq", progress=SILENT) -> GameReport:
    n, skills, fib = instance(n, skills)
    rows = []
    for m, sk in _sizes(n, skills, fib):
        near = solve_exact(sk, backend, "nearest", progress)
        far = solve_exact(sk, backend, "farthest", progress)
        flt = cycle.solve(float_skills(sk), "float", progress=progress)
        E, Ef = as_fraction(near.E), as_fraction(far.E)
        rows.append({
            "m": m, "E": E, "E_far": Ef, "float_E": flt.E,
            "rel_err": abs(Fraction(flt.E) - E) / E if E else Fraction(0),
            "ties": len(near.ties), "ties_far": len(far.ties),
            "W": [as_fraction(x) for x in near.W1], "W_far": [as_fraction(x) for x in far.W1],
        })
        del near, far, flt
    last = rows[-1]
    dependent = [r["m"] for r in rows if r["E"] != r["E_far"]]
    what = "Fibonacci skills F_k/F_{m+1}" if fib else "skills " + ",".join(str(s) for s in skills)
    summary = [f"Chef Showdown, {what}; m = {rows[0]['m']}..{last['m']}" if fib else f"Chef Showdown, n = {n}, {what}"]
    for r in rows:
        far = "the same" if r["E"] == r["E_far"] else f"{float(r['E_far']):.12f}"
        summary.append(
            f"  m = {r['m']:2}: E = {float(r['E']):17.12f}  float error {float(r['rel_err'] / U):6.1f} x 2^-53  "
            f"exact ties {r['ties']:6}  E with the farthest tie rule {far}"
        )
    summary.append(
        "E depends on the tie-break rule for m = " + ", ".join(map(str, dependent)) if dependent
        else "E does not depend on the tie-break rule for any m shown"
    )
    figures = [_E_figure(rows, fib), _ties_figure(rows), _dependence_figure(rows)]
    return GameReport(f"Chef Showdown, n = {n}", summary, figures)


def _E_figure(rows, fib: bool) -> Figure:
    ms = [r["m"] for r in rows]
    fig = new_figure(7.0, 6.0)
    top, bottom = fig.subplots(2, 1, sharex=True, height_ratios=(3, 2))
    top.plot(ms, [float(r["E"]) for r in rows], "o-", color="black", label="exact E(m)")
    top.plot(ms, [r["float_E"] for r in rows], "x", color="tab:orange", markersize=9, label="published float solver")
    top.set_yscale("log")
    top.set_ylabel("E(m): expected dishes")
    top.legend(fontsize=8)
    top.grid(alpha=0.3)
    errs = [float(r["rel_err"] / U) for r in rows]
    bottom.bar(ms, errs, color="tab:orange")
    bottom.set_ylabel("|E_float - E| / E\nin units of 2^-53")
    bottom.set_xlabel("m: number of chefs" + (" (Fibonacci skills)" if fib else ""))
    bottom.grid(alpha=0.3, axis="y")
    bottom.set_xticks(ms)
    title = "Expected number of dishes E(m), exact and float"
    top.set_title(title)
    worst = max(rows, key=lambda r: r["rel_err"])
    caption = (
        f"The float values lie on the exact curve; the bars show their relative error, at most "
        f"{float(worst['rel_err'] / U):.1f} units of 2^-53 (m = {worst['m']}), growing with m."
    )
    return Figure("expected-dishes", title, caption, fig)


def _ties_figure(rows) -> Figure:
    ms = [r["m"] for r in rows]
    fig = new_figure(7.0, 4.6)
    ax = fig.add_subplot()
    w = 0.4
    ax.bar([m - w / 2 for m in ms], [r["ties"] for r in rows], width=w, label="nearest target (the seed's rule)")
    ax.bar([m + w / 2 for m in ms], [r["ties_far"] for r in rows], width=w, label="farthest target")
    if any(r["ties"] or r["ties_far"] for r in rows):
        ax.set_yscale("log")
    ax.set_xticks(ms)
    ax.set_xlabel("m: number of chefs")
    ax.set_ylabel("states whose best target is exactly tied")
    ax.legend(fontsize=8)
    ax.grid(alpha=0.3, axis="y")
    title = "Exact ties in the choice of target"
    ax.set_title(title)
    first = next((r["m"] for r in rows if r["ties"]), None)
    caption = (
        f"Exact ties appear from m = {first} on and roughly double with each chef ({rows[-1]['ties']} at "
        f"m = {rows[-1]['m']}); the two rules reach different states, so their counts can differ."
        if first is not None else "No state has an exactly tied best target."
    )
    return Figure("ties", title, caption, fig)


def _dependence_figure(rows) -> Figure:
    ms = [r["m"] for r in rows]
    fig = new_figure(11.0, 4.6)
    left, right = fig.subplots(1, 2)
    rel = [(r["E_far"] - r["E"]) / r["E"] if r["E"] else Fraction(0) for r in rows]
    pct = [100 * float(x) for x in rel]
    left.bar(ms, pct, color=["tab:red" if x else "tab:green" for x in rel])
    left.axhline(0, color="black", linewidth=0.8)
    for m, x in zip(ms, rel):
        if not x:
            left.annotate("same", (m, 0), xytext=(0, 3), textcoords="offset points", ha="center", va="bottom",
                          fontsize=8, color="tab:green", rotation=90)
    left.set_xticks(ms)
    left.set_xlabel("m: number of chefs")
    left.set_ylabel("(E_farthest - E_nearest) / E_nearest  [%]")
    left.grid(alpha=0.3, axis="y")
    left.set_title("Does E(m) depend on the tie-break rule?", fontsize=10)
    left.grid(alpha=0.3)
    last = rows[-1]
    chefs = list(range(1, len(last["W"]) + 1))
    w = 0.4
    right.bar([c - w / 2 for c in chefs], [float(x) for x in last["W"]], width=w, label="nearest target")
    right.bar([c + w / 2 for c in chefs], [float(x) for x in last["W_far"]], width=w, label="farthest target")
    right.set_xticks(chefs)
    right.set_xlabel(f"chef (m = {last['m']}, chef 1 moves first)")
    right.set_ylabel("probability of winning")
    right.set_title("Winner vector under both tie-break rules", fontsize=10)
    right.legend(fontsize=8)
    title = "Tie-break dependence"
    fig.suptitle(title)
    dep = [r["m"] for r in rows if r["E"] != r["E_far"]]
    wdep = last["W"] != last["W_far"]
    if dep:
        caption = (
            f"E(m) changes with the tie-break rule for m = {', '.join(map(str, dep))} (red bars; 'same' where it "
            f"does not): the seed's rule is part of the answer, not an implementation detail. At m = {last['m']} the "
            f"winner vector {'also changes' if wdep else 'does not change'}."
        )
    else:
        caption = ("No E(m) depends on the tie-break rule ('same' everywhere); at m = "
                   f"{last['m']} the winner vector {'does change' if wdep else 'does not change either'}.")
    return Figure("tie-dependence", title, caption, fig)
