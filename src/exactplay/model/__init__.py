"""The game model: what a finite game of chance is, for the engine.

A user writes a game in plain Python against a small protocol (an
OpenSpiel-like state API), or as an explicit JSON model file; either is
compiled into one :class:`~exactplay.model.compiled.Model`: numbered states,
exact transition probabilities, terminal payoff vectors, optional rewards.

The Python protocol (see :mod:`exactplay.model.protocol` for the full text)::

    class MyGame:
        num_players = 2                       # payoff components
        def initial_state(self): ...          # any hashable value
        def is_terminal(self, s): ...
        def payoff(self, s): ...              # terminal: one exact number per player
        def mover(self, s): ...               # 0 .. num_players-1, or None (chance)
        def actions(self, s): ...             # ordered; the earlier wins exact ties
        def transitions(self, s, a): ...      # [(probability, next_state), ...]
        def reward(self, s, a): ...           # optional, per-step reward vector

Probabilities are exact: ``int``, :class:`fractions.Fraction`, gmpy2 ``mpq``
or a ``"p/q"`` string.  A float is refused with an error, never converted.
"""

from .. import lazy_attributes
from .compiled import Model, ModelError
from .protocol import to_rational

_HOME = {"build_model": "build", "load_model_file": "explicit", "model_from_json": "explicit",
         "model_to_json": "explicit", "load_factory": "load", "parse_params": "load"}  # imported when first used


# the builders and readers (.build, .explicit, .load), imported when first used: a reader of Storm's files
# needs only Model and ModelError
__getattr__ = lazy_attributes(__name__, {n: f".{m}" for n, m in _HOME.items()})[0]

__all__ = [
    "Model",
    "ModelError",
    "build_model",
    "load_factory",
    "load_model_file",
    "model_from_json",
    "model_to_json",
    "parse_params",
    "to_rational",
]
