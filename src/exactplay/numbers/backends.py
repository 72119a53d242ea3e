"""Number backends: the field a recurrence is evaluated in.

Every game writes its recurrence once, against a :class:`Backend`, and runs it
in one of three fields:

* ``mpq``      -- ``gmpy2.mpq``, exact rationals backed by GMP (the default);
* ``fraction`` -- :class:`fractions.Fraction`, exact, pure Python;
* ``float``    -- IEEE 754 binary64, the arithmetic of the programs we audit;
* ``ball``     -- python-flint ``arb`` balls at a working precision (``prec`` bits):
  every value is an interval guaranteed to contain the exact value
  (:mod:`exactplay.numbers.balls`).  Run ball code inside ``with B.precision():``.

A recurrence that takes a maximum goes through :func:`best_of`, which in the
ball field returns an enclosure of the maximum and says whether the winning
action is *certified* (its ball lies above every other ball); python-flint's
``<``/``>`` on overlapping balls are all False, so a plain ``if c > best`` would
silently decide what the balls cannot.

A backend only has to make constants: ``B.q(p, q)`` is the number p/q in that
field, ``B.zero`` and ``B.one`` are 0 and 1.  Everything else is the ordinary
operators ``+ - * /`` and comparisons, which all three types share.  Python
silently turns ``Fraction * float`` (and ``mpq * float``) into a float, so the
exact backends also offer :meth:`Backend.check`, which raises as soon as a
value of the wrong type appears; the exact solvers call it on what they store.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Any, Callable

from ..errors import UsageError
from .decimals import GUARDED_BITS, all_digits

from .gmp import gmpy2 as _gmpy2  # None when missing (a declared dependency: said clearly where used)

__all__ = [
    "Backend",
    "int_option",
    "read_int",
    "read_rational",
    "refuse_non_ascii_digits",
    "BACKEND_NAMES",
    "FloatLeak",
    "as_fraction",
    "format_pq",
    "best_of",
    "get_backend",
    "InfiniteValue",
]


class FloatLeak(TypeError):
    """A value of the wrong type (usually a float) reached an exact computation."""


@dataclass(frozen=True)
class InfiniteValue:
    """An exact result of +infinity (an expected reward where a strategy may never end play), never a
    float: ``reason`` says why (``"infinite: ..."``, the ``<field>_reason`` of the JSON output)."""

    reason: str


@dataclass(frozen=True)
class Backend:
    """A field to evaluate a recurrence in.

    ``kind`` is the Python type of every value the field produces, ``make`` builds
    p/q from two integers.  ``exact`` tells whether the field is the rationals.
    """

    name: str
    kind: type
    exact: bool
    make: Callable[[int, int], Any]
    prec: int | None = None  # working precision in bits, ``ball`` only
    prec_default: bool = False  # ``ball``/``auto`` without --prec: the game may run its fastest certified method

    def precision(self):
        """A context manager that sets python-flint's working precision (a no-op unless ``ball``)."""
        if self.prec is None:
            from contextlib import nullcontext

            return nullcontext()
        from .balls import working_precision

        return working_precision(self.prec)

    def q(self, p: int, q: int = 1) -> Any:
        """The number p/q in this field (rounded once, for ``float``)."""
        return self.make(p, q)

    @property
    def zero(self) -> Any:
        return self.make(0, 1)

    @property
    def one(self) -> Any:
        return self.make(1, 1)

    def check(self, x: Any, where: object = None) -> Any:
        """Return ``x`` if it belongs to this field, else raise :class:`FloatLeak`.

        For ``float`` any real number passes.  For the exact fields only values
        of :attr:`kind` pass: a float, an mpfr or a value from the other exact
        backend means some constant was built outside the backend.
        """
        if self.exact and type(x) is not self.kind:
            at = f" at {where}" if where is not None else ""
            raise FloatLeak(
                f"{type(x).__name__} value {x!r} in an exact ({self.name}) computation{at}"
            )
        return x

    def __repr__(self) -> str:  # pragma: no cover - cosmetic
        return f"Backend({self.name!r})"


def _float_make(p: int, q: int) -> float:
    return p / q  # correctly rounded for the small integers used as constants


def _fraction_make(p: int, q: int) -> Fraction:
    return Fraction(p, q)


_FLOAT = Backend("float", float, False, _float_make)
_FRACTION = Backend("fraction", Fraction, True, _fraction_make)

