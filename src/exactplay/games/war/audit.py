"""Audit of the seed's float program against the exact distributions, with the a-priori bound."""

from __future__ import annotations

from fractions import Fraction

from exactplay.audit import audit_values, relative_error, ulp_error
from exactplay.numbers import Backend, as_fraction
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
