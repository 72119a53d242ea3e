"""Hold or Continue?'s hand-written table (:func:`exactplay.games.hold.exact_table`) as the engine's Solution.

State ``(p, s0, s1, x)``: with ``c`` the mover's score and ``h`` the other's,
the mover's winning probability is ``V(c, h)`` at the turn's start (``x = 0``)
and ``v(x)`` (:func:`~exactplay.games.hold.solver.turn_of`) after a roll; the
engine certifies player 0's component only (plays can go on forever), which is
the mover's value for player 0, and for player 1 one minus it -- or 0 where
player 0 can no longer win (``alive[h]`` false).  The table's hold/continue
choices must be optimal under its values, and its exact ties (``hold == continue``)
must be the engine's, except where player 0 is dead: there every action of
player 1 is worth 0 to player 0 and the engine ties them all.
"""

from __future__ import annotations

from exactplay.engine import Solution
from exactplay.engine.from_values import solution_from_values, state_index
from exactplay.model import build_model

from . import exact_table
from .model import make_game
from .solver import turn_of


def fast_solution(target=75, faces=6, backend: str = "mpq") -> Solution:
    game = make_game(target, faces)
    T = game.target
    model = build_model(game)
    table = exact_table(T, game.faces, backend)
    index = state_index(model)
    values, choices, ties, scope = {}, {}, [], []
    for c in range(T):
        for h in range(T):
            _, hv, cont, v = turn_of(table, c, h)
            for p in (0, 1):
                s0, s1 = (c, h) if p == 0 else (h, c)
                for x in (0, *range(2, T - c + 1)):
                    i = index.get(game.state_label((p, s0, s1, x)))
                    if i is None:
                        continue
                    mine = table.V[c][h] if x == 0 else v[x]
                    values[i] = (mine if p == 0 else (0 if not table.alive[h] else 1 - mine), None)
                    if x == 0:
                        continue
                    choices[i] = 0 if table.policy[c][h][x - 2] == "H" else 1
                    if p == 0 or table.alive[h]:
                        scope.append(i)
                        if hv[x] == cont[x]:
                            ties.append(i)
    return solution_from_values(model, values, backend, choices, ties, scope)


def small_params(st):
    """Hypothesis strategy (``st`` is ``hypothesis.strategies``) of small instances."""
    return st.fixed_dictionaries({"target": st.integers(2, 11), "faces": st.integers(2, 7)})
