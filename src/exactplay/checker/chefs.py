"""Independent check of a Chef Showdown certificate (standard library only).

The game: chefs 1..n in a cycle, chef k succeeds with probability p_k in (0, 1].
In state (M, t) the mover t attacks target j; with probability p_t the state
becomes (M minus j, next(t)), otherwise (M, next_M(t)).  So, per state::

    W_{M,t}(i) = p_t W_{M-j, next}(i) + (1 - p_t) W_{M, next_M(t)}(i)
    D_{M,t}    = 1 + p_t D_{M-j, next} + (1 - p_t) D_{M, next_M(t)}

with W_{{i},i}(i) = 1, D_{{i},i} = 0.  For a fixed policy these equations have
exactly one solution: within one alive set M of q chefs they form a cycle whose
determinant is 1 - prod_{k in M}(1 - p_k) > 0 (every p_k > 0), and the success
states have fewer chefs, so by induction on |M| the solution is unique.  Hence:

* full-table certificates: the stored values satisfy every equation exactly
  (checked here with Fractions), so they ARE the values of the stored policy;
* policy certificates: the checker rebuilds the unique solution itself, in
  integers (numerators over one denominator per alive set) from the cycle
  equations.

Then in every state the stored target must attain the largest success-branch
value W_{M-j, next}(t) over all j, and among equally good targets it must be
the one nearest after t in cyclic order (the declared tie rule; "farthest" is
also understood).  Comparisons use exact integer arithmetic (a 64-bit
truncation decides when the values are far apart, cross-multiplication
otherwise).  Finally the answer E(n) = D_{{1..n},1}, the stored winner
vector and the stored list of tied states must follow from the table.
"""

from __future__ import annotations

import hashlib
import math
from fractions import Fraction

from ..errors import VerificationError
from ._chefs_cycle import _compare, _solve_cycle, _successor, _Values  # noqa: F401
from ._ints import big, ratio
from ._load import approx, integer, rational


MAX_N = 16
SLOW_CHECK_N = 13  # the writer flags certificates from here on: this checker needs minutes for them
STORED_IN = "table column 'target' (chef numbers from 1)"
FULL_COLUMNS = ["alive_mask", "mover", "target", "D", "W(members in cyclic order)..."]
POLICY_COLUMNS = ["alive_mask", "mover", "target"]


def _members(mask: int) -> list[int]:
    return [i for i in range(mask.bit_length()) if mask >> i & 1]


def _state(mask: int, mover: int) -> str:
    return "alive {" + ",".join(str(i + 1) for i in _members(mask)) + "} mover " + str(mover + 1)


def _fib(k: int) -> int:
    a, b = 0, 1
    for _ in range(k):
        a, b = b, a + b
    return a


def _skills(cert: dict) -> list[Fraction]:
    raw = cert.get("skills")
    if not isinstance(raw, list) or not 2 <= len(raw) <= MAX_N:
        raise VerificationError("skills must be a list of 2..16 rationals", field="skills")
    skills = [rational(s, "skills", k + 1) for k, s in enumerate(raw)]
    for k, s in enumerate(skills):
        if not 0 < s <= 1:
            raise VerificationError(f"skill {s} outside (0, 1]", field="skills", state=f"chef {k + 1}")
    params = cert["params"]
    n = len(skills)
    if not isinstance(params, dict) or params.get("n") != n:
        raise VerificationError(f"params.n does not match the {n} skills", field="params")
    if params.get("skills") == "fibonacci":
        fib = [Fraction(_fib(k), _fib(n + 1)) for k in range(1, n + 1)]
        if skills != fib:
            raise VerificationError("skills are not F_k/F_{n+1}", field="skills")
    else:
        listed = str(params.get("skills", "")).split(",")
        if [rational(x, "params") for x in listed] != skills:
            raise VerificationError("params.skills does not list the certificate's skills", field="params")
    return skills


