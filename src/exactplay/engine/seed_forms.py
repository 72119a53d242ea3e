"""A float seed by affine forms in the cut states: greedy passes with the cycle solved at once.

The seed only guides (exact strategy iteration, :mod:`.cyclic`, switches only on exact strict
improvements), so this module may fail: it then returns ``None`` and :mod:`.seed` is used.

Cut states.  A depth-first search over the *union* of every action's successors inside the
component ``S`` marks the target of every back edge (as :func:`.linear._feedback_order` does);
removing them leaves every policy's graph acyclic, and the search's post-order is a topological
order (successors first) of every policy's graph.  In Hold or Pig the cuts are the turn starts: two
per component, whatever the policy.

One round, from an estimate ``x`` of the cut values:

1. in post-order, every action of a state gets its affine form ``c + sum_k a_k x_k`` from its
   successors' forms (a successor outside ``S`` is a known number, a cut is ``x_k``); the mover
   keeps the action whose form is best at ``x`` (maximiser or minimiser; the first on a float
   tie), and that form becomes the state's;
2. the cuts' own forms give the small dense system ``x_f = c(f) + sum_k a_k(f) x_k``: solved
   (Gauss, partial pivoting) it is the chosen policy's exact float value at the cuts.

The rounds stop when the policy repeats: then it is greedy for its own values (the float
fixed point of policy iteration, for one player or both).  With one or two cuts (:func:`_rounds_two`)
the greedy step needs only the values at ``x`` (one product per successor) and the forms only of
the chosen actions; the first greedy step is made as the search finishes each state.  A singular or ill-conditioned system
(a policy that keeps play inside ``S`` forever), too many cuts or rounds: ``None``.
"""

from __future__ import annotations

from typing import Callable, Sequence

__all__ = ["forms_seed", "seed_by_forms", "MAX_CUTS", "ROUNDS"]

MAX_CUTS = 24  # cut states beyond which the dense part would dominate: the classic seed is used
ROUNDS = 12
_TINY = 1e-12  # a pivot below this (relative) counts as singular
OUT = -(1 << 62)  # the search's mark of a state outside the component


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


