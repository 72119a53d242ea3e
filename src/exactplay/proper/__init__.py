"""Expected total reward until a terminal state where a strategy may never end play: Storm's semantics.

A model with ``never_ending = "infinite"`` (one player, e.g. a DRN file read with ``--objective Rmin``
or ``Rmax``) values a strategy that does not end play with probability 1 at +infinity.
:mod:`.graph` finds the states of infinite value and their witnesses by graph searches;
:mod:`.solve` computes the finite values exactly (the engine, and policy iteration over the proper
strategies where the minimiser can loop).  :mod:`exactplay.checker` verifies both.
"""

from .graph import InfiniteStates, infinite_states
from .solve import ProperSolution, solve_proper

__all__ = ["InfiniteStates", "infinite_states", "solve_proper", "ProperSolution", "infinite_reason"]


def infinite_reason(direction: str) -> str:
    """Why a state's value is infinite, for the ``<field>_reason`` of JSON and the text output."""
    if direction == "min":
        return "infinite: no strategy reaches a terminal state with probability 1 from here"
    return "infinite: some strategy avoids every terminal state with positive probability from here"
