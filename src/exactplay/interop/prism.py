"""A readable PRISM model of a game, and the property to check beside it (``.props``).

One module, one variable ``s`` (the state number, as in exactplay), one command per action::

    mdp                                       // dtmc when nobody chooses, smg for two players

    module game
      s : [0..N-1] init 0;
      // (to move 0, scores 0-0, turn 0)
      [roll] s=0 -> 1/6:(s'=1) + 1/6:(s'=2) + ...;
      [hold] s=3 -> (s'=7);
      [] s=9 -> true;                         // terminal: absorbing
    endmodule

    label "target" = s=9 | (s>=12 & s<=15);   // terminal states worth 1
    label "terminal" = ...;

For an ``smg`` (PRISM-games syntax, also read by Storm) each player owns its action names
(``[roll_p0]``, ``[roll_p1]``); the module, with the chance states' unlabelled commands, belongs to
the first player.  Labels that are not PRISM identifiers are rewritten (other characters become
``_``).
"""

from __future__ import annotations

import re

from ..model import Model
from ..numbers.backends import format_exact
from . import Formulation, formulate

__all__ = ["write_prism", "prism_identifier"]

KEYWORDS = {
    "A", "bool", "clock", "const", "ctmc", "C", "double", "dtmc", "E", "endinit", "endinvariant", "endmodule",
    "endplayer", "endrewards", "endsystem", "false", "formula", "filter", "func", "F", "global", "G", "init",
    "invariant", "I", "int", "label", "max", "mdp", "min", "module", "X", "nondeterministic", "Pmax", "Pmin", "P",
    "player", "probabilistic", "prob", "pta", "rate", "rewards", "Rmax", "Rmin", "R", "S", "smg", "stochastic",
    "system", "true", "U", "W", "s", "game", "L", "K", "Q", "V", "csg", "pomdp", "popta", "observables",
}


def prism_identifier(text: str, prefix: str = "a_") -> str:
    ident = re.sub(r"[^A-Za-z0-9_]", "_", str(text))
    if not ident or not (ident[0].isalpha() or ident[0] == "_") or ident in KEYWORDS:
        ident = prefix + ident
    return ident


def _guard(states: list[int]) -> str:
    """``s=1 | (s>=3 & s<=9)`` for a sorted list of state numbers; ``false`` if empty."""
    if not states:
        return "false"
    runs, start, prev = [], states[0], states[0]
    for s in states[1:] + [None]:
        if s is not None and s == prev + 1:
            prev = s
            continue
        runs.append(f"s={start}" if start == prev else f"(s>={start} & s<={prev})")
        if s is not None:
            start = prev = s
    return " | ".join(runs)


def _update(dist) -> str:
    if len(dist) == 1:
        return f"(s'={dist[0][0]})"
    return " + ".join(f"{format_exact(p)}:(s'={t})" for t, p in sorted(dist))


def write_prism(model: Model, form: Formulation | None = None) -> tuple[str, str]:
    """``(model text, properties text)``."""
    form = form or formulate(model)
    n = len(model)
    smg = form.kind == "smg"
    names: list[list[str]] = []
    owned: dict[int, list[str]] = {p: [] for p in form.players}
    for s in range(n):
        row, used = [], set()
        if model.terminal[s] is None and (form.kind != "dtmc"):
            choice = len(model.trans[s]) > 1
            for a, name in enumerate(model.actions[s]):
                if not choice:
                    row.append("")
                    continue
                ident = prism_identifier(name if name is not None else f"a{a}")
                if smg:
                    ident = f"{ident}_p{model.mover[s]}"
                base, k = ident, 1
                while ident in used:
                    k += 1
                    ident = f"{base}_{k}"
                used.add(ident)
                row.append(ident)
                if smg and ident not in owned[model.mover[s]]:
                    owned[model.mover[s]].append(ident)
        names.append(row)
    out = [f"// {model.name}, exported by exactplay", f"// the values exactplay computes: {form.formula('p0' if smg else None)}",
           "// s is exactplay's state number; terminal states are absorbing", "", form.kind, ""]
    if smg:
        for i, p in enumerate(form.players):
            acts = ", ".join(f"[{a}]" for a in owned[p])
            members = ", ".join(x for x in (["game"] if i == 0 else []) + ([acts] if acts else []))
            out += [f"// {model.player_names[p]}", f"player p{p}", f"  {members}", "endplayer", ""]
    several = len(model.initial_states) > 1  # then an init ... endinit block (PRISM's, Storm's) names them
    out += ["module game", f"  s : [0..{n - 1}]" + ("" if several else f" init {model.initial}") + ";", ""]
    for s in range(n):
        out.append(f"  // {model.state_name(s)}".replace("\n", " "))
        if model.terminal[s] is not None:
            out.append(f"  [] s={s} -> true;")
            continue
        for a, dist in enumerate(model.trans[s]):
            label = names[s][a] if names[s] else ""
            out.append(f"  [{label}] s={s} -> {_update(dist)};")
    out += ["endmodule", ""]
    if several:
        out += ["init", f"  {_guard(sorted(model.initial_states))}", "endinit", ""]
    targets = form.targets
    terminals = [s for s in range(n) if model.terminal[s] is not None]
    if not form.reward:
        out.append(f'label "target" = {_guard(targets)};')
    out.append(f'label "terminal" = {_guard(terminals)};')
    own: dict[str, list[int]] = {}
    for s in range(n):
        for lab in (model.labels[s] if model.labels else []):
            ident = prism_identifier(lab, "l_")
            if ident in ("target", "terminal", "init", "deadlock"):
                ident = "l_" + ident
            own.setdefault(ident, []).append(s)
    for ident, states in sorted(own.items()):
        out.append(f'label "{ident}" = {_guard(states)};')
    if form.reward:
        out += ["", 'rewards "payoff"']
        for s in range(n):
            if model.terminal[s] is not None:
                continue
            for a in range(len(model.trans[s])):
                r = form.action_reward(model, s, a)
                if r:
                    label = names[s][a] if names[s] else ""
                    out.append(f"  [{label}] s={s} : {format_exact(r)};")
        out.append("endrewards")
    props = [f"// {model.name}: the values exactplay computes", form.formula("p0" if smg else None)]
    if smg:
        props[1] = form.formula(f"p{form.players[0]}")
    return "\n".join(out) + "\n", "\n".join(props) + "\n"
