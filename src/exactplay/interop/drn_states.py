"""The ``@model`` section of a DRN file, read in one pass into flat arrays (:class:`~.drn_read.DrnFile`).

Every line is a state (``state N [rewards] labels``), an action (``action NAME [rewards]``) or a transition
(``SUCCESSOR : PROBABILITY``).  Each distinct probability text, action line and text after a state's number
is read once and looked up after; a choice's probabilities are checked to sum to exactly 1 once per
distinct sequence of them (one successor of probability 1, the most frequent, needs no look-up).  Defects
are one line ``FILE:LINE: what is wrong``, as :func:`~.drn_read.parse_drn` says.

Two readings give the same arrays: a file in exactly the layout Storm writes (tab indents, ``N : P``) is
read a choice at a time (:func:`_storm_form`, a quarter less CPU than line by line on the large QVBS
files: echoring 0.26 -> 0.20 s); any other file, and any file with a defect, line by line
(:func:`_line_by_line`: every layout the format allows, and the line of a defect).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from fractions import Fraction
from itertools import islice

from ..model import ModelError

__all__ = ["DrnFile", "read_states", "NOLABEL"]

NOLABEL = "__NOLABEL__"  # an action without a name


def _pq(x: Fraction) -> str:
    return str(x.numerator) if x.denominator == 1 else f"{x.numerator}/{x.denominator}"


@dataclass
class DrnFile:
    """A DRN file read into flat arrays (the form of :class:`~exactplay.model.sparse.Sparse`).

    State ``d`` has the choices ``first[d] .. first[d+1]-1``, choice ``a`` the transitions
    ``start[a] .. start[a+1]-1`` to ``succ[k]`` with probability ``probs[pk[k]]`` (each distinct number
    once); ``action_names[a]`` is the file's name of choice ``a``; ``state_rewards[d]`` and
    ``action_rewards[a]`` are tuples (one number per reward model) or ``None`` where the file gives none.
    """

    path: str
    type: str  # "DTMC" | "MDP"
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

    def __post_init__(self) -> None:
        if not self.initial_states:
            self.initial_states = [self.initial]

    def __len__(self) -> int:
        return len(self.lines)

    def all_labels(self) -> set[str]:
        return {x for labs in self.labels for x in labs}

    def distribution(self, a: int) -> dict[int, Fraction]:
        """Choice ``a``'s successors and their probabilities."""
        return {self.succ[k]: self.probs[self.pk[k]] for k in range(self.start[a], self.start[a + 1])}


