"""The explicit model file (JSON): a game written out state by state.

::

    {
      "format": "exactplay-model", "version": 1,
      "name": "a coin game",
      "players": ["Alice", "Bob"],          // or a number of players
      "objective": "auto",                  // optional: auto | max | zero-sum | min
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
"""

from __future__ import annotations

import json
from fractions import Fraction
from pathlib import Path
from typing import Any

from .compiled import OBJECTIVES, Model, ModelError, exact_vector
from .protocol import to_rational

__all__ = ["load_model_file", "model_from_json", "model_to_json", "MAX_MODEL_BYTES"]

FORMAT = "exactplay-model"
MAX_MODEL_BYTES = 512 * 2**20


def _refuse_float(text: str):
    raise ModelError(f"the number {text[:40]} is a JSON float: write probabilities and payoffs as \"p/q\" strings")


def load_model_file(path: str | Path) -> Model:
    """Read and validate an explicit model file; one-line :class:`ModelError` on any defect."""
    path = Path(path)
    try:
        size = path.stat().st_size
    except OSError as exc:
        raise ModelError(f"{path}: cannot read ({exc.strerror or exc})") from None
    if size > MAX_MODEL_BYTES:
        raise ModelError(f"{path}: {size:,} bytes is larger than the {MAX_MODEL_BYTES:,}-byte limit for a model file")
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise ModelError(f"{path}: cannot read as UTF-8 text ({exc})") from None
    try:
        data = json.loads(text, parse_float=_refuse_float, parse_constant=_refuse_float)
    except json.JSONDecodeError as exc:
        raise ModelError(f"{path}: not JSON ({exc.msg} at line {exc.lineno})") from None
    except RecursionError:
        raise ModelError(f"{path}: not a model (JSON nested too deeply)") from None
    except ModelError as exc:
        raise ModelError(f"{path}: {exc}") from None
    try:
        return model_from_json(data)
    except ModelError as exc:
        raise ModelError(f"{path}: {exc}") from None


