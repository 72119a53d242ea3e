"""The DRN reader's two readings of the ``@model`` section agree: a file in the layout Storm writes is read a
choice at a time (``drn_storm.storm_form``), any other line by line (``drn_states._line_by_line``).  On
random files -- rewards, quoted labels, DTMCs, several successors, then one line changed (a probability,
an indent, a comment, a blank line, a successor written twice, a state number, line endings) -- both
readings give the same arrays (the same line of each state) or the same error line, and the Storm layout
itself is read a choice at a time."""

from __future__ import annotations

import random
from fractions import Fraction

import pytest

from exactplay.interop import drn_states, drn_storm
from exactplay.interop.drn_read import parse_drn
from exactplay.model import ModelError

FIELDS = ("type", "reward_models", "first", "start", "succ", "pk", "probs", "action_names", "state_rewards",
          "action_rewards", "labels", "lines", "initial", "initial_states", "sojourn")


def _random_drn(rng: random.Random) -> str:
    """A random file in Storm's layout: a DTMC, an MDP, a CTMC (rates, ``!E`` their sum) or a Markov automaton
    (``!E`` on its Markovian states, one choice each, ``!0`` on the others)."""
    mtype = rng.choice(["DTMC", "DTMC", "MDP", "MDP", "MDP", "CTMC", "MA"])
    dtmc = mtype in ("DTMC", "CTMC")
    rewards = rng.random() < 0.4
    valuations = rng.random() < 0.3
    n = rng.randint(1, 14)
    init = rng.randrange(n)
    lines, choices = [], 0
    for d in range(n):
        labels = ["init"] * (d == init) + [rng.choice(["xgoal", '"a b"', "c", '"q"'])] * (rng.random() < 0.4)
        srew = f" [{rng.choice(['0', '1', '1/3'])}]" if rewards else ""
        markovian = mtype == "MA" and rng.random() < 0.5
        rate = rng.choice(["3", "1/2", "7/3"]) if markovian else "0"
        state = len(lines)
        lines.append(f"state {d}{' !' + rate if mtype == 'MA' else ''}{srew} {' '.join(labels)}".rstrip())
        if valuations:  # (Storm writes a state's valuation as a comment line under it)
            lines.append(f"//[x={d} & b=true]")
        for i in range(1 if dtmc or markovian else rng.randint(1, 3)):
            arew = f" [{rng.choice(['0', '2', '5/7'])}]" if rewards else ""
            lines.append(f"\taction {0 if dtmc else rng.choice(['a', 'b', str(i)])}{arew}")
            choices += 1
            ts = rng.sample(range(n), rng.randint(1, min(3, n)))
            cut = sorted(rng.sample(range(1, 10), len(ts) - 1))
            scale = rng.choice([1, 3, Fraction(1, 7)]) if mtype == "CTMC" else 1  # a CTMC's numbers are rates
            for t, a, b in zip(ts, [0] + cut, cut + [10]):
                lines.append(f"\t\t{t} : {Fraction(b - a, 10) * scale}")
            if mtype == "CTMC":
                lines[state] = lines[state].replace(f"state {d}", f"state {d} !{scale}", 1)
    head = (f"@type: {'Markov Automaton' if mtype == 'MA' else mtype}\n@value_type: rational\n@parameters\n\n@reward_models\n"
            f"{'r' if rewards else ''}\n@nr_states\n{n}\n@nr_choices\n{choices}\n@model\n")
    return head + "\n".join(lines) + "\n"


def _changed(rng: random.Random, text: str, how: str) -> str:
    """``text`` with one line of its model changed as ``how`` says."""
    head, _, body = text.partition("@model\n")
    lines = body.split("\n")[:-1]
    k = rng.randrange(len(lines))
    trans = [i for i, x in enumerate(lines) if x.startswith("\t\t")]
    if how == "probability" and trans:
        k = rng.choice(trans)
        lines[k] = lines[k].partition(" : ")[0] + " : " + rng.choice(["1/2", "0", "2", "x", "1/0", " 1", "0.5"])
    elif how == "indent":
        lines[k] = "  " + lines[k].lstrip("\t")
    elif how == "comment":
        lines.insert(k, "// a comment")
    elif how == "blank":
        lines.insert(k, rng.choice(["", "   "]))
    elif how == "twice" and trans:
        k = rng.choice(trans)
        lines.insert(k, lines[k])
    elif how == "state":
        states = [i for i, x in enumerate(lines) if x.startswith("state ")]
        k = rng.choice(states)
        lines[k] = "state " + rng.choice(["99", "x", "", "01"]) + lines[k][6:].lstrip("0123456789")
    elif how == "successor" and trans:
        k = rng.choice(trans)
        lines[k] = "\t\t" + rng.choice(["1000", "-1", "a"]) + " : " + lines[k].partition(" : ")[2]
    elif how == "crlf":
        return head + "@model\n" + "".join(x + "\r\n" for x in lines)
    elif how == "drop":
        del lines[k]
    return head + "@model\n" + "\n".join(lines) + "\n"


def _read(text: str):
    """The file's arrays, or its error message."""
    try:
        d = parse_drn(text, "m.drn")
    except ModelError as exc:
        return str(exc)
    return {f: getattr(d, f) for f in FIELDS}


def _line_by_line(monkeypatch, text: str):
    with monkeypatch.context() as m:
        m.setattr(drn_states, "storm_form", lambda *args: None)
        return _read(text)


@pytest.mark.parametrize("seed", range(60))
def test_a_file_in_storms_layout_is_read_a_choice_at_a_time_with_the_same_arrays(seed, monkeypatch):
    text = _random_drn(random.Random(seed))
    taken = []
    storm_form = drn_storm.storm_form
    monkeypatch.setattr(drn_states, "storm_form", lambda *args: taken.append(storm_form(*args)) or taken[-1])
    got = _read(text)
    monkeypatch.undo()
    assert isinstance(got, dict) and taken and taken[0] is not None
    assert got == _line_by_line(monkeypatch, text)


@pytest.mark.parametrize("how", ["probability", "indent", "comment", "blank", "twice", "state", "successor", "crlf",
                                 "drop"])
@pytest.mark.parametrize("seed", range(25))
def test_a_changed_line_gives_the_same_arrays_or_the_same_error_line_both_ways(seed, how, monkeypatch):
    rng = random.Random(seed * 31 + len(how))
    text = _changed(rng, _random_drn(rng), how)
    assert _read(text) == _line_by_line(monkeypatch, text)


def test_the_labels_read_a_choice_at_a_time_are_one_list_per_distinct_text():
    text = ("@type: MDP\n@parameters\n\n@reward_models\n\n@nr_states\n3\n@nr_choices\n3\n@model\n"
            'state 0 init "a b"\n\taction x\n\t\t1 : 1\nstate 1 "a b"\n\taction x\n\t\t2 : 1/3\n\t\t0 : 2/3\n'
            'state 2  "a b"\n\taction y\n\t\t2 : 1\n')
    d = parse_drn(text)
    assert d.labels == [["init", "a b"], ["a b"], ["a b"]] and d.labels[1] is d.labels[2]
    assert d.lines == [11, 14, 18] and d.start == [0, 1, 3, 4] and d.succ == [1, 2, 0, 2]
