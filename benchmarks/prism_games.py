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
  certify   the certificate written (JSON) and re-verified by the standard-library checker
  float     PRISM's float value iteration (Gauss-Seidel, relative 1e-6) on the same model, for the
            audit (its value printed beside the exact one)

    python benchmarks/prism_games.py [--shared DIR] [--only NAME] [--no-certify]

``DIR`` is the folder of the outside benchmarks (default ``../shared/benchmarks`` beside the
repository); the instances are its ``prism-games/`` models with the values in its README.

Measured (2-core machine shared with other jobs, load average 6-9; stormpy 2.0.0, Python 3.11.7;
CPU seconds of one run)::

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
certificate is what does not fit: 533 MB of JSON, 131 s to write and verify (model_to_json and its
digest 32 s, dumps 20 s, json.loads 18 s, the checker about 60 s) and 5 GB at its peak.  Before the
bulk conversion (one entry at a time through stormpy's bindings) the arrays took 16.5 s and the
model 10.3 s.  Storm's build with the choice origins and valuations is 12-16 s of the total; stormpy
offers no bulk access to the matrix (``print_row`` per choice is the fastest found: about 1 us per
entry, against 15 us for the entry iterator).
"""

from __future__ import annotations

import argparse
import json
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
    from exactplay.checker.model import verify
    from exactplay.engine import solve_model
    from exactplay.interop.prism_iteration import prism_value_iteration
    from exactplay.interop.symbolic_model import load
    from exactplay.certify.model import model_certificate
    from exactplay.strict_json import dumps
    from exactplay.api.symbolic import source_block

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
        cert = model_certificate(sol, source=source_block(loaded, sol))
        with tempfile.TemporaryDirectory() as tmp:
            out = Path(tmp) / "c.json"
            out.write_text(dumps(cert) + "\n")
            verify(json.loads(out.read_text()))
        row["certify"] = time.process_time() - t
    t = time.process_time()
    flt = prism_value_iteration(loaded.model, loaded.query.operator == "R", "gauss-seidel")
    row["float"] = time.process_time() - t
    row["float_value"] = flt.values[loaded.initial[0]][0]
    row["maxrss_mb"] = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss // 1024
    return row


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--shared", default=str(ROOT.parent / "shared" / "benchmarks"))
    ap.add_argument("--only", default=None, help="run the instances whose name contains this")
    ap.add_argument("--no-certify", action="store_true")
    args = ap.parse_args()
    folder = Path(args.shared) / "prism-games"
    if not folder.is_dir():
        sys.exit(f"no {folder}: give --shared DIR (the outside benchmarks)")
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
