"""A user's float table for a model: one value per state, to audit against the exact solution.

Rows are ``STATE VALUE``: ``STATE`` is the state's number (as printed by
``exactplay solve --all`` or in its JSON ``state_values``) in text rows, and
a number or the state's name in JSON rows ``[state, value]``.  Text rows may
be separated by spaces, tabs or commas; ``#`` comments, blank lines and a
header line are skipped.  ``-`` reads standard input.  The value is the
float table's value of the state in the certified component (e.g. the
first player's winning probability).  Every state must appear exactly once.
"""

from __future__ import annotations

import re

from .engine.value_iteration import FloatSolution
from .errors import UsageError
from .float_table import json_rows, read_table_text, read_value
from .model import Model
from .numbers import refuse_non_ascii_digits

__all__ = ["read_model_table"]

def read_model_table(path: str, model: Model, component: int = 0) -> FloatSolution:
    """The table as a float solution of ``model``: its values are payoff ``component`` (the one the
    exact solution certifies), and each choice state's float decision follows greedily from them."""
    path, text = read_table_text(path)
    names = {model.state_name(s): s for s in range(len(model))}
    rows = []
    if text.lstrip().startswith(("[", "{")):
        for where, row in json_rows(path, text):
            if len(row) != 2:
                raise UsageError(f"{path} {where}: a row is [state, value]")
            rows.append((where, row[0], row[1]))
    else:
        for n, line in enumerate(text.splitlines(), 1):
            line = line.strip()
            if not line or line.startswith("#"):
                continue
            fields = [f for f in re.split(r"[\s,]+", line) if f]
            if not rows and not fields[0].isdigit():
                continue  # header
            if len(fields) != 2:
                raise UsageError(f"{path} line {n}: expected 2 fields (state, value), got {len(fields)}")
            rows.append((f"line {n}", fields[0], fields[1]))
    values: dict[int, float] = {}
    for where, st, val in rows:
        if isinstance(st, str) and st in names:
            s = names[st]
        elif isinstance(st, int) and not isinstance(st, bool) or (isinstance(st, str) and st.isascii() and st.isdigit()
                                                                  and len(st) <= 12):
            s = int(st)
            if not 0 <= s < len(model):
                raise UsageError(f"{path} {where}: state {s} is not a state of this model (0..{len(model) - 1})")
        else:
            if isinstance(st, str):
                refuse_non_ascii_digits(st, f"{path} {where}: the state")
            raise UsageError(f"{path} {where}: {str(st)[:40]!r} is neither a state number nor a state name")
        if s in values:
            raise UsageError(f"{path} {where}: state {model.state_name(s)} appears twice")
        values[s] = read_value(path, where, val)
    if not values:
        raise UsageError(f"{path}: the float table has no rows")
    missing = [s for s in range(len(model)) if s not in values]
    if missing:
        raise UsageError(f"{path}: no value for state {missing[0]} ({model.state_name(missing[0])}); "
                         f"{len(missing)} states missing")
    # the table holds one component; decisions follow greedily from it
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
        if m is None or len(model.trans[s]) < 2 or keys[m][0] != c0:
            continue
        q[s] = [(float(r[c0]) if r is not None else 0.0) + sum(float(p) * values[t] for t, p in d)
                for d, r in zip(model.trans[s], model.rewards[s])]
    return FloatSolution(vals, policy, q, 0, 0.0)
