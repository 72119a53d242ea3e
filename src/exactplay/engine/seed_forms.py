"""A float seed by affine forms in the cut states: greedy passes with the cycle solved at once.

The seed only guides (exact strategy iteration, :mod:`.cyclic`, switches only on exact strict
improvements), so this module may fail: it then returns ``None`` and :mod:`.seed` is used.

Cut states.  A depth-first search over the *union* of every action's successors inside the
component ``S`` marks the target of every back edge (:func:`.linear._feedback_order`); removing
them leaves every policy's graph acyclic, and the search's post-order is a topological order
(successors first) of every policy's graph.  In Hold or Pig the cuts are the turn starts: two
per component, whatever the policy.

One round, from an estimate ``x`` of the cut values:

1. in post-order, every action of a state gets its affine form ``c + sum_k a_k x_k`` from its
   successors' forms (a successor outside ``S`` is a known number, a cut is ``x_k``); the mover
   keeps the action whose form is best at ``x`` (maximiser or minimiser; the first on a float
   tie), and that form becomes the state's;
2. the cuts' own forms give the small dense system ``x_f = c(f) + sum_k a_k(f) x_k``: solved
   (Gauss, partial pivoting) it is the chosen policy's exact float value at the cuts.

The rounds stop when the policy repeats: then it is greedy for its own values (the float
fixed point of policy iteration, for one player or both).  A singular or ill-conditioned system
(a policy that keeps play inside ``S`` forever), too many cuts or rounds: ``None``.
"""

from __future__ import annotations

from typing import Callable, Sequence

from .linear import _feedback_order

__all__ = ["forms_seed", "MAX_CUTS", "ROUNDS"]

MAX_CUTS = 24  # cut states beyond which the dense part would dominate: the classic seed is used
ROUNDS = 12
_TINY = 1e-12  # a pivot below this (relative) counts as singular


def forms_seed(S: Sequence[int], fdist: dict, signs: dict, outside: Callable[[int], float],
               start: float = 0.5) -> dict[int, int] | None:
    """A policy for ``S`` (state -> action index), or ``None`` if this seed does not apply.

    ``fdist[s]``: per action ``([(t, p), ...], reward)`` in floats; ``signs[s]``: +1 maximiser
    (and chance states), -1 minimiser; ``outside(t)``: the float value of a state outside ``S``.
    """
    in_s = set(S)
    union = {s: [(t, 0) for t in sorted({t for d, _ in fdist[s] for t, _ in d if t in in_s})] for s in S}
    unknown, post = _feedback_order(S, union.__getitem__, in_s)
    m = len(unknown)
    if m == 0 or m > MAX_CUTS:
        return None
    # per action: the known part and the cuts once; the other inside successors per round
    plan = {}
    for s in post:
        acts = []
        for d, r in fdist[s]:
            const = r
            base = [0.0] * m
            inside = []
            for t, p in d:
                if t in in_s:
                    k = unknown.get(t)
                    if k is None:
                        inside.append((t, p))
                    else:
                        base[k] += p
                else:
                    const += p * outside(t)
            acts.append((const, base, inside))
        plan[s] = acts
    rounds = _rounds_two if m <= 2 else _rounds_many
    return rounds(post, plan, signs, unknown, m, start)


def _rounds_many(post, plan, signs, unknown, m, start):
    """The rounds for any number of cuts: forms ``(c, [a_0, ..., a_{m-1}])``."""
    x = [start] * m
    previous = None
    for _ in range(ROUNDS):
        forms: dict[int, tuple[float, list[float]]] = {}
        pol: dict[int, int] = {}
        for s in post:
            sign = signs[s]
            best = None
            for a, (const, base, inside) in enumerate(plan[s]):
                coef = list(base)
                for t, p in inside:
                    tc, tk = forms[t]
                    const += p * tc
                    for j in range(m):
                        coef[j] += p * tk[j]
                val = const
                for j in range(m):
                    val += coef[j] * x[j]
                if best is None or sign * val > sign * best:
                    best, arg, form = val, a, (const, coef)
            forms[s] = form
            pol[s] = arg
        x = _solve_cuts(unknown, forms, m)
        if x is None:
            return None
        if pol == previous:
            return pol
        previous = pol
    return None


def _rounds_two(post, plan, signs, unknown, m, start):
    """:func:`_rounds_many` for one or two cuts (Hold, Pig: the two turn starts), forms as
    triples ``(c, a_0, a_1)`` of floats (``a_1 = 0`` for one cut)."""
    x0 = x1 = start
    flat = {s: [(c, base[0], base[1] if m == 2 else 0.0, inside) for c, base, inside in acts]
            for s, acts in plan.items()}
    previous = None
    for _ in range(ROUNDS):
        forms: dict[int, tuple[float, float, float]] = {}
        pol: dict[int, int] = {}
        for s in post:
            acts = flat[s]
            if len(acts) == 1:
                c, a0, a1, inside = acts[0]
                for t, p in inside:
                    tc, t0, t1 = forms[t]
                    c += p * tc
                    a0 += p * t0
                    a1 += p * t1
                forms[s] = (c, a0, a1)
                pol[s] = 0
                continue
            sign = signs[s]
            best = None
            for a, (c, a0, a1, inside) in enumerate(acts):
                for t, p in inside:
                    tc, t0, t1 = forms[t]
                    c += p * tc
                    a0 += p * t0
                    a1 += p * t1
                val = sign * (c + a0 * x0 + a1 * x1)
                if best is None or val > best:
                    best, arg, form = val, a, (c, a0, a1)
            forms[s] = form
            pol[s] = arg
        x = _solve_cuts(unknown, {f: (forms[f][0], list(forms[f][1:m + 1])) for f in unknown}, m)
        if x is None:
            return None
        x0, x1 = (x[0], x[1]) if m == 2 else (x[0], 0.0)
        if pol == previous:
            return pol
        previous = pol
    return None


def _solve_cuts(unknown: dict[int, int], forms: dict, m: int) -> list[float] | None:
    """``(I - A) x = c`` from the cuts' forms, Gauss with partial pivoting; ``None`` if singular."""
    rows = []
    for f, i in sorted(unknown.items(), key=lambda kv: kv[1]):
        const, coef = forms[f]
        row = [-a for a in coef]
        row[i] += 1.0
        row.append(const)
        rows.append(row)
    for col in range(m):
        piv = max(range(col, m), key=lambda r: abs(rows[r][col]))
        scale = max(abs(a) for a in rows[piv][:m]) or 1.0
        if abs(rows[piv][col]) <= _TINY * scale:
            return None
        rows[col], rows[piv] = rows[piv], rows[col]
        prow = rows[col]
        for r in range(m):
            if r != col:
                f = rows[r][col] / prow[col]
                if f:
                    rows[r] = [a - f * b for a, b in zip(rows[r], prow)]
    out = [rows[i][m] / rows[i][i] for i in range(m)]
    if any(v != v or v in (float("inf"), float("-inf")) for v in out):
        return None
    return out
