"""Benchmark: the model build (``exactplay.model.build_model``: enumerate the reachable states
through the game's Python protocol, read and check the exact probabilities, intern the successors,
label the states) before and after the fast build, against today's hand-written exact solvers
(issue 10, "Speed").

For every case the build runs in two child processes, one per checkout, one after the other:
``before`` with ``PYTHONPATH=<before>/src`` (by default ``/work/main``: main's builder and main's
game models), ``after`` with this checkout's ``src``.  Each child prints its number of states, its
CPU time (``time.process_time``, best of ``--repeat``) and a SHA-256 of the whole model (every field,
each number as its exact numerator and denominator and its type): ``models`` says whether the two
models are equal.  ``hand`` is today's hand-written exact solver (mpq), timed in this process: race
``race.solve_table``, hold ``hold_solver.solve_table`` guided by its float table (what the cached
``hold.exact_table`` runs), chefs ``chefs.solve_exact``; Pig has none.  ``ratio`` = build / hand.

    PYTHONPATH=src python3 benchmarks/model_build.py [--repeat 3] [--before /work/main] [--only race100,pig50]

Measured 2026-11-30 19:47-19:56 UTC (load average 4.1 at the start, 2 cores shared by several
sessions; Python 3.11.7, gmpy2; CPU seconds, best of 3; before = main, whose model/ and games' model.py
were those of 9ef76f7; every model equal):

    case            states   before    after speed-up    hand before/hand after/hand  models
    race 50          2,503    0.149    0.057     2.6x   0.019        7.8x       3.0x  equal
    race 100        10,003    0.814    0.264     3.1x   0.073       11.1x       3.6x  equal
    hold 20 / 6      7,260    0.096    0.047     2.0x   0.025        3.8x       1.9x  equal
    hold 40 / 6     60,920    1.026    0.418     2.5x   0.185        5.6x       2.3x  equal
    hold 75 / 6    410,850    7.626    3.308     2.3x   1.902        4.0x       1.7x  equal
    chefs n = 10    10,230    0.169    0.073     2.3x   0.107        1.6x       0.7x  equal
    chefs n = 12    49,140    1.167    0.400     2.9x   0.847        1.4x       0.5x  equal
    Pig 50         115,446    3.644    0.810     4.5x       -           -          -  equal
    Pig 100        960,896   29.101    7.396     3.9x       -           -          -  equal

Peak memory of the child (MB, ``ru_maxrss``: the model and the game; same day, after the table above,
load average 6.2-7.5; the times of this run in brackets, before -> after): race 100 74 -> 67 (0.890 ->
0.274 s), hold 40 / 6 100 -> 91 (1.041 -> 0.424), chefs n = 12 93 -> 86 (1.006 -> 0.366), Pig 50 191 ->
152 (3.517 -> 0.809); one run each: hold 75 / 6 542 -> 480 (8.359 -> 3.504, hand 1.800), Pig 100 1,419
-> 1,097 (29.263 -> 7.128).  Every model equal.

Where the time went (cProfile and single-step timings, 2026-11-30, load ~1): the builder's own reading
was 60-80 % of the build (the game's protocol calls and a dictionary of the states cost 0.19 s of race
100's 0.79 s, 0.21 s of hold 40's 1.4 s, 0.28 s of chefs 12's 1.5 s, 0.49 s of Pig 50's 4.6 s); the cyclic
garbage collector about a third of what remained after the fast reader (race 100 0.53 -> 0.33 s, hold 40
0.75 -> 0.44, chefs 12 0.92 -> 0.59, Pig 50 1.65 -> 0.91 with it run 1/140th as often); ``validate()``
resolving an ``auto`` objective (the end-component search behind ``every_play_ends``: Pig 50 1.0-1.3 s,
race 100 0.1 s) -- ``validate()`` no longer needs it, and the engine's first ``model.keys()`` now answers
it with one linear attractor pass (``Model.has_end_component``: Pig 50 0.3 s, race 100 0.08 s), so that
part moved to the solve and shrank; the games' own ``transitions()`` (hold's and Pig's ``Fraction(1, faces)`` made at
every roll, chefs' linear search for the next chef and its ``1 - p``, race's zips).  Now, race 100: its
``transitions()`` calls take 0.05 s of the 0.26 s; the rest is reading 418,000 outcomes (about 0.5 us
each: type, sign, sum, one dictionary look-up of the successor) and 120,000 actions.

Tried and dropped: the fast reader inlined into the state loop (race 100 0.248 -> 0.246 s, hold 40
0.415 -> 0.400, Pig 50 0.823 -> 0.772: not worth a second copy of it); the collector disabled instead of
run less often (hold 75: 3.1-3.2 s against 3.4-3.8, but a game's own cyclic garbage would pile up for the
whole build); one end-component search over all states instead of one per component (slower: Pig 50
1.8 s against 1.1).

The engine benchmark (``benchmarks/engine.py --repeat 1 --only games``), main and this branch one after
the other, 19:44-19:46 UTC, load ~3.9 (build + solve = engine): race 100 2.127 (0.944 + 1.182) -> 1.844
(0.285 + 1.560); hold 40 / 6 6.330 (1.532 + 4.797) -> 5.189 (0.809 + 4.380); chefs n = 12 8.465 (1.546 +
6.918) -> 7.999 (0.432 + 7.567); race 50 0.375 -> 0.348; hold 20 0.712 -> 0.670, hold 30 2.420 -> 1.989;
chefs 8 0.081 -> 0.068, chefs 10 0.592 -> 0.625 (one run each: the solve's share varies by 10-30 %
between runs).  After ``has_end_component``, build + ``model.keys()`` + ``solve_model`` in one process
each, main then this branch, 20:14-20:15 UTC, load ~5.9, one run: race 100 2.519 (0.912 + 0 + 1.607) ->
2.013 (0.364 + 0.082 + 1.567); chefs n = 12 8.548 (1.209 + 0 + 7.339) -> 7.648 (0.683 + 0 + 6.965); Pig 50
14.180 (6.071 + 0 + 8.108) -> 9.355 (1.439 + 0.323 + 7.593).  (The engine's condensation still searches
the end components per component a second time for every model.)
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent.parent

CASES = {  # name -> (shown as, the factory's code, run in the child with its own checkout's games)
    "race50": ("race 50", "MODELS['race'](target=50)"),
    "race100": ("race 100", "MODELS['race'](target=100)"),
    "hold20": ("hold 20 / 6", "MODELS['hold'](target=20, faces=6)"),
    "hold40": ("hold 40 / 6", "MODELS['hold'](target=40, faces=6)"),
    "hold75": ("hold 75 / 6", "MODELS['hold'](target=75, faces=6)"),
    "chefs10": ("chefs n = 10", "MODELS['chefs'](n=10)"),
    "chefs12": ("chefs n = 12", "MODELS['chefs'](n=12)"),
    "pig50": ("Pig 50", "load_factory(str(ROOT / 'examples' / 'pig.py') + ':make_game')(goal=50)"),
    "pig100": ("Pig 100", "load_factory(str(ROOT / 'examples' / 'pig.py') + ':make_game')(goal=100)"),
}
DEFAULT = ("race50", "race100", "hold20", "hold40", "hold75", "chefs10", "chefs12", "pig50", "pig100")


def model_digest(model) -> str:
    """SHA-256 of every field of a compiled model, numbers as ``type:num/den``."""
    def num(x):
        return f"{type(x).__name__}:{x.numerator}/{x.denominator}"

    def vec(v):
        return None if v is None else [num(x) for x in v]

    h = hashlib.sha256()
    head = [model.name, model.num_players, model.player_names, model.objective, model.initial, model.labels]
    h.update(json.dumps(head).encode())
    for s in range(len(model)):
        row = [repr(model.states[s]), vec(model.terminal[s]), model.mover[s], [repr(a) for a in model.actions[s]],
               [[(t, num(p)) for t, p in d] for d in model.trans[s]], [vec(r) for r in model.rewards[s]]]
        h.update(json.dumps(row).encode())
    return h.hexdigest()


def worker(case: str, repeat: int) -> None:
    """In a child: build the case ``repeat`` times with this PYTHONPATH's exactplay; print JSON."""
    import gc

    from exactplay.games import MODELS  # noqa: F401  (used by the cases' code)
    from exactplay.model import build_model, load_factory  # noqa: F401

    root = Path(__import__("exactplay").__file__).resolve().parent.parent.parent
    code = CASES[case][1]
    best, model = None, None
    for _ in range(repeat):
        game = eval(code, {"MODELS": MODELS, "load_factory": load_factory, "ROOT": root})
        model = None
        gc.collect()
        t = time.process_time()
        model = build_model(game)
        dt = time.process_time() - t
        best = dt if best is None else min(best, dt)
    import resource

    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024  # MB (Linux: kB)
    print(json.dumps({"states": len(model), "seconds": best, "digest": model_digest(model), "peak": peak,
                      "root": str(root)}))


