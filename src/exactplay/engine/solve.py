"""The exact engine: solve a model component by component, sinks first.

Semantics (stated once, tested in tests/test_engine.py):

* The value of a state is the expected terminal payoff plus the expected total
  reward; a play that never ends gets no payoff, only the rewards it collects (``never_ending =
  "infinite"``: a strategy that does not end play with probability 1 is worth
  +infinity, solved by :mod:`exactplay.proper`).
* At a state of player ``i`` the chosen action maximises ``sign * V[comp]``
  where ``(comp, sign) = keys[i]`` (:meth:`Model.keys`): by default each player
  maximises its own payoff; in a zero-sum game player 1 minimises player 0's.
* The earlier action in the model's order wins exact ties (all ties are
  listed), except that a maximiser in a game where play can go on forever takes
  the earliest optimal action that makes progress (decreases the rank); a tied
  action that loops forever would not attain the value.
* Choices of different players with different objectives on one cycle have no
  single value: refused with a message (:class:`~.structure.Structure`).

The model is read as arrays (:class:`~exactplay.model.sparse.Sparse`), condensed into strongly
connected components (:mod:`.scc`) and solved sinks first (:class:`~.run.Run`): one state by one
exact Bellman step, a self-loop by its closed form (:mod:`.selfloop`), a larger component by a float
guess and exact policy or strategy iteration (:mod:`.cyclic`).  Every exact number of every state is
computed: values, the policy, margins, ties, action values and the witness ranks.
"""

from __future__ import annotations

from ..errors import UsageError
from ..model import Model
from ..model.collector import fewer_collections
from ..model.compiled import MAX_STATES
from ..model.sparse import Sparse
from ..numbers.backends import get_backend
from ..progress import SILENT
from .run import Run
from .solution import SCCStats, Solution

__all__ = ["solve", "solve_model"]


def solve(game, backend: str = "mpq", progress=SILENT, max_states: int = MAX_STATES, filter: bool = True) -> Solution:
    """Solve a game (a Python object following the protocol, or a compiled :class:`Model`) exactly."""
    if not isinstance(game, Model):
        from ..model import build_model

        game = build_model(game, max_states, progress)
    return solve_model(game, backend, progress, filter)


def solve_model(model: Model, backend: str = "mpq", progress=SILENT, filter: bool = True) -> Solution:
    """The exact :class:`Solution` of ``model``; ``filter=False`` computes every action value exactly
    (the reference the float filter of :mod:`.selfloop` is tested against)."""
    if model.never_ending == "infinite" and model.has_end_component():
        # a strategy that does not end play is worth +infinity (without an end component every play
        # ends and the two semantics agree)
        return _solve_proper(model, backend, progress)
    B = get_backend(backend)
    if not B.exact:
        raise UsageError("the engine computes exactly: choose the backend mpq or fraction")
    # millions of small containers, no garbage cycles of their own: the model frozen out of the
    # collector's full passes while it runs
    with fewer_collections(freeze=True):
        sp = model.__dict__.get("sparse") or Sparse.from_model(model)  # (an ArrayModel brings its arrays)
        return Run(model, sp, B, progress, filter).run()


def _solve_proper(model: Model, backend: str, progress) -> Solution:
    """:func:`exactplay.proper.solve_proper` with this engine as its exact solver of the models where every
    play ends, as a :class:`Solution` (witness ``proper``, ``values[s]`` None where +infinity)."""
    from ..proper import solve_proper

    def exact(m: Model):
        sol = solve_model(m, backend, progress)
        return sol.values, sol.stats.to_dict()

    found = solve_proper(model, backend, exact, progress)
    return Solution(model=model, backend=get_backend(backend).name, objective=model.resolved_objective(),
                    keys=model.keys(), components=[0], witness="proper", values=found.values, policy=found.policy,
                    margins=found.margins, ties=found.ties, q=found.q, ranks=found.ranks, never_ends=[],
                    stats=SCCStats(**found.stats), infinite=found.infinite)
