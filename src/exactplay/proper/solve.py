"""Expected total reward until a terminal state, with Storm's semantics: exact values, some infinite.

A model with ``never_ending = "infinite"`` (one player): a strategy that does not end play with
probability 1 is worth +infinity; otherwise it is worth its expected total reward plus the expected
terminal payoff.  The value of a state is the best (``max``) or the least (``min``) worth over all
strategies.  (This is Storm's ``Rmax``/``Rmin=? [F target]`` with the target states terminal.)

1. The infinite states and the allowed actions come from graph searches alone (:mod:`.graph`).
2. The *reduced* model keeps the finite states with their allowed actions (the infinite states become
   terminal; no allowed action reaches them).  Without an end component every strategy of the reduced
   model ends play, its Bellman equations have one solution and the engine solves it.  ``max`` is always
   so (every action of a finite state stays among finite states and terminals, where no end component
   is left).
3. ``min`` with end components (e.g. a loop of reward 0 the minimiser may take forever): every
   strategy that ends play almost surely plays allowed actions only, and the value is the least
   worth of those *proper* strategies, which the Bellman equations no longer pin down (a zero-reward
   loop makes ``V = min(V, ...)`` hold for many ``V``).  Policy iteration from a proper policy (the
   backward search's actions toward the terminals), each policy evaluated exactly by the engine (a
   proper policy's chain ends play), switching only on a strict improvement, stays proper when the
   rewards are ``>= 0``: an improper switch would close a set ``C`` on which ``V >= r + P V`` holds with
   one strict inequality, and summing over ``C``'s stationary distribution gives a negative mean reward.
   It stops at a proper policy whose values ``V`` satisfy ``V(s) <= r(s, a) + sum_t p(t) V(t)`` for every
   allowed action; then no strategy that ends play almost surely does better (``V`` plus the reward
   collected is a submartingale up to the end of play, rewards ``>= 0``), so ``V`` is the value.  A
   negative reward where the reduced model has an end component is refused (the least worth need not
   be attained).

The engine is passed in (``solve``: this package does not import it; :func:`exactplay.engine.solve_model`
dispatches here and wraps the result into its ``Solution``, witness ``"proper"``); the ranks, policy,
margins and ties are those :mod:`exactplay.checker._proper` verifies (:func:`_solution`).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction
from typing import Callable

from ..model import Model, ModelError
from ..numbers.backends import get_backend
from ..progress import SILENT
from .graph import InfiniteStates, infinite_states

__all__ = ["solve_proper", "ProperSolution", "MAX_ROUNDS"]

MAX_ROUNDS = 10_000  # policy iteration rounds


@dataclass
class ProperSolution:
    """What :func:`solve_proper` finds (the engine wraps it into its ``Solution``, witness ``proper``):
    per state the value vector (``None`` where +infinity), the canonical policy, ranks; margins, ties and
    action values ``q`` at the choice states; ``infinite`` (state -> witness rank); the solver's statistics."""

    values: list
    policy: list
    ranks: list
    margins: dict
    ties: dict
    q: dict
    infinite: dict
    stats: dict = field(default_factory=dict)


def solve_proper(model: Model, backend: str, solve: Callable, progress=SILENT) -> ProperSolution:
    """The exact solution of a ``never_ending = "infinite"`` model (see the module docstring).

    ``solve(model)``: the exact engine on a model where every play ends, returning ``(values, stats)``
    (per state the value vector in the backend's numbers, and the statistics as a dict)."""
    direction = model.resolved_objective()
    if model.num_players != 1 or direction not in ("max", "min"):
        raise ModelError("never_ending 'infinite' is for one player who maximises or minimises")
    B = get_backend(backend)
    progress.start(f"states of infinite value ({len(model):,} states, graph searches)", None)
    inf = infinite_states(model, direction)
    reduced = _reduced(model, inf)
    stats: dict = {}
    if not reduced.has_end_component():
        vals, stats = solve(reduced)
        values = [None if v is None else v[0] for v in vals]
    else:
        if direction == "max":
            raise RuntimeError("internal error: an end component among the finite states of Rmax")
        if any(r is not None and r[0] < 0 for rs in reduced.rewards for r in rs):
            raise ModelError("a negative reward where the minimiser can keep play going forever at finite cost "
                             "(an end component of the actions that keep the value finite): not supported "
                             "(the least expected reward need not be attained)")
        values = _policy_iteration(model, inf, B, solve, stats, progress)
    return _solution(model, inf, values, B, stats)


