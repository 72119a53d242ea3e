"""Referees: the generic brute-force algorithms the tests and the games' checks share.

Independent of :mod:`exactplay.engine` (they share only the compiled model):

* :mod:`.linear` -- Gauss-Jordan elimination over exact rationals;
* :mod:`.chains` -- policy evaluation: the Markov chain a pure stationary profile
  induces, solved exactly (plays that cannot end are worth 0);
* :mod:`.strategies` -- enumeration of pure strategies, and the max / min / max-min
  over them of a model's values.

Float value iteration on a model is :func:`exactplay.engine.value_iteration.value_iteration`
(the program people run, audited); it is not a referee.
"""

from .chains import chain_values, choice_states, policy_values, reaches_terminal
from .linear import gauss_jordan, solve_linear
from .strategies import assignments, brute_force_values, profile_from, profiles

__all__ = ["gauss_jordan", "solve_linear", "chain_values", "policy_values", "choice_states", "reaches_terminal",
           "assignments", "profiles", "profile_from", "brute_force_values"]
