"""The shortcuts of the explicit-model path (issue 26): each gives what the general computation gives.

* the DRN reader reads each distinct action line and each distinct text after a state's number once,
  and checks a choice of one successor of probability 1 without its general check: the same file
  read, the same defects refused at the same lines;
* action names kept as they are when no state repeats one (else ``name#i``, ``__NOLABEL__`` its index);
* the rewards of a DRN file looked up once per distinct vector; a reward 0 is no probability 0;
* ``reaching_positive`` over the components sinks first equals the walk back along every transition;
* ``never_ending`` (the states no play leaves under the policy) equals a plain search on random models;
* ``Run.choose`` gives the optimal set, margin and ties of its definition (negated values for a
  minimiser) on random models.
"""

from __future__ import annotations

import random
from fractions import Fraction

import pytest

from exactplay.engine import solve_model
from exactplay.engine.scc import components
from exactplay.engine.structure import reaching_positive
from exactplay.interop.drn import _action_names, drn_to_model, parse_drn
from exactplay.model import Model, ModelError
from exactplay.model.sparse import Sparse

HEAD = "@type: MDP\n@value_type: rational\n@parameters\n\n@reward_models\nr\n@nr_states\n{n}\n@model\n"


def drn(body: str, n: int) -> str:
    return HEAD.format(n=n) + body


SHARED = drn("""state 0 [1] init
\taction go [2]
\t\t1 : 1/2
\t\t2 : 1/2
\taction go2 [2]
\t\t2 : 2/2
state 1 [1] a
\taction go [2]
\t\t2 : 1
state 2 [0] done
\taction go [2]
\t\t2 : 1
""", 3)


def test_repeated_action_lines_and_state_texts_are_read_alike():
    f = parse_drn(SHARED, "s.drn")
    assert f.action_names == ["go", "go2", "go", "go"]
    assert f.action_rewards == [(Fraction(2),)] * 4
    assert f.state_rewards == [(Fraction(1),), (Fraction(1),), (Fraction(0),)]
    assert f.labels == [["init"], ["a"], ["done"]]
    assert f.start == [0, 2, 3, 4, 5] and f.succ == [1, 2, 2, 2, 2]
    assert [f.probs[k] for k in f.pk] == [Fraction(1, 2), Fraction(1, 2), 1, 1, 1]


@pytest.mark.parametrize("edit,line,words", [
    (("\t\t2 : 2/2", "\t\t2 : 1/2"), 14, "probabilities sum to 1/2, not exactly 1"),  # one successor, not 1
    (("state 2 [0] done\n\taction go [2]\n\t\t2 : 1", "state 2 [0] done\n\taction go [2]\n\t\t2 : 1/3"), 20,
     "probabilities sum to 1/3"),  # the last choice of the file
    (("state 1 [1] a\n\taction go [2]", "state 1 [1] a\n\taction go [2] x"), 17, "unexpected text 'x'"),
    (("state 2 [0] done", "state 2 [0 done"), 19, "']' missing"),
    (("state 2 [0] done", "state 2 [0,1] done"), 19, "2 rewards for 1 reward model"),
    (("\t\t2 : 1\nstate 2", "\t\t2 : 1\n\t\t2 : 0\nstate 2"), 19, "successor 2 appears twice"),
])
def test_a_defect_after_repeated_lines_is_refused_at_its_line(edit, line, words):
    text = SHARED.replace(*edit, 1)
    assert text != SHARED
    with pytest.raises(ModelError) as exc:
        parse_drn(text, "bad.drn")
    assert f"bad.drn:{line}:" in str(exc.value) and words in str(exc.value), str(exc.value)


def test_action_names_kept_or_made_distinct():
    f = parse_drn(SHARED, "s.drn")
    assert _action_names(f) == ["go", "go2", "go", "go"]
    twice = parse_drn(SHARED.replace("action go2", "action go"), "t.drn")
    assert _action_names(twice) == ["go", "go#1", "go", "go"]
    nolabel = parse_drn(SHARED.replace("action go2", "action __NOLABEL__"), "n.drn")
    assert _action_names(nolabel) == ["go", "1", "go", "go"]


