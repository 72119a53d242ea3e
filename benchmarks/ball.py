"""Benchmark: certified balls past exact arithmetic (issue 13, section 1).

Race, for each target: the published float program's time (whole table, where it fits; and its
cells evaluated inline, row by row, alongside the balls), exact mpq where it fits (target <= 500),
and ball runs at several precisions: how many of the N^2 decisions the balls certify at each
precision, the time, and the answer's 8 decimals certified by Ziv's loop.
Hold: float solver, balls (128 bits), exact where asked.

    python benchmarks/ball.py race 100 500 2000 --precs 64,128,1024,3300
    python benchmarks/ball.py hold 150 12 [--exact]

Ball certificates of games with cycles (Hold, Pig: ``benchmarks/ball_cert.py``, the enclosures of
``exactplay.dyadic`` on the grid 2^-k, the certificate and its check), measured on the shared
2-core machine (load average 6-7 during the runs; CPU seconds):

    python benchmarks/ball_cert.py pig 100 --precs 64,128 --certify /tmp/pig-100-ball.json.gz
    Pig to 100: 960,896 states, 941,292 choice states; model built in 32.6 s CPU, peak RSS 1460 MB
      integer form        :     8.8 s CPU; every play ends: True
      grid 2^-64   : 52.0 s CPU (+9.0 s decisions)  certified 941,292 of 941,292, unresolved 0;
                     answer in [0.530592725273747, 0.530592725273747] (width 3.3e-18, 61 grid steps);
                     9,801 cyclic components, 19,598 feedback states, 157,619 sweeps, 20,652 policy
                     rounds, largest start shift 1024; peak RSS 2254 MB
      grid 2^-128  : 51.9 s CPU (+8.7 s decisions)  all 941,292 certified; width 1.8e-37 (61 grid steps);
                     peak RSS 2376 MB; 8 decimals 0.53059273 (12: 0.530592725274)
      certificate  : 99.8 s CPU, 21.1 MB gzip (the explicit model is most of it), peak RSS 5437 MB
      check        : 163.3 s CPU, peak RSS 6594 MB, ok (whole run: 402 s user + 25 s sys, 21:47 wall
                     under load, peak RSS 6.6 GB)
    python benchmarks/ball_cert.py pig 100 --precs 24,32,40,48
      grid 2^-24   : 45.7 s CPU  certified 941,256 of 941,292 (36 unresolved); answer in
                     [0.530590951442719, 0.530594587326050]: 8 decimals not certain
      grid 2^-32   : 51.0 s CPU  all certified; width 1.4e-08: 8 decimals not certain (0.53059272/..73)
      grid 2^-40   : 50.3 s CPU  all certified; width 5.5e-11: 0.53059273 certified
      grid 2^-48   : 48.6 s CPU  all certified; width 2.2e-13 (peak RSS of the run 2.5 GB)

    python benchmarks/ball_cert.py hold 60 6 --precs 64,128 --certify /tmp/hold-60-6-ball.json.gz
    hold target 60 faces 6: 208,980 states, 202,016 choice states; model built in 4.2 s CPU
      integer form : 4.9 s CPU; every play ends: False
      grid 2^-64   : 9.1 s CPU (+1.8 s decisions)  certified 198,649 of 202,016, unresolved 3,367;
                     answer 0.52828572 (width 2.6e-18, 48 grid steps); 6,961 feedback states; 486 MB
      grid 2^-128  : 9.9 s CPU (+1.9 s decisions)  the same decisions; width 1.5e-37 (50 grid steps)
      certificate  : 28.4 s CPU (model built again, canonical digest), 0.2 MB gzip (no model stored:
                     the checker rebuilds it from its rules); peak RSS 1417 MB
      check        : 26.6 s CPU, peak RSS 855 MB, ok
    hold target 30 faces 6: 25,290 states; grid 2^-64 1.0 s, 2^-128 1.1 s; certified 22,819 of
      23,606, unresolved 787; certificate 3.5 s, 0.2 MB; check 3.1 s CPU.
    pig 30: 23,666 states; grid 2^-64 0.8 s, 2^-128 0.8 s, all 21,982 decisions certified; 0.5 MB gzip;
      check 2.4 s CPU.

On Hold the unresolved decisions are exact ties (the set equals the exact engine's ties at 10/6,
12/4 and 20/6, compared once; ``tests/test_ball_model_certificate.py`` checks 10/6 and 8/2); finer
grids do not change them.  Hold
150/12 has about 3.4 million model states, beyond the checker's 3,000,000: ball certificates of
hold go to target 113 (the hold-specific ball run above, ``hold 150 12``, has no certificate).
"""

from __future__ import annotations

import sys
import time

