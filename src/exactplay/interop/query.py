"""A PRISM/Storm property, as stormpy parsed it, read into the question exactplay answers.

Supported (everything else is refused with one line saying so)::

    P=? [F phi]   P=? [phi U psi]            reachability (through phi-states)
    P=? [F<=k phi]  P=? [phi U<=k psi]       within k steps (F<k: k - 1), the model unrolled
    R{"name"}=? [C<=k]                        the reward collected in the first k steps, unrolled too
    R{"name"}=? [F phi]                       expected reward collected until phi (+infinity for a
                                              strategy that does not reach phi almost surely)
    R{"name"}=? [Fc phi]                      PRISM-games' cumulative variant: the reward collected
                                              until phi, and on the plays that never reach phi all of it
    T=? [F phi]                               the expected time until phi (a CTMC's or Markov automaton's;
                                              in discrete time the expected number of steps, as Storm's)
    Pmin / Pmax / Rmin / Rmax / Tmin / Tmax   one chooser (an MDP or MA), or the coalition of a game
    P>=b [..]  P>b  P<=b  P<b  (R too)        a threshold: the exact truth value, the value, the distance
    <<p1,p2>> Pmax=? [..]                     a turn-based game (SMG): the coalition against the rest

with ``phi``, ``psi`` propositional: labels ``"goal"``, expressions over the variables, ``!``,
``&``, ``|``, ``=>``, ``true``/``false`` (Storm evaluates them on the built model).  Out of reach:
lower, interval and reward bounds (``F>=k``, ``F[a,b]``, ``F{"r"}<=k``), ``X``, ``G``, ``W``, nested ``P``/``R`` operators, LTL (temporal
operators inside), ``multi(..)``, long-run averages (``S``, ``LRA``), ``T`` with a bound, ``C`` without a bound, ``C<k``, ``I`` rewards,
PRISM-games' ``F0`` rewards (nothing unless phi is reached), conditional and discounted properties,
and concurrent games (CSG).  In a continuous-time model (CTMC, Markov automaton: solved as its embedded
model, :mod:`.continuous`) only the unbounded ``F``, ``U`` and ``Fc`` are answered: a bound there is one of
time, and ``C<=t`` a reward over time, whose values are in general irrational.

``Fc`` (Chen, Forejt, Kwiatkowska, Parker, Simaitis 2013: "cumulative" reward): the value of a
strategy profile is ``E[sum of the rewards collected before phi]``, the sum running forever on the
plays that never reach phi, so the model's plays need not end: exactplay's own semantics of a play
that never ends (worth the rewards it collected, 0 beyond them) with the phi-states terminal.  A
total that is infinite (a strategy that collects a reward forever) is refused in one line, not
computed.

Directions.  A threshold with no ``min``/``max``: on an MDP ``P>=b`` holds when every strategy
gives at least ``b`` (the minimum is compared), ``P<=b`` when every strategy gives at most ``b``
(the maximum); in a game ``<<C>> P>=b`` holds when the coalition can ensure at least ``b`` against
all the others (the coalition maximises), ``<<C>> P<=b`` when it can ensure at most ``b`` (it
minimises): PRISM-games' reading.  A DTMC needs none.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from fractions import Fraction

from ..model import ModelError
from .continuous import CONTINUOUS

__all__ = ["Query", "analyse", "exact_expression", "reward_variant", "SUPPORTED", "COMPARISONS"]

SUPPORTED = ("supported: P and R{\"name\"} with min/max and =? or a threshold (>=, >, <=, <), over F phi or "
             "phi U psi with an optional step bound <=k (P) and F phi, Fc phi or C<=k (R), phi and psi propositional; "
             "<<coalition>> for turn-based games; T [F phi]; no bounds in continuous time")
# a continuous-time kind -> the kind of its embedded model (``ctmc``: ``dtmc``, ``ma``: ``mdp``)
CONTINUOUS_KINDS = {k.lower(): v.lower() for k, v in CONTINUOUS.items()}

COMPARISONS = {"GEQ": ">=", "GREATER": ">", "LEQ": "<=", "LESS": "<"}


@dataclass
class Query:
    """The question: ``operator`` ``P`` or ``R``; ``direction`` of the chooser (an MDP) or of the
    coalition (a game), None for a DTMC; ``coalition`` as written (names or 1-based numbers) or
    None; ``reward_name`` (``R``, None: the only reward model); ``left`` (an until's left side,
    None for ``F``) and ``right`` (the target), stormpy state formulas; ``comparison`` and
    ``bound`` of a threshold (None for ``=?``); ``cumulative``: ``R[Fc phi]`` (see the module); ``steps``: the
    step bound ``k`` of ``P[F<=k phi]``, ``P[phi U<=k psi]`` and ``R[C<=k]`` (:mod:`.step_bound`; ``right`` is
    None for ``C<=k``), None without one."""

    text: str
    name: str | None
    operator: str
    direction: str | None
    coalition: list[str] | None
    reward_name: str | None
    left: object
    right: object
    comparison: str | None = None
    bound: Fraction | None = None
    cumulative: bool = False
    steps: int | None = None

    def holds(self, value: Fraction) -> bool | None:
        """The threshold's exact truth value at a state of this value (None without a threshold)."""
        if self.comparison is None:
            return None
        return {">=": value >= self.bound, ">": value > self.bound, "<=": value <= self.bound,
                "<": value < self.bound}[self.comparison]


