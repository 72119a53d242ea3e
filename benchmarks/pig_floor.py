"""The floor of an exact Pig solve of every state: a hand-structured solver, to compare the engine with.

Issue 26 asks for Pig to 100 from the command line, every state's exact value, in at most 2 minutes of CPU.
This script measures how fast a solver that knows Pig's structure computes every state's exact value and
margin (gmpy2 ``mpq``), so that the engine's time can be read against what the arithmetic itself costs:

* the constant-sum symmetry: ``W(me, opp, t)``, the mover's winning chance with scores ``me``, ``opp`` and
  turn total ``t``, covers both players (the engine's model has each position twice, once per mover);
* score pairs by decreasing ``me + opp``; for a pair the two turns are affine in the pass value
  ``y = 1 - W(opp, me, 0)``: ``W_t = a_t + b_t y`` with, under the float-guessed policy, ``a_t = hold_t``,
  ``b_t = 0`` (hold) or ``a_t = (sum_f a_{t+f} + wins) / F``, ``b_t = (1 + sum_f b_{t+f}) / F`` (roll);
* the 2x2 system of the two turn starts (``U = a + b (1 - X)``, ``X = a' + b' (1 - U)``), then every
  ``W_t`` and its margin to the other action exactly (the run fails if the float policy is not optimal).

Measured 2026-12-03 (2 shared cores, load 0.4-1.5), one run each; the engine's figures are the CLI's on the
full model (both movers, twice the states), benchmarks/pig.py on 2026-12-02::

    goal   positions   this floor            engine (CLI)
      50      63,750     3.26 s,    28 MB      5.62 s,  287 MB   (391-digit start denominator)
      70     173,950    13.34 s,    85 MB     28-31 s, 1.1 GB    (5,392 digits)
     100     505,000   265 s,      803 MB     not finished        (20,855 digits)

So even with Pig's structure and symmetry known, every exact value of Pig to 100 costs about 4.4 minutes in
Python and gmpy2, twice the issue's goal: the long additions (gcds of numbers of up to ~70,000 bits at low
score sums) are the cost, not the engine's bookkeeping (per position the engine is within ~1.1x of this
floor at goal 70).  The goal is reachable only by not computing every exact value up front (exact values
at the turn starts, decisions in balls, the rest on first read: the lazy engine of 2026-12-01).
python-flint's ``fmpq`` does not lower it: a sum of two rationals sharing most of their denominator costs
28 / 30 us (gmpy2 / flint) at 2,000 bits, 463 / 507 us at 20,000, 2,786 / 2,816 us at 60,000 (2026-12-03).

    PYTHONPATH=src python3 benchmarks/pig_floor.py 70 [--check]   # --check: the engine's value too (small goals)
"""

from __future__ import annotations

import argparse
import resource
import time

from gmpy2 import mpq

F = 6


def solve(G: int):
    """Every position's exact value ``W[me][opp][t]`` of Pig to ``G``; returns ``(W, positions, margins)``."""
    one, zero, sixth = mpq(1), mpq(0), mpq(1, F)
    W = [[None] * G for _ in range(G)]
    positions = margins = 0
    for s in range(2 * G - 2, -1, -1):
        for me in range(max(0, s - G + 1), s // 2 + 1):
            opp = s - me
            pair = [(me, opp)] if me == opp else [(me, opp), (opp, me)]
            H = {(m, o): [None] + [one - W[o][m + t][0] for t in range(1, G - m)] for m, o in pair}
            pol = float_policy(G, pair, {k: [None] + [float(x) for x in v[1:]] for k, v in H.items()})
            aff = {}
            for m, o in pair:
                n, p = G - m, pol[(m, o)]
                a, b = [zero] * n, [zero] * n
                for t in range(n - 1, -1, -1):
                    if p[t] == "h":
                        a[t] = H[(m, o)][t]
                        continue
                    sa, sb, wins = zero, sixth, 0
                    for f in range(2, F + 1):
                        if t + f >= n:
                            wins += 1
                        else:
                            sa = sa + a[t + f]
                            sb = sb + b[t + f] * sixth
                    a[t], b[t] = (sa + wins) * sixth, sb
                aff[(m, o)] = a, b
            if me == opp:
                a, b = aff[(me, opp)]
                start = {(me, opp): (a[0] + b[0]) / (one + b[0])}
            else:
                (ac, bc), (ah, bh) = aff[(me, opp)], aff[(opp, me)]
                U = (ac[0] + bc[0] * (one - ah[0] - bh[0])) / (one - bc[0] * bh[0])
                start = {(me, opp): U, (opp, me): ah[0] + bh[0] * (one - U)}
            for m, o in pair:
                a, b = aff[(m, o)]
                y, n, p = one - start[(o, m)], G - m, pol[(m, o)]
                vals = [a[t] + b[t] * y if b[t] else a[t] for t in range(n)]
                for t in range(1, n):
                    if p[t] == "r":
                        d = vals[t] - H[(m, o)][t]
                    else:
                        r = y
                        for f in range(2, F + 1):
                            r = r + (one if t + f >= n else vals[t + f])
                        d = vals[t] - r * sixth
                    if d < 0:
                        raise RuntimeError(f"the float policy is not optimal at {(m, o, t)}")
                    margins += 1
                W[m][o] = vals
                positions += n
    return W, positions, margins


def float_policy(G: int, pair, Hf) -> dict:
    """The pair's policies ('h'/'r' per turn total) by value iteration in floats on the two turn starts."""
    U = {k: 0.5 for k in pair}
    pol = {}
    for _ in range(200):
        new = {}
        for m, o in pair:
            y = 1.0 - U[(o, m)]
            n = G - m
            w = [0.0] * n
            p = [None] * n
            for t in range(n - 1, -1, -1):
                r = (y + sum(1.0 if t + f >= n else w[t + f] for f in range(2, F + 1))) / F
                w[t], p[t] = (Hf[(m, o)][t], "h") if t > 0 and Hf[(m, o)][t] >= r else (r, "r")
            new[(m, o)], pol[(m, o)] = w[0], p
        done = all(abs(new[k] - U[k]) < 1e-17 for k in pair)
        U = new
        if done:
            break
    return pol


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("goal", type=int)
    ap.add_argument("--check", action="store_true", help="compare the start value with the engine's")
    args = ap.parse_args()
    t = time.process_time()
    W, positions, margins = solve(args.goal)
    cpu = time.process_time() - t
    v = W[0][0][0]
    print(f"goal {args.goal}: {positions:,} positions, {margins:,} margins, {cpu:.2f} s CPU, peak "
          f"{resource.getrusage(resource.RUSAGE_SELF).ru_maxrss // 1024} MB, start value {float(v):.10f} "
          f"({len(str(v.denominator)):,}-digit denominator)")
    if args.check:
        import importlib.util
        import pathlib

        from exactplay.engine.solve import solve_model
        from exactplay.model import build_model

        spec = importlib.util.spec_from_file_location("pig", pathlib.Path(__file__).parents[1] / "examples" / "pig.py")
        pig = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(pig)
        sol = solve_model(build_model(pig.make_game(args.goal)))
        got = sol.value[0]
        print("engine's start value equal:", got == v)
        if got != v:
            raise SystemExit(1)


if __name__ == "__main__":
    main()
