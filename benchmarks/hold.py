"""Timings of Hold or Continue? (target 75, six faces), printed as ratios.

    python benchmarks/hold.py            # solvers, the full audit, the checker
    python benchmarks/hold.py --baseline # also the straightforward exact pass (~30 s more)

Goal of issue 3: the whole exact table plus the all-state audit under 60 s.
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path


def timed(label, fn, rows):
    t0 = time.perf_counter()
    out = fn()
    dt = time.perf_counter() - t0
    rows.append((label, dt))
    print(f"{label:58s} {dt:8.2f} s", flush=True)
    return out, dt


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--target", type=int, default=75)
    ap.add_argument("--faces", type=int, default=6)
    ap.add_argument("--baseline", action="store_true", help="also time exact hold/continue values in every state")
    args = ap.parse_args()
    T, F = args.target, args.faces

    from exactplay.games.hold import run_audit
    from exactplay.games.hold.recurrence import hold_values, pass_value, turn_table
    from exactplay.games.hold.seed import seed_solve
    from exactplay.games.hold.solver import solve_table
    from exactplay.numbers.backends import get_backend

    rows: list = []
    print(f"Hold or Continue?, target {T}, faces {F}")
    _, t_seed = timed("published float solver (50-step bisection per pair)", lambda: seed_solve(T, F), rows)
    flt, t_float = timed("correct float solver (policy iteration per pair)", lambda: solve_table(T, F, "float"), rows)
    ex, t_mpq = timed("exact table, mpq, float policies verified in fixed point",
                      lambda: solve_table(T, F, "mpq", guide=flt), rows)
    _, t_frac = timed("exact table, Fraction, same method", lambda: solve_table(T, F, "fraction", guide=flt), rows)
    _, t_unguided = timed("exact table, mpq, policy iteration from scratch", lambda: solve_table(T, F, "mpq"), rows)
    _, t_audit = timed("full audit (tables + 3 solvers + every query state)", lambda: run_audit(T, F), rows)
    proof = Path(__file__).resolve().parent.parent / "proofs" / "hold" / f"hold-{T}-{F}.json"
    t_check = None
    if proof.exists():
        from exactplay.checker import check_file

        _, t_check = timed(f"independent checker on {proof.name} (Fraction + integers)", lambda: check_file(proof), rows)
    t_base = None
    if args.baseline:
        B = get_backend("mpq")

        def baseline():
            for c in range(T):
                for h in range(T):
                    hv = hold_values(B, T, ex.V, ex.alive, c, h)
                    turn_table(B, F, hv, pass_value(B, ex.V, ex.alive, h, c))

        _, t_base = timed("straightforward exact: every hold/continue value in mpq", baseline, rows)

    print()
    print(f"exact (mpq) / correct float           : {t_mpq / t_float:6.2f}x")
    print(f"exact (mpq) / published float         : {t_mpq / t_seed:6.2f}x")
    print(f"Fraction / mpq (exact table)          : {t_frac / t_mpq:6.2f}x")
    print(f"unguided / float-guided exact         : {t_unguided / t_mpq:6.2f}x")
    print(f"full audit / 60 s goal                : {t_audit / 60:6.2f}")
    if t_check is not None:
        print(f"checker / exact table (mpq)           : {t_check / t_mpq:6.2f}x")
    if t_base is not None:
        print(f"straightforward exact pass / fast exact table: {t_base / t_mpq:6.2f}x")


if __name__ == "__main__":
    main()
