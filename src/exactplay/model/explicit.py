"""The explicit model file (JSON): a game written out state by state.

::

    {
      "format": "exactplay-model", "version": 1,
      "name": "a coin game",
      "players": ["Alice", "Bob"],          // or a number of players
      "objective": "auto",                  // optional: auto | max | zero-sum | min
      "never_ending": "zero",               // optional: zero | infinite (one player: a strategy that
                                            //   does not end play with probability 1 is worth +inf)
      "initial": "start",                   // optional: default the first state
      "initial_states": ["start", "roll"],  // optional: several initial states ("initial" first)
      "states": [
        {"id": "start", "mover": 0, "actions": [
            {"name": "flip", "next": [["1/2", "win"], ["1/2", "lose"]]},
            {"name": "stop", "next": [["1/1", "lose"]], "reward": ["1/10", "0/1"]}]},
        {"id": "roll", "mover": null, "next": [["1/6", "win"], ["5/6", "start"]]},
        {"id": "win",  "payoff": ["1/1", "0/1"]},
        {"id": "lose", "payoff": ["0/1", "1/1"], "labels": ["lost"]}
      ]
    }

A state has an ``id`` (string or integer, unique) and is either terminal
(``payoff``: one exact number per player) or has a ``mover`` (player index,
or ``null`` for chance) and its ``actions`` (each with ``next``: a list of
``[probability, id]``; optional ``name`` and ``reward``); a chance state may
give ``next`` directly.  Probabilities are ``"p/q"`` strings or integers:
JSON floats are refused.  ``labels`` (optional) are atomic propositions, kept
for export to PRISM and Storm.

At most 1,000 players (:data:`~exactplay.model.compiled.MAX_PLAYERS`);
``zero-sum`` is for two players, ``min`` for one.  No other field, and no name
twice in one object (JSON leaves open which one a reader keeps).  A file may be
gzip-compressed.  States past ``--max-states`` are refused before they are read.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from ..checker.readers import DuplicateName, read_bounded
from ..numbers.backends import format_pq
from .compiled import MAX_STATES, Model, ModelError
from .explicit_read import FORMAT, TOP_FIELDS, StateReader, read_text

__all__ = ["load_model_file", "model_from_json", "model_to_json", "MAX_MODEL_BYTES"]

MAX_MODEL_BYTES = 512 * 2**20


def load_model_file(path: str | Path, max_states: int = MAX_STATES) -> Model:
    """Read and validate an explicit model file (gzip-compressed or not); one-line :class:`ModelError`
    on any defect.  Nothing is built past a limit: the file's bytes (:data:`MAX_MODEL_BYTES`, inflated
    in bounded chunks), the players, and ``max_states`` states, each state parsed and read on its own
    (:mod:`exactplay.model.explicit_read`)."""
    path = Path(path)
    data = read_bounded(path, MAX_MODEL_BYTES, "the model file", error=ModelError)
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise ModelError(f"{path}: cannot read as UTF-8 text ({exc})") from None
    del data
    try:
        return read_text(text, max_states)
    except ModelError as exc:
        raise ModelError(f"{path}: {exc}") from None
    except json.JSONDecodeError as exc:
        raise ModelError(f"{path}: not JSON ({exc.msg} at line {exc.lineno})") from None
    except DuplicateName as exc:
        raise ModelError(f"{path}: {exc}") from None
    except ValueError as exc:  # the digit guard
        raise ModelError(f"{path}: not a model ({exc})") from None
    except RecursionError:
        raise ModelError(f"{path}: not a model (JSON nested too deeply)") from None


def model_from_json(data: Any, max_states: int = MAX_STATES) -> Model:
    """A :class:`Model` from the parsed JSON of an explicit model."""
    if not isinstance(data, dict):
        raise ModelError("not a model: the top level is not an object")
    unknown = [k for k in data if k not in TOP_FIELDS]
    if unknown:
        raise ModelError(f"unknown field {str(unknown[0])[:60]!r} (a model has {', '.join(TOP_FIELDS)})")
    reader = StateReader(max_states)
    reader.fields = {k: v for k, v in data.items() if k != "states"}
    reader.header(final=True)
    raw_states = data.get("states")
    if not isinstance(raw_states, list) or not raw_states:
        raise ModelError("field 'states': a non-empty list of states is required")
    for i, st in enumerate(raw_states):
        reader.add(i, st)
    return reader.model()


def model_to_json(model: Model, order: list[int] | None = None) -> dict:
    """The explicit JSON form of ``model`` (names kept).

    Without ``order`` the state ids are the model's indices and everything is written as stored.
    With ``order`` (the canonical form, :mod:`exactplay.model.canonical`) state ``order[i]`` gets
    id ``i``, each action's outcomes are written in increasing id and an all-zero reward is left out.
    """
    canonical = order is not None
    order = range(len(model)) if order is None else order
    number = [0] * len(order)
    for i, s in enumerate(order):
        number[s] = i
    states = []
    for i, s in enumerate(order):
        st: dict[str, Any] = {"id": i, "name": model.state_name(s)}
        if model.labels and model.labels[s]:
            st["labels"] = list(model.labels[s])
        if model.terminal[s] is not None:
            st["payoff"] = [format_pq(x) for x in model.terminal[s]]
        else:
            st["mover"] = model.mover[s]
            acts = []
            for a, dist in enumerate(model.trans[s]):
                act: dict[str, Any] = {}
                if model.mover[s] is not None:
                    act["name"] = model.actions[s][a]
                outcomes = sorted((number[t], p) for t, p in dist) if canonical else dist
                act["next"] = [[format_pq(p), t] for t, p in outcomes]
                reward = model.rewards[s][a]
                if reward is not None and (any(reward) or not canonical):
                    act["reward"] = [format_pq(x) for x in reward]
                acts.append(act)
            st["actions"] = acts
        states.append(st)
    out = {
        "format": FORMAT,
        "version": 1,
        "name": model.name,
        "players": list(model.player_names),
        "objective": model.objective,
        "initial": number[model.initial],
        "states": states,
    }
    if model.never_ending != "zero":  # (the default is not written: digests of such models are unchanged)
        out["never_ending"] = model.never_ending
    if len(model.initial_states) > 1:  # written only then: the digest of a one-initial-state model is unchanged
        out["initial_states"] = [number[s] for s in model.initial_states]
    return out