_NUMBER = re.compile(r"[+-]?\d+(/\d+)?")
_DECIMAL = re.compile(r"[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?")
_LABEL = re.compile(r'"([^"]+)"(?=\s|$|")|([^\s"]+)(?=\s|$)')


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
    (:func:`_storm_form`), any other (hand-written, or with a defect: reported at its line) line by line
    (:func:`_line_by_line`); both give the same arrays."""
    got = _storm_form(r, mtype, reward_models, nr_states, nr_choices)
    if got is None:
        got = _line_by_line(r, mtype, reward_models, nr_states, nr_choices)
    first, start, succ, pk, probs, names, srews, arews, labels, lines = got
    inits = [s for s, labs in enumerate(labels) if "init" in labs]
    if not inits:
        r.fail(r.last_line, "no initial state (label init)")
    return DrnFile(path, mtype, reward_models, labels, lines, inits[0], first, start, succ, pk, probs, names,
                   srews, arews, inits)


class _Texts:
    """A file's tables of distinct texts, each read once: probabilities (``prob_of``: text -> index in
    ``probs``, -1 for 0), reward vectors, label lists (one list shared by every state with the same text)
    and the text after a state's number (``tails``: -> its rewards and labels)."""

    def __init__(self, r: _Reader, reward_models: list[str]):
        self.r = r
        self.reward_models = reward_models
        self.probs: list[Fraction] = []
        self.unit: list[bool] = []  # per probability in probs: whether it is 1
        self.prob_of: dict[str, int] = {}
        self.rew_of: dict[str, tuple] = {}
        self.labels_of: dict[str, list[str]] = {}
        self.tails: dict[str, tuple] = {}

    def probability(self, text: str, ln: int) -> int:
        """The index in ``probs`` of a probability's text (read strictly), -1 for 0."""
        p = self.r.number(text, ln, "probability")
        if p < 0 or p > 1:
            self.r.fail(ln, f"probability {_pq(p)} is not between 0 and 1")
        if not p:
            return -1
        self.probs.append(p)
        self.unit.append(p == 1)
        return len(self.probs) - 1

    def rewards(self, text: str, ln: int, what: str) -> tuple[tuple, str]:
        """The reward vector ``[..]`` that ``text`` starts with, and the text after it."""
        end = text.find("]")
        if end < 0:
            self.r.fail(ln, f"{what}: ']' missing")
        inner = text[1:end]
        vals = self.rew_of.get(inner)
        if vals is None:
            vals = tuple(self.r.number(x, ln, "reward") for x in inner.split(","))
            nrew = len(self.reward_models)
            if nrew and len(vals) != nrew:
                self.r.fail(ln, f"{what}: {len(vals)} rewards for {nrew} reward model(s) "
                                f"({' '.join(self.reward_models)})")
            self.rew_of[inner] = vals
        return vals, text[end + 1:]

    def tail(self, rest: str, ln: int, sid: str) -> tuple:
        """``(rewards or None, labels)`` of the text after a state's number."""
        key = rest
        rest = rest.strip()
        srew = None
        if rest.startswith("["):
            srew, rest = self.rewards(rest, ln, f"state {sid}")
            rest = rest.strip()
        labs = self.labels_of.get(rest)
        if labs is None:
            labs = self.labels_of[rest] = _labels(self.r, rest, ln, sid)
        tail = self.tails[key] = (srew, labs)
        return tail

    def action(self, text: str, ln: int) -> tuple:
        """``(name, rewards or None)`` of the text after ``action``."""
        name, _, rest = text.strip().partition(" ")
        if not name:
            self.r.fail(ln, "an action has a name (__NOLABEL__ for none)")
        rest = rest.strip()
        arew, rest = self.rewards(rest, ln, f"action {name}") if rest.startswith("[") else (None, rest)
        if rest.strip():
            self.r.fail(ln, f"unexpected text {rest.strip()[:40]!r} after the action")
        return name, arew


_STORM_CHUNK = 1 << 22  # characters read at a time by :func:`_storm_form` (cut before a state line)


class _NotStorm(Exception):
    """The ``@model`` section is not in the form :func:`_storm_form` reads (it is read line by line)."""