def _reduced(model: Model, inf: InfiniteStates) -> Model:
    """The finite states with their allowed actions; an infinite state becomes terminal (payoff 0)."""
    terminal, actions, trans, rewards = [], [], [], []
    for s in range(len(model)):
        if model.terminal[s] is not None or not inf.is_finite(s):
            terminal.append(model.terminal[s] if model.terminal[s] is not None else (Fraction(0),))
            actions.append([])
            trans.append([])
            rewards.append([])
            continue
        ok = inf.allowed[s]
        terminal.append(None)
        actions.append([model.actions[s][a] for a in ok])
        trans.append([model.trans[s][a] for a in ok])
        rewards.append([model.rewards[s][a] for a in ok])
    out = Model(name=model.name, num_players=1, player_names=list(model.player_names),
                objective=model.resolved_objective(), states=list(model.states), terminal=terminal,
                mover=[None if t is not None else m for t, m in zip(terminal, model.mover)],
                actions=actions, trans=trans, rewards=rewards, labels=model.labels, initial=model.initial)
    out.validate(distributions=False)
    return out


def _evaluate(model: Model, pol: dict[int, int], solve: Callable, stats: dict) -> list:
    """The exact values of the proper policy ``pol`` (finite state -> action index of ``model``): its
    chain, where every play ends, solved by ``solve``."""
    n = len(model)
    # an infinite state (never reached from the policy's states) becomes terminal
    terminal = [None if s in pol else model.terminal[s] or (Fraction(0),) for s in range(n)]
    chain = Model(name=model.name, num_players=1, player_names=list(model.player_names), objective="max",
                  states=list(model.states), terminal=terminal, mover=[None] * n,
                  actions=[[None] if s in pol else [] for s in range(n)],
                  trans=[[model.trans[s][pol[s]]] if s in pol else [] for s in range(n)],
                  rewards=[[model.rewards[s][pol[s]]] if s in pol else [] for s in range(n)],
                  initial=model.initial)
    if chain.has_end_component():
        raise RuntimeError("internal error: policy iteration reached a policy that does not end play")
    vals, more = solve(chain)
    for key, x in more.items():
        stats[key] = max(stats.get(key, 0), x) if key in ("largest", "largest_dense", "max_rounds") else stats.get(key, 0) + x
    return [v[0] for v in vals]


def _policy_iteration(model: Model, inf: InfiniteStates, B, solve: Callable, stats: dict, progress) -> list:
    """``min`` with end components among the finite states: the module's step 3."""
    n = len(model)
    finite = [s for s in range(n) if model.terminal[s] is None and inf.is_finite(s)]
    # a proper policy: the backward search from the terminals through the allowed actions
    preds: list[list[tuple[int, int]]] = [[] for _ in range(n)]
    for s in finite:
        for a in inf.allowed[s]:
            for t, _ in model.trans[s][a]:
                preds[t].append((s, a))
    pol: dict[int, int] = {}
    frontier = [s for s in range(n) if model.terminal[s] is not None]
    while frontier:
        nxt = []
        for t in frontier:
            for s, a in preds[t]:
                if s not in pol:
                    pol[s] = a
                    nxt.append(s)
        frontier = nxt
    if len(pol) != len(finite):
        raise RuntimeError("internal error: a finite state does not reach a terminal state by allowed actions")
    num = _numbers(B)
    for rounds in range(1, MAX_ROUNDS + 1):
        progress.start(f"policy iteration over the proper policies, round {rounds}", None)
        V = _evaluate(model, pol, solve, stats)
        switched = False
        for s in finite:
            ok = inf.allowed[s]
            if len(ok) < 2:
                continue
            q = {a: _q(model, s, a, V, num) for a in ok}
            best = min(q[a] for a in ok)
            if best < q[pol[s]]:
                pol[s] = next(a for a in ok if q[a] == best)
                switched = True
        if not switched:
            stats["rounds"] = stats.get("rounds", 0) + rounds
            stats["max_rounds"] = max(stats.get("max_rounds", 0), rounds)
            return V
    raise ModelError(f"policy iteration over the proper policies did not converge in {MAX_ROUNDS} rounds")


