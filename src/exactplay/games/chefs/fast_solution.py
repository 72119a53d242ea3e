"""Chef Showdown's hand-written solver (:func:`exactplay.games.chefs.fast.solve_fast`) as the engine's Solution.

The fast solver keeps, per alive set ``M`` with members ``m_0 < m_1 < ...``, the
integers ``w[r][k]``, ``d[r]`` and one denominator ``den``: at ``("turn", M, m_r)``
chef ``m_k`` wins with probability ``w[r][k] / den`` and ``d[r] / den`` dishes
remain (the model's last component); chefs outside ``M`` have 0.  The
``("hit", M, t)`` states (off every cycle) are one Bellman step from these.
The solver's chosen targets must be optimal and its exact ties the engine's.
"""

from __future__ import annotations

from exactplay.engine import Solution
from exactplay.engine.from_values import solution_from_values, state_index
from exactplay.model import build_model
from exactplay.numbers.backends import get_backend

from .fast import solve_fast
from .model import make_game


def fast_solution(n=None, skills=None, split=True, backend: str = "mpq") -> Solution:
    game = make_game(n, skills, split)
    model = build_model(game)
    index = state_index(model)
    B = get_backend(backend)
    values = {}

    def visit(q, layer):
        for mask, fm in layer.items():
            for r, t in enumerate(fm.members):
                i = index.get(game.state_label(("turn", mask, t)))
                if i is None:
                    continue
                vec = [B.zero] * (game.n + 1)
                for k, m in enumerate(fm.members):
                    vec[m] = B.make(int(fm.w[r][k]), int(fm.den))
                vec[game.n] = B.make(int(fm.d[r]), int(fm.den))
                values[i] = tuple(vec)

    fast = solve_fast(list(game.skills), keep_policy=True, visit=visit)
    kind = "hit" if game.split else "turn"
    choices = {}
    for (mask, t), target in fast.policy.items():
        i = index.get(game.state_label((kind, mask, t)))
        if i is not None:
            choices[i] = model.actions[i].index(target)
    scope = list(choices)
    ties = [index[game.state_label((kind, mask, t))] for mask, t, _ in fast.ties
            if game.state_label((kind, mask, t)) in index]
    return solution_from_values(model, values, backend, choices, ties, scope)


def small_params(st):
    """Hypothesis strategy (``st`` is ``hypothesis.strategies``) of small instances."""
    from fractions import Fraction

    skill = st.one_of(st.fractions(min_value=Fraction(1, 12), max_value=1, max_denominator=12),
                      st.sampled_from([Fraction(1, 3), Fraction(1, 2), Fraction(1)]))  # repeats: many ties
    return st.fixed_dictionaries({"skills": st.lists(skill, min_size=2, max_size=5), "split": st.booleans()})
