"""Float policy iteration on one large component, in numpy and scipy: the engine's guess of its choices.

The component's choices are numbered locally; choice ``a`` has the float ``base[a]`` (its reward plus
``sum_{t outside} p V(t)``, the outside values being solved) and its transitions inside, ``(tr_choice,
tr_target, tr_p)``.  For a policy ``pol`` (one choice per state):

* evaluation: the states that cannot leave under ``pol`` are worth 0 (play never ends); the others solve
  ``(I - Q_pol) x = base[pol]`` by a sparse LU (SuperLU, :func:`scipy.sparse.linalg.spsolve`);
* improvement: every choice's ``q = base + sum p x(t)`` at once (``numpy.bincount``), and each state whose
  best signed ``q`` beats its current one by more than a relative ``switch`` takes the first best.

Only a guess: the exact engine evaluates the policy exactly and improves it only on a strict exact
improvement, so a float that misleads costs rounds, never a wrong value.  For the small components the
engine's own elimination in floats is cheaper (no arrays to build); this path runs from
:data:`MIN_STATES` states on.
"""

from __future__ import annotations

__all__ = ["ComponentFloats", "MIN_STATES"]

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
        from scipy.sparse import csr_matrix
        from scipy.sparse.csgraph import breadth_first_order
        from scipy.sparse.linalg import spsolve

        k = self.k
        chosen = np.zeros(self.m, dtype=bool)
        chosen[pol] = True
        sel = chosen[self.tr_choice]
        rows = self.state_of[self.tr_choice[sel]]
        cols = self.tr_target[sel]
        ps = self.tr_p[sel]
        # states that can leave: some chosen choice has a row sum below 1 (a transition out), then backwards
        inside_sum = np.bincount(rows, weights=ps, minlength=k)
        leaves = np.flatnonzero(inside_sum < 1.0 - 1e-15)
        rev = csr_matrix((np.ones(len(rows) + len(leaves)), (np.concatenate([cols, np.full(len(leaves), k)]),
                                                             np.concatenate([rows, leaves]))), shape=(k + 1, k + 1))
        reach = breadth_first_order(rev, k, directed=True, return_predecessors=False)
        open_ = np.zeros(k + 1, dtype=bool)
        open_[reach] = True
        open_ = open_[:k]
        x = np.zeros(k)
        idx = np.flatnonzero(open_)
        if not len(idx):
            return x
        pos = np.full(k, -1, dtype=np.int64)
        pos[idx] = np.arange(len(idx))
        keep = open_[rows] & open_[cols]
        n = len(idx)
        A = csr_matrix((-ps[keep], (pos[rows[keep]], pos[cols[keep]])), shape=(n, n))
        A = A + csr_matrix((np.ones(n), (np.arange(n), np.arange(n))), shape=(n, n))
        b = self.base[pol[idx]]
        sol = spsolve(A.tocsc(), b)
        if not np.all(np.isfinite(sol)):
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
