"""The float guess of a component's policy: policy iteration in doubles, inside one component.

The outside values are solved (their floats are read); each action's float ``base`` is its reward plus
``sum_{t outside} p V(t)``.  From the policy that is greedy with the inside valued 0, rounds of: evaluate the
policy in floats (the states that cannot leave are worth 0, the rest by the same state elimination as the
exact evaluation), then switch every choice whose best action beats its current one by more than a
relative ``FLOAT_SWITCH``.  Both sides of a game switch in the same round: only a guess, which the exact
iteration proves or improves.  Components from ``MIN_FLOAT_ARRAYS`` states on run it in numpy and scipy
(:mod:`.float_policy`) and keep the arrays for the exact evaluations' rational guesses; components of
``DENSE_FROM`` to ``DENSE_TO`` states run the same rounds on dense numpy arrays built once
(:func:`dense_guess`: every choice's value ``base + M x`` in one product, each evaluation one LAPACK solve)
when they are large enough in all to pay for numpy's import (``DENSE_WORK``);
the smaller and the larger ones in plain Python, each evaluation by the state elimination.
"""

from __future__ import annotations

from operator import mul

from .elimination import solve_transient

__all__ = ["float_guess", "FLOAT_ROUNDS", "FLOAT_SWITCH", "MIN_FLOAT_ARRAYS", "ARRAY_WORK", "DENSE_WORK"]

FLOAT_ROUNDS = 200  # float policy iteration rounds of the guess in one component
FLOAT_SWITCH = 1e-12  # relative improvement a float round needs to switch an action
DENSE_FROM, DENSE_TO = 12, 500  # components of so many states are guessed on dense arrays (:func:`dense_guess`) ...
DENSE_WORK = 100_000  # ... when their squared sizes add up to this: the dense rounds save about 1 us per k^2 of a
# k-state component, numpy's import costs 0.1 s (benchmarks/qvbs.py: tireworld, 255 of 16 states, 0.40 -> 0.32 s
# of solve without numpy; consensus, 24 of 246 and 32 of 58, 1.6 M, 0.20 -> 0.12 s of guesses with it)
MIN_FLOAT_ARRAYS = 400  # components of at least this many states are guessed in numpy (:mod:`.float_policy`) ...
ARRAY_WORK = 4000  # ... when they hold this many states in all: else importing scipy costs more than it saves
# (benchmarks/qvbs.py: cdrive, 1,900 such states, 0.31 s without, 0.65 s with; consensus, 8,300, 2.6 -> 2.3 s)


def float_guess(eng, comp, inside, choice, pol, c) -> None:
    """Float policy iteration inside the component (both sides switching to their best action by more
    than a relative ``FLOAT_SWITCH``), from the policy that is greedy with the inside valued 0: a guess
    that the exact iteration then proves or improves.  A large component runs it in numpy and scipy
    (:mod:`.float_policy`), and keeps the arrays for the exact evaluations' guesses (:meth:`evaluate`)."""
    sp = eng.sp
    succ, pk, fp = sp.succ, sp.pk, eng.fp
    base: dict[int, float] = {}  # per action: reward + outside part, in floats
    ins: dict[int, list] = {}  # per action: (position, probability) inside
    idx = {s: i for i, s in enumerate(comp)}
    for s in comp:
        for a in range(sp.first[s], sp.first[s + 1]):
            r = eng.rw[a]
            x = float(r[c]) if r is not None else 0.0
            part = []
            for k in range(sp.start[a], sp.start[a + 1]):
                t = succ[k]
                if t in inside:
                    part.append((idx[t], fp[pk[k]]))
                else:
                    x += fp[pk[k]] * eng.vfloat(t, c)
            base[a] = x
            ins[a] = part
    signs = {s: eng.ckeys[sp.mover[s]][1] for s in choice}
    if len(comp) >= MIN_FLOAT_ARRAYS and array_work(eng) >= ARRAY_WORK:
        array_guess(eng, comp, pol, base, ins, signs)
        return
    if DENSE_FROM <= len(comp) <= DENSE_TO and dense_work(eng) >= DENSE_WORK:
        dense_guess(eng, comp, inside, pol, base, ins, signs)
        return
    val = [0.0] * len(comp)
    # per action the positions and the probabilities inside, apart: each sum one C-level pass (map, mul)
    where = {a: [i for i, _ in part] for a, part in ins.items()}
    probs = {a: [p for _, p in part] for a, part in ins.items()}
    for rounds in range(FLOAT_ROUNDS):
        switched = False
        at = val.__getitem__
        for s in choice:
            a0 = sp.first[s]
            sign = signs[s]
            qs = [sign * (base[a] + sum(map(mul, probs[a], map(at, where[a])))) for a in range(a0, sp.first[s + 1])]
            cur = qs[pol[s]]
            best = max(qs)
            if best > cur + FLOAT_SWITCH * max(1.0, abs(cur)) or (rounds == 0 and best > cur):
                pol[s] = qs.index(best)
                switched = True
        if not switched and rounds:
            return
        val = float_evaluate(eng, comp, inside, pol, base, ins)


def array_work(eng) -> int:
    """The states of the model's components of at least ``MIN_FLOAT_ARRAYS`` states (counted once)."""
    work = getattr(eng, "array_states", None)
    if work is None:
        comps = getattr(eng, "comps", None) or []
        work = eng.array_states = sum(len(c) for c in comps if len(c) >= MIN_FLOAT_ARRAYS)
    return work


def dense_work(eng) -> int:
    """The squared sizes of the model's components of ``DENSE_FROM`` to ``DENSE_TO`` states, added (counted once)."""
    work = getattr(eng, "dense_states", None)
    if work is None:
        comps = getattr(eng, "comps", None) or []
        work = eng.dense_states = sum(len(c) ** 2 for c in comps if DENSE_FROM <= len(c) <= DENSE_TO)
    return work


