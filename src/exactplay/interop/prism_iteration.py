"""Float value iteration as PRISM and PRISM-games run it, on a model mapped from a property
(:mod:`.objective`): the float program whose answers ``audit`` judges.

What PRISM's explicit engine does by default (``-valiter``, ``-relative``, ``-epsilon 1e-6``,
``-maxiters 10000``, precomputation on), reproduced here:

1. *Precomputation* (graph fixpoints, no arithmetic): the states of value 0 (``P``: from which the
   maximiser cannot make reaching the target possible) and of value 1 (from which the maximiser
   reaches the target almost surely against every minimiser strategy) are fixed at 0 and 1.  With
   ``P`` the target's payoff is 1; with ``R`` every strategy reaches the target (the model is
   refused otherwise) and only the target is fixed (at 0).
   With ``R``, the states from which the chooser's best (``Rmax``: some strategy; ``Rmin``: every
   strategy) misses the target with positive probability are +infinity, as PRISM's; not with
   PRISM-games' ``R[Fc target]`` (``cumulative``: a play that misses the target collects its rewards
   forever), where only the target is fixed.
2. *Iteration* from 0 (1 on the fixed states of value 1) in IEEE doubles, the probabilities and
   rewards rounded once to the nearest double: ``jacobi`` (PRISM's value iteration: every state
   updated from the previous vector; on a DTMC, PRISM's Jacobi method, which also divides out a
   state's self-loop: ``x_s = (b_s + sum_{t != s} p x_t) / (1 - p_ss)``) or ``gauss-seidel``
   (PRISM's ``-gs``: in place, in state order).  A state of the maximiser takes its best action,
   of the minimiser its worst; the earlier action wins float ties.
3. *Stop* when every state's change is relatively below ``epsilon``
   (``|x' - x| <= epsilon |x'|``; ``x' = x`` counts as converged) or after ``max_iterations``
   (PRISM then reports that it did not converge).

PRISM evaluates the model's expressions in doubles, so its probabilities can differ from the
nearest doubles used here by an ulp; PRISM orders states by their variables, here they keep
Storm's order (Gauss-Seidel's result depends on the order; Jacobi's does not).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..engine.value_iteration import FloatSolution
from ..model import Model, ModelError

__all__ = ["PrismIteration", "prism_value_iteration", "METHODS", "fixed_states"]

METHODS = ("jacobi", "gauss-seidel")


@dataclass
class PrismIteration(FloatSolution):
    converged: bool = True
    method: str = "jacobi"
    epsilon: float = 1e-6
    zero_states: int = 0  # fixed at 0 by the precomputation (terminal states included)
    one_states: int = 0  # fixed at 1


def _signs(model: Model) -> list[int]:
    """+1 where the state's mover maximises the value, -1 where it minimises, +1 without a choice."""
    keys = model.keys()
    return [1 if m is None else keys[m][1] for m in model.mover]


def fixed_states(model: Model, signs: list[int], target: set[int] | None = None) -> tuple[set[int], set[int]]:
    """``(value 0, value 1)``: PRISM's prob0 and prob1 precomputation for reaching ``target``
    (default: the terminal states of payoff 1), the maximiser's ``exists`` action, the minimiser's
    ``for all``."""
    n = len(model)
    if target is None:
        target = {s for s in range(n) if model.terminal[s] is not None and model.terminal[s][0] == 1}

    def attractor(allowed: set[int], usable) -> set[int]:
        """The least Y with target inside and s in Y when some successor of one usable action (the
        maximiser, or no choice) or of every action, all usable (the minimiser), is in Y; within
        ``allowed``."""
        preds: dict[int, list[tuple[int, int]]] = {}
        need = {}
        for s in allowed:
            if s in target or model.terminal[s] is not None:
                continue
            acts = [a for a, d in enumerate(model.trans[s]) if usable(s, d)]
            if not acts or (signs[s] < 0 and len(acts) < len(model.trans[s])):
                continue  # the minimiser would take an action that is not usable
            need[s] = 1 if signs[s] > 0 else len(acts)
            for a in acts:
                for t, _ in model.trans[s][a]:
                    preds.setdefault(t, []).append((s, a))
        inside = set(target & allowed)
        stack = list(inside)
        counted: set[tuple[int, int]] = set()
        while stack:
            t = stack.pop()
            for s, a in preds.get(t, ()):
                if s in inside or (s, a) in counted:
                    continue
                counted.add((s, a))
                need[s] -= 1
                if need[s] == 0:
                    inside.add(s)
                    stack.append(s)
        return inside

    everything = set(range(n))
    positive = attractor(everything, lambda s, d: True)
    zero = everything - positive
    x = positive
    while True:  # the greatest X: almost-sure reaching, actions kept inside X
        keep = x
        y = attractor(x, lambda s, d: all(t in keep for t, _ in d))
        if y == x:
            break
        x = y
    return zero, x