def _storm_form(r: _Reader, mtype: str, reward_models: list[str], nr_states: int, nr_choices: int | None):
    """The arrays of :func:`_line_by_line` for a ``@model`` section in exactly the layout Storm writes,
    else ``None`` (then it is read line by line, which also names a defect's line).

    The layout: ASCII text, every line ``state N[ ...]`` (``N`` the states' count before it),
    ``<tab>action ...`` or ``<tab><tab>N : P``; every state starts with an action line and every action
    line is followed by its transitions; no probability 0.  The text is split at the action lines
    (one Python step per choice, not per line): a choice's block is its action line's text, its
    transitions and, at its end, the next state's line.  Every distinct text (probability, action,
    the text after a state's number) is read once, by the same functions as line by line; a choice
    of several transitions is checked (no successor twice, probabilities summing to exactly 1, once
    per sequence of probabilities), one of a single transition has probability 1."""
    text = r.text
    pos = r.pos - 1  # the newline ending the @model line
    size = len(text.rstrip("\n"))  # (blank lines at the end: no lines of the model)
    if pos < 0 or text[pos:pos + 7] != "\nstate " or not text.isascii():
        return None
    tx = _Texts(r, reward_models)
    probs, unit, prob_of, tails = tx.probs, tx.unit, tx.prob_of, tx.tails
    lines: list[int] = []
    labels: list = []
    srews: list = []
    first: list[int] = []
    start = [0]
    succ: list[int] = []
    pk: list[int] = []
    names: list[str] = []
    arews: list = []
    actions: dict[str, tuple] = {}  # the text after "action " -> (name, rewards)
    sums: dict[tuple, bool] = {}  # a choice's probability indices -> whether they sum to 1
    add_succ, add_pk, add_start, add_name, add_arew = succ.append, pk.append, start.append, names.append, arews.append
    ln = r.i  # the number of the line last read

    def state(line: str) -> None:
        """The line of the next state, ``state `` cut off."""
        sid, _, rest = line.partition(" ")
        if "\n" in line or not sid.isdigit() or int(sid) != len(lines) or len(lines) >= nr_states:
            raise _NotStorm
        tail = tails.get(rest)
        if tail is None:
            tail = tx.tail(rest, ln, sid)
        labels.append(tail[1])
        srews.append(tail[0])
        lines.append(ln)
        first.append(len(names))

    def probability(p: str) -> int:
        """The index in ``probs`` of a probability's text not read before (on one line, not 0)."""
        if "\n" in p:  # (a line that is no transition after it: read line by line)
            raise _NotStorm
        i = prob_of[p] = tx.probability(p.strip(), ln)
        if i < 0:  # (a probability 0: no transition, read line by line)
            raise _NotStorm
        return i

    try:
        while pos < size:
            end = text.find("\nstate ", min(pos + _STORM_CHUNK, size))
            end = size if end < 0 else end
            blocks = text[pos + 7:end].split("\n\taction ")
            ln += 1
            state(blocks[0])
            for b in islice(blocks, 1, None):
                head, _, rest = b.partition("\n\t\t")  # the action's text, then its transitions (and a state)
                act = actions.get(head)
                if act is None:
                    if "\n" in head or not rest:
                        raise _NotStorm
                    act = actions[head] = tx.action(head, ln + 1)
                add_name(act[0])
                add_arew(act[1])
                if "\n" not in rest:  # (the most frequent block: one transition, no state after it)
                    t, sep, p = rest.partition(" : ")
                    if not t.isdigit():
                        raise _NotStorm
                    add_succ(int(t))
                    i = prob_of.get(p)
                    if i is None:
                        i = probability(p)
                    if not unit[i]:
                        raise _NotStorm
                    add_pk(i)
                    add_start(len(succ))
                    ln += 2
                    continue
                trans, sep, line = rest.partition("\nstate ")
                cs = len(succ)
                for tr in trans.split("\n\t\t"):
                    t, _, p = tr.partition(" : ")
                    if not t.isdigit():
                        raise _NotStorm
                    add_succ(int(t))
                    i = prob_of.get(p)
                    if i is None:
                        i = probability(p)
                    add_pk(i)
                n = len(succ)
                add_start(n)
                ln += 1 + n - cs
                if n - cs > 1:
                    mine = succ[cs:]
                    key = tuple(pk[cs:])
                    ok = sums.get(key)
                    if ok is None:
                        ok = sums[key] = sum(probs[i] for i in key) == 1
                    if not ok or len(set(mine)) != len(mine):
                        raise _NotStorm
                elif not unit[pk[-1]]:
                    raise _NotStorm
                if sep:
                    ln += 1
                    state(line)
            if first[-1] == len(names):  # (a state at the end of the text without an action)
                raise _NotStorm
            pos = end
    except (_NotStorm, ModelError, ValueError):  # (a text the line-by-line reading reports at its line)
        return None
    if (len(lines) != nr_states or (nr_choices is not None and len(names) != nr_choices)
            or (mtype == "DTMC" and len(names) != nr_states) or max(succ) >= nr_states):
        return None
    first.append(len(names))
    return first, start, succ, pk, probs, names, srews, arews, labels, lines


def _line_by_line(r: _Reader, mtype: str, reward_models: list[str], nr_states: int, nr_choices: int | None):
    """``(first, start, succ, pk, probs, names, srews, arews, labels, lines)`` of the ``@model`` section
    (:class:`DrnFile`'s arrays), one pass over its lines; every distinct number (probability, reward
    vector, label list) is read once and looked up after (a table per kind); a defect is
    ``FILE:LINE: what is wrong``."""
    tx = _Texts(r, reward_models)
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
    dtmc = mtype == "DTMC"
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
            ok = sums[key] = sum(probs[i] for i in key) == 1
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
                r.fail(ln, f"state {len(lines) - 1}: a DTMC state has one action")
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
            srew, labs = tail
            labels.append(labs)
            srews.append(srew)
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
    return first, start, succ, pk, probs, names, srews, arews, labels, lines


def _labels(r: _Reader, rest: str, ln: int, sid: str) -> list[str]:
    """The labels after a state's number and rewards: bare or ``"quoted"``, separated by white space."""
    labs = []
    pos = 0
    while pos < len(rest):
        m = _LABEL.match(rest, pos)
        if m is None:
            r.fail(ln, f"state {sid}: cannot read the labels {rest[pos:pos + 40]!r}")
        labs.append(m.group(1) if m.group(1) is not None else m.group(2))
        pos = m.end()
        while pos < len(rest) and rest[pos].isspace():
            pos += 1
    return labs
