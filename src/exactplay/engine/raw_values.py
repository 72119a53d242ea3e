"""Components without choices and several payoff components: values kept as unreduced numerators.

A mixin of :class:`exactplay.engine.solve._Engine` (``lazy=True``, gmpy2 ``mpq``, more than one
payoff component, every play ends: the ``termination`` witness, whose ranks read no value).
In Chef Showdown (13 payoff components) a cyclic component is one alive set's cycle of failed
attempts; its states' values are read by the choices of the larger sets (one payoff component
of every target, the whole vector of the chosen one) and by those sets' own cycles.  Reducing
every value to lowest terms costs one gcd of numbers of up to 10^5 bits per value, most of
the eager solve, while the next component only needs *some* numerator over *some* denominator.
So here:

* a cyclic component without choices is evaluated by :func:`evaluate_component_raw` (the
  equations of :mod:`.linear_int`, integers over one common denominator per payoff component)
  from its successors' numerator/denominator pairs, and its values are kept unreduced: each
  value ``V(s)[c]`` is a pair ``(N, D)`` with ``V(s)[c] = N / D``, ``D > 0``; the exact ``mpq``
  (``mpq(N, D)``, the same canonical rational the eager engine computes) is made on first read
  (:class:`RawUnit`, :mod:`.lazy`);
* a choice state whose actions are sure moves without reward compares its targets' pairs
  exactly, ``N_a D_b`` against ``N_b D_a`` (the same optimal set as the eager
  :meth:`_choose`, every exact tie found); its value is its chosen successor's (an alias,
  :class:`AliasUnit`), its margin and action values are computed on first read
  (:class:`ChoiceUnit`, the eager :meth:`_choose`, checked to give the same optimal set).

So values, policy, ties, margins, q, ranks and statistics are those of the eager engine
(tests/test_engine_raw.py).  Any other reader of a pending value simply forces it.
"""

from __future__ import annotations

from typing import Any, Callable, Sequence


from .lazy import Pending, Unit
from .linear import _feedback_order
from .linear_int import common_denominator, eliminate

__all__ = ["RawCycles", "evaluate_component_raw", "best_set"]


def best_set(xs: Sequence[tuple], sign: int) -> list[int]:
    """The indices of the largest ``sign * N / D`` over the pairs ``xs = [(N, D), ...]`` (``D > 0``),
    in increasing order, compared exactly by cross-multiplication.

    >>> best_set([(1, 3), (2, 6), (1, 4)], 1), best_set([(1, 3), (2, 6), (1, 4)], -1)
    ([0, 1], [2])
    """
    bn, bd = xs[0]
    opt = [0]
    for a in range(1, len(xs)):
        n, d = xs[a]
        diff = n * bd - bn * d
        if sign < 0:
            diff = -diff
        if diff > 0:
            opt = [a]
            bn, bd = n, d
        elif diff == 0:
            opt.append(a)
    return opt


def _pairs(vec) -> tuple:
    return tuple((x.numerator, x.denominator) for x in vec)


def evaluate_component_raw(
    nodes: Sequence[int],
    dist: Callable[[int], Sequence[tuple[int, Any]]],
    reward: Callable[[int], Sequence[tuple] | None],
    known: Callable[[int], Sequence[tuple]],
    n_comp: int,
    mpq: Callable,
) -> tuple[dict[int, tuple], int]:
    """The policy's values by :func:`.linear_int.eliminate`, on numerator/denominator pairs, not reduced.

    ``known(t)`` is the successor's value and ``reward(s)`` the reward (or ``None``), as pairs
    ``(N, D)`` per payoff component (``N = 0``: 0);
    the result maps each state to its value as pairs ``(N, D)`` with ``N / D`` its exact value
    (``D`` = the component's common denominator times a product of probability denominators),
    and the number of cuts.

    >>> from gmpy2 import mpq
    >>> vals, m = evaluate_component_raw([0, 1], lambda s: [(1 - s, mpq(1, 2)), (2, mpq(1, 2))],
    ...     lambda s: None, lambda t: ((1, 3), (0, 1)), 2, mpq)
    >>> [mpq(*vals[0][0]), mpq(*vals[1][0])], vals[0][1][0], m
    ([mpq(1,3), mpq(1,3)], 0, 1)
    """
    in_s = set(nodes)
    unknown, post = _feedback_order(nodes, dist, in_s)
    R = range(n_comp)
    outside: dict[int, tuple] = {}
    rewards: dict[int, tuple] = {}
    dens: list[dict] = [{} for _ in R]
    for v in post:
        r = reward(v)
        if r is not None:
            rewards[v] = r
            for c in R:
                if r[c][0]:
                    dens[c][r[c][1]] = None
        for t, _ in dist(v):
            if t not in in_s and t not in outside:
                kv = outside[t] = known(t)
                for c in R:
                    if kv[c][0]:
                        dens[c][kv[c][1]] = None
    # the payoff components some input or reward is not 0 in (the others stay 0): the work is done on
    # these only, in their order (Chef Showdown: the chefs still in play and the dishes)
    live = [c for c in R if dens[c]]
    Ds = [common_denominator(dens[c]) for c in live]
    over: list[dict] = [{} for _ in live]
    L = range(len(live))

    def numerators(vec) -> list:
        out = []
        for i, c in enumerate(live):
            n, b = vec[c]
            if n:
                f = over[i].get(b)
                if f is None:
                    f = over[i][b] = Ds[i] // b
                out.append(n * f)
            else:
                out.append(0)
        return out

    out_num = {t: numerators(kv) for t, kv in outside.items()}
    nums = eliminate(post, unknown, in_s, dist, {v: numerators(r) for v, r in rewards.items()}, out_num, L, mpq)
    out: dict[int, tuple] = {}
    for v in post:
        num, scale = nums[v]
        vec = [(0, 1)] * n_comp
        for i, c in enumerate(live):
            if num[i]:
                vec[c] = (num[i], Ds[i] * scale)
        out[v] = tuple(vec)
    return out, len(unknown)


