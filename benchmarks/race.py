"""Benchmark: the Race table, float (published program) vs exact.

Prints, for each target, the best of a few runs of:
  float      the published float program (all t = 1..t0(N)+4 candidates)
  mpq        our exact solver (gmpy2.mpq, float-shadow candidate filter)
  fraction   our exact solver with fractions.Fraction
  plain-mpq  a straightforward exact port: every candidate in mpq
  plain-frac a straightforward exact port: every candidate in Fraction
and the ratios to the float time.  Goal (issue 2): mpq within 5x float at 100.

    python benchmarks/race.py [targets...]
"""

from __future__ import annotations

import sys

from _timing import best_of
from exactplay.games.race import solve_table


def main(argv: list[str]) -> None:
    targets = [int(a) for a in argv] or [50, 100, 200]
    variants = {
        "float": lambda n: solve_table(n, "float"),
        "mpq": lambda n: solve_table(n, "mpq"),
        "fraction": lambda n: solve_table(n, "fraction"),
        "plain-mpq": lambda n: solve_table(n, "mpq", shadow=False),
        "plain-frac": lambda n: solve_table(n, "fraction", shadow=False),
    }
    print(f"{'target':>6} " + " ".join(f"{k:>11}" for k in variants) + "   ratios to float")
    for n in targets:
        repeat = 5 if n <= 100 else 2
        t = {k: best_of(lambda: f(n), repeat if k != "plain-frac" else 1) for k, f in variants.items()}
        ratios = "  ".join(f"{k}/float {t[k] / t['float']:.1f}x" for k in variants if k != "float")
        print(f"{n:>6} " + " ".join(f"{t[k]:>10.3f}s" for k in variants) + "   " + ratios)
        print(f"{'':>6} ours (mpq) vs plain Fraction: {t['plain-frac'] / t['mpq']:.1f}x faster")


if __name__ == "__main__":
    main(sys.argv[1:])
