"""Hold or Continue? (ICPC Latin America 2019, problem H): exact game, judge, audit.

The rules and equations are in :mod:`.hold_model`, the pair-by-pair solver in
:mod:`.hold_solver`, the published float program in :mod:`.hold_seed`, the
contest judge in :mod:`.hold_judge`.  This module is the API the CLI calls and
the ledger of the article's claims.

Findings (target 75, six faces; each is a test and a registered claim):

* the sample answers are ``C H H`` exactly, but the published program prints
  ``C H C``: its bisection solves ``A = f(A)`` (a lost turn worth ``A``)
  instead of the game's 2-cycle and drives ``dp[c][h]`` to ``~1`` for ``c < h``
  (value error up to 0.949); its decision is wrong (not a rounding matter) in
  105,688 of the 205,350 query states;
* a correct float solver (policy iteration per pair) has value errors below
  5e-15 and every decision certified;
* ``dp[c][h] + dp[h][c] = 1`` is false: the mover is not the non-mover, and
  ``V(c, h) + V(h, c)`` ranges over ``[1.0175, 1.1459]`` on pairs of alive
  scores (0 at 74-74, where nobody can win); the true identity is
  ``P(mover wins) + P(non-mover wins) = 1`` (both alive: the game ends);
* equal scores are not worth 1/2: ``V(c, c)`` lies in ``[0.5269, 0.5730]``,
  ``V(0, 0) = 0.52692187...``, ``V(73, 73) = 6/11``;
* the promised 1e-5 separation fails on 60 of the 205,350 query states; the
  smallest exact margin is about ``3.0e-8`` at ``(10, 69, 47)``;
* the edge cases of the article (``73 0 2``, ``72 0 2``, ``72 0 3``,
  ``73 73 2``) are answered as it says.
"""

from __future__ import annotations

import hashlib
import json
from fractions import Fraction

from exactplay.audit import audit_decisions, audit_values
from exactplay.certificate import build_certificate
from exactplay.claims import Claim, verdict
from exactplay.errors import UsageError
from exactplay.numbers import Backend, format_pq, get_backend, read_int
from exactplay.progress import SILENT
from exactplay.render import exact_number
from exactplay.games import Game, Param, Report, heavy_note
from exactplay.games.hold.judge import judge, judge_arguments
from exactplay.games.hold.recurrence import PRECISION, fixed_error, hold_values, turn_affine
from exactplay.games.hold.seed import BISECTION_STEPS, seed_candidates, seed_solve
from exactplay.games.hold.solver import HoldTable, solve_table, turn_of
from exactplay.games.hold.tables import (MAX_FACES, MAX_TARGET, exact_table, exact_turn, float_table,  # noqa: F401
                                         parse_faces, parse_target, seed_table)


SEPARATION = Fraction(1, 10**5)  # the statement's promise |p_hold - p_continue| > 1e-5
UNIT_ROUNDOFF = 2.0**-53
FULL_TABLE_UP_TO = 30  # certificates store every exact V(c, h) up to this target


def query_states(target: int):
    """The contest's states: ``0 <= c, h <= T-2``, ``2 <= x <= T - c`` (205,350 for T = 75)."""
    return [(c, h, x) for c in range(target - 1) for h in range(target - 1) for x in range(2, target - c + 1)]


def _params(target: int, faces: int) -> dict:
    return {"target": target, "faces": faces}


# ------------------------------------------------------------------ solve


def solve(target: int = 75, faces: int = 6, backend: Backend | str = "mpq", digits: int = 8,
          full: bool = False, progress=SILENT) -> Report:
    if get_backend(backend).prec is not None:
        from exactplay.games.hold.ball_report import solve_ball

        return solve_ball(target, faces, get_backend(backend), digits, progress)
    table = exact_table(target, faces, backend, progress)
    V00 = table.V[0][0]
    data, lines = exact_number(V00, digits, full)
    dead = [s for s, ok in enumerate(table.alive) if not ok]
    first = table.policy[0][0]
    out = {"game": "hold", "params": _params(target, faces), "backend": table.backend,
           "answer_name": "V(0,0)", "answer": data, "dead_scores": dead,
           "policy_at_0_0": first, "policy_runs_at_0_0": policy_runs(first),
           "repairs": table.repairs, "exact_fallbacks": table.exact_fallbacks}
    lines = [f"Hold or Continue?, target {target}, faces 1..{faces}: the first player wins with probability V(0,0)"] + lines
    lines.append(f"dead scores (the target can no longer be hit exactly): {dead if dead else 'none'}")
    lines.append("first turn at 0-0, by turn total x: " + ", ".join(
        f"{a} x={lo}" + (f"..{hi}" if hi > lo else "") for a, lo, hi in policy_runs(first)))
    return Report(out, lines)


