"""``--model FILE.prism|FILE.jani`` on the command line: the property options, loading, and solve.

::

    exactplay solve --model dice.prism --const N=3 --prop '<<P1>> Pmax=? [F "p1win"]'
    exactplay solve --model dice.prism --const N=3 --prop 1          (the first property of dice.props)
    exactplay solve --model model.jani --prop NAME                   (a property named in the JANI file)

The output names everything as the model does: the value of each initial state, the states by
their variable valuation, the choices by their action labels, the threshold's exact answer.  The
options a PRISM/JANI model takes are declared with the other inputs' (:mod:`exactplay.cli.inputs`,
which refuses the others).
"""

from __future__ import annotations

from ..errors import EXIT_OK, UsageError
from ..model import ModelError
from ..numbers.backends import format_pq

__all__ = ["add_symbolic_arguments", "solve_symbolic",
           "symbolic_result"]

def add_symbolic_arguments(p, command: str = "solve") -> None:
    g = p.add_argument_group("a PRISM, PRISM-games or JANI model (FILE.prism, FILE.jani; needs stormpy)")
    g.add_argument("--const", metavar="NAME=VALUE,...",
                   help="values of the model's undefined constants, e.g. N=3,p=0.2 (decimals are exact: 0.2 = 1/5)")
    g.add_argument("--prop", metavar="PROPERTY",
                   help="a property ('<<p1>> Pmax=? [F \"win\"]'), or the name or number (1, 2, ...) of one in "
                        "the .props file beside the model (or --props), or a property named in the JANI file")
    g.add_argument("--props", metavar="FILE", help="the properties file (default: FILE.props beside the model)")
    g.add_argument("--fix-deadlocks", action="store_true",
                   help="keep Storm's self-loops on deadlock states (as PRISM's -fixdl), instead of refusing them")
    if command in ("audit", "report"):
        add_audit_arguments(p)
    if command == "solve":
        g.add_argument("--qvbs-result", metavar="FILE",
                       help="also write the exact result in the QVBS result-file format (value: approx, num, den; "
                            "a PRISM, JANI or DRN model)")


def add_audit_arguments(p) -> None:
    from ..interop.prism_iteration import METHODS

    g = p.add_argument_group("audit of a PRISM or JANI model: PRISM's float value iteration")
    g.add_argument("--float-method", choices=METHODS, default=None,
                   help="gauss-seidel (default; PRISM-games' digits) or jacobi (PRISM's -valiter for MDPs)")
    g.add_argument("--epsilon", type=float, default=None, metavar="E",
                   help="stop when every state's relative change is below E (default 1e-6, PRISM's)")
    g.add_argument("--max-iterations", type=int, default=None, metavar="N", help="at most N sweeps (default 10000)")


