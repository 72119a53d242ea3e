"""Reading Storm's explicit DRN format strictly (the format: :mod:`exactplay.interop.drn`).

Any defect is one line ``FILE:LINE: what is wrong``; numbers are exact rationals (a ``double``
file's decimals are read exactly); probabilities must sum to exactly 1 (nothing is renormalised).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from fractions import Fraction
from pathlib import Path

from ..checker._input import read_bounded
from ..model import ModelError
from ..model.compiled import MAX_STATES

MAX_DRN_BYTES = 1024 * 2**20
NOLABEL = "__NOLABEL__"  # an action without a name


def _pq(x: Fraction) -> str:
    return str(x.numerator) if x.denominator == 1 else f"{x.numerator}/{x.denominator}"


@dataclass
class DrnAction:
    name: str
    rewards: list[Fraction]
    line: int
    trans: dict[int, Fraction] = field(default_factory=dict)


@dataclass
class DrnFile:
    path: str
    type: str  # "DTMC" | "MDP"
    reward_models: list[str]
    labels: list[list[str]]
    state_rewards: list[list[Fraction]]
    actions: list[list[DrnAction]]
    lines: list[int]  # the line of each state
    initial: int

    def __len__(self) -> int:
        return len(self.actions)

    def all_labels(self) -> set[str]:
        return {x for labs in self.labels for x in labs}


_NUMBER = re.compile(r"[+-]?\d+(/\d+)?")
_DECIMAL = re.compile(r"[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?")
_LABEL = re.compile(r'"([^"]+)"(?=\s|$|")|([^\s"]+)(?=\s|$)')


class _Reader:
    """The lines of a DRN text, read one at a time (never split all at once: a list of every line
    costs about 50 bytes a line more than the text)."""

    def __init__(self, path: str, text: str):
        self.path = path
        self.text = text
        self.pos = 0  # offset of the next line
        self.i = 0  # number of the line last read (1-based), 0 before the first
        self.placeholders: dict[str, Fraction] = {}
        self.decimals = False

    @property
    def last_line(self) -> int:
        """The number of the file's last line."""
        return self.text.count("\n") + 1

    def raw(self) -> str | None:
        """The next line as it is (``None`` past the end)."""
        if self.pos > len(self.text):
            return None
        end = self.text.find("\n", self.pos)
        end = len(self.text) if end < 0 else end
        line, self.pos = self.text[self.pos:end], end + 1
        self.i += 1
        return line

    def peek_raw(self) -> str | None:
        """The next line, not taken."""
        pos, i = self.pos, self.i
        line = self.raw()
        self.pos, self.i = pos, i
        return line

    def fail(self, line: int, msg: str):
        raise ModelError(f"{self.path}:{line}: {msg}")

    def number(self, text: str, line: int, what: str) -> Fraction:
        text = text.strip()
        if text.startswith("$"):
            if text[1:] not in self.placeholders:
                self.fail(line, f"unknown placeholder {text[:40]}")
            return self.placeholders[text[1:]]
        if len(text) > 100_000:
            self.fail(line, f"{what} {text[:20]}... is longer than 100000 characters")
        if _NUMBER.fullmatch(text):
            num, _, den = text.partition("/")
            if den and int(den) == 0:
                self.fail(line, f"{what} {text[:40]} has a zero denominator")
            return Fraction(int(num), int(den) if den else 1)
        if self.decimals and _DECIMAL.fullmatch(text):
            return Fraction(text)  # a decimal, read exactly
        self.fail(line, f"{what} {text[:40]!r} is not an exact rational p/q")

    def next(self) -> tuple[int, str] | None:
        """``(line number, line)`` of the next line that is not blank or a comment."""
        while True:
            raw = self.raw()
            if raw is None:
                return None
            raw = raw.rstrip("\r")
            if raw.startswith("//") or not raw.strip():
                continue
            return self.i, raw


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
            if mtype not in ("DTMC", "MDP"):
                r.fail(ln, f"model type {mtype!r}: exactplay reads DTMC and MDP models")
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
    nrew = len(reward_models)
    labels: list[list[str]] = []
    state_rewards: list[list[Fraction]] = []
    actions: list[list[DrnAction]] = []
    lines: list[int] = []
    current: DrnAction | None = None

    def rewards(text: str, ln: int, what: str) -> tuple[list[Fraction], str]:
        end = text.find("]")
        if end < 0:
            r.fail(ln, f"{what}: ']' missing")
        vals = [r.number(x, ln, "reward") for x in text[1:end].split(",")]
        if nrew and len(vals) != nrew:
            r.fail(ln, f"{what}: {len(vals)} rewards for {nrew} reward model(s) ({' '.join(reward_models)})")
        return vals, text[end + 1:]

    def close(ln: int) -> None:
        if current is not None:
            if not current.trans:
                r.fail(current.line, f"action {current.name} of state {len(actions) - 1} has no successor")
            total = sum(current.trans.values())
            if total != 1:
                r.fail(current.line, f"state {len(actions) - 1}, action {current.name}: probabilities sum to "
                                     f"{total}, not exactly 1")

    while True:
        got = r.next()
        if got is None:
            break
        ln, raw = got
        line = raw.strip()
        if line.startswith("state "):
            close(ln)
            current = None
            if actions and not actions[-1]:
                r.fail(lines[-1], f"state {len(actions) - 1} has no action")
            rest = line[6:].strip()
            sid, _, rest = rest.partition(" ")
            if not sid.isdigit() or int(sid) != len(actions):
                r.fail(ln, f"state {sid[:20]}: expected state {len(actions)} (states are numbered 0, 1, ... in order)")
            if len(actions) >= nr_states:
                r.fail(ln, f"more states than @nr_states {nr_states}")
            rest = rest.strip()
            srew: list[Fraction] = []
            if rest.startswith("["):
                srew, rest = rewards(rest, ln, f"state {sid}")
            labs = []
            rest = rest.strip()
            pos = 0
            while pos < len(rest):
                m = _LABEL.match(rest, pos)
                if m is None:
                    r.fail(ln, f"state {sid}: cannot read the labels {rest[pos:pos + 40]!r}")
                labs.append(m.group(1) if m.group(1) is not None else m.group(2))
                pos = m.end()
                while pos < len(rest) and rest[pos].isspace():
                    pos += 1
            labels.append(labs)
            state_rewards.append(srew)
            actions.append([])
            lines.append(ln)
        elif line.startswith("action ") or line == "action":
            if not actions:
                r.fail(ln, "an action before the first state")
            close(ln)
            rest = line[7:].strip()
            name, _, rest = rest.partition(" ")
            if not name:
                r.fail(ln, "an action has a name (__NOLABEL__ for none)")
            arew: list[Fraction] = []
            rest = rest.strip()
            if rest.startswith("["):
                arew, rest = rewards(rest, ln, f"action {name}")
            if rest.strip():
                r.fail(ln, f"unexpected text {rest.strip()[:40]!r} after the action")
            if mtype == "DTMC" and actions[-1]:
                r.fail(ln, f"state {len(actions) - 1}: a DTMC state has one action")
            current = DrnAction(name, arew, ln)
            actions[-1].append(current)
        else:
            if not actions:
                r.fail(ln, f"unexpected line {line[:60]!r} before the first state")
            if current is None:
                if mtype == "MDP" or actions[-1]:
                    r.fail(ln, "a transition before its action line")
                current = DrnAction("0", [], ln)
                actions[-1].append(current)
            tgt, colon, val = line.partition(":")
            tgt = tgt.strip()
            if not colon:
                r.fail(ln, f"expected 'successor : probability', got {line[:60]!r}")
            if not tgt.isdigit():
                r.fail(ln, f"successor {tgt[:20]!r} is not a state number")
            t = int(tgt)
            if t >= nr_states:
                r.fail(ln, f"successor {t} is not a state (@nr_states {nr_states})")
            p = r.number(val, ln, "probability")
            if p < 0 or p > 1:
                r.fail(ln, f"probability {_pq(p)} is not between 0 and 1")
            if t in current.trans:
                r.fail(ln, f"successor {t} appears twice in one action")
            current.trans[t] = p
    close(r.last_line)
    if actions and not actions[-1]:
        r.fail(lines[-1], f"state {len(actions) - 1} has no action")
    if len(actions) != nr_states:
        r.fail(r.last_line, f"{len(actions)} states, but @nr_states says {nr_states}")
    count = sum(len(a) for a in actions)
    if nr_choices is not None and nr_choices != count:
        r.fail(r.last_line, f"{count} choices, but @nr_choices says {nr_choices}")
    inits = [s for s, labs in enumerate(labels) if "init" in labs]
    if len(inits) != 1:
        r.fail(lines[inits[1]] if inits else r.last_line,
               "no initial state (label init)" if not inits else "more than one initial state (label init)")
    for acts in actions:
        for a in acts:
            a.trans = {t: p for t, p in a.trans.items() if p}
    return DrnFile(path, mtype, reward_models, labels, state_rewards, actions, lines, inits[0])
