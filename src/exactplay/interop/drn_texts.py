"""The tables of distinct texts of a DRN file's ``@model`` section, each text read once: probabilities,
reward vectors, label lists and the text after a state's number (:class:`Texts`), shared by the two
readings of :mod:`.drn_states` and :mod:`.drn_storm`.  A defect is ``r.fail(line, message)``: one line
``FILE:LINE: what is wrong``."""

from __future__ import annotations

import re
from fractions import Fraction

__all__ = ["Texts", "labels", "pq"]

_LABEL = re.compile(r'"([^"]+)"(?=\s|$|")|([^\s"]+)(?=\s|$)')


def pq(x: Fraction) -> str:
    """``x`` as DRN writes a rational: ``p`` or ``p/q``."""
    return str(x.numerator) if x.denominator == 1 else f"{x.numerator}/{x.denominator}"


class Texts:
    """A file's tables of distinct texts, each read once: probabilities (``prob_of``: text -> index in
    ``probs``, -1 for 0), reward vectors, label lists (one list shared by every state with the same text)
    and the text after a state's number (``tails``: -> its rewards and labels)."""

    def __init__(self, r, reward_models: list[str]):
        self.r = r
        self.rates = r.rates  # a CTMC: the transitions are rates (any number > 0), not probabilities
        self.reward_models = reward_models
        self.probs: list[Fraction] = []
        self.unit: list[bool] = []  # per probability in probs: whether it is 1
        self.prob_of: dict[str, int] = {}
        self.rew_of: dict[str, tuple] = {}
        self.labels_of: dict[str, list[str]] = {}
        self.tails: dict[str, tuple] = {}

    def probability(self, text: str, ln: int) -> int:
        """The index in ``probs`` of a probability's text (read strictly), -1 for 0."""
        if self.rates:
            p = self.r.number(text, ln, "rate")
            if p < 0:
                self.r.fail(ln, f"rate {pq(p)} is negative")
        else:
            p = self.r.number(text, ln, "probability")
            if p < 0 or p > 1:
                self.r.fail(ln, f"probability {pq(p)} is not between 0 and 1")
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
        """``(rewards or None, labels, exit rate or None)`` of the text after a state's number
        (``!RATE`` first: a continuous-time state's exit rate)."""
        key = rest
        rest = rest.strip()
        srew = exit_rate = None
        if rest.startswith("!"):
            text, _, rest = rest[1:].partition(" ")
            exit_rate = self.r.number(text, ln, f"state {sid}: exit rate")
            if exit_rate < 0:
                self.r.fail(ln, f"state {sid}: exit rate {pq(exit_rate)} is negative")
            rest = rest.strip()
        if rest.startswith("["):
            srew, rest = self.rewards(rest, ln, f"state {sid}")
            rest = rest.strip()
        labs = self.labels_of.get(rest)
        if labs is None:
            labs = self.labels_of[rest] = labels(self.r, rest, ln, sid)
        tail = self.tails[key] = (srew, labs, exit_rate)
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


def labels(r, rest: str, ln: int, sid: str) -> list[str]:
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
