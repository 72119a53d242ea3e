"""The canonical explicit model of a compiled :class:`~exactplay.model.Model` and its digest.

The canonical serialization is defined once, in :mod:`exactplay.checker.rules.canonical`
(states numbered in increasing order of their names, which must be distinct;
outcomes in increasing successor number; ``json.dumps(model, sort_keys=True,
separators=(",", ":"))``; SHA-256).  This is the tool's own implementation of
it, from the engine's compiled model; the checker's is written separately from
its own rebuild of the rules, and a certificate v2 of a built-in game holds only
the digest, so the two must agree byte for byte (``tests/test_game_certificate.py``
asserts they do for several parameter sets of every game).
"""

from __future__ import annotations

import hashlib
import json

from .compiled import Model, ModelError

__all__ = ["canonical_order", "canonical_model", "model_digest"]


def _pq(x) -> str:
    return f"{x.numerator}/{x.denominator}"


def canonical_order(model: Model) -> list[int]:
    """The model's states in canonical order: ``order[i]`` is the state numbered ``i``.

    >>> from fractions import Fraction as F
    >>> m = Model("m", 1, ["p"], "auto", ["start", "end"], [None, (F(1),)], [None, None], [[None], []],
    ...           [[((1, F(1)),)], []], [[None], []])
    >>> canonical_order(m)
    [1, 0]
    """
    names = [model.state_name(s) for s in range(len(model))]
    order = sorted(range(len(names)), key=names.__getitem__)
    for a, b in zip(order, order[1:]):
        if names[a] == names[b]:
            raise ModelError(f"two states are both named {names[a][:60]!r}: a canonical model needs distinct names")
    return order


def canonical_model(model: Model, order: list[int] | None = None) -> dict:
    """The explicit JSON model in canonical order (see the module's docstring)."""
    order = canonical_order(model) if order is None else order
    number = [0] * len(order)
    for i, s in enumerate(order):
        number[s] = i
    states = []
    for i, s in enumerate(order):
        st: dict = {"id": i, "name": model.state_name(s)}
        if model.labels and model.labels[s]:
            st["labels"] = list(model.labels[s])
        if model.terminal[s] is not None:
            st["payoff"] = [_pq(x) for x in model.terminal[s]]
        else:
            st["mover"] = model.mover[s]
            acts = []
            for a, dist in enumerate(model.trans[s]):
                act: dict = {}
                if model.mover[s] is not None:
                    act["name"] = model.actions[s][a]
                act["next"] = [[_pq(p), t] for t, p in sorted((number[t], p) for t, p in dist)]
                reward = model.rewards[s][a]
                if reward is not None and any(reward):
                    act["reward"] = [_pq(x) for x in reward]
                acts.append(act)
            st["actions"] = acts
        states.append(st)
    return {"format": "exactplay-model", "version": 1, "name": model.name, "players": list(model.player_names),
            "objective": model.objective, "initial": number[model.initial], "states": states}


def model_digest(model_json: dict) -> str:
    """SHA-256 of ``json.dumps(model_json, sort_keys=True, separators=(",", ":"))``."""
    raw = json.dumps(model_json, sort_keys=True, separators=(",", ":"), allow_nan=False).encode("utf-8")
    return hashlib.sha256(raw).hexdigest()
