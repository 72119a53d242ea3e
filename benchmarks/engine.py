"""Benchmark: the generic engine on the built-in games written as models, against today's
hand-written exact solvers, and against Storm's exact engine on a Pig MDP (issue 10, "Speed").

Times are CPU seconds (``time.process_time``), best of ``--repeat`` runs (3 by default).
``engine`` = building the model from the game object (``build_model``) + ``solve_model``;
both parts are also printed.  ``solve_model`` is lazy (exact numbers the solve does not need are
computed on first read); ``all exact`` adds reading every value, margin and action value of the
Solution (what the eager engine computed), with its ratio.  ``hand`` = today's hand-written exact solver (mpq):
race ``race.solve_table``, hold ``hold_solver.solve_table`` guided by the float table (what
the cached ``hold.exact_table`` runs, timed uncached, the float table included), chefs
``chefs.solve_exact`` (``chefs_fast``).  The exact values are compared, not only timed.  Goal: engine/hand
at most 3x, not worse than 10x.

Storm part (if ``stormpy`` imports): Piglet (a coin: heads +1, tails loses the turn
total) and Pig (a die) as an MDP, the second player's strategy fixed to
"hold when the turn total reaches k (or the goal)"; the model is exported to Storm's
explicit DRN format with ``@value_type: rational``, read by
``stormpy.build_model_from_drn[stormpy.Rational]`` and checked with
``Pmax=? [F "won"]`` in ``stormpy.environments.exact()`` with the min-max method
set to policy iteration (``topological`` is printed too).  Storm's time = DRN parse
+ model checking (writing the DRN text is not counted); the engine's = build + solve.

    PYTHONPATH=src python3 benchmarks/engine.py [--repeat 3] [--quick]

Measured on the merged code (fastbuild + lazyengine, then the CLI made eager), 2026-11-30 20:51-20:54
UTC, ``--repeat 1`` then ``--hold 75``, load average 0.9-1.0 on 2 shared cores; CPU seconds; exact values
equal in every row.  ``all exact`` = build + lazy solve + reading every value, margin and action value
(what the CLI, the audits and the certificates need; they get it cheaper from the eager engine,
``solve_model(..., lazy=False)``: hold 75 / 6 96 s against 128-135 s lazy + all read, in the lazyengine
branch's runs, ``engine_history.md``)::

    game        size   states   engine  (build + solve)     hand   ratio all exact   ratio
    race          50    2,503    0.323   0.066    0.257    0.154    2.1x     0.359    2.3x
    race         100   10,003    1.608   0.327    1.281    0.079   20.4x     1.856   23.6x
    hold      20 / 6    7,260    0.623   0.051    0.572    0.027   23.1x     0.759   28.1x
    hold      30 / 6   25,290    2.059   0.385    1.674    0.086   24.0x     2.633   30.7x
    hold      40 / 6   60,920    5.242   0.774    4.469    0.184   28.4x     6.919   37.5x
    hold      75 / 6  410,850   30.527   3.354   27.173    1.928   15.8x   119.162   61.8x
    chefs      n = 8    2,040    0.090   0.036    0.054    0.015    5.9x     0.090    6.0x
    chefs     n = 10   10,230    0.626   0.087    0.539    0.084    7.5x     0.631    7.5x
    chefs     n = 12   49,140    7.049   0.399    6.650    1.079    6.5x     7.071    6.6x

    Storm (same MDP)                          states  engine (solve)  storm PI  topo  engine/PI  /topo
    Piglet to 10, second player holds at 4       287   0.012  0.009     0.026  0.012    0.46x   1.0x
    Piglet to 20, second player holds at 5     1,302   0.047  0.040     0.047  0.041    1.00x   1.2x
    Piglet to 50, second player holds at 6    14,377   0.664  0.548     0.750  0.411    0.89x   1.6x
    Pig to 20, second player holds at 10       2,239   0.092  0.078     0.127  0.067    0.73x   1.4x
    Pig to 30, second player holds at 15       5,439   0.431  0.241     0.426  0.216    1.01x   2.0x
    Pig to 50, second player holds at 20      30,808   1.690  1.649     4.931  2.886    0.34x   0.6x

2026-11-30 21:15-21:17 UTC, branch raceloop (self-loop states, issue 10), ``--only games --repeat 3``, main then the
branch in one run, load 1.6-2.0: race 100 solve 1.334 -> 0.692 s (engine 22.0x -> 13.6x, all exact 25.3x -> 16.6x),
race 50 0.268 -> 0.151 s (8.4x -> 5.5x), hold 30 / 6 1.525 -> 1.300 s, hold 40 / 6 3.998 -> 3.402 s, hold 20 and chefs
within noise; exact values equal.

Against the goal (at most 3x, not worse than 10x): chefs 12 meets the floor (6.5x); hold 75 / 6 went
from 50x to 15.8x (lazy solve: exact values at the cut states only, decisions in balls); race 100 (20x)
and hold 20-40 (23-28x) do not: their solve is per-state Python work (float seed, Tarjan, end
components, ranks, the ball passes), not long numbers.  Storm: faster than its exact policy iteration
on 5 of 6 MDPs (equal on Pig 30), slower than its topological solver on all but Pig 50.

2026-11-30 21:18-21:22 UTC, holdoverhead (the solve under ``fewer_collections``, worklist attractors, no
end-component search where the model has none, seed floats converted once), ``--only games``, base then
branch back to back, load 1.8-2.9 on 2 shared cores: solve hold 20 / 30 / 40 0.373 / 1.537 / 3.879 -> 0.360
/ 1.247 / 3.062 s (engine/hand 23.1x -> 20.0x at 40), race 100 1.377 -> 1.098, chefs 12 6.628 -> 6.258;
Pig 40 (``examples/pig.py``) solve 3.019 -> 2.170 s; values, policy, ties, margins, q, ranks, stats equal.

2026-12-01 00:07-00:13 UTC, branch ends (end components by the staying core, surely-ending states from the
components, witness_kind and never_ending cut), main then branch interleaved, best of 3 (hold 75 once), load
4.1-4.9: solve hold 40 / 6 3.620 -> 3.111 s, Pig 40 2.580 -> 2.309, race 100 0.720 -> 0.682, hold 75 / 6
28.933 -> 22.039 s (build 3.7 s: build + solve 25.7 s, 13.3x the hand solver's 1.93 s); identity harness equal.
Again 00:58-01:00 UTC, load 0.1-1.5: hold 40 3.027 -> 2.489 s, Pig 40 2.130 -> 1.996, hold 75 22.726 -> 18.347 s
(build 3.366 s: build + solve 21.7 s, 11.3x the table's hand 1.93 s).
2026-12-01 00:59-01:01 UTC, branch seedfast (the float seed: one search+plan pass, value-only greedy passes,
start from the last component's cut values), solve_model CPU s best of 3 interleaved base/branch, load
0.7-1.2: hold 40 / 6 solve 3.040 -> 2.840 s (seed 0.767 -> 0.444), Pig 40 2.112 -> 1.905 (seed 0.564 ->
0.357); hold 75 / 6 (one run each) 23.968 -> 21.104 s (seed 5.667 -> 3.073); stats.rounds equal (1518, 1513, 5473).
2026-12-01 00:15-00:21 UTC, branch cutpass (the lazy cyclic solve's passes: the policy's distributions and
rewards looked up once per evaluation, no closed-state search where a post-order pass proves every state
leaves, reach-probability passes stop when none is pending, a choice the improvement step proved is not
compared again, ball caches read inline), main 4fa69e8 then the branch back to back in subprocesses, best
of 3 (hold 75 once), 00:49-00:51 UTC at load 0.4-1.2: solve hold 30 / 6 1.221 -> 1.143 s, hold 40 / 6 3.094 ->
2.952 s, hold 75 / 6 23.73 -> 21.99 s, Pig 40 2.184 -> 2.005 s (00:15-00:21 at load 6-8: 1.415 -> 1.330, 3.451
-> 3.261, 28.50 -> 26.90, 2.413 -> 2.377); values, policy, ties, margins, q, ranks, stats equal.
2026-12-01 00:08-01:12 UTC, branch finishpass (ranks, feedback order, zero region, closed states: less per-state
Python work), main's src then the branch back to back, CPU s: hold 75 / 6 solve 30.00 -> 26.37 s (best of 1, load
4.4-4.8), hold 40 / 6 3.030 -> 2.864, Pig 40 2.118 -> 1.999, race 100 0.629 -> 0.641 (noise) (best of 2, load 0.0-0.4);
identity harness equal.
2026-12-01 00:49 UTC, branch raceself (self-loop filter in doubles with a proven bound, race transitions), race
only, main then branch interleaved x3, best of 3, load 0.3-0.9: race 100 solve 0.719 -> 0.598 s, build 0.293 -> 0.268
(engine 14.2x -> 12.1x of hand 0.071, all exact 17.1x -> 15.1x), race 50 solve 0.140 -> 0.118 (10.8x -> 9.2x); identical.

2026-12-01 02:53-02:55 UTC, main after merging ends, seedfast, cutpass, finishpass, raceself (and the hold model's
one turn-ending outcome), ``--only games --repeat 1`` then ``--hold 75``, load 0.3-1.1; exact values equal in every row::

    game        size   states   engine  (build + solve)     hand   ratio all exact   ratio
    race         100   10,003    0.922   0.282    0.640    0.073   12.6x     1.142   15.7x
    hold      20 / 6    7,260    0.280   0.044    0.237    0.024   11.5x     0.562   23.0x
    hold      30 / 6   25,290    0.937   0.157    0.780    0.077   12.1x     1.550   20.0x
    hold      40 / 6   60,920    2.357   0.419    1.939    0.182   12.9x     4.586   25.1x
    hold      75 / 6  410,850   17.175   3.176   14.000    2.010    8.5x   112.522   56.0x
    chefs     n = 12   49,140    7.312   1.143    6.169    0.787    9.3x     7.332    9.3x

Against the floor of 10x: hold 75 / 6 (8.5x, was 15.8x) and chefs 12 (9.3x) meet it; race 100 (12.6x) does not.
2026-12-01 03:51-03:53 UTC, branch chefscyc (cyclic components without choices and several payoff components on
unreduced numerators, ``engine/raw_values.py``: exact mpq values, margins, q made on first read), main's src then the branch
interleaved in subprocesses, best of 3, load 1.0-2.0: chefs 12 solve 5.993 -> 2.507 s (build 0.37 s: engine 9.2x -> 4.1x of
hand 0.69-0.70 s; all exact, the lazy API reading everything, 6.01 -> 7.45 s, 9.2x -> 11.1x, peak 280 -> 320 MB; the CLI's
eager engine unchanged), chefs 10 0.376 -> 0.282 (all exact 0.380 -> 0.530), hold 40 / 6 1.890 -> 1.902, Pig 40 1.526 ->
1.550 (noise: not this path); identity harness equal.
2026-12-01 03:55-03:56 UTC, branch racebuild (the model build: the plain reader inlined in the enumeration loop,
actions checked once per returned tuple, validate by whole-list passes / movers alone, cheaper race, hold and chefs
transitions), ``build_model`` CPU s, main's src then the branch in fresh processes, interleaved, best of 3, load
2.3-2.8: build race 100 0.227 -> 0.194 s, chefs 12 0.352 -> 0.283, hold 75 / 6 3.183 -> 2.414 (Pig 40, examples/pig.py,
0.381 -> 0.339); same models (identity harness equal).

The earlier measurements, what each branch changed and where the time went are kept in
``benchmarks/engine_history.md``.

"""

