"""``solve``/``audit`` of Hold or Continue? with ``--backend ball|auto``.

``solve``: the enclosure of ``V(0, 0)``, its decimal certified by Ziv's loop,
how many hold/continue decisions the balls certify, and the first turn's
policy (``?`` where unresolved).  ``auto`` then decides the unresolved states
exactly (every target hold accepts fits exact arithmetic).

``audit``: the correct float solver and the published program judged against
the balls: each float value's error enclosed, each float decision certified
correct, wrong, or unresolved.  Both return an
:class:`~exactplay.audit.enclosure_result.EnclosureResult` (its JSON keeps the keys of
before: ``decisions``, ``float_decimals``, ``value_error_upper`` per program),
rendered by :mod:`exactplay.present.render.enclosure`.
"""

from __future__ import annotations

import time
from collections import Counter
from fractions import Fraction

from flint import arb

from exactplay.audit.judge import decimal_digits
from exactplay.audit.result import Fact
from exactplay.numbers.balls import finite_ends, ziv_decimal
from exactplay.audit.enclosure_result import (WRONG, AnswerEnclosure, DecisionCertificates, EnclosureResult,
                                        FloatJudgement, PrecisionRound, by_program_keys, judge, upper_measure,
                                        width_summary)
from exactplay.progress import SILENT

from .ball import SAMPLE, BoxNotVerified
from .ball import ball_table as _ball_table


def ball_table(*args, **kwargs):
    """:func:`~exactplay.games.hold.ball.ball_table`, a pair it cannot verify reported in one line."""
    from exactplay.errors import UsageError

    try:
        return _ball_table(*args, **kwargs)
    except BoxNotVerified as exc:
        raise UsageError(f"--backend ball: {exc}") from None


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


def _answer(target: int, faces: int, table, prec: int, digits: int, key: str = "answer") -> AnswerEnclosure:
    z = ziv_decimal(lambda p: table.V[0][0] if p == prec else ball_table(target, faces, p).V[0][0], digits, prec)
    lo, hi = finite_ends(table.V[0][0])
    return AnswerEnclosure("V(0,0)", lo, hi, prec, z, key=key, name_key="answer_name" if key == "answer" else None)


def _decisions(table, prec: int, exact: dict | None = None, key: str = "decisions") -> DecisionCertificates:
    return DecisionCertificates(
        table.decisions, [PrecisionRound(prec, table.certified, table.unresolved_count, table.seconds)],
        list(table.unresolved), key=key, what="hold/continue decisions ", shown=3, sample_intro="(c, h, x) = ",
        facts=[Fact("unresolved_by_exact", "decided exactly (--backend auto)" if exact else None, exact,
                    ", ".join(f"{k} {v:,}" for k, v in (exact or {}).items()))])


def _widths(table, prec: int):
    T = table.target
    return width_summary((((c, h), float(table.V[c][h].rad())) for c in range(T) for h in range(T)), prec,
                         "values V(c,h)")


def _title(target: int, faces: int) -> str:
    return f"Hold or Continue?, target {target}, faces 1..{faces}: the first player wins with probability V(0,0)"


def solve_ball(target: int, faces: int, B, digits: int = 8, progress=SILENT) -> EnclosureResult:
    """``solve hold --backend ball|auto``: V(0, 0) enclosed, its decimal certified, the decisions certified
    (``auto``: the unresolved ones decided exactly)."""
    table = ball_table(target, faces, B.prec, progress=progress)
    progress.start("certifying the printed decimals (Ziv's loop)", None)
    answer = _answer(target, faces, table, B.prec, digits)
    exact = _exact_unresolved(target, faces, table, progress) if B.name == "auto" and table.unresolved_count else None
    first = table.policy[0][0]
    return EnclosureResult(
        "hold", {"target": target, "faces": faces}, _title(target, faces), B.name, B.prec,
        arithmetic=f"{B.name}: {B.prec}-bit balls", answer=answer, widths=_widths(table, B.prec),
        decisions=_decisions(table, B.prec, exact),
        facts=[Fact("policy_at_0_0", "first turn at 0-0, by turn total x = 2..", first, f"{first}  ('?': unresolved)"),
               Fact("box_widenings", None, table.widenings), Fact("policy_rounds", None, table.policy_rounds),
               Fact("seconds", None, round(table.seconds, 3))])


def audit_ball(target: int, faces: int, B, digits: int = 8, progress=SILENT) -> EnclosureResult:
    """The correct float solver and the published program judged against the balls."""
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
    names = ("float solver", "published program")
    verdicts = {name: Counter() for name in names}
    wrong = {name: [] for name in names}

    def count(name, state, hv, cont, pick):
        v = _judge(hv, cont, pick)
        verdicts[name][v] += 1
        if v == WRONG and len(wrong[name]) < SAMPLE:
            wrong[name].append(state)

    def visit(c, h, hv, cont):
        for x in range(2, T - c + 1):
            count("float solver", (c, h, x), hv[x], cont[x], flt_c[(c, h, x)])
        if c <= top and h <= top:
            for x, (sh, sc) in seed_candidates(seed, c, h).items():
                count("published program", (c, h, x), hv[x], cont[x], "H" if sh > sc else "C")

    table = ball_table(T, faces, B.prec, guide=flt, visit=visit, progress=progress)
    errors = {name: (0.0, None) for name in names}
    for c in range(top + 1):
        for h in range(top + 1):
            for name, value in zip(names, (flt.V[c][h], seed.dp[c][h])):
                e = float((arb(value) - table.V[c][h]).abs_upper())
                if e > errors[name][0]:
                    errors[name] = (e, (c, h))
    answer = _answer(T, faces, table, B.prec, digits, key="ball_decimal")
    z = answer.decimal
    programs = []
    for name, value in zip(names, (flt.V[0][0], seed.dp[0][0])):
        printed = decimal_digits(Fraction(value), digits)
        programs.append(FloatJudgement(name, printed, None if z.rounded is None else printed == z.rounded,
                                       upper_measure(errors[name][0]), errors[name][1], dict(verdicts[name]),
                                       float_value=value,
                                       wrong_sample=wrong[name], keys=by_program_keys(name)))
    return EnclosureResult(
        "hold", {"target": T, "faces": faces},
        f"Audit of Hold or Continue? target {T}, faces {faces} against {B.prec}-bit balls", B.name, B.prec,
        answer=answer, widths=_widths(table, B.prec), decisions=_decisions(table, B.prec, key="ball_decisions"),
        floats=programs,
        values_name="V(c,h)",
        facts=[Fact("seconds", "time", {"balls": round(table.seconds, 3), "float solver": round(float_seconds, 3),
                                        "published program": round(seed_seconds, 3)},
                    f"balls {table.seconds:.1f} s, float solver {float_seconds:.1f} s, "
                    f"published program {seed_seconds:.1f} s")])


def _judge(hv: arb, cont: arb, pick: str) -> str:
    mine, other = (hv, cont) if pick == "H" else (cont, hv)
    return judge(mine, [other])
