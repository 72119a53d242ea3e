"""The engine's cyclic components: strategy iteration and its closed-form special cases.

A mixin of :class:`exactplay.engine.solve._Engine` (the per-component state lives there):

* one state chooses: values affine in its value, ``x_a = C_a / (1 - K_a)`` per action;
* choices that do not feed back into the component: decided by their exits;
* otherwise policy iteration (one side) or Hoffman-Karp strategy iteration (both sides of a
  zero-sum game), seeded in floats (:mod:`.seed_policy`), exact evaluation by :mod:`.linear`,
  switching only on a strict improvement; the minimiser's states that can keep the value at 0
  are fixed first (:meth:`CyclicComponents._min_zero_region`);
* action values: balls first (:mod:`exactplay.enclosure`), exact where they overlap.
"""

from __future__ import annotations

from typing import Any

from flint import arb

from ..enclosure import ball, may_be_top_two
from ..model import ModelError
from .raw_values import RawCycles
from .linear import closed_states, evaluate_component
from .post_values import evaluate_by_cuts
from .seed_policy import SeedPolicy
from .attractor import zero_region

__all__ = ["CyclicComponents", "MAX_ROUNDS", "SEED_WORK", "local_choice"]

MAX_ROUNDS = 10_000  # policy / strategy iteration rounds in one component
SEED_WORK = 5_000_000  # float operations allowed for the value-iteration seed of one component


def local_choice(model, s: int, component: set[int]) -> bool:
    """Whether every action of ``s`` moves inside ``component`` with the same probabilities."""
    first = None
    for d in model.trans[s]:
        part = {t: p for t, p in d if t in component}  # successors are distinct: one entry each
        if first is None:
            first = part
        elif part != first:
            return False
    return True