def policy_runs(policy: str) -> list:
    """``[(letter, first x, last x), ...]``: a turn's policy (x = 2..) as runs of equal letters."""
    runs = []
    for i, a in enumerate(policy):
        x = i + 2
        if runs and runs[-1][0] == a:
            runs[-1][2] = x
        else:
            runs.append([a, x, x])
    return [tuple(r) for r in runs]


# ------------------------------------------------------------------ audit


def a_priori_bound(flt: HoldTable) -> tuple[float, str]:
    """First-order rounding bound for a float solver of this game (an estimate, not a proof).

    A pair's ``U = (a_c + b_c (1 - a_h - b_h)) / (1 - b_c b_h)`` is built from
    ``a, b`` sums of at most ``T`` products of reach probabilities (each with at
    most ``T`` roundings): about ``(12 T + 6) u`` of new error, divided by the
    determinant ``d``.  Errors of the hold values it uses pass on with weights
    summing to 1, so the ``2T`` levels of score sums add up:
    ``2T (12T + 6) u / d_min``.  A hold/continue value adds the turn's own
    roundings, at most ``(T^2 + 2T) u`` (suffix sums up to ``T``, ``T/2`` rolls).
    ``d_min`` is the smallest determinant over the float solver's policies.
    """
    B = get_backend("float")
    T, F = flt.target, flt.faces
    d_min = 1.0
    for c in range(T):
        for h in range(c + 1, T):
            if flt.alive[c] and flt.alive[h]:
                hv_c = hold_values(B, T, flt.V, flt.alive, c, h)
                hv_h = hold_values(B, T, flt.V, flt.alive, h, c)
                b_c = turn_affine(B, F, hv_c, flt.policy[c][h])[1]
                b_h = turn_affine(B, F, hv_h, flt.policy[h][c])[1]
                d_min = min(d_min, 1.0 - b_c * b_h)
    u = UNIT_ROUNDOFF
    bound = 2 * T * (12 * T + 6) * u / d_min + (T * T + 2 * T) * u
    label = (f"first-order estimate: 2T levels x (12T+6) roundings / d_min = {d_min:.4f} "
             f"+ (T^2+2T) roundings in a turn, u = 2^-53")
    return bound, label


def _refine(B, table: HoldTable, cands: dict, states) -> None:
    """Replace the fixed-point candidates of ``states`` by exact ones (one exact turn per pair)."""
    by_pair: dict = {}
    for c, h, x in states:
        by_pair.setdefault((c, h), []).append(x)
    for (c, h), xs in by_pair.items():
        _, hv, cont, _ = turn_of(table, c, h, B)
        for x in xs:
            cands[(c, h, x)] = {"H": hv[x], "C": cont[x]}


