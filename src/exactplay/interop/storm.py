"""Running Storm (stormpy, ``pip install 'exactplay[storm]'``) in exact mode, and the cross-check.

Storm's exact mode, as stormpy 2.0 spells it::

    model = stormpy.build_model_from_drn[stormpy.Rational](path)       # rational numbers throughout
    prop = stormpy.parse_properties('Pmax=? [F "target"]')[0]
    env = stormpy.environments.exact()         # force_exact; linear and min-max solver: topological
    env.solver().min_max().method = stormpy.environments.MinMaxMethod.POLICY_ITERATION   # optional
    result = stormpy.model_checking(model, prop, environment=env)
    result.get_value(state)                                             # a gmp rational

Cross-check (:func:`crosscheck`): the model is written as DRN (state N is exactplay's state N), Storm
computes every state's value exactly, and each must equal exactplay's, exactly.  A two-player
zero-sum game, which Storm does not model-check, is checked twice: with the minimiser fixed to
exactplay's strategy Storm's ``Pmax`` must be exactplay's value at every state, and with the
maximiser fixed Storm's ``Pmin`` must be too (so both strategies are optimal and the value is the
game's value).  A game of several players who each maximise their own payoff (choices not on a
common cycle, as the engine requires) is checked once per chooser, the other choosers fixed: Storm's
best reply must be exactplay's value of that player's payoff at every state.  Payoffs other than
0/1, and rewards, are checked as ``R[C]`` (Storm refuses negative rewards there), a model with
``never_ending = "infinite"`` as ``R[F "terminal"]``: Storm's +infinity (a float) must be exactplay's
(a value ``None``), state by state.
"""

from __future__ import annotations

import os
import tempfile
import time
from dataclasses import dataclass, field
from fractions import Fraction

from ..errors import UsageError
from ..model import Model
from . import Formulation, choosers, fix_player, formulate
from .drn import write_drn

__all__ = ["stormpy_or_fail", "storm_values", "storm_check_drn", "crosscheck", "Check",
           "METHODS"]

METHODS = ("topological", "policy-iteration")


def stormpy_or_fail():
    try:
        import stormpy  # noqa: F401
    except ImportError:
        raise UsageError("Storm is not installed: pip install 'exactplay[storm]' (stormpy)") from None
    return stormpy


def exact_environment(method: str = "topological"):
    stormpy = stormpy_or_fail()
    from stormpy import environments as E

    env = E.exact()
    solver = env.solver()
    if not solver.force_exact:
        raise RuntimeError("stormpy's exact environment does not force exact computation")
    solver.min_max().method = {"topological": E.MinMaxMethod.TOPOLOGICAL,
                               "policy-iteration": E.MinMaxMethod.POLICY_ITERATION}[method]
    return stormpy, env


def _fraction(v) -> Fraction | None:
    """Storm's exact value as a Fraction; its +infinity (a Python float, an expected reward where a
    strategy may never reach the target) as None, the way exactplay's solution holds it."""
    if isinstance(v, float):
        if v == float("inf"):
            return None
        raise RuntimeError(f"Storm returned the float {v!r} in exact mode")
    return Fraction(int(str(v.numerator)), int(str(v.denominator)))  # gmp integers convert through their text


def storm_values(model, formula: str, method: str = "topological", program=None) -> tuple[list[Fraction], float]:
    """Storm's exact value of every state of a built (rational) model, and the CPU seconds it took."""
    stormpy, env = exact_environment(method)
    try:
        props = stormpy.parse_properties(formula, program) if program is not None else stormpy.parse_properties(formula)
        t0 = time.process_time()
        result = stormpy.model_checking(model, props[0], environment=env)
        cpu = time.process_time() - t0
    except RuntimeError as exc:
        raise UsageError(f"Storm could not check {formula}: {str(exc).strip().splitlines()[-1]}") from None
    if result is None:
        raise UsageError(f"Storm returned no result for {formula}")
    if not result.is_result_for_all_states:
        raise RuntimeError("Storm's result does not cover every state")
    return [_fraction(result.get_value(s)) for s in range(model.nr_states)], cpu


def storm_check_drn(path: str, formula: str, method: str = "topological", with_initial: bool = False) -> tuple:
    """Build the DRN file exactly and check ``formula``: ``(values, build seconds, check seconds)``, and
    with ``with_initial`` Storm's initial states of the model it built (sorted) after them."""
    stormpy = stormpy_or_fail()
    t0 = time.process_time()
    try:
        model = stormpy.build_model_from_drn[stormpy.Rational](str(path))
    except RuntimeError as exc:  # Storm's parser: one line
        raise UsageError(f"Storm cannot read {path}: {str(exc).strip().splitlines()[-1]}") from None
    build = time.process_time() - t0
    values, cpu = storm_values(model, formula, method)
    if with_initial:
        return values, build, cpu, sorted(int(x) for x in model.initial_states)
    return values, build, cpu


