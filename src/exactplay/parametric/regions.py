"""The parametric solve: regions of the parameter where one policy is optimal, and their breakpoints.

Sweep from the left end ``L`` of the range:

1. pick a rational sample ``s > L`` and solve the model at ``p = s`` exactly with the engine
   (:func:`exactplay.engine.solve_model`; ties: the earlier action): a policy ``sigma``;
2. evaluate ``sigma`` over ``Q(p)`` (:mod:`.evaluate`): values and margins as rational functions;
3. the margins are ``> 0`` at ``s`` except where identically 0; their numerators and
   denominators change sign only at roots of their irreducible factors.  If some factor has a
   root in ``(L, s]``, ``sigma`` is not optimal all the way down to ``L``: move ``s`` below that
   root (refining ``L``'s isolating interval when ``L`` is algebraic) and go back to 1;
4. otherwise ``sigma`` is optimal on ``(L, R)``, ``R`` the smallest root of those factors above
   ``s`` (or the range's right end).  ``R`` is the next breakpoint; continue from ``L = R``.

Supported models: every play ends with probability 1 whatever the players choose (the
engine's ``termination`` witness) on the open range, where the graph is constant.  There the
Bellman optimality equations have a unique solution at every ``p``, so a policy whose margins
are all ``>= 0`` on a region is optimal on that region.  Other models are refused with a reason.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from ..engine import solve_model
from ..model import ModelError
from ..progress import SILENT
from .build import PModel
from .evaluate import _Probs, evaluate_policy, margins
from .ratfunc import RatFunc
from .roots import Algebraic, irreducible_factors, roots_of_irreducible, sign_at

__all__ = ["Region", "Breakpoint", "ParametricSolution", "solve_parametric", "MAX_REGIONS"]

MAX_REGIONS = 1000
MAX_SAMPLES = 10_000


@dataclass
class Region:
    lo: Fraction | Algebraic
    hi: Fraction | Algebraic
    sample: Fraction
    policy: list[int | None]
    values: list[tuple[RatFunc, ...]]
    margins: dict[int, dict[int, RatFunc]]


@dataclass
class Breakpoint:
    point: Algebraic
    flips: list[tuple[int, int, int]]  # (state, action on the left, action on the right)


@dataclass
class ParametricSolution:
    model: PModel
    lo: Fraction
    hi: Fraction
    objective: str
    keys: list[tuple[int, int]]
    components: list[int]
    regions: list[Region]
    breakpoints: list[Breakpoint]
    stats: dict[str, Any] = field(default_factory=dict)

    def value_component(self) -> int:
        """The component reported as "the value": the first chooser's objective, else player 0's."""
        return self.components.index(self.keys[0][0]) if self.keys else 0


def _point_between(lo, hi) -> Fraction:
    """A rational strictly inside ``(lo, hi)``, ``lo`` rational or algebraic, ``hi`` rational."""
    if isinstance(lo, Algebraic):
        while lo.hi >= hi:
            lo.refine()
        return lo.hi
    return (lo + hi) / 2


class _Sweep:
    def __init__(self, pm: PModel, lo: Fraction, hi: Fraction, backend: str, progress) -> None:
        self.pm, self.lo, self.hi, self.backend, self.progress = pm, lo, hi, backend, progress
        self.probs = _Probs()
        self.factor_cache: dict[tuple, list] = {}
        self.root_cache: dict[tuple, list[Algebraic]] = {}
        self.stats = {"engine_solves": 0, "evaluations": 0, "factors": 0, "max_value_degree": 0,
                      "isolated_roots": 0}
        self.timing = {"engine": 0.0, "evaluate": 0.0, "factor": 0.0, "roots": 0.0}

    def _timed(self, key, fn, *a):
        import time

        t0 = time.process_time()
        try:
            return fn(*a)
        finally:
            self.timing[key] += time.process_time() - t0

    def analyse(self, s: Fraction):
        """Policy at ``s`` (engine), values and margins over Q(p), and the margins' irreducible factors."""
        model = self.pm.at(s)
        sol = self._timed("engine", solve_model, model, self.backend)
        self.stats["engine_solves"] += 1
        if sol.witness != "termination":
            raise ModelError(
                "parametric solving needs every play to end with probability 1 whatever the players choose "
                f"(this model's exact solution rests on the {sol.witness!r} witness: play can go on forever "
                "under some strategies)")
        if not hasattr(self, "keys"):
            self.keys, self.components, self.objective = sol.keys, list(sol.components), sol.objective
        V = self._timed("evaluate", evaluate_policy, self.pm, sol.policy, self.components, self.probs)
        M = self._timed("evaluate", margins, self.pm, sol.policy, self.keys, self.components, V, self.probs)
        self.stats["evaluations"] += 1
        for s_ in range(len(self.pm)):
            want = sol.values[s_]
            got = tuple(v.at(s) for v in V[s_])
            if tuple(Fraction(x) for x in want) != got:
                raise RuntimeError(f"internal error: parametric value of state {s_} disagrees with the engine at {s}")
            self.stats["max_value_degree"] = max(self.stats["max_value_degree"], max(v.degree() for v in V[s_]))
        # only the numerators can change sign: a denominator divides det(I - P_sigma(p)), which does not
        # vanish on the open range (every play ends for every p there); the checker verifies it anyway
        polys = [m.num for row in M.values() for m in row.values() if m]
        factors = self._timed("factor", self._factors, polys)
        return sol.policy, V, M, factors

    def _factors(self, polys):
        out: dict[tuple, Any] = {}
        for f in polys:
            if f.degree() < 1:
                continue
            key = tuple(f.coeffs())
            fs = self.factor_cache.get(key)
            if fs is None:
                fs = self.factor_cache[key] = irreducible_factors([f])
            for h in fs:
                out.setdefault(tuple(int(c) for c in h.coeffs()), h)
        self.stats["factors"] = max(self.stats["factors"], len(out))
        return list(out.values())

    def roots(self, factors, a, b) -> list[Algebraic]:
        """The roots of the factors in the open ``(a, b)`` (each factor isolated once on the whole range)."""
        return self._timed("roots", self._roots, factors, a, b)

    def _roots(self, factors, a, b) -> list[Algebraic]:
        out = []
        for h in factors:
            key = tuple(int(c) for c in h.coeffs())
            rs = self.root_cache.get(key)
            if rs is None:
                rs = self.root_cache[key] = roots_of_irreducible(h, self.lo, self.hi)
                self.stats["isolated_roots"] += len(rs)
            out.extend(r for r in rs if r > a and r < b)
        return out

    def run(self) -> ParametricSolution:
        regions: list[Region] = []
        breaks: list[Breakpoint] = []
        L: Fraction | Algebraic = self.lo
        samples = 0
        self.progress.start("parametric regions (exact solve per region)")
        while True:
            s = _point_between(L, self.hi)
            while True:
                samples += 1
                if samples > MAX_SAMPLES:
                    raise ModelError(f"more than {MAX_SAMPLES} sample points: the regions do not close")
                policy, V, M, factors = self.analyse(s)
                left = L.lo if isinstance(L, Algebraic) else L
                inside = [r for r in self.roots(factors, left, s) if not (isinstance(L, Algebraic) and r._cmp(L) <= 0)]
                inside += [Algebraic(h, s - 1, s + 1) for h in factors if h.degree() == 1 and sign_at(h, s) == 0]
                if not inside:
                    break
                first = min(inside)
                if isinstance(L, Algebraic):
                    while not L.hi < first.lo:
                        L.refine()
                        first.refine()
                    s = L.hi
                else:
                    while not first.lo > L:
                        first.refine()
                    s = (L + first.lo) / 2
            above = self.roots(factors, s, self.hi)
            R = min(above) if above else self.hi
            if regions:
                prev = regions[-1].policy
                breaks.append(Breakpoint(L, [(t, prev[t], policy[t]) for t in range(len(policy))
                                             if prev[t] != policy[t]]))
            regions.append(Region(L, R, s, policy, V, M))
            self.progress.advance(1)
            if len(regions) > MAX_REGIONS:
                raise ModelError(f"more than {MAX_REGIONS} regions of constant optimal policy")
            if not isinstance(R, Algebraic):
                break
            L = R
        self.stats.update(regions=len(regions), samples=samples)
        self.stats["seconds"] = {k: round(v, 3) for k, v in self.timing.items()}
        return ParametricSolution(self.pm, self.lo, self.hi, self.objective, self.keys, self.components,
                                  regions, breaks, self.stats)


def solve_parametric(pm: PModel, lo: Fraction, hi: Fraction, backend: str = "mpq",
                     progress=SILENT) -> ParametricSolution:
    """Regions of constant optimal policy on ``(lo, hi)``; the range must already be checked."""
    return _Sweep(pm, lo, hi, backend, progress).run()
