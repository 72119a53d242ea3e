r"""Continuous-time models (a CTMC, a Markov automaton), from a DRN file or built by Storm, as their
embedded discrete-time model.

exactplay answers the unbounded questions of a continuous-time model: the probability of reaching a
target (``P``), the expected reward (``R``) or time (``T``) collected until it.  Their values are those of
the **embedded** model, in which each state is left as its jump is taken and each visit earns what it
earns in expectation:

* a **CTMC** state ``s`` with the rates ``R(s, t)`` is left after an exponential time of rate
  ``E(s) = sum_t R(s, t)`` (the file's ``!E``, which must be that sum; a self-loop's rate counts), to
  ``t`` with probability ``P(s, t) = R(s, t) / E(s)``;
* a **Markov automaton**'s *Markovian* state (``!E`` with ``E > 0``) has one choice, whose numbers in
  the file are already the probabilities ``R(s, t) / E(s)`` (as Storm writes them); a *probabilistic*
  state (``!0``, or no ``!``) takes no time and has its choices as in an MDP; a *hybrid* state (``!E``
  and several choices, the Markovian one first) is probabilistic by maximal progress (:func:`close`);
* a state reward is a rate, earned per unit of time spent in the state: a visit of a state left at
  rate ``E`` earns ``rho(s) / E(s)`` in expectation (the mean of the exponential sojourn), a
  probabilistic state ``0``; an action reward is earned once, as the choice is taken;
* the expected time (``T``) is the expected reward of the state reward ``1``: ``1 / E(s)`` a visit of
  a state left at rate ``E(s)``, ``0`` a probabilistic state (:attr:`DrnFile.sojourn`).

Why the embedded values are the answers: the probability of reaching the target depends on the
sequence of states only, which is the embedded chain (in a Markov automaton under a scheduler that
does not look at the clock; for unbounded reachability and expected time such schedulers are optimal,
Storm's reduction too); the expected total reward until the target is, by linearity, the sum over the
visits of each visit's expected reward, which the strong Markov property makes ``rho(s) / E(s)`` plus
the action's, independent of the rest.  Time bounds (``F<=t`` in time) and long-run questions have
other, in general irrational, values: a DRN file holds no property, and a PRISM/JANI property with a time
bound or a long-run average is refused (:mod:`.query`).

:func:`embed` maps a DRN file's arrays (:mod:`.drn_states`), :func:`embed_arrays` a model Storm built
(:mod:`.storm_arrays`: a CTMC's matrix holds the rates, a Markov automaton's the probabilities, beside
Storm's exit rates and Markovian states).

>>> from exactplay.interop.drn import parse_drn
>>> m = parse_drn("@type: CTMC\n@nr_states\n2\n@model\nstate 0 !5/2 init\n action a\n  0 : 1/2\n  1 : 2\n"
...               "state 1 !1 done\n action a\n  1 : 1\n")
>>> [str(p) for p in m.probs], m.sojourn
(['1/5', '4/5', '1'], [Fraction(2, 5), Fraction(1, 1)])
"""

from __future__ import annotations

from fractions import Fraction

__all__ = ["CONTINUOUS", "close", "embed", "embed_arrays"]

CONTINUOUS = {"CTMC": "DTMC", "MA": "MDP"}  # a continuous-time type -> the type of its embedded model
_ZERO = Fraction(0)


def close(first, start, succ, pk, names, arews, exits) -> tuple | None:
    """A Markov automaton's hybrid states (a Markovian choice, listed first as Storm writes it, and
    probabilistic ones) closed by maximal progress, as Storm's model checkers do: time cannot pass where a
    probabilistic choice is enabled, so the Markovian choice is dropped and the state is probabilistic (exit
    rate 0).  ``(first, start, succ, pk, names, arews, exits)`` without those choices, or None when there
    is no hybrid state.  (Storm then also drops the states no longer reachable; they are kept here, with
    their own values.)"""
    hybrid = [d for d in range(len(exits)) if exits[d] and first[d + 1] - first[d] > 1]
    if not hybrid:
        return None
    drop = {first[d] for d in hybrid}
    new_first, new_start, new_succ, new_pk, new_names, new_arews = [], [0], [], [], [], []
    for d in range(len(exits)):
        new_first.append(len(new_names))
        for a in range(first[d], first[d + 1]):
            if a in drop:
                continue
            new_succ += succ[start[a]:start[a + 1]]
            new_pk += pk[start[a]:start[a + 1]]
            new_start.append(len(new_succ))
            new_names.append(names[a])
            new_arews.append(arews[a])
    new_first.append(len(new_names))
    exits = list(exits)
    for d in hybrid:
        exits[d] = _ZERO
    return new_first, new_start, new_succ, new_pk, new_names, new_arews, exits


