"""The engine's action values (:meth:`exactplay.engine.run.Run.qkeys`, one pass over a state's actions):
on random models off every cycle (one Bellman step per state) and with cycles, every recorded ``q[s]`` is
``r_a + sum_t p V(t)`` (or None, left out by the float filter) computed with fractions from the final values, and the value is the best of them."""

from __future__ import annotations

import random
from fractions import Fraction as F

import pytest

from exactplay.engine import solve_model
from exactplay.model.compiled import Model


def _random_model(rng: random.Random, cyclic: bool) -> Model:
    n = rng.randint(3, 12)
    ends = rng.randint(1, 2)
    states = [f"s{i}" for i in range(n)]
    terminal, mover, actions, trans, rewards = [], [], [], [], []
    for s in range(n):
        if s >= n - ends:
            terminal.append((F(rng.randint(0, 4), rng.randint(1, 3)),))
            mover.append(None)
            actions.append([])
            trans.append([])
            rewards.append([])
            continue
        k = rng.randint(2 if s == 0 else 1, 3)
        terminal.append(None)
        mover.append(0)
        actions.append([f"a{i}" for i in range(k)])
        dists, rws = [], []
        for _ in range(k):
            lo = 0 if cyclic else s + 1  # (acyclic: successors of higher number only)
            ts = rng.sample(range(lo, n), rng.randint(1, min(3, n - lo)))
            if cyclic and s not in ts and n - ends - 1 > s:  # (some way out, so that every play can end)
                ts[-1] = rng.randrange(n - ends, n)
                ts = list(dict.fromkeys(ts))
            weights = [rng.randint(1, 4) for _ in ts]
            dists.append(tuple((t, F(w, sum(weights))) for t, w in zip(ts, weights)))
            rws.append(None if rng.random() < 0.5 else (F(rng.randint(0, 3), rng.randint(1, 2)),))
        trans.append(dists)
        rewards.append(rws)
    return Model("random", 1, ["p"], rng.choice(["max", "min"]), states, terminal, mover, actions, trans, rewards)


@pytest.mark.parametrize("seed", range(40))
def test_recorded_action_values_are_the_bellman_sums_of_the_final_values(seed):
    rng = random.Random(seed)
    model = _random_model(rng, cyclic=seed % 2 == 1)
    try:
        sol = solve_model(model)
    except Exception as exc:  # (a random cyclic model may be one the engine refuses: rewards where play can go on)
        assert seed % 2 == 1 and "not supported" in str(exc)
        return
    values = [None if v is None else F(int(v[0].numerator), int(v[0].denominator)) for v in sol.values]
    assert sol.q, seed
    for s, q in sol.q.items():
        want = []
        for d, r in zip(model.trans[s], model.rewards[s]):
            want.append((r[0] if r else 0) + sum(p * values[t] for t, p in d))
        for x, w in zip(q, want):  # (None: an action the float filter of a self-loop proved not optimal)
            assert x is None or F(int(x.numerator), int(x.denominator)) == w, (seed, s)
        best = max(want) if model.objective == "max" else min(want)
        assert values[s] == best
