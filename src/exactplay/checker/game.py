"""Independent check of a certificate v2 of kind ``"game"`` (a built-in game).

Such a certificate carries no model: it names the game and its parameters and
stores the SHA-256 of the game's canonical explicit model
(:mod:`.rules.canonical`).  The checker rebuilds that model from its own
statement of the game's rules (:mod:`.rules`: one small module per game,
standard library only, sharing no code with the engine's models), refuses the
certificate unless the digests agree, and then verifies the solution on the
rebuilt model with the generic checks of :mod:`.model` -- objective, witness,
Bellman's equations exactly in every state, ranks, policy, margins, ties --
and the answer: the value of the initial state in the component the rules
name, its decimal correctly rounded, and its name (``G(100,100)``, ``V(0,0)``,
``E(14)``, ``V(0,n-1)``, ``P(A wins every turn)``).

Fields::

    format, version (2), kind ("game"), game, params, model_sha256,
    solution {objective, witness, components, policy, ranks, ties, and values with margins
              or neither (policy only: the checker evaluates the policy exactly)},
    answer {name, state, component, value, decimal, digits},
    smallest_margin {value, state} or null,
    tool_version, notes (informational: named, never checked)

States are numbered canonically (by name); a failure names the field and the
state by number and by name.
"""

from __future__ import annotations

from typing import Any

from . import _strict
from ._strict import Where, fail, keys, show
from .model import SolutionChecker, guarded_named
from .rules import RULES, rules_module
from .rules.canonical import rebuild

__all__ = ["verify", "UNVERIFIED", "TOP_REQUIRED"]

UNVERIFIED = ("tool_version", "notes")
TOP_REQUIRED = ("format", "version", "kind", "game", "params", "model_sha256", "solution", "answer",
                "smallest_margin")


def verify(cert: Any) -> str:
    """Verify a parsed certificate v2 of kind ``"game"``; return a one-line summary."""
    where = Where()
    return guarded_named(_GameChecker(cert, where), where)


def rebuild_from_rules(checker, limit: str):
    """``(game, rules, model)``: the certificate's game and parameters read (``game``, ``params``),
    the rules at those parameters, and the canonical model rebuilt from them, whose SHA-256 must be
    the stored ``model_sha256``; an instance whose state bound passes ``checker.max_states`` is
    refused first (``limit`` says what that limit is)."""
    cert = checker.cert
    checker.at("game")
    game = cert.get("game")
    if not isinstance(game, str) or game not in RULES:
        fail(f"game {show(game)} is not one of {', '.join(RULES)}", "game")
    module = rules_module(game)
    checker.at("params")
    keys(cert["params"], module.PARAMS, (), "params")
    params = module.read_params(cert["params"])
    bound = module.state_bound(params)
    if bound > checker.max_states:
        fail(f"this instance may have up to {bound:,} states, more than {limit}", "params")
    rules = module.Rules(**params)
    checker.at("model_sha256")
    stored = cert["model_sha256"]
    if not isinstance(stored, str):
        fail(f"expected a hex string, found {type(stored).__name__}", "model_sha256")
    model = rebuild(rules, checker.max_states)
    if model.digest != stored:
        fail(f"the SHA-256 of the {game} model rebuilt from the rules at these parameters is {model.digest}, "
             f"not the stored {stored[:64]!r}", "model_sha256")
    return game, rules, model


class _GameChecker(SolutionChecker):
    def run(self) -> str:
        self.max_states = _strict.MAX_STATES
        self.check_header("game", TOP_REQUIRED, UNVERIFIED)
        cert = self.cert
        game, rules, model = rebuild_from_rules(self, f"the {self.max_states:,} a certificate is checked with")
        self.name = model.name
        self.player_names = model.player_names
        self.P = len(model.player_names)
        self.declared_objective = model.declared_objective
        self.n = len(model.state_names)
        self.initial = model.initial
        self.initial_states = [model.initial]
        self.state_names = model.state_names
        self.payoff, self.mover, self.trans, self.rewards = model.payoff, model.mover, model.trans, model.rewards
        tail = self.check_solution(rules.answer_name, rules.answer_component)
        shown = ", ".join(f"{k}={v if not isinstance(v, list) else len(v)}" for k, v in cert["params"].items())
        return f"model rebuilt from the rules of {game} ({shown}), digest matches: {tail}"
