"""Benchmark: PRISM-games models solved exactly, from the file to the certified answer.

For each instance, CPU seconds (``time.process_time``) of each phase, in one process:

  build     stormpy: parse the file, define the constants, parse the property, build the model
            exactly (``build_model[stormpy.Rational]``, with state valuations, choice labels and
            origins, all labels) -- Storm's C++ builder
  extract   the sparse matrix, players, labels, valuations read into flat arrays
            (``interop.storm_arrays.extract``: one ``print_row`` per choice, each distinct number
            converted once)
  convert   the property's target and until sets (Storm's propositional checker), choice names,
            and the game model (``interop.objective.reach_model``)
  solve     the exact engine (``solve_model``, every state's value)
  certify   the certificate written (JSON, streamed: ``write_model_certificate``) and re-verified by
            the standard-library checker (``load_certificate`` + ``verify``)
  float     PRISM's float value iteration (Gauss-Seidel, relative 1e-6) on the same model, for the
            audit (its value printed beside the exact one)

    python benchmarks/prism_games.py [--shared DIR] [--only NAME] [--no-certify]
    python benchmarks/prism_games.py --commands [--only NAME] [--store values|policy]

``--commands`` runs the command lines a user runs instead, each in its own process (``exactplay
solve``, ``exactplay certify -o FILE``, ``exactplay check FILE``; CPU = user + system of the process,
``os.wait4``, and its peak RSS), beside PRISM-games' recorded time (PRISM-games is not installed
here: 20 s to build and 38 s of value iteration for team-form, ../shared/benchmarks/README.md).

``DIR`` is the folder of the outside benchmarks (default ``../shared/benchmarks`` beside the
repository); the instances are its ``prism-games/`` models with the values in its README.

Measured (2-core machine shared with other jobs, load average 6-9; stormpy 2.0.0, Python 3.11.7;
CPU seconds of one run), before the certificate was streamed::

    instance                states   build extract convert   solve certify   total float GS  value (exact / float)
    dice N=3                   589    0.15    0.01    0.00    0.01    0.06    0.23     0.01  1283/2592 / 0.49498456790123446
    coins <<1,2,3>>             19    0.03    0.00    0.00    0.00    0.00    0.04     0.00  3/4 / 0.75
    coins <<1>>                 19    0.03    0.00    0.00    0.00    0.00    0.04     0.00  1/4 / 0.25
    team-form 5 agents     907,993   12.44    2.98    2.85    9.21  130.81  158.28    12.01  1/7 / 0.14285714285714263

Every exact value is the README's.  The float column is PRISM's Gauss-Seidel value iteration as
exactplay runs it for ``audit``: its values are the digits PRISM-games 3.2.5 prints (dice
0.49498456790123446, team-form 0.14285714285714263).  Team-form, PRISM-games: 20 s to build and
38 s of value iteration (58 s) for the float value; exactplay: 27.5 s of CPU from the file to the
exact value of every state (build 12.4, arrays 3.0, the game model 2.9, solve 9.2), 1.6 GB.  The
certificate was what did not fit: 533 MB of JSON, 131 s to write and verify (model_to_json and its
digest 32 s, dumps 20 s, json.loads 18 s, the checker about 60 s) and 5 GB at its peak.  Before the
bulk conversion (one entry at a time through stormpy's bindings) the arrays took 16.5 s and the
model 10.3 s.  Storm's build with the choice origins and valuations is 12-16 s of the total; stormpy
offers no bulk access to the matrix (``print_row`` per choice is the fastest found: about 1 us per
entry, against 15 us for the entry iterator).

The command lines, ``--commands`` (load average 9-12 on the 2 cores), team-form::

    PRISM-games 3.2.5 (float)             58.0            build 20 + value iteration 38 (recorded)
    exactplay solve                       45.5  1,749 MB  0.78 x PRISM-games
    exactplay certify                     31.7  1,322 MB  0.55 x PRISM-games  certificate 349 MB (--store values)
    exactplay check                       19.9  1,981 MB  0.34 x PRISM-games
    exactplay certify + check             51.6           0.89 x PRISM-games

A second run, after the merge of main and while this branch's tests ran on the same 2 cores (load
7-9): solve 49.4 s, certify 32.6 s (1,326 MB), check 23.9 s (1,979 MB): certify + check 56.5 s,
0.97 x PRISM-games.  The margin is thin; it depends on the machine's load.

Before the streamed writer and the faster checker: certify 79.2 s (5.0 GB, 464 MB written), check
41.9 s (2.8 GB): 121 s together.  ``exactplay solve`` costs more than ``certify``: it renders every
state's line of its report.  ``--store policy`` writes 329 MB but checked slower here (40.8 s against
32.2 s for the values, measured before the checker paused the collector while parsing: its exact
evaluation of the policy costs more than reading 907,993 rows of values).
"""

