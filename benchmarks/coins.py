"""Coin row speed: exact solver (mpq, Fraction) against the seed's two DPs in float.

Prints seconds and ratios.  Run: ``python benchmarks/coins.py [N]`` (default 400 decimal coins).
"""

from __future__ import annotations

import random
import sys
from fractions import Fraction

from _timing import best_of
from exactplay.games import coins as C


def main(argv: list[str]) -> None:
    n = int(argv[0]) if argv else 400
    rng = random.Random(2026)
    row = [Fraction(rng.randint(1, 999), 100) for _ in range(n)]
    t_min = best_of(lambda: C.seed_dp_min(row, "float"))
    t_sum = best_of(lambda: C.seed_dp_sum(row, "float"))
    t_mpq = best_of(lambda: C.solve_row(row, "mpq"))
    t_frac = best_of(lambda: C.solve_row(row, "fraction"))
    t_min_exact = best_of(lambda: C.seed_dp_min(row, "mpq"))
    t_audit = best_of(lambda: C.run_audit(row), 1)
    print(f"coins n={n}: seed DP1 float {t_min:.3f} s, seed DP2 float {t_sum:.3f} s, "
          f"exact solver mpq {t_mpq:.3f} s, Fraction {t_frac:.3f} s, seed DP1 in mpq {t_min_exact:.3f} s, "
          f"full audit {t_audit:.3f} s")
    print(f"ratio exact mpq / float DP2     {t_mpq / t_sum:.2f}")
    print(f"ratio exact Fraction / float DP2 {t_frac / t_sum:.2f}")
    print(f"ratio Fraction / mpq            {t_frac / t_mpq:.2f}")
    print(f"ratio audit / exact mpq solve   {t_audit / t_mpq:.2f}")


if __name__ == "__main__":
    main(sys.argv[1:])
