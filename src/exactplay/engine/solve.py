"""The exact engine: solve a model component by component, sink-first.

Semantics (stated once, tested in tests/test_engine.py):

* The value of a state is the expected terminal payoff plus the expected total
  reward; a play that never ends is worth 0 to every player (``never_ending =
  "infinite"``: a strategy that does not end play with probability 1 is worth
  +infinity, solved by :mod:`exactplay.proper`).
* At a state of player ``i`` the chosen action maximises ``sign * V[comp]``
  where ``(comp, sign) = keys[i]`` (:meth:`Model.keys`): by default each player
  maximises its own payoff; in a zero-sum game player 1 minimises player 0's.
* The earlier action in the model's order wins exact ties (all ties are
  listed), except that a maximiser in a game where play can go on forever takes
  the earliest optimal action that makes progress (decreases the rank); a tied
  action that loops forever would not attain the value.

Components (Tarjan, :mod:`.scc`):

* one state without a self-loop: one exact Bellman step;
* one state with a self-loop: per action ``x_a = (r_a + sum_{t != s} p V(t)) / (1 - p_ss)``;
  ``p_ss = 1`` never ends (0) (:mod:`.selfloop`: each sum once, balls first);
* a larger component without choices: one exact linear solve (:mod:`.linear`);
* with choices of one player: exact policy iteration seeded in floats (:mod:`.seed`:
  Gauss-Seidel sweeps, then float strategy iteration), switching only on a strict
  improvement; with both players of a zero-sum game: Hoffman-Karp strategy iteration (the maximiser's strategy is
  improved, the minimiser's best reply is solved by policy iteration after the
  states where she can keep the value at 0 are fixed);
* choices of different players with different objectives on one cycle have no
  single value: refused with a message.

Which games are refused, and why, is decided up front by :func:`witness_kind`.

Lazily (``lazy=True``, the default, gmpy2 ``mpq``): a cyclic component whose choices have at most
two actions is solved by :mod:`.lazy_cyclic` (exact values at its cut states and at the states
entered from other components, decisions in balls, exact where they overlap); the other exact
numbers -- values of the other states, margins, action values, and a self-loop's runner-up -- are
computed on first read (:mod:`.lazy`), equal to the eager engine's (tests/test_engine_lazy.py).  With
several payoff components and every play ending, a cyclic component without choices keeps its values as
unreduced numerators, reduced on first read (:mod:`.raw_values`, tests/test_engine_raw.py).
"""

from __future__ import annotations

from fractions import Fraction
from itertools import chain
from typing import Any

from ..errors import UsageError
from ..model import Model, build_model
from ..model.collector import fewer_collections
from ..model.compiled import MAX_STATES
from ..numbers import get_backend
from ..progress import SILENT

from .cyclic import MAX_ROUNDS, CyclicComponents
from .selfloop import SelfLoops
from .selfloop_plain import PlainSelfLoops
from .exact_dists import DistributionConverter
from .finish import Finish
from .lazy import LazyDict, LazyValues, MappedValues
from .lazy_cyclic import LazyCyclic
from .attractor import never_ending
from .ending import condense, entered_states, witness_kind
from .solution import SCCStats, Solution, constant_sum_total, with_second

__all__ = ["solve", "solve_model", "witness_kind", "MAX_ROUNDS"]


def solve(game, backend: str = "mpq", progress=SILENT, max_states: int = MAX_STATES, lazy: bool = True) -> Solution:
    """Solve a game (a Python object following the protocol, or a compiled :class:`Model`) exactly
    (``lazy``: as in :func:`solve_model`)."""
    model = game if isinstance(game, Model) else build_model(game, max_states, progress)
    return solve_model(model, backend, progress, lazy=lazy)


