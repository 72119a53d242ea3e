"""Storm's explicit DRN format: writing a model, reading one strictly, and turning it into a game model.

The format (as Storm's ``DirectEncodingParser`` reads it)::

    // comments
    @type: MDP                      DTMC or MDP (exactplay reads and writes these two)
    @value_type: rational           exact p/q numbers (double files are read as exact decimals)
    @parameters
                                    (an empty line: no parameters)
    @reward_models
    steps                           names, separated by spaces
    @nr_states
    4
    @nr_choices
    6
    @model
    state 0 [0] init "a label"      state rewards in [..] (one per reward model), then labels
        action wait [1/3]           action name (__NOLABEL__: none), action rewards
            1 : 1/2                 successor : probability
            2 : 1/2

Reading is strict: any defect is one line ``FILE:LINE: what is wrong``; probabilities must sum to
exactly 1 (nothing is renormalised).  :func:`drn_to_model` turns a parsed file and a property
(``Pmax``/``Pmin``/``Rmax``/``Rmin``, ``--target`` and ``--avoid`` label expressions) into a
:class:`~exactplay.model.Model` the engine solves.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from fractions import Fraction
from pathlib import Path

from ..model import Model, ModelError
from . import Formulation, formulate

__all__ = ["DrnFile", "DrnAction", "parse_drn", "read_drn", "write_drn", "drn_to_model", "parse_label_expr",
           "OBJECTIVES"]

OBJECTIVES = ("Pmax", "Pmin", "Rmax", "Rmin")
MAX_DRN_BYTES = 1024 * 2**20
NOLABEL = "__NOLABEL__"


# ---------------------------------------------------------------- writing

def _label_text(label: str) -> str:
    text = label.replace('"', "'").replace("\n", " ").replace("\r", " ")
    return text if re.fullmatch(r"[^\s\"]+", text) else f'"{text}"'


def _action_name(name, i: int) -> str:
    if name is None:
        return NOLABEL
    text = re.sub(r"\s+", "_", str(name)) or str(i)
    return text


def _pq(x: Fraction) -> str:
    return str(x.numerator) if x.denominator == 1 else f"{x.numerator}/{x.denominator}"


def state_labels(model: Model, form: Formulation) -> list[list[str]]:
    """Per state: ``init``, ``target``, ``terminal`` and the model's own labels (no duplicates)."""
    targets = set(form.targets)
    out = []
    for s in range(len(model)):
        labs = []
        if s == model.initial:
            labs.append("init")
        if s in targets:
            labs.append("target")
        if model.terminal[s] is not None:
            labs.append("terminal")
        for lab in (model.labels[s] if model.labels else []):
            if lab == "init":  # Storm's initial states: only the model's initial state carries it
                lab = "model_init"
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


# ---------------------------------------------------------------- reading

@dataclass
class DrnAction:
    name: str
    rewards: list[Fraction]
    line: int
    trans: dict[int, Fraction] = field(default_factory=dict)


@dataclass
class DrnFile:
    path: str
    type: str  # "DTMC" | "MDP"
    reward_models: list[str]
    labels: list[list[str]]
    state_rewards: list[list[Fraction]]
    actions: list[list[DrnAction]]
    lines: list[int]  # the line of each state
    initial: int

    def __len__(self) -> int:
        return len(self.actions)

    def all_labels(self) -> set[str]:
        return {x for labs in self.labels for x in labs}


_NUMBER = re.compile(r"[+-]?\d+(/\d+)?")
_DECIMAL = re.compile(r"[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?")
_LABEL = re.compile(r'"([^"]+)"(?=\s|$|")|([^\s"]+)(?=\s|$)')


