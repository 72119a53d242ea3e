"""Dyadic enclosures ``L <= V <= U`` of every value, as fixed points of the outward-rounded operator.

With ``T`` the Bellman operator of the value component and ``floor_k``/``ceil_k``
the roundings to the grid ``2^-k``, the enclosure satisfies, at every state,

    L = floor_k(T(L)),        U = ceil_k(T(U))

(terminals: the rounded payoff).  So ``L <= T(L)`` and ``T(U) <= U``: ``L`` is a
sub-solution and ``U`` a super-solution of the Bellman equations, which is what
:mod:`exactplay.checker.ball_model` turns into ``L <= V <= U`` (its docstring
has the theorem).  Being *exact* fixed points of the rounded operator, the ends
are determined state by state by their successors: the certificate stores them
only at a feedback vertex set (every cycle of the model passes through one),
and any other stored value would not reproduce itself.

How they are found, component by component, sink-first (Tarjan):

* a state outside any cycle: one rounded step from its successors;
* a cyclic component: a feedback vertex set ``F`` (the targets of the back edges
  of a depth-first search), the rest ``O`` in successors-first order.  Centres:
  policy iteration at ``k + GUARD`` bits on the unknowns ``F`` (the policy's
  values are affine in them, one exact ``|F| x |F|`` solve per round, switching
  where another action is better by more than ``2^-(k+8)``).  Ends: ``F`` is set
  ``r`` grid steps below the centre (above, for ``U``), ``O`` derived by rounded
  steps, and the start is accepted when every ``f`` in ``F`` satisfies
  ``L_f <= floor_k(T(L))_f`` (``r`` grows x16 until it does); from such a
  sub-solution Gauss-Seidel sweeps of ``floor_k(T(.))`` only increase ``L`` and
  stop, on the finite grid, at a fixed point.  The rounded operator has a range of
  fixed points (about ``1/(1 - lambda)`` grid steps, ``lambda`` the probability of
  coming back); each ``f`` is then raised one step at a time while that keeps a
  sub-solution (lowered, for ``U``), so the stored ends are the extreme fixed
  point in every feedback coordinate, which the checker requires when every play
  ends: a stored end moved by a single step is refused.  (Where plays may go on
  forever, a maximiser's self-loop ``x = max(x, ...)`` keeps every raised ``x`` a
  sub-solution: there is no extreme point, and the ends are left where the
  sweeps stop.)
* where plays may go on forever the checker also requires a *ranking* of every
  ``L > 0`` (``U < 0``) towards a payoff of that sign (:mod:`.ranking`).  A fixed
  point reached from near the centres can be true and unrankable: a cycle that
  holds its own rounded end one step above what the action leaving it is worth.
  Such a component is settled again from the start clipped at 0
  (``L_f = min(centre - r, 0)``, ``U_f = max(centre + r, 0)``): from there no
  such trap can form (:mod:`.ranking` has the argument), so its ends are ranked;
  they may lie a few grid steps further from the value.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from fractions import Fraction

from ..errors import UsageError
from ..graph import tarjan
from ..progress import SILENT
from .form import IntForm
from .ranking import Rankings

__all__ = ["GUARD", "Enclosure", "NotEnclosed", "dyadic_enclosure"]

GUARD = 32  # extra bits of the centres
SHIFTS = (0, 4, 64, 1024, 1 << 14, 1 << 18, 1 << 22)  # grid steps between the centre and a start of the ends
MAX_FEEDBACK = 64
WARM = 3
ROUNDS = 20
MAX_SWEEPS = 200_000


class NotEnclosed(ArithmeticError):
    """No sub- or super-solution was found near the centres of a component (precision too low)."""


@dataclass
class Enclosure:
    k: int
    lower: list  # integers: L = lower * 2^-k
    upper: list
    feedback: list  # sorted states whose ends the certificate stores
    components: int = 0
    cyclic: int = 0
    sweeps: int = 0  # Gauss-Seidel sweeps of the rounded operator over cyclic components (both ends)
    policy_rounds: int = 0
    max_shift: int = 0
    reranked: int = 0  # ends of a cyclic component settled again from a start clipped at 0 (unranked first)
    seconds: float = 0.0


def dyadic_enclosure(form: IntForm, k: int, progress=SILENT) -> Enclosure:
    """The enclosure of every value of ``form``'s model on the grid ``2^-k`` (see the module)."""
    if k < 8:
        raise UsageError(f"--prec {k}: give at least 8 bits")
    start = time.perf_counter()
    n = len(form)
    succ = form.succ
    K = k + GUARD
    L, U, X = [0] * n, [0] * n, [0] * n
    comps = tarjan(succ)
    out = Enclosure(k, L, U, [], len(comps))
    progress.start(f"enclosures of {n:,} values on the grid 2^-{k} ({len(comps):,} components)", n)
    feedback = []
    ranks = None if form.terminates else Rankings(form, k)
    for comp in comps:
        s = comp[0]
        if len(comp) == 1 and s not in succ[s]:
            if form.term[s] is not None:
                L[s], U[s] = form.terminal_ends(s, k)
                X[s] = form.terminal_ends(s, K)[0]
            else:
                L[s], U[s], X[s] = form.floor(s, L, k), form.ceil(s, U, k), form.floor(s, X, K)
            if ranks is not None:  # one rounded step from ranked successors: ranked (see .ranking)
                _ranked(ranks, comp, L, 1)
                _ranked(ranks, comp, U, -1)
            progress.advance()
            continue
        out.cyclic += 1
        F, O = feedback_split(comp, succ)
        if len(F) > MAX_FEEDBACK:
            raise UsageError(f"a cyclic component of {len(comp):,} states needs {len(F)} feedback states, more than "
                             f"{MAX_FEEDBACK}: no ball certificate for this model")
        out.policy_rounds += _centres(form, F, O, X, K)
        for lower, E in ((True, L), (False, U)):
            sweeps, r = _ends(form, F, O, X, K, k, E, lower)
            if ranks is not None and ranks.rank(comp, E, 1 if lower else -1):
                out.reranked += 1
                more, r = _ends(form, F, O, X, K, k, E, lower, clip=True)
                sweeps += more
                _ranked(ranks, comp, E, 1 if lower else -1)
            out.sweeps += sweeps
            out.max_shift = max(out.max_shift, r)
        feedback.extend(F)
        progress.advance(len(comp))
    out.feedback = sorted(feedback)
    out.seconds = time.perf_counter() - start
    return out


