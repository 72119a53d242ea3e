"""Checking ball certificates (``"kind": "ball"``): exact rational interval arithmetic, stdlib only.

A ball certificate stores, per state, an interval with exact dyadic ends
(``[m, e]`` = ``m 2^e``) claimed to contain the exact value, and a decision
flagged certified or not.  This module re-runs every Bellman step in exact
integer arithmetic on the stored intervals and checks containment; it shares
no code with the solvers and uses no ball library.

The Race (``"recurrence": "race"``), what is proved.  With ``q = 2^-t``,
``F(0, b) = 0``, ``F(a, 0) = G(a, 0) = 1``, ``G(a, b) = (F(a-1, b) + F(a, b)) / 2``
and ``S_t = 1`` if ``2^(t-1) >= b`` else ``G(a, b - 2^(t-1))``, the rules say

    F(a, b) = max_t  g_t(F(a, b)),   g_t(x) = q S_t + (1 - q) (F(a-1, b) + x) / 2,

a self-loop.  Each ``g_t`` is affine with slope ``(1 - q)/2 < 1``, so
``g_t(x) - x`` is decreasing and vanishes at the single point
``F_t = (2 S_t + (2^t - 1) F(a-1, b)) / (2^t + 1)``; at ``F* = max_t F_t`` every
``g_t(F*) <= F*`` with equality for the best ``t``, and ``max_t g_t(x) - x`` is
decreasing, so ``F*`` is the unique solution: ``F(a, b) = max_t F_t``.  Each
``F_t`` is nondecreasing in ``S_t`` and in ``F(a-1, b)`` (nonnegative
coefficients), and ``S_t`` in the two ``F`` it averages.  So by induction over
the cells in the order ``a = 1..N``, ``b = 1..N`` (every input of a cell comes
earlier): if the stored intervals of the inputs contain their exact values,
the exact ``F(a, b)`` lies in ``[max_t F_t(lower ends), max_t F_t(upper ends)]``,
and the check that this interval lies inside the stored one carries the
induction.  A decision flagged certified is checked by
``F_t(lower ends) > F_u(upper ends)`` for every ``u != t``: then the exact
``F_t`` exceeds every exact ``F_u``.  The answer interval must contain
``(F(N-1, N) + F(N, N)) / 2`` evaluated on the stored intervals, and a stored
decimal must be the rounding (half to even) of both ends of the answer interval.
All arithmetic is exact (``fractions.Fraction`` on the dyadic ends).

Only self-loops are handled here; ball certificates of games with longer cycles
(hold, user models) are checked by :mod:`.ball_model` (recurrence ``model`` or
``game``), with the fixed-point argument stated there.
"""

from __future__ import annotations

import hashlib
import json
from fractions import Fraction

from ..errors import VerificationError

FIELDS = ("format", "version", "kind", "recurrence", "params", "prec_bits", "tool_version", "answer", "columns",
          "rows", "table_sha256", "decisions", "notes")
ANSWER = ("name", "lower", "upper", "digits", "decimal")
COLUMNS = ["a", "b", "F_lower", "F_upper", "best_t", "certified"]
MAX_TARGET = 1000
MAX_PREC = 1 << 16


def _int(x, field, state=None, low=None, high=None) -> int:
    if type(x) is not int or (low is not None and x < low) or (high is not None and x > high):
        raise VerificationError(f"expected an integer in [{low}, {high}], got {str(x)[:40]}", field=field,
                                state=state)
    return x


def _dyadic(x, field, state, max_bits) -> Fraction:
    if not (isinstance(x, list) and len(x) == 2):
        raise VerificationError(f"expected a dyadic [m, e], got {str(x)[:60]}", field=field, state=state)
    m = _int(x[0], field, state)
    e = _int(x[1], field, state, -max_bits, max_bits)
    if m.bit_length() > max_bits:
        raise VerificationError(f"mantissa of {m.bit_length()} bits, more than {max_bits}", field=field, state=state)
    return Fraction(m * (1 << e)) if e >= 0 else Fraction(m, 1 << -e)


def verify(cert: dict) -> str:
    for key in cert:
        if key not in FIELDS:
            raise VerificationError("unknown field in a ball certificate", field=key)
    for key in FIELDS:
        if key not in cert:
            raise VerificationError("missing field", field=key)
    if cert["format"] != "exactplay-certificate" or type(cert["version"]) is not int or cert["version"] != 2:
        raise VerificationError("a ball certificate is format 'exactplay-certificate', version 2", field="format")
    if cert["recurrence"] != "race":
        raise VerificationError(f"ball certificates of {str(cert['recurrence'])[:40]!r} are not supported "
                                "(this checker knows 'race')", field="recurrence")
    params = cert["params"]
    if not isinstance(params, dict) or set(params) != {"target"}:
        raise VerificationError("race takes exactly one parameter, target", field="params")
    N = _int(params["target"], "params", None, 1, MAX_TARGET)
    prec = _int(cert["prec_bits"], "prec_bits", None, 2, MAX_PREC)
    if cert["columns"] != COLUMNS:
        raise VerificationError(f"columns must be {COLUMNS}", field="columns")
    rows = cert["rows"]
    if not isinstance(rows, list) or len(rows) != N * N:
        raise VerificationError(f"expected {N * N} rows, one per cell", field="rows")
    digest = hashlib.sha256(json.dumps(rows, separators=(",", ":"), allow_nan=False).encode()).hexdigest()
    if cert["table_sha256"] != digest:
        raise VerificationError("SHA-256 of the rows does not match", field="table_sha256")
    return _verify_race(cert, N, prec, rows)


