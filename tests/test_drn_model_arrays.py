"""The model arrays of a DRN file and a property (issue 26: runs of states copied in whole slices): on random
files -- the initial state anywhere, target and absorbing states scattered, probabilities 0 written or not --
every model state's choices, successors (0 and the initial state swapped), probabilities and names are
those of the file, a terminal state has no choice, and the solve's values are those of the same model as lists."""

from __future__ import annotations

import random
from fractions import Fraction

import pytest

from exactplay.engine import solve_model
from exactplay.interop.drn import drn_to_model, parse_drn


def _random_drn(rng: random.Random, zeros: bool) -> tuple[str, list[list[list[tuple[int, Fraction]]]], int, set[int]]:
    n = rng.randint(1, 12)
    init = rng.randrange(n)
    goal = {d for d in range(n) if rng.random() < 0.3} or {rng.randrange(n)}  # (the label must exist)
    states, lines, choices = [], [], 0
    for d in range(n):
        acts = []
        if rng.random() < 0.15:  # absorbing: every action loops back surely
            acts = [[(d, Fraction(1))] for _ in range(rng.randint(1, 2))]
        else:
            for _ in range(rng.randint(1, 3)):
                ts = rng.sample(range(n), rng.randint(1, min(3, n)))
                cut = sorted(rng.sample(range(1, 12), len(ts) - 1))
                ps = [Fraction(b - a, 12) for a, b in zip([0] + cut, cut + [12])]
                acts.append(list(zip(ts, ps)))
        states.append(acts)
        labels = " ".join(["init"] * (d == init) + ["xgoal"] * (d in goal))
        lines.append(f"state {d} {labels}".rstrip())
        for i, act in enumerate(acts):
            lines.append(f"\taction a{i}")
            choices += 1
            for t, p in act:
                lines.append(f"\t\t{t} : {p}")
            if zeros and len(act) < n and rng.random() < 0.5:
                extra = next(t for t in range(n) if t not in {u for u, _ in act})
                lines.append(f"\t\t{extra} : 0")
    head = f"@type: MDP\n@parameters\n\n@reward_models\n\n@nr_states\n{n}\n@nr_choices\n{choices}\n@model\n"
    return head + "\n".join(lines) + "\n", states, init, goal


@pytest.mark.parametrize("seed", range(80))
def test_the_model_arrays_are_the_files_choices(seed):
    rng = random.Random(seed)
    text, states, init, goal = _random_drn(rng, zeros=seed % 2 == 1)
    model, order = drn_to_model(parse_drn(text), "Pmax", "xgoal")
    n = len(states)
    assert order == [init if k == 0 else 0 if k == init else k for k in range(n)]
    swap = {0: init, init: 0}
    sp = model.sparse
    for k in range(n):
        d = order[k]
        acts = states[d]
        terminal = d in goal or all(act == [(d, 1)] for act in acts)
        got = [[(sp.succ[j], sp.probs[sp.pk[j]]) for j in range(sp.start[a], sp.start[a + 1])]
               for a in range(sp.first[k], sp.first[k + 1])]
        if terminal:
            assert got == [] and sp.pay[k] >= 0, (seed, k)
            continue
        assert sp.pay[k] < 0
        assert got == [[(swap.get(t, t), p) for t, p in act] for act in acts], (seed, k)
        if len(acts) > 1:
            assert [model.action_name(k, i) for i in range(len(acts))] == [f"a{i}" for i in range(len(acts))]
    assert sp.first[-1] == len(sp.start) - 1 and sp.start[-1] == len(sp.succ) == len(sp.pk)
    assert solve_model(model).values == solve_model(model.plain()).values