def run_audit(target: int = 75, faces: int = 6, backend: Backend | str = "mpq", progress=SILENT) -> dict:
    """Both float solvers against the exact game, every query state; a JSON-ready core plus objects."""
    B = get_backend(backend)
    T, F = target, faces
    top = T - 2
    flt_c: dict = {}
    fix_c: dict = {}

    def keep_float(c, h, hold, cont):
        if c <= top and h <= top:
            for x in range(2, T - c + 1):
                flt_c[(c, h, x)] = (hold[x], cont[x])

    def keep_fixed(c, h, hold, cont):
        if c <= top and h <= top:
            for x in range(2, T - c + 1):
                fix_c[(c, h, x)] = (hold[x], cont[x])

    flt = solve_table(T, F, "float", visit=keep_float, progress=progress)
    exact = solve_table(T, F, B, guide=flt, visit=keep_fixed, progress=progress)
    seed = seed_table(T, F, progress)
    seed_c: dict = {}
    progress.start("the published program's hold/continue values", top + 1)
    for c in range(top + 1):
        for h in range(top + 1):
            for x, hc in seed_candidates(seed, c, h).items():
                seed_c[(c, h, x)] = hc
        progress.advance()

    progress.start("rounding bound and the closest decisions", None)
    bound, label = a_priori_bound(flt)
    # exact candidates: fixed point (error <= E units of 2^-P), exact where that could matter
    E = fixed_error(T)
    unit = 1 << PRECISION
    thresholds = [int(2 * bound * unit), int(SEPARATION * unit)]
    gaps = {s: hc[0] - hc[1] for s, hc in fix_c.items()}
    close = [s for s, g in gaps.items()
             if abs(g) <= 2 * E or any(abs(abs(g) - t) <= 2 * E + 1 for t in thresholds)]
    ordered = sorted(gaps, key=lambda s: abs(gaps[s]))
    # each fixed-point gap is within 2E of its exact value, so every state that could be among
    # the ten smallest exact gaps has a fixed-point gap within 4E of the tenth smallest
    worst = ordered[:10]
    if worst:
        edge = abs(gaps[worst[-1]]) + 4 * E
        for s in ordered[10:]:
            if abs(gaps[s]) > edge:
                break
            worst.append(s)
    ex_c = {s: {"H": B.q(hc[0], unit), "C": B.q(hc[1], unit)} for s, hc in fix_c.items()}
    refined = sorted(set(close) | set(worst))
    _refine(B, exact, ex_c, refined)

    sep = B.q(1, 10**5)
    below = sum(1 for cd in ex_c.values() if abs(cd["H"] - cd["C"]) < sep)

    # value audits of the start-of-turn tables (the seed's dp is defined for c, h <= T-2)
    ex_V = {(c, h): exact.V[c][h] for c in range(top + 1) for h in range(top + 1)}
    seed_V = {(c, h): seed.dp[c][h] for c in range(top + 1) for h in range(top + 1)}
    flt_V = {(c, h): flt.V[c][h] for c in range(top + 1) for h in range(top + 1)}
    values_seed = audit_values(ex_V, seed_V, bound, label)
    values_float = audit_values(ex_V, flt_V, bound, label)

    def cand_error(cands):
        worst_err, at = 0, None
        for s, (hf, cf) in fix_c.items():
            a, b = cands[s]
            e = max(abs(int(a * unit) - hf), abs(int(b * unit) - cf))  # exact: a * 2^P is an integer
            if e > worst_err:
                worst_err, at = e, s
        return (worst_err + E) / unit, at

    progress.start("value errors of both float programs", None)
    seed_err, seed_err_at = cand_error(seed_c)
    flt_err, flt_err_at = cand_error(flt_c)

    def float_choice(cands, strict):
        return {s: ("H" if (hc[0] > hc[1] if strict else hc[0] >= hc[1]) else "C") for s, hc in cands.items()}

    to_map = lambda cands: {s: {"H": hc[0], "C": hc[1]} for s, hc in cands.items()}  # noqa: E731
    progress.start("judging the published program's decisions", len(ex_c))
    dec_seed = audit_decisions(ex_c, to_map(seed_c), float_choice(seed_c, True), bound, progress=progress)
    progress.start("judging the float solver's decisions", len(ex_c))
    dec_float = audit_decisions(ex_c, to_map(flt_c), float_choice(flt_c, False), bound, progress=progress)
    return {
        "exact": exact, "float": flt, "seed": seed,
        "values_seed": values_seed, "values_float": values_float,
        "decisions_seed": dec_seed, "decisions_float": dec_float,
        "candidate_error_seed": (seed_err, seed_err_at), "candidate_error_float": (flt_err, flt_err_at),
        "below_separation": below, "states": len(fix_c), "refined_exactly": len(refined),
        "exact_candidates": ex_c, "bound": bound, "bound_label": label,
    }


def _sample(table: HoldTable, seed) -> tuple[str, str]:
    qs = [(15, 0, 3), (35, 50, 40), (15, 0, 30)]
    return (" ".join(table.policy[c][h][x - 2] for c, h, x in qs), " ".join(seed.answer(*q) for q in qs))


