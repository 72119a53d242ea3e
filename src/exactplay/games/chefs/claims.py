"""The checkable claims of the Chef Showdown seed (chefs.md), each with its check."""

from __future__ import annotations

import time
from fractions import Fraction

from exactplay.audit.judge import decimal_digits, rounding_report
from exactplay.claims import Claim, Verdict, verdict
from exactplay.games.chefs import brute
from exactplay.games.chefs import cycle
from exactplay.games.chefs import fast
from exactplay.games.chefs.skills import fibonacci_skills, float_skills

SEED = "chefs.md"
S3 = (Fraction(1, 4), Fraction(1, 2), Fraction(1))
W7_PUBLISHED = ("0.08965042", "0.20775702", "0.15291406", "0.14554098", "0.15905291", "0.10261412", "0.14247050")


def _kept(skills, tie="nearest"):
    return cycle.solve(list(skills), "fraction", tie=tie, keep=True, keep_cands=True)


def _W(sol, chefs, mover, chef):
    """W_{M,mover}(chef) for chefs numbered from 1."""
    mask = sum(1 << (c - 1) for c in chefs)
    st = sol.layers[len(chefs)][mask]
    return st.W[st.members.index(mover - 1)][st.members.index(chef - 1)]


def check_w3() -> Verdict:
    sol = _kept(S3)
    w = sol.W1[0]
    return verdict(w == Fraction(47, 160), f"W_3(1) = {w} = {float(w)} exactly (published 0.29375)")


def check_worked_example() -> Verdict:
    sol = _kept(S3)
    st = sol.layers[3][0b111]
    expected = {  # the seed's numbers, in order of appearance
        "W_{12},1(1) = 0.4": (_W(sol, (1, 2), 1, 1), Fraction(2, 5)),
        "W_{12},2(1) = 0.2": (_W(sol, (1, 2), 2, 1), Fraction(1, 5)),
        "W_{13},1(1) = 0.25": (_W(sol, (1, 3), 1, 1), Fraction(1, 4)),
        "W_{23},2(2) = 0.5": (_W(sol, (2, 3), 2, 2), Fraction(1, 2)),
        "chef 1 removing 2 leaves it 0": (_W(sol, (1, 3), 3, 1), Fraction(0)),
        "W_{12},1(2) = 0.6": (_W(sol, (1, 2), 1, 2), Fraction(3, 5)),
        "W_{13},1(3) = 0.75": (_W(sol, (1, 3), 1, 3), Fraction(3, 4)),
        "W_{23},2(3) = 0.5": (_W(sol, (2, 3), 2, 3), Fraction(1, 2)),
        "x_3 = 0.25": (st.W[2][0], Fraction(1, 4)),
        "x_2 = 0.325": (st.W[1][0], Fraction(13, 40)),
        "x_1 = 0.29375": (st.W[0][0], Fraction(47, 160)),
        "targets 1->3, 2->3, 3->2": (tuple(j + 1 for j in st.target), (3, 3, 2)),
    }
    bad = [k for k, (got, want) in expected.items() if got != want]
    return verdict(not bad, "all 12 intermediate numbers and targets hold exactly" if not bad
                   else "wrong: " + "; ".join(bad))


def check_cycle_formula() -> Verdict:
    """The closed form (every layer) equals the whole-game linear system, n = 2..5."""
    worst = []
    for n in range(2, 6):
        sol = _kept(fibonacci_skills(n))
        W, D = brute.solve_system(fibonacci_skills(n), brute.policy_of(sol))
        for q, layer in sol.layers.items():
            if q < 2:
                continue
            for mask, st in layer.items():
                for r, t in enumerate(st.members):
                    vec = [Fraction(0)] * n
                    for k, i in enumerate(st.members):
                        vec[i] = st.W[r][k]
                    if vec != W[(mask, t)] or st.D[r] != D[(mask, t)]:
                        worst.append((n, mask, t))
    return verdict(not worst, "closed form = Gaussian elimination of the whole game in every state, n = 2..5"
                   if not worst else f"differs at {worst[:3]}")


