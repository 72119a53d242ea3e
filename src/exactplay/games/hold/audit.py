"""Hold's audit: the float solvers (the contest's bisection seed, the float table) against the
exact table, state by state, with the a-priori bound; the decisions of every query state."""

from __future__ import annotations

from fractions import Fraction

from exactplay.audit.judge import audit_decisions, audit_values, exact_minus_float, rounding_report
from exactplay.audit.result import AnswerCheck, AuditResult, DecisionVerdicts, Fact, FloatAudit, ValueErrors
from exactplay.games.hold.recurrence import PRECISION, fixed_error, hold_values, turn_affine
from exactplay.games.hold.seed import BISECTION_STEPS, seed_candidates
from exactplay.games.hold.solver import HoldTable, solve_table, turn_of
from exactplay.games.hold.tables import seed_table
from exactplay.numbers.backends import UNIT_ROUNDOFF, Backend, format_pq, get_backend
from exactplay.progress import SILENT


SEPARATION = Fraction(1, 10**5)  # the statement's promise |p_hold - p_continue| > 1e-5


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


SOLVERS_UNDER_AUDIT = {
    "published": f"the article's program: bisection ({BISECTION_STEPS} steps) on A = f(A), dp[c][c] = 1/2",
    "float": "correct float solver: policy iteration on each 2-cycle (this package)",
}


def _program(r: dict, name: str, label: str, digits: int) -> FloatAudit:
    """One float program's part of the audit: V(0,0), the start-of-turn table, the hold/continue
    values and the decisions of every query state; ``name`` is its JSON suffix."""
    suffix = "seed" if name == "published" else "float"
    exact = r["exact"].V[0][0]
    y = r["seed"].dp[0][0] if name == "published" else r["float"].V[0][0]
    err, at = r["candidate_error_" + suffix]
    v = r["values_" + suffix]
    # the bound is the correct solver's; the published program solves other equations (no bound)
    bound = r["bound"] if name == "float" else None

    return FloatAudit(
        label=label,
        answer=AnswerCheck("V(0,0)", exact, rounding_report(exact, digits, y, bound),
                           abs(float(exact_minus_float(y, exact))), key="answer_" + name,
                           error_key="answer_error_" + name),
        values=[ValueErrors("values_" + name, "V(c,h), c, h <= T-2", v)],
        decisions=[DecisionVerdicts("decisions_" + name, "decisions (hold or continue)", r["decisions_" + suffix],
                                    what="query states")],
        facts=[Fact("candidate_error_" + name, "hold/continue values: max abs error",
                    {"max": err, "at": list(at or ())}, f"{err:.3e} at {at}")],
    )


def audit_result(r: dict, target: int, faces: int, digits: int = 8) -> AuditResult:
    """The typed audit of :func:`run_audit`'s output ``r``."""
    T = target
    ds = r["decisions_seed"]
    exact = r["exact"]
    headline = []
    if T == 75 and faces == 6:
        ex_s, seed_s = _sample(exact, r["seed"])
        headline.append(Fact("sample", "sample 15 0 3 / 35 50 40 / 15 0 30", {"exact": ex_s, "published": seed_s},
                             f"exact {ex_s}; published program prints {seed_s}"))
    margin = None if ds.smallest_gap is None else {
        "value": format_pq(ds.smallest_gap), "float": float(ds.smallest_gap), "state": list(ds.smallest_gap_at)}
    facts = [
        Fact("query_states", None, r["states"]),
        Fact("rounding_bound", "rounding bound per value", r["bound"],
             f"{r['bound']:.3e} ({r['bound_label']}); flip threshold 2 x bound = {2 * r['bound']:.3e}"),
        Fact("rounding_bound_derivation", None, r["bound_label"]),
        Fact("smallest_margin", "smallest exact margin |p_hold - p_continue|", margin,
             None if margin is None else f"{margin['float']:.6e} at {ds.smallest_gap_at}"),
        Fact("states_below_1e-5", "states with margin below 1e-5 (the statement promises none)",
             r["below_separation"]),
        Fact("states_refined_exactly", None, r["refined_exactly"]),
        Fact("exact_repairs", None, exact.repairs),
        Fact("exact_fallbacks", "exact solver", exact.exact_fallbacks,
             f"{exact.repairs} pairs needed a policy repair, {exact.exact_fallbacks} turns an exact comparison; "
             f"{r['refined_exactly']} audited states recomputed exactly"),
    ]
    return AuditResult(
        game="hold", params={"target": target, "faces": faces},
        title=f"Audit of Hold or Continue?, target {T}, faces {faces}: {r['states']} query states (c, h <= {T - 2})",
        solver=SOLVERS_UNDER_AUDIT, solver_key="solvers_under_audit", headline=headline,
        audits=[_program(r, "published", "published solver", digits),
                _program(r, "float", "float (correct) solver", digits)],
        facts=[f for f in facts if f.label is None or f.value is not None],
    )