def _arrays(model: Model, reward: bool):
    """Rows (actions) of the non-terminal states as flat arrays of doubles."""
    group, row_start, col, prob, rew = [0], [0], [], [], []
    for s in range(len(model)):
        for a, d in enumerate(model.trans[s]):
            for t, p in d:
                col.append(t)
                prob.append(float(p))
            row_start.append(len(col))
            r = model.rewards[s][a]
            rew.append(float(r[0]) if reward and r is not None else 0.0)
        group.append(len(row_start) - 1)
    return (np.array(group, dtype=np.int64), np.array(row_start, dtype=np.int64), np.array(col, dtype=np.int64),
            np.array(prob, dtype=np.float64), np.array(rew, dtype=np.float64))


def prism_value_iteration(model: Model, reward: bool = False, method: str = "jacobi", epsilon: float = 1e-6,
                          max_iterations: int = 10_000, dtmc: bool = False, cumulative: bool = False) -> PrismIteration:
    """The float values PRISM's value iteration computes (see the module docstring)."""
    if method not in METHODS:
        raise ModelError(f"float method {method!r}: choose {', '.join(METHODS)}")
    n = len(model)
    for p in model.terminal:
        if p is not None and (p[0] not in (0, 1) or (reward and p[0] != 0)):
            raise ModelError("PRISM's value iteration is for a P or R property's model (payoffs 0 and 1, or 0)")
    signs = _signs(model)
    infinite: set[int] = set()
    if reward:
        zero = {s for s in range(n) if model.terminal[s] is not None}
        one: set[int] = set()
        # PRISM's infinity states: Rmax where some strategy may miss the target (prob1 for all
        # strategies fails), Rmin where none reaches it surely (prob1 for some strategy fails)
        if not cumulative:
            _, sure = fixed_states(model, [-x for x in signs], zero)
            infinite = set(range(n)) - sure
    else:
        zero, one = fixed_states(model, signs)
    group, row_start, col, prob, rew = _arrays(model, reward)
    x = np.zeros(n)
    for s in one:
        x[s] = 1.0
    for s in infinite:
        x[s] = np.inf
    unknown = np.array(sorted(set(range(n)) - zero - one - infinite), dtype=np.int64)
    fixed_mask = np.ones(n, dtype=bool)
    fixed_mask[unknown] = False
    sign = np.array(signs, dtype=np.int64)
    converged, sweeps, change = True, 0, 0.0
    if len(unknown):
        if method == "jacobi":
            x, sweeps, converged, change = _jacobi(x, group, row_start, col, prob, rew, sign, fixed_mask, epsilon,
                                           max_iterations, dtmc)
        else:
            x, sweeps, converged, change = _gauss_seidel(x, model, unknown, group, row_start, col, prob, rew, signs, epsilon,
                                                 max_iterations, dtmc)
    values = x.tolist()
    q_rows = _row_values(x, row_start, col, prob, rew)
    policy: list[int | None] = []
    q: dict[int, list[float]] = {}
    for s in range(n):
        if model.terminal[s] is not None:
            policy.append(None)
            continue
        rows = q_rows[group[s]:group[s + 1]]
        best = max(range(len(rows)), key=lambda a: (signs[s] * rows[a], -a))
        policy.append(best)
        if model.mover[s] is not None and len(rows) > 1:
            q[s] = list(rows)
    P = model.num_players
    vec = [[v] + [0.0] * (P - 1) for v in values]
    return PrismIteration(vec, policy, q, sweeps, change, converged, method, epsilon, len(zero), len(one))


