"""The float seed of a cyclic component, as a mixin of :class:`exactplay.engine.solve._Engine`.

:meth:`SeedPolicy._seed_from` gives exact strategy iteration (:mod:`.cyclic`, :mod:`.lazy_cyclic`)
its first policy, in IEEE doubles (the seed only guides: a wrong seed costs rounds, never
correctness):

1. greedy passes over affine forms in the component's cut states (:mod:`.seed_forms`), started
   from the cut values of the last component so seeded (neighbouring components of Hold or Pig
   have close values: fewer passes than from a constant);
2. where those do not apply (too many cuts, a singular cut system), :mod:`.seed`: a few
   Gauss-Seidel sweeps, then float strategy iteration.

Floats are converted once: each probability object once per solve (``_pfloats``, by ``id``: the
engine's ``dist`` keeps the objects alive), each outside state's final value once per payoff
component (``_fvals[c]``, a list indexed by state).
"""

from __future__ import annotations

from . import seed
from .seed import float_strategy_iteration, gauss_seidel_seed
from .seed_forms import MAX_CUTS, seed_by_forms

__all__ = ["SeedPolicy", "float_dist"]

_BIG = 1.7976931348623157e308  # the largest double: a value beyond doubles is clamped to it


def float_dist(d, pfloats: dict) -> list[tuple[int, float]]:
    """An action's distribution ``[(t, p), ...]`` in floats, each probability object converted once
    (``pfloats``: id -> float; the objects must stay alive while it is used).

    >>> from fractions import Fraction
    >>> float_dist([(3, Fraction(1, 4)), (5, Fraction(3, 4))], {})
    [(3, 0.25), (5, 0.75)]
    """
    get = pfloats.get
    out = []
    for t, p in d:
        x = get(id(p))
        if x is None:
            x = pfloats[id(p)] = float(p)
        out.append((t, x))
    return out


def safe_float(x) -> float:
    """``float(x)``, clamped to the largest double in absolute value (the seed only guides).

    >>> safe_float(10 ** 400), safe_float(-10 ** 400), safe_float(3)
    (1.7976931348623157e+308, -1.7976931348623157e+308, 3.0)
    """
    try:
        return float(x)
    except OverflowError:
        return _BIG if x > 0 else -_BIG


class SeedPolicy:
    _seed_x = [0.5] * MAX_CUTS  # the cut values the forms seed starts from: the last seeded component's
    _seed_signs: list[int] | None = None  # per state: the mover's sign (-1 minimiser), 1 for a chance or forced state

    def _signs(self) -> list[int]:
        """Per state, +1 maximiser (and chance or forced states), -1 minimiser (computed once per solve)."""
        signs = self._seed_signs
        if signs is None:
            keys, mover, dist = self.keys, self.model.mover, self.model.trans  # (a self-loop state is not converted)
            signs = self._seed_signs = [1 if mv is None or len(dist[s]) < 2 else keys[mv][1]
                                        for s, mv in enumerate(mover)]
        return signs

    def _seed_from(self, S: list[int], c: int, work_limit: int) -> dict[int, int]:
        """A first policy (state -> action index) for component ``S``, payoff component ``c``: the
        forms seed, or the Gauss-Seidel sweeps (at most ``work_limit`` float operations; 0: one sweep
        and nothing else) and float strategy iteration (when at least two sweeps fit)."""
        outside = self._fvals.get(c)  # final values of earlier components, by state: converted once
        if outside is None:
            outside = self._fvals[c] = [None] * self.n
        V = self.V

        def fval_outside(t):
            x = outside[t]
            if x is None:
                try:
                    x = float(V[t][c])
                except OverflowError:
                    x = float("inf") if V[t][c] > 0 else float("-inf")
                outside[t] = x
            return x

        rew = self.rew

        def reward(s):
            rs = rew[s]
            return None if rs.count(None) == len(rs) else [0.0 if r is None else safe_float(r[c]) for r in rs]

        sign = self._signs()
        if work_limit:
            found = seed_by_forms(S, self.succ.__getitem__, self.dist.__getitem__,
                                  reward if self.rewarded else None, self._pfloats,
                                  sign.__getitem__, fval_outside, self._seed_x)
            if found is not None:
                pol, x = found
                self._seed_x = x + self._seed_x[len(x):]
                return pol
        fv = {s: 0.0 for s in S}

        def fval(t):
            return fv[t] if t in fv else fval_outside(t)

        signs = {s: sign[s] for s in S}
        fdist = {s: [(float_dist(d, self._pfloats), 0.0 if r is None else safe_float(r[c]))
                     for d, r in zip(self.dist[s], rew[s])] for s in S}
        work = sum(len(d) for acts in fdist.values() for d, _ in acts) or 1
        sweeps = max(1, min(20, work_limit // work))
        pol = gauss_seidel_seed(S, fdist, signs, fval, fv, min(sweeps, seed.SWEEPS_BEFORE_ITERATION))
        if sweeps > 1:
            choice = [s for s in S if self._is_choice(s)]
            pol = float_strategy_iteration(S, fdist, pol, fval_outside, self._comp_has_ec,
                                           [s for s in choice if signs[s] > 0], [s for s in choice if signs[s] < 0])
        return pol