from __future__ import annotations

import argparse
import gc
import os
import sys
import tempfile
import time
from fractions import Fraction

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "src"))

from exactplay.engine.solve import solve_model  # noqa: E402
from exactplay.games import chefs, race  # noqa: E402
from exactplay.games.hold.solver import solve_table as hold_table  # noqa: E402
from exactplay.games import MODELS  # noqa: E402
from exactplay.model import build_model  # noqa: E402


def best_of(f, repeat: int):
    """``(shortest CPU time, result of the last run)``."""
    best, out = None, None
    for _ in range(repeat):
        out = None  # the previous result freed before the clock starts (not counted in the next run)
        t = time.process_time()
        out = f()
        dt = time.process_time() - t
        best = dt if best is None else min(best, dt)
    return best, out


def F(x) -> Fraction:
    return Fraction(int(x.numerator), int(x.denominator))


# ------------------------------------------------------------------ engine vs hand-written


def engine_run(game_factory, repeat: int):
    """Build, lazy solve, eager solve (every exact number: values, margins, q): three CPU times."""
    tb, model = best_of(game_factory_build(game_factory), repeat)
    ts, sol = best_of(lambda: solve_model(model), repeat)
    te, eager = best_of(lambda: solve_model(model, lazy=False), repeat)
    if [F(x) for x in eager.value] != [F(x) for x in sol.value]:
        raise SystemExit("the eager and the lazy engine differ")
    return tb, ts, te, model, sol