def test_reward_zero_is_no_probability_zero_and_rewards_are_per_state_and_action():
    # state 2's reward 0 is among the model's numbers; the choice's probabilities stay as they are
    model, order = drn_to_model(parse_drn(SHARED, "s.drn"), "Rmin", "done", reward="r")
    sp = model.sparse
    assert sp.succ == [1, 2, 2, 2] and [sp.probs[k] for k in sp.pk] == [Fraction(1, 2), Fraction(1, 2), 1, 1]
    assert [sp.rewards[i] for i in sp.rew] == [(Fraction(3),)] * 3
    sol = solve_model(model)
    assert sol.values[0][0] == 3 and sol.policy[0] == 1  # min: go2 costs 3, go 3 + 1/2 * 3


def random_sparse(rng: random.Random, n: int) -> Sparse:
    """A random one-player model as arrays: terminal states of payoff 0 or 1, others with 1-3 choices."""
    first, start, succ, pk, mover, pay = [], [0], [], [], [], []
    probs = [Fraction(1), Fraction(1, 2), Fraction(1, 3), Fraction(2, 3)]
    for s in range(n):
        first.append(len(start) - 1)
        if rng.random() < 0.15:
            pay.append(rng.randrange(2))
            mover.append(-1)
            continue
        pay.append(-1)
        k = rng.choice([1, 1, 2, 3])
        mover.append(0 if k > 1 else -1)
        for _ in range(k):
            shape = rng.choice([[0], [1, 1], [2, 3]])
            ts = rng.sample(range(n), len(shape)) if n >= len(shape) else [s] * 0 + [rng.randrange(n)]
            if len(ts) < len(shape):
                shape = [0]
            succ.extend(ts)
            pk.extend(shape)
            start.append(len(succ))
    first.append(len(start) - 1)
    return Sparse(n, 1, first, start, succ, pk, probs, mover, pay, [(Fraction(0),), (Fraction(1),)],
                  [-1] * (len(start) - 1), [])


def test_reaching_positive_over_components_equals_the_walk_back():
    rng = random.Random(26)
    for _ in range(400):
        sp = random_sparse(rng, rng.randint(1, 25))
        comps = components(sp.n, sp.first, sp.start, sp.succ)[0]
        assert reaching_positive(sp, 0, comps) == reaching_positive(sp, 0)


def as_model(sp: Sparse, objective: str) -> Model:
    from exactplay.model.sparse import ArrayModel

    return ArrayModel(sp, "random", ["p"], objective)


def plain_never_ending(sol) -> list[int]:
    """States from which no terminal state is reachable along the policy's moves (a plain search)."""
    sp = sol.model.sparse
    out = []
    for s0 in range(sp.n):
        seen, stack, ends = {s0}, [s0], False
        while stack:
            s = stack.pop()
            if sp.pay[s] >= 0:
                ends = True
                break
            a = sp.first[s] + sol.policy[s]
            for t in sp.succ[sp.start[a]:sp.start[a + 1]]:
                if t not in seen:
                    seen.add(t)
                    stack.append(t)
        if not ends:
            out.append(s0)
    return out


def test_never_ending_states_and_choices_on_random_models():
    rng = random.Random(2026)
    solved = 0
    for _ in range(300):
        sp = random_sparse(rng, rng.randint(2, 14))
        objective = rng.choice(["max", "min"])
        try:
            sol = solve_model(as_model(sp, objective))
        except ModelError:
            continue
        solved += 1
        if sol.witness != "termination":
            assert sol.never_ends == plain_never_ending(sol)
        for s, q in sol.q.items():  # the optimal set, margin and ties from the action values
            keyed = q if objective == "max" else [None if x is None else -x for x in q]
            best = max(x for x in keyed if x is not None)
            opt = [a for a, x in enumerate(keyed) if x == best]
            if len(opt) > 1:
                assert sol.ties[s] == opt and sol.margins[s] == 0
            else:
                assert s not in sol.ties
                assert sol.margins[s] == best - max(x for x in keyed if x is not None and x != best)
            assert sol.policy[s] in opt
    assert solved >= 200
