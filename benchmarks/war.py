"""War sweep speed: exact DP (mpq, Fraction) against the seed's float program.

Prints seconds and ratios (exact / float).  Run: ``python benchmarks/war.py [RANKS SUITS]``.
"""

from __future__ import annotations

import sys

from _timing import best_of
from exactplay.games import war


def main(argv: list[str]) -> None:
    ranks, suits = (int(argv[0]), int(argv[1])) if len(argv) == 2 else (13, 4)
    t_float = best_of(lambda: war.sweep_probability(ranks, suits, "float"))
    t_mpq = best_of(lambda: war.sweep_probability(ranks, suits, "mpq"))
    t_frac = best_of(lambda: war.sweep_probability(ranks, suits, "fraction"))
    t_check = best_of(lambda: war.brute_force(5, 2), 1) if (ranks, suits) == (13, 4) else None
    print(f"war {ranks}x{suits}: float port {t_float:.3f} s, mpq {t_mpq:.3f} s, Fraction {t_frac:.3f} s")
    print(f"ratio mpq/float      {t_mpq / t_float:.2f}")
    print(f"ratio Fraction/float {t_frac / t_float:.2f}")
    print(f"ratio Fraction/mpq   {t_frac / t_mpq:.2f}")
    if t_check is not None:
        print(f"(brute force over the 113400 arrangements of the 5x2 deck: {t_check:.3f} s)")


if __name__ == "__main__":
    main(sys.argv[1:])
