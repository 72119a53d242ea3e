"""A component of several states: a float guess, then exact policy or strategy iteration.

Choices that do not feed back into the component (every action moves inside with the same
probabilities) are decided by their exits alone, then one exact evaluation (:func:`local_choices`).
Otherwise the choices belong to one objective ``c`` (:class:`~.structure.Structure` refuses the rest):

* a first policy from float policy iteration (:mod:`.float_guess`);
* the policy evaluated exactly (:func:`evaluate`: the states that cannot leave are worth 0, the others
  solve ``x = b + Q x`` by state elimination, :mod:`.elimination`, or from the floats when their simplest
  nearby fractions satisfy the system exactly, :mod:`.rational_guess`);
* improved only on a strict exact improvement (:func:`improve`): policy iteration for one side,
  Hoffman-Karp strategy iteration for both sides of a zero-sum game, the minimiser's best reply solved by
  policy iteration after the states where she can keep the value at 0 are fixed (:func:`zero_region`).

Under the reachability and reward witnesses the states of value 0 are fixed first (:func:`split`), and the rest, which
often falls apart into single states, is solved component by component.
"""

from __future__ import annotations

from ..model import ModelError
from .elimination import solve_transient
from .finish import finish
from .float_guess import float_guess
from .structure import local_choice

__all__ = ["cyclic", "split", "evaluate", "MAX_ROUNDS"]

MAX_ROUNDS = 10_000  # exact policy / strategy iteration rounds in one component
# the Markowitz count from which an exact evaluation hands its remaining unknowns to the dense solver
# (python-flint, :func:`.elimination.dense_solve`): a dense rest of up to about 16 unknowns is eliminated
# in the engine's numbers, cheaper than flint's import (0.07 s of CPU) and the conversions (benchmarks/qvbs.py:
# coupon 0.14 -> 0.11 s, crowds 0.48 -> 0.40 s of solve without flint; herman's 252-state rest still goes dense)
EXACT_FILL = 256


def cyclic(eng, comp: list[int], inside: set[int], has_ec: bool) -> None:
    sp = eng.sp
    eng.has_ec = has_ec
    eng.arrays = None  # (the float arrays of a large component, :meth:`array_guess`)
    choice = [s for s in comp if eng.is_choice(s)]
    pol = {s: 0 for s in comp}
    if not choice:
        evaluate(eng, comp, inside, pol, set())
        finish(eng, comp, {})
        return
    eng.stats.cyclic_with_choices += 1
    if all(local_choice(eng.sp, s, inside.__contains__) for s in choice):
        local_choices(eng, comp, inside, choice, pol)
        return
    objs = {eng.ckeys[sp.mover[s]][0] for s in choice}
    if len(objs) != 1 or None in objs:
        raise ModelError("choices of players with different objectives on one cycle")
    (c,) = objs
    maxers = [s for s in choice if eng.ckeys[sp.mover[s]][1] > 0]
    miners = [s for s in choice if eng.ckeys[sp.mover[s]][1] < 0]
    float_guess(eng, comp, inside, choice, pol, c)
    rounds = 0
    while True:
        rounds += 1
        if rounds > MAX_ROUNDS:
            raise ModelError(f"strategy iteration did not converge in {MAX_ROUNDS} rounds "
                             f"(component of {len(comp)} states)")
        if miners:
            min_reply(eng, comp, inside, pol, miners, c, has_ec)
        else:
            evaluate(eng, comp, inside, pol, set())
        if not maxers or not improve(eng, maxers, pol, c, 1):
            break
    st = eng.stats
    st.rounds += rounds
    st.max_rounds = max(st.max_rounds, rounds)
    evaluated = dict(pol)
    key = {s: eng.V[s][c] for s in comp}
    opt = {s: final_choice(eng, s, pol, c) for s in choice}
    finish(eng, comp, opt)
    final = {s: eng.policy[s] for s in comp}
    if final != evaluated:
        evaluate(eng, comp, inside, final, set())
        for s in comp:
            if eng.V[s][c] != key[s]:
                raise RuntimeError("internal error: the tie-broken policy changes the value at "
                                   f"{eng.model.state_name(s)}")


def local_choices(eng, comp, inside, choice, pol) -> None:
    """Choices that do not feed back into the component: each is decided by its exits alone
    (``r_a + sum_{t outside} p V(t)``, the inside part being the same for every action), then one
    exact evaluation."""
    sp, V = eng.sp, eng.V
    for s in choice:
        c, sign = eng.ckeys[sp.mover[s]]
        outs = []
        for a in range(sp.first[s], sp.first[s + 1]):
            r = eng.rw[a]
            x = r[c] if r is not None else eng.zero
            for k in range(sp.start[a], sp.start[a + 1]):
                t = sp.succ[k]
                if t not in inside and V[t][c]:
                    x = x + eng.bp[sp.pk[k]] * V[t][c]
            outs.append(sign * x)
        pol[s] = outs.index(max(outs))
    evaluate(eng, comp, inside, pol, set())
    opt = {s: final_choice(eng, s, pol, eng.ckeys[sp.mover[s]][0]) for s in choice}
    finish(eng, comp, opt)
    if any(eng.policy[s] != pol[s] for s in comp):
        raise RuntimeError("internal error: a local choice differs from its one-step optimum")


