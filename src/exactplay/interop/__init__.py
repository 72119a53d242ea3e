"""Speaking the model checkers' language: Storm's DRN, PRISM, and an exact cross-check against Storm.

A :class:`~exactplay.model.Model` is written for a model checker as one of

* a DTMC (nobody has a real choice),
* an MDP (one player chooses; it maximises or minimises the value component it optimises),
* an SMG (PRISM only: two players of a zero-sum game; Storm's DRN has no games),

together with the property whose values are exactplay's values:

* ``P=? [F "target"]`` (``Pmax``/``Pmin`` for an MDP) when that component's terminal payoffs are
  all 0 or 1 and there are no rewards: ``target`` labels the terminal states worth 1;
* ``R{"payoff"}=? [C]`` (``Rmax``/``Rmin``), the expected total reward, otherwise: the reward of an
  action is its own reward plus the expected terminal payoff it leads into at once
  (``sum of p * payoff(t)`` over terminal successors ``t``), so the total reward of a play is the
  rewards collected plus the payoff it ends with, and a play that never ends collects only rewards,
  as in exactplay's semantics;
* ``R{"payoff"}=? [F "terminal"]`` for a model with ``never_ending = "infinite"`` (with an end
  component): the same rewards until a terminal state, and Storm's semantics agree that a strategy
  that does not get there with probability 1 is worth +infinity.

States keep their numbers (the DRN ``state N`` is the model's state ``N``); terminal states become
absorbing (a self-loop).  Labels: ``init``, ``target`` (0/1 formulation), ``terminal``, and the
model's own labels.  A two-player game is written as an MDP by fixing one player's strategy
(:func:`fix_player`), which is how :mod:`.storm` cross-checks games.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from fractions import Fraction

from ..model import Model, ModelError

__all__ = ["Formulation", "formulate", "fix_player", "choosers"]


def choosers(model: Model) -> list[int]:
    """The players who have a real choice (two actions or more) somewhere."""
    return sorted({model.mover[s] for s in model.choice_states()})


@dataclass
class Formulation:
    kind: str  # "dtmc" | "mdp" | "smg"
    direction: str | None  # "max" | "min" (mdp, and the first player of an smg), None for a dtmc
    component: int  # the payoff component whose value the property computes
    reward: bool  # True: expected total reward R[C]; False: reachability P[F "target"]
    players: list[int]  # the choosing players (mdp: one; smg: two)
    targets: list[int]  # terminal states worth 1 (reachability formulation)
    until: bool = False  # the reward until a terminal state, R[F "terminal"] (never_ending "infinite")

    @property
    def operator(self) -> str:
        op = "R" if self.reward else "P"
        return op + (self.direction or "")

    def formula(self, smg_player: str | None = None) -> str:
        """The property in PRISM/Storm syntax."""
        if self.reward:
            path = 'F "terminal"' if self.until else "C"
            body = f'R{{"payoff"}}{self.direction or ""}=? [{path}]'
        else:  # no state worth 1: no state carries the label (DRN cannot declare an empty label)
            goal = '"target"' if self.targets else "false"
            body = f'P{self.direction or ""}=? [F {goal}]'
        return f"<<{smg_player}>> {body}" if smg_player else body

    def action_reward(self, model: Model, s: int, a: int) -> Fraction:
        """The reward of action ``a`` of ``s`` in the reward formulation."""
        c = self.component
        r = model.rewards[s][a]
        total = r[c] if r is not None else Fraction(0)
        for t, p in model.trans[s][a]:
            pay = model.terminal[t]
            if pay is not None and pay[c]:
                total += p * pay[c]
        return total

    def expected(self, model: Model, value: Fraction, s: int) -> Fraction:
        """What the model checker's value of state ``s`` must be, given exactplay's value there."""
        if model.terminal[s] is not None and self.reward:
            return Fraction(0)  # an absorbing state collects nothing more
        return value


def formulate(model: Model) -> Formulation:
    """How ``model`` is written for a model checker (see the module docstring)."""
    players = choosers(model)
    keys = model.keys()
    if not players:
        kind, direction, component = "dtmc", None, 0
    elif len(players) == 1:
        c, sign = keys[players[0]]
        kind, direction, component = "mdp", "max" if sign > 0 else "min", c
    elif len(players) == 2 and model.resolved_objective() == "zero-sum":
        c, sign = keys[players[0]]
        kind, direction, component = "smg", "max" if sign > 0 else "min", c
    else:
        raise ModelError(f"{len(players)} players with their own objectives choose in this model: a model checker "
                         "needs one chooser (an MDP) or a two-player zero-sum game")
    pays = [p[component] for p in model.terminal if p is not None]
    reward = model.has_rewards and any(r is not None and r[component] for rs in model.rewards for r in rs)
    reward = reward or any(x not in (0, 1) for x in pays)
    until = model.never_ending == "infinite" and model.has_end_component()
    reward = reward or until
    targets = [] if reward else [s for s, p in enumerate(model.terminal) if p is not None and p[component] == 1]
    return Formulation(kind, direction, component, reward, players, targets, until)


def fix_player(model: Model, policy: list[int | None], player: int) -> Model:
    """The model in which ``player`` plays ``policy`` (only the chosen action is kept at its states)."""
    actions, trans, rewards = list(model.actions), list(model.trans), list(model.rewards)
    for s in range(len(model)):
        if model.mover[s] == player and len(model.trans[s]) > 1:
            a = policy[s]
            actions[s] = [model.actions[s][a]]
            trans[s] = [model.trans[s][a]]
            rewards[s] = [model.rewards[s][a]]
    fixed = replace(model.plain(), actions=actions, trans=trans, rewards=rewards,
                    name=f"{model.name} ({model.player_names[player]} fixed to exactplay's strategy)")
    return fixed
