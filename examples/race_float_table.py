"""A float program of your own, and how it hands its table to ``exactplay audit``.

The Race (Project Euler 232) in plain doubles, standing in for any program you wrote:
F[a][b] is Player 2's winning probability at Player 2's turn, with a and b the points
still needed (1 <= a, b <= target).  It prints one CSV row ``a,b,F`` per state:

    python3 examples/race_float_table.py 5 > race-5-float.csv
    exactplay audit race --target 5 --float-table race-5-float.csv
    python3 examples/race_float_table.py 5 | exactplay audit race --target 5 --float-table -

Write each value with ``repr()`` (or ``'%.17g'``): the shortest text that reads back as the
very same double, so the audit measures your program's errors, not the printing's.
"""

import sys


def race_table(target: int) -> list[list[float]]:
    t_max = (target - 1).bit_length() + 5  # T = 1 .. t0(target) + 4, as the published program
    F = [[0.0] * (target + 1) for _ in range(target + 1)]
    G = [[0.0] * (target + 1) for _ in range(target + 1)]
    for a in range(1, target + 1):
        F[a][0] = G[a][0] = 1.0
        for b in range(1, target + 1):
            best = None
            for t in range(1, t_max + 1):
                q, d = 1.0 / 2**t, 2 ** (t - 1)
                S = 1.0 if d >= b else G[a][b - d]
                c = (2 * q * S + (1.0 - q) * F[a - 1][b]) / (1.0 + q)
                if best is None or c > best:
                    best = c
            F[a][b] = best
            G[a][b] = (F[a - 1][b] + best) * 0.5
    return F


def main() -> None:
    target = int(sys.argv[1]) if len(sys.argv) > 1 else 5
    F = race_table(target)
    out = sys.stdout
    out.write("a,b,F\n")  # a header line (no number on it) is skipped by the reader
    for a in range(1, target + 1):
        for b in range(1, target + 1):
            out.write(f"{a},{b},{F[a][b]!r}\n")


if __name__ == "__main__":
    main()
