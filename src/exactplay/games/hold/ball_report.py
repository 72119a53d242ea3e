"""``solve``/``audit`` of Hold or Continue? with ``--backend ball|auto``.

``solve``: the enclosure of ``V(0, 0)``, its decimal certified by Ziv's loop,
how many hold/continue decisions the balls certify, and the first turn's
policy (``?`` where unresolved).  ``auto`` then decides the unresolved states
exactly (every target hold accepts fits exact arithmetic).

``audit``: the correct float solver and the published program judged against
the balls: each float value's error enclosed, each float decision certified
correct, wrong, or unresolved.
"""

from __future__ import annotations

import time
from collections import Counter
from fractions import Fraction

from flint import arb

from exactplay.audit import decimal_digits
from exactplay.balls import endpoints, ziv_decimal
from exactplay.games import Report
from exactplay.numbers import format_pq
from exactplay.progress import SILENT

from .ball import BoxNotVerified
from .ball import ball_table as _ball_table

CORRECT, WRONG, UNRESOLVED = "certified correct", "wrong", "unresolved"


def ball_table(*args, **kwargs):
    """:func:`~exactplay.games.hold.ball.ball_table`, a pair it cannot verify reported in one line."""
    from exactplay.errors import UsageError

    try:
        return _ball_table(*args, **kwargs)
    except BoxNotVerified as exc:
        raise UsageError(f"--backend ball: {exc}") from None


def _enclosure(x: arb) -> dict:
    lo, hi = endpoints(x)
    return {"lower": format_pq(lo), "upper": format_pq(hi), "width": float(hi - lo)}


def _exact_unresolved(target: int, faces: int, table, progress) -> dict:
    """The exact verdicts on the states balls left open: ties, or hold/continue settled exactly."""
    from .tables import exact_table

    ex = exact_table(target, faces, "mpq", progress)
    from .solver import turn_of

    out = Counter()
    for c in range(target):
        for h in range(target):
            pol = table.policy[c][h]
            if "?" not in pol:
                continue
            _, hv, cont, _ = turn_of(ex, c, h)
            for i, ch in enumerate(pol):
                if ch == "?":
                    x = i + 2
                    out["exact tie" if hv[x] == cont[x] else "settled by exact"] += 1
    return dict(out)


def solve_ball(target: int, faces: int, B, digits: int = 8, progress=SILENT) -> Report:
    table = ball_table(target, faces, B.prec, progress=progress)
    progress.start("certifying the printed decimals (Ziv's loop)", None)
    z = ziv_decimal(lambda p: table.V[0][0] if p == B.prec else ball_table(target, faces, p).V[0][0],
                    digits, B.prec)
    exact = _exact_unresolved(target, faces, table, progress) if B.name == "auto" and table.unresolved_count else None
    first = table.policy[0][0]
    data = {"game": "hold", "params": {"target": target, "faces": faces}, "backend": B.name, "prec_bits": B.prec,
            "answer_name": "V(0,0)", "answer": {**_enclosure(table.V[0][0]), **z.to_dict()},
            "decisions": {"total": table.decisions, "certified": table.certified,
                          "unresolved": table.unresolved_count, "unresolved_sample": [list(s) for s in table.unresolved],
                          "unresolved_by_exact": exact},
            "policy_at_0_0": first, "box_widenings": table.widenings, "policy_rounds": table.policy_rounds,
            "seconds": round(table.seconds, 3)}
    lo, hi = endpoints(table.V[0][0])
    lines = [f"Hold or Continue?, target {target}, faces 1..{faces}: the first player wins with probability V(0,0)  "
             f"[{B.name}: {B.prec}-bit balls]",
             f"enclosure   : [{float(lo):.17g}, {float(hi):.17g}] contains the exact value (width {float(hi - lo):.2e})",
             z.line(),
             f"decisions   : {table.certified:,} of {table.decisions:,} hold/continue decisions certified at "
             f"{B.prec} bits, {table.unresolved_count:,} unresolved at this precision ({table.seconds:.1f} s)"]
    if table.unresolved:
        lines.append(f"              unresolved, e.g. (c, h, x) = {', '.join(map(str, table.unresolved[:3]))}")
    if exact:
        lines.append("              decided exactly (--backend auto): " + ", ".join(f"{k} {v:,}" for k, v in exact.items()))
    lines.append(f"first turn at 0-0, by turn total x = 2..: {first}  ('?': unresolved)")
    return Report(data, lines)