def seed_by_forms(S: Sequence[int], succ, dist, reward, pfloats: dict, sign, outside: Callable[[int], float],
                  start: Sequence[float]) -> tuple[dict[int, int], list[float]] | None:
    """The rounds of the module docstring from the cut values ``start`` (``start[k]`` for the k-th
    cut found; at least as many entries as cuts): the policy (state -> action index) and the cut
    values of its last evaluation, or ``None`` if this seed does not apply.

    ``succ(s)``: the successors of ``s`` over all actions; ``dist(s)``: per action ``[(t, p), ...]``
    (``p`` any number: its float ``pfloats[id(p)]``, converted once and stored there, so the
    probability objects must stay alive while ``pfloats`` is used); ``reward(s)``: per action a float,
    or ``None`` for none (``reward=None``: no rewards); ``sign(s)``: +1 maximiser (and chance states), -1 minimiser;
    ``outside(t)``: the float value of a state outside ``S``.

    The search and the plan are one pass: when ``v`` finishes, each successor in ``S`` has finished
    (its form comes before ``v``'s) or is on the stack, hence a cut: so whether each successor is a
    cut is known, and ``v``'s actions are split into the known part, the cuts' coefficients and the
    other inside successors.
    """
    # index[t]: None unvisited, -1 on the stack, -2 - k the k-th cut, >= 0 the local index (post order)
    # of a finished state that is no cut; OUT: outside S
    index: dict[int, int | None] = dict.fromkeys(S)
    get = index.get
    cuts: list[int] = []  # the local index of the k-th cut (its own form is computed too)
    post: list[int] = []
    plan: list[list] = []  # per local state, per action (c, a_0, a_1, [(inside index, probability)], more cuts)
    signs: list[int] = []
    # the first greedy pass at the start values, as the plan is made (used with at most two cuts)
    x0, x1 = start[0], start[1]
    V: list[float] = []  # the greedy values
    first: list[int] = []  # the greedy policy
    pf = pfloats.get
    out_mark = OUT  # (a local: read once per transition)
    add_post, add_sign, add_v, add_first, add_plan = post.append, signs.append, V.append, first.append, plan.append
    for root in S:
        if index[root] is not None:
            continue
        index[root] = -1
        stack = [(root, iter(succ(root)))]
        push = stack.append
        while stack:
            v, it = stack[-1]
            for w in it:
                i = get(w, out_mark)
                if i is None:
                    index[w] = -1
                    push((w, iter(succ(w))))
                    break
                if i == -1:  # a back edge (or a self-loop): w is a cut
                    if len(cuts) == MAX_CUTS:
                        return None
                    index[w] = -2 - len(cuts)
                    cuts.append(-1)
            else:
                stack.pop()
                i = index[v]
                if i == -1:
                    index[v] = len(post)
                else:
                    cuts[-2 - i] = len(post)
                add_post(v)
                rs = reward(v) if reward is not None else None
                sg = sign(v)
                add_sign(sg)
                acts = []
                best = None
                for a, d in enumerate(dist(v)):
                    const = rs[a] if rs is not None else 0.0
                    b0 = b1 = val = 0.0  # val: the inside part of the greedy value at the start
                    pairs = []
                    more = last_p = None
                    for t, p in d:
                        if p is not last_p:  # (an action's probabilities are mostly one shared object)
                            last_p = p
                            x = pf(id(p))
                            if x is None:
                                x = pfloats[id(p)] = float(p)
                        i = get(t, out_mark)
                        if i >= 0:
                            pairs.append((i, x))
                            val += x * V[i]
                        elif i == out_mark:
                            const += x * outside(t)
                        elif i == -2:
                            b0 += x
                        elif i == -3:
                            b1 += x
                        else:
                            more = (more or []) + [(-2 - i, x)]  # (then the first pass is not used)
                    acts.append((const, b0, b1, pairs, more))
                    val += const + b0 * x0 + b1 * x1
                    if best is None or sg * val > best:
                        best, arg, bv = sg * val, a, val
                add_v(bv)
                add_first(arg)
                add_plan(acts)
    m = len(cuts)
    if m == 0:
        return None
    if m <= 2:
        found = _rounds_two(plan, signs, cuts, m, [x0, x1][:m], first)
    else:
        general = []
        for acts in plan:
            out = []
            for const, b0, b1, pairs, more in acts:
                base = [0.0] * m
                base[0], base[1] = b0, b1
                for k, x in more or ():
                    base[k] += x
                out.append((const, base, pairs))
            general.append(out)
        found = _rounds_many(general, signs, cuts, m, list(start[:m]))
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
            for a, (const, base, pairs) in enumerate(acts):
                coef = list(base)
                for j, p in pairs:
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


def _rounds_two(plan, signs, cuts, m, x, pol):
    """:func:`_rounds_many` for one or two cuts (Hold, Pig: the two turn starts), the plan's actions
    as ``(c, a_0, a_1, [(inside state, probability)], _)``, from ``pol``, greedy at the start
    values ``x``.  Each round: the forms of the chosen actions as three lists of floats over the
    local states (``a_1 = 0`` for one cut; :func:`_forms_two`), the cut system, then the greedy values at its solution
    (``c + a_0 x_0 + a_1 x_1 + sum p V(t)``, one product per successor) and their policy
    (:func:`_greedy_two`)."""
    n = len(plan)
    V = [0.0] * n
    C, A0, A1 = [0.0] * n, [0.0] * n, [0.0] * n
    last = None  # the policy whose forms C, A0, A1 hold (None: none yet)
    for _ in range(ROUNDS - 1):
        _forms_two(plan, pol, last, C, A0, A1)
        x = _solve_cuts([(C[i], [A0[i], A1[i]][:m]) for i in cuts], m)
        if x is None:
            return None
        new = _greedy_two(plan, signs, pol, x[0], x[1] if m == 2 else 0.0, V)
        if new == pol:  # greedy for its own values x
            return pol, x
        last, pol = pol, new
    return None


