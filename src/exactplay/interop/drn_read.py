"""Reading Storm's explicit DRN format strictly (the format: :mod:`exactplay.interop.drn`).

Any defect is one line ``FILE:LINE: what is wrong``; numbers are exact rationals (a ``double``
file's decimals are read exactly); probabilities must sum to exactly 1 (nothing is renormalised).
"""

from __future__ import annotations

from pathlib import Path

from ..checker.readers import read_bounded
from ..model import ModelError
from ..model.compiled import MAX_STATES
from .drn_states import NOLABEL, DrnFile, _Reader, read_states  # noqa: F401  (NOLABEL, DrnFile re-exported)

MAX_DRN_BYTES = 1024 * 2**20


def drn_name(path: str | Path) -> str:
    """The name of a DRN file without its suffixes (``leader.drn`` and ``leader.drn.gz``: ``leader``)."""
    p = Path(path)
    return (p.with_suffix("") if p.suffix.lower() == ".gz" else p).stem


def read_drn_text(path: str | Path) -> str:
    """The text of a DRN file (gzip-compressed or not), within :data:`MAX_DRN_BYTES`."""
    data = read_bounded(path, MAX_DRN_BYTES, "the DRN file", error=ModelError)
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise ModelError(f"{path}: cannot read as UTF-8 text ({exc})") from None


def read_drn(path: str | Path, max_states: int = MAX_STATES) -> DrnFile:
    """Read a DRN file strictly; one declaring more than ``max_states`` states is refused at its header."""
    return parse_drn(read_drn_text(path), str(path), max_states)


def parse_drn(text: str, path: str = "<drn>", max_states: int = MAX_STATES) -> DrnFile:
    """Parse DRN text strictly (see the module docstring).  ``@nr_states`` is the count the states must
    match, so a count above ``max_states`` is refused before any state is read."""
    r = _Reader(path, text)
    mtype = value_type = None
    reward_models: list[str] = []
    nr_states = nr_choices = None
    seen: set[str] = set()
    while True:
        got = r.next()
        if got is None:
            r.fail(r.last_line, "the file ends before @model")
        ln, line = got
        key = line.strip()
        if key.startswith("@") and key.split(":")[0] in seen and key != "@model":
            r.fail(ln, f"{key.split(':')[0]} is declared twice")
        seen.add(key.split(":")[0])
        if key.startswith("@type:"):
            mtype = key[6:].strip()
            if mtype not in ("DTMC", "MDP", "CTMC", "Markov Automaton"):
                r.fail(ln, f"model type {mtype!r}: exactplay reads DTMC, MDP, CTMC and Markov Automaton models")
            mtype = "MA" if mtype == "Markov Automaton" else mtype  # (Storm's name, kept short)
            r.rates = mtype == "CTMC"
        elif key.startswith("@value_type:"):
            value_type = key[12:].strip()
            if value_type not in ("rational", "double"):
                r.fail(ln, f"value type {value_type!r}: exactplay reads rational (or double, read exactly) models")
            r.decimals = value_type == "double"
        elif key == "@parameters":
            nxt = (r.raw() or "").strip()
            if nxt:
                r.fail(r.i, f"parameters {nxt[:40]!r}: a parametric model has no exact values (instantiate it first)")
        elif key == "@reward_models":
            nxt = (r.raw() or "").strip()
            reward_models = nxt.split()
        elif key in ("@nr_states", "@nr_choices"):
            got = r.next()
            digits = got[1].strip() if got else ""
            if not (digits.isascii() and digits.isdigit()):
                r.fail(got[0] if got else ln, f"{key} must be followed by a number")
            if key == "@nr_states":
                if len(digits) > 18 or int(digits) > max_states:
                    r.fail(got[0], f"@nr_states {digits[:20]}: more than {max_states:,} states, the limit (raise it "
                                   "with --max-states)")
                nr_states = int(digits)
            elif len(digits) > 18:
                r.fail(got[0], f"@nr_choices {digits[:20]}... is not a count of choices")
            else:
                nr_choices = int(digits)
        elif key == "@placeholders":
            while (r.peek_raw() or "").startswith("$"):
                name, colon, value = r.raw().partition(":")
                if not colon:
                    r.fail(r.i, "a placeholder is written $name : value")
                r.placeholders[name.strip()[1:]] = r.number(value, r.i, "placeholder value")
        elif key == "@model":
            break
        else:
            r.fail(ln, f"unexpected line {key[:60]!r} in the header (expected @type, @value_type, @parameters, "
                       "@reward_models, @nr_states, @nr_choices, @placeholders or @model)")
    if mtype is None:
        r.fail(ln, "@model before @type")
    if nr_states is None or nr_states < 1:
        r.fail(ln, "@model before @nr_states (at least 1)")
    if value_type is None:
        r.decimals = False
    return read_states(r, path, mtype, reward_models, nr_states, nr_choices)