def symbolic_result(loaded, sol, digits: int = 8, full: bool = False, all_states: bool = False,
                    every_row: bool = True):
    """The :class:`~exactplay.solve_result.SolveResult` of a solved PRISM/JANI model: the engine's
    (every state named by its valuation, choices by their labels, margins, ties), headed by the
    property, the constants and the answer at each initial state; ``every_row=False``: only the
    state rows the text shows (as :func:`~exactplay.present.render.solution.solution_result`)."""
    from ..audit.result import Fact
    from ..interop.answers import answers_json, initial_answers, short_pq, threshold_text
    from ..present.render.solution import solution_result

    q = loaded.query
    result = solution_result(sol, digits, full, all_states, loaded.source.path, every_row)
    answers = initial_answers(sol, loaded.initial, q)
    kind = loaded.model_type
    result.title = (f"{loaded.describe()}: {loaded.property_text}  ({kind}, {len(sol.model):,} states, "
                    f"{len(sol.margins):,} with a choice)")
    first = answers[0]
    # the side whose objective the query states: the coalition of <<...>> (whichever player index it
    # has in the model), else the one player who chooses
    coalition = [n for n in sol.model.player_names if n.startswith("<<")] if getattr(q, "coalition", None) else []
    who = coalition[0] if coalition else sol.model.player_names[sol.components[0]]
    result.answer_label = (f"{q.operator} at the initial state {first.name}"
                           + (f" ({who} {'maximises' if q.direction == 'max' else 'minimises'})"
                              if q.direction else "") + ":")
    facts = [
        Fact("property", "property", loaded.property_text, f"{loaded.property_text}  (from {loaded.property_origin})"),
        Fact("property_read", None, q.text),
        Fact("property_name", None, q.name),
        Fact("constants", "constants" if loaded.constants else None, dict(loaded.constants),
             ", ".join(f"{k}={v}" for k, v in loaded.constants.items())),
        Fact("model_type", None, loaded.model_type.lower()),
        Fact("file_sha256", None, loaded.source.sha256),
        Fact("initial_states", "initial states" if len(answers) > 1 else None, answers_json(answers),
             "; ".join(f"{a.name}: {short_pq(a.value)}" for a in answers[:5])
             + (f"; ... {len(answers) - 5} more" if len(answers) > 5 else "")),
    ]
    if q.comparison is not None:
        facts.append(Fact("threshold", "threshold",
                          {"comparison": q.comparison, "bound": format_pq(q.bound), "holds": all(a.holds for a in answers)},
                          threshold_text(q, answers)))
    if loaded.deadlocks:
        facts.append(Fact("deadlocks_fixed", "deadlocks", len(loaded.deadlocks),
                          f"{len(loaded.deadlocks):,} states with no enabled command: a self-loop added (--fix-deadlocks)"))
    from ..solve_result import Table

    kept = []
    for f in result.facts:  # the property's value is component 0: the other side's is not shown
        if f.key == "initial_values":
            continue
        if isinstance(f, Table) and f.key == "state_values":
            for row in f.rows:
                row["value"] = None if row["value"] is None else row["value"][:1]
            for row in f.text_rows or []:
                row["value"] = row["value"].split(", ")[0]
        elif f.key == "state_values":
            for row in f.value:
                row["value"] = None if row["value"] is None else row["value"][:1]
        kept.append(f)
    if sol.model.initial not in sol.margins:
        result.decisions = []  # the initial state has no choice (a choice state has a margin)
    result.facts = facts + kept
    return result


def solve_symbolic(args, progress) -> int:
    """``exactplay solve --model FILE.prism|jani``."""
    from ..engine import solve_model
    from ..present.render import emit
    from ..present.render.solve import solve_report

    if args.qvbs_result:
        from ..paths import check_writable

        check_writable(args.qvbs_result)  # before the work, not after
    from ..api.symbolic import load_symbolic

    loaded = load_symbolic(args)
    try:
        sol = solve_model(loaded.model, args.backend, progress)
    except ModelError as exc:
        raise UsageError(str(exc)) from None
    progress.close()
    if args.qvbs_result:
        _write_qvbs(args, loaded, sol)
    emit(solve_report(symbolic_result(loaded, sol, args.digits, args.full, args.all_states, every_row=args.json)),
         args.json)
    return EXIT_OK


def _write_qvbs(args, loaded, sol) -> None:
    import shlex

    from ..certify.write import write_text_atomic
    from ..interop.answers import initial_answers
    from ..interop.qvbs_result import qvbs_result, qvbs_text

    words = ["exactplay", "solve", "--model", args.model]
    for flag, value in (("--const", args.const), ("--prop", args.prop), ("--props", args.props)):
        if value:
            words += [flag, value]
    if args.fix_deadlocks:
        words.append("--fix-deadlocks")
    words += ["--qvbs-result", args.qvbs_result]
    answers = initial_answers(sol, loaded.initial, loaded.query)
    try:
        write_text_atomic(args.qvbs_result, qvbs_text(qvbs_result(loaded, answers, shlex.join(words))))
    except OSError as exc:
        raise UsageError(f"--qvbs-result {args.qvbs_result}: cannot write ({exc.strerror or exc})") from None