def game_factory_build(game_factory):
    return lambda: build_model(game_factory())


# per game: (size label, the game, the hand-written solver, the engine's answer, the hand's answer); the
# answers are lists of Fractions, compared after both runs (neither run's results alive during the other)
CASES = {
    "race": [(f"{n}", lambda n=n: MODELS["race"](target=n), lambda n=n: race.solve_table(n),
              lambda sol: [F(sol.value[1])], lambda h: [F(h.answer)]) for n in (50, 100)],
    # hold.exact_table is cached: time the uncached call it wraps (float table as the guide, then exact)
    "hold": [(f"{t} / 6", lambda t=t: MODELS["hold"](target=t, faces=6),
              lambda t=t: hold_table(t, 6, "mpq", guide=hold_table(t, 6, "float")),
              lambda sol: [F(sol.value[0])], lambda h: [F(h.V[0][0])]) for t in (20, 30, 40)],
    "chefs": [(f"n = {n}", lambda n=n: MODELS["chefs"](n=n), lambda n=n: chefs.solve_exact(chefs.fibonacci_skills(n)),
               lambda sol: [F(x) for x in sol.value], lambda h: [F(x) for x in h.W1] + [F(h.E)])
              for n in (8, 10, 12)],
}


def bench_games(repeat: int, quick: bool, hand_repeat: int | None = None) -> list[str]:
    """One line per case: the hand-written solver timed first, its answer kept and the rest freed, then
    the engine (so that neither run's results are alive, and walked by the garbage collector, during
    the other's)."""
    lines = [f"{'game':<7} {'size':>8} {'states':>8} {'engine':>8} {'(build':>7} {'+ solve)':>8} "
             f"{'hand':>8} {'ratio':>7} {'all exact':>9} {'ratio':>7}  exact values"]
    print(lines[0], flush=True)
    for name, cases in CASES.items():
        for label, make, hand, engine_answer, hand_answer in cases:
            if quick and label in ("100", "30 / 6", "40 / 6", "n = 12"):
                continue
            gc.collect()
            th, h = best_of(hand, hand_repeat or repeat)
            want = hand_answer(h)
            del h
            gc.collect()
            tb, ts, te, model, sol = engine_run(make, repeat)
            ok = engine_answer(sol) == want
            n_states = len(model)
            del model, sol
            total = tb + ts
            lines.append(f"{name:<7} {label:>8} {n_states:>8,} {total:>8.3f} {tb:>7.3f} {ts:>8.3f} "
                         f"{th:>8.3f} {total / th:>6.1f}x {tb + te:>9.3f} {(tb + te) / th:>6.1f}x  "
                         f"{'equal' if ok else 'DIFFER'}")
            print(lines[-1], flush=True)
    return lines


