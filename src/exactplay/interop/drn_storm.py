"""A DRN file's ``@model`` section in exactly the layout Storm writes, read a choice at a time
(:func:`storm_form`); :mod:`.drn_states` reads any other line by line, to the same arrays."""

from __future__ import annotations

from itertools import islice

from ..model import ModelError
from .drn_texts import Texts

__all__ = ["storm_form"]

_STORM_CHUNK = 1 << 22  # characters read at a time by :func:`storm_form` (cut before a state line)


class _NotStorm(Exception):
    """The ``@model`` section is not in the form :func:`storm_form` reads (it is read line by line)."""


def storm_form(r, mtype: str, reward_models: list[str], nr_states: int, nr_choices: int | None):
    """The arrays of :func:`.drn_states._line_by_line` for a ``@model`` section in exactly the layout Storm writes,
    else ``None`` (then it is read line by line, which also names a defect's line).

    The layout: ASCII text, every line ``state N[ ...]`` (``N`` the states' count before it, and at most
    one comment line ``//...`` under it: Storm's state valuation), ``<tab>action ...`` or ``<tab><tab>N : P``; every state starts with an action line and every action
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
    tx = Texts(r, reward_models)
    probs, unit, prob_of, tails, rates = tx.probs, tx.unit, tx.prob_of, tx.tails, tx.rates
    lines: list[int] = []
    labels: list = []
    srews: list = []
    exits: list = []
    first: list[int] = []
    start = [0]
    succ: list[int] = []
    pk: list[int] = []
    names: list[str] = []
    arews: list = []
    actions: dict[str, tuple] = {}  # the text after "action " -> (name, rewards)
    sums: dict[tuple, bool] = {}  # a choice's probability indices -> whether they sum to 1
    add_succ, add_pk, add_start, add_name, add_arew = succ.append, pk.append, start.append, names.append, arews.append
    base = r.i + 1  # the line of state 0: state d's is base + the lines before it (states, actions, transitions)

    notes = [0]  # the comment lines read so far (Storm writes a state's valuation under it: //[x=1 & y=0])

    def state(line: str) -> None:
        """The line of the next state, ``state `` cut off (and the comment line under it, if any)."""
        line, nl, note = line.partition("\n")
        sid, _, rest = line.partition(" ")
        d = len(lines)
        if (nl and ("\n" in note or not note.startswith("//"))) or not sid.isdigit() or int(sid) != d or d >= nr_states:
            raise _NotStorm
        tail = tails.get(rest)
        if tail is None:
            tail = tx.tail(rest, 0, sid)
        labels.append(tail[1])
        srews.append(tail[0])
        exits.append(tail[2])
        lines.append(base + d + len(names) + len(succ) + notes[0])
        notes[0] += bool(nl)
        first.append(len(names))

    def probability(p: str) -> int:
        """The index in ``probs`` of a probability's text not read before (on one line, not 0)."""
        if "\n" in p:  # (a line that is no transition after it: read line by line)
            raise _NotStorm
        i = prob_of[p] = tx.probability(p.strip(), 0)
        if i < 0:  # (a probability 0: no transition, read line by line)
            raise _NotStorm
        return i

    try:
        while pos < size:
            end = text.find("\nstate ", min(pos + _STORM_CHUNK, size))
            end = size if end < 0 else end
            blocks = text[pos + 7:end].split("\n\taction ")
            state(blocks[0])
            for b in islice(blocks, 1, None):
                head, _, rest = b.partition("\n\t\t")  # the action's text, then its transitions (and a state)
                act = actions.get(head)
                if act is None:
                    if "\n" in head or not rest:
                        raise _NotStorm
                    act = actions[head] = tx.action(head, 0)
                add_name(act[0])
                add_arew(act[1])
                if "\n" not in rest:  # (the most frequent block: one transition, no state after it)
                    t, _, p = rest.partition(" : ")
                    if not t.isdigit():
                        raise _NotStorm
                    add_succ(int(t))
                    i = prob_of.get(p)
                    if i is None:
                        i = probability(p)
                    if not unit[i] and not rates:
                        raise _NotStorm
                    add_pk(i)
                    add_start(len(succ))
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
                if n - cs > 1:
                    mine = succ[cs:]
                    key = tuple(pk[cs:])
                    ok = sums.get(key)
                    if ok is None:
                        ok = sums[key] = rates or sum(probs[i] for i in key) == 1
                    if not ok or len(set(mine)) != len(mine):
                        raise _NotStorm
                elif not unit[pk[-1]] and not rates:
                    raise _NotStorm
                if sep:
                    state(line)
            if first[-1] == len(names):  # (a state at the end of the text without an action)
                raise _NotStorm
            pos = end
    except (_NotStorm, ModelError, ValueError):  # (a text the line-by-line reading reports at its line)
        return None
    if (len(lines) != nr_states or (nr_choices is not None and len(names) != nr_choices)
            or (mtype in ("DTMC", "CTMC") and len(names) != nr_states) or max(succ) >= nr_states):
        return None
    first.append(len(names))
    return first, start, succ, pk, probs, names, srews, arews, labels, lines, exits
