"""Writing a model in Storm's explicit DRN format (the format: :mod:`exactplay.interop.drn`)."""

from __future__ import annotations

import re

from ..model import Model, ModelError
from . import Formulation, formulate
from .drn_states import NOLABEL
from .drn_texts import pq as _pq


def _label_text(label: str) -> str:
    text = label.replace('"', "'").replace("\n", " ").replace("\r", " ")
    return text if re.fullmatch(r"[^\s\"]+", text) else f'"{text}"'


def _action_name(name, i: int) -> str:
    if name is None:
        return NOLABEL
    text = re.sub(r"\s+", "_", str(name)) or str(i)
    return text


def state_labels(model: Model, form: Formulation) -> list[list[str]]:
    """Per state: ``init``, ``target``, ``terminal`` and the model's own labels (no duplicates)."""
    targets, starts = set(form.targets), set(model.initial_states)
    out = []
    for s in range(len(model)):
        labs = []
        if s in starts:
            labs.append("init")
        if s in targets:
            labs.append("target")
        if model.terminal[s] is not None:
            labs.append("terminal")
        for lab in (model.labels[s] if model.labels else []):
            if lab == "init":  # Storm's initial states: only the model's initial states carry it
                lab = "model_init" if s not in starts else ""
            if lab and lab not in labs:
                labs.append(lab)
        out.append(labs)
    return out


def write_drn(model: Model, form: Formulation | None = None) -> str:
    """The DRN text of ``model`` (a DTMC or an MDP; a two-player game must be fixed first)."""
    form = form or formulate(model)
    if form.kind == "smg":
        raise ModelError("Storm's DRN format has no two-player games: fix one player's strategy "
                         "(export --fix PLAYER) or export --format prism (an smg)")
    mdp = form.kind == "mdp"
    lines = [f"// {model.name}, exported by exactplay", f"// the values exactplay computes: {form.formula()}",
             "// state N is exactplay's state N; terminal states are absorbing (a self-loop)",
             f"@type: {'MDP' if mdp else 'DTMC'}", "@value_type: rational", "@parameters", "",
             "@reward_models", "payoff" if form.reward else ""]
    n = len(model)
    choices = sum(max(1, len(model.trans[s])) for s in range(n))
    lines += ["@nr_states", str(n), "@nr_choices", str(choices), "@model"]
    labels = state_labels(model, form)
    for s in range(n):
        head = f"state {s}"
        if form.reward:
            head += " [0]"
        if labels[s]:
            head += " " + " ".join(_label_text(x) for x in labels[s])
        lines.append(head)
        if model.terminal[s] is not None:
            lines.append(f"\taction {NOLABEL if mdp else 0}" + (" [0]" if form.reward else ""))
            lines.append(f"\t\t{s} : 1")
            continue
        for a, dist in enumerate(model.trans[s]):
            name = _action_name(model.actions[s][a], a) if mdp else "0"
            act = f"\taction {name}"
            if form.reward:
                act += f" [{_pq(form.action_reward(model, s, a))}]"
            lines.append(act)
            for t, p in sorted(dist):
                lines.append(f"\t\t{t} : {_pq(p)}")
    return "\n".join(lines) + "\n"