# ------------------------------------------------------------------ Storm


class FixedPig:
    """Pig / Piglet with the second player's strategy fixed: an MDP for the first player.

    ``outcomes``: the increments of one roll (0 = lose the turn total), equally likely.
    Player 1 (the second) rolls until its turn total reaches ``k`` or the goal, then holds.
    """

    num_players = 2
    player_names = ["first player", "second player"]

    def __init__(self, goal: int, outcomes: tuple[int, ...], k: int, name: str):
        self.goal, self.outcomes, self.k = goal, outcomes, k
        self.p = Fraction(1, len(outcomes))
        self.name = f"{name} to {goal}, second player holds at {k}"

    def initial_state(self):
        return (0, 0, 0, 0)

    def is_terminal(self, s):
        return s[0] == "won"

    def payoff(self, s):
        return (1, 0) if s[1] == 0 else (0, 1)

    def mover(self, s):
        return s[0]

    def actions(self, s):
        p, a, b, turn = s
        if p == 1:
            return ["hold"] if turn >= self.k else ["roll"]
        return ["roll", "hold"] if turn > 0 else ["roll"]

    def transitions(self, s, action):
        p, a, b, turn = s
        mine = a if p == 0 else b
        other = 1 - p
        if action == "hold":
            return [(1, (other, a + turn, b, 0) if p == 0 else (other, a, b + turn, 0))]
        out = []
        for inc in self.outcomes:
            if inc == 0:
                out.append((self.p, (other, a, b, 0)))
            elif mine + turn + inc >= self.goal:
                out.append((self.p, ("won", p)))
            else:
                out.append((self.p, (p, a, b, turn + inc)))
        return out

    def state_label(self, s):
        return f"won {s[1]}" if s[0] == "won" else str(s)


