"""Certificate v2: any model's exact solution, for the generic checker.

::

    format        "exactplay-certificate"
    version       2
    kind          "model"
    params        the factory's parameters (--param goal=5: {"goal": 5}; a fraction as "p/q"), {} for a
                  model file; recorded, not tied to the model by the checker (it has no factory to run)
    model         the explicit model (exactplay.model.explicit format)
    model_sha256  SHA-256 of json.dumps(model, sort_keys=True, separators=(",", ":"))
    solution      objective   "max" | "zero-sum" | "min" (the model's, resolved)
                  witness     "termination" | "reachability" | "policy" | "reward"
                  components  the payoff components the values hold
                  values      per state: ["p/q", ...] over the components; absent in a
                              policy-only certificate (the checker evaluates the policy exactly)
                  policy      per state: chosen action index (null at terminal states, 0 at chance)
                  ranks       per state: integer rank or null
                  margins     per state: "p/q" at choice states (best minus runner-up in the
                              mover's objective, 0 on a tie), null elsewhere; the compared
                              action values are the one-step Q_a = r_a + sum p V(t) everywhere
                              (an action that loops forever ties when V(s) is its Q); stored
                              with the values only (a policy-only certificate has none)
                  ties        [[state, [tied action indices]], ...]
                  infinite    witness "proper" only (never_ending "infinite"): per state the witness
                              rank of a value +infinity (its values row is null), null elsewhere
    answer        {"name", "state", "component", "value": "p/q", "decimal", "digits"}; an infinite
                  value is "value": null with "value_reason": "infinite: ...", "decimal": "inf"
    initial_states  only for a model with several (model.initial_states): {"values": ["p/q", ...] per
                  initial state in that order (null: +infinity), "smallest"/"largest": {"state",
                  "value", "decimal"} (the first initial state with that value, infinity above every
                  number, "decimal" "inf"; the answer's component and digits)}
    smallest_margin {"value": "p/q", "state": s} or null (smallest non-zero margin, lowest state)
    source        optional: the PRISM/JANI file the model was built from and the property's
                  answer (language, file, file_sha256, constants, property, property_read,
                  model_type, initial_states, threshold: exactplay.checker._source)
    tool_version  informational
    notes         informational

What the checker proves from it is stated in :mod:`exactplay.checker.model`.
"""

from __future__ import annotations

import json

from .. import __version__
from ..audit.judge import decimal_digits
from ..engine import Solution
from ..model import model_to_json
from ..model.canonical import model_digest  # noqa: F401 (re-exported)
from ..numbers.backends import format_pq

__all__ = ["model_certificate", "model_digest", "solution_fields"]


def answer_name(sol: Solution) -> str:
    m = sol.model
    c = sol.components[0]
    return f"value of {m.state_name(m.initial)} to {m.player_names[c]}"


def solution_fields(sol: Solution, order=None, component: int | None = None, name: str | None = None,
                    digits: int = 8, store: str = "values") -> dict:
    """The fields every certificate v2 of a solved model holds: ``solution`` (values, policy, ranks,
    margins, ties), ``answer`` (the initial state's value in ``component``, default the first solved
    one, called ``name``) and ``smallest_margin``.  With ``order`` the states are numbered as there
    (``order[i]`` is state ``i``), else by their indices.  ``store="policy"`` leaves the values and
    the margins out (a policy-only certificate: the checker evaluates the policy exactly and derives
    the rest, the smallest margin included)."""
    if store not in ("values", "policy"):
        raise ValueError(f"store must be 'values' or 'policy', not {store!r}")
    m = sol.model
    order = range(len(m)) if order is None else order
    number = [0] * len(order)
    for i, s in enumerate(order):
        number[s] = i
    component = sol.components[0] if component is None else component
    v0 = sol.values[m.initial]
    value = None if v0 is None else v0[sol.components.index(component)]
    smallest = sol.smallest_margin()
    smallest_state = None
    if smallest is not None:
        smallest_state = min(number[s] for s, x in sol.margins.items() if x == smallest[0])
    values = {} if store == "policy" else {"values": _value_rows(sol.values, order)}
    margins = {} if store == "policy" else {
        "margins": [format_pq(sol.margins[s]) if s in sol.margins else None for s in order]}
    if sol.witness == "proper":
        if store == "policy":
            raise ValueError("a certificate of infinite values stores the values")
        values["infinite"] = [sol.infinite.get(s) for s in order]
    answer = {"value": format_pq(value), "decimal": decimal_digits(value, digits)} if value is not None else {
        "value": None, "value_reason": sol.infinite_reason(m.initial), "decimal": "inf"}
    return {
        "solution": {
            "objective": sol.objective,
            "witness": sol.witness,
            "components": list(sol.components),
            **values,
            "policy": [sol.policy[s] for s in order],
            "ranks": [sol.ranks[s] for s in order],
            **margins,
            "ties": sorted([number[s], list(a)] for s, a in sol.ties.items()),
        },
        "answer": {
            "name": answer_name(sol) if name is None else name,
            "state": number[m.initial],
            "component": component,
            **answer,
            "digits": digits,
        },
        "smallest_margin": None if smallest is None else {"value": format_pq(smallest[0]), "state": smallest_state},
        **_initial_states(sol, number, sol.components.index(component), digits),
    }


MAX_ROWS = 1 << 16  # distinct rows of values whose text is shared while writing them


def _value_rows(values, order) -> list:
    """Each state's values as ``["p/q", ...]``; equal rows (tuples of exact numbers: hashed, not
    written again) share one list: a big model's values repeat (team-form: a few distinct rows for
    907,993 states)."""
    rows: dict = {}
    out = []
    for s in order:
        v = values[s]
        if v is None:
            out.append(None)
            continue
        row = rows.get(v)
        if row is None:
            row = [format_pq(x) for x in v]
            if len(rows) < MAX_ROWS:
                rows[v] = row
        out.append(row)
    return out


