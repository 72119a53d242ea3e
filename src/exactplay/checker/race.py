"""Independent check of a Race certificate (Project Euler 232).

What is verified, with :class:`fractions.Fraction` only, in every cell
``1 <= a, b <= N`` of the stored table of ``F``:

1. ``G(a, b) = (F(a-1, b) + F(a, b)) / 2`` with ``F(0, b) = 0``, ``G(a, 0) = 1``
   (G is derived, never read);
2. the raw Bellman equation of Section 4, *not* the loop-eliminated formula::

       F(a, b) = max_{t >= 1}  q_t S_t + (1 - q_t) G(a, b),
       q_t = 2^-t,  S_t = 1 if 2^(t-1) >= b else G(a, b - 2^(t-1));

   for ``t >= t0(b)`` the term is ``G + q_t (1 - G)``, which decreases in t
   (``G <= 1``), so the maximum over all t is attained among ``t <= t0(b)``
   and those are checked; ``t0(b) + 1`` is checked too, for the gap;
3. the stored choice attains the maximum and every other t is strictly below it
   (on an exact tie, the smallest tied T must be stored: the published rule);
   the stored gap is ``x_best - x_runner-up``, where ``x_t = phi_t(x_t)`` is
   the value of keeping ``T = t`` at this cell, ``phi_t`` the raw term below
   (``x_t - F`` has the sign of ``phi_t(F) - F``, so the orders agree);
4. the answer equals ``G(N, N)``; the digest was checked on loading.

Why this suffices: the equations of step 2 determine F uniquely.  By induction
on ``a + b``, every term except ``G(a, b)`` involves cells with a smaller
``a + b``; at a cell, ``x = max_t phi_t(x)`` with ``phi_t`` affine of slope
``(1 - q_t)/2 < 1/2``, and such an equation has exactly one solution
(Section 7's contraction argument: if ``x`` and ``y`` both solve it,
``|x - y| <= |x - y| / 2``).  So a table satisfying every equation *is* the
value of the game, whoever computed it.
"""

from __future__ import annotations

from fractions import Fraction

from ..errors import VerificationError
from ._load import Table, approx, integer, rational

COLUMNS = ["a", "b", "F", "best_t", "gap"]


def _t0(b: int) -> int:
    t = 1
    while 2 ** (t - 1) < b:
        t += 1
    return t