def to_drn(model) -> str:
    """The engine's model as Storm's explicit DRN (MDP, exact rationals); label ``won``: player 0 won."""
    out = ["// exactplay model: " + model.name, "@type: MDP", "@value_type: rational", "@parameters", "",
           "@reward_models", "", "@nr_states", str(len(model)), "@nr_choices",
           str(sum(max(1, len(model.trans[s])) for s in range(len(model)))), "@model"]
    for s in range(len(model)):
        labels = []
        if s == model.initial:
            labels.append("init")
        term = model.terminal[s]
        if term is not None and term[0] == 1:
            labels.append("won")
        out.append(f"state {s} " + " ".join(labels))
        if term is not None:
            out.append("\taction 0")
            out.append(f"\t\t{s} : 1")
            continue
        for a, dist in enumerate(model.trans[s]):
            out.append(f"\taction {a}")
            for t, p in sorted(dist):
                out.append(f"\t\t{t} : {p.numerator}/{p.denominator}")
    return "\n".join(out) + "\n"


def bench_storm(repeat: int, quick: bool, big: bool = False) -> list[str]:
    try:
        import stormpy
        import stormpy.environments as E
    except ImportError as exc:
        return [f"stormpy not importable ({exc}): Storm comparison skipped"]
    games = [("Piglet", 10, (0, 1), 4), ("Piglet", 20, (0, 1), 5), ("Piglet", 50, (0, 1), 6),
             ("Pig", 20, (0, 2, 3, 4, 5, 6), 10), ("Pig", 30, (0, 2, 3, 4, 5, 6), 15),
             ("Pig", 50, (0, 2, 3, 4, 5, 6), 20)]
    if big:
        games = [("Pig", 100, (0, 2, 3, 4, 5, 6), 20)]
    if quick:
        games = games[:1] + games[3:4]
    lines = [f"{'MDP':<40} {'states':>7} {'choices':>8} {'engine':>8} {'(solve)':>8} {'storm PI':>9} "
             f"{'storm topo':>10} {'engine/storm PI':>15} {'/topo':>6}  exact values"]
    print(lines[0], flush=True)
    prop = stormpy.parse_properties('Pmax=? [F "won"]')[0]
    tmp = tempfile.mkdtemp(prefix="exactplay-storm-")
    for name, goal, outcomes, k in games:
        game = FixedPig(goal, outcomes, k, name)
        te, (model, sol) = best_of(lambda: _engine_pair(game), repeat)
        ts, _ = best_of(lambda: solve_model(model), repeat)
        path = os.path.join(tmp, f"{name}-{goal}.drn")
        with open(path, "w") as fh:
            fh.write(to_drn(model))
        results = {}
        for method in ("POLICY_ITERATION", "TOPOLOGICAL"):
            def storm():
                m = stormpy.build_model_from_drn[stormpy.Rational](path)
                env = E.exact()
                env.solver().min_max().method = getattr(E.MinMaxMethod, method)
                r = stormpy.model_checking(m, prop, environment=env, only_initial_states=True)
                return m, r.get_value(m.initial_states[0])

            results[method] = best_of(storm, repeat)
        tpi, (sm, v_pi) = results["POLICY_ITERATION"]
        ttp, (_, v_tp) = results["TOPOLOGICAL"]
        ours = F(sol.value[0])
        same = Fraction(str(v_pi)) == ours == Fraction(str(v_tp))
        lines.append(f"{game.name:<40} {len(model):>7,} {sm.nr_choices:>8,} {te:>8.3f} {ts:>8.3f} {tpi:>9.3f} "
                     f"{ttp:>10.3f} {te / tpi:>14.2f}x {te / ttp:>5.1f}x  {'equal' if same else 'DIFFER'} "
                     f"({float(ours):.10f}, "
                     f"{len(str(ours.denominator))}-digit denominator)")
        print(lines[-1], flush=True)
    return lines


