"""Audit of the seed's two programs in float against the exact table: values and decisions."""

from __future__ import annotations

from fractions import Fraction

from exactplay.audit.judge import audit_decisions, audit_values, rounding_report
from exactplay.audit.result import AnswerCheck, AuditResult, DecisionVerdicts, Fact, FloatAudit, ValueErrors
from exactplay.errors import UsageError
from exactplay.numbers.backends import Backend, as_fraction, format_pq
from exactplay.progress import SILENT
from exactplay.games.coins.bound import bound_dp_min, bound_dp_sum
from exactplay.games.coins.row import LEFT, RIGHT, _pq_list, _show
from exactplay.games.coins.seed import float_choices, seed_dp_min, seed_dp_sum, upper_map
from exactplay.games.coins.solver import CoinTable, solve_row


def audit_formulation(exact: CoinTable, row, which: str) -> dict:
    """Float run of one seed formulation against the exact table: values and decisions."""
    if which == "min":
        value, M, cands = seed_dp_min(row, "float", keep=True)
        bound, label = bound_dp_min(row)
    else:
        value, M, cands = seed_dp_sum(row, "float", keep=True)
        bound, label = bound_dp_sum(row)
    values = audit_values(exact.V, upper_map(M), bound, label)
    picks = float_choices(cands)
    decisions = audit_decisions(exact.candidates, cands, picks, bound)
    broken_ties = [s for s in exact.candidates if exact.choice[s] == "tie" and cands[s][LEFT] != cands[s][RIGHT]]
    float_ties = [s for s in exact.candidates if exact.choice[s] != "tie" and cands[s][LEFT] == cands[s][RIGHT]]
    flips = [s for s in exact.candidates if exact.choice[s] != "tie" and picks[s] != exact.choice[s]]
    err = abs(Fraction(value) - as_fraction(exact.answer))
    return {
        "formulation": which, "value": value, "values": values, "decisions": decisions,
        "answer_error": float(err), "ties_broken_by_rounding": broken_ties,
        "float_ties_not_exact": float_ties, "flipped": flips, "bound": bound,
    }


FLOAT_RANGE = (Fraction(1, 2**1000), Fraction(2**1000))  # coins the float programs can hold with room to add


def check_float_range(row) -> None:
    """A :class:`UsageError` for a coin that a double cannot hold (the exact solve still works)."""
    low, high = FLOAT_RANGE
    for k, c in enumerate(row):
        a = abs(as_fraction(c))
        if a and not low <= a <= high:
            e = len(str(a.numerator)) - len(str(a.denominator))
            raise UsageError(f"coin number {k + 1} (about 10^{e} in magnitude) is outside the range of doubles "
                             "the float programs can run on; `exactplay solve coins` works exactly")


def run_audit(row, backend: Backend | str = "mpq", digits: int = 8, progress=SILENT) -> dict:
    check_float_range(row)
    exact = solve_row(row, backend, progress)
    out = {"exact": exact}
    if exact.n < 2:
        return out
    for which in ("min", "sum"):
        try:
            out[which] = audit_formulation(exact, row, which)
        except (OverflowError, ZeroDivisionError) as exc:  # values cancel below the double range
            raise UsageError(f"the float run leaves the range of doubles ({exc}); "
                             "`exactplay solve coins` works exactly") from None
    return out


FORMULATIONS = (("min", "first DP  V[i] + min(...)"), ("sum", "second DP Sum - C(...)"))


def _states_fact(key: str, label: str, states: list) -> Fact:
    return Fact(key, label, [list(s) for s in states],
                f"{len(states)}" + (f" e.g. {states[:5]}" if states else ""))


def _formulation(exact: CoinTable, r: dict, key: str, label: str, digits: int) -> FloatAudit:
    rr = rounding_report(exact.answer, digits, r["value"], r["bound"])
    return FloatAudit(
        label=label, key="dp_" + key,
        answer=AnswerCheck(f"V(0,{exact.n - 1})", exact.answer, rr, r["answer_error"], float_key="float_answer"),
        values=[ValueErrors("values", "table V(i,j)", r["values"])],
        decisions=[DecisionVerdicts("decisions", "decisions (left or right coin)", r["decisions"])],
        facts=[_states_fact("ties_broken_by_rounding",
                            "exact ties that rounding turns into a strict float preference",
                            r["ties_broken_by_rounding"]),
               _states_fact("float_ties_not_exact", "float ties that are not exact ties", r["float_ties_not_exact"]),
               _states_fact("flipped", "decisions flipped (float prefers the strictly worse coin)", r["flipped"])],
    )


def audit_result(row, r: dict, digits: int = 8) -> AuditResult:
    """The typed audit of :func:`run_audit`'s output ``r`` for the coin row ``row``."""
    exact: CoinTable = r["exact"]
    ties = len(exact.ties())
    result = AuditResult(
        game="coins", params={"coins": _pq_list(row)},
        title=f"Audit of the seed's two coin-row programs in float, {exact.n} coin{'s' if exact.n != 1 else ''} "
              "(each coin rounded once to a double)",
        headline=[Fact("n", None, exact.n),
                  Fact("exact_answer", f"exact V(0,{exact.n - 1})", format_pq(exact.answer), _show(exact.answer)),
                  Fact("exact_ties", "exact ties", ties, f"{ties} of {len(exact.candidates)} states")],
    )
    if exact.n < 2:
        result.facts.append(Fact(None, None, text="one coin: nothing to compute, nothing to decide"))
        return result
    result.audits = [_formulation(exact, r[key], key, label, digits) for key, label in FORMULATIONS]
    return result