from exactplay.numbers.balls import endpoints


def _race(targets: list[int], precs: list[int]) -> None:
    from exactplay.games.race import MAX_TARGET, solve_table
    from exactplay.games.race.ball import answer_decimal, ball_run

    for n in targets:
        print(f"\nrace target {n} ({n * n:,} decisions)", flush=True)
        t_float = t_exact = None
        if n <= 2000:
            t = time.perf_counter()
            flt = solve_table(n, "float")
            t_float = time.perf_counter() - t
            print(f"  float program (whole table)       : {t_float:9.2f} s   G = {flt.answer!r}", flush=True)
            del flt
        if n <= MAX_TARGET:
            t = time.perf_counter()
            solve_table(n, "mpq")
            t_exact = time.perf_counter() - t
            print(f"  exact mpq                         : {t_exact:9.2f} s   ({t_exact / t_float:.1f}x float)", flush=True)
        for i, p in enumerate(precs):
            run = ball_run(n, p, with_float=(i == 0))
            lo, hi = endpoints(run.answer)
            line = (f"  balls {p:>5} bits                  : {run.seconds:9.2f} s   certified {run.certified:>12,} "
                    f"of {run.decisions:,}  unresolved {run.unresolved_count:,}   width {float(hi - lo):.1e}")
            if t_float:
                line += f"   {run.seconds / t_float:.1f}x float"
            if t_exact:
                line += f", {run.seconds / t_exact:.2f}x exact"
            print(line, flush=True)
            if i == 0:
                z = answer_decimal(n, p, 8, run.answer)
                print(f"      Ziv: G({n},{n}) = {z.rounded} certified at {z.prec} bits ({z.evaluations} evaluation(s)); "
                      f"float program prints {run.float_answer:.8f}; float cells inline {run.float_seconds:.2f} s; "
                      f"float decisions {dict(run.float_classes)} (wrong, e.g. {run.float_wrong[:3]}, largest certified loss "
                      f">= {run.float_wrong_loss:.1e}); float error <= {run.float_error_upper:.2e}",
                      flush=True)


def _hold(target: int, faces: int, exact: bool) -> None:
    from exactplay.numbers.balls import ziv_decimal
    from exactplay.games.hold.ball import ball_table
    from exactplay.games.hold.solver import solve_table

    print(f"\nhold target {target} faces {faces}", flush=True)
    t = time.perf_counter()
    flt = solve_table(target, faces, "float")
    t_float = time.perf_counter() - t
    print(f"  float solver        : {t_float:9.2f} s   V(0,0) = {flt.V[0][0]!r}", flush=True)
    t = time.perf_counter()
    table = ball_table(target, faces, 128, guide=flt)
    t_ball = time.perf_counter() - t
    z = ziv_decimal(lambda p: table.V[0][0], 8, 128, 128)
    lo, hi = endpoints(table.V[0][0])
    print(f"  balls 128 bits      : {t_ball:9.2f} s   ({t_ball / t_float:.1f}x float)  certified {table.certified:,} of "
          f"{table.decisions:,}, unresolved {table.unresolved_count:,}; V(0,0) = {z.rounded} (width {float(hi - lo):.1e}); "
          f"box widenings {table.widenings}, policy rounds {table.policy_rounds}", flush=True)
    if exact:
        t = time.perf_counter()
        ex = solve_table(target, faces, "mpq", guide=flt)
        t_exact = time.perf_counter() - t
        ties = 0
        from exactplay.games.hold.solver import turn_of

        for c in range(target):
            for h in range(target):
                if "?" in table.policy[c][h]:
                    _, hv, cont, _ = turn_of(ex, c, h)
                    ties += sum(1 for i, ch in enumerate(table.policy[c][h]) if ch == "?" and hv[i + 2] == cont[i + 2])
        print(f"  exact mpq           : {t_exact:9.2f} s   balls/exact {t_ball / t_exact:.2f}x; of the "
              f"{table.unresolved_count:,} unresolved, {ties:,} are exact ties", flush=True)


def main(argv: list[str]) -> None:
    precs = [128, 1024]
    if "--precs" in argv:
        i = argv.index("--precs")
        precs = [int(x) for x in argv[i + 1].split(",")]
        del argv[i:i + 2]
    if argv and argv[0] == "hold":
        rest = [a for a in argv[1:] if not a.startswith("--")]
        _hold(int(rest[0]) if rest else 150, int(rest[1]) if len(rest) > 1 else 12, "--exact" in argv)
        return
    targets = [int(a) for a in argv[1:]] if argv and argv[0] == "race" else [100, 500]
    _race(targets or [100, 500], precs)


if __name__ == "__main__":
    main(sys.argv[1:])