def _numbers(B):
    cache: dict = {}

    def num(x):
        key = (x.numerator, x.denominator)
        v = cache.get(key)
        if v is None:
            v = cache[key] = B.make(x.numerator, x.denominator)
        return v

    return num


def _q(model: Model, s: int, a: int, V: list, num):
    """``r(s, a) + sum_t p(t) V(t)`` exactly (every successor finite)."""
    r = model.rewards[s][a]
    out = num(r[0] if r is not None else _ZERO)
    for t, p in model.trans[s][a]:
        out = out + num(p) * V[t]
    return out


_ZERO = Fraction(0)


def _solution(model: Model, inf: InfiniteStates, values: list, B, stats: dict) -> ProperSolution:
    """Values (``None`` where infinite), the canonical policy, ranks, margins, ties and action values
    over the allowed actions (the rules :mod:`exactplay.checker._proper` verifies)."""
    n = len(model)
    num = _numbers(B)
    direction = inf.direction
    sign = 1 if direction == "max" else -1
    V: list = [None] * n
    for s in range(n):
        if model.terminal[s] is not None:
            V[s] = (num(model.terminal[s][0]),)
        elif inf.is_finite(s):
            V[s] = (values[s],)
    flat = [None if v is None else v[0] for v in V]
    policy: list = [None] * n
    margins, ties, q, opt = {}, {}, {}, {}
    for s in range(n):
        if model.terminal[s] is not None:
            continue
        policy[s] = 0
        if not inf.is_finite(s):
            if direction == "max":
                policy[s] = inf.action[s]
            continue
        ok = inf.allowed[s]
        qs = {a: _q(model, s, a, flat, num) for a in ok}
        best = max(sign * x for x in qs.values())
        opt[s] = [a for a in ok if sign * qs[a] == best]
        if model.mover[s] is not None and len(model.trans[s]) > 1:
            q[s] = [qs.get(a) for a in range(len(model.trans[s]))]
        if model.mover[s] is not None and len(ok) > 1:
            if len(opt[s]) > 1:
                margins[s] = num(0)
                ties[s] = list(opt[s])
            else:
                margins[s] = best - max(sign * x for a, x in qs.items() if a not in opt[s])
    ranks = _ranks(model, inf, opt)
    for s, acts in opt.items():
        if direction == "max" or len(acts) == 1:
            policy[s] = acts[0]
        else:  # the earliest optimal action with a successor of lower rank (a proper policy)
            policy[s] = next(a for a in acts if any(ranks[t] is not None and ranks[t] < ranks[s]
                                                     for t, _ in model.trans[s][a]))
    return ProperSolution(V, policy, ranks, margins, ties, q, dict(inf.rank), stats)


def _ranks(model: Model, inf: InfiniteStates, opt: dict[int, list[int]]) -> list:
    """Terminals 0; infinite states ``None``; a finite state: ``min``, one more than the least rank of a
    successor of an optimal action (a path of optimal actions to a terminal: the policy is proper);
    ``max``, one more than ``max_a min_t rank(t)`` over every action (every strategy ends play)."""
    n = len(model)
    ranks: list = [None] * n
    preds: list[list[tuple[int, int]]] = [[] for _ in range(n)]
    for s, acts in opt.items():
        for a in (acts if inf.direction == "min" else range(len(model.trans[s]))):
            for t, _ in model.trans[s][a]:
                preds[t].append((s, a))
    need = {s: (1 if inf.direction == "min" else len(model.trans[s])) for s in opt}
    seen: set[tuple[int, int]] = set()
    frontier = [s for s in range(n) if model.terminal[s] is not None]
    for s in frontier:
        ranks[s] = 0
    r = 0
    while frontier:  # layer r: every state whose last needed action got a ranked successor in layer r - 1
        r += 1
        nxt = []
        for t in frontier:
            for s, a in preds[t]:
                if ranks[s] is not None or (s, a) in seen:
                    continue
                seen.add((s, a))
                need[s] -= 1
                if need[s] == 0:
                    ranks[s] = r
                    nxt.append(s)
        frontier = nxt
    missing = [s for s in opt if ranks[s] is None]
    if missing:
        raise RuntimeError(f"internal error: state {model.state_name(missing[0])} is finite but unranked")
    return ranks
