"""The protocol a Python game implements, and exact reading of its numbers.

A game is any object with these methods (a class instance, or a module-level
object returned by a factory ``make_game(**params)``):

``initial_state()``
    The state play starts from.  States are any hashable values (tuples,
    ints, strings, frozen dataclasses).
``is_terminal(s) -> bool``
    Whether play has ended in ``s``.
``payoff(s)``
    At a terminal state: one exact number per player (a sequence of length
    ``num_players``; a bare number is allowed for one player).
``mover(s)``
    At a non-terminal state: the player who chooses (``0 .. num_players-1``),
    or ``None`` for a state where nobody chooses (chance only).
``actions(s)``
    The mover's actions, in order: the earlier action wins exact ties.  Not
    called at chance states.
``transitions(s, a)``
    The outcome distribution of action ``a`` in ``s`` (``a`` is ``None`` at a
    chance state): an iterable of ``(probability, next_state)`` pairs.
    Probabilities are exact rationals summing to exactly 1.
``reward(s, a)`` (optional)
    An exact reward vector collected when ``a`` is taken in ``s``.

Reading speed (:mod:`exactplay.model.exact_enumeration`): every probability is checked the same
way whatever its kind, but ``Fraction`` objects and the ints ``0`` and ``1`` are read fastest (an
``mpq`` or a ``"p/q"`` string is read by value after its first appearances); a game that makes its
fractions once (``self.face = Fraction(1, 6)``) and returns them again spends less time in its own
``transitions()``.

Optional attributes: ``num_players`` (default: the length of the first payoff
vector seen), ``name``, ``player_names``, ``objective`` (``"zero-sum"``
declares that player 1 minimises player 0's payoff, ``"min"`` that a single
player minimises its payoff; the default is that each mover maximises its own
payoff component) and ``state_label(s)`` (how a state is printed).
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any, Hashable, Iterable, Protocol, Sequence, runtime_checkable

from ..numbers.gmp import gmpy2 as _gmpy2

if _gmpy2 is not None:
    _MPQ = type(_gmpy2.mpq(0))
    _MPZ = type(_gmpy2.mpz(0))
else:  # pragma: no cover - gmpy2 is a dependency
    _MPQ = _MPZ = None

__all__ = ["GameProtocol", "to_rational", "MAX_NUMBER_CHARS"]

MAX_NUMBER_CHARS = 100_000  # digits of one "p/q" string in a model


@runtime_checkable
class GameProtocol(Protocol):
    def initial_state(self) -> Hashable: ...

    def is_terminal(self, s: Hashable) -> bool: ...

    def payoff(self, s: Hashable) -> Sequence[Any]: ...

    def mover(self, s: Hashable) -> int | None: ...

    def actions(self, s: Hashable) -> Sequence[Hashable]: ...

    def transitions(self, s: Hashable, a: Hashable) -> Iterable[tuple[Any, Hashable]]: ...


def to_rational(x: Any, what: str = "number") -> Fraction:
    """``x`` as an exact :class:`Fraction`; floats (and anything inexact) are refused.

    >>> to_rational("3/6")
    Fraction(1, 2)
    >>> to_rational(2)
    Fraction(2, 1)
    >>> to_rational(0.5, "probability")
    Traceback (most recent call last):
    ...
    TypeError: probability 0.5 is a float: give an exact rational (int, Fraction, mpq or "p/q")
    """
    if isinstance(x, bool):
        raise TypeError(f"{what} {x!r} is a bool, not a number")
    if isinstance(x, Fraction):
        return x
    if isinstance(x, int):
        return Fraction(x)
    if _MPQ is not None and isinstance(x, (_MPQ, _MPZ)):
        return Fraction(int(x.numerator), int(x.denominator))
    if isinstance(x, float):
        raise TypeError(f"{what} {x!r} is a float: give an exact rational (int, Fraction, mpq or \"p/q\")")
    if isinstance(x, str):
        text = x.strip()
        if len(text) > MAX_NUMBER_CHARS:
            raise ValueError(f"{what} {text[:20]}... is longer than {MAX_NUMBER_CHARS} characters")
        num, slash, den = text.partition("/")
        if _is_int(num) and (not slash or _is_int(den, signed=False)):
            if slash and int(den) == 0:
                raise ValueError(f"{what} {text[:40]!r} has a zero denominator")
            return Fraction(int(num), int(den) if slash else 1)
        raise ValueError(f"{what} {text[:40]!r} is not an exact rational \"p/q\" (decimals are not accepted)")
    raise TypeError(f"{what} {x!r} of type {type(x).__name__} is not an exact rational")


def _is_int(s: str, signed: bool = True) -> bool:
    if signed and s[:1] in "+-":
        s = s[1:]
    return s.isascii() and s.isdigit()