def check_success_branch() -> Verdict:
    """Maximising the success branch is optimal: no chef gains by ANY change of its own
    targets (every deterministic strategy, the others fixed), n = 3 and 4, in every state."""
    tried = gains = 0
    for skills in (fibonacci_skills(3), S3, fibonacci_skills(4)):
        n = len(skills)
        policy = brute.policy_of(_kept(skills))
        W, _ = brute.solve_system(skills, policy)
        for chef in range(n):
            for strat in brute.strategies(n, chef):
                Wd, _ = brute.solve_system(skills, {**policy, **strat})
                tried += 1
                gains += any(Wd[s][chef] > W[s][chef] for s in W)
    return verdict(gains == 0, f"{tried} strategies tried (n = 3, 3, 4), {gains} improve a chef's chance anywhere")


def check_e7() -> Verdict:
    E = fast.solve_fast(list(fibonacci_skills(7))).E
    d = decimal_digits(E, 8)
    return verdict(d == "42.28176050", f"E(7) = {d} (exact, rounded; published 42.28176050)")


def check_w7() -> Verdict:
    W = fast.solve_fast(list(fibonacci_skills(7))).W1
    got = tuple(decimal_digits(x, 8) for x in W)
    bad = [k + 1 for k in range(7) if got[k] != W7_PUBLISHED[k]]
    return verdict(not bad, "all 7 components agree to 8 decimals" if not bad else f"chefs {bad} differ: {got}")


def check_positive_denominator() -> Verdict:
    """1 - prod b > 0 for every alive set (skills in (0, 1]); the smallest for n = 14."""
    skills = fibonacci_skills(14)
    smallest = None
    for q in range(2, 15):
        for mask in cycle.masks_of_size(14, q):
            P = Fraction(1)
            for m in cycle.members(mask):
                P *= 1 - skills[m]
            if smallest is None or 1 - P < smallest[0]:
                smallest = (1 - P, mask)
    one = Fraction(1)
    edge = 1 - (one - 1) * (one - Fraction(1, 2))  # a skill of 1 makes the product 0
    return verdict(smallest[0] > 0 and edge == 1,
                   f"smallest 1 - prod b over all alive sets of n = 14 is {float(smallest[0]):.6f} "
                   f"(chefs {cycle.members(smallest[1])[0] + 1},{cycle.members(smallest[1])[1] + 1}); a skill of 1 gives "
                   "prod b = 0, still fine; a skill of 0 would be rejected as input")


def check_tie_rule_matters() -> Verdict:
    near = fast.solve_fast(list(fibonacci_skills(7)))
    far = fast.solve_fast(list(fibonacci_skills(7)), tie="farthest")
    changed = near.E != far.E
    return verdict(changed, f"n = 7 has {len(near.ties)} exactly tied states; E(7) = {float(near.E):.8f} (nearest) vs "
                   f"{float(far.E):.8f} (farthest): the rule changes the answer, not only the successor")


def check_time_complexity() -> Verdict:
    """Exact arithmetic: each operation costs at least the size of its operands, and the
    values of a layer have more bits with every chef, so time is not O(n^2 2^n).

    Deterministic measure: the total bits of all values computed (a lower bound on
    the bit work), divided by n^2 2^n; timings are reported alongside."""
    work, times, bits = {}, {}, {}
    for n in range(9, 13):
        t0 = time.perf_counter()
        sol = fast.solve_fast(list(fibonacci_skills(n)))
        times[n] = time.perf_counter() - t0
        work[n] = sol.value_bits / (n * n * 2**n)
        bits[n] = sol.full.den.bit_length()
    growth = (work[12] / work[9]) ** (1 / 3)  # per extra chef
    return verdict(growth < 1.25,
                   f"bits of all values / (n^2 2^n) grow x{growth:.2f} per extra chef (n = 9..12; denominator bits "
                   f"{bits[9]}, {bits[10]}, {bits[11]}, {bits[12]}); time {times[9]:.2f}, {times[10]:.2f}, "
                   f"{times[11]:.2f}, {times[12]:.2f} s: the operation count is O(n^2 2^n), the bit cost is not")