def _tie_rule(cert: dict) -> str:
    pol = cert["policy"]
    if not isinstance(pol, dict) or set(pol) != {"tie_rule", "stored_in"}:
        raise VerificationError("policy must have exactly the keys tie_rule, stored_in", field="policy")
    if pol["stored_in"] != STORED_IN:
        raise VerificationError(f"the checker reads the targets from the {STORED_IN}", field="policy.stored_in")
    rule = pol["tie_rule"]
    if rule not in ("nearest", "farthest"):
        raise VerificationError(f"unknown tie rule {str(rule)[:40]!r}", field="policy.tie_rule")
    return rule


def _check_choice(mask, mem, r, target, prev, rule, ties_found) -> None:
    """The stored target attains the best success value, with the tie rule."""
    q = len(mem)
    if target not in mem or target == mem[r]:
        raise VerificationError(f"target {target + 1} is not an alive opponent", field="table",
                                state=_state(mask, mem[r]))
    order = [(r + d) % q for d in range(1, q)]  # by cyclic distance
    best = None
    maxima = []
    for j_idx in order:
        S, nxt, t_pos = _successor(mask, mem, r, j_idx)
        cand = (prev[S], nxt, t_pos, j_idx)
        if best is None:
            best, maxima = cand, [j_idx]
            continue
        c = _compare(cand[0], cand[1], cand[2], best[0], best[1], best[2])
        if c > 0:
            best, maxima = cand, [j_idx]
        elif c == 0:
            maxima.append(j_idx)
    want = maxima[0] if rule == "nearest" else maxima[-1]
    if mem[want] != target:
        why = "not a best target" if mem.index(target) not in maxima else f"tied, but the {rule} rule picks {mem[want] + 1}"
        raise VerificationError(f"stored target {target + 1} is {why}", field="policy", state=_state(mask, mem[r]))
    if len(maxima) > 1:
        ties_found.append([mask, mem[r] + 1, sorted(mem[k] + 1 for k in maxima)])


# ---------------------------------------------------------------- full tables


def _full_table(rows, skills, rule):
    n = len(skills)
    table = {}
    for row in rows:
        if not isinstance(row, list) or len(row) < 5:
            raise VerificationError("malformed row", field="table", state=str(row)[:60])
        mask, mover, target = (integer(x, "table") for x in row[:3])
        if not 0 < mask < 1 << n or not 1 <= mover <= n or not mask >> (mover - 1) & 1:
            raise VerificationError("state outside the game", field="table", state=f"mask {mask} mover {mover}")
        mem = _members(mask)
        if len(row) != 4 + len(mem):
            raise VerificationError("row length does not match the alive set", field="table",
                                    state=_state(mask, mover - 1))
        st = (mask, mover - 1)
        if st in table:
            raise VerificationError("state listed twice", field="table", state=_state(*st))
        D = rational(row[3], "table", _state(*st))
        W = [rational(x, "table", _state(*st)) for x in row[4:]]
        table[st] = (target - 1, D, W)
    for mask in range(1, 1 << n):
        for t in _members(mask):
            if (mask, t) not in table:
                raise VerificationError("state missing", field="table", state=_state(mask, t))
    ties = []
    layers = {}
    for q in range(1, n + 1):
        layer = {}
        for mask in range(1, 1 << n):
            mem = _members(mask)
            if len(mem) != q:
                continue
            rowsM = [table[(mask, t)] for t in mem]
            # as _Values over a common denominator, for comparisons
            den = 1
            for _, D, W in rowsM:
                for x in [D] + W:
                    den = den * x.denominator // math.gcd(den, x.denominator)
            layer[mask] = _Values(den, [[int(x * den) for x in W] for _, _, W in rowsM],
                                  [int(D * den) for _, D, _ in rowsM])
            for r, t in enumerate(mem):
                target, D, W = rowsM[r]
                where = _state(mask, t)
                if q == 1:  # stored target -1, shifted to -2 above
                    if target != -2 or D != 0 or W != [1]:
                        raise VerificationError("a lone chef wins with 0 dishes to go (target -1)",
                                                field="table", state=where)
                    continue
                _check_equations(table, mask, mem, r, target, D, W, skills, where)
                _check_choice(mask, mem, r, target, layers[q - 1], rule, ties)
        layers[q] = layer
    full = (1 << n) - 1
    _, E, W1 = table[(full, 0)]
    return E, W1, ties


