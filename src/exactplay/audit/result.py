"""The typed result of an audit: what a float program got right and wrong, for any game.

An :class:`AuditResult` holds the instance (game and parameters), the float programs
under audit, and for each of them (a :class:`FloatAudit`):

* the **answer** (:class:`AnswerCheck`): the exact value, its correctly rounded
  decimals and whether they are certain, the float's printed decimals, whether they
  agree, whether the a-priori bound alone proves them, and the float's error;
* the **per-state value errors** (:class:`ValueErrors`, wrapping
  :class:`~exactplay.audit.judge.ValueAudit`): max abs / rel / ulp error and where, the
  a-priori bound and bound/measured, with the :class:`~exactplay.strict_json.NonFinite`
  encoding for a measure with no double value;
* the **decision verdicts** (:class:`DecisionVerdicts`, wrapping
  :class:`~exactplay.audit.judge.DecisionAudit`): certified / exact tie / wrong /
  float-unresolvable counts, the smallest gap, the wrong states listed;
* game-specific findings as :class:`Fact` items (a JSON key, a text label, a value).

Nothing here renders: :mod:`exactplay.present.render` turns an AuditResult into text, JSON and
HTML, the same way for every game and for a user's model.  Nothing here names a game.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction  # noqa: F401 (the doctests use it)
from typing import Any, Callable, Hashable

from .judge import DecisionAudit, RoundingReport, ValueAudit, rounding_report

__all__ = ["AnswerCheck", "AuditResult", "DecisionVerdicts", "Fact", "FloatAudit", "ValueErrors", "answer_check"]


@dataclass
class AnswerCheck:
    """The answer of the instance, exact and as the float program printed it.

    JSON: ``rounding`` (the :class:`~exactplay.audit.rounding.RoundingReport`) under ``key``;
    the float's absolute error under ``error_key`` and its value under ``float_key``
    when those are set.
    """

    name: str
    exact: Any
    rounding: RoundingReport
    error: float | None = None
    key: str = "rounding"
    error_key: str | None = "answer_error"
    float_key: str | None = None


def answer_check(name: str, exact: Any, digits: int, float_value: float | None, bound: float | None,
                 **keys) -> AnswerCheck:
    """An :class:`AnswerCheck` of ``exact`` against ``float_value`` with error bound ``bound``;
    the error ``|float - exact|`` is computed exactly and rounded once.

    >>> a = answer_check("G", Fraction(1, 2), 2, 0.25, 1e-3)
    >>> a.rounding.rounded, a.rounding.float_rounded, a.rounding.float_digits_agree, a.error
    ('0.50', '0.25', False, 0.25)
    """
    from .judge import exact_minus_float

    err = None if float_value is None else abs(float(exact_minus_float(float_value, exact)))
    return AnswerCheck(name, exact, rounding_report(exact, digits, float_value, bound), err, **keys)


@dataclass
class ValueErrors:
    """Per-state value errors of one float table (``label`` names the table in text)."""

    key: str
    label: str
    audit: ValueAudit
    state_name: Callable[[Hashable], str] = str
    what: str = "states"  # what one entry is, in text ("cells", "entries")


@dataclass
class DecisionVerdicts:
    """The float program's decision in every state with a choice, judged exactly."""

    key: str
    label: str
    audit: DecisionAudit
    state_name: Callable[[Hashable], str] = str
    what: str = "states"  # what one decision is, in text ("cells", "query states")


@dataclass
class Fact:
    """A game-specific finding: ``value`` (strict-JSON-ready) under ``key``, shown in text as
    ``label: text`` (``text`` defaults to the value).  ``key`` None: text only; ``label`` None:
    JSON only."""

    key: str | None
    label: str | None
    value: Any = None
    text: str | None = None

    def shown(self) -> str:
        return str(self.value) if self.text is None else self.text


@dataclass
class FloatAudit:
    """One float program judged against the exact solution.

    ``key`` None: its parts sit at the top level of the JSON (one program, or keys that
    already say which program); else they nest under ``key``.
    """

    label: str = ""
    key: str | None = None
    answer: AnswerCheck | None = None
    values: list[ValueErrors] = field(default_factory=list)
    decisions: list[DecisionVerdicts] = field(default_factory=list)
    facts: list[Fact] = field(default_factory=list)


@dataclass
class AuditResult:
    """An audit of one instance: ``params`` JSON-ready, ``solver`` what is under audit (a
    text, or a mapping program -> text), the float programs judged, then the instance's
    own findings (``facts``, shown after the programs; ``headline`` facts right after the
    title)."""

    game: str
    params: dict | None  # None: no parameters (a model given whole)
    title: str
    solver: Any = None
    audits: list[FloatAudit] = field(default_factory=list)
    facts: list[Fact] = field(default_factory=list)
    headline: list[Fact] = field(default_factory=list)
    solver_key: str = "solver_under_audit"
    game_key: str = "game"
