"""Reading a user's float table, to audit it against the exact one.

Two formats, one row per state, the state's integer coordinates first and the
float value last:

* text: ``a b value`` per line, separated by spaces, tabs or commas; blank
  lines and lines starting with ``#`` are skipped, and so is a first line
  with no number on it (a CSV header);
* JSON: a list of rows ``[a, b, value]``, or ``{"rows": [...]}``.

Every problem is a :class:`UsageError` naming the file, the line (or row) and
what is wrong: a table is checked, never trusted.  It is bounded before it is
read: the file (:data:`MAX_TABLE_BYTES`; a gzip file, inflated within the same
limit in bounded chunks, see ``checker._input``), JSON integer literals (parsed
with Python's int/str digit guard set back, and no name twice in one object, see
``checker._json.parse_json``), a
state coordinate (:data:`MAX_STATE_CHARS`) and a value
(:data:`MAX_VALUE_CHARS`) are refused past their limits before conversion.
A value must be a finite double: 1e-300 (or a subnormal) is read as it is,
1e400 or an integer beyond the double range is refused.
"""

from __future__ import annotations

import json
import math
import re
from fractions import Fraction
from pathlib import Path
from typing import Any, Hashable, Mapping, Sequence

from ..checker.readers import clip, parse_json, read_bounded, unpack
from ..errors import UsageError
from ..numbers.backends import refuse_non_ascii_digits

# The largest table of any game within its limits has about 500,000 states
# (coins at 1,000 coins; race at 500 has 250,000); at a generous 100 bytes a
# row, 64 MB.
MAX_TABLE_BYTES = 64 * 1024**2
MAX_STATE_CHARS = 18  # a state coordinate (every game's coordinates are small)
MAX_VALUE_CHARS = 1000  # a float written out (a double needs at most ~25)


def read_table_text(path: str | Path) -> tuple[Any, str]:
    """The text of a float table (``-``: standard input), bounded, and the name to report it by."""
    if str(path) == "-":
        import sys

        path = "<stdin>"
        data = sys.stdin.buffer.read(MAX_TABLE_BYTES + 1)
        if len(data) > MAX_TABLE_BYTES:
            raise UsageError(f"{path}: the float table is larger than the limit of {MAX_TABLE_BYTES} bytes; not read")
        data = unpack(data, path, MAX_TABLE_BYTES, "the float table", error=UsageError)
    else:
        path = Path(path)
        data = read_bounded(path, MAX_TABLE_BYTES, "the float table", error=UsageError)
    try:
        return path, data.decode("utf-8")
    except UnicodeDecodeError:
        raise UsageError(f"{path}: the float table is not UTF-8 text") from None


def read_float_table(path: str | Path, columns: Sequence[str]) -> dict:
    """``{state: float}`` from ``path`` (``-``: standard input); ``columns`` names the state's coordinates."""
    path, text = read_table_text(path)
    if text.lstrip().startswith(("[", "{")):
        rows = json_rows(path, text)
    else:
        rows = _text_rows(path, text, columns)
    table: dict = {}
    k = len(columns)
    for where, fields in rows:
        if len(fields) != k + 1:
            raise UsageError(f"{path} {where}: expected {k + 1} fields ({', '.join(columns)}, value), got {len(fields)}")
        state = tuple(_integer(path, where, name, f) for name, f in zip(columns, fields[:k]))
        value = read_value(path, where, fields[k])
        if state in table:
            raise UsageError(f"{path} {where}: state {_show(state)} appears twice")
        table[state] = value
    if not table:
        raise UsageError(f"{path}: the float table has no rows")
    return table


def match_states(path: str | Path, exact: Mapping[Hashable, Any], user: Mapping[tuple, float]) -> dict:
    """The user's table keyed like ``exact``; it must have exactly the same states."""
    def key(state):
        return state if isinstance(state, tuple) else (state,)

    wanted = {key(s): s for s in exact}
    extra = [s for s in user if s not in wanted]
    if extra:
        raise UsageError(f"{path}: state {_show(extra[0])} is not a state of this game instance")
    missing = [s for s in wanted if s not in user]
    if missing:
        raise UsageError(f"{path}: no value for state {_show(missing[0])} ({len(missing)} states missing)")
    return {wanted[s]: v for s, v in user.items()}


def json_rows(path, text: str) -> list[tuple[str, list]]:
    """The rows of a JSON float table (a list, or ``{\"rows\": [...]}``), each with where it stands."""
    try:
        data = parse_json(text)
    except json.JSONDecodeError as exc:
        raise UsageError(f"{path}: not JSON ({exc.msg} at line {exc.lineno})") from None
    except ValueError as exc:  # an integer literal beyond the digit guard
        raise UsageError(f"{path}: not a float table ({exc})") from None
    except RecursionError:
        raise UsageError(f"{path}: not a float table (JSON nested too deeply)") from None
    if isinstance(data, dict):
        data = data.get("rows")
    if not isinstance(data, list):
        raise UsageError(f"{path}: JSON float table must be a list of rows [state..., value]")
    out = []
    for i, row in enumerate(data):
        if not isinstance(row, list):
            raise UsageError(f"{path} row {i}: a row must be a list [state..., value]")
        out.append((f"row {i}", row))
    return out