def array_guess(eng, comp, pol, base, ins, signs) -> None:
    """:meth:`float_guess` on arrays (:class:`.float_policy.ComponentFloats`): from the greedy policy with
    the inside valued 0, then policy iteration."""
    from .float_policy import ComponentFloats

    sp = eng.sp
    state_of, cstart, sign, bases, tc, tt, tp = [], [0], [], [], [], [], []
    for i, s in enumerate(comp):
        for a in range(sp.first[s], sp.first[s + 1]):
            j = len(bases)
            state_of.append(i)
            bases.append(base[a])
            for t, p in ins[a]:
                tc.append(j)
                tt.append(t)
                tp.append(p)
        cstart.append(len(bases))
        sign.append(signs.get(s, 1))
    cf = ComponentFloats(len(comp), state_of, cstart, sign, bases, tc, tt, tp)
    np = cf.np
    local = np.asarray(cstart[:-1]) + np.asarray([pol[s] for s in comp])
    cf.improve(local, np.zeros(len(comp)), 0.0)
    local, x = cf.iterate(local, FLOAT_ROUNDS, FLOAT_SWITCH)
    for i, s in enumerate(comp):
        pol[s] = int(local[i]) - cstart[i]
    eng.arrays = (cf, comp, cstart)


def dense_guess(eng, comp, inside, pol, base, ins, signs) -> None:
    """:func:`float_guess` on a component of ``DENSE_FROM`` to ``DENSE_TO`` states in dense numpy arrays, built
    once: ``M[a, j]`` the probability of choice ``a`` moving to the ``j``-th state, every choice's value
    ``base + M x`` in one product, each evaluation ``(I - M_pol) x = base_pol`` one LAPACK solve (the states
    that cannot leave under the policy left out, worth 0).  The same rounds as the plain loop."""
    import numpy as np

    sp = eng.sp
    k = len(comp)
    acts = [a for s in comp for a in range(sp.first[s], sp.first[s + 1])]
    m = len(acts)
    cstart = [0] * (k + 1)
    r_idx, c_idx, ps = [], [], []
    for j, a in enumerate(acts):
        part = ins[a]
        r_idx.extend([j] * len(part))
        for t, p in part:
            c_idx.append(t)
            ps.append(p)
    for i, s in enumerate(comp):
        cstart[i + 1] = cstart[i] + sp.first[s + 1] - sp.first[s]
    M = np.zeros((m, k))
    M[r_idx, c_idx] = ps  # (the successors of a choice are distinct: no index twice)
    b = np.array([base[a] for a in acts])
    first = np.array(cstart[:-1])
    state_of = np.repeat(np.arange(k), np.diff(cstart))
    sign = np.array([signs.get(s, 1) for s in comp], dtype=np.float64)[state_of]
    local = first + np.array([pol[s] for s in comp])
    x = np.zeros(k)
    eye = np.eye(k)
    for rounds in range(FLOAT_ROUNDS):
        sq = (b + M @ x) * sign
        best = np.maximum.reduceat(sq, first)
        cur = sq[local]
        better = best > cur + FLOAT_SWITCH * np.maximum(1.0, np.abs(cur)) if rounds else best > cur
        if better.any():
            at_best = np.flatnonzero(sq >= best[state_of])
            states, firsts = np.unique(state_of[at_best], return_index=True)
            first_best = np.empty(k, dtype=np.int64)
            first_best[states] = at_best[firsts]
            local[better] = first_best[better]
        elif rounds:
            break
        x = _dense_evaluate(eng, comp, inside, pol, local - first, M[local], b[local], eye)
    for i, s in enumerate(comp):
        pol[s] = int(local[i] - first[i])


def _dense_evaluate(eng, comp, inside, pol, chosen, Mp, bp, eye):
    """The float values under the local choices ``chosen``: ``(I - Mp) x = bp`` on the states that can leave."""
    import numpy as np

    x = np.zeros(len(comp))
    if eng.has_ec:
        for i, s in enumerate(comp):
            pol[s] = int(chosen[i])
        closed = eng.closed(comp, inside, pol)
        if closed:
            rest = np.array([i for i, s in enumerate(comp) if s not in closed], dtype=np.int64)
            if not len(rest):
                return x
            Mp, bp, eye = Mp[np.ix_(rest, rest)], bp[rest], np.eye(len(rest))
            try:
                x[rest] = np.linalg.solve(eye - Mp, bp)
            except np.linalg.LinAlgError:  # (a float round-off made a leaving state look closed): keep the guess
                pass
            return x
    try:
        return np.linalg.solve(eye - Mp, bp)
    except np.linalg.LinAlgError:
        return x


def float_evaluate(eng, comp, inside, pol, base, ins) -> list[float]:
    sp = eng.sp
    closed = eng.closed(comp, inside, pol) if eng.has_ec else set()
    rest = [i for i, s in enumerate(comp) if s not in closed]
    val = [0.0] * len(comp)
    if not rest:
        return val
    pos = {i: j for j, i in enumerate(rest)}
    rows, b = [], []
    for i in rest:
        a = sp.first[comp[i]] + pol[comp[i]]
        rows.append({pos[j]: p for j, p in ins[a] if j in pos})
        b.append([base[a]])
    try:
        x = solve_transient(rows, b, 0.0, 1.0)
    except ZeroDivisionError:  # (a float round-off made a leaving state look closed): keep the guess
        return val
    for i, xi in zip(rest, x):
        val[i] = xi[0]
    return val
