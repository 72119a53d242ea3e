"""Benchmark: the engine on Pig (``examples/pig.py``, every state's exact value) at several goals, this
checkout against another one side by side (issue 26, "big cyclic games").

Each (checkout, goal) runs in a fresh process (``OPENBLAS_NUM_THREADS=1``, as the CLI): ``build_model``, then
``solve_model``; printed: CPU seconds of each, the peak RSS of the process, the exact value at the start
(its denominator's digits: how long the numbers grow), and for ``--base`` the ratio base / this checkout.

    PYTHONPATH=src python3 benchmarks/pig.py [--goals 30,50,62] [--base /work/main] [--repeat 1]

Runs are interleaved (this, base, this, base, ...) and the least CPU of ``--repeat`` runs is kept.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)

CHILD = r"""
import importlib.util, json, resource, sys, time
from exactplay.model import build_model
from exactplay.engine.solve import solve_model
spec = importlib.util.spec_from_file_location("pig", sys.argv[1])
pig = importlib.util.module_from_spec(spec)
spec.loader.exec_module(pig)
t = time.process_time()
model = build_model(pig.make_game(int(sys.argv[2])))
tb = time.process_time() - t
t = time.process_time()
sol = solve_model(model)
ts = time.process_time() - t
v = sol.values[model.initial][0]
print(json.dumps({"states": len(model), "build": tb, "solve": ts, "rss_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024,
                  "value": float(v), "digits": len(str(v.denominator)), "exact": f"{v.numerator}/{v.denominator}"}))
"""


def run(checkout: str, goal: int) -> dict:
    env = dict(os.environ, PYTHONPATH=os.path.join(checkout, "src"), OPENBLAS_NUM_THREADS="1")
    out = subprocess.run([sys.executable, "-c", CHILD, os.path.join(ROOT, "examples", "pig.py"), str(goal)], env=env,
                         check=True, capture_output=True, text=True).stdout
    return json.loads(out.splitlines()[-1])


def main(argv: list[str]) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--goals", default="30,50,62")
    ap.add_argument("--base", help="another checkout (its src/ is imported), run side by side")
    ap.add_argument("--repeat", type=int, default=1)
    args = ap.parse_args(argv)
    checkouts = [("this", ROOT)] + ([("base", args.base)] if args.base else [])
    print(f"{'goal':>4} {'states':>9} {'which':>5} {'build':>7} {'solve':>8} {'RSS MB':>7} {'digits':>6}  ratio base/this (solve)")
    for goal in [int(g) for g in args.goals.split(",")]:
        best: dict[str, dict] = {}
        for _ in range(args.repeat):
            for name, path in checkouts:
                r = run(path, goal)
                if name not in best or r["solve"] < best[name]["solve"]:
                    best[name] = r
        if "base" in best and best["base"]["exact"] != best["this"]["exact"]:
            raise SystemExit(f"Pig {goal}: the exact values differ between the checkouts")
        for name, _ in checkouts:
            r = best[name]
            ratio = f"  {best['base']['solve'] / best['this']['solve']:.2f}x" if name == "base" else ""
            print(f"{goal:>4} {r['states']:>9,} {name:>5} {r['build']:>7.2f} {r['solve']:>8.2f} {r['rss_mb']:>7.0f} "
                  f"{r['digits']:>6}{ratio}", flush=True)


if __name__ == "__main__":
    main(sys.argv[1:])