class _Reader:
    def __init__(self, path: str, text: str):
        self.path = path
        self.lines = text.split("\n")
        self.i = 0  # index of the next line
        self.placeholders: dict[str, Fraction] = {}
        self.decimals = False

    def fail(self, line: int, msg: str):
        raise ModelError(f"{self.path}:{line}: {msg}")

    def number(self, text: str, line: int, what: str) -> Fraction:
        text = text.strip()
        if text.startswith("$"):
            if text[1:] not in self.placeholders:
                self.fail(line, f"unknown placeholder {text[:40]}")
            return self.placeholders[text[1:]]
        if len(text) > 100_000:
            self.fail(line, f"{what} {text[:20]}... is longer than 100000 characters")
        if _NUMBER.fullmatch(text):
            num, _, den = text.partition("/")
            if den and int(den) == 0:
                self.fail(line, f"{what} {text[:40]} has a zero denominator")
            return Fraction(int(num), int(den) if den else 1)
        if self.decimals and _DECIMAL.fullmatch(text):
            return Fraction(text)  # a decimal, read exactly
        self.fail(line, f"{what} {text[:40]!r} is not an exact rational p/q")

    def next(self) -> tuple[int, str] | None:
        while self.i < len(self.lines):
            self.i += 1
            raw = self.lines[self.i - 1].rstrip("\r")
            if raw.startswith("//") or not raw.strip():
                continue
            return self.i, raw
        return None


def read_drn(path: str | Path) -> DrnFile:
    path = Path(path)
    try:
        size = path.stat().st_size
    except OSError as exc:
        raise ModelError(f"{path}: cannot read ({exc.strerror or exc})") from None
    if size > MAX_DRN_BYTES:
        raise ModelError(f"{path}: {size:,} bytes is larger than the {MAX_DRN_BYTES:,}-byte limit for a DRN file")
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise ModelError(f"{path}: cannot read as UTF-8 text ({exc})") from None
    return parse_drn(text, str(path))