def check_memory() -> Verdict:
    """Only the previous layer is needed: the two largest consecutive layers, not all n^2 2^n values."""
    n = 12
    sol = fast.solve_fast(list(fibonacci_skills(n)))
    total = sum(len(cycle.masks_of_size(n, q)) * (q * q + q) for q in range(1, n + 1))
    return verdict(sol.peak_numbers >= total, f"n = {n}: all layers hold {total} numbers, the solver holds at most {sol.peak_numbers} "
                   f"({sol.peak_numbers / total:.0%}), i.e. Theta(n^1.5 2^n) numbers; but those numbers have up to "
                   f"{sol.full.den.bit_length()} bits, so memory in bits is not O(n^2 2^n) either")


def check_e14() -> Verdict:
    sol = fast.solve_fast(list(fibonacci_skills(14)))
    flt = cycle.solve(float_skills(fibonacci_skills(14)), "float")
    rr = rounding_report(sol.E, 8, flt.E)
    return verdict(rr.certain and rr.float_digits_agree,
                   f"E(14) = {rr.rounded} exactly rounded ({float(rr.distance):.2e} from a rounding boundary); "
                   f"the float solver prints {rr.float_rounded}")


def _claim(id, source, statement, method, check, slow=False):
    return Claim(f"chefs.{id}", "chefs", f"{SEED}, {source}", statement, method, check, slow)


CLAIMS = (
    _claim("w3-checkpoint", "worked example", "With S = (1/4, 1/2, 1), W_3(1) = 0.29375.",
           "exact solve; compare with 47/160", check_w3),
    _claim("worked-example", "worked example",
           "Intermediate values 0.4, 0.2, 0.25, 0.5, 0, 0.6, 0.75, 0.5, targets 1->3, 2->3, 3->2, "
           "x3 = 0.25, x2 = 0.325, x1 = 0.29375.", "each value read from the exact solution", check_worked_example),
    _claim("cycle-formula", "Step 4",
           "X_0 = sum_r (prod_{i<r} b_i) A_r / (1 - prod b_i), then back substitution, solves each alive set's cycle.",
           "compare with Gaussian elimination of the whole game (all states at once), n = 2..5", check_cycle_formula),
    _claim("success-branch", "Step 3",
           "The failure branch is the same for every target, so the mover only needs to maximise the "
           "success-branch value.", "exhaustive: every deterministic strategy of every chef against the "
           "computed policy, n = 3 (two skill vectors) and 4, compared in every state",
           check_success_branch, slow=True),
    _claim("e7", "checkpoints", "E(7) = 42.28176050.", "exact E(7) rounded to 8 decimals", check_e7),
    _claim("w7", "checkpoints",
           "W_7 = (0.08965042, 0.20775702, 0.15291406, 0.14554098, 0.15905291, 0.10261412, 0.14247050).",
           "exact W rounded to 8 decimals", check_w7),
    _claim("denominator-positive", "Step 4",
           "Because every skill probability is positive, prod b_i < 1, so the denominator is nonzero.",
           "exact 1 - prod b over every alive set of n = 14; edge case of a skill equal to 1",
           check_positive_denominator),
    _claim("tie-rule", "Step 3",
           "Ties go to the smallest positive cyclic distance; this matters because it fixes a unique successor.",
           "solve n = 7 with the opposite (farthest) rule and compare E(7)", check_tie_rule_matters),
    _claim("time-complexity", "complexity", "Time O(n^2 2^n).",
           "time of the exact solver for n = 9..12, ratio per extra chef", check_time_complexity, slow=True),
    _claim("memory", "complexity",
           "The stored winner-probability vectors dominate memory, so the exact method requires O(n^2 2^n) memory.",
           "count the numbers the layered solver holds at once, and their size", check_memory, slow=True),
    _claim("e14", "problem", "E(14) is asked to 8 decimals (the published float solver prints it).",
           "exact E(14), its distance to a rounding boundary, and the float solver's digits", check_e14, slow=True),
)