BACKEND_NAMES = ("mpq", "fraction", "float", "ball")
UNIT_ROUNDOFF = 2.0**-53  # u of float64: |fl(x) - x| <= u |x| when fl rounds to nearest (no under/overflow)
DEFAULT_BALL_PREC = 128  # bits; race 2,000 needs ~3,200 bits for every decision (3^-N gaps)


def get_backend(name: str | Backend = "mpq", prec: int | None = None) -> Backend:
    """The backend called ``name``; a :class:`UsageError` if unknown or unavailable.

    ``prec`` is the working precision of ``ball`` (default :data:`DEFAULT_BALL_PREC`, and then
    ``prec_default``: a game may run a faster certified method, e.g. the Race's float64 intervals).
    """
    if isinstance(name, Backend):
        return name
    if name == "ball":
        from .balls import BALL_TYPE, ball_make, check_prec

        return Backend("ball", BALL_TYPE, False, ball_make, check_prec(DEFAULT_BALL_PREC if prec is None else prec),
                       prec is None)
    if name == "mpq":
        if _gmpy2 is None:
            raise UsageError(
                "backend 'mpq' needs gmpy2, which is not installed: "
                "pip install gmpy2, or use --backend fraction"
            )
        return Backend("mpq", type(_gmpy2.mpq(0)), True, _gmpy2.mpq)
    if name == "fraction":
        return _FRACTION
    if name == "float":
        return _FLOAT
    raise UsageError(f"unknown backend {name!r}: choose one of {', '.join(BACKEND_NAMES)}")


def best_of(B: Backend, values) -> tuple[Any, int, bool]:
    """``(max, index, certified)`` over a non-empty sequence of action values.

    Exact and float fields: the largest value and the first index attaining it
    (strict ``>``, the published loops' tie-break); ``certified`` is True.  Ball
    field: an enclosure of the maximum (``[max of lowers, max of uppers]``,
    sound whichever action wins), the index with the largest midpoint, and
    ``certified`` only when that ball lies strictly above every other ball.

    >>> best_of(get_backend("fraction"), [Fraction(1, 3), Fraction(1, 2), Fraction(1, 2)])
    (Fraction(1, 2), 1, True)
    """
    if B.prec is not None:
        from .balls import ball_best_of

        return ball_best_of(values)
    best, index = values[0], 0
    for i in range(1, len(values)):
        if values[i] > best:
            best, index = values[i], i
    return best, index, True


_MPQ = type(_gmpy2.mpq(0)) if _gmpy2 is not None else None


def as_fraction(x: Any) -> Fraction:
    """``x`` as a :class:`Fraction`; ints, Fractions and mpq only, never floats."""
    if isinstance(x, bool):
        raise FloatLeak(f"bool {x!r} is not a number here")
    if isinstance(x, (int, Fraction)):
        return Fraction(x)
    if _MPQ is not None and type(x) is _MPQ:
        return Fraction(int(x.numerator), int(x.denominator))
    raise FloatLeak(f"{type(x).__name__} value {x!r} is not an exact rational")


def format_pq(x: Any) -> str:
    """The canonical text of an exact rational: ``"p/q"`` in lowest terms, q > 0.

    Integers are written ``"p/1"`` so that every stored number has one shape.

    >>> format_pq(_gmpy2.mpq(6, -4)), format_pq(Fraction(3)), format_pq(2)
    ('-3/2', '3/1', '2/1')
    """
    if type(x) is _MPQ:  # (the engine's numbers: already in lowest terms, GMP prints them unguarded)
        t = str(x)  # GMP's "p/q", or "p" for an integer: 5 times faster than formatting the two parts
        return t if "/" in t else t + "/1"
    f = as_fraction(x)
    if f.numerator.bit_length() > GUARDED_BITS or f.denominator.bit_length() > GUARDED_BITS:
        with all_digits():
            return f"{f.numerator}/{f.denominator}"
    return f"{f.numerator}/{f.denominator}"


def format_exact(x: Any) -> str:
    """An exact rational as a person or a model language writes it: ``"p"`` for an integer,
    else :func:`format_pq`'s ``"p/q"``.

    >>> format_exact(Fraction(6, -4)), format_exact(Fraction(3)), format_exact(0)
    ('-3/2', '3', '0')
    """
    text = format_pq(x)
    return text[:-2] if text.endswith("/1") else text