def parse_drn(text: str, path: str = "<drn>") -> DrnFile:
    """Parse DRN text strictly (see the module docstring)."""
    r = _Reader(path, text)
    mtype = value_type = None
    reward_models: list[str] = []
    nr_states = nr_choices = None
    seen: set[str] = set()
    while True:
        got = r.next()
        if got is None:
            r.fail(len(r.lines), "the file ends before @model")
        ln, line = got
        key = line.strip()
        if key.startswith("@") and key.split(":")[0] in seen and key != "@model":
            r.fail(ln, f"{key.split(':')[0]} is declared twice")
        seen.add(key.split(":")[0])
        if key.startswith("@type:"):
            mtype = key[6:].strip()
            if mtype not in ("DTMC", "MDP"):
                r.fail(ln, f"model type {mtype!r}: exactplay reads DTMC and MDP models")
        elif key.startswith("@value_type:"):
            value_type = key[12:].strip()
            if value_type not in ("rational", "double"):
                r.fail(ln, f"value type {value_type!r}: exactplay reads rational (or double, read exactly) models")
            r.decimals = value_type == "double"
        elif key == "@parameters":
            nxt = r.lines[r.i].strip() if r.i < len(r.lines) else ""
            r.i += 1
            if nxt:
                r.fail(r.i, f"parameters {nxt[:40]!r}: a parametric model has no exact values (instantiate it first)")
        elif key == "@reward_models":
            nxt = r.lines[r.i].strip() if r.i < len(r.lines) else ""
            r.i += 1
            reward_models = nxt.split()
        elif key in ("@nr_states", "@nr_choices"):
            got = r.next()
            if got is None or not got[1].strip().isdigit():
                r.fail(got[0] if got else ln, f"{key} must be followed by a number")
            if key == "@nr_states":
                nr_states = int(got[1].strip())
            else:
                nr_choices = int(got[1].strip())
        elif key == "@placeholders":
            while r.i < len(r.lines) and r.lines[r.i].startswith("$"):
                r.i += 1
                name, colon, value = r.lines[r.i - 1].partition(":")
                if not colon:
                    r.fail(r.i, "a placeholder is written $name : value")
                r.placeholders[name.strip()[1:]] = r.number(value, r.i, "placeholder value")
        elif key == "@model":
            break
        else:
            r.fail(ln, f"unexpected line {key[:60]!r} in the header (expected @type, @value_type, @parameters, "
                       "@reward_models, @nr_states, @nr_choices, @placeholders or @model)")
    if mtype is None:
        r.fail(ln, "@model before @type")
    if nr_states is None or nr_states < 1:
        r.fail(ln, "@model before @nr_states (at least 1)")
    if value_type is None:
        r.decimals = False
    nrew = len(reward_models)
    labels: list[list[str]] = []
    state_rewards: list[list[Fraction]] = []
    actions: list[list[DrnAction]] = []
    lines: list[int] = []
    current: DrnAction | None = None

    def rewards(text: str, ln: int, what: str) -> tuple[list[Fraction], str]:
        end = text.find("]")
        if end < 0:
            r.fail(ln, f"{what}: ']' missing")
        vals = [r.number(x, ln, "reward") for x in text[1:end].split(",")]
        if nrew and len(vals) != nrew:
            r.fail(ln, f"{what}: {len(vals)} rewards for {nrew} reward model(s) ({' '.join(reward_models)})")
        return vals, text[end + 1:]

    def close(ln: int) -> None:
        if current is not None:
            if not current.trans:
                r.fail(current.line, f"action {current.name} of state {len(actions) - 1} has no successor")
            total = sum(current.trans.values())
            if total != 1:
                r.fail(current.line, f"state {len(actions) - 1}, action {current.name}: probabilities sum to "
                                     f"{total}, not exactly 1")

    while True:
        got = r.next()
        if got is None:
            break
        ln, raw = got
        line = raw.strip()
        if line.startswith("state "):
            close(ln)
            current = None
            if actions and not actions[-1]:
                r.fail(lines[-1], f"state {len(actions) - 1} has no action")
            rest = line[6:].strip()
            sid, _, rest = rest.partition(" ")
            if not sid.isdigit() or int(sid) != len(actions):
                r.fail(ln, f"state {sid[:20]}: expected state {len(actions)} (states are numbered 0, 1, ... in order)")
            if len(actions) >= nr_states:
                r.fail(ln, f"more states than @nr_states {nr_states}")
            rest = rest.strip()
            srew: list[Fraction] = []
            if rest.startswith("["):
                srew, rest = rewards(rest, ln, f"state {sid}")
            labs = []
            rest = rest.strip()
            pos = 0
            while pos < len(rest):
                m = _LABEL.match(rest, pos)
                if m is None:
                    r.fail(ln, f"state {sid}: cannot read the labels {rest[pos:pos + 40]!r}")
                labs.append(m.group(1) if m.group(1) is not None else m.group(2))
                pos = m.end()
                while pos < len(rest) and rest[pos].isspace():
                    pos += 1
            labels.append(labs)
            state_rewards.append(srew)
            actions.append([])
            lines.append(ln)
        elif line.startswith("action ") or line == "action":
            if not actions:
                r.fail(ln, "an action before the first state")
            close(ln)
            rest = line[7:].strip()
            name, _, rest = rest.partition(" ")
            if not name:
                r.fail(ln, "an action has a name (__NOLABEL__ for none)")
            arew: list[Fraction] = []
            rest = rest.strip()
            if rest.startswith("["):
                arew, rest = rewards(rest, ln, f"action {name}")
            if rest.strip():
                r.fail(ln, f"unexpected text {rest.strip()[:40]!r} after the action")
            if mtype == "DTMC" and actions[-1]:
                r.fail(ln, f"state {len(actions) - 1}: a DTMC state has one action")
            current = DrnAction(name, arew, ln)
            actions[-1].append(current)
        else:
            if not actions:
                r.fail(ln, f"unexpected line {line[:60]!r} before the first state")
            if current is None:
                if mtype == "MDP" or actions[-1]:
                    r.fail(ln, "a transition before its action line")
                current = DrnAction("0", [], ln)
                actions[-1].append(current)
            tgt, colon, val = line.partition(":")
            tgt = tgt.strip()
            if not colon:
                r.fail(ln, f"expected 'successor : probability', got {line[:60]!r}")
            if not tgt.isdigit():
                r.fail(ln, f"successor {tgt[:20]!r} is not a state number")
            t = int(tgt)
            if t >= nr_states:
                r.fail(ln, f"successor {t} is not a state (@nr_states {nr_states})")
            p = r.number(val, ln, "probability")
            if p < 0 or p > 1:
                r.fail(ln, f"probability {_pq(p)} is not between 0 and 1")
            if t in current.trans:
                r.fail(ln, f"successor {t} appears twice in one action")
            current.trans[t] = p
    close(len(r.lines))
    if actions and not actions[-1]:
        r.fail(lines[-1], f"state {len(actions) - 1} has no action")
    if len(actions) != nr_states:
        r.fail(len(r.lines), f"{len(actions)} states, but @nr_states says {nr_states}")
    count = sum(len(a) for a in actions)
    if nr_choices is not None and nr_choices != count:
        r.fail(len(r.lines), f"{count} choices, but @nr_choices says {nr_choices}")
    inits = [s for s, labs in enumerate(labels) if "init" in labs]
    if len(inits) != 1:
        r.fail(lines[inits[1]] if inits else len(r.lines),
               "no initial state (label init)" if not inits else "more than one initial state (label init)")
    for acts in actions:
        for a in acts:
            a.trans = {t: p for t, p in a.trans.items() if p}
    return DrnFile(path, mtype, reward_models, labels, state_rewards, actions, lines, inits[0])


