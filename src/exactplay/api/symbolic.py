"""A PRISM, PRISM-games or JANI model loaded from the options (``--model FILE --const --prop``),
the ``source`` its certificate states, and PRISM's float value iteration of its property.

The command line (:mod:`exactplay.cli.symbolic`) and the Python API share these.
"""

from __future__ import annotations

from pathlib import Path

from ..errors import UsageError
from ..model import ModelError

__all__ = ["load_symbolic", "prism_float", "source_block"]


def load_symbolic(args):
    """The :class:`~exactplay.interop.symbolic_model.Loaded` model and question of the options."""
    from ..interop.symbolic_model import load

    try:
        loaded = load(args.model, args.const, args.prop, args.props, args.fix_deadlocks)
    except ModelError as exc:
        raise UsageError(str(exc)) from None
    limit = getattr(args, "max_states", None)
    if limit is not None and len(loaded.model) > limit:
        raise UsageError(f"{args.model}: {len(loaded.model):,} states is more than --max-states {limit:,}")
    return loaded


def source_block(loaded, sol) -> dict:
    """The certificate's ``source`` (:mod:`exactplay.checker._source`)."""
    from ..interop.answers import answers_json, initial_answers

    q = loaded.query
    answers = initial_answers(sol, loaded.initial, q)
    threshold = None
    if q.comparison is not None:
        from ..numbers.backends import format_pq

        threshold = {"comparison": q.comparison, "bound": format_pq(q.bound), "holds": all(a.holds for a in answers)}
    return {"language": loaded.source.language, "file": Path(loaded.source.path).name,
            "file_sha256": loaded.source.sha256, "constants": dict(loaded.constants),
            "property": loaded.property_text, "property_read": q.text, "model_type": loaded.model_type.lower(),
            "initial_states": answers_json(answers), "threshold": threshold}


def float_options(args):
    method = getattr(args, "float_method", None) or "gauss-seidel"
    epsilon = 1e-6 if getattr(args, "epsilon", None) is None else args.epsilon
    iterations = 10_000 if getattr(args, "max_iterations", None) is None else args.max_iterations
    if not 0 < epsilon < 1:
        raise UsageError("--epsilon must be between 0 and 1")
    if iterations < 1:
        raise UsageError("--max-iterations must be at least 1")
    return method, epsilon, iterations


def prism_float(loaded, args):
    """PRISM's float solution of the loaded property, and what to call it."""
    from ..interop.prism_iteration import prism_value_iteration

    method, epsilon, iterations = float_options(args)
    try:
        flt = prism_value_iteration(loaded.model, loaded.query.operator != "P", method, epsilon, iterations,
                                    dtmc=loaded.kind == "dtmc", cumulative=loaded.query.cumulative)
    except ModelError as exc:
        raise UsageError(str(exc)) from None
    what = (f"PRISM's value iteration ({method}, relative epsilon {epsilon:g}, at most {iterations:,} sweeps, "
            "probability-0/1 states precomputed, probabilities as nearest doubles)")
    return flt, what
