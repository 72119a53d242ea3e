"""Checking ball certificates of games with cycles (``"kind": "ball"``, recurrence ``model`` or ``game``).

Standard library only; shares no code with the solvers (the model is read by
:mod:`.explicit` or rebuilt from the checker's own rules, :mod:`.rules`).

**What is stored.**  A grid ``2^-k`` (``grid_bits``), the value component ``c``
(the one every chooser optimises: one player, or two players zero-sum), a set
``F`` of *feedback states* with integers ``lower[f]``, ``upper[f]``, the policy
and the unresolved decisions, and the answer.  The enclosure of every other
state is *defined* by the rounded Bellman step from its successors: with
``Q_a(X) = r_a + sum_t p_t X_t`` (component ``c``) and ``opt`` the mover's max
(key sign +1) or min (-1), chance states having one action,

    L_s = floor_k(opt_a Q_a(L)),   U_s = ceil_k(opt_a Q_a(U))

(terminals: the payoff rounded down and up).  The checker computes these in a
topological order of the states outside ``F``, which exists only if ``F`` meets
every cycle of the model (else: refused, field ``feedback.states``), and then
requires the *same* equations at every ``f`` in ``F``: the stored ends must be
exactly the rounded images of themselves, and, when every play ends, the extreme
such fixed point in their coordinate (``L_f + 1``, with what depends on it
derived again, is not a sub-solution at ``f``; ``U_f - 1`` not a
super-solution).  Where plays may go on forever there is no extreme point (a
maximiser's self-loop ``x = max(x, 1/2)`` is a sub-solution for every ``x``), and
the ranking below is what bounds ``L``.  So every state satisfies
``L <= T(L)`` and ``T(U) <= U`` (``T``: the Bellman operator), and a stored end
that is shifted or widened no longer reproduces itself (refused at that state).

**The theorem** (``T`` is monotone: a max/min of affine maps with
nonnegative weights).

1. *Every play ends under all strategies* (checked: the attractor of the
   terminal states is every state).  Then ``T^N`` is a contraction in the sup
   norm for ``N`` the number of states (every strategy pair ends play within
   ``N`` steps with probability at least ``p_min^N``), so ``T`` has exactly one
   fixed point, the value ``V``, and ``T^n(X) -> V`` from every ``X``.  From
   ``L <= T(L)`` monotonicity gives ``L <= T^n(L) -> V``; from ``T(U) <= U``,
   ``U >= V``.  Rewards are allowed.
2. *Plays may go on forever* (worth 0).  Containment alone is not enough
   here: inside an end component the Bellman equations have many solutions
   (a state "loop, or win with probability 1/2" satisfies ``x = max(x, 1/2)``
   for every ``x`` in [1/2, 1]).  Required in addition: no reward in ``c``,
   a *ranking* of every non-terminal state with ``U < 0`` (the mirror of the
   one below: negative payoffs, the minimiser's actions with ``Q_a(U) <= U_s``),
   and a *ranking* of every state with
   ``L > 0``, computed here as an attractor: terminals with a positive payoff
   first; then a state of a maximiser (of ``c``) joins when some action ``a``
   with ``Q_a(L) >= L_s`` has a successor already in; a state of a minimiser or
   of chance when every action has one.  Lower bound: let the maximiser play
   such actions (elsewhere any ``a`` with ``Q_a(L) >= L_s``); against every
   strategy of the minimiser ``L(X_n)`` is a bounded submartingale, from a
   ranked state a positive payoff is reached within ``R`` steps with
   probability ``>= p_min^R`` (``R`` the largest rank), so a play that never ends stays eventually among
   unranked states, where ``L <= 0``; hence ``L_s <= E[payoff, 0 if the play
   never ends] <= V_s``.  Upper bound, the mirror: let the minimiser play
   the ranking actions of ``U`` (elsewhere any ``a`` with ``Q_a(U) <= U_s``);
   against every maximiser ``U(X_n)`` is a bounded supermartingale, a play that
   never ends stays eventually among the states without that ranking, where
   ``U >= 0`` (its worth is 0), so ``U_s >= E[payoff, 0 if the play never
   ends] >= V_s``.  (So ``U < 0`` is allowed where the minimiser can force a
   negative payoff: a minimiser who takes -2/3 rather than loop for ever, or a
   chance state "lose 2/3 or fall into a loop", worth -1/3; a ``U < 0`` kept up
   only by a loop, ``x = ceil(max(x, -1))``, has no ranking and is refused.)
   A fake enclosure inside an end
   component (``L = 1`` where the value is 1/2) is refused by the ranking.

*Decisions.*  ``V`` in ``[L, U]`` and monotonicity give ``Q_a(V)`` in
``[Q_a(L), Q_a(U)]``.  In the mover's direction, an action whose upper end is
below the best lower end is not optimal; the *possibly optimal* actions are the
others.  The stored policy must be the first possibly optimal action; a state
is *certified* when it is the only one (then it is the unique optimal action),
and ``unresolved`` must list exactly the other choice states.  The answer is the
initial state's ``[L, U]`` in component ``c``; a stored decimal must be the
rounding (half to even) of both ends.
"""

