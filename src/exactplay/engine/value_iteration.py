"""Float value iteration on a model: the kind of program people run, to be audited.

Gauss-Seidel sweeps of the Bellman equations in IEEE doubles, each mover
optimising its own component as in the exact engine (same keys, same tie
rule: the earlier action wins float ties), until the largest change in a sweep
is below ``tol`` or ``max_sweeps`` is reached.  Plays that never end are worth
0 (values start at 0 and stay 0 where nothing is ever reached).  ``infinite``: the
states of value +infinity of a ``never_ending = "infinite"`` model (found by graph
search beforehand, as Storm's float engines do), fixed at ``inf``; an action into one
is then worth ``inf`` too, so a minimiser avoids it.  (From 0, the sweeps converge to
the least fixed point: below the value where a minimiser can loop at reward 0.)
"""

from __future__ import annotations

from dataclasses import dataclass

from ..model import Model
from ..progress import SILENT

__all__ = ["FloatSolution", "value_iteration"]


@dataclass
class FloatSolution:
    values: list[list[float]]  # per state, one float per payoff component
    policy: list[int | None]
    q: dict[int, list[float]]  # choice state -> each action's float value in the mover's component
    sweeps: int
    last_change: float


def value_iteration(model: Model, tol: float = 1e-15, max_sweeps: int = 100_000, progress=SILENT,
                    infinite=()) -> FloatSolution:
    n = len(model)
    P = model.num_players
    keys = model.keys()
    try:
        V = [[float(x) for x in p] if p is not None else [0.0] * P for p in model.terminal]
        dist = [[[(t, float(p)) for t, p in d] for d in acts] for acts in model.trans]
        rew = [[[float(x) for x in r] if r is not None else None for r in rs] for rs in model.rewards]
    except OverflowError:
        from ..errors import UsageError

        raise UsageError("a payoff or reward of this model is beyond the double range: float value iteration "
                         "cannot represent it (audit a table of your own with --float-table)") from None
    fixed = set(infinite)
    for s in fixed:
        V[s] = [float("inf")] * P
    live = [s for s in range(n) if model.terminal[s] is None and s not in fixed]
    # sweep in reverse discovery order: successors found later are usually closer to the end
    live.reverse()
    policy: list[int | None] = [None if model.terminal[s] is not None else 0 for s in range(n)]
    sweeps, change = 0, float("inf")
    progress.start(f"float value iteration, {n:,} states", None)
    while sweeps < max_sweeps and change >= tol:
        sweeps += 1
        change = 0.0
        for s in live:
            m = model.mover[s]
            best, best_a, best_key = None, 0, None
            for a, d in enumerate(dist[s]):
                r = rew[s][a]
                q = list(r) if r is not None else [0.0] * P
                for t, p in d:
                    vt = V[t]
                    for c in range(P):
                        q[c] += p * vt[c]
                if m is None:
                    best = q
                    break
                comp, sign = keys[m]
                k = sign * q[comp]
                if best_key is None or k > best_key:
                    best, best_a, best_key = q, a, k
            old = V[s]
            d_max = max(abs(x - y) for x, y in zip(best, old))
            if d_max > change:
                change = d_max
            V[s] = best
            policy[s] = best_a
        progress.advance()
    q_out: dict[int, list[float]] = {}
    for s in live:
        m = model.mover[s]
        if m is None or len(dist[s]) < 2:
            continue
        comp, _ = keys[m]
        q_out[s] = [(rew[s][a][comp] if rew[s][a] is not None else 0.0) + sum(p * V[t][comp] for t, p in d)
                    for a, d in enumerate(dist[s])]
    return FloatSolution(V, policy, q_out, sweeps, change)