from __future__ import annotations

import argparse
import resource
import sys
import tempfile
import time
from fractions import Fraction
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "src"))

INSTANCES = [  # name, file, constants, property, the exact value (../shared/benchmarks/README.md)
    ("dice N=3", "dice.prism", "N=3", '<<P1>> Pmax=? [ F "p1win" ]', Fraction(1283, 2592)),
    ("coins <<1,2,3>>", "coins.prism", None, '<<1,2,3>> Pmax=? [F "correct"]', Fraction(3, 4)),
    ("coins <<1>>", "coins.prism", None, '<<1>> Pmax=? [F "correct"]', Fraction(1, 4)),
    ("team-form 5 agents", "team-form-offline-fc.prism", None, "<<p1>> Pmax=? [ F task1_completed ]",
     Fraction(1, 7)),
]


def run(name, path: Path, const, prop, expected, certify: bool) -> dict:
    from exactplay.certify.write import open_atomic
    from exactplay.checker import load_certificate
    from exactplay.checker.model import verify
    from exactplay.engine import solve_model
    from exactplay.interop.prism_iteration import prism_value_iteration
    from exactplay.interop.symbolic_model import load
    from exactplay.api.symbolic import source_block
    from exactplay.certify.model import write_model_certificate

    loaded = load(str(path), const, prop)
    row = {"name": name, "states": len(loaded.model), **loaded.seconds}
    t = time.process_time()
    sol = solve_model(loaded.model, "mpq")
    row["solve"] = time.process_time() - t
    value = Fraction(int(sol.values[loaded.initial[0]][0].numerator), int(sol.values[loaded.initial[0]][0].denominator))
    row["value"] = value
    row["right"] = value == expected
    if certify:
        t = time.process_time()
        with tempfile.TemporaryDirectory() as tmp:
            out = Path(tmp) / "c.json"
            with open_atomic(out) as f:
                write_model_certificate(sol, f, source=source_block(loaded, sol))
            verify(load_certificate(out))
        row["certify"] = time.process_time() - t
    t = time.process_time()
    flt = prism_value_iteration(loaded.model, loaded.query.operator == "R", "gauss-seidel")
    row["float"] = time.process_time() - t
    row["float_value"] = flt.values[loaded.initial[0]][0]
    row["maxrss_mb"] = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss // 1024
    return row


# PRISM-games 3.2.5 on team-form (../shared/benchmarks/README.md; PRISM-games is not installed here):
# 20 s to build, 38 s of value iteration, for the float value
PRISM_GAMES_SECONDS = {"team-form 5 agents": (20.0, 38.0)}


def _child(argv: list[str]) -> tuple[float, int, int]:
    """``(CPU seconds user+sys, peak RSS in MB, exit status)`` of one command run to its end."""
    import os
    import subprocess

    env = {**os.environ, "PYTHONPATH": str(ROOT / "src")}
    with open(os.devnull, "w") as null:
        proc = subprocess.Popen(argv, stdout=null, env=env)
        _, status, usage = os.wait4(proc.pid, 0)
    proc.returncode = os.waitstatus_to_exitcode(status)
    return usage.ru_utime + usage.ru_stime, usage.ru_maxrss // 1024, proc.returncode


