"""The parametric certificate (version 2, kind ``"parametric"``), re-verified by
:mod:`exactplay.checker.parametric` with the standard library alone.

Fields (every polynomial a list of ``"p/q"`` coefficients, lowest degree first)::

    format, version, kind   "exactplay-certificate", 2, "parametric"
    symbol                  the parameter's name, e.g. "p"
    range                   ["a", "b"]: the open interval (a, b) solved
    model                   the game: states, terminal payoffs, movers, action names,
                            transitions [[successor, polynomial], ...] per action, rewards
    objective, components   the resolved objective and the payoff components valued
    breakpoints             per breakpoint: "poly" (square-free), "interval" ["l", "h"] holding
                            exactly one of its roots, "decimal", "flips" [[state, left, right], ...]
    regions                 per region (between consecutive breakpoints): "policy" (action index per
                            state), "values" ([numerator, denominator] per state and component) and
                            "margins" ([state, action, numerator, denominator]: the chosen action's
                            one-step value minus this action's, in the mover's objective)
    answer                  for `check`'s summary line: the number of regions and the breakpoints'
                            decimals (re-derived by the checker)
    tool_version, notes     informational
"""

from __future__ import annotations

from ..numbers.backends import format_pq
from .poly import coeff_strings
from .regions import ParametricSolution
from .roots import Algebraic

__all__ = ["parametric_certificate", "DECIMALS"]

DECIMALS = 12


def _rf(v) -> list:
    return [coeff_strings(v.num), coeff_strings(v.den)]


def _separate(points: list[Algebraic], lo, hi) -> None:
    """Refine the isolating intervals until they lie in ``[lo, hi]`` and follow each other."""
    for a in points:
        while a.lo < lo or a.hi > hi:
            a.refine()
    for a, b in zip(points, points[1:]):
        while a.hi > b.lo:
            a.refine()
            b.refine()


def parametric_certificate(ps: ParametricSolution, params: dict | None = None) -> dict:
    """The certificate; ``params``: the factory's other parameters as recorded (left out when None)."""
    from .. import __version__ as tool_version

    pm = ps.model
    points = [b.point for b in ps.breakpoints]
    _separate(points, ps.lo, ps.hi)
    model = {
        "name": pm.name,
        "num_players": pm.num_players,
        "player_names": list(pm.player_names),
        "objective": pm.objective,
        "initial": 0,
        "states": [str(s) for s in pm.states],
        "terminal": [None if t is None else [format_pq(x) for x in t] for t in pm.terminal],
        "mover": list(pm.mover),
        "actions": [list(acts) for acts in pm.actions],
        "trans": [[[[t, coeff_strings(q)] for t, q in d] for d in acts] for acts in pm.trans],
        "rewards": [[None if r is None else [format_pq(x) for x in r] for r in rs] for rs in pm.rewards],
    }
    breakpoints = []
    for b in ps.breakpoints:
        breakpoints.append({**b.point.to_json(DECIMALS), "flips": [list(f) for f in b.flips]})
    regions = []
    for r in ps.regions:
        regions.append({
            "policy": list(r.policy),
            "values": [[_rf(v) for v in vs] for vs in r.values],
            "margins": [[s, a, *_rf(m)] for s, row in sorted(r.margins.items()) for a, m in sorted(row.items())],
        })
    answer = {"name": f"{len(regions)} region(s) of {pm.symbol} in ({ps.lo}, {ps.hi}), breakpoints",
              "value": None, "decimal": ", ".join(b["decimal"] for b in breakpoints) or "none"}
    return {
        "format": "exactplay-certificate",
        "version": 2,
        "kind": "parametric",
        **({} if params is None else {"params": params}),
        "symbol": pm.symbol,
        "range": [format_pq(ps.lo), format_pq(ps.hi)],
        "model": model,
        "objective": ps.objective,
        "components": list(ps.components),
        "breakpoints": breakpoints,
        "regions": regions,
        "answer": answer,
        "tool_version": tool_version,
        "notes": ("every play ends whatever the players choose, so on each region the Bellman equations, "
                  "identities of rational functions, and margins >= 0 prove the policy optimal"),
    }
