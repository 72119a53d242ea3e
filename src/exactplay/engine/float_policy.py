"""Float policy iteration on one large component, in numpy and scipy's SuperLU: the engine's guess of its choices.

The component's choices are numbered locally; choice ``a`` has the float ``base[a]`` (its reward plus
``sum_{t outside} p V(t)``, the outside values being solved) and its transitions inside, ``(tr_choice,
tr_target, tr_p)``.  For a policy ``pol`` (one choice per state):

* evaluation: the states that cannot leave under ``pol`` are worth 0 (play never ends); the others solve
  ``(I - Q_pol) x = base[pol]`` by a sparse LU (scipy's SuperLU, called as
  :func:`scipy.sparse.linalg.spsolve` calls it, without importing :mod:`scipy.sparse`);
* improvement: every choice's ``q = base + sum p x(t)`` at once (``numpy.bincount``), and each state whose
  best signed ``q`` beats its current one by more than a relative ``switch`` takes the first best.

Only a guess: the exact engine evaluates the policy exactly and improves it only on a strict exact
improvement, so a float that misleads costs rounds, never a wrong value.  For the small components the
engine's own elimination in floats is cheaper (no arrays to build); this path runs from
:data:`MIN_STATES` states on.
"""

from __future__ import annotations

__all__ = ["ComponentFloats", "MIN_STATES"]

_SUPERLU = []


def _superlu():
    """scipy's SuperLU extension (``scipy.sparse.linalg._dsolve._superlu``, what ``spsolve`` calls), loaded
    from its file: importing it by name imports ``scipy.sparse`` and ``scipy.sparse.linalg`` first (~0.1 s
    at start-up, most of it scipy's array-API layer importing every numpy submodule); the extension
    itself needs only numpy."""
    if not _SUPERLU:
        import sys

        mod = sys.modules.get("scipy.sparse.linalg._dsolve._superlu")
        if mod is None:
            import glob
            import importlib
            import importlib.util
            import os

            spec = importlib.util.find_spec("scipy")
            if spec is None or spec.origin is None:
                raise ImportError("scipy is needed for the float guess of large components")
            where = os.path.join(os.path.dirname(spec.origin), "sparse", "linalg", "_dsolve")
            found = glob.glob(os.path.join(glob.escape(where), "_superlu.*"))
            name = "scipy.sparse.linalg._dsolve._superlu"
            if len(found) != 1:  # not the usual layout: the ordinary import
                mod = importlib.import_module(name)
            else:
                mod = importlib.util.module_from_spec(importlib.util.spec_from_file_location(name, found[0]))
                mod.__spec__.loader.exec_module(mod)
        _SUPERLU.append(mod)
    return _SUPERLU[0]


def _public_spsolve(np, n: int, data, indices, indptr, b):
    """``spsolve`` of the same compressed-column matrix through scipy's public API (the guard of
    :meth:`ComponentFloats.evaluate` when the private SuperLU call fails)."""
    from scipy.sparse import csc_matrix
    from scipy.sparse.linalg import spsolve

    return np.asarray(spsolve(csc_matrix((data, indices, indptr), shape=(n, n)), b), dtype=np.float64)


def _reaching(np, k: int, rows, cols, sources):
    """The states among ``0 .. k-1`` from which some state of ``sources`` is reached along the edges
    ``rows[e] -> cols[e]`` (a boolean array): a backward breadth-first search, one level per step."""
    order = np.argsort(cols, kind="stable")
    pred = rows[order]  # the sources of the edges into each state, grouped by target
    start = np.zeros(k + 1, dtype=np.int64)
    np.cumsum(np.bincount(cols, minlength=k), out=start[1:])
    seen = np.zeros(k, dtype=bool)
    seen[sources] = True
    frontier = np.flatnonzero(seen)
    while len(frontier):
        lo, hi = start[frontier], start[frontier + 1]
        lengths = hi - lo
        total = int(lengths.sum())
        if not total:
            break
        offsets = np.repeat(lo - np.cumsum(lengths) + lengths, lengths) + np.arange(total)
        nxt = pred[offsets]
        nxt = np.unique(nxt[~seen[nxt]])
        seen[nxt] = True
        frontier = nxt
    return seen

MIN_STATES = 400  # components of at least this many states are guessed here (benchmarks/qvbs.py)