REWARD_VARIANT = re.compile(r"\[\s*F([c0])(?![A-Za-z0-9_])")


def reward_variant(text: str) -> str | None:
    """PRISM-games' variant of ``R[F phi]`` written in ``text``: ``"c"`` for ``Fc``, ``"0"`` for ``F0``,
    None for plain ``F`` (Storm knows only that one).

    >>> reward_variant('<<p1>> R{"time"}min=? [ Fc "done" ]'), reward_variant('R=? [F0 x=1]'), reward_variant('R=? [F Fc=1]')
    ('c', '0', None)
    """
    m = REWARD_VARIANT.search(text)
    return m.group(1) if m else None


_NUM = re.compile(r"\s*(\d+\.?\d*(?:[eE][+-]?\d+)?|\.\d+(?:[eE][+-]?\d+)?|[-+*/()])")


def exact_expression(text: str) -> Fraction:
    """A threshold's arithmetic (numbers, ``+ - * /``, brackets) evaluated exactly, decimals as
    fractions.  (stormpy's ``threshold`` reads ``1/6`` as an integer division, 0; Storm's model
    checker itself does not.)

    >>> exact_expression("(1 / 6)"), exact_expression("0.1+2*3e-1"), exact_expression("-(1/2)")
    (Fraction(1, 6), Fraction(7, 10), Fraction(-1, 2))
    """
    tokens, pos = [], 0
    text = text.strip()
    while pos < len(text):
        m = _NUM.match(text, pos)
        if m is None or m.end() == pos:
            raise ModelError(f"the threshold {text[:60]!r} is not a number (write it as one, e.g. 0.3 or 1/6)")
        tokens.append(m.group(1))
        pos = m.end()
        while pos < len(text) and text[pos].isspace():
            pos += 1
    tokens.append("")
    i = 0

    def atom() -> Fraction:
        nonlocal i
        t = tokens[i]
        i += 1
        if t == "(":
            x = expr()
            if tokens[i] != ")":
                raise ModelError(f"the threshold {text[:60]!r}: a bracket is not closed")
            i += 1
            return x
        if t in ("-", "+"):
            x = atom()
            return -x if t == "-" else x
        if not t or t in "*/)":
            raise ModelError(f"the threshold {text[:60]!r} is not a number")
        return Fraction(t)

    def term() -> Fraction:
        nonlocal i
        x = atom()
        while tokens[i] in ("*", "/"):
            op = tokens[i]
            i += 1
            y = atom()
            if op == "/" and not y:
                raise ModelError(f"the threshold {text[:60]!r} divides by zero")
            x = x * y if op == "*" else x / y
        return x

    def expr() -> Fraction:
        nonlocal i
        x = term()
        while tokens[i] in ("+", "-"):
            op = tokens[i]
            i += 1
            y = term()
            x = x + y if op == "+" else x - y
        return x

    value = expr()
    if tokens[i]:
        raise ModelError(f"the threshold {text[:60]!r} is not a number")
    return value