class RawUnit(Unit):
    """The exact values of one component evaluated by :func:`evaluate_component_raw`: ``mpq(N, D)``."""

    def __init__(self, eng, vals: dict[int, tuple]) -> None:
        self.eng, self.vals = eng, vals

    def compute(self) -> None:
        eng = self.eng
        make, zero, V, raw = eng.B.make, eng.zero, eng.V, eng._raw
        for s, x in self.vals.items():
            list.__setitem__(V, s, tuple([make(n, d) if n else zero for n, d in x]))
            if raw is not None:
                raw.pop(s, None)
        self.vals = None


class AliasUnit(Unit):
    """The value of a state whose chosen action is a sure move to ``t`` without reward: ``V(t)``."""

    def __init__(self, eng, s: int, t: int) -> None:
        self.eng, self.s, self.t = eng, s, t
        self.depends = (eng.V.raw(t).unit,)

    def compute(self) -> None:
        eng = self.eng
        list.__setitem__(eng.V, self.s, eng.V[self.t])
        if eng._raw is not None:
            eng._raw.pop(self.s, None)


class ChoiceUnit(Unit):
    """The margin and action values of a choice state decided on pairs: the eager ``_choose``."""

    def __init__(self, eng, s: int, opt: list[int], c: int) -> None:
        self.eng, self.s, self.opt, self.c = eng, s, opt, c
        self.pending = Pending(self)

    @property
    def depends(self) -> tuple:
        V = self.eng.V
        return tuple({V.raw(t).unit for d in self.eng.dist[self.s] for t, _ in d if V.is_pending(t)})

    def compute(self) -> None:
        eng, s = self.eng, self.s
        got = eng._choose(s, [eng._q_key(s, a, self.c) for a in range(len(eng.dist[s]))])
        if got != self.opt:
            raise RuntimeError(f"internal error: the exact choice at {eng.model.state_name(s)} differs "
                               "from the one found on unreduced numerators")


class RawCycles:
    _raw: dict | None = None  # state -> its value as unreduced pairs (N, D), while pending

    def _raw_applies(self, has_ec: bool) -> bool:
        """Whether a cyclic component without choices is evaluated on unreduced numerators."""
        return self.lazy and not has_ec and self.P > 1 and self.B.name == "mpq" and self.witness == "termination"

    def _raw_of(self, t: int) -> tuple:
        x = self._raw.get(t)
        return x if x is not None else _pairs(self.V[t])

    def _raw_reward(self, s: int) -> tuple | None:
        """The reward of action 0 at ``s`` as pairs (converted once per distinct reward)."""
        r = self.rew[s][0]
        if r is None:
            return None
        x = self._raw_rewards.get(r)
        if x is None:
            x = self._raw_rewards[r] = _pairs(r)
        return x

    def _cyclic_raw(self, S: list[int]) -> None:
        """Values of a component without choices (policy: action 0), pending as unreduced pairs."""
        if self._raw is None:
            self._raw, self._raw_rewards = {}, {}
        dist = self.dist
        vals, m = evaluate_component_raw(S, lambda s: dist[s][0], self._raw_reward, self._raw_of, self.P,
                                         self.B.make)
        self.stats.largest_dense = max(self.stats.largest_dense, m)
        pending = Pending(RawUnit(self, vals))
        raw, V, put = self._raw, self.V, list.__setitem__
        for s in S:
            raw[s] = vals[s]
            put(V, s, pending)
        self._finish(S, {}, {})

    def _alias(self, s: int, t: int) -> None:
        x = self._raw.get(t)
        if x is None:
            self.V[s] = tuple(self.V[t])
        else:
            self._raw[s] = x
            list.__setitem__(self.V, s, Pending(AliasUnit(self, s, t)))

    def _single_raw(self, s: int) -> bool:
        """:meth:`_single` for a state whose actions are sure moves without reward, some of them to a
        state with a pending unreduced value; False (nothing done) for any other state."""
        raw = self._raw
        rew = self.rew[s]
        succs = []
        for a, d in enumerate(self.dist[s]):
            if len(d) != 1 or rew[a] is not None:
                return False
            succs.append(d[0][0])
        if not any(t in raw for t in succs):
            return False
        if not self._is_choice(s):
            self._alias(s, succs[0])
            self._finish([s], {}, {})
            return True
        c, sign = self.keys[self.model.mover[s]]
        xs = []
        for t in succs:
            x = raw.get(t)
            if x is None:
                v = self.V[t][c]
                xs.append((v.numerator, v.denominator))
            else:
                xs.append(x[c])
        opt = best_set(xs, sign)
        unit = ChoiceUnit(self, s, opt, c)
        self.q[s] = unit.pending
        if len(opt) > 1:
            self.ties[s] = opt
        self.margins[s] = unit.pending
        self._finish([s], {s: opt}, {})
        self._alias(s, succs[self.policy[s]])
        return True