def _check_equations(table, mask, mem, r, target, D, W, skills, where):
    q = len(mem)
    t = mem[r]
    p = skills[t]
    if target not in mem or target == t:
        raise VerificationError(f"target {target + 1} is not an alive opponent", field="table", state=where)
    j_idx = mem.index(target)
    S, nxt, _ = _successor(mask, mem, r, j_idx)
    smem = _members(S)
    _, Ds, Ws = table[(S, smem[nxt])]
    _, Df, Wf = table[(mask, mem[(r + 1) % q])]
    Ws_full = dict(zip(smem, Ws))
    if D != 1 + p * Ds + (1 - p) * Df:
        raise VerificationError("D does not satisfy D = 1 + p D_success + (1-p) D_failure",
                                field="table", state=where)
    for k, i in enumerate(mem):
        if W[k] != p * Ws_full.get(i, 0) + (1 - p) * Wf[k]:
            raise VerificationError(f"W(chef {i + 1}) does not satisfy W = p W_success + (1-p) W_failure",
                                    field="table", state=where)
    if sum(W) != 1:
        raise VerificationError("winner vector does not sum to 1", field="table", state=where)


# ---------------------------------------------------------------- policy certificates


def _policy_table(rows, skills, rule):
    """Rebuild the unique solution of the equations under the stored policy, in integers."""
    n = len(skills)
    policy = {}
    for row in rows:
        if not isinstance(row, list) or len(row) != 3:
            raise VerificationError("malformed policy row", field="table", state=str(row)[:60])
        mask, mover, target = (integer(x, "table") for x in row)
        if not 0 < mask < 1 << n or not 1 <= mover <= n or not mask >> (mover - 1) & 1 or len(_members(mask)) < 2:
            raise VerificationError("state outside the game", field="table", state=f"mask {mask} mover {mover}")
        if (mask, mover - 1) in policy:
            raise VerificationError("state listed twice", field="table", state=_state(mask, mover - 1))
        policy[(mask, mover - 1)] = target - 1
    F = 1
    for s in skills:
        F = F * s.denominator // math.gcd(F, s.denominator)
    a = [big(int(s * F)) for s in skills]
    F = big(F)
    c = [F - x for x in a]
    prev = {1 << i: _Values(big(1), [[big(1)]], [big(0)]) for i in range(n)}
    ties = []
    for q in range(2, n + 1):
        layer = {}
        for mask in range(1, 1 << n):
            mem = _members(mask)
            if len(mem) != q:
                continue
            for r, t in enumerate(mem):
                if (mask, t) not in policy:
                    raise VerificationError("state missing from the policy", field="table", state=_state(mask, t))
                _check_choice(mask, mem, r, policy[(mask, t)], prev, rule, ties)
            layer[mask] = _solve_cycle(mask, mem, policy, prev, a, c, F)
        prev = layer
    full = prev[(1 << n) - 1]
    E = ratio(full.dish[0], full.den)
    W1 = [ratio(x, full.den) for x in full.num[0]]
    return E, W1, ties


# ---------------------------------------------------------------- entry point


DECIMALS = 8  # of winner_vector_decimal


def _decimal(x, digits: int) -> str:
    """``x`` (a Fraction or an mpq) correctly rounded to ``digits`` decimals, ties to even, in integers."""
    q, r = divmod(x.numerator * 10**digits, x.denominator)
    if 2 * r > x.denominator or (2 * r == x.denominator and q % 2):
        q += 1
    scaled = int(q)
    sign = "-" if scaled < 0 else ""
    body = str(abs(scaled)).rjust(digits + 1, "0")
    return f"{sign}{body[:-digits]}.{body[-digits:]}"