def _propositional(formula, what: str, prop: str) -> None:
    import stormpy.logic as L

    text = str(formula)
    # Storm prints a nested operator ``P>1/2 [F ...]`` with a space before its bracket, an array ``a[0]`` without
    if isinstance(formula, L.OperatorFormula) or re.search(r"(^|\s)\[", text):
        raise ModelError(f"{prop[:80]}: {what} {text[:60]}: a nested P/R operator is not supported ({SUPPORTED})")
    if not isinstance(formula, L.StateFormula):
        raise ModelError(f"{prop[:80]}: {what} {text[:60]}: a temporal operator inside (LTL) is not supported "
                         f"({SUPPORTED})")


def analyse(prop, kind: str, written: str | None = None) -> Query:
    """The :class:`Query` of a stormpy ``Property`` on a model of kind ``dtmc``/``mdp``/``smg``/``ctmc``/``ma``
    (``written``: the property as the user wrote it, for the messages)."""
    import stormpy.logic as L

    timed = kind in CONTINUOUS_KINDS
    kind = CONTINUOUS_KINDS.get(kind, kind)

    formula = prop.get_raw_formula()
    storm_text = str(formula)
    text = written or storm_text
    name = prop.get_name()
    coalition = None
    if isinstance(formula, L.GameFormula):
        head = re.match(r"\s*<<([^>]*)>>", storm_text)
        coalition = [x.strip() for x in head.group(1).split(",")] if head else []
        formula = formula.subformula
    if isinstance(formula, L.MultiObjectiveFormula):
        raise ModelError(f"{text[:60]}: multi-objective properties are not supported ({SUPPORTED})")
    if isinstance(formula, L.LongRunAverageOperatorFormula):
        raise ModelError(f"{text[:60]}: long-run averages (S, LRA) are not supported ({SUPPORTED})")
    if not isinstance(formula, (L.ProbabilityOperatorFormula, L.RewardOperatorFormula, L.TimeOperatorFormula)):
        raise ModelError(f"{text[:60]}: not a P, R or T query ({SUPPORTED})")
    operator = ("P" if isinstance(formula, L.ProbabilityOperatorFormula) else
                "T" if isinstance(formula, L.TimeOperatorFormula) else "R")
    path = formula.subformula
    if timed and isinstance(path, (L.BoundedUntilFormula, L.CumulativeRewardFormula, L.InstantaneousRewardFormula)):
        raise ModelError(f"{text[:60]}: a time bound in a continuous-time model: its value is in general irrational "
                         f"(exactplay answers the unbounded F, U and Fc there; {SUPPORTED})")
    if operator == "T" and not isinstance(path, L.EventuallyFormula):  # (Storm parses T with F only)
        raise ModelError(f"{text[:60]}: T is the expected time until a target: T=? [F phi] ({SUPPORTED})")
    variant = reward_variant(text)
    if variant == "0":
        raise ModelError(f"{text[:60]}: PRISM-games' F0 reward (nothing unless the target is reached) is not "
                         f"supported ({SUPPORTED})")
    if variant == "c" and (operator != "R" or not isinstance(path, L.EventuallyFormula)):
        raise ModelError(f"{text[:60]}: Fc is PRISM-games' reward until a target: R{{\"name\"}}max=? [Fc phi] "
                         f"({SUPPORTED})")
    left = None
    steps = None
    if isinstance(path, L.BoundedUntilFormula):
        steps = _step_bound(path, operator, text)
        left = None if str(path.left_subformula).strip() == "true" else path.left_subformula
        right = path.right_subformula
    elif isinstance(path, L.EventuallyFormula):
        right = path.subformula
    elif isinstance(path, L.UntilFormula) and operator == "P":
        left, right = path.left_subformula, path.right_subformula
    elif isinstance(path, L.CumulativeRewardFormula) and re.fullmatch(r"C<=\d+", str(path).strip()):
        steps, right = int(str(path).strip()[3:]), None  # R[C<=k]: the reward of the first k steps
    elif isinstance(path, (L.CumulativeRewardFormula, L.InstantaneousRewardFormula, L.LongRunAverageRewardFormula)):
        raise ModelError(f"{text[:60]}: of the C, I and LRA rewards only C<=k is supported ({SUPPORTED})")
    else:
        raise ModelError(f"{text[:60]}: the path formula {str(path)[:40]} is not supported ({SUPPORTED})")
    if left is not None:
        _propositional(left, "the left side of U", text)
    if right is not None:
        _propositional(right, "the target", text)
    comparison = bound = None
    if formula.has_bound:
        comparison = COMPARISONS[str(formula.comparison_type).rsplit(".", 1)[-1]]
        bound = exact_expression(str(formula.threshold_expr))
    direction = None
    if formula.has_optimality_type:
        direction = "max" if "MAX" in str(formula.optimality_type).upper() else "min"
    if kind == "smg":
        if coalition is None:
            raise ModelError(f"{text[:60]}: a game's property names a coalition: <<p1>> Pmax=? [..] (the coalition "
                             "against the other players)")
        if direction is None:
            if comparison is None:
                raise ModelError(f"{text[:60]}: say whether the coalition maximises or minimises (Pmax=?, Pmin=?)")
            direction = "max" if comparison in (">=", ">") else "min"
    else:
        if coalition is not None:
            raise ModelError(f"{text[:60]}: <<coalition>> is for games (smg); this model is "
                             f"{'an MDP' if kind == 'mdp' else 'a DTMC'}")
        if kind == "mdp" and direction is None:
            if comparison is None:
                raise ModelError(f"{text[:60]}: an MDP's query says min or max ({operator}min=?, {operator}max=?)")
            direction = "min" if comparison in (">=", ">") else "max"
        if kind == "dtmc":
            direction = None
    reward_name = None
    if operator == "R" and formula.has_reward_model_name():  # a method (has_bound is a property)
        reward_name = formula.reward_name
    return Query(storm_text, name, operator, direction, coalition, reward_name, left, right, comparison, bound,
                 variant == "c", steps)


def _step_bound(path, operator: str, text: str) -> int:
    """The ``k`` of ``F<=k`` / ``phi U<=k psi`` (``F<k``: ``k - 1``), a whole number of steps; every other
    bound (a lower bound, an interval, a reward bound) is refused."""
    m = re.search(r" U(?:steps)?(<=|<)(\S+) ", str(path))  # (JANI's step bounds print as Usteps<=k)
    flag = [x() if callable(x) else x for x in (path.has_lower_bound, path.is_multi_dimensional)]  # (stormpy: either)
    if operator != "P" or m is None or any(flag):
        raise ModelError(f"{text[:60]}: of the bounded F / U, only a step bound F<=k, F<k, U<=k, U<k in P is "
                         f"supported ({SUPPORTED})")
    try:
        k = int(m.group(2))
    except ValueError:
        raise ModelError(f"{text[:60]}: the step bound {m.group(2)[:30]} is not a whole number") from None
    if m.group(1) == "<":
        k -= 1
    if k < 0:
        raise ModelError(f"{text[:60]}: the step bound leaves no step (F<0)")
    return k
