"""The typed result of the engine: values, policy, margins, ties, ranks, statistics."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ..model import Model

__all__ = ["Solution", "SCCStats", "WITNESSES"]

# How the values are pinned down (and what a certificate's ranks prove):
# termination  -- every play ends under all strategies: every action of every state has
#                 a successor of lower rank, so the Bellman equations have one solution;
# reachability -- plays may go on forever (worth 0) and the value component's payoffs are
#                 >= 0: ranks lead states of positive value to a positive payoff
#                 (a maximiser: some optimal action; a minimiser or chance: every action);
# policy       -- no choice lies on a cycle: under the policy every state of non-zero value
#                 reaches a terminal state (a lower-ranked successor), the rest is worth 0;
# reward       -- rewards where play can go on forever, a play that never ends keeping the rewards it
#                 collected; the value component's rewards and payoffs are >= 0: terminals and states of
#                 value 0 have rank 0, and ranks lead states of positive value to them (a maximiser: some
#                 optimal action; a minimiser or chance: every action) -- by optional stopping the
#                 values are attained, and a fixed point >= 0 bounds the least one from above;
# proper       -- never_ending "infinite" (:mod:`exactplay.proper`): the infinite states have
#                 graph witnesses, the finite ones ranks of a proper policy (min) or of
#                 termination (max).
WITNESSES = ("termination", "reachability", "policy", "reward", "proper")


@dataclass
class SCCStats:
    components: int = 0
    single: int = 0  # one state, no self-loop: one exact Bellman step
    self_loop: int = 0  # one state with a self-loop: closed form per action
    cyclic: int = 0  # two states or more
    cyclic_with_choices: int = 0
    with_end_component: int = 0  # play can stay inside forever under some choices
    largest: int = 0
    largest_dense: int = 0  # most unknowns of one dense solve (feedback vertices)
    rounds: int = 0  # policy / strategy iteration rounds, all components
    max_rounds: int = 0  # most rounds in one component
    exact_action_values: int = 0  # action values computed exactly after the ball filter
    ruled_out_by_balls: int = 0  # action values the balls proved irrelevant (neither best nor runner-up)

    def to_dict(self) -> dict:
        return dict(self.__dict__)


@dataclass
class Solution:
    """The exact solution of a :class:`~exactplay.model.Model`.

    ``values[s]`` is the value vector of state ``s`` (one exact number per
    certified component, see ``components``); ``policy[s]`` the index of the
    chosen action (``None`` at terminal states, ``0`` at chance states);
    ``margins[s]`` at every choice state the exact gap, in the mover's own
    objective, between the best action and the runner-up (0 on a tie);
    ``ties[s]`` the indices of all exactly tied best actions; ``q[s]`` each
    action's exact value in the component the mover optimises (``None``: proved by the float
    filter to be neither the best nor the runner-up, :mod:`exactplay.engine.selfloop`).
    """

    model: Model
    backend: str
    objective: str
    keys: list[tuple[int, int]]  # per player: (component, sign) it maximises
    components: list[int]  # the payoff components the values hold
    witness: str
    values: list[tuple]
    policy: list[int | None]
    margins: dict[int, Any] = field(default_factory=dict)
    ties: dict[int, list[int]] = field(default_factory=dict)
    # choice state -> each action's exact value in the mover's component (None: proved neither best nor runner-up)
    q: dict[int, list] = field(default_factory=dict)
    ranks: list[int | None] = field(default_factory=list)
    never_ends: list[int] = field(default_factory=list)  # states whose play never ends under the policy
    stats: SCCStats = field(default_factory=SCCStats)
    # never_ending "infinite": the states of value +infinity (values[s] is None) -> their witness rank
    infinite: dict[int, int] = field(default_factory=dict)

    def __repr__(self) -> str:
        """A few hundred characters whatever the size (the fields hold every state's numbers).

        >>> from exactplay.engine import solve
        >>> from exactplay.games import MODELS
        >>> solve(MODELS["race"](target=2))
        Solution(model 'The Race to 2', 7 states, objective zero-sum, witness termination, backend mpq, initial value (64/135, 71/135), 4 choice states, 0 ties)
        """
        from ..numbers.backends import format_pq

        v = self.value
        shown = "+inf" if v is None else "(" + ", ".join(_short(format_pq(x)) for x in v[:4]) + (
            ", ..." if len(v) > 4 else "") + ")"
        return (f"Solution(model {_short(repr(self.model.name))}, {len(self.values):,} states, objective "
                f"{self.objective}, witness {self.witness}, backend {self.backend}, initial value {shown}, "
                f"{len(self.margins):,} choice states, {len(self.ties):,} ties)")

    @property
    def value(self) -> tuple | None:
        """The value vector of the initial state (None: +infinity, see ``infinite``)."""
        return self.values[self.model.initial]

    def infinite_reason(self, s: int) -> str | None:
        """``"infinite: ..."`` why state ``s``'s value is +infinity, or None if it is finite."""
        if s not in self.infinite:
            return None
        from ..proper import infinite_reason

        return infinite_reason(self.objective)

    def value_of(self, state: int, component: int | None = None) -> Any:
        comp = self.components[0] if component is None else component
        return self.values[state][self.components.index(comp)]

    def action_name(self, s: int) -> Any:
        a = self.policy[s]
        return None if a is None else self.model.action_name(s, a)

    def smallest_margin(self) -> tuple[Any, int] | None:
        """The smallest non-zero margin and the lowest state having it (None if every choice is tied or
        there is none)."""
        best = None
        for s, m in self.margins.items():
            if m and (best is None or m < best[0] or (m == best[0] and s < best[1])):
                best = (m, s)
        return best


def _short(text: str, keep: int = 24) -> str:
    """``text`` cut in its middle past ``2 * keep`` characters.

    >>> _short("1234567890", 3)
    '123...890'
    """
    return text if len(text) <= 2 * keep + 3 else f"{text[:keep]}...{text[-keep:]}"


def constant_sum_total(model: Model, witness: str, components: list[int]):
    """``K`` when the second player's value is ``K - V_0`` in every state, else ``None``.

    That holds in a two-player zero-sum game whose terminal payoffs all sum to ``K``, whose
    rewards sum to 0, and where every play ends (the ``termination`` witness): then
    ``V_0 + V_1 = E[sum of rewards of both + payoffs] = K`` whatever the players do.  The engine
    then solves component 0 alone and writes component 1 as ``K - V_0`` (:func:`with_second`).
    """
    if witness != "termination" or components != [0, 1] or model.resolved_objective() != "zero-sum":
        return None
    if not model.is_constant_sum():
        return None
    return next((p[0] + p[1] for p in model.terminal if p is not None), None)


def with_second(values: list, total) -> list:
    """``(V_0,)`` -> ``(V_0, total - V_0)`` in every state (``total`` in the values' number type)."""
    return [None if v is None else (v[0], total - v[0]) for v in values]