def _verify_race(cert: dict, N: int, prec: int, rows: list) -> str:
    max_bits = 8 * prec + 64
    t_max = 1
    while 2 ** (t_max - 1) < N:  # t0(N): the smallest t with 2^(t-1) >= N
        t_max += 1
    t_max += 4  # the published range 1 .. t0(N) + 4
    lo = [[Fraction(0)] * (N + 1) for _ in range(N + 1)]  # F(0, b) = 0
    hi = [[Fraction(0)] * (N + 1) for _ in range(N + 1)]
    for a in range(1, N + 1):
        lo[a][0] = hi[a][0] = Fraction(1)  # F(a, 0) = 1
    certified = 0
    for i, row in enumerate(rows):
        a, b = i // N + 1, i % N + 1
        if not (isinstance(row, list) and len(row) == 6 and type(row[0]) is int and type(row[1]) is int
                and row[0] == a and row[1] == b):  # type: no float 1.0, no boolean true for the integer 1
            raise VerificationError(f"row {i} must be [a, b, F_lower, F_upper, best_t, certified] for cell {(a, b)}",
                                    field="rows", state=(a, b))
        L = _dyadic(row[2], "F_lower", (a, b), max_bits)
        H = _dyadic(row[3], "F_upper", (a, b), max_bits)
        t_best = _int(row[4], "best_t", (a, b), 1, t_max)
        if type(row[5]) is not bool:
            raise VerificationError("certified must be true or false", field="certified", state=(a, b))
        if L > H:
            raise VerificationError("lower end above the upper end", field="F_lower", state=(a, b))
        cand_lo, cand_hi = _candidates(lo, hi, a, b, t_max)
        if L > max(cand_lo.values()):
            raise VerificationError(f"stored lower end {float(L):.17g} is above the exact interval image "
                                    f"{float(max(cand_lo.values())):.17g} of the stored inputs", field="F_lower",
                                    state=(a, b))
        if H < max(cand_hi.values()):
            raise VerificationError(f"stored upper end {float(H):.17g} is below the exact interval image "
                                    f"{float(max(cand_hi.values())):.17g} of the stored inputs", field="F_upper",
                                    state=(a, b))
        if row[5]:
            if any(cand_lo[t_best] <= cand_hi[u] for u in cand_hi if u != t_best):
                raise VerificationError(f"best_t {t_best} is flagged certified but its interval is not above every "
                                        "other candidate's", field="certified", state=(a, b))
            certified += 1
        lo[a][b], hi[a][b] = L, H
    _check_answer(cert["answer"], N, lo, hi, max_bits)
    want = {"certified": certified, "unresolved": N * N - certified}
    got = cert["decisions"]
    if not (isinstance(got, dict) and set(got) == set(want) and all(type(got[k]) is int for k in want)
            and got == want):
        raise VerificationError(f"decisions must be {want} (the rows flagged certified, and the others)",
                                field="decisions")
    return (f"race target {N}: {N * N:,} dyadic intervals of F(a,b) verified by exact interval Bellman steps "
            f"({prec}-bit balls); {certified:,} decisions certified, {N * N - certified:,} unresolved")


def _candidates(lo, hi, a: int, b: int, t_max: int):
    """``F_t`` on the lower ends and on the upper ends, for t = 1..t_max, exactly."""
    out = ({}, {})
    for ends, res in zip((lo, hi), out):
        prev = ends[a - 1][b]
        for t in range(1, t_max + 1):
            d = 2 ** (t - 1)
            S = Fraction(1) if d >= b else (ends[a - 1][b - d] + ends[a][b - d]) / 2
            res[t] = (2 * S + (2**t - 1) * prev) / (2**t + 1)
    return out


def _round_half_even(x: Fraction, digits: int) -> str:
    scaled = x * 10**digits
    n = scaled.numerator // scaled.denominator
    rest = scaled - n
    if rest > Fraction(1, 2) or (rest == Fraction(1, 2) and n % 2 == 1):
        n += 1
    sign = "-" if n < 0 else ""
    s = str(abs(n)).rjust(digits + 1, "0")
    return f"{sign}{s[:-digits]}.{s[-digits:]}" if digits else f"{sign}{s}"


def _check_answer(answer, N: int, lo, hi, max_bits) -> None:
    if not isinstance(answer, dict) or set(answer) != set(ANSWER):
        raise VerificationError(f"the answer has the fields {', '.join(ANSWER)}", field="answer")
    if answer["name"] != f"G({N},{N})":
        raise VerificationError(f"the answer is G({N},{N})", field="answer.name")
    L = _dyadic(answer["lower"], "answer.lower", None, max_bits)
    H = _dyadic(answer["upper"], "answer.upper", None, max_bits)
    if L > (lo[N - 1][N] + lo[N][N]) / 2:
        raise VerificationError("lower end above (F(N-1,N) + F(N,N))/2 on the stored intervals", field="answer.lower")
    if H < (hi[N - 1][N] + hi[N][N]) / 2:
        raise VerificationError("upper end below (F(N-1,N) + F(N,N))/2 on the stored intervals", field="answer.upper")
    digits = _int(answer["digits"], "answer.digits", None, 0, 100)
    dec = answer["decimal"]
    if dec is not None:
        if not (_round_half_even(L, digits) == dec == _round_half_even(H, digits)):
            raise VerificationError(f"decimal {str(dec)[:40]} is not the rounding of both ends of the answer interval",
                                    field="answer.decimal")
