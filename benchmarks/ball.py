"""Benchmark: certified balls past exact arithmetic (issue 13, section 1).

Race, for each target: the published float program's time (whole table, where it fits; and its
cells evaluated inline, row by row, alongside the balls), exact mpq where it fits (target <= 500),
and ball runs at several precisions: how many of the N^2 decisions the balls certify at each
precision, the time, and the answer's 8 decimals certified by Ziv's loop.
Hold: float solver, balls (128 bits), exact where asked.

    python benchmarks/ball.py race 100 500 2000 --precs 64,128,1024,3300
    python benchmarks/ball.py hold 150 12 [--exact]
"""

from __future__ import annotations

import sys
import time

from exactplay.balls import endpoints


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
    from exactplay.balls import ziv_decimal
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
