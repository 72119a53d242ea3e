"""Assertions for the test suite of your own float solver: its decisions and its printed digits, judged exactly.

In a test::

    import exactplay as xp

    def test_my_solver_decides_right():
        xp.testing.assert_decisions_certified(my_solver(goal=20), "examples/pig.py:make_game", goal=20)

    def test_my_solver_prints_the_right_answer():
        xp.testing.assert_digits_certain(my_solver(goal=20), "examples/pig.py:make_game", 8, goal=20)

``floats`` is anything :func:`exactplay.audit` takes (a mapping ``state -> float`` keyed by the
game's own states, a callable, a table file); ``game`` a :class:`~exactplay.api.solution.Solution`
(solved once, shared by several tests) or anything :func:`exactplay.solve` takes, with its
parameters.  A failure is an :class:`AssertionError` naming the states, what the floats chose or
printed, and what the exact solution says.

>>> import exactplay as xp
>>> sol = xp.solve("examples/pig.py:make_game", goal=5)
>>> right = {s: float(v) for s, v in sol.values().items()}
>>> xp.testing.assert_decisions_certified(right, sol).counts["certified"]
32
>>> xp.testing.assert_digits_certain(right, sol, 8)
{(0, 0, 0, 0): '0.79704797'}
>>> wrong = {s: -v for s, v in right.items()}
>>> xp.testing.assert_decisions_certified(wrong, sol, bound=1e-12)  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
AssertionError: 32 of 32 decisions are not certified (32 wrong, 0 unresolved; bound 1.000e-12, a-priori):
  wrong at (0, 0, 0, 2): the floats choose 'hold', the exact best is 'roll' (exact gap 6.292e-01 > 2e = 2.000e-12)
  ...
  ... and 27 more
"""

from __future__ import annotations

from typing import Any, Hashable, Iterable

__all__ = ["assert_decisions_certified", "assert_digits_certain"]

SHOWN = 5  # states listed in a failure message


def _solution(game: Any, params: dict):
    from .api import Solution, solve

    if isinstance(game, Solution):
        if params:
            from .errors import UsageError

            raise UsageError(f"a Solution is used as it is: {', '.join(sorted(params))} cannot change it")
        return game
    return solve(game, **params)


def assert_decisions_certified(floats: Any, game: Any, *, bound: float | None = None, allow_unresolved: bool = False,
                               **params: Any):
    """Assert that at every state with a choice the floats' decision is provably an exact best.

    A decision is certified when the floats pick an exact best action and the exact gap to the
    runner-up is more than ``2e`` (``e``: ``bound``, an a-priori bound on the float values' error,
    else their largest measured error), so that no rounding within ``e`` could have reordered them;
    an exact tie is right whichever tied action is picked.  It fails on a **wrong** decision (gap
    over ``2e``, another action picked) and, unless ``allow_unresolved``, on an **unresolved** one
    (gap at most ``2e``: the floats cannot show it is right).  Returns the
    :class:`~exactplay.api.auditing.Audit`.
    """
    from .api import audit

    sol = _solution(game, params)
    a = audit(sol, floats, bound=bound)
    bad = list(a.wrong) + ([] if allow_unresolved else list(a.unresolved))
    if not bad:
        return a
    total = sum(a.counts.values())
    how = "a-priori" if bound is not None else "measured, a posteriori"
    e = a.flip_threshold / 2
    lines = [f"{len(bad):,} of {total:,} decisions are not certified ({len(a.wrong):,} wrong, "
             f"{len(a.unresolved):,} unresolved{' (allowed)' if allow_unresolved else ''}; bound {e:.3e}, {how}):"]
    for s in a.wrong[:SHOWN]:
        lines.append(f"  wrong at {s!r}: the floats choose {a.float_choice(s)!r}, the exact best is "
                     f"{' or '.join(map(repr, a.exact_best(s)))} (exact gap {float(a.gap(s)):.3e} > 2e = "
                     f"{a.flip_threshold:.3e})")
    if not allow_unresolved:
        for s in a.unresolved[:max(0, SHOWN - len(a.wrong[:SHOWN]))]:
            lines.append(f"  unresolved at {s!r}: exact gap {float(a.gap(s)):.3e} <= 2e = {a.flip_threshold:.3e} "
                         f"(the floats choose {a.float_choice(s)!r}, the exact best is "
                         f"{' or '.join(map(repr, a.exact_best(s)))})")
    if len(bad) > SHOWN:
        lines.append(f"  ... and {len(bad) - SHOWN:,} more")
    raise AssertionError("\n".join(lines))


def assert_digits_certain(floats: Any, game: Any, digits: int = 8, *, states: Iterable[Hashable] | str | None = None,
                          bound: float | None = None, **params: Any) -> dict:
    """Assert that the floats, printed to ``digits`` decimals, show the exact values' decimals.

    The exact value is correctly rounded (ties to even); so is the float, from its exact binary
    value.  ``states``: the states to check (default the initial state, the answer; ``"all"``:
    every state of finite value).  With ``bound`` (an a-priori bound on the floats' error) the
    digits must also follow from the bound alone: every number within ``bound`` of the float
    rounds to the same decimals.  Returns ``{state: decimals}`` of the states checked.
    """
    from fractions import Fraction

    from .api.auditing import float_values
    from .numbers.decimals import decimal_digits
    from .audit.rounding import float_digits_certain

    sol = _solution(game, params)
    if isinstance(digits, bool) or not isinstance(digits, int) or not 0 <= digits <= 10000:
        from .errors import UsageError

        raise UsageError(f"digits must be an integer from 0 to 10000, not {digits!r}")
    values = float_values(sol, floats)
    if states is None:
        numbers = [sol.model.initial]
    elif states == "all":
        numbers = [s for s in range(len(sol)) if sol.engine.values[s] is not None]
    else:
        numbers = [sol.number(s) for s in states]
    shown, bad = {}, []
    for s in numbers:
        key, exact, y = sol.key(s), sol.value_of(sol.key(s)), values[s]
        want = decimal_digits(exact, digits)
        got = decimal_digits(Fraction(y), digits) if y == y and abs(y) != float("inf") else repr(y)
        if got != want:
            bad.append(f"  at {key!r}: the float {y!r} prints {got}, the exact value {want} ({_exact_text(exact)})")
        elif bound is not None and not float_digits_certain(y, bound, digits):
            bad.append(f"  at {key!r}: the float {y!r} prints {got}, right, but a number within the bound {bound:.3e} "
                       f"may print otherwise")
        shown[key] = want
    if bad:
        head = (f"{len(bad):,} of {len(numbers):,} states do not print the exact value's {digits} decimals"
                + ("" if bound is None else f" provably (bound {bound:.3e})") + ":")
        raise AssertionError("\n".join([head, *bad[:SHOWN]] + ([f"  ... and {len(bad) - SHOWN:,} more"]
                                                                if len(bad) > SHOWN else [])))
    return shown


def _exact_text(x) -> str:
    from .api.display import short_number

    return f"exactly {short_number(x)}"
