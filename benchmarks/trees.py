"""The three shadowed exact solvers (race, hold, chefs) timed in two source trees, side by side.

Each run is a fresh subprocess with ``PYTHONPATH=<tree>/src``; the runs of the two
trees alternate and the best of ``--repeat`` is kept, so a loaded machine hurts
both alike.  Used to show that a refactoring of a shared piece (e.g. the certified
comparison in :mod:`exactplay.audit.enclosure`) costs nothing:

    git archive main src | tar -x -C /tmp/base
    python benchmarks/trees.py /tmp/base .            # ratios new / base
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
from pathlib import Path

WORKLOADS = {
    "race 200 mpq": "from exactplay.games.race import solve_table as s; f = lambda: s(200, 'mpq')",
    "race 100 fraction": "from exactplay.games.race import solve_table as s; f = lambda: s(100, 'fraction')",
    "hold 75/6 mpq (guided)": ("from exactplay.games.hold import float_table; from exactplay.games.hold.solver import "
                               "solve_table as s; g = float_table(75, 6); f = lambda: s(75, 6, 'mpq', guide=g)"),
    "hold 40/6 mpq (unguided)": "from exactplay.games.hold.solver import solve_table as s; f = lambda: s(40, 6, 'mpq')",
    "chefs n=12 fast": ("from exactplay.games.chefs.fast import solve_fast as s; from exactplay.games.chefs.model import "
                        "fibonacci_skills as fib; f = lambda: s(fib(12))"),
    "chefs n=13 fast": ("from exactplay.games.chefs.fast import solve_fast as s; from exactplay.games.chefs.model import "
                        "fibonacci_skills as fib; f = lambda: s(fib(13))"),
    "engine: hold 25/6 model": ("from exactplay.engine import solve; from exactplay.model import build_model; "
                                "from exactplay.games.hold.model import make_game; m = build_model(make_game(25, 6)); "
                                "f = lambda: solve(m)"),
    "engine: race 40 model": ("from exactplay.engine import solve; from exactplay.model import build_model; "
                              "from exactplay.games.race.model import make_game; m = build_model(make_game(40)); "
                              "f = lambda: solve(m)"),
}

TIMER = "import time\n{setup}\nt = time.process_time(); f(); print(time.process_time() - t)"


def cpu_seconds(tree: Path, setup: str) -> float:
    env = dict(os.environ, PYTHONPATH=str(tree / "src"))
    out = subprocess.run([sys.executable, "-c", TIMER.format(setup=setup)], env=env, capture_output=True, text=True,
                         check=True)
    return float(out.stdout.split()[-1])


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("base", type=Path)
    ap.add_argument("new", type=Path)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--only", nargs="*", help="workload names containing these words")
    args = ap.parse_args()
    print(f"{'workload':28s} {'base CPU s':>11s} {'new CPU s':>10s} {'new/base':>9s}")
    for name, setup in WORKLOADS.items():
        if args.only and not any(w in name for w in args.only):
            continue
        best = {"base": float("inf"), "new": float("inf")}
        for _ in range(args.repeat):
            for which, tree in (("base", args.base), ("new", args.new)):
                best[which] = min(best[which], cpu_seconds(tree.resolve(), setup))
        print(f"{name:28s} {best['base']:11.3f} {best['new']:10.3f} {best['new'] / best['base']:9.3f}", flush=True)


if __name__ == "__main__":
    main()