def audit(target: int = 75, faces: int = 6, backend: Backend | str = "mpq", digits: int = 8,
          progress=SILENT) -> Report:
    if get_backend(backend).prec is not None:
        from exactplay.games.hold.ball_report import audit_ball

        return audit_ball(target, faces, get_backend(backend), digits, progress)
    r = run_audit(target, faces, backend, progress)
    exact, seed = r["exact"], r["seed"]
    ds, df = r["decisions_seed"], r["decisions_float"]
    vs, vf = r["values_seed"], r["values_float"]
    T = target
    data = {
        "game": "hold",
        "params": _params(target, faces),
        "solvers_under_audit": {
            "published": f"the article's program: bisection ({BISECTION_STEPS} steps) on A = f(A), dp[c][c] = 1/2",
            "float": "correct float solver: policy iteration on each 2-cycle (this package)",
        },
        "query_states": r["states"],
        "rounding_bound": r["bound"],
        "rounding_bound_derivation": r["bound_label"],
        "values_published": vs.to_dict(),
        "values_float": vf.to_dict(),
        "candidate_error_published": {"max": r["candidate_error_seed"][0], "at": list(r["candidate_error_seed"][1] or ())},
        "candidate_error_float": {"max": r["candidate_error_float"][0], "at": list(r["candidate_error_float"][1] or ())},
        "decisions_published": ds.to_dict(),
        "decisions_float": df.to_dict(),
        "states_below_1e-5": r["below_separation"],
        "smallest_margin": None if ds.smallest_gap is None else {
            "value": format_pq(ds.smallest_gap), "float": float(ds.smallest_gap), "state": list(ds.smallest_gap_at)},
        "states_refined_exactly": r["refined_exactly"],
        "exact_repairs": exact.repairs,
        "exact_fallbacks": exact.exact_fallbacks,
    }
    lines = [f"Audit of Hold or Continue?, target {T}, faces {faces}: {r['states']} query states (c, h <= {T - 2})"]
    if T == 75 and faces == 6:
        ex_s, seed_s = _sample(exact, seed)
        data["sample"] = {"exact": ex_s, "published": seed_s}
        lines.append(f"sample 15 0 3 / 35 50 40 / 15 0 30: exact {ex_s}; published program prints {seed_s}")
    for name, v, d, ce in (("published", vs, ds, r["candidate_error_seed"]),
                           ("float (correct)", vf, df, r["candidate_error_float"])):
        lines.append(f"-- {name} solver")
        lines.append(f"   V(c,h) max abs error {v.max_abs:.3e} at {v.max_abs_at}, max ulps {v.max_ulps:.3g}")
        lines.append(f"   hold/continue values: max abs error {ce[0]:.3e} at {ce[1]}")
        lines.append("   decisions: " + ", ".join(f"{k} {n}" for k, n in d.counts.items()))
        lines.append(f"   float decision differs from the exact best in {d.decisions_differ} states")
    lines.append(f"rounding bound per value: {r['bound']:.3e} ({r['bound_label']}); "
                 f"flip threshold 2 x bound = {2 * r['bound']:.3e}")
    if ds.smallest_gap is not None:
        lines.append(f"smallest exact margin |p_hold - p_continue|: {float(ds.smallest_gap):.6e} at {ds.smallest_gap_at}")
    lines.append(f"states with margin below 1e-5 (the statement promises none): {r['below_separation']}")
    lines.append(f"exact solver: {exact.repairs} pairs needed a policy repair, {exact.exact_fallbacks} turns an exact "
                 f"comparison; {r['refined_exactly']} audited states recomputed exactly")
    return Report(data, lines)


# ------------------------------------------------------------------ certify


def certify(target: int = 75, faces: int = 6, backend: Backend | str = "mpq", progress=SILENT) -> dict:
    if get_backend(backend).prec is not None:
        raise UsageError("ball certificates are written for race only in this version: certify hold exactly")
    """Policy rows ``[c, h, policy]`` always; ``V(c, h)`` in the rows up to ``FULL_TABLE_UP_TO``,
    otherwise only the SHA-256 of the value rows (the checker rebuilds them exactly)."""
    table = exact_table(target, faces, backend, progress)
    progress.start("writing the certificate", None)
    T = target
    full = T <= FULL_TABLE_UP_TO
    value_rows = [[c, h, format_pq(table.V[c][h])] for c in range(T) for h in range(T)]
    values_digest = hashlib.sha256(json.dumps(value_rows, separators=(",", ":"), allow_nan=False).encode()).hexdigest()
    if full:
        columns = ["c", "h", "V", "policy"]
        rows = [[c, h, format_pq(table.V[c][h]), table.policy[c][h]] for c in range(T) for h in range(T)]
    else:
        columns = ["c", "h", "policy"]
        rows = [[c, h, table.policy[c][h]] for c in range(T) for h in range(T)]
    gap = _smallest_query_gap(table)
    answer_data, _ = exact_number(table.V[0][0], 8)
    summary = audit(target, faces, backend).data
    audit_summary = {k: summary[k] for k in ("query_states", "values_published", "values_float",
                                             "decisions_published", "decisions_float", "states_below_1e-5",
                                             "smallest_margin", "sample") if k in summary}
    return build_certificate(
        game="hold",
        params=_params(target, faces),
        answer={"name": "V(0,0)", **answer_data},
        columns=columns,
        rows=rows,
        policy={"encoding": "per (c, h): one letter per turn total x = 2..T-c, H hold (ties), C continue",
                "in": "table"},
        smallest_gap=gap,
        audit=audit_summary,
        notes="V(c,h): the mover's winning probability at the start of a turn, mover on c, opponent on h. "
              "Scores from which T cannot be hit exactly are dead; Q(a,b) = 1 - V(a,b) unless both are dead (0).",
        extra={"values_sha256": values_digest, "values_rows": "[c, h, V] for 0 <= c, h < T, canonical JSON"},
    )


