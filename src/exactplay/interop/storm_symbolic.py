"""Storm's exact engine on the PRISM or JANI file itself: the cross-check of a DTMC's or an MDP's
values, state by state, with the same constants and the same property.

Storm builds the model again from the file (``stormpy.build_model[stormpy.Rational]``), checks the
property with its exact environment (rational numbers; topological or policy iteration), and each
of its states' values must equal exactplay's value of the same state (the model's state ``k`` is
Storm's state ``order[k]``; both builds explore the file the same way, which the state valuations
confirm).  A game (SMG), which Storm does not model-check, is cross-checked as MDPs instead
(:func:`exactplay.interop.storm.crosscheck`: each player fixed to exactplay's strategy in turn).
"""

from __future__ import annotations

import time
from fractions import Fraction

from ..errors import UsageError
from .storm import Check, _fraction, exact_environment

__all__ = ["crosscheck_symbolic"]


def _mine(v) -> Fraction | None:
    return None if v is None else Fraction(int(str(v[0].numerator)), int(str(v[0].denominator)))


def _fresh(loaded) -> tuple:
    """The source and the property to build again: a JANI model parsed again (Storm's build changes it in
    place, its arrays eliminated: a second build of it fails), the rest as loaded."""
    from .symbolic import _parse_one, read_source

    if loaded.source.language != "jani":
        return loaded.source, loaded.prop
    fresh = read_source(loaded.source.path)
    for p in fresh.jani_properties:
        if p.get_name() == loaded.prop.get_name():
            return fresh, p
    return fresh, _parse_one(fresh, loaded.written, None, "--prop")


def crosscheck_symbolic(loaded, sol, method: str = "topological") -> list[Check]:
    """Compare exactplay's values of a loaded DTMC/MDP property with Storm's, exactly, at every state."""
    from .storm_arrays import _valuations
    from .symbolic import instantiate, storm_error

    stormpy, env = exact_environment(method)
    source, prop = _fresh(loaded)
    program, prop = instantiate(source, loaded.constants, prop)
    t0 = time.process_time()
    try:
        options = stormpy.BuilderOptions([prop])
        options.set_build_state_valuations()
        model = stormpy.build_model[stormpy.Rational](program, options=options)
    except RuntimeError as exc:
        raise storm_error(exc, loaded.source.path) from None
    build = time.process_time() - t0
    t0 = time.process_time()
    formula = prop.get_raw_formula()
    if formula.has_bound:  # a threshold: Storm gives truth values; the values are compared, so ask for them
        formula = formula.clone()
        formula.remove_bound()
        if loaded.query.direction is not None and not formula.has_optimality_type:
            from stormpy.logic import OptimizationDirection as D

            formula.set_optimality_type(D.MAXIMIZE if loaded.query.direction == "max" else D.MINIMIZE)
    try:
        result = stormpy.model_checking(model, formula, environment=env)
    except RuntimeError as exc:
        raise UsageError(f"Storm could not check {loaded.query.text}: {str(exc).strip().splitlines()[-1]}") from None
    cpu = time.process_time() - t0
    if loaded.query.steps is None:  # every state: Storm's numbering is the model's (order)
        if model.nr_states != len(loaded.model):
            raise UsageError(f"Storm built {model.nr_states:,} states, exactplay's model has {len(loaded.model):,}")
        pairs, what = list(enumerate(loaded.order)), "Storm on the file itself"
    else:  # a step bound: Storm's value holds at (init, k), the model's initial states only
        pairs = [(k, loaded.order[k]) for k in loaded.initial]
        what = "Storm on the file itself (step bound: the initial states)"
    check = Check(f"{loaded.model_type}, {what}", loaded.query.text, len(pairs), 0, build_seconds=build,
                  check_seconds=cpu)
    ours, theirs_names = loaded.arrays.valuations, _valuations(model)
    for k, d in pairs:
        if ours is not None and theirs_names is not None and ours.of_storm_state(d) != theirs_names.of_storm_state(d):
            raise UsageError(f"Storm's second build numbers the states differently (state {d})")
        mine = _mine(sol.values[k])  # None: +infinity, as Storm's
        theirs = _fraction(result.get_value(d))
        check.compared += 1
        if mine != theirs:
            check.mismatches.append((k, mine, theirs))
    return [check]
