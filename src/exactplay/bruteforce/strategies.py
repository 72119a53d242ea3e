"""Pure strategies, enumerated, and the values they guarantee.

:func:`assignments` is every way to pick one option per key (the product of the
option lists, the first key varying slowest).  :func:`brute_force_values` is,
state by state, the max (one maximiser), min (a minimiser) or max-min (zero-sum)
over all pure stationary profiles of the key component's chain value
(:func:`~exactplay.bruteforce.chains.chain_values`); for a zero-sum game it also
checks max-min = min-max (turn-based games with payoffs >= 0 and never-ending
plays worth 0 have pure stationary saddle points).

>>> list(assignments({"a": [1, 2], "b": ["x"]}))
[{'a': 1, 'b': 'x'}, {'a': 2, 'b': 'x'}]
"""

from __future__ import annotations

import itertools
from fractions import Fraction
from typing import Any, Hashable, Iterator, Mapping, Sequence

from .chains import chain_values, choice_states

__all__ = ["assignments", "profiles", "profile_from", "brute_force_values"]


def assignments(options: Mapping[Hashable, Sequence[Any]]) -> Iterator[dict]:
    """Every dict giving each key one of its options (``prod len(options[k])`` of them)."""
    keys = list(options)
    for combo in itertools.product(*(options[k] for k in keys)):
        yield dict(zip(keys, combo))


def profiles(model, states: Sequence[int]) -> Iterator[dict[int, int]]:
    """Every pure choice of an action index at each of ``states``."""
    return assignments({s: range(len(model.trans[s])) for s in states})


def profile_from(model, assignment: Mapping[int, int]) -> list[int | None]:
    """A full profile: the assignment's action where given, action 0 elsewhere, None at terminals."""
    return [None if model.terminal[s] is not None else assignment.get(s, 0) for s in range(len(model))]


def brute_force_values(model, counter: list | None = None) -> list[Fraction]:
    """max / min / max-min over all pure stationary profiles, state by state, of the key component
    (the component the first player optimises); ``counter`` receives the number of profiles."""
    keys = model.keys()
    c = keys[0][0]
    ch = choice_states(model)
    maxers = [s for s in ch if model.mover[s] is not None and keys[model.mover[s]][1] > 0]
    miners = [s for s in ch if model.mover[s] is not None and keys[model.mover[s]][1] < 0]
    n = len(model)
    table = {}
    for sig in profiles(model, maxers):
        for tau in profiles(model, miners):
            vals = chain_values(model, profile_from(model, {**sig, **tau}), [c])
            table[tuple(sig.items()), tuple(tau.items())] = [v[0] for v in vals]
    if counter is not None:
        counter.append(len(table))
    sigs = {k[0] for k in table}
    taus = {k[1] for k in table}
    maxmin = [max(min(table[a, b][s] for b in taus) for a in sigs) for s in range(n)]
    minmax = [min(max(table[a, b][s] for a in sigs) for b in taus) for s in range(n)]
    if maxmin != minmax:
        raise AssertionError("no pure stationary saddle point (the brute force's own premise failed)")
    return maxmin