def evaluate(eng, comp, inside, pol, zero_set) -> None:
    """The exact values of ``comp`` under ``pol`` into ``V``: ``zero_set`` and the states that cannot
    leave are 0 (a reward there would be infinite: refused), the rest by :func:`.elimination.solve_transient`."""
    sp, V = eng.sp, eng.V
    eng.qs = {}  # (the action values :func:`improve` computes under these values)
    nodes = [s for s in comp if s not in zero_set]
    closed = eng.closed(nodes, inside - zero_set if zero_set else inside, pol) if eng.has_ec else set()
    for s in zero_set:
        V[s] = eng.vzero
    for s in closed:
        if eng.rw[sp.first[s] + pol[s]] is not None:
            raise ModelError(f"state {eng.model.state_name(s)}: play can go on forever here while "
                             "collecting a reward (infinite total reward)")
        V[s] = eng.vzero
    rest = [s for s in nodes if s not in closed]
    if not rest:
        return
    idx = {s: i for i, s in enumerate(rest)}
    P, zero = eng.P, eng.zero
    succ, pk, bp = sp.succ, sp.pk, eng.bp
    rows, b = [], []
    common = None  # the value of every exit while they are all equal and nothing is collected inside; else False
    for s in rest:
        a = sp.first[s] + pol[s]
        r = eng.rw[a]
        if r is not None:
            common = False
        bs = list(r) if r is not None else [zero] * P
        row = {}
        for k in range(sp.start[a], sp.start[a + 1]):
            t = succ[k]
            i = idx.get(t)
            p = bp[pk[k]]
            if i is not None:
                row[i] = p
            else:
                v = V[t]
                if common is None:
                    common = v
                elif common is not False and v is not common and v != common:
                    common = False
                for c in range(P):
                    if v[c]:
                        bs[c] = bs[c] + p * v[c]
        rows.append(row)
        b.append(bs)
    if common:  # every exit is worth v and play surely leaves: x = v solves x = b + Q x, its only solution
        for s in rest:
            V[s] = common
        return
    x = guessed(eng, comp, pol, rest, rows, b) if eng.arrays is not None and not zero_set else None
    for s, xs in zip(rest, x or solve_transient(rows, b, zero, eng.one, max_fill=EXACT_FILL)):
        V[s] = tuple(xs)


def guessed(eng, comp, pol, rest, rows, b):
    """The exact values of ``rest`` from the component's float evaluation of ``pol``, when their simplest
    nearby fractions satisfy the system exactly (:func:`.rational_guess.verified_guess`), else ``None``."""
    cf, order, cstart = eng.arrays
    if order is not comp or eng.P != 1:
        return None
    from .rational_guess import verified_guess

    np = cf.np
    x = cf.evaluate(np.asarray(cstart[:-1]) + np.asarray([pol[s] for s in comp]))
    pos = {s: i for i, s in enumerate(comp)}
    return verified_guess(rows, b, [x[pos[s]] for s in rest], eng.B.make)


def improve(eng, states, pol, c, sign) -> bool:
    """Switch each state to its best action when that is strictly better (exactly); True if any switched.
    The action values computed are kept (``eng.qs``, until the next evaluation) for :func:`final_choice`."""
    sp, qs = eng.sp, eng.qs
    switched = False
    for s in states:
        a0 = sp.first[s]
        cur = pol[s]
        vs = eng.V[s][c]
        q = []
        for a in range(a0, sp.first[s + 1]):
            if a - a0 == cur:
                q.append(vs)
            else:
                x = qs.get(a)
                if x is None:
                    x = qs[a] = eng.qkey(a, c)
                q.append(x)
        keyed = q if sign > 0 else [-x for x in q]
        best = max(keyed)
        if best > keyed[cur]:
            pol[s] = keyed.index(best)
            switched = True
    return switched


