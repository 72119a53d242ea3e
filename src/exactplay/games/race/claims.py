"""The seed's claims about the Race (Project Euler 232), each with an exact check."""

from __future__ import annotations

import functools
from fractions import Fraction as _Fraction

from exactplay.claims import NOT_CHECKABLE, Claim, Verdict, verdict
from exactplay.games.race.audit import longest_chain, run_audit, value_iteration
from exactplay.games.race.table import solve_table, t_limit, t_zero
from exactplay.numbers.backends import as_fraction


_SEED = "race.md"


@functools.lru_cache(maxsize=2)
def _cached_audit(target: int = 100) -> dict:
    """One audit shared by the claims that read it."""
    return run_audit(target)


def _claim_small_values():
    want = {1: _Fraction(1, 3), 2: _Fraction(71, 135), 3: _Fraction(661, 1215), 4: _Fraction(6113, 10125)}
    got = {n: as_fraction(solve_table(n).answer) for n in want}
    g10 = float(solve_table(10).answer)
    ok = got == want and round(g10, 4) == 0.6701
    return verdict(ok, ", ".join(f"G({n},{n}) = {v}" for n, v in got.items()) + f", G(10,10) = {g10:.6f}")


def _claim_always_once():
    want = {1: _Fraction(1, 3), 2: _Fraction(11, 27), 3: _Fraction(35, 81), 4: _Fraction(971, 2187)}
    got = {n: as_fraction(solve_table(n, t_max=1).answer) for n in want}
    g10 = float(solve_table(10, t_max=1).answer)
    ok = got == want and round(g10, 4) == 0.4671
    return verdict(ok, ", ".join(str(v) for v in got.values()) + f", target 10: {g10:.6f}")


def _claim_denominator():
    g = as_fraction(solve_table(100).answer)
    d = len(str(g.denominator))
    return verdict(d == 480 and f"{float(g):.8f}" == "0.83648556", f"{d}-digit denominator, G = {float(g):.8f}")


def _claim_worked_example():
    t = solve_table(2, "fraction", keep_candidates=True)
    got = [t.F[1][1], t.G[1][1], t.F[2][1], t.G[2][1], t.candidates[(1, 2)][1], t.candidates[(1, 2)][2],
           t.candidates[(2, 2)][1], t.candidates[(2, 2)][2], t.answer]
    want = [_Fraction(*p) for p in ((2, 3), (1, 3), (8, 9), (7, 9), (2, 9), (2, 5), (88, 135), (16, 25), (71, 135))]
    return verdict(got == want, "F(1,1), G(1,1), F(2,1), G(2,1), F_1(1,2), F_2(1,2), F_1(2,2), F_2(2,2), G(2,2) = "
                   + ", ".join(str(v) for v in got))


def _claim_edges():
    t = solve_table(100)
    bad = [(a, 1) for a in range(1, 101) if as_fraction(t.F[a][1]) != 1 - _Fraction(1, 3**a)]
    bad += [(1, b) for b in range(1, 101) if as_fraction(t.F[1][b]) != _Fraction(2, 2 ** t_zero(b) + 1)]
    return verdict(not bad, "exact for all a, b <= 100" if not bad else f"fails at {bad[:3]}")


def _claim_strategy():
    bt = solve_table(100).best_t
    t1 = [(a, b) for (a, b), t in bt.items() if t == 1]
    figures = (len(t1), sum(1 for a, b in t1 if b > a), sum(1 for a, b in t1 if b <= a),
               sum(1 for t in bt.values() if t == 8), bt[(100, 100)], bt[(99, 100)], bt[(6, 8)], bt[(6, 9)])
    ok = figures == (4685, 11, 4674, 500, 4, 4, 3, 1)
    return verdict(ok, "T=1 in {} cells ({} with b > a, {} with b <= a), T=8 in {}, first T {} / {}, "
                   "T at (6,8) = {}, at (6,9) = {}".format(*figures))


def _claim_float_error():
    m = _cached_audit()["values"].max_abs
    return verdict(m <= 6.7e-16, f"max float error {m:.2e} <= 6.7e-16")


def _claim_bound():
    v = _cached_audit()["values"]
    return verdict(v.bound < 2e-13 and v.max_abs <= v.bound,
                   f"a-priori bound {v.bound:.3e} (chain {longest_chain(100)}), measured {v.max_abs:.2e}")


def _claim_same_t():
    d = _cached_audit()["decisions"]
    return verdict(d.decisions_differ == 0, f"float T differs from the exact best in {d.decisions_differ} cells, but "
                   f"{d.counts['float-unresolvable']} cells are float-unresolvable (right only by the tie-break)")