def model_from_json(data: Any) -> Model:
    """A :class:`Model` from the parsed JSON of an explicit model."""
    if not isinstance(data, dict):
        raise ModelError("not a model: the top level is not an object")
    if data.get("format") != FORMAT:
        raise ModelError(f"not an exactplay model: field 'format' must be {FORMAT!r}")
    if data.get("version") != 1:
        raise ModelError(f"unsupported model version {data.get('version')!r} (this exactplay reads version 1)")
    players = data.get("players")
    if isinstance(players, int) and not isinstance(players, bool) and players >= 1:
        names = [f"player {i}" for i in range(players)]
    elif isinstance(players, list) and players and all(isinstance(p, str) for p in players):
        names = list(players)
    else:
        raise ModelError("field 'players': give a number of players or a list of names")
    n = len(names)
    objective = data.get("objective", "auto")
    if objective not in OBJECTIVES:
        raise ModelError(f"field 'objective': {objective!r} is not one of {', '.join(OBJECTIVES)}")
    raw_states = data.get("states")
    if not isinstance(raw_states, list) or not raw_states:
        raise ModelError("field 'states': a non-empty list of states is required")
    ids: dict[Any, int] = {}
    for i, st in enumerate(raw_states):
        if not isinstance(st, dict) or "id" not in st:
            raise ModelError(f"states[{i}]: a state is an object with an 'id'")
        sid = st["id"]
        if isinstance(sid, bool) or not isinstance(sid, (str, int)):
            raise ModelError(f"states[{i}]: id {sid!r} must be a string or an integer")
        if sid in ids:
            raise ModelError(f"states[{i}]: duplicate id {sid!r}")
        ids[sid] = i
    starts = data.get("initial_states")
    first = starts[0] if isinstance(starts, list) and starts else raw_states[0]["id"]
    initial = data.get("initial", first)
    if isinstance(initial, bool) or not isinstance(initial, (str, int)) or initial not in ids:
        raise ModelError(f"field 'initial': unknown state {initial!r}")
    if starts is not None:
        if (not isinstance(starts, list) or len(starts) < 2 or starts[0] != initial
                or any(isinstance(x, bool) or not isinstance(x, (str, int)) or x not in ids for x in starts)
                or len(set(starts)) != len(starts)):
            raise ModelError("field 'initial_states': a list of two or more distinct states, the initial state "
                             f"{initial!r} first")
    # renumber so that the initial state is 0
    order = [ids[initial]] + [i for i in range(len(raw_states)) if i != ids[initial]]
    new = {old: k for k, old in enumerate(order)}
    terminal, mover, actions, trans, rewards, labels, names_out = [], [], [], [], [], [], []
    for old in order:
        st = raw_states[old]
        where = f"state {st['id']!r}"
        unknown = set(st) - {"id", "payoff", "mover", "actions", "next", "labels", "name"}
        if unknown:
            raise ModelError(f"{where}: unknown field(s) {', '.join(sorted(map(str, unknown)))}")
        lab = st.get("labels", [])
        if not isinstance(lab, list) or not all(isinstance(x, str) for x in lab):
            raise ModelError(f"{where}: 'labels' must be a list of strings")
        labels.append(list(lab))
        names_out.append(str(st.get("name", st["id"])))
        if "payoff" in st:
            if "mover" in st or "actions" in st or "next" in st:
                raise ModelError(f"{where}: a terminal state (with 'payoff') has no mover, actions or next")
            terminal.append(exact_vector(st["payoff"], n, "payoff", where))
            mover.append(None)
            actions.append([])
            trans.append([])
            rewards.append([])
            continue
        if "mover" not in st:
            raise ModelError(f"{where}: give 'payoff' (terminal) or 'mover' (a player index, or null for chance)")
        m = st["mover"]
        if m is not None and (isinstance(m, bool) or not isinstance(m, int) or not 0 <= m < n):
            raise ModelError(f"{where}: mover {m!r} is not a player index 0..{n - 1} or null")
        if "next" in st:
            if m is not None or "actions" in st:
                raise ModelError(f"{where}: 'next' directly on a state is for chance states (mover null) only")
            acts = [{"next": st["next"]}]
        else:
            acts = st.get("actions")
        if not isinstance(acts, list) or not acts:
            raise ModelError(f"{where}: 'actions' must be a non-empty list")
        if m is None and len(acts) != 1:
            raise ModelError(f"{where}: a chance state (mover null) has exactly one action")
        a_names, dists, rews = [], [], []
        for k, act in enumerate(acts):
            if not isinstance(act, dict) or "next" not in act:
                raise ModelError(f"{where}, action {k}: an action is an object with 'next'")
            extra = set(act) - {"name", "next", "reward"}
            if extra:
                raise ModelError(f"{where}, action {k}: unknown field(s) {', '.join(sorted(extra))}")
            name = act.get("name", None if m is None else k)
            a_names.append(name)
            nxt = act["next"]
            if not isinstance(nxt, list) or not nxt:
                raise ModelError(f"{where}, action {name!r}: 'next' must be a non-empty list of [probability, id]")
            dist: dict[int, Fraction] = {}
            total = Fraction(0)
            for item in nxt:
                if not isinstance(item, list) or len(item) != 2:
                    raise ModelError(f"{where}, action {name!r}: each outcome is [probability, id]")
                try:
                    p = to_rational(item[0], "probability")
                except (TypeError, ValueError) as exc:
                    raise ModelError(f"{where}, action {name!r}: {exc}") from None
                if p < 0:
                    raise ModelError(f"{where}, action {name!r}: negative probability {p}")
                if isinstance(item[1], bool) or not isinstance(item[1], (str, int)) or item[1] not in ids:
                    raise ModelError(f"{where}, action {name!r}: unknown successor {str(item[1])[:40]!r}")
                total += p
                if p:
                    t = new[ids[item[1]]]
                    dist[t] = dist.get(t, Fraction(0)) + p
            if total != 1:
                raise ModelError(f"{where}, action {name!r}: probabilities sum to {total}, not exactly 1")
            dists.append(tuple(dist.items()))
            r = None
            if "reward" in act:
                r = exact_vector(act["reward"], n, "reward", f"{where}, action {name!r}")
                if not any(r):
                    r = None
            rews.append(r)
        if len(set(map(repr, a_names))) != len(a_names):
            raise ModelError(f"{where}: action names are not distinct")
        terminal.append(None)
        mover.append(m)
        actions.append(a_names)
        trans.append(dists)
        rewards.append(rews)
    model = Model(
        name=str(data.get("name", "model")),
        num_players=n,
        player_names=names,
        objective=objective,
        states=names_out,
        terminal=terminal,
        mover=mover,
        actions=actions,
        trans=trans,
        rewards=rewards,
        labels=labels,
        initial_states=[] if starts is None else [new[ids[x]] for x in starts],
    )
    model.validate(distributions=False)  # each distribution was checked as it was read
    return model


def _pq(x: Fraction) -> str:
    return f"{x.numerator}/{x.denominator}"


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
            st["payoff"] = [_pq(x) for x in model.terminal[s]]
        else:
            st["mover"] = model.mover[s]
            acts = []
            for a, dist in enumerate(model.trans[s]):
                act: dict[str, Any] = {}
                if model.mover[s] is not None:
                    act["name"] = model.actions[s][a]
                outcomes = sorted((number[t], p) for t, p in dist) if canonical else dist
                act["next"] = [[_pq(p), t] for t, p in outcomes]
                reward = model.rewards[s][a]
                if reward is not None and (any(reward) or not canonical):
                    act["reward"] = [_pq(x) for x in reward]
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
    if len(model.initial_states) > 1:  # written only then: the digest of a one-initial-state model is unchanged
        out["initial_states"] = [number[s] for s in model.initial_states]
    return out