def _forms_two(plan, pol, last, C, A0, A1) -> None:
    """The forms ``c + a_0 x_0 + a_1 x_1`` of the actions ``pol`` plays, in post-order, into ``C, A0, A1``.
    ``last``: the policy whose forms they hold: a state that plays the same action and none of whose
    inside successors' forms was recomputed keeps its form (recomputed, it would be the same floats)."""
    changed = bytearray(len(plan))  # whether the state's form was recomputed in this pass
    for i, acts in enumerate(plan):
        a = pol[i]
        c, a0, a1, pairs, _ = acts[a]
        if last is not None and last[i] == a:
            for j, _ in pairs:
                if changed[j]:
                    break
            else:
                continue
        for j, p in pairs:
            c += p * C[j]
            a0 += p * A0[j]
            a1 += p * A1[j]
        changed[i] = 1  # (recomputed: bit for bit the floats a full pass would give, signed zeros too)
        C[i], A0[i], A1[i] = c, a0, a1


def _greedy_two(plan, signs, pol, x0: float, x1: float, V: list) -> list[int]:
    """The greedy policy at the cut values ``x0, x1`` and its values ``V`` (post-order): the best
    action by the mover's sign, the first on a float tie; ``pol``'s action is kept unless another
    is better by more than rounding (relative ``_TINY``: an exact tie does not flip the rounds)."""
    new = [0] * len(plan)
    for i, acts in enumerate(plan):
        if len(acts) == 1:
            c, a0, a1, pairs, _ = acts[0]
            v = c + a0 * x0 + a1 * x1
            for j, p in pairs:
                v += p * V[j]
            V[i] = v
            continue
        sign = signs[i]
        best = None
        keep = pol[i]
        for a, (c, a0, a1, pairs, _) in enumerate(acts):
            v = c + a0 * x0 + a1 * x1
            for j, p in pairs:
                v += p * V[j]
            if a == keep:
                kv = v
            if best is None or sign * v > best:
                best, arg, bv = sign * v, a, v
        if arg != keep and best <= sign * kv + _TINY * (1.0 + abs(kv)):
            arg, bv = keep, kv  # not better by more than rounding (an exact tie): no switch, the rounds settle
        V[i] = bv
        new[i] = arg
    return new


def _solve_cuts(forms: list, m: int) -> list[float] | None:
    """``(I - A) x = c`` from the cuts' forms ``(c_k, [a_k0, ...])`` (in cut order), Gauss-Jordan with
    partial pivoting; ``None`` if singular or ill-conditioned.

    A policy that keeps play inside the component forever from some cut (a closed loop: the cuts'
    rows of ``A`` sum to 1) makes ``I - A`` singular; in floats its last pivot is a rounding residue
    (about 1e-16), not 0.  So a pivot counts as zero when it is at most ``_TINY`` times the largest
    entry of ``I - A`` itself (not of the reduced row, whose other entries are residues too), and
    each eliminated entry is set to exactly 0, so the diagonal keeps its pivots: no division by 0,
    and any overflow shows as a non-finite result, also ``None``.
    """
    rows = []
    for i, (const, coef) in enumerate(forms):
        row = [-a for a in coef]
        row[i] += 1.0
        row.append(const)
        rows.append(row)
    scale = max((abs(a) for row in rows for a in row[:m]), default=0.0) or 1.0
    for col in range(m):
        piv = max(range(col, m), key=lambda r: abs(rows[r][col]))
        if not abs(rows[piv][col]) > _TINY * scale:  # (not >: a NaN pivot is singular too)
            return None
        rows[col], rows[piv] = rows[piv], rows[col]
        prow = rows[col]
        for r in range(m):
            if r != col:
                f = rows[r][col] / prow[col]
                if f:
                    row = rows[r] = [a - f * b for a, b in zip(rows[r], prow)]
                    row[col] = 0.0
    out = [rows[i][m] / rows[i][i] for i in range(m)]
    if any(v != v or v in (float("inf"), float("-inf")) for v in out):
        return None
    return out
