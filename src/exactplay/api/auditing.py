""":func:`audit`: a float program's values judged state by state against the exact solution.

For a float value ``y`` of an exact value ``x``: the absolute error ``|y - x|``, the relative error
``|y - x| / |x|`` and the error in ulps ``|y - x| / ulp(y)``, each computed exactly and rounded
once (:mod:`exactplay.audit`).  At each state with a choice, the float program's decision is the
action whose float one-step value ``r_a + sum_t p(t) y(t)`` is best (the earlier one on a float
tie), judged against a bound ``e`` on the error of those values: ``e`` is the a-priori bound when
one is given (``bound=``), else the largest measured value error (a posteriori).  With ``g`` the
exact gap between the best action and the runner-up:

* **certified**: ``g > 2e`` and the float picks an exact best (no rounding within ``e`` could
  reorder them);
* **wrong**: ``g > 2e`` and the float picks another action (a bug, not rounding);
* **tie**: ``g = 0`` (every exactly best action is right);
* **unresolved**: ``0 < g <= 2e``, or the float values of the best actions are equal: rounding
  could decide it, so the floats cannot show the decision is right.

>>> import exactplay as xp
>>> sol = xp.solve("examples/pig.py:make_game", goal=5)
>>> a = xp.audit(sol, {s: float(v) for s, v in sol.values().items()})
>>> a.counts, a.digits_agree, a.max_abs_error < 1e-15
({'certified': 32, 'wrong': 0, 'ties': 0, 'unresolved': 0}, True, True)
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from fractions import Fraction
from numbers import Real
from pathlib import Path
from typing import Any, Callable, Hashable

from .solution import Solution

__all__ = ["audit", "Audit", "VERDICTS", "float_values"]

VERDICTS = ("certified", "wrong", "ties", "unresolved")
_CLASS = {"certified": "certified", "wrong": "wrong", "exact tie": "ties", "float-unresolvable": "unresolved"}


def audit(solution_or_game: Any, floats: Mapping | Callable | str | Path | None = None, *,
          bound: float | None = None, digits: int = 8, player: int | str | None = None, **params: Any) -> "Audit":
    """Audit ``floats``, a float program's value of every state, against the exact solution.

    ``solution_or_game``: a :class:`~exactplay.api.solution.Solution`, or anything
    :func:`exactplay.solve` takes (with its ``params``).  ``floats``: a mapping ``state -> float``
    (the game's own states, every one of them), a callable ``state -> float``, a table file
    (``STATE VALUE`` rows, as ``exactplay audit --float-table`` reads them), or None: float value
    iteration on the model (PRISM's value iteration for a PRISM or JANI model).  The values are the
    solution's component (``Solution.player``).  ``bound``: an a-priori bound on the float values'
    error, if the program has one; ``digits``: the decimals of the answer's check.
    """
    from ..errors import UsageError

    if isinstance(solution_or_game, Solution):
        if params or player is not None:
            raise UsageError(f"a Solution is audited as it is: {', '.join(sorted(params)) or 'player'} cannot "
                             "change it (solve again)")
        sol = solution_or_game
    else:
        from .solving import solve

        sol = solve(solution_or_game, player=player, **params)
    if bound is not None and (isinstance(bound, bool) or not isinstance(bound, Real) or not 0 <= bound < math.inf):
        raise UsageError(f"bound={bound!r}: give a finite error bound >= 0")
    flt, what = _float_solution(sol, floats)
    from ..audit.model import audit_model

    label = "a-priori bound given by the caller" if bound is not None else ""
    result = audit_model(sol.engine, flt, what, digits, None if bound is None else float(bound), label,
                         component=sol.component)
    return Audit(sol, result, what, None if bound is None else float(bound))


def _float_solution(sol: Solution, floats) -> tuple[Any, str]:
    """The float solution to judge and what to call it."""
    from ..audit.model_table import table_solution

    flt, values, what = _floats(sol, floats)
    if flt is not None:
        return flt, what
    return table_solution(sol.model, values, sol.component, _other_movers(sol)), what


def float_values(sol: Solution, floats) -> dict[int, float]:
    """``floats`` (any form :func:`audit` takes) as the float value of each model state, in the
    solution's component (+infinity, not compared, where the exact value is)."""
    flt, values, _ = _floats(sol, floats)
    return values if flt is None else {s: flt.values[s][sol.component] for s in range(len(sol.model))}


def _floats(sol: Solution, floats) -> tuple[Any, dict | None, str]:
    """``(float solution, None, what)`` when value iteration's own solution is judged as it is, else
    ``(None, float value of each state, what)``."""
    model, eng, c = sol.model, sol.engine, sol.component
    if floats is None:
        if sol.source.kind == "symbolic":
            from types import SimpleNamespace

            from .symbolic import prism_float

            flt, what = prism_float(sol.source.loaded, SimpleNamespace())
        else:
            from ..engine.value_iteration import value_iteration

            flt = value_iteration(model, infinite=eng.infinite)
            what = "float value iteration (Gauss-Seidel, stop when a sweep changes < 1e-15)"
        if c == eng.components[0]:
            return flt, None, what
        values = {s: flt.values[s][c] for s in range(len(model))}
    elif isinstance(floats, (str, Path)):
        from ..audit.model_table import read_model_table

        table = read_model_table(str(floats), model, c)
        values, what = {s: table.values[s][c] for s in range(len(model))}, f"the float table {floats}"
    elif isinstance(floats, Mapping):
        values, what = _from_mapping(sol, floats), "the float values given"
    elif callable(floats):
        values, what = _from_callable(sol, floats), f"the float function {getattr(floats, '__name__', 'given')}"
    else:
        from ..errors import UsageError

        raise UsageError(f"floats of type {type(floats).__name__}: give a mapping state -> float, a callable, or a "
                         "table file's path")
    return None, values, what


def _other_movers(sol: Solution) -> set[int] | None:
    """The players whose decisions are judged through the constant sum (see ``audit_model``)."""
    from ..engine.solution import constant_sum_total

    eng = sol.engine
    if sol.component == eng.components[0] or constant_sum_total(sol.model, eng.witness, eng.components) is None:
        return None
    return set(range(sol.model.num_players))


def _float(x: Any, state: Hashable) -> float:
    from ..errors import UsageError

    if isinstance(x, bool) or not isinstance(x, Real):
        raise UsageError(f"the float value of state {state!r} is {x!r} ({type(x).__name__}), not a number")
    return float(x)


def _from_mapping(sol: Solution, floats: Mapping) -> dict[int, float]:
    from ..errors import UsageError

    values: dict[int, float] = {}
    for key, x in floats.items():
        try:
            s = sol.number(key)
        except KeyError as exc:
            raise UsageError(f"floats: {exc.args[0]}") from None
        values[s] = _float(x, key)
    return _complete(sol, values)


def _from_callable(sol: Solution, f: Callable) -> dict[int, float]:
    values = {}
    for s in range(len(sol.model)):
        key = sol.key(s)
        if sol.engine.values[s] is None:
            continue  # +infinity: not compared
        values[s] = _float(f(key), key)
    return _complete(sol, values)


def _complete(sol: Solution, values: dict[int, float]) -> dict[int, float]:
    """Every state's float (the states of value +infinity, which are not compared, as ``inf``)."""
    from ..errors import UsageError

    missing = [s for s in range(len(sol.model)) if s not in values and sol.engine.values[s] is not None]
    if missing:
        raise UsageError(f"floats: no value for state {sol.key(missing[0])!r}; {len(missing):,} of {len(sol):,} "
                         "states missing")
    for s in range(len(sol.model)):
        values.setdefault(s, math.inf)
    return values


class Audit:
    """The audit of one float table (made by :func:`audit`): the error figures, the bound, the answer's
    digits and the verdict of every decision, keyed by the game's own states.

    ``certified``, ``wrong``, ``ties`` and ``unresolved`` are tuples of states (``len()`` counts them),
    ``counts`` the four counts; ``result`` is the :class:`~exactplay.audit.result.AuditResult` the
    command line renders (``text()`` gives its text).
    """

    def __init__(self, solution: Solution, result, what: str, bound: float | None):
        self.solution, self.result, self.what, self.bound = solution, result, what, bound
        fa = result.audits[0]
        self._values = fa.values[0].audit
        self._decisions = fa.decisions[0].audit if fa.decisions else None
        self._answer = fa.answer
        by_class: dict[str, list[int]] = {v: [] for v in VERDICTS}
        if self._decisions is not None:
            for (s,), cls in sorted(self._decisions.classes.items()):
                by_class[_CLASS[cls]].append(s)
        key = solution.key
        self.certified, self.wrong, self.ties, self.unresolved = (tuple(map(key, by_class[v])) for v in VERDICTS)

    @property
    def counts(self) -> dict[str, int]:
        return {v: len(getattr(self, v)) for v in VERDICTS}

    def _at(self, state) -> Hashable:
        return None if state is None else self.solution.key(state[0])

    # the value errors (over the states of finite value)
    max_abs_error = property(lambda self: self._values.max_abs)
    max_abs_error_at = property(lambda self: self._at(self._values.max_abs_at))
    max_rel_error = property(lambda self: self._values.max_rel)
    max_rel_error_at = property(lambda self: self._at(self._values.max_rel_at))
    max_ulps = property(lambda self: self._values.max_ulps)
    max_ulps_at = property(lambda self: self._at(self._values.max_ulps_at))

    @property
    def bound_label(self) -> str:
        return "none" if self.bound is None else "a-priori bound given by the caller"

    @property
    def flip_threshold(self) -> float | None:
        """``2e``: an exact gap at most this far could be reordered by rounding."""
        return None if self._decisions is None else self._decisions.flip_threshold

    # the answer: the initial state's value
    exact_value = property(lambda self: Fraction(self._answer.rounding.exact))
    float_value = property(lambda self: self._answer.rounding.float_value)
    answer_error = property(lambda self: self._answer.error)
    exact_decimal = property(lambda self: self._answer.rounding.rounded)
    float_decimal = property(lambda self: self._answer.rounding.float_rounded)
    digits = property(lambda self: self._answer.rounding.digits)

    @property
    def digits_agree(self) -> bool:
        """Whether the float answer, printed to ``digits`` decimals, shows the exact value's decimals."""
        return bool(self._answer.rounding.float_digits_agree)

    @property
    def digits_certain(self) -> bool | None:
        """Whether the bound alone proves the float answer's printed decimals (None without a bound)."""
        return self._answer.rounding.float_digits_certain

    def float_choice(self, state: Hashable) -> Any:
        """The action the floats choose at ``state`` (a state whose decision was judged)."""
        s = self.solution.number(state)
        return self.solution.model.action_name(s, self._decisions.float_choice[(s,)])

    def exact_best(self, state: Hashable) -> tuple:
        """The exactly best actions at ``state`` (a state whose decision was judged)."""
        s = self.solution.number(state)
        return tuple(self.solution.model.action_name(s, a) for a in self._decisions.exact_best[(s,)])

    def gap(self, state: Hashable) -> Fraction:
        """The exact gap between the best action and the runner-up at ``state``."""
        from ..numbers.backends import as_fraction

        return as_fraction(self._decisions.gaps[(self.solution.number(state),)])

    def text(self) -> str:
        """The audit as ``exactplay audit`` prints it."""
        from ..present.render import audit_lines

        return "\n".join(audit_lines(self.result))

    def __repr__(self) -> str:
        from .display import audit_repr

        return audit_repr(self)

    def _repr_html_(self) -> str:
        from .display import audit_html

        return audit_html(self)
