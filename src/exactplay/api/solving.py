""":func:`solve` and :func:`certify`: a game in (any form :mod:`exactplay.api.sources` reads), its exact
solution or certificate out.

>>> import exactplay as xp
>>> sol = xp.solve("examples/pig.py:make_game", goal=5)
>>> sol.value, sol.player, sol.policy[(0, 0, 0, 0)]
(Fraction(216, 271), 'first player', 'roll')
>>> xp.solve("race", target=0)
Traceback (most recent call last):
...
exactplay.errors.UsageError: target must be at least 1, got 0
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from .solution import Solution

__all__ = ["solve", "certify"]


def solve(game: Any, *, backend: str = "mpq", max_states: int | None = None, player: int | str | None = None,
          **params: Any) -> Solution:
    """The exact solution of ``game``: every state's value, the optimal policy (the earlier action on
    an exact tie), the exact margins and ties (:class:`~exactplay.api.solution.Solution`).

    ``game`` is a Python object with the methods of :mod:`exactplay.model.protocol`, a factory
    ``"path/file.py:make_game"`` or ``"module:make_game"`` (called with ``params``), a built-in
    game's name (``"race"``, ``"hold"``, ``"chefs"``, ``"coins"``, ``"war"``, with the parameters
    ``exactplay list`` shows), or a model file: ``.json`` (explicit), ``.drn`` (Storm's, with
    ``objective="Pmax"|"Pmin"|"Rmax"|"Rmin"|"Tmax"|"Tmin"``, ``target=``, ``avoid=``, ``reward=``), ``.prism``,
    ``.jani`` (with ``prop=``, ``const=``: a dict or ``"N=3,p=1/5"``).  ``backend``: ``"mpq"``
    (gmpy2, default) or ``"fraction"``; ``max_states``: refuse larger games (default 3,000,000);
    ``player``: whose value ``value`` is (a number or a name; default the game's answer).

    Bad input raises :class:`~exactplay.errors.UsageError`, a game the engine cannot take as stated
    (a float probability, probabilities not summing to 1, too many states)
    :class:`~exactplay.model.ModelError`; both are :class:`ValueError`.
    """
    from ..engine import solve_model
    from ..errors import UsageError
    from .sources import load_source

    if backend not in ("mpq", "fraction"):
        raise UsageError(f"backend {backend!r}: the exact backends are 'mpq' and 'fraction'")
    for key, value in params.items():
        if isinstance(value, float):
            raise UsageError(f"{key}={value!r} is a float; give an exact number (int, Fraction or 'p/q')")
    source = load_source(game, params, max_states)
    return Solution(source, solve_model(source.model, backend), player)


def certify(game: Any, path: str | Path, *, store: str = "auto", digits: int = 8, **params: Any) -> Path:
    """Solve ``game`` (as :func:`solve`, or take a :class:`~exactplay.api.solution.Solution`) and write
    its certificate to ``path``; :func:`exactplay.check` re-verifies it.  ``store``: ``"auto"``,
    ``"values"`` or ``"policy"`` (the checker then evaluates the stored policy; ``"auto"``: a built-in game's
    own choice, every value for any other game, as the command line)."""
    from ..paths import check_writable

    check_writable(str(path))  # before the work, not after
    sol = game if isinstance(game, Solution) else solve(game, **params)
    if isinstance(game, Solution) and params:
        from ..errors import UsageError

        raise UsageError(f"a Solution is certified as it is: {', '.join(sorted(params))} cannot change it")
    return sol.certify(path, store, digits)
