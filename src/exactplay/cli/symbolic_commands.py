"""``solve`` (:mod:`exactplay.cli.symbolic`), ``certify``, ``audit`` and ``report`` of a PRISM, PRISM-games or JANI model and its property.

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

from ..errors import EXIT_OK, UsageError
from ..model import ModelError
from ..strict_json import dumps
from ..api.symbolic import load_symbolic, prism_float, source_block
from .symbolic import symbolic_result

__all__ = ["run_symbolic", "certify_symbolic", "audit_symbolic", "report_symbolic"]


def run_symbolic(command: str, args, progress, parser=None) -> int:
    """``solve``, ``certify``, ``audit`` or ``report`` of a PRISM/JANI model (exact backends;
    ``parser``: the command's, for the report's line that reproduces it)."""
    from .symbolic import solve_symbolic

    if command == "report":
        return report_symbolic(args, progress, parser)
    return {"solve": solve_symbolic, "certify": certify_symbolic, "audit": audit_symbolic}[command](args, progress)


def _solve(loaded, backend: str, progress):
    from ..engine import solve_model

    try:
        return solve_model(loaded.model, backend, progress)
    except ModelError as exc:
        raise UsageError(str(exc)) from None


def certify_symbolic(args, progress) -> int:
    from ..certify.model import write_certificate_file

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


def _audit_result(loaded, sol, flt, what: str, digits: int):
    from fractions import Fraction

    from ..audit.result import Fact
    from ..interop.prism_audit import prism_facts
    from ..audit.model import audit_model

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
    from ..present.render import emit

    loaded = load_symbolic(args)
    sol = _solve(loaded, args.backend, progress)
    progress.close()
    if args.float_table:
        from ..audit.model_table import read_model_table

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

    from ..present.render.solve import solve_report
    from ..present.report.html import print_files, write_report
    from ..present.report.model import model_report

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
        from .reproduce import command_words

        command = command_words(parser, args, ["report"])
    files = write_report(out, slug, {"source": loaded.source.path, "property": loaded.property_text,
                                     **loaded.constants}, args.backend, rep, None, progress, command)
    print_files(files, args.json)
    return EXIT_OK