def solve_model(model: Model, backend: str = "mpq", progress=SILENT, filter: bool = True, lazy: bool = True) -> Solution:
    """``filter=False`` evaluates every action exactly (the reference the ball filter is tested against);
    ``lazy=False`` computes every exact value, margin and action value during the solve (the reference
    the lazy engine, :mod:`.lazy_cyclic`, is tested against; with ``lazy=True`` they are computed on
    first access, with the same results)."""
    if model.never_ending == "infinite" and model.has_end_component():
        # a strategy that does not end play is worth +infinity (without an end component every play
        # ends and the two semantics agree)
        return _solve_proper(model, backend, progress)
    # millions of small containers, no garbage cycles of their own (race 100 -0.3 s); the model frozen
    # out of the collector's full passes while it runs (hold 75 / 6 -2.5 s)
    with fewer_collections(freeze=True):
        return _Engine(model, backend, progress, filter, lazy).run()


def _solve_proper(model: Model, backend: str, progress) -> Solution:
    """:func:`exactplay.proper.solve_proper` with this engine as its exact solver of the models where every
    play ends, as a :class:`Solution` (witness ``proper``, ``values[s]`` None where +infinity)."""
    from ..proper import solve_proper

    def exact(m: Model):
        sol = solve_model(m, backend, progress, lazy=False)
        return sol.values, sol.stats.to_dict()

    found = solve_proper(model, backend, exact, progress)
    return Solution(model=model, backend=get_backend(backend).name, objective=model.resolved_objective(),
                    keys=model.keys(), components=[0], witness="proper", values=found.values, policy=found.policy,
                    margins=found.margins, ties=found.ties, q=found.q, ranks=found.ranks, never_ends=[],
                    stats=SCCStats(**found.stats), infinite=found.infinite)


