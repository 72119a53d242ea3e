"""``exactplay solve|audit --game/--model ... --backend ball|auto [--prec BITS]``.

``solve``: the initial state's value as an enclosure, its decimal certified by
Ziv's loop, how many decisions balls certify.  ``auto``: when some decision
stays unresolved (or a cycle cannot be certified), the exact engine solves the
model and its report follows.  ``audit``: float value iteration judged against
the balls (value errors enclosed, printed digits, each float decision
certified correct, wrong or unresolved).
"""

from __future__ import annotations

from collections import Counter
from fractions import Fraction

from flint import arb

from .audit import decimal_digits
from .balls import endpoints, ziv_decimal
from .engine.ball import Unresolved, ball_solve
from .errors import UsageError
from .games import Report

CORRECT, WRONG, UNRESOLVED = "certified correct", "wrong", "unresolved"


def _answer(sol, digits: int, source: str):
    m = sol.model
    z = ziv_decimal(lambda p: sol.value[0] if p == sol.prec else ball_solve(m, p).value[0], digits, sol.prec)
    lo, hi = endpoints(sol.value[0])
    player = m.player_names[sol.components[0]] if m.player_names else "player 0"
    lines = [f"{m.name}: value of the initial state for {player}  [{sol.prec}-bit balls; {source}]",
             f"enclosure   : [{float(lo):.17g}, {float(hi):.17g}] contains the exact value (width {float(hi - lo):.2e})",
             z.line()]
    return z, lines


def _decision_line(sol) -> str:
    return (f"decisions   : {sol.certified:,} of {sol.decisions:,} certified at {sol.prec} bits, "
            f"{sol.unresolved_count:,} unresolved at this precision ({len(sol.model):,} states, "
            f"{sol.cyclic:,} cyclic components, {sol.seconds:.1f} s)")


def solve_ball(model, B, digits: int, source: str, exact_report):
    """``exact_report()`` builds the exact report (``auto`` calls it when balls leave something open)."""
    try:
        sol = ball_solve(model, B.prec)
    except (Unresolved, UsageError) as exc:  # a cycle balls cannot certify, or a game balls do not solve
        if B.name != "auto":
            raise
        rep = exact_report()
        return Report({**rep.data, "ball": {"prec_bits": B.prec, "unresolved": str(exc)}},
                      [f"balls ({B.prec} bits): {exc}; solved exactly (--backend auto):"] + rep.lines)
    if B.name == "auto" and sol.unresolved_count:
        rep = exact_report()
        return Report({**rep.data, "ball": {"prec_bits": B.prec, "decisions": sol.decisions,
                                            "certified": sol.certified}},
                      [_decision_line(sol), "the unresolved ones decided exactly (--backend auto):"] + rep.lines)
    z, lines = _answer(sol, digits, source)
    lines.append(_decision_line(sol))
    if sol.unresolved:
        lines.append("              unresolved, e.g. " + ", ".join(model.state_name(s) for s in sol.unresolved[:3]))
    init = model.initial
    if sol.policy[init] is not None and model.mover[init] is not None:
        lines.append(f"first action: {model.actions[init][sol.policy[init]]!r}"
                     + ("" if init not in sol.unresolved else " (unresolved)"))
    lo, hi = endpoints(sol.value[0])
    data = {"model": model.name, "backend": B.name, "prec_bits": B.prec, "states": len(model),
            "answer": {"lower": f"{lo.numerator}/{lo.denominator}", "upper": f"{hi.numerator}/{hi.denominator}",
                       **z.to_dict()},
            "decisions": {"total": sol.decisions, "certified": sol.certified, "unresolved": sol.unresolved_count,
                          "unresolved_sample": [model.state_name(s) for s in sol.unresolved]},
            "cyclic_components": sol.cyclic, "seconds": round(sol.seconds, 3)}
    return Report(data, lines)


def audit_ball(model, B, digits: int, flt, what: str, exact_audit=None):
    """A float solution ``flt`` (values, q per choice state) judged against the balls;
    with ``auto``, ``exact_audit()`` takes over when the balls leave something open."""
    try:
        sol = ball_solve(model, B.prec)
    except (Unresolved, UsageError) as exc:
        if B.name != "auto":
            raise
        rep = exact_audit()
        return Report({**rep.data, "ball": {"prec_bits": B.prec, "unresolved": str(exc)}},
                      [f"balls ({B.prec} bits): {exc}; audited exactly (--backend auto):"] + rep.lines)
    c0 = sol.components[0]
    worst, at = 0.0, None
    for s in range(len(model)):
        e = float((arb(flt.values[s][c0]) - sol.values[s][0]).abs_upper())
        if e > worst:
            worst, at = e, s
    classes = Counter()
    wrong = []
    for s, balls in sol.q.items():
        if s not in flt.q:
            continue
        sign = sol_sign(model, s)
        fk = [sign * x for x in flt.q[s]]
        pick = max(range(len(fk)), key=lambda a: (fk[a], -a))
        keyed = [sign * b for b in balls]
        mine = keyed[pick]
        if all(mine > k for a, k in enumerate(keyed) if a != pick):
            cls = CORRECT
        elif any(k > mine for k in keyed):
            cls = WRONG
            wrong.append(s)
        else:
            cls = UNRESOLVED
        classes[cls] += 1
    z, lines = _answer(sol, digits, what)
    printed = decimal_digits(Fraction(flt.values[model.initial][c0]), digits)
    agree = None if z.rounded is None else printed == z.rounded
    cl = {k: classes.get(k, 0) for k in (CORRECT, WRONG, UNRESOLVED)}
    if B.name == "auto" and cl[UNRESOLVED]:
        rep = exact_audit()
        return Report({**rep.data, "ball": {"prec_bits": B.prec, "float_decisions": cl}},
                      [f"balls ({B.prec} bits): float decisions " + ", ".join(f"{k} {v:,}" for k, v in cl.items())
                       + "; the unresolved ones audited exactly (--backend auto):"] + rep.lines)
    lines += [f"float answer: prints {printed}: "
              + {True: "agrees (certified)", False: "DIFFERS (certified)", None: "not decided"}[agree],
              f"float values: every one within {worst:.3e} of the exact value"
              + (f" (largest at state {model.state_name(at)})" if at is not None else ""),
              "float decisions: " + ", ".join(f"{k} {v:,}" for k, v in cl.items())]
    if wrong:
        lines.append("                wrong, e.g. " + ", ".join(model.state_name(s) for s in wrong[:3]))
    data = {"model": model.name, "float_solver": what, "backend": B.name, "prec_bits": B.prec,
            "ball_decimal": z.to_dict(), "float_decimal": printed, "float_decimal_agrees": agree,
            "float_error_upper": worst, "float_decisions": cl,
            "float_wrong_sample": [model.state_name(s) for s in wrong[:10]]}
    return Report(data, lines)


def sol_sign(model, s: int) -> int:
    return model.keys()[model.mover[s]][1]
