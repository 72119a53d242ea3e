"""A user's float table for a model: one value per state, to audit against the exact solution.

Rows are ``STATE VALUE``.  ``STATE`` is the state's name, as ``exactplay solve --all`` prints it
(``(to move 0, scores 0-0, turn 0)``, spaces and commas included; a trailing ``:`` is dropped, and
a name may be written in double quotes), or its number (``state`` in ``solve --json``'s
``state_values``).  The value is the last field of the line, after a space, a tab, a comma or a
``:``.  ``#`` comments and blank lines are skipped, and so is a first line whose value is no
number (a header); a header ``name value`` reads every key as a name, ``number value`` (or
``state value``) as a number.  JSON rows are ``[state, value]``: an integer is a state number, a
string a name (or, when no state has that name, a number written as text).  ``-`` reads standard
input.  A key that is no state, a name several states share, or, without a header, a key that
names one state and is the number of another (a DRN model's state ids) is refused in one line.
The value is the float table's value of the state in the certified component (e.g. the first
player's winning probability).  Every state must appear exactly once.
"""

from __future__ import annotations

import re

from ..engine.value_iteration import FloatSolution
from ..errors import UsageError
from .float_table import _is_number, json_rows, read_table_text, read_value
from ..model import Model
from ..numbers.backends import refuse_non_ascii_digits

__all__ = ["read_model_table", "table_solution"]

# a text row: KEY, then a space, tab, comma or colon, then VALUE (the last field); KEY may be quoted
_ROW = re.compile(r'(?:"(?P<quoted>(?:[^"]|"")*)"|(?P<key>.*?\S))(?:\s*[:,]\s*|\s+)(?P<value>[^\s,:]+)')
HEADER_KEYS = {"name": "name", "number": "number", "state": "number"}  # a header's key column -> how keys read


def _text_rows(path, text: str) -> tuple[list, str | None]:
    """``(rows, reading)``: the rows ``(where, key, value)`` of a text table and how its header
    says the keys read (``"name"``, ``"number"`` or None)."""
    rows, reading, header = [], None, None
    for n, line in enumerate(text.splitlines(), 1):
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        m = _ROW.fullmatch(line)
        if m is None:
            raise UsageError(f"{path} line {n}: expected a state and a value, got {line[:60]!r}")
        key = m["key"] if m["quoted"] is None else m["quoted"].replace('""', '"')
        if not rows and reading is None and not _is_number(m["value"]):  # a header line
            reading, header = HEADER_KEYS.get(key.strip().lower(), "any"), line
            continue
        rows.append((f"line {n}", key, m["value"]))
    if not rows and header is not None:
        raise UsageError(f"{path}: the float table has no rows, only the header line {header[:60]!r} "
                         "(a first line whose value is no number)")
    return rows, None if reading == "any" else reading


class _States:
    """A table's keys read as states: by name (as ``solve --all`` prints them) or by number."""

    def __init__(self, model: Model, path):
        self.model, self.path, self.n = model, path, len(model)
        self.names: dict[str, list[int]] = {}
        for s in range(self.n):
            self.names.setdefault(model.state_name(s), []).append(s)

    def _number(self, key) -> int | None:
        if isinstance(key, int) and not isinstance(key, bool):
            return key
        if isinstance(key, str) and key.isascii() and key.isdigit() and len(key) <= 12:
            return int(key)
        return None

    def state(self, where: str, key, reading: str | None) -> int:
        """The state ``key`` stands for; ``reading``: ``"name"``, ``"number"``, ``"json"`` or None (text)."""
        at = f"{self.path} {where}"
        if isinstance(key, bool) or not isinstance(key, (int, str)):
            raise UsageError(f"{at}: {str(key)[:40]!r} is neither a state number nor a state name")
        named = self.names.get(key, []) if isinstance(key, str) and reading != "number" else []
        number = None if reading == "name" or (reading == "json" and isinstance(key, str) and named) \
            else self._number(key)
        if len(named) > 1:
            raise UsageError(f"{at}: {key[:60]!r} is the name of {len(named)} states (numbers "
                             f"{', '.join(map(str, named[:4]))}{', ...' if len(named) > 4 else ''}): key them by number")
        if number is not None and not 0 <= number < self.n:
            if not named:
                raise UsageError(f"{at}: state {number} is not a state of this model (0..{self.n - 1})")
            number = None
        if named and number is not None and named[0] != number:
            raise UsageError(f"{at}: {key!r} is ambiguous: it names state {named[0]} and is the number of state "
                             f"{number} (named {self.model.state_name(number)[:40]!r}); begin the table with a header "
                             "line 'name value' (every key a name) or 'number value' (every key a number)")
        if named:
            return named[0]
        if number is not None:
            return number
        if isinstance(key, str):
            refuse_non_ascii_digits(key, f"{at}: the state")
        what = {"name": "the name of a state", "number": "a state number"}.get(
            reading, "a state number nor the name of a state")
        example = self.model.state_name(self.model.initial)[:60]
        raise UsageError(f"{at}: {str(key)[:60]!r} is {'neither ' if reading not in HEADER_KEYS.values() else 'not '}"
                         f"{what} (states are numbered 0..{self.n - 1} and named as solve --all prints them, "
                         f"e.g. {example!r})")


def read_model_table(path: str, model: Model, component: int = 0) -> FloatSolution:
    """The table as a float solution of ``model``: its values are payoff ``component`` (the one the
    exact solution certifies), and each choice state's float decision follows greedily from them."""
    path, text = read_table_text(path)
    if text.lstrip().startswith(("[", "{")):
        rows, reading = [], "json"
        for where, row in json_rows(path, text):
            if len(row) != 2:
                raise UsageError(f"{path} {where}: a row is [state, value]")
            rows.append((where, row[0], row[1]))
    else:
        rows, reading = _text_rows(path, text)
    states = _States(model, path)
    values: dict[int, float] = {}
    for where, key, val in rows:
        s = states.state(where, key, reading)
        if s in values:
            raise UsageError(f"{path} {where}: state {model.state_name(s)} appears twice")
        values[s] = read_value(path, where, val)
    if not values:
        raise UsageError(f"{path}: the float table has no rows")
    missing = [s for s in range(len(model)) if s not in values]
    if missing:
        raise UsageError(f"{path}: no value for state {missing[0]} ({model.state_name(missing[0])}); "
                         f"{len(missing)} states missing")
    return table_solution(model, values, component)


def table_solution(model: Model, values: dict[int, float], component: int = 0,
                   movers: set[int] | None = None) -> FloatSolution:
    """A table of one float value per state (``values[s]``, payoff ``component``) as a float solution:
    at each choice state whose mover optimises that component (or is in ``movers``) each action's float
    value ``r + sum p V(t)`` in that component, from which the decision follows greedily."""
    P = model.num_players
    keys = model.keys()
    c0 = component
    vals = [[values[s] if c == c0 else 0.0 for c in range(P)] for s in range(len(model))]
    q: dict[int, list[float]] = {}
    policy: list[int | None] = [None] * len(model)
    for s in range(len(model)):
        m = model.mover[s]
        if model.terminal[s] is not None:
            continue
        policy[s] = 0
        if m is None or len(model.trans[s]) < 2 or (keys[m][0] != c0 and (movers is None or m not in movers)):
            continue
        q[s] = [(float(r[c0]) if r is not None else 0.0) + sum(float(p) * values[t] for t, p in d)
                for d, r in zip(model.trans[s], model.rewards[s])]
    return FloatSolution(vals, policy, q, 0, 0.0)
