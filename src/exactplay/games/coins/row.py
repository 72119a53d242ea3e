"""The coin row as input: coins read exactly, from words, a file or the Python API.

Coins are parsed as exact rationals (``"0.1"`` is ``1/10``, never a float);
:func:`to_backend` puts them in a number backend's field (for float: each rounded
once, as a program reading doubles would).
"""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path
from typing import Any, Sequence

from exactplay.errors import UsageError
from exactplay.numbers.backends import Backend, as_fraction, format_exact, format_pq, read_rational

MAX_COINS = 1000
LEFT, RIGHT = "left", "right"  # the two ends of the row


def parse_coin(text: str) -> Fraction:
    """One coin: an integer, a decimal (``0.1``, ``1e-3``) or a fraction (``1/3``), exactly."""
    return read_rational(text, "coin")


def _split(words: Sequence[str]) -> list[str]:
    out = []
    for w in words:
        out.extend(p for p in str(w).replace(",", " ").split() if p)
    return out


def parse_coins(words: Sequence[str] | str) -> tuple[Fraction, ...]:
    """Coin values from command-line words (commas also separate)."""
    if isinstance(words, str):
        words = [words]
    coins = tuple(parse_coin(w) for w in _split(words))
    if not coins:
        raise UsageError("empty row: give at least one coin value")
    if len(coins) > MAX_COINS:
        raise UsageError(f"{len(coins)} coins is beyond the supported limit {MAX_COINS}")
    return coins


def read_coin_file(path: str) -> tuple[Fraction, ...]:
    """Coin values from a text file (``-``: standard input): whitespace or commas
    between values, ``#`` starts a comment."""
    import sys

    try:
        text = sys.stdin.read() if path == "-" else Path(path).read_text(encoding="utf-8")
    except OSError as exc:
        raise UsageError(f"cannot read coin file {path}: {exc.strerror or exc}") from None
    except UnicodeDecodeError:
        raise UsageError(f"cannot read coin file {path}: not UTF-8 text") from None
    words = []
    for line in text.splitlines():
        words.extend(_split([line.split("#", 1)[0]]))
    if not words:
        raise UsageError(f"empty row: coin file {path} has no coin values")
    return parse_coins(words)


def resolve_row(coins=None, file=None) -> tuple[Fraction, ...]:
    """The row from either the positional coins or ``--file``, not both, not neither."""
    if coins and file:
        raise UsageError("give the coins on the command line or with --file, not both")
    row = file if file else coins
    if not row:
        raise UsageError("empty row: give at least one coin value (or --file FILE)")
    for c in row:
        as_fraction(c)  # raises on a float that slipped in through the Python API
    return tuple(row)


def to_backend(B: Backend, row: Sequence[Any]) -> list:
    """The coins in the field of ``B`` (for float: each rounded once, correctly)."""
    out = []
    for c in row:
        f = as_fraction(c)
        out.append(B.q(f.numerator, f.denominator))
    return out


def _pq_list(row) -> list[str]:
    return [format_pq(c) for c in row]


def _show(x: Any) -> str:
    return format_exact(x)
