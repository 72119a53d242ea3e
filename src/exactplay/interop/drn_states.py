"""The ``@model`` section of a DRN file, read in one pass into flat arrays (:class:`~.drn_read.DrnFile`).

Every line is a state (``state N [rewards] labels``), an action (``action NAME [rewards]``) or a transition
(``SUCCESSOR : PROBABILITY``).  Each distinct probability text, action line and text after a state's number
is read once and looked up after; a choice's probabilities are checked to sum to exactly 1 once per
distinct sequence of them (one successor of probability 1, the most frequent, needs no look-up).  Defects
are one line ``FILE:LINE: what is wrong``, as :func:`~.drn_read.parse_drn` says.

Two readings give the same arrays: a file in exactly the layout Storm writes (tab indents, ``N : P``) is
read a choice at a time (:func:`.drn_storm.storm_form`, a quarter less CPU than line by line on the large QVBS
files: echoring 0.26 -> 0.20 s); any other file, and any file with a defect, line by line
(:func:`_line_by_line`: every layout the format allows, and the line of a defect).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from fractions import Fraction

from ..model import ModelError
from .drn_storm import storm_form
from .continuous import CONTINUOUS, close, embed
from .drn_texts import Texts

__all__ = ["DrnFile", "read_states", "NOLABEL"]

NOLABEL = "__NOLABEL__"  # an action without a name


@dataclass
class DrnFile:
    """A DRN file read into flat arrays (the form of :class:`~exactplay.model.sparse.Sparse`).

    State ``d`` has the choices ``first[d] .. first[d+1]-1``, choice ``a`` the transitions
    ``start[a] .. start[a+1]-1`` to ``succ[k]`` with probability ``probs[pk[k]]`` (each distinct number
    once); ``action_names[a]`` is the file's name of choice ``a``; ``state_rewards[d]`` and
    ``action_rewards[a]`` are tuples (one number per reward model) or ``None`` where the file gives none.
    """

    path: str
    type: str  # "DTMC" | "MDP" | "CTMC" | "MA" (a continuous-time file: its arrays are the embedded model's)
    reward_models: list[str]
    labels: list[list[str]]
    lines: list[int]  # the line of each state
    initial: int  # the first initial state (label init)
    first: list[int] = field(default_factory=list)
    start: list[int] = field(default_factory=list)
    succ: list[int] = field(default_factory=list)
    pk: list[int] = field(default_factory=list)
    probs: list[Fraction] = field(default_factory=list)
    action_names: list[str] = field(default_factory=list)
    state_rewards: list[tuple | None] = field(default_factory=list)
    action_rewards: list[tuple | None] = field(default_factory=list)
    initial_states: list[int] = field(default_factory=list)  # every state labelled init, in order
    # a CTMC or MA: each state's mean sojourn 1/E (0 in a probabilistic state), :mod:`.continuous`; else None
    sojourn: list[Fraction] | None = None

    def __post_init__(self) -> None:
        if not self.initial_states:
            self.initial_states = [self.initial]

    def __len__(self) -> int:
        return len(self.lines)

    def all_labels(self) -> set[str]:
        return {x for labs in self.labels for x in labs}


_NUMBER = re.compile(r"[+-]?\d+(/\d+)?")
_DECIMAL = re.compile(r"[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?")


class _Reader:  # (the header is read by :func:`.drn_read.parse_drn`, the states here)
    """The lines of a DRN text, read one at a time (never split all at once: a list of every line
    costs about 50 bytes a line more than the text)."""

    def __init__(self, path: str, text: str):
        self.path = path
        self.text = text
        self.pos = 0  # offset of the next line
        self.i = 0  # number of the line last read (1-based), 0 before the first
        self.placeholders: dict[str, Fraction] = {}
        self.decimals = False
        self.rates = False  # a CTMC's transitions are rates

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


_CHUNK = 1 << 22  # characters of text split into lines at a time (a list of every line would cost ~50 bytes a line)


def _numbered(r: _Reader):
    """``(line number, line)`` of the rest of the text, split a chunk at a time (a chain of the chunks'
    ``enumerate``: no Python step per line)."""
    from itertools import chain

    return chain.from_iterable(enumerate(lines, n) for n, lines in _chunks(r))


def _chunks(r: _Reader):
    """``(number of the chunk's first line, its lines)`` for the rest of the text; ``r.i`` the last line's
    number when done."""
    text, pos, n = r.text, r.pos, r.i + 1
    size = len(text)
    while pos <= size:
        end = text.find("\n", min(pos + _CHUNK, size))
        end = size if end < 0 else end
        lines = text[pos:end].split("\n")
        yield n, lines
        n += len(lines)
        pos = end + 1
    r.i = n - 1


def read_states(r: _Reader, path: str, mtype: str, reward_models: list[str], nr_states: int,
                 nr_choices: int | None) -> DrnFile:
    """The ``@model`` section into flat arrays: a file in the layout Storm writes a choice at a time
    (:func:`.drn_storm.storm_form`), any other (hand-written, or with a defect: reported at its line) line by line
    (:func:`_line_by_line`); both give the same arrays."""
    got = storm_form(r, mtype, reward_models, nr_states, nr_choices)
    if got is None:
        got = _line_by_line(r, mtype, reward_models, nr_states, nr_choices)
    first, start, succ, pk, probs, names, srews, arews, labels, lines, exits = got
    inits = [s for s, labs in enumerate(labels) if "init" in labs]
    if not inits:
        r.fail(r.last_line, "no initial state (label init)")
    sojourn = None
    if mtype == "MA":
        closed = close(first, start, succ, pk, names, arews, exits)
        if closed is not None:
            first, start, succ, pk, names, arews, exits = closed
    if mtype in CONTINUOUS:
        pk, probs, srews, sojourn = embed(r, mtype, first, start, pk, probs, srews, exits, lines)
    elif any(x is not None for x in exits):
        d = next(d for d, x in enumerate(exits) if x is not None)
        r.fail(lines[d], f"state {d}: an exit rate (!) in a {mtype}, which is a discrete-time model")
    return DrnFile(path, mtype, reward_models, labels, lines, inits[0], first, start, succ, pk, probs, names,
                   srews, arews, inits, sojourn)


def _line_by_line(r: _Reader, mtype: str, reward_models: list[str], nr_states: int, nr_choices: int | None):
    """``(first, start, succ, pk, probs, names, srews, arews, labels, lines)`` of the ``@model`` section
    (:class:`DrnFile`'s arrays), one pass over its lines; every distinct number (probability, reward
    vector, label list) is read once and looked up after (a table per kind); a defect is
    ``FILE:LINE: what is wrong``."""
    tx = Texts(r, reward_models)
    labels: list[list[str]] = []
    lines: list[int] = []
    first: list[int] = []
    start = [0]
    succ: list[int] = []
    pk: list[int] = []
    probs, unit, prob_of, tails = tx.probs, tx.unit, tx.prob_of, tx.tails
    names: list[str] = []
    srews: list[tuple | None] = []
    arews: list[tuple | None] = []
    actions: dict[str, tuple] = {}  # an action line as written -> (its name, its rewards)
    sums: dict[tuple, bool] = {}  # the sorted probability indices of a choice -> whether they sum to 1
    zeros: list[int] = []  # the successors of the current choice with probability 0 (not kept)
    cs = 0  # where the current choice's transitions start in succ
    in_choice = False
    choice_line = 0
    dtmc = mtype in ("DTMC", "CTMC")  # one action a state (its line may be left out)
    rates = tx.rates
    exits: list = []
    add_succ, add_pk = succ.append, pk.append

    def close() -> None:
        """The choice being read is complete: a successor, no successor twice, its probabilities sum to
        exactly 1 (checked once per sequence of probabilities: they repeat)."""
        n = len(succ) - cs
        if not n and not zeros:
            r.fail(choice_line, f"action {names[-1]} of state {len(lines) - 1} has no successor")
        if n > 1 or zeros:
            mine = succ[cs:] + zeros
            if len(set(mine)) != len(mine):
                twice(mine)
        key = tuple(pk[cs:])
        ok = sums.get(key)
        if ok is None:
            ok = sums[key] = rates or sum(probs[i] for i in key) == 1
        if not ok:
            r.fail(choice_line, f"state {len(lines) - 1}, action {names[-1]}: probabilities sum to "
                                f"{sum(probs[i] for i in key)}, not exactly 1")

    def twice(mine: list[int]) -> None:
        """The line of the first successor written twice in the current choice (read again: an error)."""
        t = next(t for k, t in enumerate(mine) if t in mine[:k])
        count = 0
        for ln, raw in enumerate(r.text.split("\n")[choice_line:], choice_line + 1):
            target = raw.partition(":")[0].strip()
            if target.isdigit() and int(target) == t:
                count += 1
                if count == 2:
                    r.fail(ln, f"successor {t} appears twice in one action")
            elif raw.strip().startswith(("state", "action")):
                break
        r.fail(choice_line, f"successor {t} appears twice in one action")

    def open_choice(name: str, arew, ln: int) -> None:
        nonlocal in_choice, choice_line, cs
        names.append(name)
        arews.append(arew)
        in_choice, choice_line, cs = True, ln, len(succ)
        zeros.clear()

    def new_action(raw: str, line: str, ln: int) -> tuple:
        """The name and rewards of an action line not seen before, kept under its text as written."""
        if not lines:
            r.fail(ln, "an action before the first state")
        return actions.setdefault(raw, tx.action(line[6:], ln))

    for ln, raw in _numbered(r):
        tgt, sep, val = raw.partition(" : ")  # a transition as Storm writes it, the most frequent line
        if sep and in_choice:
            tgt = tgt.lstrip(" \t")
            if tgt.isascii() and tgt.isdigit():
                t = int(tgt)
                if t >= nr_states:
                    r.fail(ln, f"successor {t} is not a state (@nr_states {nr_states})")
                i = prob_of.get(val)
                if i is None:
                    i = tx.probability(val.strip(), ln)
                    prob_of[val] = i
                if i >= 0:  # (a probability 0 is no transition)
                    add_succ(t)
                    add_pk(i)
                else:
                    zeros.append(t)
                continue
        act = actions.get(raw)  # an action line read before (the same text): its name and rewards
        if act is None:
            line = raw.strip()
            if line.startswith("action ") or line == "action":
                act = new_action(raw, line, ln)
        if act is not None:
            if in_choice:
                if len(succ) - cs != 1 or zeros or not unit[pk[-1]]:  # (one successor of probability 1: sound)
                    close()
                start.append(len(succ))
            if dtmc and first[-1] != len(names):
                r.fail(ln, f"state {len(lines) - 1}: a {mtype} state has one action")
            names.append(act[0])
            arews.append(act[1])
            in_choice, choice_line, cs = True, ln, len(succ)
            zeros.clear()
            continue
        if not line:
            continue
        if "0" <= line[0] <= "9":  # a transition written otherwise, or the first of a DTMC state's implicit action
            if not in_choice:
                if not lines:
                    r.fail(ln, f"unexpected line {line[:60]!r} before the first state")
                if not dtmc or first[-1] != len(names):
                    r.fail(ln, "a transition before its action line")
                open_choice("0", None, ln)
            tgt, colon, val = line.partition(":")
            if not colon:
                r.fail(ln, f"expected 'successor : probability', got {line[:60]!r}")
            tgt = tgt.strip()
            if not (tgt.isascii() and tgt.isdigit()):
                r.fail(ln, f"successor {tgt[:20]!r} is not a state number")
            t = int(tgt)
            if t >= nr_states:
                r.fail(ln, f"successor {t} is not a state (@nr_states {nr_states})")
            val = val.strip()
            i = prob_of.get(val)
            if i is None:
                i = prob_of[val] = tx.probability(val, ln)
            if i >= 0:  # (a probability 0 is no transition)
                add_succ(t)
                add_pk(i)
            else:
                zeros.append(t)
        elif line.startswith("state "):
            if in_choice:
                if len(succ) - cs != 1 or zeros or not unit[pk[-1]]:  # (one successor of probability 1: sound)
                    close()
                start.append(len(succ))
                in_choice = False
            if lines and first[-1] == len(names):
                r.fail(lines[-1], f"state {len(lines) - 1} has no action")
            sid, _, rest = line[6:].strip().partition(" ")
            if not (sid.isascii() and sid.isdigit()) or int(sid) != len(lines):
                r.fail(ln, f"state {sid[:20]}: expected state {len(lines)} (states are numbered 0, 1, ... in order)")
            if len(lines) >= nr_states:
                r.fail(ln, f"more states than @nr_states {nr_states}")
            tail = tails.get(rest)  # the rewards and labels, read once per distinct text
            if tail is None:
                tail = tx.tail(rest, ln, sid)
            srew, labs, exit_rate = tail
            labels.append(labs)
            srews.append(srew)
            exits.append(exit_rate)
            lines.append(ln)
            first.append(len(names))
        elif line.startswith("//"):
            continue
        else:
            if not lines:
                r.fail(ln, f"unexpected line {line[:60]!r} before the first state")
            if not in_choice and (not dtmc or first[-1] != len(names)):
                r.fail(ln, "a transition before its action line")
            r.fail(ln, f"successor {line.partition(':')[0].strip()[:20]!r} is not a state number"
                   if ":" in line else f"expected 'successor : probability', got {line[:60]!r}")
    if in_choice:
        close()
        start.append(len(succ))
    if lines and first[-1] == len(names):
        r.fail(lines[-1], f"state {len(lines) - 1} has no action")
    if len(lines) != nr_states:
        r.fail(r.last_line, f"{len(lines)} states, but @nr_states says {nr_states}")
    if nr_choices is not None and nr_choices != len(names):
        r.fail(r.last_line, f"{len(names)} choices, but @nr_choices says {nr_choices}")
    first.append(len(names))
    return first, start, succ, pk, probs, names, srews, arews, labels, lines, exits
