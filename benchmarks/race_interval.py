"""Benchmark: the Race in arb balls (games/race/ball.py) vs float64 intervals (games/race/interval.py).

For each target: arb balls at each precision of ``--precs`` (time, decisions certified, the
answer's width) beside one float64 interval run (time, decisions certified, width), with the
ratio of times, and the certified 8-decimal answer of each.  Times are wall clock and this
process's CPU (the test machine is shared).  ``--intervals-only`` skips arb (targets 2,000+);
``--exact`` (targets <= 2,000) checks every certified decision against the exact table and
G(N, N) against its interval.

    python benchmarks/race_interval.py 500 1000 --precs 128,1024
    python benchmarks/race_interval.py 2000 10000 --intervals-only
    python benchmarks/race_interval.py 2000 --intervals-only --exact
"""

from __future__ import annotations

import resource
import sys
import time

from exactplay.numbers.balls import endpoints


def _interval(n: int):
    from fractions import Fraction

    from exactplay.numbers.balls import certain_decimals
    from exactplay.games.race.interval import interval_run
    from exactplay.games.race.interval_report import answer_decimal

    r = interval_run(n)
    lo, hi = r.answer
    z = answer_decimal(lo, hi, 8)
    k = certain_decimals(Fraction(lo), Fraction(hi), 20)
    print(f"  float64 intervals (53 bits)   : {r.seconds:9.2f} s wall {r.cpu_seconds:9.2f} s CPU   certified "
          f"{r.certified:>12,} of {r.decisions:,}  unresolved {r.unresolved_count:,}   width {hi - lo:.1e}   "
          f"G = {z.rounded or '(%d decimals certain)' % z.certain_digits}   bands of {r.rows_per_band} rows, "
          f"{r.band_bytes / 1e6:.0f} MB", flush=True)
    print(f"      G({n},{n}) in [{lo!r}, {hi!r}]: {k} decimals certain; first choices {r.first}", flush=True)
    return r


def _against_exact(n: int) -> None:
    from fractions import Fraction

    from exactplay.games.race import solve_table
    from exactplay.games.race.interval import interval_run

    r = interval_run(n, keep_choices=True)
    t, c = time.perf_counter(), time.process_time()
    ex = solve_table(n, "mpq", keep_table=False)
    wall, cpu = time.perf_counter() - t, time.process_time() - c
    best, sure = r.tables["best"], r.tables["certified"]
    wrong = sum(1 for (a, b), bt in ex.best_t.items() if sure[a, b] and best[a, b] != bt)
    g = Fraction(ex.answer)
    inside = Fraction(r.answer[0]) <= g <= Fraction(r.answer[1])
    print(f"  exact mpq                     : {wall:9.2f} s wall {cpu:9.2f} s CPU   of the {r.certified:,} certified "
          f"decisions, {wrong:,} differ from the exact best; exact G({n},{n}) = {float(g)!r} inside the "
          f"interval: {inside}", flush=True)


def _arb(n: int, p: int):
    from exactplay.numbers.balls import ziv_decimal
    from exactplay.games.race.ball import ball_run

    t, c = time.perf_counter(), time.process_time()
    run = ball_run(n, p)
    wall, cpu = time.perf_counter() - t, time.process_time() - c
    lo, hi = endpoints(run.answer)
    z = ziv_decimal(lambda q: run.answer, 8, p, p)
    print(f"  arb balls {p:>5} bits           : {wall:9.2f} s wall {cpu:9.2f} s CPU   certified {run.certified:>12,} "
          f"of {run.decisions:,}  unresolved {run.unresolved_count:,}   width {float(hi - lo):.1e}   "
          f"G = {z.rounded or '(%d decimals certain)' % z.certain_digits}", flush=True)
    return cpu, run


def main(argv: list[str]) -> None:
    precs = [128]
    if "--precs" in argv:
        i = argv.index("--precs")
        precs = [int(x) for x in argv[i + 1].split(",")]
        del argv[i:i + 2]
    only = "--intervals-only" in argv
    targets = [int(a) for a in argv if not a.startswith("--")] or [500, 1000]
    for n in targets:
        print(f"\nrace target {n} ({n * n:,} decisions)", flush=True)
        r = _interval(n)
        if "--exact" in argv:
            _against_exact(n)
        if only:
            continue
        for p in precs:
            cpu, run = _arb(n, p)
            print(f"      arb {p} bits / intervals: {cpu / r.cpu_seconds:.0f}x the CPU time; certified "
                  f"{run.certified:,} vs {r.certified:,}", flush=True)
    print(f"\npeak memory of this process: {resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024:.0f} MB")


if __name__ == "__main__":
    main(sys.argv[1:])