def verify(cert: dict, table: Table) -> str:
    params = cert["params"]
    if not isinstance(params, dict) or "target" not in params:
        raise VerificationError("missing target", field="params")
    N = integer(params["target"], "params.target")
    if N < 1:
        raise VerificationError(f"target {N} < 1", field="params.target")
    if table.columns != COLUMNS:
        raise VerificationError(f"columns {table.columns} are not {COLUMNS}", field="table.columns")
    if len(table.rows) != N * N:
        raise VerificationError(f"{len(table.rows)} rows for {N * N} cells", field="table")

    F = {}
    choice = {}
    gap = {}
    for row in table.rows:
        if len(row) != 5:
            raise VerificationError("row has not 5 entries", field="table", state=row[:2])
        a = integer(row[0], "table.a")
        b = integer(row[1], "table.b", a)
        state = (a, b)
        if not (1 <= a <= N and 1 <= b <= N) or state in F:
            raise VerificationError("cell out of range or repeated", field="table", state=state)
        F[state] = rational(row[2], "table.F", state)
        choice[state] = integer(row[3], "table.best_t", state)
        gap[state] = rational(row[4], "table.gap", state)

    def f(a: int, b: int) -> Fraction:
        if a == 0:
            return Fraction(0)
        if b <= 0:
            return Fraction(1)
        return F[(a, b)]

    def g(a: int, b: int) -> Fraction:
        if b <= 0:
            return Fraction(1)
        if a == 0:
            return Fraction(0)
        return (f(a - 1, b) + f(a, b)) / 2

    ties = 0
    smallest = None
    for a in range(1, N + 1):
        for b in range(1, N + 1):
            state = (a, b)
            G = g(a, b)
            x = F[state]
            F_prev = f(a - 1, b)
            raw = {}  # raw Bellman terms phi_t(F(a, b))
            fixed = {}  # x_t = phi_t(x_t): the value of keeping T = t at this cell
            for t in range(1, _t0(b) + 2):
                q = Fraction(1, 2**t)
                d = 2 ** (t - 1)
                S = Fraction(1) if d >= b else g(a, b - d)
                raw[t] = q * S + (1 - q) * G
                fixed[t] = (q * S + (1 - q) * F_prev / 2) / (1 - (1 - q) / 2)
            best = max(raw.values())
            if x != best:
                raise VerificationError(
                    f"F = {x} but the Bellman maximum is {best}", field="table.F", state=state
                )
            t_star = choice[state]
            if t_star not in raw or raw[t_star] != best:
                raise VerificationError(
                    f"stored choice T = {t_star} does not attain the maximum", field="table.best_t", state=state
                )
            tied = [t for t, v in raw.items() if v == best]
            if t_star != min(tied):
                raise VerificationError("a tied choice other than the smallest T is stored", field="table.best_t",
                                        state=state)
            if len(tied) > 1:
                ties += 1
            runner = max(v for t, v in fixed.items() if t != t_star)
            if gap[state] != fixed[t_star] - runner:
                raise VerificationError(
                    f"stored gap {gap[state]} is not x_best - x_runner-up = {fixed[t_star] - runner}",
                    field="table.gap", state=state,
                )
            if smallest is None or gap[state] < smallest[0]:
                smallest = (gap[state], state)

    answer = cert["answer"]
    if not isinstance(answer, dict) or "value" not in answer:
        raise VerificationError("answer has no value", field="answer")
    value = rational(answer["value"], "answer.value")
    if answer.get("name") != f"G({N},{N})":
        raise VerificationError(f"answer is named {answer.get('name')!r}, not G({N},{N})", field="answer.name")
    if value != g(N, N):
        raise VerificationError(f"answer {value} is not G(N,N) = {g(N, N)}", field="answer.value", state=(N, N))

    policy = cert["policy"]
    if not isinstance(policy, dict) or set(policy) != {"rows", "columns", "best_t"}:
        raise VerificationError("policy must have exactly the keys rows, columns, best_t", field="policy")
    if policy["rows"] != "a = 1..N" or policy["columns"] != "b = 1..N":
        raise VerificationError("policy rows/columns must say 'a = 1..N' and 'b = 1..N'", field="policy")
    stored = policy["best_t"]
    if not isinstance(stored, list) or len(stored) != N or \
            any(not isinstance(r, list) or len(r) != N for r in stored):
        raise VerificationError(f"policy.best_t must be {N} rows of {N} choices", field="policy.best_t")
    for a in range(1, N + 1):
        for b in range(1, N + 1):
            t = stored[a - 1][b - 1]
            if t != choice[(a, b)] or not isinstance(t, int) or isinstance(t, bool):
                raise VerificationError(f"policy says T = {str(t)[:20]}, table says {choice[(a, b)]}",
                                        field="policy.best_t", state=(a, b))

    sg = cert["smallest_gap"]
    if not isinstance(sg, dict) or set(sg) != {"value", "state"}:
        raise VerificationError("smallest_gap must be {value, state}", field="smallest_gap")
    if rational(sg["value"], "smallest_gap.value") != smallest[0]:
        raise VerificationError("smallest gap does not match the table", field="smallest_gap.value")
    if sg["state"] != list(smallest[1]):
        raise VerificationError(f"smallest gap is first reached at {smallest[1]}, not {str(sg['state'])[:40]}",
                                field="smallest_gap.state")

    return f"race target {N}: {N * N} cells satisfy the Bellman equations exactly; G({N},{N}) = " \
           f"{approx(value, 10, 'f')}; exact ties: {ties}"
