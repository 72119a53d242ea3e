"""The Race's float audit: the published program against the exact table, value by value
against the a-priori bound, decision by decision; the float value iteration and the longest
chain the seed's claims use."""

from __future__ import annotations

from exactplay.audit.judge import audit_decisions, audit_values, rounding_report
from exactplay.audit.result import AnswerCheck, AuditResult, DecisionVerdicts, FloatAudit, ValueErrors
from exactplay.errors import UsageError
from exactplay.games.race.table import MAX_AUDIT_TARGET, MAX_BALL_TARGET, MAX_TARGET, solve_table, t_limit
from exactplay.numbers.backends import UNIT_ROUNDOFF, Backend
from exactplay.progress import SILENT


def _audit_limit(target: int, what: str) -> None:
    if target > MAX_AUDIT_TARGET:
        raise UsageError(f"race {what} keeps every exact value (memory grows as target^3, ~5 GB for certify at "
                         f"{MAX_AUDIT_TARGET}): target {target} is beyond its limit {MAX_AUDIT_TARGET} "
                         f"(solve goes to {MAX_TARGET}; --backend ball goes to {MAX_BALL_TARGET})")


def value_iteration(target: int, tol: float = 1e-14, max_sweeps: int = 5000):
    """The C++ program's ``solve_value_iteration``: sweeps of the raw equations.

    Keeps G (``p1``) and F (``p2``); each sweep first computes the new G from the
    old F, then F as the max over t of ``q_t S_t + (1 - q_t) G``; stops when the
    largest change in a sweep is below ``tol``.  Returns ``(F, G, sweeps)``.
    """
    N = target
    t_max = t_limit(N)
    p2 = [[0.0] * (N + 1) for _ in range(N + 1)]
    p1 = [[0.0] * (N + 1) for _ in range(N + 1)]
    for a in range(1, N + 1):
        p1[a][0] = p2[a][0] = 1.0
    sweeps = 0
    while sweeps < max_sweeps:
        sweeps += 1
        change = 0.0
        new_p1 = [row[:] for row in p1]
        for a in range(1, N + 1):
            for b in range(1, N + 1):
                new_p1[a][b] = 0.5 * (p2[a - 1][b] + p2[a][b])
                change = max(change, abs(new_p1[a][b] - p1[a][b]))
        p1 = new_p1
        for a in range(1, N + 1):
            for b in range(1, N + 1):
                best = 0.0
                for t in range(1, t_max + 1):
                    q = 2.0**-t
                    d = 2 ** (t - 1)
                    S = 1.0 if d >= b else p1[a][b - d]
                    best = max(best, q * S + (1 - q) * p1[a][b])
                change = max(change, abs(best - p2[a][b]))
                p2[a][b] = best
        if change < tol:
            break
    return p2, p1, sweeps


def longest_chain(target: int) -> int:
    """Length of the longest dependency chain ending in G(N, N).

    F(a, b) depends on F(a-1, b) and, through S_t, on F(a, b-d) and F(a-1, b-d);
    the final G(N, N) adds one step.  Computed over the actual dependency graph.
    """
    N = target
    t_max = t_limit(N)
    depth = [[0] * (N + 1) for _ in range(N + 1)]
    for a in range(1, N + 1):
        for b in range(1, N + 1):
            deps = [depth[a - 1][b]]
            for t in range(1, t_max + 1):
                d = 2 ** (t - 1)
                if d < b:
                    deps += [depth[a][b - d], depth[a - 1][b - d]]
            depth[a][b] = 1 + max(deps)
    return 1 + max(depth[N - 1][N], depth[N][N])


ROUNDINGS_PER_CANDIDATE = 4  # G's sum, (1 - q) F', the numerator's sum, the division
MAX_MAGNITUDE = 2.0  # every intermediate is at most 2


def a_priori_bound(target: int) -> tuple[float, str]:
    """Section 12's argument: per-cell new error times the longest chain.

    Each candidate is an average of earlier values with weights summing to 1, so
    old errors are not amplified; a cell adds at most ``4 * 2 * 2**-53``.
    """
    per_cell = ROUNDINGS_PER_CANDIDATE * MAX_MAGNITUDE * UNIT_ROUNDOFF
    chain = longest_chain(target)
    label = (
        f"{ROUNDINGS_PER_CANDIDATE} roundings x magnitude {MAX_MAGNITUDE:g} x 2^-53 per cell "
        f"= {per_cell:.3g}, times the longest dependency chain {chain}"
    )
    return per_cell * chain, label


def run_audit(target: int, backend: Backend | str = "mpq", digits: int = 8, progress=SILENT, solver=None) -> dict:
    """Everything the audit reports, as a JSON-ready dict (used by audit and certify)."""
    _audit_limit(target, "audit (also report, certify)")
    exact = (solver or solve_table)(target, backend, keep_candidates=True, progress=progress)
    flt = solve_table(target, "float", keep_candidates=True, progress=progress)
    progress.start("value errors of the float table", None)
    bound, label = a_priori_bound(target)
    values = audit_values(exact.F_map(), flt.F_map(), bound, label)
    progress.start("judging the float decisions", len(exact.candidates))
    decisions = audit_decisions(exact.candidates, flt.candidates, flt.best_t, bound, progress=progress)
    rr = rounding_report(exact.answer, digits, flt.answer, bound)
    answer_err = abs(float(exact.answer - type(exact.answer)(flt.answer)))
    return {
        "exact": exact,
        "float": flt,
        "values": values,
        "decisions": decisions,
        "rounding": rr,
        "answer_error": answer_err,
    }


SOLVER_UNDER_AUDIT = "published program: first form of F_t, t = 1..t0(N)+4, strict > keeps smallest t"


def audit_result(r: dict) -> AuditResult:
    """The typed audit of :func:`run_audit`'s output ``r``."""
    N = r["exact"].target
    name = f"G({N},{N})"
    return AuditResult(
        game="race", params={"target": N},
        title=f"Audit of the published Race solver, target {N} ({r['values'].cells} cells F(a,b), 1 <= a,b <= {N})",
        solver=SOLVER_UNDER_AUDIT,
        audits=[FloatAudit(
            answer=AnswerCheck(name, r["exact"].answer, r["rounding"], r["answer_error"]),
            values=[ValueErrors("values", "F(a,b), Player 2's winning probability at its turn", r["values"], what="cells")],
            decisions=[DecisionVerdicts("decisions", "decisions (T in every cell)", r["decisions"], what="cells")],
        )],
    )