class ComponentFloats:
    def __init__(self, k: int, state_of: list[int], cstart: list[int], sign: list[int], base: list[float],
                 tr_choice: list[int], tr_target: list[int], tr_p: list[float]) -> None:
        """``k`` states; choice ``a`` (local) belongs to state ``state_of[a]``, state ``i`` has the choices
        ``cstart[i] .. cstart[i+1]-1``; ``sign[i]`` is +1 (maximiser, chance) or -1 (minimiser)."""
        import numpy as np

        self.np = np
        self.k = k
        self.state_of = np.asarray(state_of, dtype=np.int64)
        self.cstart = np.asarray(cstart, dtype=np.int64)
        self.sign = np.asarray(sign, dtype=np.float64)
        self.base = np.asarray(base, dtype=np.float64)
        self.tr_choice = np.asarray(tr_choice, dtype=np.int64)
        self.tr_target = np.asarray(tr_target, dtype=np.int64)
        self.tr_p = np.asarray(tr_p, dtype=np.float64)
        self.m = len(base)
        self.count = np.diff(self.cstart)

    def evaluate(self, pol):
        """The float values under ``pol`` (local choice numbers per state, a numpy array)."""
        np = self.np
        k = self.k
        chosen = np.zeros(self.m, dtype=bool)
        chosen[pol] = True
        sel = chosen[self.tr_choice]
        rows = self.state_of[self.tr_choice[sel]]
        cols = self.tr_target[sel]
        ps = self.tr_p[sel]
        # states that can leave: some chosen choice has a row sum below 1 (a transition out), then backwards
        inside_sum = np.bincount(rows, weights=ps, minlength=k)
        open_ = _reaching(np, k, rows, cols, np.flatnonzero(inside_sum < 1.0 - 1e-15))
        x = np.zeros(k)
        idx = np.flatnonzero(open_)
        if not len(idx):
            return x
        pos = np.full(k, -1, dtype=np.int64)
        pos[idx] = np.arange(len(idx))
        keep = open_[rows] & open_[cols]
        n = len(idx)
        # I - Q_pol in compressed columns (duplicates summed, rows ascending in each column), for SuperLU
        r = np.concatenate([pos[rows[keep]], np.arange(n)])
        c = np.concatenate([pos[cols[keep]], np.arange(n)])
        key, inv = np.unique(c * n + r, return_inverse=True)
        data = np.bincount(inv, weights=np.concatenate([-ps[keep], np.ones(n)]))
        indices = (key % n).astype(np.intc)
        indptr = np.zeros(n + 1, dtype=np.intc)
        np.cumsum(np.bincount(key // n, minlength=n), out=indptr[1:])
        b = np.array(self.base[pol[idx]], dtype=np.float64)
        try:
            sol, info = _superlu().gssv(n, len(data), data, indices, indptr, b, 1, options=dict(ColPerm=None))
        except Exception:  # a scipy whose private SuperLU call differs: its public solver (slower to import)
            sol, info = _public_spsolve(np, n, data, indices, indptr, b), 0
        if info != 0 or not np.all(np.isfinite(sol)):
            return x
        x[idx] = sol
        return x

    def q(self, x):
        """Every choice's ``base + sum p x(t)``."""
        np = self.np
        return self.base + np.bincount(self.tr_choice, weights=self.tr_p * x[self.tr_target], minlength=self.m)

    def improve(self, pol, x, switch: float) -> bool:
        """Each state to its first best choice where that beats the current one by more than ``switch``
        (relative); True if any switched (``pol`` changed in place)."""
        np = self.np
        sq = self.q(x) * self.sign[self.state_of]
        best = np.maximum.reduceat(sq, self.cstart[:-1])
        cur = sq[pol]
        better = best > cur + switch * np.maximum(1.0, np.abs(cur))
        if not better.any():
            return False
        at_best = np.flatnonzero(sq >= best[self.state_of])
        states, firsts = np.unique(self.state_of[at_best], return_index=True)
        first_best = np.empty(self.k, dtype=np.int64)
        first_best[states] = at_best[firsts]
        pol[better] = first_best[better]
        return True

    def iterate(self, pol, rounds: int, switch: float):
        """Policy iteration from ``pol`` (local choice numbers, changed in place); the last values."""
        np = self.np
        pol = np.asarray(pol, dtype=np.int64)
        x = self.evaluate(pol)
        for _ in range(rounds):
            if not self.improve(pol, x, switch):
                break
            x = self.evaluate(pol)
        return pol, x