def final_choice(eng, s: int, pol, c: int) -> list[int]:
    """:meth:`Run.choose` at ``s`` from its action values under the last evaluation of ``pol``: the evaluated
    action's is ``V(s)`` itself (the evaluation solved ``V(s) = Q_pol(s)`` exactly; 0 where play cannot leave,
    whose actions then move among states of value 0), the others' those :func:`improve` computed, or
    ``Q_a = r_a + sum_t p_at V(t)``."""
    a0, a1 = eng.sp.first[s], eng.sp.first[s + 1]
    cur = a0 + pol[s]
    qs = eng.qs
    q = []
    for a in range(a0, a1):
        if a == cur:
            q.append(eng.V[s][c])
        else:
            x = qs.get(a)
            q.append(eng.qkey(a, c) if x is None else x)
    return eng.choose(s, q)


def min_reply(eng, comp, inside, pol, miners, c, has_ec) -> None:
    """The minimiser's best reply (policy iteration) with the maximiser's actions fixed in ``pol``;
    the states where she can keep play away from positive value forever are fixed to 0 first."""
    sp = eng.sp
    zero_set: set[int] = set()
    if has_ec:
        zero_set = zero_region(eng, comp, inside, pol, set(miners), c)
        for s in miners:
            if s in zero_set:
                pol[s] = next(a - sp.first[s] for a in range(sp.first[s], sp.first[s + 1])
                              if not (eng.rw[a] is not None and eng.rw[a][c] > 0) and all(sp.succ[k] in zero_set or (sp.succ[k] not in inside
                                                                 and not eng.V[sp.succ[k]][c])
                                     for k in range(sp.start[a], sp.start[a + 1])))
    free = [s for s in miners if s not in zero_set]
    while True:
        evaluate(eng, comp, inside, pol, zero_set)
        if not free or not improve(eng, free, pol, c, -1):
            return


def zero_region(eng, comp, inside, pol, miners: set[int], c: int) -> set[int]:
    """States of the component where the minimiser can keep play away from positive value forever:
    the complement of the least set ``P`` with ``s in P`` iff every action of ``s`` considered (all of a
    minimiser's, the policy's elsewhere) has a positive reward, or a successor in ``P`` or outside of positive
    value."""
    sp, V, rw = eng.sp, eng.V, eng.rw
    need: dict[int, int] = {}
    waiting: dict[int, list[int]] = {s: [] for s in comp}
    owner: list[int] = []
    hit = bytearray()
    stack = []
    for s in comp:
        acts = range(sp.first[s], sp.first[s + 1]) if s in miners else (sp.first[s] + pol[s],)
        open_count = 0
        for a in acts:
            i = len(owner)
            owner.append(s)
            r = rw[a]
            if r is not None and r[c] > 0:  # (the reward witness: an action of positive reward)
                hit.append(1)
                continue
            for k in range(sp.start[a], sp.start[a + 1]):
                t = sp.succ[k]
                if t in inside:
                    waiting[t].append(i)
                elif V[t][c] > 0:
                    hit.append(1)
                    break
            else:
                hit.append(0)
                open_count += 1
        need[s] = open_count
        if not open_count:
            stack.append(s)
    while stack:
        for i in waiting[stack.pop()]:
            if not hit[i]:
                hit[i] = 1
                s = owner[i]
                need[s] -= 1
                if not need[s]:
                    stack.append(s)
    return {s for s in comp if need[s]}


def split(eng, comp: list[int], inside: set[int]) -> bool:
    """Under the reachability and reward witnesses: fix the states of value 0 to 0 first -- those that reach
    no positive payoff or reward, and, where only a minimiser chooses, those where she can keep play away from it forever
    (:meth:`zero_region`) -- then solve the rest component by component (it falls apart into smaller
    ones, often into single states), and decide the zero states last.  False if there is nothing to fix."""
    sp, live, V = eng.sp, eng.live, eng.V
    zero = {s for s in comp if not live[s]}
    choice = [s for s in comp if eng.is_choice(s)]
    signs = {eng.ckeys[sp.mover[s]][1] for s in choice}
    if signs == {-1} and len(zero) < len(comp):  # (a component that reaches no positive payoff is all zero)
        pol = {s: 0 for s in comp}
        c = eng.ckeys[sp.mover[choice[0]]][0]
        zero |= zero_region(eng, comp, inside, pol, set(choice), c)
    if not zero:
        return False
    for s in zero:
        V[s] = eng.vzero
    if eng.witness_name == "reward":  # (the rest's ranks lead to them)
        for s in zero:
            eng.ranks[s] = 0
    rest = [s for s in comp if s not in zero]
    if rest:
        from .scc import components

        for sub in components(sp.n, sp.first, sp.start, sp.succ, nodes=rest)[0]:
            eng.component(sub)
    opt = {}
    for s in zero:
        if eng.is_choice(s):
            c = eng.ckeys[sp.mover[s]][0]
            opt[s] = eng.choose(s, eng.qkeys(sp.first[s], sp.first[s + 1], c))
    finish(eng, sorted(zero), opt)
    return True
