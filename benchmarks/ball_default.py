"""Benchmark: which certified method ``solve ... --backend ball`` should run by default (issue 22, item 11).

For each game and size, every method that certifies (or can) side by side in one run: CPU seconds of
this process, how many decisions it certifies, and whether the answer's 8 decimals are certified at
that precision in one evaluation (no Ziv reruns: a method that needs them is not the fastest). Exact
mpq (the default backend) is shown for scale.

* race: float64 intervals (``--prec 53``, games/race/interval.py), arb balls at 64 and 128 bits
  (games/race/ball.py), exact mpq (targets up to ``--exact-up-to``, default 1000);
* hold: its arb balls at 53, 64 and 128 bits (games/hold/ball.py), exact mpq;
* pig (examples/pig.py, a user model): the engine in arb balls at 53, 64 and 128 bits
  (engine/ball.py), the exact engine.

    python benchmarks/ball_default.py race 100 500 1000 2000
    python benchmarks/ball_default.py hold 30 75
    python benchmarks/ball_default.py pig 20 50
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "src"))

DIGITS = 8
ARB_PRECS = {"race": (64, 128), "hold": (53, 64, 128), "pig": (53, 64, 128)}


def _timed(f):
    c = time.process_time()
    out = f()
    return out, time.process_time() - c


def _decimal(lo, hi) -> str:
    from exactplay.numbers.decimals import decimal_digits

    a, b = decimal_digits(lo, DIGITS), decimal_digits(hi, DIGITS)
    return a if a == b else "not certified"


def _ball_decimal(x) -> str:
    from exactplay.numbers.balls import finite_ends

    lo, hi = finite_ends(x)
    return "not certified" if lo is None else _decimal(lo, hi)


def _line(name: str, cpu: float, certified: int, decisions: int, decimal: str) -> tuple[str, float, bool]:
    print(f"  {name:26}: {cpu:9.2f} s CPU   certified {certified:>12,} of {decisions:,}   "
          f"{DIGITS} decimals {decimal}", flush=True)
    return name, cpu, decimal != "not certified"


def _race(n: int, exact_up_to: int) -> list:
    from fractions import Fraction

    from exactplay.games.race.ball import ball_run
    from exactplay.games.race.interval import interval_run

    rows = []
    r, cpu = _timed(lambda: interval_run(n))
    rows.append(_line("float64 intervals (53)", cpu, r.certified, r.decisions,
                      _decimal(Fraction(r.answer[0]), Fraction(r.answer[1]))))
    for p in ARB_PRECS["race"]:
        run, cpu = _timed(lambda: ball_run(n, p))
        rows.append(_line(f"arb balls {p} bits", cpu, run.certified, run.decisions, _ball_decimal(run.answer)))
    if n <= exact_up_to:
        from exactplay.games.race import solve_table

        t, cpu = _timed(lambda: solve_table(n, "mpq", keep_table=False))
        rows.append(_line("exact mpq (default backend)", cpu, n * n, n * n, _decimal(t.answer, t.answer)))
    return rows


def _hold(target: int, faces: int) -> list:
    from exactplay.games.hold import tables
    from exactplay.games.hold.ball import ball_table
    from exactplay.games.hold.tables import exact_table

    def fresh():  # each method computes its own float guide (the tables are cached)
        tables._FLOAT_CACHE.clear()
        tables._EXACT_CACHE.clear()

    rows = []
    for p in ARB_PRECS["hold"]:
        fresh()
        t, cpu = _timed(lambda: ball_table(target, faces, p))
        rows.append(_line(f"arb balls {p} bits", cpu, t.certified, t.decisions, _ball_decimal(t.V[0][0])))
    fresh()
    t, cpu = _timed(lambda: exact_table(target, faces, "mpq"))
    rows.append(_line("exact mpq (default backend)", cpu, 0, 0, _decimal(t.V[0][0], t.V[0][0])))
    return rows


def _pig(goal: int) -> list:
    from exactplay.engine import solve_model
    from exactplay.engine.ball import ball_solve
    from exactplay.model import build_model
    from exactplay.model.load import make_game

    root = Path(__file__).resolve().parent.parent
    model = build_model(make_game(str(root / "examples" / "pig.py") + ":make_game", {"goal": goal}), 3_000_000)
    print(f"  ({len(model):,} states)", flush=True)
    rows = []
    for p in ARB_PRECS["pig"]:
        s, cpu = _timed(lambda: ball_solve(model, p))
        rows.append(_line(f"arb balls {p} bits", cpu, s.certified, s.decisions, _ball_decimal(s.value[0])))
    s, cpu = _timed(lambda: solve_model(model, "mpq"))
    v = s.values[model.initial][0]
    rows.append(_line("exact engine mpq (default)", cpu, 0, 0, _decimal(v, v)))
    return rows


def main(argv: list[str]) -> None:
    exact_up_to = 1000
    if "--exact-up-to" in argv:
        i = argv.index("--exact-up-to")
        exact_up_to = int(argv[i + 1])
        del argv[i:i + 2]
    game, sizes = argv[0], [int(x) for x in argv[1:]]
    for n in sizes:
        if game == "race":
            print(f"\nrace target {n} ({n * n:,} decisions)", flush=True)
            rows = _race(n, exact_up_to)
        elif game == "hold":
            print(f"\nhold target {n} faces 6", flush=True)
            rows = _hold(n, 6)
        elif game == "pig":
            print(f"\npig to {n} (examples/pig.py, a user model)", flush=True)
            rows = _pig(n)
        else:
            raise SystemExit(f"unknown game {game!r}: race, hold or pig")
        ball = [r for r in rows if not r[0].startswith("exact") and r[2]]
        if ball:
            name, cpu, _ = min(ball, key=lambda r: r[1])
            print(f"  fastest ball method certifying the {DIGITS} decimals: {name} ({cpu:.2f} s)", flush=True)


if __name__ == "__main__":
    main(sys.argv[1:])