def _initial_states(sol: Solution, number: list, k: int, digits: int) -> dict:
    """``{"initial_states": ...}`` for a model with several initial states, else ``{}``."""
    from ..model.initial_values import initial_range

    r = initial_range(sol.model.initial_states, lambda s: None if sol.values[s] is None else sol.values[s][k])
    if r is None:
        return {}

    def end(s, v):  # an infinite value: null, decimal "inf" (as the answer's)
        return {"state": number[s], "value": None if v is None else format_pq(v), "decimal": r.decimal(v, digits)}

    return {"initial_states": {"values": [None if v is None else format_pq(v) for v in r.values],
                               "smallest": end(*r.smallest), "largest": end(*r.largest)}}


def model_certificate(sol: Solution, digits: int = 8, notes: str = "", params: dict | None = None,
                      source: dict | None = None, store: str = "values") -> dict:
    """The certificate; ``params``: the factory's parameters as recorded (:func:`recorded_params`;
    ``{}`` for a model file), left out when None; ``source``: what a PRISM/JANI model was built
    from and the property's answer (:func:`exactplay.api.symbolic.source_block`), left out
    when None; ``store``: ``"values"`` or ``"policy"`` (:func:`solution_fields`)."""
    model_json = model_to_json(sol.model)
    return _certificate(sol, model_json, model_digest(model_json), digits, notes, params, source, store)


def _certificate(sol, model, digest, digits, notes, params, source, store) -> dict:
    return {
        "format": "exactplay-certificate",
        "version": 2,
        "kind": "model",
        **({} if params is None else {"params": params}),
        "model": model,
        "model_sha256": digest,
        **solution_fields(sol, digits=digits, store=store),
        **({} if source is None else {"source": source}),
        "tool_version": __version__,
        "notes": notes,
    }


STATES_PER_WRITE = 4096  # states joined into one piece of text to hash and write


def write_model_certificate(sol: Solution, out, digits: int = 8, notes: str = "", params: dict | None = None,
                            source: dict | None = None, store: str = "values") -> dict:
    """Write :func:`model_certificate`'s certificate as text to ``out`` (a text file) in one pass, and
    return it without its model (``"model"`` is ``None``): what a command prints of it.

    The model is written as its canonical text (:func:`exactplay.model.explicit_text.model_text`), one
    state per line, and hashed as it goes: ``model_sha256`` is the SHA-256 of those pieces joined
    without the newlines, which is ``json.dumps(model, sort_keys=True, separators=(",", ":"))``, with
    no dict per state and no second encoding.  The per-state lists of ``solution`` (values, policy,
    ranks, margins, ties, infinite) are written one to a line by Python's C encoder; the other fields
    indented as :func:`exactplay.certify.write.write_certificate` writes them.  Parsed, the text is
    :func:`model_certificate`'s certificate (``tests/test_model_text.py``)."""
    from ..model.collector import fewer_collections

    with fewer_collections(freeze=True):  # millions of small strings and lists, no garbage cycles
        return _write(sol, out, _certificate(sol, None, None, digits, notes, params, source, store))


def _write(sol: Solution, out, cert: dict) -> dict:
    write = out.write
    write("{\n")
    first = True
    for key, value in cert.items():
        if not first:
            write(",\n")
        first = False
        write(f" {json.dumps(key, allow_nan=False)}: ")
        if key == "model":
            cert["model_sha256"] = _write_model(sol.model, write)
        elif key == "model_sha256":
            write(json.dumps(cert["model_sha256"], allow_nan=False))
        elif key == "solution":
            write("{\n")
            write(",\n".join(f"  {json.dumps(k, allow_nan=False)}: {json.dumps(v, allow_nan=False)}" for k, v in value.items()))
            write("\n }")
        else:
            write(_indented(value))
    write("\n}\n")
    return cert


def _write_model(model, write) -> str:
    """Write the model's canonical text, one state per line; return its SHA-256 (without the newlines)."""
    import hashlib

    from ..model.explicit_text import model_text

    head, states, tail = model_text(model)
    digest = hashlib.sha256(head.encode("utf-8"))
    write(head)
    sep = ""
    batch: list[str] = []
    for st in states:
        batch.append(st)
        if len(batch) == STATES_PER_WRITE:
            digest.update((sep + ",".join(batch)).encode("utf-8"))
            write(sep + "\n" + ",\n".join(batch))
            sep, batch = ",", []
    if batch:
        digest.update((sep + ",".join(batch)).encode("utf-8"))
        write(sep + "\n" + ",\n".join(batch))
    digest.update(tail.encode("utf-8"))
    write("\n" + tail)
    return digest.hexdigest()


def _indented(value) -> str:
    """``value`` as ``json.dumps(..., indent=1)`` writes a member of the top level: one more space."""
    return json.dumps(value, indent=1, allow_nan=False).replace("\n", "\n ")


def write_certificate_file(sol: Solution, output: str, **fields) -> dict:
    """:func:`write_model_certificate` to the file ``output`` (written beside it, then renamed: never
    a half-written file) or to standard output (``"-"``); ``fields`` are its keyword arguments."""
    import sys

    from .write import open_atomic
    from ..errors import UsageError

    if output == "-":
        return write_model_certificate(sol, sys.stdout, **fields)
    try:
        with open_atomic(output) as f:
            return write_model_certificate(sol, f, **fields)
    except OSError as exc:
        raise UsageError(f"-o {output}: cannot write the certificate ({exc.strerror or exc})") from None
