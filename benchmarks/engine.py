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

Measured 2026-11-30 (this machine: 2 shared cores under load average ~9, Python 3.11.7,
gmpy2, stormpy 2.0.0; CPU seconds, best of 3; states = size of the engine's model):

    game        size   states   engine  (build + solve)     hand   ratio  exact values
    race          50    2,503    0.918   0.574    0.344    0.039   23.3x  equal
    race         100   10,003    5.081   3.061    2.020    0.215   23.6x  equal
    hold      20 / 6    7,260    1.877   0.296    1.581    0.021   89.0x  equal
    hold      30 / 6   25,290    6.971   1.441    5.529    0.065  106.8x  equal
    hold      40 / 6   60,920   20.221   4.129   16.092    0.164  123.3x  equal
    hold      75 / 6  410,850  334.309  22.837  311.472    1.740  192.2x  equal   (one run, --hold 75; RSS ~2 GB)
    chefs      n = 8    2,040    0.146   0.071    0.075    0.011   13.4x  equal
    chefs     n = 10   10,230    1.108   0.478    0.629    0.078   14.2x  equal
    chefs     n = 12   49,140   12.402   3.838    8.564    0.709   17.5x  equal

(A re-measurement later that day, after the first engine speed-ups, gave race 14-17x, hold 39-68x, chefs
8-14x; one run each.)

Re-measured after the engine-speed branch: the code before it and after it run side by side at the
same time (``--repeat 1 --only games`` each; machine shared by several sessions, load average ~13-16
on 2 cores; exact values equal in every row):

    game        size   states   engine  (build + solve)     hand   ratio   before (engine, ratio)
    race          50    2,503    0.458   0.154    0.304    0.041   11.1x    0.661  16.4x
    race         100   10,003    2.343   0.959    1.384    0.225   10.4x    4.014  18.2x
    hold      20 / 6    7,260    0.770   0.240    0.530    0.022   34.5x    1.222  54.1x
    hold      30 / 6   25,290    2.743   0.583    2.160    0.073   37.7x    4.125  60.1x
    hold      40 / 6   60,920    8.077   1.883    6.194    0.166   48.5x   12.924  76.5x
    chefs      n = 8    2,040    0.102   0.043    0.059    0.015    6.8x    0.118   8.1x
    chefs     n = 10   10,230    0.730   0.230    0.500    0.109    6.7x    1.116  10.7x
    chefs     n = 12   49,140   10.283   2.553    7.730    0.919   11.2x   11.205  12.7x

Hold 75 / 6 (``--hold 75``, one run each, load average ~15-19; 410,850 states, values equal):
before 353.974 s (build 9.061 + solve 344.912) against 1.792 s, 197.5x; midway through the branch
(float strategy-iteration seed and the build changes, not yet the later ones) 162.451 s (8.845 +
153.607) against 1.693 s, 96.0x; after it 124.114 s (8.543 + 115.571) against 1.673 s, 74.2x.

What changed (values, policy, margins, ties, ranks, certificates unchanged): self-loops compute
each action's sum once and filter the actions by balls (race); the float seed runs float strategy
iteration after a few Gauss-Seidel sweeps, so hold and Pig components need one exact round (hold
30 / 6: 1,699 exact rounds -> 838, 2,661 exact evaluations -> 865); the evaluated action's value is
not recomputed when improving; end components are found with an attractor step and once per SCC;
the model build reads Fraction probabilities as they are and makes each label once.  Still short
of the goal: race 10-11x, chefs 7-11x, hold 35-49x (hold 75 / 6 below).

Re-measured after the enginespeed2 branch, 2026-11-30 17:20-17:35 UTC: main (``before``, 263ebb0: the
branch point plus audit changes) and the branch run side by side at the same time from two checkouts
(``--repeat 1``; machine shared, load average 7-10 on 2 cores; CPU seconds; exact values equal in every
row).  The hand race solver (code unchanged) measured 0.10 s at 100 here, 0.21-0.23 s in the tables
above, so race's ratio is higher than there although the engine got faster:

    game        size   states   engine  (build + solve)     hand   ratio   before (engine, ratio)
    race          50    2,503    0.435   0.149    0.286    0.088    5.0x    0.511   5.6x
    race         100   10,003    2.382   1.044    1.338    0.103   23.0x    2.638  24.8x
    hold      20 / 6    7,260    0.854   0.111    0.743    0.027   32.0x    0.806  30.6x
    hold      30 / 6   25,290    2.683   0.524    2.158    0.079   34.1x    2.889  35.1x
    hold      40 / 6   60,920    6.553   2.007    4.545    0.189   34.7x    7.613  40.4x
    hold      75 / 6  410,850   93.333   8.239   85.095    1.875   49.8x  123.685  64.4x   (--hold 75)
    chefs      n = 8    2,040    0.082   0.031    0.051    0.016    5.3x    0.104   6.6x
    chefs     n = 10   10,230    0.610   0.152    0.458    0.098    6.2x    0.961   9.1x
    chefs     n = 12   49,140    8.410   1.533    6.877    0.911    9.2x    9.833  12.1x

    Storm (same MDPs, engine = build + solve)  engine  before   storm PI  storm topo  engine/PI  /topo  (before)
    Piglet to 10, second player holds at 4       0.014   0.014     0.026      0.012     0.55x   1.2x  (0.47x 1.1x)
    Piglet to 20, second player holds at 5       0.058   0.053     0.049      0.042     1.18x   1.4x  (1.07x 1.3x)
    Piglet to 50, second player holds at 6       0.871   0.776     0.827      0.448     1.05x   1.9x  (0.94x 1.7x)
    Pig to 20, second player holds at 10         0.152   0.139     0.133      0.069     1.14x   2.2x  (1.05x 2.0x)
    Pig to 30, second player holds at 15         0.426   0.434     0.434      0.218     0.98x   2.0x  (1.00x 2.0x)
    Pig to 50, second player holds at 20         2.600   3.136     5.497      3.086     0.47x   0.8x  (0.58x 1.0x)

What changed (values, policy, margins, ties, ranks, q and certificates unchanged; tests/test_linear_int.py,
tests/test_engine_constant_sum.py): the float seed of a cyclic component is now greedy passes over affine
forms in the component's cut states (``engine/seed_forms.py``: one depth-first search of the union of all
actions finds the cuts -- Hold's and Pig's two turn starts -- then each round picks the best action of
every state along the post-order and solves the 2 x 2 cut system; it stops when the policy repeats,
~2.9 rounds per Hold component); a one-component policy evaluation in mpq runs in integers over one
common denominator (``engine/linear_int.py``: one reduction per value instead of a gcd per addition;
with several payoff components -- chefs' 13 -- it was slower and is not used); a two-player zero-sum
game whose plays all end and whose payoffs sum to K (Pig, Piglet, the Race) is solved in player 0's
component only, player 1's written as K - V_0 (half the exact arithmetic, half the value memory); a
choice between two actions is ordered, tied and given its margin by one subtraction; a sure move's
value is its successor's; the model build reads int probabilities and plain-int reward tuples once
(chefs' build 2.5 s -> 1.5 s).  Tried and dropped: action values summed in integers over that common
denominator (slower at hold 40 and 55: one reduction costs about what the mpq additions it replaces cost).

Where the time goes now, and why the 10x floor is not reached for race and hold:

* race 100 (23x): the model build alone (1.04 s: 10,003 states x 12 actions, the game's own
  ``transitions()`` in Python and the exact reading of ~400,000 probabilities) is already 10x the hand
  solver's 0.10 s; the solve (1.34 s, ~130 us per state: balls for 12 actions, two exact candidates,
  the margin) adds 13x.
* hold 75 / 6 (50x): build 8.2 s (4.4x the hand solver by itself).  The solve, by phase (the branch
  before its last commit, one run, load ~11): exact policy evaluation 26.8 s, exact value of the other
  action at every choice state 22.7 s, the choice (comparison + exact margin) 19.4 s, float seed 9.4 s,
  Tarjan + end components 5.6 s, ranks 2.8 s, the rest ~5 s.  The engine returns an exact value for each
  of the 410,850 states and an exact margin and two exact action values for each of ~205,000 choice
  states (numbers up to ~24,000 bits, where one mpq addition or reduction costs 0.3-1 ms); the hand
  solver computes exact values only at the 5,625 turn starts and compares hold / continue in a 128-bit
  fixed-point shadow.  The choice step alone (comparison and exact margin; since then one subtraction)
  took 19.4 s, ~10x the hand solver's whole run: while the engine returns exact per-state margins and
  action values, the 10x floor is out of reach for hold 75 by speeding up the same computation.
* chefs 12 (9.2x): the exact elimination of 13 payoff components on each rotation cycle (6.9 s solve,
  most of it mpq additions with long denominators); the hand solver keeps integer numerators over one
  denominator per alive set and never reduces them.

Re-measured after the lazyengine branch, 2026-11-30 20:15-20:25 UTC (``--repeat 1``, then ``--hold 75``):
main (``before``, 2268d90: it already holds the fastbuild branch, so its *build* is faster than the
lazy branch's, which forked at 9ef76f7 before it -- compare the solve columns) and the branch run side by
side at the same time from two checkouts; load average 2.4-7.4 on 2 shared cores; CPU seconds; exact
values equal in every row.  ``all exact`` = build + lazy solve + reading every value, margin and action
value (``materialize``): what the eager engine computed before, so that ratio is the honest one when
every number is wanted.

    game        size   states   engine  (build + solve)     hand   ratio  all exact  ratio   before (build + solve, ratio)
    race          50    2,503    0.463   0.146    0.317    0.115    4.0x     0.505   4.4x    0.351 (0.062 + 0.289,  3.2x)
    race         100   10,003    2.319   0.964    1.355    0.087   26.5x     2.572  29.4x    1.819 (0.277 + 1.542, 23.4x)
    hold      20 / 6    7,260    0.700   0.258    0.442    0.026   27.1x     0.844  32.7x    0.688 (0.052 + 0.636, 27.0x)
    hold      30 / 6   25,290    2.642   0.606    2.036    0.078   33.8x     3.221  41.2x    2.075 (0.178 + 1.897, 26.4x)
    hold      40 / 6   60,920    6.255   1.643    4.612    0.181   34.6x     7.914  43.8x    5.373 (0.467 + 4.906, 23.4x)
    hold      75 / 6  410,850   42.740   8.229   34.512    2.074   20.6x   135.170  65.2x   95.900 (8.190 + 87.710, 54.8x)
    chefs      n = 8    2,040    0.100   0.054    0.046    0.012    8.1x     0.100   8.1x    0.065 (0.017 + 0.048,  4.8x)
    chefs     n = 10   10,230    0.685   0.173    0.512    0.084    8.2x     0.690   8.2x    0.491 (0.073 + 0.418,  6.4x)
    chefs     n = 12   49,140    8.158   1.469    6.689    0.843    9.7x     8.178   9.7x    7.543 (0.379 + 7.164,  8.8x)

(hold 75: before 1.751 s hand in its run, 2.074 s in the branch's; the branch's build is main's old one.)
After the last two commits (the final choice reuses the improvement step's ball of the other action;
the balls freed after the solve), ``--hold 75`` alone at 20:40 UTC, load average 0.8-1.0: engine 35.913 s
(build 7.716 + lazy solve 28.197), all exact 127.664 s; the hand solver measured 3.702 s in that run
(1.75-2.07 s in the runs above: it runs after the engine, with the ~2 GB solution still held), so its
printed 9.7x is flattering: against 1.75 s the engine is 20.5x, all exact 73x.
With main's build (hold 75 built in ~8.2 s by both here; race 100 0.28 s, hold 40 0.47 s on main) the
branch's engine would be: race 100 0.28 + 1.36 = 1.63 s (~19x), hold 40 0.47 + 4.61 = 5.1 s (~25x),
hold 75 8.2 + 34.5 = 42.7 s (~21-24x), chefs 12 0.38 + 6.69 = 7.1 s (~8.4x) -- estimates from the
columns above, not a run of the merged code.

    Storm (engine = build + lazy solve)         engine (solve)  storm PI  topo  engine/PI  /topo    before engine (solve)  /PI
    Piglet to 10, second player holds at 4       0.014  0.012     0.028  0.012    0.48x   1.1x     0.010  0.009   0.39x
    Piglet to 20, second player holds at 5       0.072  0.051     0.048  0.041    1.50x   1.8x     0.045  0.038   0.96x
    Piglet to 50, second player holds at 6       1.028  0.635     0.812  0.457    1.27x   2.2x     0.665  0.552   0.91x
    Pig to 20, second player holds at 10         0.309  0.093     0.132  0.069    2.33x   4.5x     0.090  0.091   0.58x
    Pig to 30, second player holds at 15         0.657  0.248     0.428  0.219    1.54x   3.0x     0.272  0.210   0.61x
    Pig to 50, second player holds at 20         2.356  1.503     5.062  2.863    0.47x   0.8x     2.181  1.573   0.43x

What changed (values, policy, ties, margins, q, ranks, statistics and certificates unchanged; the full
suite passes; tests/test_engine_lazy.py compares lazy and eager on random cyclic models with near ties
closer than the balls and exact ties):

* a cyclic component whose choices have at most two actions (Hold, Pig, Piglet) is solved by
  ``engine/lazy_cyclic.py``: each policy evaluation computes exact values only at the cut states and
  at the states entered from other components (``engine/cuts.py``: a forward pass of small-rational
  reach probabilities per such state, the long values of the exits entering once each, integers over
  one common denominator, one reduction per cut), and a 192-bit arb ball of every state's value
  (``ball_pass``; a state whose successors are all one exact point gets that point exactly, so the
  exact ties at 0 and at 1 of a dead player are proved without long numbers);
* the improvement step and the final choice compare the two action values as balls: a proved
  difference decides (a switch only on a proved strict improvement), an overlap computes the
  evaluation exactly (the eager one) and decides as before; two equal exact points are an exact tie;
* the exact values of the other states, the margins and the action values are left pending in lazy
  containers (``engine/lazy.py``: ``LazyValues`` / ``LazyDict``, a ``list`` / ``dict`` subclass) and
  computed per component on first read, by replaying the eager evaluation and ``_choose`` (the cut
  values and the decisions are checked against it); a self-loop state (race) keeps its best action's
  exact value and defers the kept actions' ``Q_a`` and the margin (``SelfLoopUnit``);
* ``solve_model(..., lazy=False)`` is the eager engine, unchanged.

Where the time goes now: hold 75's lazy solve (28-35 s) is no longer dominated by long numbers.  cProfile
of the lazy solve (61 s under the profiler, load ~2, before the ball reuse): the float seed
(``forms_seed``) 15.3 s, end components 5.9 s, ``_finish`` / ranks 6.1 s, ``cut_values`` 5.5 s, the action
balls 4.3 s (791,758 calls, since halved), the ball pass 3.0 s, Tarjan 2.6 s, ``_feedback_order`` 2.9 s,
``_min_zero_region`` 3.1 s -- per-state Python work; no long-number routine in the top 25 (before:
``_q_key`` 19.9 s, the reductions of ``linear_int`` 19.4 s, ``_choose`` 11.9 s of 112 s).  So the
float seed, Tarjan and end components, ranks and the per-state Python work of the reach and ball
passes are most of it.  When every exact number is read (``all exact``), the lazy
engine costs more than the eager one did (135 s against 96 s at hold 75): the deferred work is the
eager work, plus the lazy passes.  Pig / Piglet components are small and their numbers short at these
sizes: no gain there (Pig 50 solve 1.50 s against 1.57 s; Pig 20 / 30 and the Piglets within the
noise or slower).  Chefs: its cyclic components have no choices and 13 payoff components, and every
value is read by later components, so they stay eager (deferring them measured slower).

Pig to 100 (second player holds at 20), the engine alone, after the branch: 365,024 states, build 10.4 s,
solve 121.9 s CPU (load ~10), peak RSS 3.04 GB (547 MB after the build); start denominator 26,175 digits; held: values 433 MB of digits (mean 9,484 bits, largest
173,995), margins 646 MB, action values 809 MB (513,432 numbers).  Before the branch it ran out of
memory at 3.9 GB (the machine's memory shared; main also keeps player 1's values, ~0.45 GB more digits,
not re-measured).  Smaller: drop the action values ``q`` (the largest part) or keep them as balls.
``--pig100`` (engine twice, then Storm) was stopped by a 30-min wall-clock limit after 17.9 min CPU at
8.7 GB, with no row printed: the engine part takes ~4.5 min, so Storm's exact PI ran >= ~13 min unfinished.

About the first measurement (the first table): race ~24x, chefs 13-18x, hold 90-190x; then the build
summed probabilities in ``Fraction`` (~60% of race), the solve converted them to mpq through a cache keyed
by ``Fraction``, and every candidate was evaluated exactly (the hand solvers compare in a float or
fixed-point shadow first: race its float shadow, hold 128-bit fixed point, chefs integer numerators).

Storm exact (DRN rational, parse + check) vs engine (build + solve), same MDP (second
player's strategy fixed), values equal exactly in every row:

    MDP                                       states  choices   engine  (solve)  storm PI storm topo engine/storm PI  /topo
    Piglet to 10, second player holds at 4       287      422    0.038    0.032     0.027      0.012           1.44x   3.1x
    Piglet to 20, second player holds at 5     1,302    2,062    0.188    0.168     0.051      0.042           3.70x   4.5x
    Piglet to 50, second player holds at 6    14,377   25,402    2.537    2.090     0.803      0.435           3.16x   5.8x
    Pig to 20, second player holds at 10       2,239    3,317    0.328    0.231     0.130      0.068           2.53x   4.8x
    Pig to 30, second player holds at 15       5,439    8,092    1.083    0.840     0.451      0.222           2.40x   4.9x
    Pig to 50, second player holds at 20      30,808   50,001    8.463    6.652     5.621      2.984           1.51x   2.8x

Pig to 100 (``--pig100``, second player holds at 20, one run) did not finish: stopped by hand
after 16.7 min CPU at 3.9 GB RSS, when the machine's memory ran out (no phase had printed); after the
enginespeed2 branch it solves (see above).
(values: Piglet 10 0.7742571395, 23-digit denominator; Pig 50 0.6432705073, 2035 digits.)
The goal "faster than Storm" is not met: the engine takes 1.4-3.7x Storm's exact policy
iteration and 2.8-5.8x Storm's exact topological solver (the ratio narrows as the values grow:
big-number arithmetic is GMP on both sides).

"""

from __future__ import annotations

import argparse
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
        t = time.process_time()
        out = f()
        dt = time.process_time() - t
        best = dt if best is None else min(best, dt)
    return best, out


def F(x) -> Fraction:
    return Fraction(int(x.numerator), int(x.denominator))


# ------------------------------------------------------------------ engine vs hand-written


def engine_run(game_factory, repeat: int):
    """Build, lazy solve, then every exact number forced (values, margins, q): three CPU times."""
    tb, model = best_of(game_factory_build(game_factory), repeat)
    ts, sol = best_of(lambda: solve_model(model), repeat)
    tm, _ = best_of(lambda: materialize_all(sol), 1)  # once: a second call finds nothing pending
    return tb, ts, tm, model, sol


def materialize_all(sol) -> None:
    """Read every exact number the lazy Solution holds (the eager engine's work, done on demand)."""
    for name in ("values", "margins", "q"):
        m = getattr(getattr(sol, name), "materialize", None)
        if m is not None:
            m()


def game_factory_build(game_factory):
    return lambda: build_model(game_factory())


CASES = {
    "race": [(f"{n}", lambda n=n: MODELS["race"](target=n), lambda n=n: race.solve_table(n),
              lambda sol, h: F(sol.value[1]) == F(h.answer)) for n in (50, 100)],
    # hold.exact_table is cached: time the uncached call it wraps (float table as the guide, then exact)
    "hold": [(f"{t} / 6", lambda t=t: MODELS["hold"](target=t, faces=6),
              lambda t=t: hold_table(t, 6, "mpq", guide=hold_table(t, 6, "float")),
              lambda sol, h: F(sol.value[0]) == F(h.V[0][0])) for t in (20, 30, 40)],
    "chefs": [(f"n = {n}", lambda n=n: MODELS["chefs"](n=n), lambda n=n: chefs.solve_exact(chefs.fibonacci_skills(n)),
               lambda sol, h: F(sol.value[-1]) == F(h.E) and [F(x) for x in sol.value[:-1]] == [F(x) for x in h.W1])
              for n in (8, 10, 12)],
}


def bench_games(repeat: int, quick: bool) -> list[str]:
    lines = [f"{'game':<7} {'size':>8} {'states':>8} {'engine':>8} {'(build':>7} {'+ solve)':>8} "
             f"{'hand':>8} {'ratio':>7} {'all exact':>9} {'ratio':>7}  exact values"]
    print(lines[0], flush=True)
    for name, cases in CASES.items():
        for label, make, hand, same in cases:
            if quick and label in ("100", "30 / 6", "40 / 6", "n = 12"):
                continue
            tb, ts, tm, model, sol = engine_run(make, repeat)
            th, h = best_of(hand, repeat)
            ok = same(sol, h)
            total = tb + ts
            lines.append(f"{name:<7} {label:>8} {len(model):>8,} {total:>8.3f} {tb:>7.3f} {ts:>8.3f} "
                         f"{th:>8.3f} {total / th:>6.1f}x {total + tm:>9.3f} {(total + tm) / th:>6.1f}x  "
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
    ap.add_argument("--hold", type=int, metavar="T", help="only hold T / 6, one run (e.g. 75: minutes)")
    args = ap.parse_args(argv)
    if args.pig100:
        bench_storm(1, False, big=True)
        return
    if args.hold:
        CASES.clear()
        CASES["hold"] = [(f"{args.hold} / 6", lambda: MODELS["hold"](target=args.hold, faces=6),
                          lambda: hold_table(args.hold, 6, "mpq", guide=hold_table(args.hold, 6, "float")),
                          lambda sol, h: F(sol.value[0]) == F(h.V[0][0]))]
        bench_games(1, False)
        return
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