def _judge(hv: arb, cont: arb, pick: str) -> str:
    mine, other = (hv, cont) if pick == "H" else (cont, hv)
    if mine > other:
        return CORRECT
    if other > mine:
        return WRONG
    return UNRESOLVED


def audit_ball(target: int, faces: int, B, digits: int = 8, progress=SILENT) -> Report:
    from .tables import seed_table
    from .seed import seed_candidates
    from .solver import solve_table

    T, top = target, target - 2
    t0 = time.perf_counter()
    flt_c = {}

    def keep_float(c, h, hold, cont):
        for x in range(2, T - c + 1):
            flt_c[(c, h, x)] = "H" if hold[x] >= cont[x] else "C"  # the float solver holds on ties

    flt = solve_table(T, faces, "float", visit=keep_float, progress=progress)
    float_seconds = time.perf_counter() - t0
    t0 = time.perf_counter()
    seed = seed_table(T, faces, progress)
    seed_seconds = time.perf_counter() - t0
    classes = {"float solver": Counter(), "published program": Counter()}
    errors = {"float solver": [0.0, None], "published program": [0.0, None]}

    def visit(c, h, hv, cont):
        for x in range(2, T - c + 1):
            classes["float solver"][_judge(hv[x], cont[x], flt_c[(c, h, x)])] += 1
        if c <= top and h <= top:
            for x, (sh, sc) in seed_candidates(seed, c, h).items():
                classes["published program"][_judge(hv[x], cont[x], "H" if sh > sc else "C")] += 1

    table = ball_table(T, faces, B.prec, guide=flt, visit=visit, progress=progress)
    for c in range(top + 1):
        for h in range(top + 1):
            for name, value in (("float solver", flt.V[c][h]), ("published program", seed.dp[c][h])):
                e = float((arb(value) - table.V[c][h]).abs_upper())
                if e > errors[name][0]:
                    errors[name] = [e, (c, h)]
    z = ziv_decimal(lambda p: table.V[0][0] if p == B.prec else ball_table(T, faces, p).V[0][0], digits, B.prec)
    printed = {"float solver": decimal_digits(Fraction(flt.V[0][0]), digits),
               "published program": decimal_digits(Fraction(seed.dp[0][0]), digits)}
    data = {"game": "hold", "params": {"target": T, "faces": faces}, "backend": B.name, "prec_bits": B.prec,
            "ball_decimal": z.to_dict(), "float_decimals": printed,
            "decisions": {k: {c: v.get(c, 0) for c in (CORRECT, WRONG, UNRESOLVED)} for k, v in classes.items()},
            "value_error_upper": {k: {"bound": v[0], "at": list(v[1] or ())} for k, v in errors.items()},
            "seconds": {"balls": round(table.seconds, 3), "float solver": round(float_seconds, 3),
                        "published program": round(seed_seconds, 3)}}
    lines = [f"Audit of Hold or Continue? target {T}, faces {faces} against {B.prec}-bit balls "
             f"({table.decisions:,} decisions, {table.certified:,} certified by the balls)",
             f"V(0,0): balls certify {z.rounded or '(not certified: ' + str(z.certain_digits) + ' decimals certain)'}"]
    for name in classes:
        agree = "agree" if z.rounded == printed[name] else ("DIFFER" if z.rounded else "undecided")
        cl = data["decisions"][name]
        lines.append(f"{name:18}: prints {printed[name]} ({agree}); every V(c,h) within {errors[name][0]:.3e} "
                     f"of the exact value; decisions " + ", ".join(f"{k} {v:,}" for k, v in cl.items()))
    lines.append(f"time              : balls {table.seconds:.1f} s, float solver {float_seconds:.1f} s, "
                 f"published program {seed_seconds:.1f} s")
    return Report(data, lines)
