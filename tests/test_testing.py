"""exactplay.testing on a user's own float solver: one that is right passes, one with a bug fails with
a message that names the states, the floats' choice or digits and the exact ones."""

import importlib.util
from pathlib import Path

import pytest

import exactplay as xp
from exactplay.errors import UsageError

ROOT = Path(__file__).resolve().parent.parent
_spec = importlib.util.spec_from_file_location("testing_pig", ROOT / "examples" / "pig.py")
pig = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(pig)


def float_solver(game, buggy=False, sweeps=2000):
    """What a user writes: value iteration in doubles over the game's states (the first player's
    winning chance), Gauss-Seidel until nothing changes.  ``buggy``: the table written from the
    mover's side (the second player's chance at its own states), a perspective mixed up."""
    start = game.initial_state()
    states, seen = [start], {start}
    for s in states:
        if game.is_terminal(s):
            continue
        for a in game.actions(s):
            for _, t in game.transitions(s, a):
                if t not in seen:
                    seen.add(t)
                    states.append(t)
    v = {s: float(game.payoff(s)[0]) if game.is_terminal(s) else 0.0 for s in states}

    def q(s, a):
        return sum(float(p) * v[t] for p, t in game.transitions(s, a))

    for _ in range(sweeps):
        change = 0.0
        for s in reversed(states):
            if game.is_terminal(s):
                continue
            qs = [q(s, a) for a in game.actions(s)]
            new = max(qs) if game.mover(s) == 0 else min(qs)
            change = max(change, abs(new - v[s]))
            v[s] = new
        if change == 0.0:
            break
    if buggy:
        return {s: 1.0 - x if not game.is_terminal(s) and game.mover(s) == 1 else x for s, x in v.items()}
    return v


pytestmark = pytest.mark.xdist_group("test_testing")  # one worker for this file: its module-scoped fixtures
# are built once per suite, not once in each of the two xdist workers (--dist loadgroup)


@pytest.fixture(scope="module")
def solved():
    return xp.solve(pig.make_game(goal=10))


@pytest.fixture(scope="module")
def right():
    return float_solver(pig.make_game(goal=10))


@pytest.fixture(scope="module")
def buggy():
    return float_solver(pig.make_game(goal=10), buggy=True)


def test_a_right_solver_passes(solved, right):
    a = xp.testing.assert_decisions_certified(right, solved)
    assert a.counts["certified"] == len(solved.engine.margins) and a.counts["wrong"] == 0
    assert xp.testing.assert_digits_certain(right, solved, 8) == {(0, 0, 0, 0): solved.decimal(8)}
    assert len(xp.testing.assert_digits_certain(right, solved, 8, states="all")) == len(solved)
    xp.testing.assert_digits_certain(right, solved, 8, bound=1e-12)
    # the game named instead of solved: the same, by the factory's file and parameters
    xp.testing.assert_decisions_certified(right, str(ROOT / "examples" / "pig.py") + ":make_game", goal=10)


def test_a_buggy_solver_fails_with_the_states_named(solved, buggy):
    with pytest.raises(AssertionError) as failed:
        xp.testing.assert_decisions_certified(buggy, solved)
    text = str(failed.value)
    assert "decisions are not certified" in text and "unresolved" in text and "measured, a posteriori" in text
    with pytest.raises(AssertionError) as failed:
        xp.testing.assert_decisions_certified(buggy, solved, bound=1e-12)
    text = str(failed.value)
    first = text.splitlines()[1]
    assert first.startswith("  wrong at (") and "the floats choose 'hold', the exact best is 'roll'" in first
    assert "... and" in text.splitlines()[-1]
    assert xp.testing.assert_digits_certain(buggy, solved, 8)  # the answer is right: the first player's own
    with pytest.raises(AssertionError, match=r"1 of 2 states do not print the exact value's 8 decimals:\n"
                                             r"  at \(1, 0, 0, 0\): the float 0\.709424322598\d+ prints 0\.70942432, "
                                             r"the exact value 0\.29057568 \(exactly 3185/10961\)$"):
        xp.testing.assert_digits_certain(buggy, solved, 8, states=[(0, 0, 0, 0), (1, 0, 0, 0)])


def test_unresolved_decisions_may_be_allowed(solved, right):
    noisy = {s: x + (0.3 if s[0] == 1 else 0.0) for s, x in right.items()}  # within 0.3: unresolved where the gap < 0.6
    with pytest.raises(AssertionError, match="unresolved at"):
        xp.testing.assert_decisions_certified(noisy, solved)
    xp.testing.assert_decisions_certified(noisy, solved, allow_unresolved=True)


def test_digits_right_but_not_proved_by_the_bound(solved, right):
    with pytest.raises(AssertionError, match="right, but a number within the bound"):
        xp.testing.assert_digits_certain(right, solved, 8, bound=0.1)


def test_bad_arguments_are_usage_errors(solved, right):
    with pytest.raises(UsageError, match="cannot change it"):
        xp.testing.assert_decisions_certified(right, solved, goal=5)
    with pytest.raises(UsageError, match="digits must be"):
        xp.testing.assert_digits_certain(right, solved, -1)
    with pytest.raises(KeyError, match="not a state of this game"):
        xp.testing.assert_digits_certain(right, solved, 8, states=[(9, 9, 9, 9)])
