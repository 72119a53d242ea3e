"""Independent check of a Hold or Continue? certificate.

The certificate stores, per ordered score pair ``(c, h)`` with ``0 <= c, h < T``,
the policy: one letter per turn total ``x = 2..T-c``, ``H`` (hold; also on an
exact tie) or ``C`` (continue); small targets store ``V(c, h)`` as well.  With
:class:`fractions.Fraction` and integers only, this module

1. derives the dead scores from the rules: ``s`` is alive iff ``T - s`` is a
   sum of faces ``2..F`` (empty sum included);
2. evaluates the stored policy exactly, pair by pair in decreasing ``c + h``:
   for a pair of alive scores, the probabilities ``p[x]`` of reaching each
   turn total give ``V(c, h) = a + b (1 - V(h, c))`` with
   ``a = sum_{x held} p[x] hold(x)``, ``b = 1 - sum_{x held} p[x]``, and the two
   such equations of the pair are solved exactly (``1 - b_c b_h > 0`` is
   checked); a pair with a dead score gets ``V = 1`` for the alive mover and 0
   otherwise (both dead: nobody ever wins);
3. verifies the raw equations in every state ``(c, h, x)``::

       hold = 1 if c + x = T else Q(h, c + x)
       cont = (sum_{d=2..F, x+d <= T-c} v(x + d) + k Q(h, c)) / F
       v    = max(hold, cont),   V(c, h) = (sum_{d=2..F, d <= T-c} v(d) + k0 Q(h, c)) / F

   with ``Q(a, b) = 1 - V(a, b)`` unless both are dead (then 0), and that the
   stored letter attains the maximum, ``H`` exactly when ``hold >= cont``.  The
   comparisons are made in 128-bit fixed point, each value within a proved
   bound of the exact one (inputs floor-rounded, each roll one weighted mean
   and one floor division); a comparison closer than twice the bound is redone
   in exact Fractions.  The equation for ``V(c, h)`` is checked to the same bound
   (it holds exactly by construction of step 2 when the letters are optimal);
4. compares the stored values (if any) exactly with the rebuilt ones, the
   SHA-256 of the rebuilt rows ``[c, h, "p/q"]`` with ``values_sha256``, the
   answer with ``V(0, 0)``, and the stored smallest query margin.

Why this suffices: a solution of the equations is unique.  Pairs are solved
in decreasing ``c + h``; within a pair of alive scores let ``f(L)`` be the
mover's start value when a lost turn is worth ``L`` (a maximum of affine maps
``a + b L``, ``0 <= b <= 1``, so convex, nondecreasing, slopes at most 1) and
``g`` the opponent's.  ``f(L) > L`` for ``L < 1``: the mover may roll until the
target is hit exactly, which happens with positive probability.  The pair's
values solve ``U = f(1 - g(1 - U))``; the right side minus ``U`` is
nonincreasing, and constant only where both slopes are 1, i.e. where
``f(L) = L`` with ``L = 1 - g(1 - U) < 1``, impossible; so it has one root.  At
equal scores ``U = f(1 - U)`` has a decreasing right side.  A mover alive
against a dead opponent has ``U = f(U)`` (the dead turn always passes back),
whose only root is 1.  So the values checked here are the game's, and a
policy attaining every maximum is optimal.
"""

from __future__ import annotations

import hashlib
import json
from fractions import Fraction

from ..errors import VerificationError
from ._load import Table, approx, integer, rational


P = 128
ONE_FIXED = 1 << P
# the descriptive fields, as the tool writes them (the checker reads the table by these rules)
POLICY = {"encoding": "per (c, h): one letter per turn total x = 2..T-c, H hold (ties), C continue", "in": "table"}
VALUES_ROWS = "[c, h, V] for 0 <= c, h < T, canonical JSON"


def _alive(T: int, F: int) -> list:
    ok = [False] * (T + 1)
    ok[0] = True
    for r in range(2, T + 1):
        ok[r] = any(ok[r - d] for d in range(2, min(F, r) + 1))
    return [ok[T - s] for s in range(T)]


def _start_affine(T, F, c, hold, policy):
    """``(a, b)``: start value ``a + b L`` of the turn played by ``policy`` (forward reach)."""
    m = T - c
    inv = Fraction(1, F)
    p = [Fraction(0)] * (m + 1)
    for x in range(2, min(F, m) + 1):
        p[x] = inv
    a = Fraction(0)
    held = Fraction(0)
    for x in range(2, m + 1):
        if not p[x]:
            continue
        if policy[x - 2] == "H":
            a += p[x] * hold[x]
            held += p[x]
        else:
            step = p[x] * inv
            for y in range(x + 2, min(x + F, m) + 1):
                p[y] += step
    return a, 1 - held


def _exact_turn(F, hold, L):
    m = len(hold) - 1
    v = [Fraction(0)] * (m + F + 2)
    cont = [None] * (m + 1)
    for x in range(m, 1, -1):
        ks = [d for d in range(2, F + 1) if x + d <= m]
        cont[x] = (sum((v[x + d] for d in ks), Fraction(0)) + (F - len(ks)) * L) / F
        v[x] = max(hold[x], cont[x])
    ks = [d for d in range(2, F + 1) if d <= m]
    start = (sum((v[d] for d in ks), Fraction(0)) + (F - len(ks)) * L) / F
    return start, cont


