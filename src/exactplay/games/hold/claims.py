"""The seed's claims about Hold or Continue?, each with an exact check (``exactplay claims``)."""

from __future__ import annotations

from exactplay.claims import Claim, verdict
from exactplay.games.hold.audit import _sample, run_audit
from exactplay.games.hold.solver import turn_of
from exactplay.games.hold.tables import exact_table, seed_table
from exactplay.numbers.backends import format_pq


def _claim_sample_exact():
    ex, _ = _sample(exact_table(), seed_table())
    return verdict(ex == "C H H", f"exact answers {ex}")


def _claim_sample_published():
    _, sd = _sample(exact_table(), seed_table())
    return verdict(sd == "C H H", f"the published program prints {sd}")


def _claim_symmetry():
    t = exact_table()
    alive = t.alive
    sums = [t.V[c][h] + t.V[h][c] for c in range(75) for h in range(75) if alive[c] and alive[h]]
    lo, hi = min(sums), max(sums)
    holds = lo == hi == 1 and t.V[74][74] * 2 == 1
    return verdict(holds, f"V(c,h) + V(h,c) ranges over [{float(lo):.6f}, {float(hi):.6f}] on alive pairs; "
                          f"V(74,74) + V(74,74) = {float(2 * t.V[74][74])} (nobody can ever win)")


def _claim_equal_half():
    t = exact_table()
    vals = [t.V[c][c] for c in range(74)]
    bad = [c for c in range(74) if 2 * vals[c] != 1]
    return verdict(not bad, f"V(c,c) != 1/2 for {len(bad)} of 74 scores; V(0,0) = {float(vals[0]):.10f}, "
                            f"range [{float(min(vals)):.6f}, {float(max(vals)):.6f}]")


def _claim_bisection():
    t, s = exact_table(), seed_table()
    err = max(abs(float(t.V[c][h] - type(t.V[c][h])(s.dp[c][h]))) for c in range(74) for h in range(74))
    lows = sum(1 for c in range(74) for h in range(74) if c < h and s.dp[c][h] > 1 - 1e-9)
    return verdict(err < 1e-5, f"max |dp - V| = {err:.4f}; dp[c][h] > 1 - 1e-9 in {lows} of 2701 pairs c < h "
                               f"(the bisection solves A = f(A), whose only root is 1)")


def _claim_dead_74():
    t = exact_table()
    return verdict(all(t.V[c][74] == 1 for c in range(74)) and not t.alive[74],
                   "V(c, 74) = 1 for every c <= 73; 74 is the only dead score")


def _edge(queries, expected):
    def check():
        t = exact_table()
        got = [t.policy[c][h][x - 2] for c, h, x in queries]
        return verdict(got == expected, f"exact answers {' '.join(got)}")
    return check


def _claim_hold_onto_74():
    t = exact_table()
    _, hv, cont, _ = turn_of(t, 72, 0)
    return verdict(hv[2] == 0 and t.policy[72][0][0] == "C",
                   f"hold at (72, 0, 2) is worth exactly {format_pq(hv[2])}; continue {float(cont[2]):.6f}")


def _claim_separation():
    r = run_audit(75, 6)
    d = r["decisions_seed"]
    return verdict(r["below_separation"] == 0,
                   f"{r['below_separation']} of {r['states']} query states have an exact margin below 1e-5; "
                   f"smallest {float(d.smallest_gap):.4e} at {d.smallest_gap_at}")


def _claim_terminates():
    t = exact_table()
    margins = [t.V[c][h] - (1 - t.V[h][c]) for c in range(74) for h in range(74)]
    lo = min(margins)
    return verdict(lo > 0, f"every alive pair's turn is worth more than passing (min V(c,h) - Q(h,c) = {float(lo):.3e}),"
                           " so optimal play holds with positive probability each turn and the game ends")


SEED = "hold-or-continue.md"


CLAIMS = (
    Claim("hold.sample-exact", "hold", f"{SEED}, Worked Examples", "the sample 15 0 3 / 35 50 40 / 15 0 30 answers C H H",
          "exact table of the 75-point game", _claim_sample_exact),
    Claim("hold.sample-published", "hold", f"{SEED}, Test Cases", "the published program passes the sample (C H H)",
          "run the faithful port on the sample", _claim_sample_published),
    Claim("hold.symmetry", "hold", f"{SEED}, Approaches / Algorithm step 1",
          "dp[c][h] + dp[h][c] = 1 for every nonterminal pair", "exact V on every pair", _claim_symmetry),
    Claim("hold.equal-scores", "hold", f"{SEED}, Algorithm step 1 / Edge Cases",
          "equal scores consequently have value exactly 0.5", "exact V(c,c), c = 0..73", _claim_equal_half),
    Claim("hold.bisection-fixed-point", "hold", f"{SEED}, Algorithm / Complexity",
          "binary search converges to the unique fixed point; 50 iterations are far tighter than 1e-5",
          "published dp against the exact V", _claim_bisection),
    Claim("hold.dead-74", "hold", f"{SEED}, Python Solution notes", "dp[c][74] = 1: a player on 74 never wins",
          "exact V(c, 74) and the dead-score analysis", _claim_dead_74),
    Claim("hold.edge-73-0-2", "hold", f"{SEED}, Problem Understanding", "73 0 2 must produce H",
          "exact policy", _edge([(73, 0, 2)], ["H"])),
    Claim("hold.edge-72-0-2", "hold", f"{SEED}, Edge Cases", "holding at 72 0 2 (onto 74) is worth 0, so continue",
          "exact hold value and policy", _claim_hold_onto_74),
    Claim("hold.edge-exact-hits", "hold", f"{SEED}, Test Cases", "72 0 3 and 73 0 2 give H H",
          "exact policy", _edge([(72, 0, 3), (73, 0, 2)], ["H", "H"])),
    Claim("hold.edge-73-73-2", "hold", f"{SEED}, Test Cases", "73 73 2 gives H (also 1000 times)",
          "exact policy", _edge([(73, 73, 2)], ["H"])),
    Claim("hold.terminates", "hold", f"{SEED}, Approaches",
          "from two ordinary score states exactly one player eventually wins with probability 1",
          "exact start values exceed the pass values on every alive pair", _claim_terminates),
    Claim("hold.separation", "hold", "issue 3 / contest statement",
          "|p_hold - p_continue| > 1e-5 (checked over all 205,350 query states)",
          "exact margins of every query state", _claim_separation, slow=True),
)
