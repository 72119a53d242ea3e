"""The parametric solution as text and as strict JSON (polynomials: coefficient lists of ``"p/q"``)."""

from __future__ import annotations

from typing import Any

from ..numbers.backends import format_pq
from ..numbers.decimals import decimal_digits
from ..present.rendered import Report
from .poly import coeff_strings, poly_text
from .ratfunc import RatFunc
from .regions import ParametricSolution
from .roots import Algebraic

__all__ = ["parametric_report", "ratfunc_text", "SHOWN"]

SHOWN = 10  # flips listed per breakpoint unless --all
LONG = 400  # characters of a rational function printed unless --full


def ratfunc_text(v: RatFunc, name: str = "p") -> str:
    """``num`` or ``(num) / (den)``, lowest degree first."""
    num, den = v.num, v.den
    low = next((c for c in den.coeffs() if c != 0), 1)
    if low < 0:  # print the denominator with a positive lowest term: (1 - p) / (2 + p), not (-1 + p) / (-2 - p)
        num, den = -num, -den
    if den.is_one():
        return poly_text(num, name)
    a, b = poly_text(num, name), poly_text(den, name)
    return f"{f'({a})' if ' ' in a else a} / ({b})"


def _int_poly_text(poly, name: str) -> str:
    from flint import fmpq_poly

    return poly_text(fmpq_poly(poly), name)


def _end_text(e, name: str) -> str:
    if isinstance(e, Algebraic):
        return str(e.exact) if e.exact is not None else e.decimal(8)
    return str(e)


def _end_json(e, index: dict[int, int]) -> dict:
    if isinstance(e, Algebraic):
        return {"breakpoint": index[id(e)]}
    return {"rational": format_pq(e)}


def _rf_json(v: RatFunc) -> dict:
    return {"num": coeff_strings(v.num), "den": coeff_strings(v.den)}


def _action(pm, s: int, a: int | None) -> Any:
    return None if a is None else pm.actions[s][a]


def parametric_report(ps: ParametricSolution, source: str, component: int | None = None, full: bool = False,
                      all_flips: bool = False, digits: int = 12) -> Report:
    pm = ps.model
    name = pm.symbol
    comp = ps.value_component() if component is None else component
    player = pm.player_names[ps.components[comp]]
    index = {id(b.point): k for k, b in enumerate(ps.breakpoints)}
    choice_states = sum(1 for s in range(len(pm)) if pm.mover[s] is not None and len(pm.trans[s]) > 1)
    regions_json, breaks_json = [], []
    for r in ps.regions:
        v = r.values[0][comp]
        regions_json.append({
            "lo": _end_json(r.lo, index), "hi": _end_json(r.hi, index),
            "sample": format_pq(r.sample),
            "value": _rf_json(v),
            "value_degree": v.degree(),
            "initial_values": {pm.player_names[c]: _rf_json(x) for c, x in zip(ps.components, r.values[0])},
            "initial_action": _action(pm, 0, r.policy[0]),
            "policy": [_action(pm, s, a) for s, a in enumerate(r.policy)],
        })
    for b in ps.breakpoints:
        breaks_json.append({**b.point.to_json(digits), "flips": [
            {"state": s, "name": str(pm.states[s]), "left": _action(pm, s, x), "right": _action(pm, s, y)}
            for s, x, y in b.flips]})
    data = {
        "model": pm.name, "source": source, "symbol": name,
        "range": [format_pq(ps.lo), format_pq(ps.hi)],
        "players": list(pm.player_names), "objective": ps.objective, "states": len(pm),
        "choice_states": choice_states, "value_of": f"value of {pm.states[0]} to {player}",
        "regions": regions_json, "breakpoints": breaks_json, "stats": ps.stats,
    }
    lines = [f"{pm.name}: {len(pm):,} states, {choice_states:,} with a choice; parameter {name} on "
             f"({ps.lo}, {ps.hi}); objective {ps.objective}",
             f"{len(ps.regions)} region(s) where the optimal policy is constant, {len(ps.breakpoints)} breakpoint(s) "
             f"({ps.stats.get('engine_solves', 0)} exact engine solves)",
             f"value of the initial state {pm.states[0]} to {player}, V({name}):"]
    for k, r in enumerate(ps.regions):
        text = ratfunc_text(r.values[0][comp], name)
        if len(text) > LONG and not full:
            v = r.values[0][comp]
            text = (f"a rational function of degree {v.num.degree()}/{v.den.degree()} "
                    f"({len(text):,} characters: --full or --json prints it)")
        first = "" if pm.mover[0] is None else f"  (first action {_action(pm, 0, r.policy[0])!r})"
        lines.append(f"  region {k + 1}: {_end_text(r.lo, name)} < {name} < {_end_text(r.hi, name)}{first}")
        lines.append(f"    V({name}) = {text}")
        lines.append(f"    at {name} = {r.sample}: {decimal_digits(r.values[0][comp].at(r.sample), 8)}")
        if k < len(ps.breakpoints):
            b = ps.breakpoints[k]
            a = b.point
            if a.exact is not None:
                lines.append(f"  breakpoint {k + 1}: {name} = {a.exact} (the root of {_int_poly_text(a.poly, name)})")
            else:
                lines.append(f"  breakpoint {k + 1}: {name} = {a.decimal(digits)}..., the root of "
                             f"{_int_poly_text(a.poly, name)} in ({a.lo}, {a.hi})")
            shown = b.flips if all_flips else b.flips[:SHOWN]
            for s, x, y in shown:
                lines.append(f"    {pm.states[s]}: {_action(pm, s, x)!r} -> {_action(pm, s, y)!r}")
            if len(shown) < len(b.flips):
                lines.append(f"    ... {len(b.flips) - len(shown)} more flips (--all lists them)")
            if not b.flips:
                lines.append("    (no state changes its action: a margin touches 0 here)")
    return Report(data=data, lines=lines)