def _fixed_turn(F, hold, L):
    m = len(hold) - 1
    v = [0] * (m + F + 2)
    cont = [0] * (m + 1)
    for x in range(m, 1, -1):
        n = 0
        total = 0
        for d in range(2, F + 1):
            if x + d <= m:
                total += v[x + d]
                n += 1
        cont[x] = (total + (F - n) * L) // F
        v[x] = hold[x] if hold[x] >= cont[x] else cont[x]
    n = 0
    total = 0
    for d in range(2, F + 1):
        if d <= m:
            total += v[d]
            n += 1
    return (total + (F - n) * L) // F, cont


def verify(cert: dict, table: Table) -> str:
    params = cert["params"]
    if not isinstance(params, dict) or "target" not in params or "faces" not in params:
        raise VerificationError("missing target or faces", field="params")
    T = integer(params["target"], "params.target")
    F = integer(params["faces"], "params.faces")
    if not (2 <= T <= 1000 and 2 <= F <= 100):
        raise VerificationError(f"target {T} / faces {F} out of range", field="params")
    if cert["policy"] != POLICY:
        raise VerificationError(f"policy must be {POLICY} (the letters are in the table)", field="policy")
    if cert.get("values_rows") != VALUES_ROWS:
        raise VerificationError(f"must say {VALUES_ROWS!r}: what values_sha256 is the digest of",
                                field="values_rows")
    full = table.columns == ["c", "h", "V", "policy"]
    if not full and table.columns != ["c", "h", "policy"]:
        raise VerificationError(f"unexpected columns {table.columns}", field="table.columns")
    if len(table.rows) != T * T:
        raise VerificationError(f"{len(table.rows)} rows for {T * T} pairs", field="table")
    policy = {}
    stored_V = {}
    for row in table.rows:
        if not isinstance(row, list) or len(row) != len(table.columns):
            raise VerificationError("malformed row", field="table", state=row[:2] if isinstance(row, list) else None)
        c = integer(row[0], "table.c")
        h = integer(row[1], "table.h", c)
        state = (c, h)
        if not (0 <= c < T and 0 <= h < T) or state in policy:
            raise VerificationError("pair out of range or repeated", field="table", state=state)
        pol = row[-1]
        if not isinstance(pol, str) or len(pol) != T - c - 1 or set(pol) - {"H", "C"}:
            raise VerificationError(f"policy must be {T - c - 1} letters H/C", field="table.policy", state=state)
        policy[state] = pol
        if full:
            stored_V[state] = rational(row[2], "table.V", state)

    alive = _alive(T, F)
    V = [[None] * T for _ in range(T)]
    Vf = [[0] * T for _ in range(T)]
    err = T + 3  # error bound of every fixed-point value, in units of 2^-P
    exact_turns = 0

    def Q(a, b):
        return Fraction(0) if not alive[a] and not alive[b] else 1 - V[a][b]

    def Qf(a, b):
        return 0 if not alive[a] and not alive[b] else ONE_FIXED - Vf[a][b]

    def holds(c, h):
        m = T - c
        hv = [Fraction(0)] * (m + 1)
        for x in range(2, m):
            hv[x] = Q(h, c + x)
        hv[m] = Fraction(1)
        return hv

    def holds_fixed(c, h):
        m = T - c
        hv = [0] * (m + 1)
        for x in range(2, m):
            hv[x] = Qf(h, c + x)
        hv[m] = ONE_FIXED
        return hv

    def check_turn(c, h):
        nonlocal exact_turns
        pol = policy[(c, h)]
        hv = holds_fixed(c, h)
        L = Qf(h, c)
        start, cont = _fixed_turn(F, hv, L)
        if abs(start - Vf[c][h]) > err + 1:
            raise VerificationError(f"V(c,h) = {approx(V[c][h], 17, 'g')} does not solve its start equation "
                                    f"(turn gives {start / ONE_FIXED:.17g})", field="table.policy", state=(c, h))
        close = any(abs(hv[x] - cont[x]) <= 2 * err for x in range(2, T - c + 1))
        if close:
            exact_turns += 1
            hx = holds(c, h)
            s_ex, cont_ex = _exact_turn(F, hx, Q(h, c))
            if s_ex != V[c][h]:
                raise VerificationError("V(c,h) does not solve its start equation exactly",
                                        field="table.policy", state=(c, h))
            for x in range(2, T - c + 1):
                want = "H" if hx[x] >= cont_ex[x] else "C"
                if pol[x - 2] != want:
                    raise VerificationError(f"stored {pol[x - 2]} but the optimal (ties hold) choice is {want}",
                                            field="table.policy", state=(c, h, x))
            return
        for x in range(2, T - c + 1):
            want = "H" if hv[x] > cont[x] else "C"
            if pol[x - 2] != want:
                raise VerificationError(f"stored {pol[x - 2]} but the optimal choice is {want} "
                                        f"(hold {hv[x] / ONE_FIXED:.17g}, continue {cont[x] / ONE_FIXED:.17g})",
                                        field="table.policy", state=(c, h, x))

    for s in range(2 * T - 2, -1, -1):
        for c in range(max(0, s - T + 1), s // 2 + 1):
            h = s - c
            if alive[c] and alive[h]:
                a_c, b_c = _start_affine(T, F, c, holds(c, h), policy[(c, h)])
                if c == h:
                    U = W = (a_c + b_c) / (1 + b_c)
                else:
                    a_h, b_h = _start_affine(T, F, h, holds(h, c), policy[(h, c)])
                    det = 1 - b_c * b_h
                    if det <= 0:
                        raise VerificationError("the stored policies never hold: the pair has no solution",
                                                field="table.policy", state=(c, h))
                    U = (a_c + b_c * (1 - a_h - b_h)) / det
                    W = a_h + b_h * (1 - U)
            else:
                U = Fraction(1 if alive[c] and not alive[h] else 0)
                W = Fraction(1 if alive[h] and not alive[c] else 0)
            V[c][h], V[h][c] = U, W
            Vf[c][h] = (U.numerator << P) // U.denominator
            Vf[h][c] = (W.numerator << P) // W.denominator
            check_turn(c, h)
            if c != h:
                check_turn(h, c)

    if full:
        for (c, h), value in stored_V.items():
            if value != V[c][h]:
                raise VerificationError(f"stored V = {approx(value, 17, 'g')}, "
                                        f"the equations give {approx(V[c][h], 17, 'g')}",
                                        field="table.V", state=(c, h))
    rows = [[c, h, f"{V[c][h].numerator}/{V[c][h].denominator}"] for c in range(T) for h in range(T)]
    digest = hashlib.sha256(json.dumps(rows, separators=(",", ":")).encode("utf-8")).hexdigest()
    if cert.get("values_sha256") != digest:
        raise VerificationError("SHA-256 of the rebuilt value rows differs from values_sha256",
                                field="values_sha256")
    answer = cert.get("answer") or {}
    if rational(answer.get("value"), "answer.value") != V[0][0]:
        raise VerificationError("answer is not V(0,0)", field="answer.value", state=(0, 0))
    gap_summary = _check_smallest_gap(cert["smallest_gap"], T, F, V, Vf, Q, Qf, holds, holds_fixed, err)
    return (f"Hold or Continue? target {T} faces {F}: {T * T} pairs, every hold/continue comparison verified "
            f"({exact_turns} turns exactly), V(0,0) = {approx(V[0][0], 12, 'f')}{gap_summary}")


def _check_smallest_gap(stored, T, F, V, Vf, Q, Qf, holds, holds_fixed, err) -> str:
    # T >= 2 always has query states ((0, 0, x) for x = 2..T): the smallest margin is stored
    if not isinstance(stored, dict) or set(stored) != {"value", "state"} or not isinstance(stored["state"], list) \
            or len(stored["state"]) != 3:
        raise VerificationError("malformed smallest_gap", field="smallest_gap")
    value = rational(stored.get("value"), "smallest_gap.value")
    c0, h0, x0 = (integer(v, "smallest_gap.state") for v in stored["state"])
    if not (0 <= c0 <= T - 2 and 0 <= h0 <= T - 2 and 2 <= x0 <= T - c0):
        raise VerificationError("not a query state", field="smallest_gap", state=(c0, h0, x0))
    hx = holds(c0, h0)
    _, cont = _exact_turn(F, hx, Q(h0, c0))
    if abs(hx[x0] - cont[x0]) != value:
        raise VerificationError("stored margin is not |hold - continue| there", field="smallest_gap",
                                state=(c0, h0, x0))
    bound = (value.numerator << P) // value.denominator
    for c in range(T - 1):
        for h in range(T - 1):
            hv = holds_fixed(c, h)
            _, cf = _fixed_turn(F, hv, Qf(h, c))
            for x in range(2, T - c + 1):
                if abs(hv[x] - cf[x]) < bound - 2 * err - 1:
                    raise VerificationError("a query state has a smaller margin", field="smallest_gap",
                                            state=(c, h, x))
                if abs(hv[x] - cf[x]) < bound + 2 * err + 1 and (c, h, x) != (c0, h0, x0):
                    hx = holds(c, h)
                    _, ce = _exact_turn(F, hx, Q(h, c))
                    if abs(hx[x] - ce[x]) < value:
                        raise VerificationError("a query state has a smaller margin", field="smallest_gap",
                                                state=(c, h, x))
                    if abs(hx[x] - ce[x]) == value and (c, h, x) < (c0, h0, x0):
                        raise VerificationError("an earlier query state has the same margin (the first is stored)",
                                                field="smallest_gap.state", state=(c, h, x))
    return f"; smallest query margin {approx(value, 4)} at {(c0, h0, x0)} verified"
