"""The engine's fixed structure evaluated in balls: enclosures of every value, certified decisions.

The components are the exact engine's (Tarjan, sink-first, :mod:`exactplay.graph`)
and the games refused are the same (:func:`~exactplay.engine.solve.witness_kind`).
Each component is evaluated in python-flint ``arb`` balls at ``prec`` bits:

* one state without a self-loop: one Bellman step, ``Q_a = r_a + sum p V(t)``;
* one state with a self-loop: per action ``Q_a = (r_a + sum_{t != s} p V(t)) / (1 - p_ss)``
  (``p_ss = 1``: 0, a play that never ends);
* a larger component: a ball linear solve (``arb_mat.solve``) of
  ``(I - P_pi) V = r_pi + P_pi,exit V_exit`` under the policy of float value
  iteration (the states from which ``pi`` never leaves the component are 0, found by a
  graph search, and left out: the system is then invertible), then a Bellman step in balls at every choice state: where another
  action's ball lies above the policy's, the policy switches and the
  component is solved again (at most :data:`ROUNDS` times).

At a choice state the mover's component is enclosed by ``best_of`` (the max
of the keyed balls, sound whichever action wins); the other players'
components by the union of the balls of every action that may be optimal.  A
decision is *certified* when the winner's ball lies above every other, else
*unresolved at this precision*.

Why the values of a larger component are enclosures: its balls contain the
exact values of the policy ``pi`` (``arb_mat.solve`` encloses the solution of a
linear system whose entries are balls containing the exact ones).  When every
decision in the component is certified and agrees with ``pi``, ``pi`` is greedy
for its own exact values, i.e. those values solve the Bellman equations; the
engine accepts cycles with choices only when play ends under every strategy
(witness ``termination``) or choices do not feed back into their cycle
(``policy``), where the Bellman equations have one solution -- so the balls
contain the game's values.  A component whose decisions stay unresolved (an
exact tie on a cycle, or a gap below the precision) is not certified:
:class:`Unresolved` is raised (``--backend auto`` then solves exactly).
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from fractions import Fraction

from flint import arb, arb_mat, fmpq

from ..errors import UsageError
from ..model import Model
from ..numbers.backends import best_of, get_backend
from ..progress import SILENT
from .elimination import closed_states

__all__ = ["BallSolution", "Unresolved", "ball_solve", "MAX_DENSE"]

ROUNDS = 8
MAX_DENSE = 3000  # states of one cyclic component solved by a dense ball linear solve
SAMPLE = 10


class Unresolved(ArithmeticError):
    """A cyclic component whose decisions balls cannot certify at this precision."""


@dataclass
class BallSolution:
    model: Model
    prec: int
    components: list[int]
    values: list  # per state, a tuple of balls (one per certified payoff component)
    policy: list  # per state the action with the largest midpoint (None at terminal states)
    decisions: int = 0
    certified: int = 0
    unresolved: list = field(default_factory=list)  # the first SAMPLE unresolved choice states
    q: dict = field(default_factory=dict)  # choice state -> each action's ball in the mover's component
    cyclic: int = 0
    seconds: float = 0.0

    @property
    def unresolved_count(self) -> int:
        return self.decisions - self.certified

    @property
    def value(self) -> tuple:
        return self.values[self.model.initial]


def ball_solve(model: Model, prec: int, progress=SILENT) -> BallSolution:
    """Every value of ``model`` as a ``prec``-bit ball containing the exact value."""
    B = get_backend("ball", prec)
    with B.precision():
        return _BallEngine(model, B, progress).run()


def _q(x: Fraction) -> arb:
    return arb(fmpq(x.numerator, x.denominator))


class _BallEngine:
    def __init__(self, model: Model, B, progress) -> None:
        from ..model.sparse import Sparse
        from .run import Run

        self.m, self.B, self.progress = model, B, progress
        n = len(model)
        self.succ = [sorted(model.successors(s)) for s in range(n)]
        shape = Run(model, Sparse.from_model(model), get_backend("mpq"), SILENT)
        shape.condense()  # the exact engine's components, end components and witness
        self.comps = shape.comps
        self.witness, comps = shape.witness_name, shape.reported
        if self.witness == "reachability" or self.witness == "reward":
            raise UsageError("--backend ball does not solve " + (
                "choices on cycles where play can go on forever (a reachability game)" if self.witness == "reachability"
                else "rewards where play can go on forever (the reward witness)") + ": use --backend mpq or auto")
        self.P = len(comps)
        idx = {c: i for i, c in enumerate(comps)}
        self.keys = [(idx.get(c), sign) for c, sign in model.keys()]
        self.dist = [[tuple((t, _q(p)) for t, p in d) for d in acts] for acts in model.trans]
        self.rew = [[None if r is None else tuple(_q(r[c]) for c in comps) for r in rs] for rs in model.rewards]
        zero = B.zero
        self.V = [None if p is None else tuple(_q(p[c]) for c in comps) for p in model.terminal]
        self.zero_vec = tuple([zero] * self.P)
        self.sol = BallSolution(model, B.prec, comps, self.V, [None] * n)

    def run(self) -> BallSolution:
        start = time.perf_counter()
        flt = None
        self.progress.start(f"{len(self.m):,} states in {len(self.comps):,} components ({self.B.prec}-bit balls)",
                            len(self.m))
        for comp in self.comps:
            if len(comp) == 1 and comp[0] not in self.succ[comp[0]]:
                self._choose(comp[0], [self._bellman(comp[0], a) for a in range(len(self.dist[comp[0]]))])
            elif len(comp) == 1:
                self._choose(comp[0], [self._loop(comp[0], a) for a in range(len(self.dist[comp[0]]))])
            else:
                if flt is None:
                    from .value_iteration import value_iteration

                    flt = value_iteration(self.m)
                self._cyclic(comp, flt.policy)
            self.progress.advance(len(comp))
        self.sol.seconds = time.perf_counter() - start
        return self.sol

    # ---------------------------------------------------------------- Bellman pieces in balls

    def _bellman(self, s: int, a: int, local: dict | None = None) -> list:
        """``r_a + sum p V(t)`` per certified component."""
        if self.V[s] is not None and local is None and self.m.terminal[s] is not None:
            return list(self.V[s])
        r = self.rew[s][a]
        out = list(r) if r is not None else list(self.zero_vec)
        for t, p in self.dist[s][a]:
            v = local[t] if local is not None and t in local else self.V[t]
            for c in range(self.P):
                out[c] += p * v[c]
        return out

    def _loop(self, s: int, a: int) -> list:
        """The self-loop closed form ``(r_a + sum_{t != s} p V(t)) / (1 - p_ss)``."""
        d = self.dist[s][a]
        stay = sum((p for t, p in d if t == s), self.B.zero)
        exact_stay = sum((p for t, p in self.m.trans[s][a] if t == s), Fraction(0))
        if exact_stay == 1:
            if self.rew[s][a] is not None:
                raise UsageError(f"state {self.m.state_name(s)}: action {self.m.actions[s][a]!r} loops forever "
                                 "while collecting a reward (infinite total reward)")
            return list(self.zero_vec)
        r = self.rew[s][a]
        acc = list(r) if r is not None else list(self.zero_vec)
        for t, p in d:
            if t != s:
                for c in range(self.P):
                    acc[c] += p * self.V[t][c]
        leave = self.B.one - stay
        return [x / leave for x in acc]

    def _choose(self, s: int, qs: list, count: bool = True) -> tuple[int, bool]:
        """Set ``V[s]`` from the action values ``qs``; returns (winner, certified)."""
        if self.m.terminal[s] is not None:
            return None, True
        mover = self.m.mover[s]
        if mover is None or len(qs) == 1:
            self.V[s] = tuple(qs[0])
            self.sol.policy[s] = 0
            return 0, True
        c, sign = self.keys[mover]
        keyed = [sign * q[c] for q in qs]
        self.sol.q[s] = [q[c] for q in qs]
        top, win, sure = best_of(self.B, keyed)
        if sure:
            value = tuple(qs[win])
        else:
            low = top.lower()  # actions whose ball lies entirely below the max cannot be optimal
            maybe = [a for a, k in enumerate(keyed) if not (k < low)]
            value = tuple(qs[win][i] if i == c else _union(qs[a][i] for a in maybe) for i in range(self.P))
            value = value[:c] + (sign * top,) + value[c + 1:]
        self.V[s] = value
        self.sol.policy[s] = win
        if count:
            self.sol.decisions += 1
            if sure:
                self.sol.certified += 1
            elif len(self.sol.unresolved) < SAMPLE:
                self.sol.unresolved.append(s)
        return win, sure

    # ---------------------------------------------------------------- cyclic components

    def _cyclic(self, comp: list[int], float_policy: list) -> None:
        if len(comp) > MAX_DENSE:
            raise UsageError(f"--backend ball: a cyclic component of {len(comp):,} states is beyond the dense ball "
                             f"linear solve's limit {MAX_DENSE:,}: use --backend mpq")
        self.sol.cyclic += 1
        pol = {s: (float_policy[s] or 0) for s in comp}
        for _ in range(ROUNDS):
            local = self._solve_policy(comp, pol)
            switched, open_ = [], []
            for s in comp:
                qs = [self._bellman(s, a, local) for a in range(len(self.dist[s]))]
                if self.m.mover[s] is None or len(qs) == 1:
                    continue
                c, sign = self.keys[self.m.mover[s]]
                self.sol.q[s] = [q[c] for q in qs]
                _, win, sure = best_of(self.B, [sign * q[c] for q in qs])
                if sure and win != pol[s]:
                    switched.append((s, win))
                elif not sure:
                    open_.append(s)
            if switched:
                pol.update(switched)
                continue
            if open_:
                raise Unresolved(f"{len(open_)} choice(s) on a cycle (e.g. state {self.m.state_name(open_[0])}) are "
                                 f"not decided by {self.B.prec}-bit balls (an exact tie or a smaller gap): "
                                 "use --backend auto or a larger --prec")
            for s in comp:
                self.V[s] = tuple(local[s])
                self.sol.policy[s] = pol[s]
                if self.m.mover[s] is not None and len(self.dist[s]) > 1:
                    self.sol.decisions += 1
                    self.sol.certified += 1
            return
        raise Unresolved(f"policy iteration in balls did not settle in {ROUNDS} rounds on a component of "
                         f"{len(comp)} states: use --backend auto")

    def _solve_policy(self, comp: list[int], pol: dict) -> dict:
        """The values of ``pol`` on ``comp``: one ball linear solve, one right-hand side per component.

        The states from which ``pol`` never leaves ``comp`` (a closed loop: a graph search,
        :func:`.elimination.closed_states`) never end: worth exactly 0 (a reward there is an infinite total
        reward, refused), and they are left out of the system, which would be singular with them; on the
        others ``I - P_pi`` is invertible (each leaves with positive probability)."""
        in_comp = set(comp)
        closed = closed_states(comp, lambda s: [t for t, _ in self.dist[s][pol[s]]], in_comp)
        for s in closed:
            if self.rew[s][pol[s]] is not None:
                raise UsageError(f"state {self.m.state_name(s)}: play can go on forever here while collecting a "
                                 "reward (infinite total reward)")
        zeros = {s: list(self.zero_vec) for s in closed}
        comp = [s for s in comp if s not in closed]
        if not comp:
            return zeros
        index = {s: i for i, s in enumerate(comp)}
        n = len(comp)
        A = [[arb(0)] * n for _ in range(n)]
        rhs = [[arb(0)] * self.P for _ in range(n)]
        for i, s in enumerate(comp):
            A[i][i] = self.B.one
            a = pol[s]
            r = self.rew[s][a]
            if r is not None:
                rhs[i] = list(r)
            for t, p in self.dist[s][a]:
                j = index.get(t)
                if j is not None:
                    A[i][j] = A[i][j] - p
                elif t not in zeros:
                    rhs[i] = [rhs[i][c] + p * self.V[t][c] for c in range(self.P)]
        try:
            X = arb_mat(A).solve(arb_mat(rhs))
        except ZeroDivisionError:
            raise Unresolved(f"the ball linear solve of a component of {n} states is too ill-conditioned for "
                             f"{self.B.prec} bits: use --backend auto or a larger --prec") from None
        zeros.update({s: [X[i, c] for c in range(self.P)] for i, s in enumerate(comp)})
        return zeros


def _union(balls) -> arb:
    out = None
    for b in balls:
        out = b if out is None else out.union(b)
    return out