class _Engine(LazyCyclic, Finish, CyclicComponents, PlainSelfLoops, SelfLoops):
    def __init__(self, model: Model, backend: str, progress, filter: bool = True, lazy: bool = False) -> None:
        self.filter = filter
        self.lazy = self.lazy_margins = lazy
        B = get_backend(backend)
        if not B.exact:
            raise UsageError("the engine computes exactly: choose the backend mpq or fraction")
        self.B = B
        self.model = model
        self.progress = progress
        self.zero, self.one = B.zero, B.one
        self._cache: dict[tuple[int, int], Any] = {}
        n = len(model)
        self.n = n
        self.succ = [sorted(model.successors(s)) for s in range(n)]
        self.stats = SCCStats()

    # ------------------------------------------------------------ numbers

    def num(self, x: Fraction) -> Any:
        key = (x.numerator, x.denominator)  # hashing a pair of ints is far cheaper than hashing a Fraction
        v = self._cache.get(key)
        if v is None:
            v = self._cache[key] = self.B.make(x.numerator, x.denominator)
        return v

    def _setup_projection(self, components: list[int], unconverted: set[int] = frozenset()) -> None:
        """The payoffs, rewards and distributions in the engine's numbers, projected on ``components``;
        the states in ``unconverted`` (solved as self-loops: :mod:`.selfloop` converts the actions it
        reads) are left ``None`` in ``self.dist``."""
        m = self.model
        self.components = components
        index = {c: i for i, c in enumerate(components)}
        self.P = len(components)
        self.keys = [(index.get(c), sign) for c, sign in m.keys()]
        self.pay = [None if p is None else tuple(self.num(p[c]) for c in components) for p in m.terminal]
        # each probability object converted once (:mod:`.exact_dists`)
        self.convert = conv = DistributionConverter(m.trans, self.num)
        self.dist = conv.states(unconverted)
        if any(filter(None, chain.from_iterable(m.rewards))):
            self.rew = [[None if r is None or not any(r[c] for c in components)
                         else tuple(self.num(r[c]) for c in components) for r in rs] for rs in m.rewards]
        else:  # no rewards: the model's lists of None, as they are (the engine never writes them)
            self.rew = m.rewards
        # some action has a reward in the projected components (else no reward is looked up)
        self.rewarded = self.rew is not m.rewards and any(filter(None, chain.from_iterable(self.rew)))

    # ------------------------------------------------------------ driver

    def run(self) -> Solution:
        m = self.model
        comps, ec = self.condensation()
        # the lazy containers only where some component can leave numbers pending (a cyclic one)
        self.lazy = self.lazy and self.B.name == "mpq" and any(len(comp) > 1 for comp in comps)
        if self.lazy:
            self._entered = entered_states(self.succ, comps, self._comp_of)
        self.witness, components = witness_kind(m, comps, ec, self.succ, self._comp_of)
        succ = self.succ
        self.prepare(self.witness, components, {c[0] for c in comps if len(c) == 1 and c[0] in succ[c[0]]})
        n = self.n
        self.stats.components = len(comps)
        self.progress.start(f"solving {n:,} states in {len(comps):,} components ({self.B.name})", n)
        for comp, has_ec in zip(comps, ec):
            self.solve_component(comp, has_ec)
            self.progress.advance(len(comp))
        self._fballs, self._fpballs = {}, {}  # not read by the pending work (it is exact): free them
        self._fvals, self._pfloats = {}, {}
        self._comp_of = None  # (read by entered_states and witness_kind only)
        return self.solution()

    def condensation(self) -> tuple[list[list[int]], list[bool]]:
        """The components, sinks first (Tarjan), and whether each holds an end component
        (:func:`.ending.condense`; the component of each state is kept for the passes after it)."""
        comps, ec, self._comp_of = condense(self.model, self.succ)
        self._comps = comps
        return comps, ec

    def prepare(self, witness: str, components: list[int], self_loops: set[int] = frozenset()) -> None:
        """Empty values, policy, ranks, margins, ties for a run with this witness and components
        (``self_loops``: the states solved as self-loops, whose distributions are converted by action)."""
        self.witness = witness
        self.reported = components
        self.total = constant_sum_total(self.model, witness, components)  # then only component 0 is solved
        self._setup_projection(components if self.total is None else [0], self_loops)
        n = self.n
        lazy = self.lazy
        self.V: list[tuple | None] = LazyValues([None] * n) if lazy else [None] * n
        self.policy: list[int | None] = [None] * n
        self.ranks: list[int | None] = [None] * n
        self.margins: dict[int, Any] = LazyDict() if self.lazy_margins else {}
        self.ties: dict[int, list[int]] = {}
        self.q: dict[int, list] = LazyDict() if self.lazy_margins else {}
        self._fballs: dict = {}  # component -> {state: fine ball of its value} (lazy components)
        self._fvals: dict[int, list] = {}  # component -> per state: float of its final value, None: not yet (seed)
        self._pfloats: dict[int, float] = {}  # id of a probability -> its float
        self._fpballs: dict = {}
        self._last_q: dict[int, list] = {}
        self._balls: dict = {}  # (state, component) -> ball of its final value
        self._local_balls: dict = {}  # the same for the values of the current evaluation
        self._pballs: dict = {}
        self._stay_floats, self._prob_floats, self._loop_floats = {}, {}, {}  # the self-loops' (selfloop.py)
        self._stays_of: dict[tuple, tuple] = {}
        self._plain_of: dict[tuple, tuple] = {}  # (selfloop_plain.py)
        self._plain = self.filter and witness == "termination" and self.P == 1
        self._negative_floats: set[int] = set()

    def solve_component(self, comp: list[int], has_ec: bool) -> None:
        """Values, policy and ranks of one component; reads only ``V`` and ``ranks`` of its successors."""
        st = self.stats
        st.largest = max(st.largest, len(comp))
        st.with_end_component += has_ec
        if len(comp) == 1 and comp[0] not in self.succ[comp[0]]:
            st.single += 1
            self._single(comp[0])
        elif len(comp) == 1:
            st.self_loop += 1
            if not self._plain_loop(comp[0]):  # the common case fused (:mod:`.selfloop_plain`)
                self._self_loop(comp[0])
        else:
            st.cyclic += 1
            self._cyclic(comp, has_ec)

    def solution(self) -> Solution:
        m = self.model
        return Solution(
            model=m, backend=self.B.name, objective=m.resolved_objective(), keys=m.keys(),
            components=self.reported, witness=self.witness, policy=self.policy,
            values=self.V if self.total is None else self._second(),
            margins=self.margins, ties=self.ties, q=self.q, ranks=self.ranks,
            # without an end component every play ends, whatever the players do
            never_ends=[] if self.witness == "termination" else self._never_ending(),
            stats=self.stats,
        )

    def _second(self) -> list:
        if not self.lazy:
            return with_second(self.V, self.num(self.total))
        total = self.num(self.total)
        return MappedValues(self.V, lambda v: (v[0], total - v[0]))

    def _never_ending(self) -> list[int]:
        """States from which no play ends under the final policy (no terminal state is reachable)."""
        # the components (sinks first) from the condensation, read here last: then freed
        return never_ending(self.model.terminal, self.model.trans, self.policy, self.__dict__.pop("_comps", None))

    # ------------------------------------------------------------ Bellman pieces

    def _q(self, s: int, a: int, local: dict | None = None) -> list:
        """``r_a + sum p V(t)`` as a list over the certified components."""
        r = self.rew[s][a]
        d = self.dist[s][a]
        if r is None and len(d) == 1:  # a sure move (probability 1): the successor's value itself
            t = d[0][0]
            return list(local[t] if local is not None and t in local else self.V[t])
        out = list(r) if r is not None else [self.zero] * self.P
        for t, p in d:
            v = local[t] if local is not None and t in local else self.V[t]
            for c in range(self.P):
                if v[c]:
                    out[c] = out[c] + p * v[c]
        return out

    def _q_key(self, s: int, a: int, c: int, local: dict | None = None) -> Any:
        r = self.rew[s][a]
        d = self.dist[s][a]
        if r is None and len(d) == 1:  # a sure move (probability 1)
            t = d[0][0]
            return (local[t] if local is not None and t in local else self.V[t])[c]
        out = r[c] if r is not None else self.zero
        for t, p in d:
            v = local[t] if local is not None and t in local else self.V[t]
            if v[c]:
                out = out + p * v[c]
        return out

    def _choose(self, s: int, q: list[Any]) -> list[int]:
        """Record the optimal set, margin and ties of a choice state from its key values ``q``; return the optimal set."""
        sign = self.keys[self.model.mover[s]][1]
        self.q[s] = list(q)
        if len(q) == 2 and q[0] is not None and q[1] is not None:  # one subtraction: order, tie, margin
            d = q[0] - q[1] if sign > 0 else q[1] - q[0]
            if not d:
                self.ties[s], self.margins[s] = [0, 1], self.zero
                return [0, 1]
            self.margins[s] = d if d > 0 else -d
            return [0] if d > 0 else [1]
        keyed = q if sign > 0 else [None if x is None else -x for x in q]
        best = max(x for x in keyed if x is not None)
        opt = [a for a, x in enumerate(keyed) if x is not None and x == best]  # None == mpq is slow
        rest = [x for x in keyed if x is not None and x != best]
        if len(opt) > 1:
            self.ties[s] = opt
            self.margins[s] = self.zero
        else:
            self.margins[s] = best - max(rest)
        return opt

    def _is_choice(self, s: int) -> bool:
        return self.model.mover[s] is not None and len(self.model.trans[s]) > 1

    # ------------------------------------------------------------ the three kinds of component

    def _single(self, s: int) -> None:
        if self.pay[s] is not None:
            self.V[s] = self.pay[s]
            if self.witness != "reachability" or self.pay[s][0] > 0:
                self.ranks[s] = 0
            return
        if self._raw and self._single_raw(s):  # successors pending as unreduced numerators (:mod:`.raw_values`)
            return
        if not self._is_choice(s):
            self.V[s] = tuple(self._q(s, 0))
            self._finish([s], {}, {})
            return
        # the mover compares its own component; the whole vector only for the chosen action
        c = self.keys[self.model.mover[s]][0]
        opt = {s: self._choose(s, [self._q_key(s, a, c) for a in range(len(self.dist[s]))])}
        self.V[s] = tuple(self._q(s, opt[s][0]))
        self._finish([s], opt, {})
        if self.policy[s] != opt[s][0]:
            self.V[s] = tuple(self._q(s, self.policy[s]))
