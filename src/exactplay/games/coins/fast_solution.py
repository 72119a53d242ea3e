"""The coin row's hand-written table (:func:`exactplay.games.coins.solve_row`) as the engine's Solution.

At ``(i, j)`` the mover collects ``V(i, j)`` of the coins ``i..j`` and the other
player the rest, ``Sum(i, j) - V(i, j)``.  The table's choice (left on ``left >= right``)
must be optimal and its ties (``left == right``) the engine's.
"""

from __future__ import annotations

from exactplay.engine import Solution
from exactplay.engine.from_values import solution_from_values, state_index
from exactplay.model import build_model

from . import solve_row
from .model import make_game


def fast_solution(coins=(10, 20, 8, 7), backend: str = "mpq") -> Solution:
    game = make_game(coins)
    model = build_model(game)
    table = solve_row(game.coins, backend)
    index = state_index(model)
    values, choices, scope = {}, {}, []
    row = table.coins
    for (i, j), v in table.V.items():
        k = index.get(game.state_label((i, j)))
        if k is None:
            continue
        rest = sum(row[i:j + 1], 0) - v
        values[k] = (v, rest) if game.mover((i, j)) == 0 else (rest, v)
        if i < j:
            scope.append(k)
            choices[k] = 0 if table.Lt[i][j] >= table.Rt[i][j] else 1
    ties = [index[game.state_label(s)] for s in table.ties() if game.state_label(s) in index]
    return solution_from_values(model, values, backend, choices, ties, scope)


def small_params(st):
    """Hypothesis strategy (``st`` is ``hypothesis.strategies``) of small instances."""
    coin = st.one_of(st.integers(-5, 5), st.fractions(min_value=-3, max_value=3, max_denominator=4),
                     st.sampled_from([0, 1, -1]))  # 0 and +-1: ties everywhere
    return st.fixed_dictionaries({"coins": st.lists(coin, min_size=1, max_size=9)})