def commands(name, path: Path, const, prop, store: str) -> None:
    """The command lines a user runs, each in its own process, side by side with PRISM-games: solve,
    certify (-o FILE) and check FILE; CPU of each (user + system, ``os.wait4``) and its peak memory."""
    exe = [sys.executable, "-m", "exactplay"]
    model = ["--model", str(path), "--prop", prop] + (["--const", const] if const else [])
    with tempfile.TemporaryDirectory() as tmp:
        cert = str(Path(tmp) / "c.json")
        rows = [("solve", exe + ["solve", *model, "-q"]),
                ("certify", exe + ["certify", *model, "-q", "--store", store, "-o", cert]),
                ("check", exe + ["check", cert, "-q"])]
        got = {}
        for what, argv in rows:
            got[what] = _child(argv)
            if what == "certify":
                size = Path(cert).stat().st_size if Path(cert).exists() else 0
        if any(rc for _, _, rc in got.values()):
            sys.exit(f"{name}: a command failed: " + ", ".join(f"{w} exit {rc}" for w, (_, _, rc) in got.items()))
    prism = PRISM_GAMES_SECONDS.get(name)
    ref = sum(prism) if prism else None
    print(f"\n{name} ({path.name}, {prop}), each command in its own process, CPU seconds (user+sys):")
    if prism:
        print(f"  {'PRISM-games 3.2.5 (float)':34} {ref:7.1f}            build {prism[0]:g} + value iteration "
              f"{prism[1]:g} (recorded in ../shared/benchmarks/README.md)")
    for what, (cpu, rss, _) in got.items():
        extra = f"  certificate {size / 1e6:,.0f} MB (--store {store})" if what == "certify" else ""
        ratio = f"  {cpu / ref:4.2f} x PRISM-games" if ref else ""
        print(f"  {'exactplay ' + what:34} {cpu:7.1f} {rss:6,} MB{ratio}{extra}")
    both = got["certify"][0] + got["check"][0]
    print(f"  {'exactplay certify + check':34} {both:7.1f}" + (f"           {both / ref:4.2f} x PRISM-games" if ref else ""),
          flush=True)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--shared", default=str(ROOT.parent / "shared" / "benchmarks"))
    ap.add_argument("--only", default=None, help="run the instances whose name contains this")
    ap.add_argument("--no-certify", action="store_true")
    ap.add_argument("--commands", action="store_true",
                    help="run the command lines instead (solve, certify, check, each in its own process) "
                         "beside PRISM-games' recorded time")
    ap.add_argument("--store", choices=("values", "policy"), default="values", help="certify --store (--commands)")
    args = ap.parse_args()
    folder = Path(args.shared) / "prism-games"
    if not folder.is_dir():
        sys.exit(f"no {folder}: give --shared DIR (the outside benchmarks)")
    if args.commands:
        for name, file, const, prop, _ in INSTANCES:
            if (args.only and args.only not in name) or (not args.only and name not in PRISM_GAMES_SECONDS):
                continue
            commands(name, folder / file, const, prop, args.store)
        return
    print(f"{'instance':20} {'states':>9} {'build':>7} {'extract':>7} {'convert':>7} {'solve':>7} {'certify':>7} "
          f"{'total':>7} {'float GS':>8}  value (exact / PRISM's float iteration)")
    for name, file, const, prop, expected in INSTANCES:
        if args.only and args.only not in name:
            continue
        r = run(name, folder / file, const, prop, expected, not args.no_certify)
        total = r["build"] + r["extract"] + r["convert"] + r["solve"] + r.get("certify", 0.0)
        print(f"{name:20} {r['states']:>9,} {r['build']:7.2f} {r['extract']:7.2f} {r['convert']:7.2f} "
              f"{r['solve']:7.2f} {r.get('certify', 0.0):7.2f} {total:7.2f} {r['float']:8.2f}  "
              f"{r['value']} {'(right)' if r['right'] else '(WRONG)'} / {r['float_value']!r}  "
              f"[{r['maxrss_mb']:,} MB]", flush=True)


if __name__ == "__main__":
    main()
