"""Plain float value iteration on a compiled model: what a float program computes.

``float_value_iteration(model)`` runs Gauss-Seidel sweeps of the Bellman
operator in 64-bit floats until no value changes by more than ``tol`` (or
``max_sweeps``), using the model's objective (each mover maximises
``sign * V[component]`` as in :meth:`Model.keys`), and returns the float
value of every state for the component the first player's choice is about.
Plays that never end count 0 (values start at 0 and only ever-ending plays
keep them there).  The exact engine's answer minus this is the float error::

    from exactplay.model import build_model
    from examples.float_vi import float_value_iteration
    vals, sweeps = float_value_iteration(build_model(game))
"""

from __future__ import annotations


def float_value_iteration(model, component: int | None = None, tol: float = 0.0, max_sweeps: int = 100_000):
    """Float values of every state for payoff ``component`` (default: player 0's key) and the sweeps used."""
    keys = model.keys()
    c = keys[0][0] if component is None else component
    n = len(model)
    term = [None if p is None else float(p[c]) for p in model.terminal]
    acts = []
    sign = []
    for s in range(n):
        if term[s] is not None:
            acts.append(None)
            sign.append(1)
            continue
        m = model.mover[s]
        sign.append(1 if m is None or keys[m][0] != c else keys[m][1])
        acts.append([([(t, float(p)) for t, p in d], float(r[c]) if r is not None else 0.0)
                     for d, r in zip(model.trans[s], model.rewards[s])])
    v = [0.0 if x is None else x for x in term]
    order = [s for s in reversed(range(n)) if acts[s] is not None]
    for sweep in range(1, max_sweeps + 1):
        delta = 0.0
        for s in order:
            sg = sign[s]
            best = None
            for d, r in acts[s]:
                q = r
                for t, p in d:
                    q += p * v[t]
                if best is None or sg * q > sg * best:
                    best = q
            diff = abs(best - v[s])
            if diff > delta:
                delta = diff
            v[s] = best
        if delta <= tol:
            return v, sweep
    return v, max_sweeps