def _claim_no_tie():
    d = _cached_audit()["decisions"]
    return verdict(d.counts["exact tie"] == 0, f"{d.counts['exact tie']} exact ties; smallest gap "
                   f"{float(d.smallest_gap):.2e} at {d.smallest_gap_at}")


def _claim_boundary():
    rr = _cached_audit()["rounding"]
    dist = float(rr.distance)
    return verdict(abs(dist - 8.5e-10) < 0.05e-10 and rr.float_digits_agree,
                   f"exact value {dist:.3e} from the nearest rounding boundary; float prints {rr.float_rounded}")


def _claim_sweeps():
    got = {n: value_iteration(n)[2] for n in (5, 10, 20)}
    return verdict(got == {5: 50, 10: 71, 20: 103}, f"sweeps: {got}")


def _claim_t_max():
    t = solve_table(100)
    worst = max(t.best_t.values())
    over = sum(1 for (a, b), bt in t.best_t.items() if bt > t_zero(b))
    return verdict(worst == 8 and over == 0 and t_limit(100) == 12,
                   f"largest optimal T = {worst}, cells with T > t0(b): {over}, published range 1..{t_limit(100)}")


def _claim_simulation():
    return Verdict(NOT_CHECKABLE, "the article's random streams are not published; the test suite runs its own "
                   "seeded simulation of the literal rules (within 4 standard errors)")


CLAIMS = (
    Claim("race.small-targets", "race", f"{_SEED}, Section 11", "G = 1/3, 71/135, 661/1215, 6113/10125 for n = 1..4; "
          "about 0.6701 for n = 10", "exact table", _claim_small_values),
    Claim("race.always-once", "race", f"{_SEED}, Section 11", "always T=1: 1/3, 11/27, 35/81, 971/2187; about 0.4671 "
          "for n = 10", "exact table with T restricted to 1", _claim_always_once),
    Claim("race.denominator", "race", f"{_SEED}, Complexity and Verification",
          "G(100,100) = 0.83648556, a fraction with a 480-digit denominator", "exact table", _claim_denominator),
    Claim("race.worked-example", "race", f"{_SEED}, Section 9", "F(2,1) = 8/9, F_1(1,2) = 2/9, F_2(1,2) = 2/5, "
          "F_1(2,2) = 88/135, F_2(2,2) = 16/25, G(2,2) = 71/135", "exact candidates", _claim_worked_example),
    Claim("race.edge-formulas", "race", f"{_SEED}, Section 10", "F(a,1) = 1 - 3^-a and F(1,b) = 2/(2^t0(b)+1) "
          "(checked by the article for a, b <= 30)", "exact table, a, b <= 100", _claim_edges),
    Claim("race.strategy", "race", f"{_SEED}, Section 11", "T=1 in 4685 cells, 11 with b > a, 4674 of 5050 with b <= a; "
          "T=8 in 500; first T = 4; T=3 at (6,8), T=1 at (6,9)", "exact policy", _claim_strategy),
    Claim("race.largest-t", "race", f"{_SEED}, Sections 6 and How the Code Works", "t0(b) <= 8 for b <= 100; "
          "t = 9..12 are never optimal", "exact policy", _claim_t_max),
    Claim("race.float-error", "race", f"{_SEED}, Complexity and Verification", "every double differs from the exact "
          "value by at most 6.7e-16", "audit of the published program", _claim_float_error),
    Claim("race.error-bound", "race", f"{_SEED}, Section 12", "every entry is within 2e-13 (a chain has at most 200 "
          "steps, one cell adds below 8 * 2^-53)", "bound computed from the dependency graph", _claim_bound),
    Claim("race.same-t", "race", f"{_SEED}, Complexity and Verification", "the programs pick the same t in every cell",
          "audit of decisions", _claim_same_t),
    Claim("race.no-tie", "race", f"{_SEED}, Complexity and Verification", "the exact maximum is never tied",
          "exact gaps", _claim_no_tie),
    Claim("race.rounding", "race", f"{_SEED}, Section 12", "the exact answer lies about 8.5e-10 from the nearest "
          "rounding boundary, so the printed digits are correct", "exact distance to the boundary", _claim_boundary),
    Claim("race.value-iteration", "race", f"{_SEED}, How the Code Works", "the verifier stops after 50, 71 and 103 "
          "sweeps for targets 5, 10, 20", "port of solve_value_iteration", _claim_sweeps),
    Claim("race.simulation", "race", f"{_SEED}, Complexity and Verification", "10^7 simulated games per target 1, 2, "
          "3, 100 differ from the computed probabilities by 1.34, 0.81, -1.15 and 1.29 standard errors",
          "not reproducible without the article's random numbers", _claim_simulation),
)