def _row_values(x, row_start, col, prob, rew) -> list[float]:
    if not len(col):
        return []
    per_entry = prob * x[col]
    sums = np.add.reduceat(per_entry, row_start[:-1]) if len(row_start) > 1 else np.zeros(0)
    empty = row_start[1:] == row_start[:-1]
    sums[empty] = 0.0
    return (rew + sums).tolist()


def _close(new, old, epsilon) -> bool:
    diff = np.abs(new - old)
    scale = np.abs(new)
    same = diff == 0
    return bool(np.all(same | (diff <= epsilon * scale)))


def _jacobi(x, group, row_start, col, prob, rew, sign, fixed_mask, epsilon, max_iterations, dtmc):
    counts = group[1:] - group[:-1]
    with_rows = np.nonzero(counts > 0)[0]  # reduceat over their row groups: each segment is one state's rows
    starts = row_start[:-1]
    if dtmc:  # PRISM's Jacobi method divides out each state's self-loop
        owner = np.repeat(np.arange(len(group) - 1), counts)
        entry_row = np.repeat(np.arange(len(starts)), row_start[1:] - row_start[:-1])
        loops = col == owner[entry_row]
        self_loop = np.zeros(len(starts))
        np.add.at(self_loop, entry_row[loops], prob[loops])
    live = np.nonzero(~fixed_mask)[0]
    pick = np.searchsorted(with_rows, live)  # live states have rows
    live_sign = sign[live]
    for sweep in range(1, max_iterations + 1):
        per_entry = prob * x[col]
        if dtmc:
            per_entry = np.where(loops, 0.0, per_entry)
        rows = rew + np.add.reduceat(per_entry, starts)
        if dtmc:
            rows = rows / (1.0 - self_loop)
        best_max = np.maximum.reduceat(rows, group[with_rows])[pick]
        best_min = np.minimum.reduceat(rows, group[with_rows])[pick]
        new = x.copy()
        new[live] = np.where(live_sign > 0, best_max, best_min)
        done = _close(new[live], x[live], epsilon)
        change = float(np.max(np.abs(new[live] - x[live]))) if len(live) else 0.0
        x = new
        if done:
            return x, sweep, True, change
    return x, max_iterations, False, change


def _gauss_seidel(x, model, unknown, group, row_start, col, prob, rew, signs, epsilon, max_iterations, dtmc):
    values = x.tolist()
    g, rs, cl, pr, rw = group.tolist(), row_start.tolist(), col.tolist(), prob.tolist(), rew.tolist()
    order = unknown.tolist()
    for sweep in range(1, max_iterations + 1):
        done, change = True, 0.0
        for s in order:
            best = None
            for r in range(g[s], g[s + 1]):
                total, loop = rw[r], 0.0
                for e in range(rs[r], rs[r + 1]):
                    t = cl[e]
                    if dtmc and t == s:
                        loop += pr[e]
                    else:
                        total += pr[e] * values[t]
                if dtmc:
                    total /= (1.0 - loop)
                if best is None or (total > best if signs[s] > 0 else total < best):
                    best = total
            old = values[s]
            if best != old:
                change = max(change, abs(best - old))
                if abs(best - old) > epsilon * abs(best):
                    done = False
            values[s] = best
        if done:
            return np.array(values), sweep, True, change
    return np.array(values), max_iterations, False, change