MAX_INPUT_CHARS = 1000  # digits a user may type for one number
MAX_INPUT_EXPONENT = 1000  # |e| in 1e-3 style input


def refuse_non_ascii_digits(text: str, what: str = "value") -> str:
    """``text`` unchanged, or a :class:`UsageError` if it holds a digit outside ASCII.

    Python's ``int()``, ``float()`` and ``Fraction()`` read Arabic-Indic (``'١٠'``),
    full-width (``'１０'``) and other Unicode digits as numbers; a number typed
    for exactplay is written with 0-9 only.

    >>> refuse_non_ascii_digits("10")
    '10'
    >>> refuse_non_ascii_digits("\u0661\u0660", "faces")
    Traceback (most recent call last):
    ...
    exactplay.errors.UsageError: faces '١٠': the digit '١' (U+0661) is not an ASCII digit: write numbers with 0-9
    """
    text = str(text)
    if not text.isascii():
        for c in text:
            if not c.isascii() and (c.isdigit() or c.isdecimal() or c.isnumeric()):
                raise UsageError(f"{what} {text[:40]!r}: the digit {c!r} (U+{ord(c):04X}) is not an ASCII digit: "
                                 "write numbers with 0-9")
    return text


def read_int(text: str, what: str = "value") -> int:
    """A whole number typed by a user: optional sign and ASCII digits 0-9, nothing else.

    Unlike ``int()`` it refuses Unicode digits, underscores (``1_000``) and more than
    :data:`MAX_INPUT_CHARS` characters, each with one line naming ``what``.

    >>> read_int(" 12 "), read_int("-3")
    (12, -3)
    """
    word = refuse_non_ascii_digits(str(text), what).strip()
    if not word:
        raise UsageError(f"{what} is empty: give a whole number")
    if len(word) > MAX_INPUT_CHARS:
        raise UsageError(f"{what} {word[:20]!r}... is longer than {MAX_INPUT_CHARS} characters")
    body = word[1:] if word[0] in "+-" else word
    if not (body.isascii() and body.isdigit()):
        raise UsageError(f"{what} must be a whole number, got {word[:40]!r}")
    return int(word)


def int_option(text: str) -> int:
    """An ``argparse`` ``type=`` for whole-number options (``--digits``): ASCII digits only.

    argparse turns the error into ``argument --digits: ...`` (one line, exit 2).
    """
    import argparse

    try:
        return read_int(text, "the value")
    except UsageError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def read_rational(text: str, what: str = "value") -> Fraction:
    """A number typed by a user, read exactly: an integer, a decimal (``0.1``,
    ``1e-3``) or a fraction ``p/q``; never through a float.

    Bounded (``MAX_INPUT_CHARS`` characters, exponents up to
    ``MAX_INPUT_EXPONENT``) so that ``1e999999999`` is refused at once instead
    of being built digit by digit.  Raises :class:`UsageError` with one line.
    """
    word = refuse_non_ascii_digits(str(text), what).strip()
    if not word:
        raise UsageError(f"empty {what}")
    if not word.isascii():
        raise UsageError(f"{what} {word[:40]!r} is not a number (write an integer, a decimal or p/q in ASCII)")
    if len(word) > MAX_INPUT_CHARS:
        raise UsageError(f"{what} {word[:20]!r}... is longer than {MAX_INPUT_CHARS} characters")
    _, e, exponent = word.lower().partition("e")
    if e and exponent.lstrip("+-").isdigit() and abs(int(exponent)) > MAX_INPUT_EXPONENT:
        raise UsageError(f"{what} {word[:40]!r}: exponent beyond +-{MAX_INPUT_EXPONENT}")
    if "_" in word:  # Fraction() reads 1_000; a number here is written without separators
        raise UsageError(f"{what} {word[:40]!r} is not a number: write it without '_'")
    low = word.lower().lstrip("+-")
    if low in ("inf", "infinity", "nan"):
        raise UsageError(f"{what} {word[:40]!r} is not a number: not finite (write an integer, a decimal or p/q)")
    try:
        return Fraction(word)
    except ZeroDivisionError:
        raise UsageError(f"{what} {word[:40]!r} is not a number: its denominator is 0") from None
    except ValueError:
        raise UsageError(
            f"{what} {word[:40]!r} is not a number (not a rational: write an integer, a decimal or p/q)"
        ) from None