from __future__ import annotations

from collections import deque
from fractions import Fraction
from typing import Any

from . import _strict
from ._ball_solution import BallSolution
from ._strict import Where, fail, integer, keys, listed, recorded_params, show
from .explicit import ModelReader
from .model import SolutionChecker, guarded_named

__all__ = ["MAX_GRID_BITS", "TOP_REQUIRED", "UNVERIFIED", "verify"]

TOP_REQUIRED = ("format", "version", "kind", "recurrence", "params", "model_sha256", "grid_bits", "component",
                "feedback", "policy", "unresolved", "decisions", "answer")
UNVERIFIED = ("tool_version", "notes")
MAX_GRID_BITS = 1 << 14
SLACK_BITS = 4096  # an end may exceed the grid's scale by this many bits (large payoffs or rewards)


def verify(cert: Any) -> str:
    where = Where()
    return guarded_named(_BallChecker(cert, where), where)


def _floor(num: int, den: int) -> int:
    return num // den


def _ceil(num: int, den: int) -> int:
    return -((-num) // den)


class _BallChecker(ModelReader, SolutionChecker, BallSolution):
    def run(self) -> str:
        self.max_states = _strict.MAX_STATES
        self.check_header("ball", TOP_REQUIRED, UNVERIFIED + ("game", "model"))
        cert = self.cert
        self.at("recurrence")
        rec = cert["recurrence"]
        if rec == "model":
            if "model" not in cert or "game" in cert:
                fail("a ball certificate of a model carries the model and no game", "model")
            recorded_params(cert["params"])  # a factory's (--param), informational; {} for a model file
            self.check_digest()
            self.read_model()
            if len(self.initial_states) > 1:  # the writer refuses them: its answer covers one initial state
                fail(f"a ball certificate covers one initial state, not {len(self.initial_states):,}",
                     "model.initial_states")
            what = f"model {self.name!r}"
            self.answer_name = None
        elif rec == "game":
            if "model" in cert or "game" not in cert:
                fail("a ball certificate of a built-in game names the game and carries no model", "game")
            what = self._rebuild_game()
        else:
            fail(f"recurrence {show(rec)} is not 'model' or 'game'", "recurrence")
        self.graph()
        self.resolve_objective()
        self.at("grid_bits")
        k = self.k = integer(cert["grid_bits"], "grid_bits")
        if not 8 <= k <= MAX_GRID_BITS:
            fail(f"grid_bits {k} is not in [8, {MAX_GRID_BITS}]", "grid_bits")
        self._component()
        self._int_form()
        self._feedback()
        self._derive()
        if not self.terminates:
            self._ranking()
        certified = self._decisions()
        self._answer()
        kind = "every play ends" if self.terminates else "plays may go on forever: ranking verified"
        return (f"{what}: {self.n:,} states, {len(self.F):,} feedback state(s); enclosures on the grid 2^-{k} are "
                f"exact fixed points of the rounded Bellman operator ({kind}); {certified:,} decisions certified, "
                f"{len(self.unresolved):,} unresolved; {self.answer_text}")

    # ------------------------------------------------------------ the model

    def _rebuild_game(self) -> str:
        from .game import rebuild_from_rules

        game, rules, model = rebuild_from_rules(self, f"the checker's {self.max_states:,}")
        self.name, self.player_names = model.name, model.player_names
        self.P = len(model.player_names)
        self.declared_objective = model.declared_objective
        self.n, self.initial, self.state_names = len(model.state_names), model.initial, model.state_names
        self.payoff, self.mover, self.trans, self.rewards = model.payoff, model.mover, model.trans, model.rewards
        self.answer_name = rules.answer_name
        self.rules_component = rules.answer_component
        shown = ", ".join(f"{k}={v}" for k, v in self.cert["params"].items())
        return f"model rebuilt from the rules of {game} ({shown}), digest matches"

    def _component(self) -> None:
        self.at("component")
        comps = {self.keys[self.mover[s]][0] for s in range(self.n) if self.is_choice(s)}
        if len(comps) > 1:
            fail("the choosers optimise different payoff components: a ball certificate covers games with one "
                 "value", "component")
        c = comps.pop() if comps else 0
        if integer(self.cert["component"], "component") != c:
            fail(f"the value component is {c}, the one every chooser optimises", "component")
        self.c = c
        self.sign = [1 if m is None else self.keys[m][1] for m in self.mover]

    def _int_form(self) -> None:
        """Per action: a common denominator ``D``, integer weights, the reward in ``c`` scaled by ``2^k``."""
        c, k = self.c, self.k
        self.acts = []
        for s in range(self.n):
            acts = []
            for a, dist in enumerate(self.trans[s]):
                D = 1
                for _, p in dist:
                    q = int(p.denominator)
                    g = D
                    b = q
                    while b:
                        g, b = b, g % b
                    D = D * q // g
                pairs = [(t, int(p.numerator) * (D // int(p.denominator))) for t, p in dist]
                r = self.rewards[s][a]
                if r is not None and r[c] != 0:
                    if not self.terminates:
                        fail("a reward where plays may go on forever: not covered by a ball certificate",
                             "model", s)
                    x = Fraction(int(r[c].numerator), int(r[c].denominator)) * (1 << k)
                    acts.append((D, pairs, x.numerator, x.denominator))
                else:
                    acts.append((D, pairs, 0, 1))
            self.acts.append(acts)

    def q(self, s: int, a: int, X: list) -> tuple[int, int]:
        """``Q_a(X) 2^k`` as (numerator, positive denominator)."""
        D, pairs, rn, rd = self.acts[s][a]
        S = 0
        for t, w in pairs:
            S += w * X[t]
        if rn == 0:
            return S, D
        return rn * D + rd * S, rd * D

    def step(self, s: int, X: list, rounding) -> int:
        best = None
        up = self.sign[s] > 0
        for a in range(len(self.acts[s])):
            v = rounding(*self.q(s, a, X))
            if best is None or (v > best if up else v < best):
                best = v
        return best

    # ------------------------------------------------------------ the enclosure

    def _feedback(self) -> None:
        self.at("feedback")
        fb = keys(self.cert["feedback"], ("states", "lower", "upper"), (), "feedback")
        states = listed(fb["states"], "feedback.states")
        lower = listed(fb["lower"], "feedback.lower", None, len(states))
        upper = listed(fb["upper"], "feedback.upper", None, len(states))
        limit = self.k + SLACK_BITS
        self.F = {}
        prev = -1
        for i, f in enumerate(states):
            f = integer(f, "feedback.states")
            if not prev < f < self.n:
                fail(f"feedback states are increasing state numbers < {self.n}; found {show(f)}", "feedback.states",
                     f)
            prev = f
            if self.payoff[f] is not None:
                fail("a terminal state is not a feedback state", "feedback.states", f)
            lo = integer(lower[i], "feedback.lower", f)
            hi = integer(upper[i], "feedback.upper", f)
            if max(abs(lo), abs(hi)).bit_length() > limit:
                fail(f"an end of more than {limit} bits", "feedback.lower", f)
            self.F[f] = (lo, hi)

    def _derive(self) -> None:
        """Every end outside ``F`` from its successors (topological order), then the fixed-point
        equations at ``F``."""
        self.at("feedback.states")
        n, F = self.n, self.F
        L, U = [0] * n, [0] * n
        known = [False] * n
        for s in range(n):
            if self.payoff[s] is not None:
                x = Fraction(int(self.payoff[s][self.c].numerator), int(self.payoff[s][self.c].denominator))
                x *= 1 << self.k
                L[s], U[s] = _floor(x.numerator, x.denominator), _ceil(x.numerator, x.denominator)
                known[s] = True
            elif s in F:
                L[s], U[s] = F[s]
                known[s] = True
        pending = [0] * n
        preds: list[list[int]] = [[] for _ in range(n)]
        ready = deque()
        for s in range(n):
            if known[s]:
                continue
            for t in self.succ[s]:
                if not known[t]:
                    pending[s] += 1
                    preds[t].append(s)
                elif t in F:  # for the extreme-point check (the states that depend on f)
                    preds[t].append(s)
            if pending[s] == 0:
                ready.append(s)
        pos = [0] * n
        done = 0
        while ready:
            s = ready.popleft()
            L[s], U[s] = self.step(s, L, _floor), self.step(s, U, _ceil)
            done += 1
            pos[s] = done
            for p in preds[s]:
                pending[p] -= 1
                if pending[p] == 0:
                    ready.append(p)
        left = [s for s in range(n) if not known[s] and pending[s] > 0]
        if left:
            fail(f"the feedback states do not meet every cycle: {len(left):,} states lie on or behind a cycle "
                 "without one", "feedback.states", left[0])
        del pending
        for f, (lo, hi) in F.items():
            self.at("feedback.lower", f)
            img = self.step(f, L, _floor)
            if lo != img:
                fail(f"stored lower end {lo} * 2^-{self.k} is not its rounded-down Bellman image {img} * 2^-{self.k}",
                     "feedback.lower", f)
            self.at("feedback.upper", f)
            img = self.step(f, U, _ceil)
            if hi != img:
                fail(f"stored upper end {hi} * 2^-{self.k} is not its rounded-up Bellman image {img} * 2^-{self.k}",
                     "feedback.upper", f)
        for s in range(n):
            if L[s] > U[s]:
                fail("lower end above the upper end", "feedback.lower", s)
        self.L, self.U = L, U
        if self.terminates:  # where plays may go on forever a maximiser's self-loop has no extreme point
            self._extreme(preds, pos)

    def _extreme(self, preds: list, pos: list) -> None:
        """Each stored end is the extreme fixed point in its coordinate: with the other feedback ends
        fixed and the states that depend on ``f`` (inside its component) derived again, ``L_f + 1``
        is not a sub-solution at ``f`` (``U_f - 1`` not a super-solution).  The rounded operator has
        a range of fixed points; this picks one, so a stored end moved by one step is refused."""
        k = self.k
        for f in self.F:
            dep, stack, seen = [], [f], {f}
            while stack:  # the states outside F of f's component from which f is reached
                t = stack.pop()
                for p in preds[t]:
                    if p not in seen and self.comp[p] == self.comp[f]:
                        seen.add(p)
                        dep.append(p)
                        stack.append(p)
            dep.sort(key=pos.__getitem__)
            for X, d, rounding, field in ((self.L, 1, _floor, "feedback.lower"), (self.U, -1, _ceil, "feedback.upper")):
                self.at(field, f)
                over = {f: X[f] + d}
                for s in dep:
                    over[s] = self._step_over(s, X, over, rounding)
                img = self._step_over(f, X, over, rounding)
                if (over[f] <= img) if d > 0 else (over[f] >= img):
                    end = "lower" if d > 0 else "upper"
                    fail(f"the stored {end} end {X[f]} * 2^-{k} is not the extreme fixed point: {over[f]} * 2^-{k} "
                         f"also satisfies {'L <= floor(T(L))' if d > 0 else 'U >= ceil(T(U))'}", field, f)

    def _step_over(self, s: int, X: list, over: dict, rounding) -> int:
        best = None
        up = self.sign[s] > 0
        for D, pairs, rn, rd in self.acts[s]:
            S = 0
            for t, w in pairs:
                S += w * over.get(t, X[t])
            v = rounding(S, D) if rn == 0 else rounding(rn * D + rd * S, rd * D)
            if best is None or (v > best if up else v < best):
                best = v
        return best