def child(src: Path, case: str, repeat: int) -> dict:
    env = dict(os.environ, PYTHONPATH=str(src))
    out = subprocess.run([sys.executable, __file__, "--worker", case, "--repeat", str(repeat)], env=env,
                         capture_output=True, text=True, check=False)
    if out.returncode:
        raise SystemExit(f"{case} with {src}: {out.stderr.strip().splitlines()[-1:]}")
    return json.loads(out.stdout.strip().splitlines()[-1])


def hand_time(case: str, repeat: int) -> float | None:
    sys.path.insert(0, str(HERE / "src"))
    from exactplay.games import chefs, race
    from exactplay.games.hold.solver import solve_table as hold_table

    size = int("".join(c for c in case if c.isdigit()))
    run = {"race": lambda: race.solve_table(size),
           "hold": lambda: hold_table(size, 6, "mpq", guide=hold_table(size, 6, "float")),
           "chefs": lambda: chefs.solve_exact(chefs.fibonacci_skills(size))}.get(case.rstrip("0123456789"))
    if run is None:
        return None
    best = None
    for _ in range(repeat):
        t = time.process_time()
        run()
        dt = time.process_time() - t
        best = dt if best is None else min(best, dt)
    return best


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--before", default="/work/main", help="the checkout whose builder is 'before'")
    ap.add_argument("--only", default=",".join(DEFAULT), help="comma-separated cases: " + ", ".join(CASES))
    ap.add_argument("--worker", help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.worker:
        return worker(args.worker, args.repeat)
    print(f"load average {os.getloadavg()[0]:.1f}; before = {args.before}, after = {HERE}; "
          f"CPU s, best of {args.repeat}")
    print(f"{'case':<13} {'states':>8} {'before':>8} {'after':>8} {'speed-up':>8} {'hand':>7} "
          f"{'before/hand':>11} {'after/hand':>10}  models  peak MB before, after")
    for case in args.only.split(","):
        before = child(Path(args.before) / "src", case, args.repeat)
        after = child(HERE / "src", case, args.repeat)
        hand = hand_time(case, args.repeat)
        same = "equal" if before["digest"] == after["digest"] and before["states"] == after["states"] else "DIFFER"
        ratios = (f"{before['seconds'] / hand:>10.1f}x {after['seconds'] / hand:>9.1f}x" if hand
                  else f"{'-':>11} {'-':>10}")
        shown_hand = f"{hand:.3f}" if hand else "-"
        print(f"{CASES[case][0]:<13} {after['states']:>8,} {before['seconds']:>8.3f} {after['seconds']:>8.3f} "
              f"{before['seconds'] / after['seconds']:>7.1f}x {shown_hand:>7} {ratios}  {same:<6} "
              f"{before['peak']:>6.0f} {after['peak']:>6.0f}", flush=True)


if __name__ == "__main__":
    main()
