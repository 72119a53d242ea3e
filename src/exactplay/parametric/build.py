"""Enumerate a game whose probabilities are polynomials in one parameter ``p``.

The same breadth-first enumeration as :func:`exactplay.model.build_model`, except that a
probability may be a :class:`~exactplay.parametric.poly.Param` (a polynomial in ``p`` with
rational coefficients).  Each action's probabilities must sum to 1 identically in ``p``; an
outcome whose polynomial is identically 0 is dropped.  Payoffs and rewards stay rationals.

``PModel.at(r)`` is the ordinary exact :class:`~exactplay.model.Model` at ``p = r``, with the
same states and successors as long as every probability is in ``(0, 1]`` at ``r``
(:mod:`.interval` checks that on the whole range).
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from flint import fmpq, fmpq_poly

from ..model.build import enumerate_game
from ..model.compiled import MAX_STATES, Model, ModelError
from ..model.protocol import to_rational
from ..progress import SILENT
from .poly import Param, ParamError, as_poly, to_fraction

__all__ = ["PModel", "build_parametric"]


@dataclass
class PModel:
    """A compiled model whose probabilities are polynomials (``trans[s][i] = ((t, fmpq_poly), ...)``)."""

    name: str
    symbol: str
    num_players: int
    player_names: list[str]
    objective: str
    states: list[str]
    terminal: list[tuple[Fraction, ...] | None]
    mover: list[int | None]
    actions: list[list[Any]]
    trans: list[list[tuple[tuple[int, fmpq_poly], ...]]]
    rewards: list[list[tuple[Fraction, ...] | None]]

    def __len__(self) -> int:
        return len(self.states)

    def probabilities(self) -> list[fmpq_poly]:
        """The distinct non-constant probability polynomials."""
        seen: dict[tuple, fmpq_poly] = {}
        for acts in self.trans:
            for d in acts:
                for _, q in d:
                    if q.degree() > 0:
                        seen.setdefault(tuple(q.coeffs()), q)
        return list(seen.values())

    def at(self, r: Fraction) -> Model:
        """The exact model at ``p = r`` (same states, numbers and action order)."""
        x = fmpq(r.numerator, r.denominator)
        memo: dict[tuple, Fraction] = {}

        def val(q: fmpq_poly) -> Fraction:
            key = tuple(q.coeffs())
            v = memo.get(key)
            if v is None:
                v = memo[key] = to_fraction(q(x))
            return v

        model = Model(name=self.name, num_players=self.num_players, player_names=list(self.player_names),
                      objective=self.objective, states=list(self.states), terminal=list(self.terminal),
                      mover=list(self.mover), actions=[list(a) for a in self.actions],
                      trans=[[tuple((t, val(q)) for t, q in d) for d in acts] for acts in self.trans],
                      rewards=[list(r) for r in self.rewards])
        return model


def build_parametric(game, symbol: str = "p", max_states: int = MAX_STATES, progress=SILENT) -> PModel:
    """The reachable part of ``game`` (probabilities polynomials in ``symbol``)."""
    return _build(game, symbol, max_states, progress)  # the game's own exceptions: one ModelError line


def _probability(x: Any, where: str) -> fmpq_poly:
    if isinstance(x, str):
        x = to_rational(x, "probability")
    try:
        q = as_poly(x)
    except ParamError as exc:
        raise ModelError(f"{where}: probability {exc}") from None
    if q is None:
        raise ModelError(f"{where}: probability {x!r} of type {type(x).__name__} is neither an exact rational "
                         "nor a polynomial in the parameter")
    return q


def _build(game, symbol: str, max_states: int, progress) -> PModel:
    one = fmpq_poly([1])

    def read_action(s, a, where, successor) -> tuple:
        """``sum_t p_t(x) = 1`` identically, each ``p_t`` a polynomial; zero outcomes dropped."""
        dist: dict[int, fmpq_poly] = {}
        total = fmpq_poly([])
        for item in game.transitions(s, a):
            try:
                q, t = item
            except (TypeError, ValueError):
                raise ModelError(f"{where}, action {a!r}: a transition must be (probability, next_state), "
                                 f"got {item!r}") from None
            q = _probability(q, f"{where}, action {a!r}")
            total += q
            if q.is_zero():
                continue
            if q.degree() == 0 and q[0] < 0:
                raise ModelError(f"{where}, action {a!r}: negative probability {q}")
            j = successor(t)
            dist[j] = dist[j] + q if j in dist else q
        if total != one:
            raise ModelError(f"{where}, action {a!r}: probabilities sum to {Param(total, symbol)}, "
                             f"not identically 1")
        return tuple((j, q) for j, q in dist.items() if not q.is_zero())

    e = enumerate_game(game, max_states, progress, read_action, "enumerating states (parametric)")
    return PModel(name=e.name, symbol=symbol, num_players=e.num_players, player_names=e.player_names,
                  objective=e.objective, states=e.labels, terminal=e.terminal, mover=e.mover, actions=e.actions,
                  trans=e.trans, rewards=e.rewards)
