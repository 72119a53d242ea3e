"""The Python API: solve a game exactly, audit a float program against it, certify and check.

``import exactplay as xp`` gives these names (loaded when first used, here too, so that ``import
exactplay`` and the submodules stay cheap):

* :func:`solve` -> :class:`Solution`: exact values, policy, margins and ties keyed by the game's
  own states;
* :func:`audit` -> :class:`Audit`: a float program's values and decisions judged exactly;
* :func:`certify`: the certificate of a solution, for :func:`check` (or ``exactplay check``);
* :func:`check` -> :class:`CheckResult`: ``ok`` and the checker's message;
* :mod:`exactplay.testing`: assertions for a test suite of your own float solver.

>>> import exactplay as xp
>>> sol = xp.solve("examples/loop-or-gamble.json")
>>> sol.value, sol.policy["start"], sol.ties["start"], sol.margin("start")
(Fraction(1, 1), 'gamble', ('wait', 'gamble'), Fraction(0, 1))
"""

from .. import lazy_attributes

_HOME = {"solve": "solving", "certify": "solving", "audit": "auditing", "Audit": "auditing", "check": "checking",
         "CheckResult": "checking", "CheckResults": "checking", "Solution": "solution"}  # each name's module

__all__ = ["solve", "audit", "certify", "check", "Solution", "Audit", "CheckResult", "CheckResults"]


# the API's names, each imported from its module when first used (the command line's ``solve --model``
# imports only the submodules it needs)
__getattr__, __dir__ = lazy_attributes(__name__, {n: f".{m}" for n, m in _HOME.items()}, __all__)
