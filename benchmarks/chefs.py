"""Chef Showdown: time and peak memory of the exact solvers, printed as ratios.

Each measurement runs in a fresh subprocess, so ``ru_maxrss`` is that run's peak.

    python benchmarks/chefs.py                 # fast solver n = 8..14, reference up to 12
    python benchmarks/chefs.py --max-n 12 --ref-max-n 11

Solvers:
  fast      -- chefs_fast: integer numerators over one denominator per alive set, two layers
  reference -- chefs_cycle in mpq: the seed's recurrence, one gcd per operation, two layers
  all-layers-- chefs_cycle in mpq keeping every layer (the seed's storage)

Goal (issue 4): E(14) exact in under 60 s and under 2 GB.

Measured on the shared 2-core machine (other jobs running; n = 14 lines of the
reference solvers by ``run(14, ...)``):

    n   fast s  fast MB   ref s   all-layers s / MB   denominator bits
    12    0.81      87     7.2                 - / 154      103,591
    13    4.96     239    35.9                 - / 487      240,297
    14   14.9      748    85.9           94.6 / 1597        517,897

Per extra chef the values have ~2.2-2.9x more bits and the time grows ~3-6x;
memory (two layers) ~3x.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys

CHILD = r"""
import json, resource, sys, time
from exactplay.games import chefs
from exactplay.games.chefs import cycle as chefs_cycle
from exactplay.games.chefs import fast as chefs_fast
from exactplay.numbers.backends import get_backend
n, solver = int(sys.argv[1]), sys.argv[2]
skills = chefs.fibonacci_skills(n)
t0 = time.perf_counter()
if solver == "fast":
    sol = chefs_fast.solve_fast(list(skills))
    E = sol.E
    extra = {"peak_numbers": sol.peak_numbers, "peak_bits": sol.peak_bits, "den_bits": int(sol.full.den.bit_length())}
else:
    B = get_backend("mpq")
    sol = chefs_cycle.solve(chefs.in_backend(B, skills), B, keep=(solver == "all-layers"))
    E = sol.E
    extra = {}
dt = time.perf_counter() - t0
from exactplay.numbers.decimals import decimal_digits
print(json.dumps({"n": n, "solver": solver, "seconds": dt,
                  "peak_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024,
                  "E": decimal_digits(E, 8), **extra}))
"""


def run(n: int, solver: str) -> dict:
    out = subprocess.run([sys.executable, "-c", CHILD, str(n), solver], capture_output=True, text=True, check=True)
    return json.loads(out.stdout)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--min-n", type=int, default=8)
    ap.add_argument("--max-n", type=int, default=14)
    ap.add_argument("--ref-max-n", type=int, default=12, help="largest n for the reference solvers")
    args = ap.parse_args()
    base = run(2, "fast")["peak_mb"]  # interpreter + imports
    print(f"interpreter baseline {base:.0f} MB")
    print(f"{'n':>3} {'fast s':>8} {'fast MB':>8} {'x prev':>7} {'ref s':>8} {'ref/fast':>9} {'all MB':>8}"
          f" {'allMB/fastMB':>12} {'den bits':>9} {'peak nums':>9}  E(n)")
    prev = None
    for n in range(args.min_n, args.max_n + 1):
        f = run(n, "fast")
        growth = f"{f['seconds'] / prev:7.2f}" if prev else "      -"
        prev = f["seconds"]
        if n <= args.ref_max_n:
            r = run(n, "reference")
            a = run(n, "all-layers")
            assert r["E"] == a["E"] == f["E"], (n, r["E"], a["E"], f["E"])
            ref = f"{r['seconds']:8.2f} {r['seconds'] / f['seconds']:9.1f} {a['peak_mb']:8.0f} " \
                  f"{(a['peak_mb'] - base) / max(1.0, f['peak_mb'] - base):12.1f}"
        else:
            ref = f"{'-':>8} {'-':>9} {'-':>8} {'-':>12}"
        print(f"{n:3d} {f['seconds']:8.2f} {f['peak_mb']:8.0f} {growth} {ref} {f['den_bits']:9d} "
              f"{f['peak_numbers']:9d}  {f['E']}")
        if n == 14:
            ok = f["seconds"] < 60 and f["peak_mb"] < 2048
            print(f"goal E(14) < 60 s and < 2 GB: {'met' if ok else 'NOT met'} "
                  f"({f['seconds']:.1f} s = {60 / f['seconds']:.1f}x under; {f['peak_mb']:.0f} MB)")


if __name__ == "__main__":
    main()