def _text_rows(path: Path, text: str, columns: Sequence[str]):
    out = []
    for n, line in enumerate(text.splitlines(), 1):
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        fields = [f for f in re.split(r"[\s,]+", line) if f]
        if not out and not any(_is_number(f) for f in fields):
            continue  # a header line (column names)
        out.append((f"line {n}", fields))
    return out


def _is_number(text: str) -> bool:
    try:
        float(text)
    except ValueError:
        return False
    return True


def _integer(path, where, name, field) -> int:
    if isinstance(field, bool) or not isinstance(field, (int, str)):
        raise UsageError(f"{path} {where}: {name} must be an integer, got {clip(field, 30)}")
    if isinstance(field, int):
        if abs(field) >= 10**MAX_STATE_CHARS:
            raise UsageError(f"{path} {where}: {name} = {clip(field, 30)} is not a state coordinate "
                             f"(more than {MAX_STATE_CHARS} digits)")
        return field
    if len(field) > MAX_STATE_CHARS:
        raise UsageError(f"{path} {where}: {name} {clip(field, 30)} is longer than {MAX_STATE_CHARS} characters")
    refuse_non_ascii_digits(field, f"{path} {where}: {name}")
    body = field[1:] if field[:1] in "+-" else field
    if not (body.isascii() and body.isdigit()):  # int() would also read 1_0 and spaces
        raise UsageError(f"{path} {where}: {name} must be an integer, got {clip(field, 30)}")
    return int(field)


def read_value(path, where, field) -> float:
    """One float of a table: a finite double written in ASCII, bounded in length; else one line."""
    if isinstance(field, bool) or not isinstance(field, (int, float, str)):
        raise UsageError(f"{path} {where}: the value must be a number, got {clip(field, 30)}")
    if isinstance(field, str) and len(field) > MAX_VALUE_CHARS:
        raise UsageError(f"{path} {where}: the value {clip(field, 30)} is longer than {MAX_VALUE_CHARS} characters")
    if isinstance(field, str):
        _ascii_number(field, f"{path} {where}: the value")
    try:
        value = float(field)
    except ValueError:
        raise UsageError(f"{path} {where}: the value {clip(str(field), 30)} is not a number") from None
    except OverflowError:  # an integer beyond the double range
        raise UsageError(f"{path} {where}: the value {clip(field, 30)} is beyond the double range") from None
    if not math.isfinite(value):
        raise UsageError(f"{path} {where}: the value {clip(field, 30)} is not finite (beyond the double range)")
    return value


def _ascii_number(text: str, what: str) -> None:
    """Refuse what ``float()`` reads but a float table must not hold: Unicode digits, ``1_0``."""
    refuse_non_ascii_digits(text, what)
    if not text.isascii() or "_" in text:
        raise UsageError(f"{what} {clip(text, 30)} is not a number (ASCII digits, '.', 'e' and a sign only)")


def _show(state: tuple) -> str:
    return "(" + ", ".join(map(str, state)) + ")"


def audit_float_table(game, path: str | Path, backend, progress, **params):
    """Audit a user's float table of ``game`` against the exact values.

    ``game.value_table(backend, progress, **params)`` gives the exact table, the
    names of the state coordinates and what the value means.
    """
    from .judge import audit_values
    from .result import AuditResult, Fact, FloatAudit, ValueErrors

    if game.value_table is None:
        raise UsageError(f"game {game.name!r} does not take a --float-table yet")
    table = None
    if game.table_columns:  # the file is checked before the exact values are computed
        table = read_float_table(path, game.table_columns)
    exact, columns, meaning = game.value_table(backend=backend, progress=progress, **params)
    if table is None:
        table = read_float_table(path, columns)
    if str(path) == "-":
        path = "<stdin>"
    user = match_states(path, exact, table)
    v = audit_values(exact, user)
    shown = {k: _plain(x) for k, x in params.items() if x is not None}
    return AuditResult(
        game=game.name, params=shown,
        title=f"Audit of the float table {path} against the exact {game.name} values "
              + ", ".join(f"{k}={' '.join(x) if isinstance(x, list) else x}" for k, x in shown.items()),
        headline=[Fact("float_table", None, str(path)), Fact("value", "value", meaning,
                                                               f"{meaning}, {v.cells} states ({', '.join(columns)})"),
                  Fact("columns", None, list(columns))],
        audits=[FloatAudit(values=[ValueErrors("values", "your table", v)])],
    )


def _plain(x):
    """A parameter as JSON: rationals as ``"p/q"`` text, sequences as lists."""
    if isinstance(x, Fraction):
        return str(x)
    if isinstance(x, (list, tuple)):
        return [_plain(y) for y in x]
    return x