# ---------------------------------------------------------------- label expressions

_TOKEN = re.compile(r'\s*(?:(&)|(!)|"([^"]*)"|([A-Za-z_][A-Za-z0-9_]*))')


def parse_label_expr(text: str, known: set[str], what: str = "--target"):
    """``a & !"b c"`` -> a list of ``(negated, label)``; unknown labels are refused."""
    pos, out, neg, need = 0, [], False, True
    text = text.strip()
    if not text:
        raise ModelError(f"{what}: empty expression")
    while pos < len(text):
        m = _TOKEN.match(text, pos)
        if m is None or m.end() == pos:
            raise ModelError(f"{what} {text!r}: cannot read {text[pos:pos + 20]!r} (write labels, \"quoted labels\", "
                             "& and !)")
        pos = m.end()
        amp, bang, quoted, plain = m.groups()
        if amp:
            if need:
                raise ModelError(f"{what} {text!r}: '&' without a label before it")
            need = True
        elif bang:
            if not need:
                raise ModelError(f"{what} {text!r}: '!' must start a term (join terms with &)")
            neg = not neg
        else:
            if not need:
                raise ModelError(f"{what} {text!r}: two labels without '&' between them")
            label = quoted if quoted is not None else plain
            if label not in known:
                shown = ", ".join(sorted(f'"{x}"' for x in known)[:12])
                raise ModelError(f"{what}: unknown label \"{label}\" (the model's labels: {shown or 'none'})")
            out.append((neg, label))
            neg, need = False, False
        while pos < len(text) and text[pos].isspace():
            pos += 1
    if need:
        raise ModelError(f"{what} {text!r}: the expression ends with an operator")
    return out


def _holds(expr, labels: list[str]) -> bool:
    return all((lab in labels) != neg for neg, lab in expr)


# ---------------------------------------------------------------- to a game model