@dataclass
class Check:
    """One model-checking run compared with exactplay."""

    what: str  # e.g. "Pmax, second player fixed"
    formula: str
    states: int
    compared: int
    mismatches: list[tuple[int, Fraction, Fraction]] = field(default_factory=list)  # (state, exactplay, storm)
    build_seconds: float = 0.0
    check_seconds: float = 0.0

    @property
    def ok(self) -> bool:
        return not self.mismatches


def _check_one(model: Model, form: Formulation, values: list[Fraction], what: str, method: str,
               workdir: str) -> Check:
    path = os.path.join(workdir, "model.drn")
    with open(path, "w", encoding="utf-8") as f:
        f.write(write_drn(model, form))
    formula = form.formula()
    as_probability = None
    if form.reward and not any(form.action_reward(model, s, a) for s in range(len(model))
                               if model.terminal[s] is None for a in range(len(model.trans[s]))):
        # Storm drops a reward model whose rewards are all 0 (and then refuses R): every value is 0, or,
        # until a terminal state, 0 exactly where the terminals are reached with probability 1 (Rmin:
        # by some strategy, Pmax = 1; Rmax: by every strategy, Pmin = 1) and +infinity elsewhere
        if form.until:
            as_probability = {"min": "max", "max": "min"}.get(form.direction or "", "")
            formula = f'P{as_probability}=? [F "terminal"]'
        else:
            formula = f"P{form.direction or ''}=? [F false]"
    storm, build, cpu = storm_check_drn(path, formula, method)
    if as_probability is not None:
        storm = [Fraction(0) if x == 1 else None for x in storm]
    check = Check(what, formula, len(model), 0, build_seconds=build, check_seconds=cpu)
    for s in range(len(model)):
        want = form.expected(model, values[s], s)
        check.compared += 1
        if storm[s] != want:
            check.mismatches.append((s, want, storm[s]))
    return check


def _values(sol, c: int) -> list[Fraction]:
    if c not in sol.components:
        raise UsageError(f"exactplay's solution does not hold the payoff component {c}")
    k = sol.components.index(c)
    return [None if v is None else Fraction(int(v[k].numerator), int(v[k].denominator)) for v in sol.values]


def _crosscheck_each_player(model: Model, sol, method: str) -> list[Check]:
    """Several players, each maximising its own payoff: fix all but one to exactplay's strategies;
    Storm's best reply (Pmax or Rmax of that player's payoff) must be exactplay's value, for each."""
    players = choosers(model)
    checks = []
    with tempfile.TemporaryDirectory(prefix="exactplay-storm-") as tmp:
        for i in players:
            mdp = model
            for j in players:
                if j != i:
                    mdp = fix_player(mdp, sol.policy, j)
            form = formulate(mdp)
            if form.players != [i] or form.component != i:
                raise RuntimeError("fixing the other players did not leave one chooser")
            what = f"{form.operator} of {model.player_names[i]}, the other players fixed to exactplay's strategies"
            checks.append(_check_one(mdp, form, _values(sol, i), what, method, tmp))
    return checks


def crosscheck(model: Model, sol, method: str = "topological") -> list[Check]:
    """Compare exactplay's solution ``sol`` of ``model`` with Storm's exact values, state by state."""
    players = choosers(model)
    if len(players) > 1 and model.resolved_objective() == "max":
        return _crosscheck_each_player(model, sol, method)
    form = formulate(model)
    c = form.component
    if c not in sol.components:
        raise UsageError(f"exactplay's solution does not hold component {c}")
    values = _values(sol, c)
    checks = []
    with tempfile.TemporaryDirectory(prefix="exactplay-storm-") as tmp:
        if form.kind != "smg":
            label = {"dtmc": "DTMC", "mdp": f"MDP, {model.player_names[form.players[0]] if form.players else ''} "
                                              f"{'maximises' if form.direction == 'max' else 'minimises'}"}[form.kind]
            checks.append(_check_one(model, form, values, label, method, tmp))
        else:
            for fixed in form.players:
                other = next(p for p in form.players if p != fixed)
                mdp = fix_player(model, sol.policy, fixed)
                mform = formulate(mdp)
                if mform.component != c or mform.players != [other]:
                    raise RuntimeError("fixing a player did not leave the other as the only chooser")
                what = f"{mform.operator} with {model.player_names[fixed]} fixed to exactplay's strategy"
                checks.append(_check_one(mdp, mform, values, what, method, tmp))
    return checks
