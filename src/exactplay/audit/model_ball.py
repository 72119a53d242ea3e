"""``exactplay solve|audit --game/--model ... --backend ball|auto [--prec BITS]``.

``solve``: the initial state's value as an enclosure, its decimal certified by
Ziv's loop, how many decisions balls certify.  ``auto``: when some decision
stays unresolved (or a cycle cannot be certified), the exact engine solves the
model and its answer follows what the balls found (an
:class:`~exactplay.audit.enclosure_result.ExactHandover`).  ``audit``: float value
iteration judged against the balls (value errors enclosed, printed digits, each
float decision certified correct, wrong or unresolved).  Both return an
:class:`~exactplay.audit.enclosure_result.EnclosureResult`, rendered by :mod:`exactplay.present.render.enclosure`.
"""

from __future__ import annotations

import math
from collections import Counter
from fractions import Fraction

from flint import arb

from .judge import decimal_digits
from .result import Fact
from ..numbers.balls import finite_ends, ziv_decimal
from .enclosure_result import (UNRESOLVED, WRONG, AnswerEnclosure, DecisionCertificates, EnclosureResult, ExactHandover,
                               UNBOUNDED, FloatJudgement, PrecisionRound, judge, upper_measure, width_summary)
from ..engine.ball import Unresolved, ball_solve
from ..errors import UsageError
from ..model.initial_values import one_initial_state

SAMPLE = 10  # wrong float decisions named in the JSON


def _result(model, B, title: str, **parts) -> EnclosureResult:
    return EnclosureResult(model.name, None, title, B.name, B.prec, game_key="model", **parts)


def _answer(sol, digits: int, key: str) -> AnswerEnclosure:
    m = sol.model
    z = ziv_decimal(lambda p: sol.value[0] if p == sol.prec else ball_solve(m, p).value[0], digits, sol.prec)
    lo, hi = finite_ends(sol.value[0])
    return AnswerEnclosure(None, lo, hi, sol.prec, z, key=key, name_key=None)


def _title(sol) -> str:
    m = sol.model
    player = m.player_names[sol.components[0]] if m.player_names else "player 0"
    return f"{m.name}: value of the initial state for {player}"


def _decisions(sol, key: str = "decisions") -> DecisionCertificates:
    model = sol.model
    return DecisionCertificates(
        sol.decisions, [PrecisionRound(sol.prec, sol.certified, sol.unresolved_count, sol.seconds)],
        [model.state_name(s) for s in sol.unresolved], key=key, shown=3,
        context=f"{len(model):,} states, {sol.cyclic:,} cyclic components, ")


def _widths(sol):
    m = sol.model
    w = width_summary(((s, float(v[0].rad())) for s, v in enumerate(sol.values)), sol.prec, "values",
                      state_name=m.state_name)
    w.largest_at, w.state_name = (None if w.largest_at is None else m.state_name(w.largest_at)), str
    return w


def _first_action(sol) -> list[Fact]:
    model, init = sol.model, sol.model.initial
    if sol.policy[init] is None or model.mover[init] is None:
        return []
    action, sure = model.actions[init][sol.policy[init]], init not in sol.unresolved
    return [Fact("first_action", "first action", {"action": str(action), "certified": sure},
                 f"{action!r}" + ("" if sure else " (unresolved)"))]


def solve_ball(model, B, digits: int, source: str, exact_report) -> EnclosureResult:
    """``exact_report()`` builds the exact report (``auto`` calls it when balls leave something open)."""
    one_initial_state(model, f"--backend {B.name}")
    try:
        sol = ball_solve(model, B.prec)
    except (Unresolved, UsageError) as exc:  # a cycle balls cannot certify, or a game balls do not solve
        if B.name != "auto":
            raise
        return _result(model, B, model.name, handover=ExactHandover("solve", exact_report(), str(exc)))
    if B.name == "auto" and sol.unresolved_count:
        return _result(model, B, _title(sol), decisions=_decisions(sol),
                       handover=ExactHandover("solve", exact_report()))
    return _result(model, B, _title(sol), arithmetic=f"{sol.prec}-bit balls; {source}",
                   answer=_answer(sol, digits, "answer"), widths=_widths(sol), decisions=_decisions(sol),
                   facts=[Fact("states", None, len(model)), *_first_action(sol),
                          Fact("cyclic_components", None, sol.cyclic), Fact("seconds", None, round(sol.seconds, 3))])


def audit_ball(model, B, digits: int, flt, what: str, exact_audit=None) -> EnclosureResult:
    """A float solution ``flt`` (values, q per choice state) judged against the balls;
    with ``auto``, ``exact_audit()`` takes over when the balls leave something open."""
    one_initial_state(model, f"--backend {B.name}")
    try:
        sol = ball_solve(model, B.prec)
    except (Unresolved, UsageError) as exc:
        if B.name != "auto":
            raise
        return _result(model, B, model.name, handover=ExactHandover("audit", exact_audit(), str(exc)))
    c0 = sol.components[0]
    worst, at = 0.0, None
    for s in range(len(model)):
        ball = sol.values[s][0]
        e = float((arb(flt.values[s][c0]) - ball).abs_upper()) if ball.is_finite() else math.inf
        if e > worst:
            worst, at = e, s
    unbounded = None if math.isfinite(worst) or sol.values[at][0].is_finite() else (
        f"the ball of the value at {model.state_name(at)} is " + UNBOUNDED.format(prec=sol.prec))
    verdicts, wrong = Counter(), []
    for s, balls in sol.q.items():
        if s not in flt.q:
            continue
        sign = sol_sign(model, s)
        fk = [sign * x for x in flt.q[s]]
        pick = max(range(len(fk)), key=lambda a: (fk[a], -a))
        keyed = [sign * b for b in balls]
        v = judge(keyed[pick], [k for a, k in enumerate(keyed) if a != pick])
        verdicts[v] += 1
        if v == WRONG:
            wrong.append(s)
    answer = _answer(sol, digits, "ball_decimal")
    z = answer.decimal
    value = flt.values[model.initial][c0]
    printed = decimal_digits(Fraction(value), digits)
    program = FloatJudgement(
        what, printed, None if z.rounded is None else printed == z.rounded, upper_measure(worst, unbounded),
        None if at is None else model.state_name(at), dict(verdicts), float_value=value,
        wrong_sample=[model.state_name(s) for s in wrong[:SAMPLE]])
    if B.name == "auto" and verdicts[UNRESOLVED]:
        return _result(model, B, _title(sol), floats=[program], handover=ExactHandover("audit", exact_audit()))
    sweeps = getattr(flt, "sweeps", 0)  # value iteration's sweeps: at its cap, it stopped before converging
    facts = [Fact("sweeps", "sweeps", sweeps, f"{sweeps} (last change {flt.last_change:.3e})"),
             Fact("last_change", None, flt.last_change if math.isfinite(flt.last_change) else None)] if sweeps else []
    return _result(model, B, _title(sol), arithmetic=f"{sol.prec}-bit balls", answer=answer, widths=_widths(sol),
                   decisions=_decisions(sol, key="ball_decisions"), floats=[program], values_name="float value",
                   headline=[Fact("float_solver", None, what)], facts=facts)


def sol_sign(model, s: int) -> int:
    return model.keys()[model.mover[s]][1]
