"""The typed result of a certified enclosure: what balls (or float64 intervals) proved, for any game.

Exact arithmetic gives the value; balls give an interval ``[lower, upper]`` that contains it
and decide what the interval separates.  An :class:`EnclosureResult` holds, for ``solve``
and ``audit`` with ``--backend ball|auto`` (the Race, Hold, a user's model):

* the **answer** (:class:`AnswerEnclosure`): the run's enclosure at its precision, and the
  decimal certified by Ziv's loop (:class:`~exactplay.numbers.balls.ZivDecimal`: the exact value's
  rounding when both ends of a ball round alike, else how many decimals are certain);
* the **widths** (:class:`WidthSummary`): the largest width of a state's enclosure, and where;
* the **decisions** (:class:`DecisionCertificates`): per precision round (``auto`` raises
  it), how many decisions are *certified* (the best action's ball lies above every other
  ball) and how many stay *unresolved at this precision*, with a sample of where;
* the **float programs** judged against the balls (:class:`FloatJudgement`): the decimal a
  program prints against the certified one, its value error enclosed (every value within
  ``error_upper`` of the exact one; some value certainly off by ``error_lower``), each of
  its decisions *certified correct*, *wrong* (another action's ball lies above the float
  choice's ball) or *unresolved*;
* game-specific findings as :class:`~exactplay.audit.result.Fact` items (first choice,
  policy at 0-0, the time per part);
* with ``auto``, an :class:`ExactHandover` when the balls left something open and exact
  arithmetic answered instead (a cycle balls cannot certify, an unresolved decision).

Every part carries the JSON keys it is written under, so that one renderer
(:mod:`exactplay.present.render.enclosure`) writes the text, JSON and HTML of every game and
model.  Nothing here renders and nothing here names a game.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from fractions import Fraction
from typing import TYPE_CHECKING, Any, Callable, Hashable

from .result import Fact
from ..strict_json import INFINITE, OUT_OF_RANGE, NonFinite

if TYPE_CHECKING:  # the ball library is imported by the runs that make balls, not by the renderer
    from ..numbers.balls import ZivDecimal

__all__ = ["CORRECT", "WRONG", "UNRESOLVED", "VERDICTS", "AnswerEnclosure", "DecisionCertificates", "WidthSummary",
           "EnclosureResult", "ExactHandover", "FloatJudgement", "PrecisionRound", "FLAT_KEYS", "by_program_keys",
           "judge", "upper_measure", "lower_measure", "width_summary", "UNBOUNDED"]

UNBOUNDED = "unbounded at {prec} bits (e.g. a division by a ball that contains 0); raise --prec"

CORRECT, WRONG, UNRESOLVED = "certified correct", "wrong", "unresolved"
VERDICTS = (CORRECT, WRONG, UNRESOLVED)


def judge(mine: Any, others: list) -> str:
    """The verdict on a float choice whose ball is ``mine`` against the other actions' balls:
    certified correct if ``mine`` lies above every other ball, wrong if some ball lies above
    ``mine``, unresolved otherwise (python-flint's ``>`` is True only when certain).

    >>> judge(Fraction(2), [Fraction(1)]), judge(Fraction(1), [Fraction(2)])
    ('certified correct', 'wrong')
    """
    if all(mine > o for o in others):
        return CORRECT
    if any(o > mine for o in others):
        return WRONG
    return UNRESOLVED


def upper_measure(x: float, unbounded: str | None = None) -> float:
    """An error bound as a double *above* the real bound ``u`` whose rounding to nearest is ``x``
    (python-flint's ``float()`` rounds to nearest): the next double up (0 stays 0: ``u`` is below
    half the smallest subnormal).  An infinite ``x`` is a :class:`~exactplay.strict_json.NonFinite`:
    *infinite* when ``unbounded`` says why (an unbounded ball), else *out of range* (a finite bound
    beyond the largest double).

    >>> upper_measure(0.5) > 0.5, upper_measure(0.0)
    (True, 0.0)
    >>> upper_measure(math.inf, "unbounded at 16 bits").json_reason
    'infinite: unbounded at 16 bits'
    """
    if math.isinf(x) or math.isnan(x):
        return (NonFinite(INFINITE, unbounded) if unbounded else
                NonFinite(OUT_OF_RANGE, "the bound is beyond the largest double"))
    return math.nextafter(x, math.inf) if x > 0 else x


def lower_measure(x: float) -> float:
    """A certified lower bound as a double *below* the real bound whose rounding to nearest is ``x``.

    >>> lower_measure(0.5) < 0.5, lower_measure(0.0)
    (True, 0.0)
    """
    if math.isinf(x) or math.isnan(x):
        return NonFinite(OUT_OF_RANGE, "the bound is beyond the largest double")
    return math.nextafter(x, 0.0) if x > 0 else x


@dataclass
class AnswerEnclosure:
    """The answer ``name`` enclosed in ``[lower, upper]`` (exact dyadic ends) at ``prec`` bits,
    and its decimal certified by Ziv's loop (``decimal``, possibly at a higher precision).

    JSON under ``key``: the ZivDecimal's fields (its last ball's ends and width), plus
    ``run_enclosure`` (this run's ends, width and precision: what the text's enclosure line shows).
    ``lower``/``upper`` None: the run's ball is unbounded (its width is written as an infinite
    measure, :mod:`exactplay.strict_json`).
    """

    name: str | None
    lower: Fraction | None
    upper: Fraction | None
    prec: int
    decimal: "ZivDecimal"
    key: str = "answer"
    name_key: str | None = "answer_name"

    @property
    def width(self) -> Fraction | None:
        return None if self.lower is None else self.upper - self.lower


@dataclass
class WidthSummary:
    """How wide the enclosures of the ``states`` values are: the largest width (``upper - lower``,
    a double rounded up; an infinite measure for an unbounded ball, see :func:`upper_measure`)
    and the state where it is.  JSON under ``key``: ``{"states", "largest", "largest_at"}``."""

    states: int
    largest: float
    largest_at: Any
    what: str = "values"  # what one enclosed value is, in text ("cells F(a,b)")
    state_name: Callable[[Hashable], str] = str
    key: str = "widths"


def width_summary(radii, prec: int, what: str = "values", state_name: Callable[[Hashable], str] = str,
                  states: int | None = None) -> WidthSummary:
    """The :class:`WidthSummary` of ``radii``, ``(state, radius)`` pairs (a double, nan or inf for an
    unbounded ball; width = 2 radius); ``states``: how many values they stand for (default: the pairs).

    >>> w = width_summary([("a", 0.25), ("b", 1.0), ("c", 0.5)], 64)
    >>> w.states, w.largest > 2.0, w.largest_at
    (3, True, 'b')
    >>> width_summary([("a", 0.25), ("b", math.nan), ("c", math.inf)], 16).largest.json_reason
    'infinite: the ball of b is unbounded at 16 bits (e.g. a division by a ball that contains 0); raise --prec'
    """
    n, largest, at = 0, 0.0, None
    for state, r in radii:
        n += 1
        if math.isfinite(largest) and not r <= largest:  # the first unbounded ball stays the largest
            largest, at = (math.inf if math.isnan(r) else r), state
    unbounded = None if math.isfinite(largest) else f"the ball of {state_name(at)} is " + UNBOUNDED.format(prec=prec)
    return WidthSummary(n if states is None else states, upper_measure(2 * largest, unbounded), at, what, state_name)


@dataclass
class PrecisionRound:
    """One run at ``prec`` bits: decisions certified and unresolved, and its seconds."""

    prec: int
    certified: int
    unresolved: int
    seconds: float


@dataclass
class DecisionCertificates:
    """The decisions of the instance as the enclosures decide them.

    ``rounds``: one per precision tried (the last is the result's); ``unresolved_sample``: the
    first unresolved states (text shows ``shown`` of them, ``sample_intro`` before and
    ``sample_note`` after); ``what``: what one decision is in text (``"hold/continue
    decisions "``), ``context``: text before the seconds (``"686 states, 3 cyclic components, "``);
    ``rounds_key``: the rounds in JSON under this key when set; ``facts``: game-specific
    fields of the decisions (JSON inside ``key``, text as continuation lines).
    """

    total: int
    rounds: list[PrecisionRound]
    unresolved_sample: list = field(default_factory=list)
    key: str = "decisions"
    what: str = ""
    context: str = ""
    state_name: Callable[[Hashable], str] = str
    shown: int = 4
    sample_intro: str = ""
    sample_note: str = ""
    rounds_key: str | None = None
    facts: list[Fact] = field(default_factory=list)

    @property
    def certified(self) -> int:
        return self.rounds[-1].certified

    @property
    def unresolved(self) -> int:
        return self.rounds[-1].unresolved

    @property
    def prec(self) -> int:
        return self.rounds[-1].prec


# JSON paths of a FloatJudgement's measures: one program at the top level (the Race, a model) ...
FLAT_KEYS = {
    "float_value": ("float_answer",), "printed": ("float_decimal",), "agrees": ("float_decimal_agrees",),
    "error_upper": ("float_error_upper",), "error_upper_at": ("float_error_upper_at",),
    "error_lower": ("float_error_lower",), "error_lower_at": ("float_error_lower_at",),
    "verdicts": ("float_decisions",), "wrong_sample": ("float_wrong_sample",),
    "wrong_loss": ("float_wrong_largest_certified_loss",), "by_exact": ("float_unresolved_by_exact",),
}


def by_program_keys(name: str) -> dict:
    """... or several programs, each measure a mapping program -> value (Hold's two float programs).

    >>> by_program_keys("float solver")["verdicts"]
    ('decisions', 'float solver')
    """
    return {"printed": ("float_decimals", name), "agrees": ("float_decimals_agree", name),
            "float_value": ("float_values", name), "verdicts": ("decisions", name),
            "error_upper": ("value_error_upper", name, "bound"), "error_upper_at": ("value_error_upper", name, "at"),
            "error_lower": ("value_error_lower", name, "bound"), "error_lower_at": ("value_error_lower", name, "at"),
            "wrong_sample": ("float_wrong_sample", name), "wrong_loss": ("float_wrong_largest_certified_loss", name),
            "by_exact": ("float_unresolved_by_exact", name)}


@dataclass
class FloatJudgement:
    """One float program judged against the enclosures.

    ``printed``: its answer's decimals, ``float_value`` the float itself; ``agrees``: against the
    certified decimal (None: not certified); ``error_upper``: every float value is within it
    of the exact one (largest at ``error_upper_at``); ``error_lower``: some value (at
    ``error_lower_at``) is certainly at least this far off (None: not measured); ``verdicts``:
    certified correct / wrong / unresolved counts; ``wrong_sample``: the first wrong states;
    ``wrong_loss``: a certified lower bound on the largest loss of a wrong decision;
    ``by_exact``: exact verdicts on the unresolved ones (``auto``).  ``keys``: measure -> JSON
    path (:data:`FLAT_KEYS` or :func:`by_program_keys`); a measure whose value is None is left out
    of the JSON, and a place (``..._at``) is written with its measure (``[]`` when there is none).
    """

    label: str
    printed: str
    agrees: bool | None
    error_upper: float
    error_upper_at: Any
    verdicts: dict
    float_value: float | None = None
    error_lower: float | None = None
    error_lower_at: Any = None
    wrong_sample: list = field(default_factory=list)
    wrong_loss: float | None = None
    by_exact: dict | None = None
    keys: dict = field(default_factory=lambda: dict(FLAT_KEYS))


@dataclass
class ExactHandover:
    """``--backend auto``: the balls at ``prec`` bits left something open (``reason``: why the
    balls could not run at all, else the result's decisions or float verdicts say what stayed
    unresolved), so exact arithmetic answered: ``exact`` is that answer (a
    :class:`~exactplay.present.rendered.Report` or :class:`~exactplay.audit.result.AuditResult`).
    ``command``: ``solve`` or ``audit``, as the text says."""

    command: str
    exact: Any
    reason: str | None = None


@dataclass
class EnclosureResult:
    """What an enclosure run of one instance found (see the module doc).

    ``title`` (with ``arithmetic``, e.g. ``"ball: 128-bit balls"``, in brackets after it);
    ``backend`` and ``prec``: the arithmetic asked for and the result's precision;
    ``headline`` facts come after the identity keys (what is under audit, the method),
    ``facts`` after the decisions and the float programs.
    """

    game: str
    params: dict | None
    title: str
    backend: str
    prec: int
    arithmetic: str | None = None
    answer: AnswerEnclosure | None = None
    widths: WidthSummary | None = None
    decisions: DecisionCertificates | None = None
    floats: list[FloatJudgement] = field(default_factory=list)
    values_name: str = "float value"  # what one float value is, in text ("float F(a,b)", "V(c,h)")
    headline: list[Fact] = field(default_factory=list)
    facts: list[Fact] = field(default_factory=list)
    handover: ExactHandover | None = None
    game_key: str = "game"
