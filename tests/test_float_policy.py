"""engine.float_policy: the float evaluation calls SuperLU without scipy.sparse; it gives spsolve's values."""

import random
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from exactplay.engine import float_policy
from exactplay.engine.float_policy import ComponentFloats

SRC = str(Path(__file__).resolve().parent.parent / "src")


def _component(seed: int, k: int):
    rnd = random.Random(seed)
    state_of, cstart, sign, base, tc, tt, tp = [], [0], [], [], [], [], []
    for i in range(k):
        for _ in range(rnd.randint(1, 3)):
            a = len(base)
            state_of.append(i)
            base.append(rnd.random())
            targets = [rnd.randrange(k) for _ in range(rnd.randint(1, 4))]
            if rnd.random() < 0.3:
                targets.append(targets[0])  # a repeated target: the two entries are summed
            weights = [rnd.random() for _ in targets]
            out = 0.0 if rnd.random() < 0.5 else rnd.random()  # no way out, or some
            total = sum(weights) + out
            for t, w in zip(targets, weights):
                tc.append(a), tt.append(t), tp.append(w / total)
        cstart.append(len(base))
        sign.append(rnd.choice((1, -1)))
    return ComponentFloats(k, state_of, cstart, sign, base, tc, tt, tp)


def _reference(cf: ComponentFloats, pol):
    """The evaluation as it was with scipy.sparse (csr_matrix, breadth_first_order, spsolve)."""
    from scipy.sparse import csr_matrix
    from scipy.sparse.csgraph import breadth_first_order
    from scipy.sparse.linalg import spsolve

    k = cf.k
    chosen = np.zeros(cf.m, dtype=bool)
    chosen[pol] = True
    sel = chosen[cf.tr_choice]
    rows, cols, ps = cf.state_of[cf.tr_choice[sel]], cf.tr_target[sel], cf.tr_p[sel]
    leaves = np.flatnonzero(np.bincount(rows, weights=ps, minlength=k) < 1.0 - 1e-15)
    rev = csr_matrix((np.ones(len(rows) + len(leaves)), (np.concatenate([cols, np.full(len(leaves), k)]),
                                                         np.concatenate([rows, leaves]))), shape=(k + 1, k + 1))
    open_ = np.zeros(k + 1, dtype=bool)
    open_[breadth_first_order(rev, k, directed=True, return_predecessors=False)] = True
    open_ = open_[:k]
    x = np.zeros(k)
    idx = np.flatnonzero(open_)
    if not len(idx):
        return x, open_
    pos = np.full(k, -1, dtype=np.int64)
    pos[idx] = np.arange(len(idx))
    keep = open_[rows] & open_[cols]
    n = len(idx)
    A = csr_matrix((-ps[keep], (pos[rows[keep]], pos[cols[keep]])), shape=(n, n))
    A = A + csr_matrix((np.ones(n), (np.arange(n), np.arange(n))), shape=(n, n))
    x[idx] = spsolve(A.tocsc(), cf.base[pol[idx]])
    return x, open_


@pytest.mark.parametrize("seed", range(12))
def test_evaluate_gives_spsolves_values_and_zero_where_play_cannot_leave(seed):
    k = [1, 2, 5, 40, 200, 450][seed % 6]
    cf = _component(seed, k)
    rnd = random.Random(seed + 100)
    pol = np.array([rnd.randrange(cf.cstart[i], cf.cstart[i + 1]) for i in range(k)], dtype=np.int64)
    x = cf.evaluate(pol)
    ref, open_ = _reference(cf, pol)
    assert np.array_equal(x == 0, ref == 0)
    assert np.allclose(x, ref, rtol=1e-12, atol=1e-12)
    assert not np.any(x[~open_])


@pytest.mark.parametrize("seed", range(8))
def test_reaching_is_the_backward_search(seed):
    rnd = random.Random(seed)
    k = rnd.randint(1, 300)
    edges = [(rnd.randrange(k), rnd.randrange(k)) for _ in range(rnd.randint(0, 3 * k))]
    rows = np.array([a for a, _ in edges], dtype=np.int64)
    cols = np.array([b for _, b in edges], dtype=np.int64)
    sources = np.array(sorted({rnd.randrange(k) for _ in range(rnd.randint(0, 3))}), dtype=np.int64)
    got = float_policy._reaching(np, k, rows, cols, sources)
    want = set(sources.tolist())
    changed = True
    while changed:
        changed = False
        for a, b in edges:
            if b in want and a not in want:
                want.add(a)
                changed = True
    assert set(np.flatnonzero(got).tolist()) == want


def test_the_evaluation_imports_no_scipy_sparse():
    program = (
        "import sys, numpy as np\n"
        "from exactplay.engine.float_policy import ComponentFloats\n"
        "cf = ComponentFloats(2, [0, 1], [0, 1, 2], [1, 1], [1.0, 2.0], [0, 1], [1, 0], [0.5, 0.5])\n"
        "x = cf.evaluate(np.array([0, 1]))\n"
        "assert np.allclose(x, [8 / 3, 10 / 3]), x\n"
        "print(sorted(m for m in sys.modules if m.startswith('scipy')))\n")
    out = subprocess.run([sys.executable, "-c", program], env={"PYTHONPATH": SRC, "PATH": "/usr/bin:/bin"},
                         capture_output=True, text=True, check=True).stdout
    assert out.strip() == "['scipy.sparse.linalg._dsolve._superlu']"


def test_a_failing_private_superlu_call_falls_back_to_spsolve(monkeypatch):
    """When scipy's private SuperLU call fails (another scipy), the evaluation gives spsolve's values."""
    class Broken:
        def gssv(self, *args, **kwargs):
            raise TypeError("gssv() got an unexpected keyword argument")

    monkeypatch.setattr(float_policy, "_superlu", lambda: Broken())
    cf = _component(3, 200)
    rnd = random.Random(103)
    pol = np.array([rnd.randrange(cf.cstart[i], cf.cstart[i + 1]) for i in range(cf.k)], dtype=np.int64)
    ref, _ = _reference(cf, pol)
    assert np.allclose(cf.evaluate(pol), ref, rtol=1e-12, atol=1e-12)
    assert np.any(ref)
