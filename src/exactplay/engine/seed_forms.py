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

__all__ = ["forms_seed", "seed_by_forms", "MAX_CUTS", "ROUNDS"]

MAX_CUTS = 24  # cut states beyond which the dense part would dominate: the classic seed is used
ROUNDS = 12
_TINY = 1e-12  # a pivot below this (relative) counts as singular


def forms_seed(S: Sequence[int], fdist: dict, signs: dict, outside: Callable[[int], float],
               start: float = 0.5) -> dict[int, int] | None:
    """A policy for ``S`` (state -> action index), or ``None`` if this seed does not apply.

    ``fdist[s]``: per action ``([(t, p), ...], reward)`` in floats; ``signs[s]``: +1 maximiser
    (and chance states), -1 minimiser; ``outside(t)``: the float value of a state outside ``S``.
    (:func:`seed_by_forms` with the successors of ``fdist``.)
    """
    def succ(s):
        return sorted({t for d, _ in fdist[s] for t, _ in d})

    def reward(s):
        return [r for _, r in fdist[s]]

    pol = seed_by_forms(S, succ, lambda s: [d for d, _ in fdist[s]], reward, {}, signs.__getitem__,
                        outside, [start] * MAX_CUTS)
    return None if pol is None else pol[0]


def _depth_first(S: Sequence[int], succ, in_s) -> tuple[dict[int, int], list[int]]:
    """Depth-first post-order of ``S`` over ``succ`` restricted to ``S``, and the cuts (the
    targets of back edges, numbered in the order found): every cycle of ``S`` passes a cut."""
    unknown: dict[int, int] = {}
    post: list[int] = []
    state: dict[int, int] = {}
    for root in S:
        if root in state:
            continue
        state[root] = 1
        stack = [(root, iter(succ(root)))]
        while stack:
            v, it = stack[-1]
            for w in it:
                if w not in in_s:
                    continue
                st = state.get(w)
                if st is None:
                    state[w] = 1
                    stack.append((w, iter(succ(w))))
                    break
                if st == 1 and w not in unknown:
                    unknown[w] = len(unknown)
            else:
                stack.pop()
                state[v] = 2
                post.append(v)
    return unknown, post


def seed_by_forms(S: Sequence[int], succ, dist, reward, pfloats: dict, sign, outside: Callable[[int], float],
                  start: Sequence[float]) -> tuple[dict[int, int], list[float]] | None:
    """The rounds of the module docstring from the cut values ``start`` (``start[k]`` for the k-th
    cut found; at least as many entries as cuts): the policy (state -> action index) and the cut
    values of its last evaluation, or ``None`` if this seed does not apply.

    ``succ(s)``: the successors of ``s`` over all actions; ``dist(s)``: per action ``[(t, p), ...]``
    (``p`` any number: its float ``pfloats[id(p)]``, converted once and stored there, so the
    probability objects must stay alive while ``pfloats`` is used); ``reward(s)``: per action a float,
    or ``None`` for none; ``sign(s)``: +1 maximiser (and chance states), -1 minimiser;
    ``outside(t)``: the float value of a state outside ``S``.
    """
    in_s = set(S)
    unknown, post = _depth_first(S, succ, in_s)
    m = len(unknown)
    if m == 0 or m > MAX_CUTS:
        return None
    # where[t]: the local index (post order) of a non-cut state of S; -1 - k for the k-th cut
    where = {s: i for i, s in enumerate(post)}
    for f, k in unknown.items():
        where[f] = -1 - k
    two = m <= 2
    # per action: the known part and the cuts once; the other inside successors (local index) per round
    plan = []
    pf = pfloats.get
    for s in post:
        rs = reward(s)
        acts = []
        for a, d in enumerate(dist(s)):
            const = rs[a] if rs is not None else 0.0
            base = [0.0, 0.0] if two else [0.0] * m
            idx, prob = [], []
            for t, p in d:
                x = pf(id(p))
                if x is None:
                    x = pfloats[id(p)] = float(p)
                j = where.get(t)
                if j is None:
                    const += x * outside(t)
                elif j >= 0:
                    idx.append(j)
                    prob.append(x)
                else:
                    base[-1 - j] += x
            acts.append((const, base[0], base[1], idx, prob) if two else (const, base, idx, prob))
        plan.append(acts)
    signs = [sign(s) for s in post]
    cuts = [0] * m  # the local index of the k-th cut
    for i, s in enumerate(post):
        if s in unknown:
            cuts[unknown[s]] = i
    rounds = _rounds_two if two else _rounds_many
    found = rounds(plan, signs, cuts, m, list(start[:m]))
    if found is None:
        return None
    pol, x = found
    return dict(zip(post, pol)), x