class CyclicComponents(SeedPolicy, RawCycles):
    _comp_has_ec = True  # whether the component being solved has an end component (set by _cyclic)

    def _cyclic(self, S: list[int], has_ec: bool) -> None:
        # without an end component no policy keeps play inside S forever: no state is closed
        self._comp_has_ec = has_ec
        mover, trans = self.model.mover, self.model.trans
        choice = [s for s in S if mover[s] is not None and len(trans[s]) > 1]  # (_is_choice, inline)
        if not choice and self._lazy_applies(S, choice):
            self._cyclic_lazy(S, has_ec, choice)
            return
        if not choice and self._raw_applies(has_ec):  # several payoff components (:mod:`.raw_values`)
            self._cyclic_raw(S)
            return
        if not choice:
            pol = {s: 0 for s in S}
            self._store(S, self._evaluate(S, pol, set()))
            self._finish(S, {}, {})
            return
        if self._lazy_applies(S, choice):
            self._cyclic_lazy(S, has_ec, choice)
            return
        self.stats.cyclic_with_choices += 1
        if len(choice) == 1:
            self._one_chooser(S, choice[0])
            return
        comps = {self.keys[self.model.mover[s]][0] for s in choice}
        members = set(S)
        if len(comps) > 1 and all(local_choice(self.model, s, members) for s in choice):
            self._local_choices(S, choice)
            return
        if len(comps) != 1 or None in comps:  # witness_kind refuses these first
            raise ModelError("choices of players with different objectives on one cycle")
        (c,) = comps
        maxers = [s for s in choice if self.keys[self.model.mover[s]][1] > 0]
        miners = [s for s in choice if self.keys[self.model.mover[s]][1] < 0]
        pol, val = self._strategy_iteration(
            S, c, maxers, miners, lambda pol: self._min_reply(S, pol, miners, c, has_ec),
            lambda pol: self._evaluate(S, pol, set()), self._improve)
        evaluated = dict(pol)
        self._store(S, val)
        opt = {}
        for s in choice:
            q = self._last_q.get(s)
            if q is None:
                q = self._action_values(s, c)
            opt[s] = self._choose(s, q)
        self._finish(S, opt, {})
        final = {s: self.policy[s] for s in S}
        if any(self.policy[s] != evaluated[s] for s in S):
            key = {s: val[s][c] for s in S}
            self._store(S, self._evaluate(S, final, set()))
            for s in S:
                if self.V[s][c] != key[s]:
                    raise RuntimeError("internal error: the tie-broken policy changes the value at "
                                       f"{self.model.state_name(s)}")

    def _strategy_iteration(self, S, c: int, maxers, miners, min_reply, evaluate, improve) -> tuple[dict, Any]:
        """Hoffman-Karp from the seed: the minimiser's best reply (or the policy's evaluation), then the
        maximiser's strict improvements until none; the policy and its last (exact or lazy) evaluation."""
        pol = self._seed_policy(S, c)
        rounds = 0
        while True:
            rounds += 1
            if rounds > MAX_ROUNDS:
                raise ModelError(f"strategy iteration did not converge in {MAX_ROUNDS} rounds (component of {len(S)} states)")
            val = min_reply(pol) if miners else evaluate(pol)
            if not maxers or not improve(maxers, pol, val, c, 1):
                break
        self.stats.rounds += rounds
        self.stats.max_rounds = max(self.stats.max_rounds, rounds)
        return pol, val

    def _one_chooser(self, S: list[int], f: int) -> None:
        """A component where one state ``f`` chooses: the self-loop's closed form, generalised.

        Every other state's value is affine in ``x = V(f)``: ``V(t) = c_t + k_t x`` (one linear
        pass with ``x`` carried as an extra component).  Keeping action ``a`` at ``f`` then gives
        ``x = C_a + K_a x``, i.e. ``x_a = C_a / (1 - K_a)`` (``K_a = 1``: play never leaves, 0).
        The optimal stationary choice is the best ``x_a``: no iteration, no float seed.
        """
        P = self.P
        rest = [t for t in S if t != f]
        dist = self._policy_dist({t: 0 for t in rest})
        in_rest = set(rest)
        closed = closed_states(rest, lambda t: [u for u, _ in dist(t)], in_rest) if self._comp_has_ec else set()
        zero_ext = tuple([self.zero] * (P + 1))
        pivot = tuple([self.zero] * P + [self.one])
        forms = {t: zero_ext for t in closed}
        live = [t for t in rest if t not in closed]
        if live:
            def known(u):
                if u == f:
                    return pivot
                if u in forms:
                    return forms[u]
                return tuple(self.V[u]) + (self.zero,)

            def reward(t):
                r = self.rew[t][0]
                return None if r is None else tuple(r) + (self.zero,)

            vals, _ = self._solve_linear(live, dist, reward, P + 1, known)
            forms.update(vals)
        c, sign = self.keys[self.model.mover[f]]
        xs = []
        for a, d in enumerate(self.dist[f]):
            r = self.rew[f][a]
            C = list(r) if r is not None else [self.zero] * P
            K = self.zero
            for t, p in d:
                if t == f:
                    K = K + p
                    continue
                v = forms[t] if t in forms else tuple(self.V[t]) + (self.zero,)
                for i in range(P):
                    if v[i]:
                        C[i] = C[i] + p * v[i]
                if v[P]:
                    K = K + p * v[P]
            if K == self.one:
                if any(C):
                    raise ModelError(f"state {self.model.state_name(f)}: action {self.model.actions[f][a]!r} "
                                     "never leaves while collecting a reward (infinite total reward)")
                xs.append(tuple([self.zero] * P))
            else:
                leave = self.one - K
                xs.append(tuple(x / leave for x in C))
        best = max(range(len(xs)), key=lambda a: sign * xs[a][c])

        def settle(x):
            self.V[f] = x
            for t in rest:
                form = forms[t]
                k = form[P]
                self.V[t] = tuple(form[i] + k * x[i] if k else form[i] for i in range(P))

        settle(xs[best])
        opt = {f: self._choose(f, [self._q_key(f, a, c) for a in range(len(self.dist[f]))])}
        self._finish(S, opt, {})
        if self.policy[f] != best:
            settle(xs[self.policy[f]])

    def _local_choices(self, S: list[int], choice: list[int]) -> None:
        """Choices that do not feed back into the component: each is decided by its exits alone.

        Every action of a choice state moves inside ``S`` with the same probabilities, so the
        one-step values of its actions differ only in ``r_a + sum_{t outside S} p V(t)``, which is
        known: the mover picks the best of those (earliest on a tie), then one linear solve.
        """
        members = set(S)
        pol = {s: 0 for s in S}
        for s in choice:
            c, sign = self.keys[self.model.mover[s]]
            outs = []
            for a, d in enumerate(self.dist[s]):
                r = self.rew[s][a]
                x = r[c] if r is not None else self.zero
                for t, p in d:
                    if t not in members and self.V[t][c]:
                        x = x + p * self.V[t][c]
                outs.append(sign * x)
            pol[s] = outs.index(max(outs))
        self._store(S, self._evaluate(S, pol, set()))
        opt = {}
        for s in choice:
            c = self.keys[self.model.mover[s]][0]
            opt[s] = self._choose(s, [self._q_key(s, a, c) for a in range(len(self.dist[s]))])
        self._finish(S, opt, {})
        if any(self.policy[s] != pol[s] for s in S):
            raise RuntimeError("internal error: a local choice differs from its one-step optimum")

    # ------------------------------------------------------------ policy evaluation and improvement

    def _store(self, S: list[int], val: dict[int, tuple]) -> None:
        for s in S:
            self.V[s] = val[s]

    def _evaluate(self, S: list[int], pol: dict[int, int], zero_set: set[int]) -> dict[int, tuple]:
        """Value vectors of ``S`` under ``pol``; ``zero_set`` and states that cannot leave ``S`` are 0.

        The states that cannot leave are recorded as never ending (a play from them goes on forever)
        when this is the final evaluation; a reward on them is an infinite total reward, refused.
        """
        self._last_q = {}
        self._local_balls = {}
        nodes = [s for s in S if s not in zero_set]
        in_s = set(nodes)
        dist = self._policy_dist(pol)
        closed = closed_states(nodes, lambda s: [t for t, _ in dist(s)], in_s) if self._comp_has_ec else set()
        zero = tuple([self.zero] * self.P)
        val = {s: zero for s in zero_set}
        for s in closed:
            if self.rew[s][pol[s]] is not None:
                raise ModelError(f"state {self.model.state_name(s)}: play can go on forever here while "
                                 "collecting a reward (infinite total reward)")
            val[s] = zero
        rest = [s for s in nodes if s not in closed]
        if rest:
            vals, _ = self._solve_linear(rest, dist, lambda s: self.rew[s][pol[s]], self.P,
                                         lambda t: val[t] if t in val else self.V[t])
            val.update(vals)
        return val

    def _policy_dist(self, pol: dict[int, int]):
        return lambda s: self.dist[s][pol[s]]

    def _solve_linear(self, nodes, dist, reward, n_comp, known):
        # one payoff component in mpq: the cut values, then one shared-denominator sum per state
        # (:mod:`.post_values`); with several (Chef Showdown: 13), most have short denominators and
        # reducing each at the end costs more
        if self.B.name == "mpq" and n_comp == 1:
            vals, dense = evaluate_by_cuts(nodes, dist, reward, known)
        else:
            vals, dense = evaluate_component(nodes, dist, reward, known, n_comp, self.zero, self.one)
        self.stats.largest_dense = max(self.stats.largest_dense, dense)
        return vals, dense

    def _improve(self, states: list[int], pol: dict[int, int], val: dict[int, tuple], c: int, sign: int) -> bool:
        """Switch each state to its best action when that is strictly better; True if any switched.

        The exact action values are kept (``_last_q``): after the last round they are the final ones.
        """
        switched = False
        for s in states:
            # the evaluated policy's own action satisfies its equation: its value is val[s] exactly
            q = self._action_values(s, c, val, (pol[s], val[s][c]))
            self._last_q[s] = q
            if len(q) == 2:  # (both exact: no ball filter below three actions) one comparison, no negation
                a = pol[s]
                if (q[1 - a] > q[a]) if sign > 0 else (q[1 - a] < q[a]):
                    pol[s] = 1 - a
                    switched = True
                continue
            keyed = q if sign > 0 else [None if x is None else -x for x in q]
            best = max(x for x in keyed if x is not None)
            current = keyed[pol[s]]
            if current is None or best > current:  # an action ruled out by the balls is not the best
                pol[s] = next(a for a, x in enumerate(keyed) if x is not None and x == best)
                switched = True
        return switched

    def _action_values(self, s: int, c: int, local: dict | None = None, known: tuple | None = None) -> list:
        """Each action's exact value in component ``c``, or ``None`` for actions that provably are
        neither the best nor the runner-up (:mod:`exactplay.enclosure`: balls first, exact where needed).

        ``known = (a, x)``: action ``a``'s value is already known to be ``x`` (not recomputed)."""
        n_act = len(self.dist[s])
        if known is not None:
            ka, kx = known

            def q_key(a):
                return kx if a == ka else self._q_key(s, a, c, local)
        else:
            def q_key(a):
                return self._q_key(s, a, c, local)
        if n_act <= 2 or not self.filter:
            return [q_key(a) for a in range(n_act)]
        sign = self.keys[self.model.mover[s]][1]
        balls = []
        for a in range(n_act):
            r = self.rew[s][a]
            b = ball(r[c]) if r is not None else arb(0)
            for t, p in self.dist[s][a]:
                b += self._pball(p) * self._vball(t, c, local)
            balls.append(b if sign > 0 else -b)
        keep = set(may_be_top_two(balls))
        self.stats.exact_action_values += len(keep)
        self.stats.ruled_out_by_balls += n_act - len(keep)
        return [q_key(a) if a in keep else None for a in range(n_act)]

    def _pball(self, p) -> arb:
        b = self._pballs.get(p)
        if b is None:
            b = self._pballs[p] = ball(p)
        return b

    def _vball(self, t: int, c: int, local: dict | None) -> arb:
        if local is not None and t in local:
            key = (t, c)
            b = self._local_balls.get(key)
            if b is None:
                b = self._local_balls[key] = ball(local[t][c])
            return b
        key = (t, c)
        b = self._balls.get(key)
        if b is None:
            b = self._balls[key] = ball(self.V[t][c])
        return b

    def _min_reply(self, S, pol, miners, c, has_ec) -> dict[int, Any]:
        """The minimiser's best reply (policy iteration) with the maximiser's actions fixed in ``pol``."""
        zero_set: set[int] = set()
        if has_ec:
            zero_set = self._min_zero_region(S, pol, set(miners), c)
            for s in miners:
                if s in zero_set:
                    pol[s] = next(a for a, d in enumerate(self.dist[s])
                                  if all(t in zero_set or (t not in set(S) and not self.V[t][c]) for t, _ in d))
        free = [s for s in miners if s not in zero_set]
        while True:
            val = self._evaluate(S, pol, zero_set)
            if not free or not self._improve(free, pol, val, c, -1):
                return val

    def _min_zero_region(self, S, pol, miners: set[int], c: int) -> set[int]:
        """States of ``S`` where the minimiser can keep play away from positive value forever (:mod:`.attractor`)."""
        V, raw = self.V, list.__getitem__

        def positive(t: int) -> bool:  # V[t][c] > 0, the stored tuple read without LazyValues' own step
            v = raw(V, t)
            return (v if type(v) is tuple else V[t])[c] > 0

        return zero_region(S, self.dist.__getitem__, miners, pol, positive)

    def _seed_policy(self, S: list[int], c: int) -> dict[int, int]:
        """A first policy for ``S`` in component ``c`` (:meth:`.seed_policy.SeedPolicy._seed_from`,
        value-iteration work up to ``SEED_WORK``)."""
        return self._seed_from(S, c, SEED_WORK)
