"""``solve`` (:mod:`exactplay.symbolic_cli`), ``certify``, ``audit`` and ``report`` of a PRISM, PRISM-games or JANI model and its property.

* ``certify``: the model certificate (the explicit model, checked by the standard-library checker)
  with a ``source``: the file's SHA-256, the constants, the property and its answer at each
  initial state (its threshold too), which the checker recomputes from the verified values.
* ``audit``: PRISM's float value iteration (:mod:`exactplay.interop.prism_iteration`: Gauss-Seidel
  by default, relative epsilon 1e-6, as PRISM-games runs it) against the exact values, state by
  state, with the digits PRISM prints and the threshold answers it gets wrong
  (:mod:`exactplay.interop.prism_audit`); or a float table of your own (``--float-table``).
* ``report``: the HTML page of the solution and of that audit.
"""

from __future__ import annotations

from pathlib import Path

from .errors import EXIT_OK, UsageError
from .model import ModelError
from .strict_json import dumps
from .symbolic_cli import load_symbolic, symbolic_result

__all__ = ["run_symbolic", "source_block", "certify_symbolic", "audit_symbolic", "report_symbolic"]


def run_symbolic(command: str, args, progress, parser=None) -> int:
    """``solve``, ``certify``, ``audit`` or ``report`` of a PRISM/JANI model (exact backends;
    ``parser``: the command's, for the report's line that reproduces it)."""
    from .symbolic_cli import solve_symbolic

    if command == "report":
        return report_symbolic(args, progress, parser)
    return {"solve": solve_symbolic, "certify": certify_symbolic, "audit": audit_symbolic}[command](args, progress)


def _solve(loaded, backend: str, progress):
    from .engine import solve_model

    try:
        return solve_model(loaded.model, backend, progress)
    except ModelError as exc:
        raise UsageError(str(exc)) from None


def source_block(loaded, sol) -> dict:
    """The certificate's ``source`` (:mod:`exactplay.checker._source`)."""
    from .interop.answers import answers_json, initial_answers

    q = loaded.query
    answers = initial_answers(sol, loaded.initial, q)
    threshold = None
    if q.comparison is not None:
        from .numbers import format_pq

        threshold = {"comparison": q.comparison, "bound": format_pq(q.bound), "holds": all(a.holds for a in answers)}
    return {"language": loaded.source.language, "file": Path(loaded.source.path).name,
            "file_sha256": loaded.source.sha256, "constants": dict(loaded.constants),
            "property": loaded.property_text, "property_read": q.text, "model_type": loaded.kind,
            "initial_states": answers_json(answers), "threshold": threshold}


def certify_symbolic(args, progress) -> int:
    from .model_certificate import write_certificate_file

    loaded = load_symbolic(args)
    sol = _solve(loaded, args.backend, progress)
    progress.close()
    cert = write_certificate_file(sol, args.output, source=source_block(loaded, sol), store=args.store)
    if args.output == "-":
        return EXIT_OK
    src = cert["source"]
    if args.json:
        print(dumps({"written": args.output, "model": sol.model.name, "answer": cert["answer"],
                     "model_sha256": cert["model_sha256"], "file_sha256": src["file_sha256"],
                     "initial_states": src["initial_states"], "threshold": src["threshold"]}))
    else:
        holds = "" if src["threshold"] is None else f"; threshold {'holds' if src['threshold']['holds'] else 'fails'}"
        print(f"wrote {args.output}: {loaded.describe()}: {loaded.property_text} = {cert['answer']['decimal']} "
              f"({len(sol.model):,} states{holds}; exactplay check {args.output})")
    return EXIT_OK


def _float_options(args):
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
    from .interop.prism_iteration import prism_value_iteration

    method, epsilon, iterations = _float_options(args)
    try:
        flt = prism_value_iteration(loaded.model, loaded.query.operator == "R", method, epsilon, iterations,
                                    dtmc=loaded.kind == "dtmc")
    except ModelError as exc:
        raise UsageError(str(exc)) from None
    what = (f"PRISM's value iteration ({method}, relative epsilon {epsilon:g}, at most {iterations:,} sweeps, "
            "probability-0/1 states precomputed, probabilities as nearest doubles)")
    return flt, what


def _audit_result(loaded, sol, flt, what: str, digits: int):
    from fractions import Fraction

    from .audit_result import Fact
    from .interop.prism_audit import prism_facts
    from .model_audit import audit_model

    result = audit_model(sol, flt, what, digits)
    exact = [Fraction(int(sol.values[k][0].numerator), int(sol.values[k][0].denominator)) for k in loaded.initial]
    floats = [flt.values[k][sol.components[0]] for k in loaded.initial]
    facts, _ = prism_facts(loaded.query, loaded.initial, sol.model.state_name, exact, floats)
    head = [Fact("property", "property", loaded.property_text, f"{loaded.property_text}  ({loaded.describe()})"),
            Fact("constants", None, dict(loaded.constants)), Fact("file_sha256", None, loaded.source.sha256)]
    if hasattr(flt, "converged"):
        head.append(Fact("float_converged", "float iteration",
                         {"converged": flt.converged, "sweeps": flt.sweeps, "method": flt.method,
                          "epsilon": flt.epsilon, "fixed_zero": flt.zero_states, "fixed_one": flt.one_states},
                         f"{flt.method}, {flt.sweeps:,} sweeps, "
                         + ("converged" if flt.converged else "DID NOT CONVERGE (PRISM reports an error)")
                         + f"; {flt.zero_states:,} states fixed at 0 and {flt.one_states:,} at 1 by precomputation"))
    result.headline = head + result.headline
    result.facts = facts + result.facts
    return result


def audit_symbolic(args, progress) -> int:
    from .render import emit

    loaded = load_symbolic(args)
    sol = _solve(loaded, args.backend, progress)
    progress.close()
    if args.float_table:
        from .model_table import read_model_table

        try:
            flt = read_model_table(args.float_table, loaded.model, sol.components[0])
        except ModelError as exc:
            raise UsageError(str(exc)) from None
        what = f"the float table {args.float_table}"
    else:
        flt, what = prism_float(loaded, args)
    return emit(_audit_result(loaded, sol, flt, what, args.digits), args.json)


def report_symbolic(args, progress, parser=None) -> int:
    import re

    from .render.solve import solve_report
    from .report.html import print_files, write_report
    from .report.model import model_report

    loaded = load_symbolic(args)
    sol = _solve(loaded, args.backend, progress)
    flt, what = prism_float(loaded, args)
    audit = _audit_result(loaded, sol, flt, what, 8)
    rep = model_report(sol, flt, solve_report(symbolic_result(loaded, sol, 8, False, False)), audit)
    slug = re.sub(r"[^A-Za-z0-9]+", "-", Path(loaded.source.path).stem).strip("-").lower() or "model"
    out = Path(args.output)
    out.mkdir(parents=True, exist_ok=True)
    command = ["report", "--model", args.model, "-o", "DIR"]
    if parser is not None:
        from .cli_reproduce import command_words

        command = command_words(parser, args, ["report"])
    files = write_report(out, slug, {"source": loaded.source.path, "property": loaded.property_text,
                                     **loaded.constants}, args.backend, rep, None, progress, command)
    print_files(files, args.json)
    return EXIT_OK