def _rounds_many(plan, signs, cuts, m, x):
    """The rounds for any number of cuts: forms ``(c, [a_0, ..., a_{m-1}])`` per local state."""
    n = len(plan)
    previous = None
    rm = range(m)
    for _ in range(ROUNDS):
        forms: list = [None] * n
        pol = [0] * n
        for i, acts in enumerate(plan):
            sign = signs[i]
            best = None
            for a, (const, base, idx, prob) in enumerate(acts):
                coef = list(base)
                for j, p in zip(idx, prob):
                    tc, tk = forms[j]
                    const += p * tc
                    for k in rm:
                        coef[k] += p * tk[k]
                val = const
                for k in rm:
                    val += coef[k] * x[k]
                if best is None or sign * val > sign * best:
                    best, arg, form = val, a, (const, coef)
            forms[i] = form
            pol[i] = arg
        x = _solve_cuts([forms[i] for i in cuts], m)
        if x is None:
            return None
        if pol == previous:
            return pol, x
        previous = pol
    return None


def _rounds_two(plan, signs, cuts, m, x):
    """:func:`_rounds_many` for one or two cuts (Hold, Pig: the two turn starts), the plan's actions
    as ``(c, a_0, a_1, inside states, their probabilities)``: the forms ``c + a_0 x_0 + a_1 x_1`` as
    three lists of floats over the local states (``a_1 = 0`` for one cut)."""
    n = len(plan)
    flat = plan
    x0, x1 = (x[0], x[1]) if m == 2 else (x[0], 0.0)
    C, A0, A1 = [0.0] * n, [0.0] * n, [0.0] * n
    previous = None
    for _ in range(ROUNDS):
        pol = [0] * n
        for i, acts in enumerate(flat):
            if len(acts) == 1:
                c, a0, a1, idx, prob = acts[0]
                for j, p in zip(idx, prob):
                    c += p * C[j]
                    a0 += p * A0[j]
                    a1 += p * A1[j]
                C[i], A0[i], A1[i] = c, a0, a1
                continue
            sign = signs[i]
            best = None
            for a, (c, a0, a1, idx, prob) in enumerate(acts):
                for j, p in zip(idx, prob):
                    c += p * C[j]
                    a0 += p * A0[j]
                    a1 += p * A1[j]
                val = sign * (c + a0 * x0 + a1 * x1)
                if best is None or val > best:
                    best, arg, bc, b0, b1 = val, a, c, a0, a1
            C[i], A0[i], A1[i] = bc, b0, b1
            pol[i] = arg
        x = _solve_cuts([(C[i], [A0[i], A1[i]][:m]) for i in cuts], m)
        if x is None:
            return None
        x0, x1 = (x[0], x[1]) if m == 2 else (x[0], 0.0)
        if pol == previous:
            return pol, x
        previous = pol
    return None


def _solve_cuts(forms: list, m: int) -> list[float] | None:
    """``(I - A) x = c`` from the cuts' forms ``(c_k, [a_k0, ...])`` (in cut order), Gauss with
    partial pivoting; ``None`` if singular."""
    rows = []
    for i, (const, coef) in enumerate(forms):
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