def _engine_pair(game):
    model = build_model(game)
    return model, solve_model(model)


def main(argv: list[str]) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--quick", action="store_true", help="small sizes only (a smoke test)")
    ap.add_argument("--only", choices=["games", "storm"], default=None)
    ap.add_argument("--pig100", action="store_true", help="only Pig to 100 against Storm, one run")
    ap.add_argument("--game", choices=sorted(CASES), help="only this game's cases (with --only games)")
    ap.add_argument("--hold", type=int, metavar="T",
                    help="only hold T / 6, the engine once, the hand solver best of 3 (e.g. 75: minutes)")
    args = ap.parse_args(argv)
    if args.pig100:
        bench_storm(1, False, big=True)
        return
    if args.hold:
        CASES.clear()
        CASES["hold"] = [(f"{args.hold} / 6", lambda: MODELS["hold"](target=args.hold, faces=6),
                          lambda: hold_table(args.hold, 6, "mpq", guide=hold_table(args.hold, 6, "float")),
                          lambda sol: [F(sol.value[0])], lambda h: [F(h.V[0][0])])]
        bench_games(1, False, hand_repeat=3)
        return
    if args.game:
        for name in [n for n in CASES if n != args.game]:
            del CASES[name]
    if args.only in (None, "games"):
        print("Engine (model build + solve) vs hand-written exact solver, CPU seconds, best of", args.repeat)
        bench_games(args.repeat, args.quick)
        print()
    if args.only in (None, "storm"):
        print("Storm exact (DRN rational, parse + check) vs engine (build + solve), CPU seconds, best of", args.repeat)
        lines = bench_storm(args.repeat, args.quick)
        if len(lines) == 1:
            print(lines[0])


if __name__ == "__main__":
    main(sys.argv[1:])