def verify(cert: dict, table) -> str:
    skills = _skills(cert)
    n = len(skills)
    rule = _tie_rule(cert)
    if cert["smallest_gap"] is not None:
        raise VerificationError("chefs certificates store no smallest gap: it must be null", field="smallest_gap")
    if cert.get("slow_check") is not (n >= SLOW_CHECK_N):
        raise VerificationError(f"must be {str(n >= SLOW_CHECK_N).lower()} for n = {n} (true from n = {SLOW_CHECK_N})",
                                field="slow_check")
    full_table = cert.get("full_table")
    if full_table is True:
        if table.columns != FULL_COLUMNS:
            raise VerificationError(f"columns must be {FULL_COLUMNS}", field="table.columns")
        E, W1, ties = _full_table(table.rows, skills, rule)
    elif full_table is False:
        if table.columns != POLICY_COLUMNS:
            raise VerificationError(f"columns must be {POLICY_COLUMNS}", field="table.columns")
        E, W1, ties = _policy_table(table.rows, skills, rule)
    else:
        raise VerificationError("full_table must be true or false", field="full_table")
    answer = cert["answer"]
    if not isinstance(answer, dict) or rational(answer.get("value"), "answer.value") != E:
        raise VerificationError(f"answer is not E({n}) = D of the full table with chef 1 to move",
                                field="answer.value")
    if sum(W1) != 1:
        raise VerificationError("winner vector does not sum to 1", field="winner_vector")
    if "winner_vector" not in cert and "winner_vector_sha256" not in cert:
        raise VerificationError("missing: the winner vector in full, or its decimals and digest",
                                field="winner_vector")
    if "winner_vector" in cert:
        if "winner_vector_decimal" in cert or "winner_vector_sha256" in cert:
            raise VerificationError("give the winner vector either in full or as decimals and digest, not both",
                                    field="winner_vector")
        stored_w = cert["winner_vector"]
        if not isinstance(stored_w, list) or len(stored_w) != len(W1) or any(
                rational(x, "winner_vector") != w for x, w in zip(stored_w, W1)):
            raise VerificationError("winner_vector is not W of the full table with chef 1 to move",
                                    field="winner_vector")
    else:
        text = ",".join(f"{x.numerator}/{x.denominator}" for x in W1)
        if cert.get("winner_vector_sha256") != hashlib.sha256(text.encode("ascii")).hexdigest():
            raise VerificationError("winner_vector_sha256 is not the digest of W of the full table",
                                    field="winner_vector_sha256")
        decimals = cert.get("winner_vector_decimal")
        if not isinstance(decimals, list) or len(decimals) != n:
            raise VerificationError(f"must list {n} decimals", field="winner_vector_decimal")
        for k, (x, d) in enumerate(zip(W1, decimals)):
            if d != _decimal(x, DECIMALS):
                raise VerificationError(f"{str(d)[:40]!r} is not W(chef {k + 1}) = {float(x):.10f} rounded to "
                                        f"{DECIMALS} decimals ({_decimal(x, DECIMALS)})",
                                        field="winner_vector_decimal", state=f"chef {k + 1}")
    stored_ties = cert.get("ties")
    if not isinstance(stored_ties, list) or sorted(map(repr, stored_ties)) != sorted(map(repr, ties)):
        raise VerificationError(f"the stored list of tied states does not match the {len(ties)} found",
                                field="ties")
    kind = "every value" if full_table else "policy; values rebuilt"
    return (f"chefs n={n} ({kind}): equations, optimal targets ({rule} tie rule, {len(ties)} exact ties) "
            f"and E({n}) = {approx(E, 8, 'f')} verified")
