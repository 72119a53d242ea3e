"""Bigger exact runs on one machine (issue 13, section 2): exact vs float, side by side.

Race: for each target, CPU seconds of the published float program (``solve_table(N,
"float")``) and of the exact table in mpq (``solve_table(N, "mpq")``: unreduced numerators,
anti-diagonals in bands), and their ratio; ``--reference`` adds the reference mpq recurrence
(every value in lowest terms) where it fits.  The ``solve`` command's path (keep_table=False)
is what runs at 1000 and beyond.  Chefs: CPU seconds and peak RSS of the fast exact solver
for n chefs (Fibonacci skills), each in a fresh subprocess so ``ru_maxrss`` is that run's.
Every run is a fresh subprocess and reports its own peak RSS.

CPU time (``time.process_time``), not wall clock: the machine is shared.

    python benchmarks/bigexact.py                       # race 100..1000, chefs 12..15
    python benchmarks/bigexact.py --race 100 500 --chefs 16 --reference
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
from pathlib import Path

SRC = str(Path(__file__).resolve().parent.parent / "src")

CHILD = r"""
import json, resource, sys, time
kind, size = sys.argv[1], int(sys.argv[2])
out = {}
if kind.startswith("race"):
    from exactplay.games.race import solve_table
    backend = {"race-float": "float", "race-exact": "mpq", "race-reference": "mpq"}[kind]
    repeat = 3 if size <= 200 else 1
    best = None
    for _ in range(repeat):
        t0 = time.process_time()
        table = solve_table(size, backend, reference=(kind == "race-reference"), keep_table=(kind != "race-exact"))
        g = table.answer
        dt = time.process_time() - t0
        best = dt if best is None else min(best, dt)
    out = {"cpu": best, "G": float(g)}
    if kind != "race-float":
        out["digits"] = len(str(g.denominator))
else:
    from exactplay.games import chefs
    from exactplay.games.chefs import fast
    t0 = time.process_time()
    sol = fast.solve_fast(list(chefs.fibonacci_skills(size)))
    E = sol.E
    out = {"cpu": time.process_time() - t0, "E": float(E), "den_bits": int(sol.full.den.bit_length()),
           "peak_numbers": sol.peak_numbers, "peak_bits": sol.peak_bits}
out["rss_mb"] = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
print(json.dumps(out))
"""


def run(kind: str, size: int) -> dict:
    env = {"PYTHONPATH": SRC, "PATH": "/usr/bin:/bin"}
    r = subprocess.run([sys.executable, "-c", CHILD, kind, str(size)], capture_output=True, text=True, env=env)
    if r.returncode:
        return {"error": r.stderr.strip().splitlines()[-1] if r.stderr.strip() else f"exit {r.returncode}"}
    return json.loads(r.stdout)


def main(argv: list[str]) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--race", type=int, nargs="*", default=[100, 200, 400, 500, 1000])
    ap.add_argument("--chefs", type=int, nargs="*", default=[12, 13, 14, 15])
    ap.add_argument("--reference", action="store_true", help="also time the reference mpq recurrence (up to 500)")
    args = ap.parse_args(argv)
    if args.race:
        print(f"{'target':>6} {'float s':>9} {'exact s':>9} {'exact/float':>11} {'ref s':>9} {'ref/float':>9}"
              f" {'exact MB':>9} {'digits':>7}", flush=True)
    for n in args.race:
        f, e = run("race-float", n), run("race-exact", n)
        r = run("race-reference", n) if args.reference and n <= 500 else None
        if "error" in f or "error" in e:
            print(f"{n:>6} failed: {f.get('error') or e.get('error')}", flush=True)
            continue
        assert abs(f["G"] - e["G"]) < 1e-12, (f, e)
        ref = f"{r['cpu']:>9.2f} {r['cpu'] / f['cpu']:>8.1f}x" if r and "error" not in r else f"{'-':>9} {'-':>9}"
        print(f"{n:>6} {f['cpu']:>9.2f} {e['cpu']:>9.2f} {e['cpu'] / f['cpu']:>10.2f}x {ref} {e['rss_mb']:>9.0f}"
              f" {e['digits']:>7}", flush=True)
    if args.chefs:
        print(f"\n{'n':>3} {'fast s':>8} {'peak RSS MB':>12} {'den bits':>10} {'peak numbers':>13} {'peak MB (bits/8)':>17}",
              flush=True)
    for n in args.chefs:
        c = run("chefs", n)
        if "error" in c:
            print(f"{n:>3} failed: {c['error']}", flush=True)
            continue
        print(f"{n:>3} {c['cpu']:>8.2f} {c['rss_mb']:>12.0f} {c['den_bits']:>10,} {c['peak_numbers']:>13,}"
              f" {c['peak_bits'] / 8e6:>17.0f}", flush=True)


if __name__ == "__main__":
    main(sys.argv[1:])
