"""Parametric solving: the largest sizes that fit in a CPU budget, and where the time goes.

    PYTHONPATH=src python benchmarks/parametric.py [--budget 60] [--check] [--family race|pig|chefs]
    PYTHONPATH=src python benchmarks/parametric.py --isolation     # flint against sympy, side by side

For each family the size grows until one run takes more than the budget (CPU seconds of the
whole parametric solve: enumeration, exact engine solves at the sample points, policy
evaluation over Q(p), factoring the margins' numerators, isolating their roots).  Each run is a
separate process with a wall-clock limit of 12 times the budget (a shared machine).  Columns: states, regions,
breakpoints, the largest degree of a value's rational function, the CPU seconds of each phase
and their share.  ``--check`` also times the stdlib checker on the certificate.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time

FAMILIES = {
    "race": ("exactplay.games.race.model:make_game", "target", [2, 3, 4, 5, 6, 7, 8, 9, 10, 12]),
    "pig": ("examples/pig_loaded.py:make_game", "goal", [4, 6, 8, 10, 12, 14, 16, 20, 24]),
    "chefs": ("exactplay.games.chefs.model:make_game", "n", [3, 4, 5, 6, 7, 8]),
}


def one(spec: str, key: str, size: int, check: bool) -> dict:
    """Runs in the child process: one parametric solve, its phases timed."""
    from exactplay.model.load import make_game
    from exactplay.parametric.build import build_parametric
    from exactplay.parametric.interval import check_range, default_range
    from exactplay.parametric.poly import Param
    from exactplay.parametric.regions import solve_parametric

    t0 = time.process_time()
    pm = build_parametric(make_game(spec, {key: size, "p": Param.symbol()}))
    lo, hi = default_range(pm)
    check_range(pm, lo, hi)
    t1 = time.process_time()
    ps = solve_parametric(pm, lo, hi)
    t2 = time.process_time()
    out = {"size": size, "states": len(pm), "regions": len(ps.regions), "breakpoints": len(ps.breakpoints),
           "max_degree": ps.stats["max_value_degree"], "isolated_roots": ps.stats["isolated_roots"],
           "build_range": t1 - t0, "solve": t2 - t1, "total": t2 - t0, **ps.stats["seconds"]}
    if check:
        from exactplay.checker.parametric import verify
        from exactplay.parametric.certificate import parametric_certificate

        text = json.dumps(parametric_certificate(ps))
        t3 = time.process_time()
        verify(json.loads(text))
        out["check"] = time.process_time() - t3
        out["cert_mb"] = len(text) / 1e6
    return out


def isolation(spec: str, key: str, size: int) -> None:
    """Root isolation of every margin factor of one solve: flint's Descartes bisection and sympy's
    continued fractions on the same factors, side by side (and the same roots found)."""
    from fractions import Fraction

    from exactplay.model.load import make_game
    from exactplay.parametric.build import build_parametric
    from exactplay.parametric.interval import default_range
    from exactplay.parametric.poly import Param
    from exactplay.parametric.regions import solve_parametric
    from exactplay.parametric.roots import irreducible_factors, roots_of_irreducible

    pm = build_parametric(make_game(spec, {key: size, "p": Param.symbol()}))
    lo, hi = default_range(pm)
    ps = solve_parametric(pm, lo, hi)
    factors = irreducible_factors(m.num for r in ps.regions for row in r.margins.values() for m in row.values() if m)
    times, counts = {}, {}
    for method in ("flint", "sympy"):
        t = time.process_time()
        counts[method] = sum(len(roots_of_irreducible(h, Fraction(lo), Fraction(hi), method)) for h in factors)
        times[method] = time.process_time() - t
    deg = max(h.degree() for h in factors)
    print(f"{spec.split(':')[0]} {key}={size}: {len(factors)} irreducible factors (degree <= {deg}), "
          f"{counts['flint']} roots in ({lo}, {hi}); flint {times['flint']:.2f} s, sympy {times['sympy']:.2f} s CPU, "
          f"sympy / flint = {times['sympy'] / max(times['flint'], 1e-9):.0f}"
          + ("" if counts["flint"] == counts["sympy"] else "  ROOT COUNTS DIFFER"))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--budget", type=float, default=60.0)
    ap.add_argument("--check", action="store_true")
    ap.add_argument("--family", choices=sorted(FAMILIES), action="append")
    ap.add_argument("--isolation", action="store_true", help="compare flint's and sympy's root isolation")
    ap.add_argument("--child", nargs=3, help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.isolation:
        isolation("exactplay.games.race.model:make_game", "target", 6)
        isolation("examples/pig_loaded.py:make_game", "goal", 8)
        isolation("exactplay.games.chefs.model:make_game", "n", 6)
        return
    if args.child:
        spec, key, size = args.child
        print(json.dumps(one(spec, key, int(size), args.check)))
        return
    env = dict(os.environ, PYTHONPATH="src")
    cols = "size states regions bkpts maxdeg  total   engine  evaluate  factor   roots  other" + (
        "   check  cert MB" if args.check else "")
    for fam in args.family or ["race", "pig", "chefs"]:
        spec, key, sizes = FAMILIES[fam]
        print(f"\n{fam} ({key}), budget {args.budget:.0f} s CPU")
        print(cols)
        for size in sizes:
            cmd = [sys.executable, __file__, "--child", spec, key, str(size)] + (["--check"] if args.check else [])
            try:
                res = subprocess.run(cmd, capture_output=True, text=True, env=env, timeout=12 * args.budget)
            except subprocess.TimeoutExpired:
                print(f"{size:>4}  over {12 * args.budget:.0f} s of wall time: stopped")
                break
            if res.returncode:
                print(f"{size:>4}  failed: {res.stderr.strip().splitlines()[-1][:100]}")
                break
            r = json.loads(res.stdout)
            other = r["total"] - r["engine"] - r["evaluate"] - r["factor"] - r["roots"]
            line = (f"{r['size']:>4} {r['states']:>6} {r['regions']:>7} {r['breakpoints']:>5} {r['max_degree']:>6}"
                    f" {r['total']:>6.1f} {r['engine']:>8.2f} {r['evaluate']:>9.2f} {r['factor']:>7.2f}"
                    f" {r['roots']:>7.2f} {other:>6.2f}")
            if args.check:
                line += f" {r['check']:>7.1f} {r['cert_mb']:>8.2f}"
            print(line, flush=True)
            if r["total"] > args.budget:
                print(f"      (over the budget: the largest {key} within {args.budget:.0f} s is the one before)")
                break


if __name__ == "__main__":
    main()
