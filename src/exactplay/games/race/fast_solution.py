"""The Race's hand-written table (:func:`exactplay.games.race.solve_table`) as the engine's Solution.

``F(a, b)`` is Player 2's winning probability at ``("P2", a, b)`` (Player 2 to
choose ``T``), ``G(a, b)`` at ``("P1", a, b)`` (Player 1 to toss): the value
vectors ``(1 - F, F)`` and ``(1 - G, G)``.  The table's chosen ``T`` must be
optimal under its own values (:func:`exactplay.engine.from_values.solution_from_values`).
"""

from __future__ import annotations

from exactplay.engine import Solution
from exactplay.engine.from_values import solution_from_values, state_index
from exactplay.model import build_model

from .table import solve_table
from .model import make_game


def fast_solution(target=100, t_max=None, merged=True, backend: str = "mpq") -> Solution:
    game = make_game(target, t_max, merged)
    model = build_model(game)
    table = solve_table(game.target, backend, t_max=game.t_max)
    index = state_index(model)
    values, choices = {}, {}
    for a, b in table.cells():
        for kind, x in (("P2", table.F[a][b]), ("P1", table.G[a][b])):
            i = index.get(game.state_label((kind, a, b)))
            if i is not None:
                values[i] = (1 - x, x)
                if kind == "P2":
                    choices[i] = model.actions[i].index(table.best_t[(a, b)])
    return solution_from_values(model, values, backend, choices)


def small_params(st):
    """Hypothesis strategy (``st`` is ``hypothesis.strategies``) of small instances."""
    return st.fixed_dictionaries({"target": st.integers(1, 7), "merged": st.booleans()},
                                 optional={"t_max": st.integers(1, 5)})