def feedback_split(comp: list, succ: list) -> tuple[list, list]:
    """``(F, O)``: the targets of the back edges of a depth-first search of ``comp`` (every cycle has
    one, so ``comp - F`` is acyclic), and ``comp - F`` in successors-first order."""
    inside = set(comp)
    F: set = set()
    seen: set = set()
    for root in comp:
        if root in seen:
            continue
        seen.add(root)
        on = {root}
        stack = [(root, iter(succ[root]))]
        while stack:
            v, it = stack[-1]
            for w in it:
                if w not in inside:
                    continue
                if w in on:
                    F.add(w)
                elif w not in seen:
                    seen.add(w)
                    on.add(w)
                    stack.append((w, iter(succ[w])))
                    break
            else:
                stack.pop()
                on.discard(v)
    rest = inside - F
    O: list = []
    seen = set()
    for root in comp:
        if root in F or root in seen:
            continue
        seen.add(root)
        stack = [(root, iter(succ[root]))]
        while stack:
            v, it = stack[-1]
            for w in it:
                if w in rest and w not in seen:
                    seen.add(w)
                    stack.append((w, iter(succ[w])))
                    break
            else:
                stack.pop()
                O.append(v)
    return sorted(F), O


def _best(form: IntForm, s: int, X: list, K: int, current: int | None, tol: int) -> tuple[int, int]:
    """``(action, value)``: the optimal action at ``X`` (``current`` kept unless beaten by more than ``tol``)."""
    vals = [num // den for num, den in (form.q_exact(s, a, X, K) for a in range(len(form.acts[s])))]
    sign = form.sign[s]
    a = max(range(len(vals)), key=lambda i: sign * vals[i])
    if current is not None and sign * (vals[a] - vals[current]) <= tol:
        a = current
    return a, vals[a]


def _centres(form: IntForm, F: list, O: list, X: list, K: int) -> int:
    """Policy iteration on the feedback unknowns; leaves the centres in ``X``; returns its rounds."""
    for f in F:
        X[f] = 0
    for _ in range(WARM):  # a few value-iteration sweeps: a first policy
        for s in O + F:
            X[s] = form.floor(s, X, K)
    tol = 1 << (GUARD - 8)
    pol = {s: _best(form, s, X, K, None, tol)[0] for s in O + F}
    index = {f: j for j, f in enumerate(F)}
    m = len(F)
    unit = 1 << K
    for rounds in range(1, ROUNDS + 1):
        forms: dict = {}
        for s in O + F:
            D, pairs, rew = form.acts[s][pol[s]]
            coef, const = [0] * m, 0
            for t, w in pairs:
                j = index.get(t)
                if j is not None:
                    coef[j] += w * unit
                elif t in forms:
                    ct, kt = forms[t]
                    for i in range(m):
                        coef[i] += w * ct[i]
                    const += w * kt
                else:
                    const += w * X[t]
            coef = [x // D for x in coef]
            const = const // D
            if rew is not None:
                r = rew * unit
                const += r.numerator // r.denominator
            if s in index:
                forms[("T", s)] = (coef, const)
            else:
                forms[s] = (coef, const)
        # x_i 2^K = sum_j coef_ij x_j + const_i
        A = [[Fraction(unit if i == j else 0) - forms[("T", F[i])][0][j] for j in range(m)] + [
            Fraction(forms[("T", F[i])][1])] for i in range(m)]
        x = _solve(A)
        if x is None:  # singular: the policy never ends play; keep the value-iteration centres
            return rounds
        for f, v in zip(F, x):
            v = v * unit
            X[f] = v.numerator // v.denominator
        switched = False
        for s in O + F:
            a, v = _best(form, s, X, K, pol[s], tol)
            if s not in index:
                num, den = form.q_exact(s, pol[s], X, K)
                X[s] = num // den
            if a != pol[s]:
                pol[s] = a
                switched = True
        if not switched:
            return rounds
    return ROUNDS


def _solve(A: list) -> list | None:
    """Gauss-Jordan over the rationals on the augmented matrix ``A``; None if singular."""
    m = len(A)
    for col in range(m):
        piv = next((r for r in range(col, m) if A[r][col] != 0), None)
        if piv is None:
            return None
        A[col], A[piv] = A[piv], A[col]
        p = A[col][col]
        A[col] = [x / p for x in A[col]]
        for r in range(m):
            if r != col and A[r][col] != 0:
                f = A[r][col]
                A[r] = [x - f * y for x, y in zip(A[r], A[col])]
    return [A[i][m] for i in range(m)]


def _ranked(ranks: Rankings, comp: list, E: list, d: int) -> None:
    """Rank ``comp``'s ends ``E`` (``d = 1``: lower, ``-1``: upper); one without a ranking here
    (a state outside cycles, or after the clipped start) is a bug of this module."""
    bad = ranks.rank(comp, E, d)
    if bad:  # pragma: no cover - excluded by the argument of .ranking
        raise AssertionError(f"internal error: the {'lower' if d > 0 else 'upper'} end of state {bad[0]} has no "
                             "ranking")


def _ends(form: IntForm, F: list, O: list, X: list, K: int, k: int, E: list, lower: bool,
          clip: bool = False) -> tuple[int, int]:
    """Set ``E`` on the component to the fixed point of the rounded operator; returns (sweeps, shift).
    With ``clip`` the start is at most 0 (at least 0, for ``U``): its fixed point is ranked."""
    shift = K - k
    step = form.floor if lower else form.ceil
    centre = [X[f] >> shift if lower else -((-X[f]) >> shift) for f in F]
    for r in SHIFTS:
        for f, c in zip(F, centre):
            E[f] = c - r if lower else c + r
            if clip:
                E[f] = min(E[f], 0) if lower else max(E[f], 0)
        for s in O:
            E[s] = step(s, E, k)
        if all((E[f] <= step(f, E, k)) if lower else (E[f] >= step(f, E, k)) for f in F):
            break
    else:
        raise NotEnclosed(f"no {'sub' if lower else 'super'}-solution within {SHIFTS[-1]} grid steps of the centres "
                          f"of a component of {len(F) + len(O)} states at 2^-{k}: raise --prec")
    sweeps = _settle(step, F + O, E, k, lower)
    d = 1 if lower else -1
    moved = form.terminates  # where plays may go on forever a self-loop of a maximiser has no extreme point
    while moved:  # the extreme fixed point in each feedback coordinate (what the checker requires)
        moved = False
        for f in F:
            saved = [E[s] for s in O]
            E[f] += d
            for s in O:
                E[s] = step(s, E, k)
            img = step(f, E, k)
            if (E[f] <= img) if lower else (E[f] >= img):  # still a sub- (super-) solution: keep, settle
                moved = True
                sweeps += _settle(step, F + O, E, k, lower)
            else:
                E[f] -= d
                for s, v in zip(O, saved):
                    E[s] = v
    return sweeps, r


def _settle(step, order: list, E: list, k: int, lower: bool) -> int:
    """Gauss-Seidel sweeps of the rounded operator from a sub- (super-) solution to a fixed point."""
    for sweeps in range(1, MAX_SWEEPS + 1):
        changed = False
        for s in order:
            v = step(s, E, k)
            if v != E[s]:
                if (v < E[s]) if lower else (v > E[s]):  # pragma: no cover - the invariant of a sub-solution
                    raise AssertionError("the rounded operator moved an end the wrong way")
                E[s] = v
                changed = True
        if not changed:
            return sweeps
    raise NotEnclosed(f"the rounded operator did not settle in {MAX_SWEEPS} sweeps at 2^-{k}")