def drn_to_model(drn: DrnFile, objective: str, target: str, avoid: str | None = None,
                 reward: str | None = None) -> tuple[Model, list[int]]:
    """The game model of a DRN file and a property; also ``order[k]`` = the DRN number of model state ``k``.

    ``target`` states become terminal with payoff 1 (``P``) or 0 (``R``), ``avoid`` states (not in the
    target) terminal with payoff 0; a state all of whose actions loop to itself is terminal with payoff
    0 (``P``; for ``R`` it never reaches the target, refused).  The single player maximises (``max``)
    or minimises (``min``).  Model states are the DRN states, except that the initial state is swapped
    with state 0 (the engine's initial state); each state's name is its DRN number.
    """
    if objective not in OBJECTIVES:
        raise ModelError(f"--objective {objective!r}: choose one of {', '.join(OBJECTIVES)}")
    known = drn.all_labels()
    texpr = parse_label_expr(target, known, "--target")
    aexpr = parse_label_expr(avoid, known, "--avoid") if avoid else None
    is_reward = objective.startswith("R")
    n = len(drn)
    order = list(range(n))
    order[0], order[drn.initial] = drn.initial, 0
    pos = {d: k for k, d in enumerate(order)}
    rindex = None
    if is_reward:
        if not drn.reward_models and not any(drn.state_rewards) and not any(a.rewards for acts in drn.actions for a in acts):
            raise ModelError(f"{drn.path}: {objective} needs a reward model, and the file has none")
        names = drn.reward_models or ["rew0"]
        if reward is None:
            if len(names) > 1:
                raise ModelError(f"{drn.path}: {len(names)} reward models ({', '.join(names)}): choose one with --reward")
            rindex = 0
        elif reward not in names:
            raise ModelError(f"--reward {reward!r}: the file's reward models are {', '.join(names)}")
        else:
            rindex = names.index(reward)
    elif reward is not None:
        raise ModelError("--reward is for the objectives Rmin and Rmax")
    terminal, mover, actions, trans, rewards, labels, states = [], [], [], [], [], [], []
    for k in range(n):
        d = order[k]
        labs = drn.labels[d]
        labels.append(list(labs))
        states.append(str(d))  # the name is the DRN number (JSON float-table rows may use it)
        acts = drn.actions[d]
        absorbing = all(set(a.trans) == {d} for a in acts)
        if _holds(texpr, labs):
            pay = Fraction(0) if is_reward else Fraction(1)
        elif aexpr is not None and _holds(aexpr, labs):
            if is_reward:
                raise ModelError(f"{drn.path}:{drn.lines[d]}: --avoid is for Pmax and Pmin (an avoided state "
                                 "makes the expected reward infinite)")
            pay = Fraction(0)
        elif absorbing and not is_reward:
            pay = Fraction(0)
        else:
            pay = None
        if pay is not None:
            terminal.append((pay,))
            mover.append(None)
            actions.append([])
            trans.append([])
            rewards.append([])
            continue
        terminal.append(None)
        mover.append(0 if len(acts) > 1 else None)
        names, seen = [], {}
        for i, a in enumerate(acts):
            name = a.name if a.name != NOLABEL else str(i)
            if name in seen:
                name = f"{name}#{i}"
            seen[name] = i
            names.append(name if len(acts) > 1 else None)
        actions.append(names)
        trans.append([tuple((pos[t], p) for t, p in sorted(a.trans.items(), key=lambda x: pos[x[0]])) for a in acts])
        rs = []
        for a in acts:
            if rindex is None:
                rs.append(None)
                continue
            x = Fraction(0)
            sr = drn.state_rewards[d]
            if rindex < len(sr):
                x += sr[rindex]
            if rindex < len(a.rewards):
                x += a.rewards[rindex]
            rs.append((x,) if x else None)
        rewards.append(rs)
    model = Model(
        name=f"{Path(drn.path).stem}: {objective} {target}" + (f" avoiding {avoid}" if avoid else ""), num_players=1, player_names=["chooser"],
        objective="min" if objective.endswith("min") else "max",
        states=states, terminal=terminal, mover=mover, actions=actions, trans=trans, rewards=rewards,
        labels=labels,
    )
    model.validate()
    if is_reward:
        _require_reach_one(model, drn, order)
    return model, order


def _require_reach_one(model: Model, drn: DrnFile, order: list[int]) -> None:
    """Rmin/Rmax: every strategy must reach the target with probability 1 (no end component outside it)."""
    from ..graph import has_end_component, tarjan

    n = len(model)
    succ = [sorted(model.successors(s)) for s in range(n)]
    for comp in tarjan(succ):
        s0 = comp[0]
        if model.terminal[s0] is not None:
            continue
        if len(comp) == 1:
            ec = any(len(d) == 1 and d[0][0] == s0 for d in model.trans[s0])
        else:
            ec = has_end_component(comp, lambda s: [{t for t, _ in d} for d in model.trans[s]])
        if ec:
            d = order[s0]
            raise ModelError(f"{drn.path}:{drn.lines[d]}: from state {d} some strategy never reaches the target "
                             "(an end component outside it): the expected reward is infinite or not supported; "
                             "exactplay solves Rmin/Rmax when every strategy reaches the target with probability 1")