def _smallest_query_gap(table: HoldTable):
    """Smallest exact |hold - continue| over the query states, via the fixed-point shadow then exactly."""
    T = table.target
    if T < 2:
        return None
    best = []

    def keep(c, h, hold, cont):
        if c <= T - 2 and h <= T - 2:
            for x in range(2, T - c + 1):
                best.append((abs(hold[x] - cont[x]), (c, h, x)))

    solve_table(T, table.faces, table.backend, guide=table, visit=keep)
    best.sort()
    E = fixed_error(T)
    cands = [s for g, s in best if g <= best[0][0] + 4 * E]
    exact_gaps = []
    for c, h, x in cands:
        _, hv, cont, _ = turn_of(table, c, h)
        exact_gaps.append((abs(hv[x] - cont[x]), (c, h, x)))
    g, s = min(exact_gaps)
    return {"value": format_pq(g), "state": list(s)}


# ------------------------------------------------------------------ claims


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


def value_table(target: int = 75, faces: int = 6, backend: Backend | str = "mpq", progress=SILENT):
    """The exact V(c, h), 0 <= c, h < T, for auditing a user's float table."""
    t = exact_table(target, faces, backend, progress)
    return {(c, h): t.V[c][h] for c, h in t.pairs()}, TABLE_COLUMNS, TABLE_VALUE


TABLE_COLUMNS = ("c", "h")
TABLE_VALUE = ("V(c,h), the mover's winning probability at the start of its turn (mover c, opponent h; "
               "0 <= c, h < target)")


# Measured CPU seconds and peak MB on the 2-core test machine (mpq, six faces): solve 66.8 s and
# 191 MB at target 150 (~2 s at 75), growing about as target^5; audit 10.7 s and 577 MB at 75,
# 31.9 s and 1.27 GB at 100 (about target^3.8; its query states, and memory, grow as target^3);
# certify (it runs the audit) 15.0 s and 597 MB at 75.
HEAVY_SOLVE_150 = (66.8, 191)
HEAVY_AUDIT_75 = (10.7, 577)
HEAVY_AUDIT_POWER = 3.8
HEAVY_CERTIFY_OVER_AUDIT = 15.0 / 10.7


def heavy(command: str, params: dict) -> str | None:
    """A note for the CLI when ``command`` at these parameters takes about a minute or more."""
    T = params.get("target") or 75
    F = params.get("faces") or 6
    more_faces = max(1.0, F / 6)
    if params.get("backend") in ("ball", "auto"):  # measured: 17.5 s at 75/6 in 128-bit balls, time ~T^3 F
        s = 17.5 * (T / 75) ** 3 * more_faces * (1.5 if command == "audit" else 1)
        return heavy_note(f"{command} hold at target {T} in balls", s, 100 * (T / 75) ** 2)
    solve_s = HEAVY_SOLVE_150[0] * (T / 150) ** 5 * more_faces
    audit_s = max(HEAVY_AUDIT_75[0] * (T / 75) ** HEAVY_AUDIT_POWER * more_faces, solve_s)
    audit_mb = HEAVY_AUDIT_75[1] * (T / 75) ** 3
    seconds, mb = {
        "solve": (solve_s, HEAVY_SOLVE_150[1] * (T / 150) ** 2),
        "audit": (audit_s, audit_mb),
        "certify": (audit_s * HEAVY_CERTIFY_OVER_AUDIT, audit_mb),
        "report": (audit_s, audit_mb),
    }.get(command, (solve_s, None))
    return heavy_note(f"{command} hold at target {T}", seconds, mb)


GAME = Game(
    name="hold",
    title="Hold or Continue? (ICPC LatAm 2019 H): race to exactly T with a die",
    params=(
        Param("target", parse_target, 75, f"points to hit exactly, 2..{MAX_TARGET}"),
        Param("faces", parse_faces, 6, f"faces of the die (1 ends the turn), 2..{MAX_FACES}"),
    ),
    solve=solve,
    audit=audit,
    certify=certify,
    description="Roll as often as you like: 1 ends the turn, 2..F add to the turn total, overshooting the target "
                "ends it; hold to bank. First to exactly the target wins.",
    proofs=tuple((f"hold-{t}-{f}.json", {"target": t, "faces": f})
                 for t, f in ((5, 3), (8, 2), (10, 6), (12, 4), (20, 6), (75, 6))),
    judge=judge,
    judge_arguments=judge_arguments,
    value_table=value_table,
    heavy=heavy,
    table_columns=TABLE_COLUMNS,
    table_value=TABLE_VALUE,
    ball=True,
)
