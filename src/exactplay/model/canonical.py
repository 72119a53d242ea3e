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

from ..numbers.decimals import all_digits
from .compiled import Model, ModelError
from .explicit import model_to_json

__all__ = ["canonical_order", "canonical_model", "model_digest"]


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
    """The explicit JSON model in canonical order (see the module's docstring): the explicit
    writer's form with the states renumbered by :func:`canonical_order`."""
    return model_to_json(model, canonical_order(model) if order is None else order)


def model_digest(model_json: dict) -> str:
    """SHA-256 of ``json.dumps(model_json, sort_keys=True, separators=(",", ":"))`` (integers of any size)."""
    with all_digits():
        raw = json.dumps(model_json, sort_keys=True, separators=(",", ":"), allow_nan=False).encode("utf-8")
    return hashlib.sha256(raw).hexdigest()
