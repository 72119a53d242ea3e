"""Audit of the seed's float program against the exact distributions, with the a-priori bound."""

from __future__ import annotations

from fractions import Fraction

from exactplay.audit.judge import audit_values, ratio, relative_error, rounding_report, ulp_error
from exactplay.audit.result import AnswerCheck, AuditResult, Fact, FloatAudit, ValueErrors
from exactplay.numbers.backends import Backend, as_fraction, format_pq
from exactplay.progress import SILENT
from exactplay.games.war.bound import _sum_depth, gamma, rounding_depths
from exactplay.games.war.deck import validate_deck
from exactplay.games.war.recurrence import turn_distributions


def run_audit(ranks: int, suits: int, backend: Backend | str = "mpq", progress=SILENT) -> dict:
    """Exact and float distributions, their errors, and the a-priori bound."""
    validate_deck(ranks, suits)
    exact = turn_distributions(ranks, suits, backend, progress)
    flt = turn_distributions(ranks, suits, "float")
    p = sum(exact[-1].values())
    pf = sum(flt[-1].values())
    depths = rounding_depths(ranks, suits)
    emap = {(t, d): v for t, P in enumerate(exact) for d, v in P.items()}
    fmap = {(t, d): v for t, P in enumerate(flt) for d, v in P.items()}
    if set(emap) != set(fmap):  # pragma: no cover - the same code builds both
        raise AssertionError("float and exact runs reached different decks")
    # per-entry bound gamma_L * value; the table-wide absolute bound is their maximum
    over = 0
    abs_bound = 0.0
    worst_bound_ratio = 0.0
    for key, x in emap.items():
        b = gamma(depths[key[0]][key[1]]) * float(x) * (1 + 2.0**-40)
        abs_bound = max(abs_bound, b)
        err = abs(float(Fraction(fmap[key]) - as_fraction(x)))
        if err > b:
            over += 1
        if b:
            worst_bound_ratio = max(worst_bound_ratio, err / b)
    L = _sum_depth(depths[-1])
    rel_bound = gamma(L)
    values = audit_values(emap, fmap, abs_bound,
                          "per entry gamma_L * P, L = 4 roundings per term along the chain + (k-1) additions")
    err = abs(Fraction(pf) - as_fraction(p))
    return {
        "exact": exact, "float": flt, "p": p, "p_float": pf,
        "p_abs_error": float(err), "p_rel_error": relative_error(pf, p), "p_ulps": ulp_error(pf, p),
        "p_rel_bound": rel_bound, "p_rounding_depth": L,
        "entries_over_bound": over, "worst_error_over_bound": worst_bound_ratio,
        "values": values, "states": len(emap),
    }


SOLVER_UNDER_AUDIT = "seed's p_sweep/play_turn/remove in float: P[deck] * deck[i] / n * deck[j] / (n - 1)"


def places(x, digits: int) -> int:
    """Decimal places showing ``digits`` significant digits of ``0 < x < 1`` (else ``digits``).

    >>> places(Fraction(1, 28), 8), places(Fraction(1, 2), 8), places(0, 8)
    (9, 8, 8)
    """
    f = as_fraction(x)
    if f <= 0 or f >= 1:
        return digits
    lead = 0
    while f * 10 ** (lead + 1) < 1:
        lead += 1
    return lead + digits


def _printed_facts(r: dict) -> list[Fact]:
    """The seed's printed turn 1..4 floats and its p and 1/(2p), against the exact values (13 x 4)."""
    from exactplay.games.war.printed import SEED_GAMES, SEED_P, compare_printed_turns, correct_digits
    from exactplay.games.war.recurrence import expected_games

    rows = compare_printed_turns(r["exact"], r["float"])
    same = sum(x["port_reproduces_printed"] for x in rows)
    cr = sum(x["correctly_rounded"] for x in rows)
    p = r["p"]
    return [Fact("seed_printed_turns", "seed's turn 1..4 printout", rows,
                 f"{len(rows)} floats; our float port reproduces {same}; {cr} are the correctly rounded double "
                 "of the exact value")] + [
        Fact(None, None, text=f"  turn {x['turn']} {tuple(x['deck'])}: printed {x['printed']!r}, "
                              f"{x['ulps']:.1f} ulps, {x['correct_digits']:.1f} correct digits") for x in rows] + [
        Fact(None, f"seed's p {SEED_P!r}", text=f"{correct_digits(SEED_P, p):.1f} correct digits; "
                                               f"1/(2p) {SEED_GAMES!r}: exact {float(expected_games(as_fraction(p)))!r}")]


def audit_result(r: dict, ranks: int, suits: int, digits: int = 8) -> AuditResult:
    """The typed audit of :func:`run_audit`'s output ``r``."""
    p, pf, values = r["p"], r["p_float"], r["values"]
    rr = rounding_report(p, places(p, digits), pf, r["p_rel_bound"] * pf)
    correctly_rounded = pf == float(as_fraction(p))
    pq = format_pq(p)
    measured = ratio(r["p_rel_bound"], r["p_rel_error"], "measured error 0: the float p is exact")
    facts = [
        Fact("p_exact", "p exact", pq, f"{float(p)!r} = {pq if len(pq) < 80 else '(long fraction)'}"),
        Fact("p_float_correctly_rounded", "p float", correctly_rounded,
             f"{pf!r}  ({'correctly rounded' if correctly_rounded else 'NOT the correctly rounded double'})"),
        Fact("p_rel_error", "p error", r["p_rel_error"], f"rel {r['p_rel_error']:.3e}, {r['p_ulps']:.1f} ulps"),
        Fact("p_ulps", None, r["p_ulps"]),
        Fact("p_rel_bound", "p a-priori bound", r["p_rel_bound"],
             f"rel {r['p_rel_bound']:.3e} (gamma_L, L = {r['p_rounding_depth']} roundings along the longest chain: "
             f"4 per term + additions); bound/measured {measured:.1f}"),
        Fact("p_rounding_depth", None, r["p_rounding_depth"]),
        Fact("distribution_entries", None, r["states"]),
        Fact("entries_over_their_bound", "entries beyond their own a-priori bound", r["entries_over_bound"],
             f"{r['entries_over_bound']} (worst error/bound {r['worst_error_over_bound']:.3f})"),
        Fact("worst_error_over_bound", None, r["worst_error_over_bound"]),
    ]
    return AuditResult(
        game="war", params={"ranks": ranks, "suits": suits},
        title=f"Audit of the seed's War program, {ranks} x {suits} ({r['states']} (turn, abstract deck) entries)",
        solver=SOLVER_UNDER_AUDIT,
        audits=[FloatAudit(
            answer=AnswerCheck("p = P(A wins every turn)", p, rr, r["p_abs_error"], error_key="p_abs_error",
                               float_key="p_float"),
            values=[ValueErrors("values", "per-turn tables P_t(deck)", values, what="entries")],
            facts=facts,
        )],
        facts=_printed_facts(r) if (ranks, suits) == (13, 4) else [],
    )