def embed(r, mtype: str, first, start, pk, probs, srews, exits, lines) -> tuple[list, list, list, list]:
    """The embedded model of a CTMC or MA read by :mod:`.drn_states`: ``(pk, probs, srews, sojourn)``
    with ``pk`` and ``probs`` (each choice's probabilities), the state rewards per visit and the mean
    sojourn of each state (see the module docstring).  A defect is ``r.fail(line, message)``."""
    n = len(lines)
    sojourn: list[Fraction] = [_ZERO] * n
    new_srews = list(srews)
    per_visit: dict[tuple, tuple] = {}  # (id of a reward tuple, E) -> the tuple divided by E

    def divided(vec, rate):
        if vec is None:
            return None
        key = (id(vec), rate)
        got = per_visit.get(key)
        if got is None:
            got = per_visit[key] = tuple(x / rate for x in vec)
        return got

    if mtype == "CTMC":
        new_probs: list[Fraction] = []
        index: dict[tuple[int, Fraction], int] = {}  # (rate's index, E) -> the probability's index
        rows: dict[tuple, tuple] = {}  # a row's rate indices -> (E, 1/E, its probabilities' indices): rows repeat
        new_pk = [0] * len(pk)
        for d in range(n):
            a = first[d]
            lo, hi = start[a], start[a + 1]
            key = tuple(pk[lo:hi])
            got = rows.get(key)
            if got is None:
                total = sum(probs[i] for i in key)
                if not total:
                    r.fail(lines[d], f"state {d}: its rates sum to 0 (a CTMC state is left at a positive rate)")
                idxs = []
                for i in key:
                    j = index.get((i, total))
                    if j is None:
                        j = index[(i, total)] = len(new_probs)
                        new_probs.append(probs[i] / total)
                    idxs.append(j)
                got = rows[key] = (total, 1 / total, idxs)
            total, inverse, new_pk[lo:hi] = got
            given = exits[d]
            if given is not None and given != total:
                r.fail(lines[d], f"state {d}: exit rate {given}, but its rates sum to {total}")
            sojourn[d] = inverse
            new_srews[d] = divided(srews[d], total)
        return new_pk, new_probs, new_srews, sojourn
    for d in range(n):  # a Markov automaton (closed): the Markovian states' numbers are probabilities already
        rate = exits[d]
        if rate:
            sojourn[d] = 1 / rate
            new_srews[d] = divided(srews[d], rate)
        elif srews[d] is not None:
            new_srews[d] = tuple(_ZERO for _ in srews[d])  # (a rate over no time)
    return pk, probs, new_srews, sojourn


def embed_arrays(arrays, exits: list[Fraction], exit_of, markovian) -> None:
    """Make Storm's arrays of a CTMC or a Markov automaton the embedded model's, in place: a CTMC's
    numbers (rates) divided by their state's exit rate, the state rewards per visit (over ``E`` in a
    Markovian state, 0 in a probabilistic one) and :attr:`sojourn` (indices into ``values``: ``1 / E``, 0),
    which ``T`` reads as its state reward.  ``exits`` are the distinct exit rates, ``exit_of[s]`` the index
    of state ``s``'s, ``markovian[s]`` whether it is Markovian (a CTMC: every state); each distinct
    quotient is computed once (numpy finds the distinct pairs)."""
    import numpy as np

    values = arrays.values
    exit_of = np.asarray(exit_of, dtype=np.int64)
    markovian = np.asarray(markovian, dtype=bool)
    m = len(exits)

    def quotients(num: np.ndarray, den: np.ndarray) -> np.ndarray:
        """Indices into ``values`` of ``values[num[i]] / exits[den[i]]``, each distinct pair once."""
        pairs, inverse = np.unique(num * m + den, return_inverse=True)
        start = len(values)
        values.extend(values[int(p) // m] / exits[int(p) % m] for p in pairs)
        return start + inverse.reshape(-1)

    if arrays.continuous == "CTMC":  # one row a state: row s holds the rates out of s
        per_entry = np.repeat(exit_of, np.diff(arrays.row_start))
        arrays.value_index = quotients(np.asarray(arrays.value_index, dtype=np.int64), per_entry)
    values.extend((_ZERO, Fraction(1)))
    zero, one = len(values) - 2, len(values) - 1
    timed = np.flatnonzero(markovian)  # (a probabilistic state's exit rate is 0: it earns nothing)

    def per_visit(num: np.ndarray) -> np.ndarray:
        out = np.full(arrays.n, zero, dtype=np.int64)
        out[timed] = quotients(num[timed], exit_of[timed])
        return out

    if arrays.state_reward is not None:
        arrays.state_reward = per_visit(np.asarray(arrays.state_reward, dtype=np.int64))
    arrays.sojourn = per_visit(np.full(arrays.n, one, dtype=np.int64))
