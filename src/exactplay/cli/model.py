"""``exactplay solve|audit|certify|report --game MOD:FACTORY [--param k=v ...] | --model FILE``.

A user's own game goes through the same commands as a built-in one: the
factory (or the explicit model file) is compiled into a model, the exact
engine solves it, and the result is printed, audited or certified.
:func:`add_options` declares the options on the command's parser (beside the
built-in GAMEs, :mod:`exactplay.cli.sources`), :func:`run` runs what was parsed.
"""

from __future__ import annotations

import argparse

from ..present.render import emit
from ..errors import EXIT_OK, UsageError
from ..model import ModelError
from ..numbers.backends import int_option
from ..api.model_source import load_model
from ..strict_json import dumps

__all__ = ["DESCRIPTION", "add_options", "add_max_states", "add_all_states", "run"]

DESCRIPTION = {  # what the command does with your own game (its parser's description, after the built-in games')
    "solve": "Solve your own game exactly: the value, the optimal action and the exact margin to the runner-up "
             "in every state, every exact tie.",
    "audit": "Audit a float solution of your game against the exact one: float value iteration (default) or "
             "your own table (--float-table).",
    "certify": "Write a certificate (JSON) of your game's exact solution; `exactplay check FILE` re-verifies it.",
    "report": "Write an HTML report (figures embedded) and the PNGs of your game's exact solution and float audit.",
}


def add_options(p: argparse.ArgumentParser, command: str) -> None:
    """The options of ``command`` for a ``--game`` factory or a ``--model`` file (on the command's
    parser, beside the built-in GAMEs: :mod:`exactplay.cli.sources`; which kind of input takes which
    is :data:`exactplay.cli.inputs.INPUT_KINDS`'s)."""
    src = p.add_mutually_exclusive_group()  # one of them or a GAME: exactplay.cli.sources.run says so
    src.add_argument("--game", metavar="MOD:FACTORY",
                     help="a Python factory: module:function or path/to/file.py:function")
    src.add_argument("--model", metavar="FILE", help="an explicit model file (JSON, format exactplay-model) or "
                                                     "Storm's DRN (FILE.drn, with --objective and --target)")
    p.add_argument("--param", action="append", metavar="NAME=VALUE",
                   help="a parameter for the factory (repeatable); integers stay integers, p/q and decimals "
                        "become exact fractions")
    p.add_argument("--backend", choices=["mpq", "fraction", "ball", "auto"], default="mpq",
                   help="exact arithmetic: gmpy2 mpq (default) or fractions.Fraction; ball: certified "
                        "enclosures in arb balls (solve, audit); auto: balls, then exact if they leave a decision open")
    p.add_argument("--prec", type=int_option, default=None, metavar="BITS",
                   help="working precision of --backend ball|auto in bits. Without it: 128 (measured, "
                        "benchmarks/ball_default.py: on Pig 53, 64 and 128 bits cost the same and certify every "
                        "decision, so the finest runs; the exact engine, the default --backend mpq, is faster "
                        "still: Pig to 30 in 0.9 s of CPU against 16 s in balls)")
    add_max_states(p)
    p.add_argument("--json", action="store_true", help="print JSON (exact numbers as \"p/q\")")
    p.add_argument("--quiet", "-q", action="store_true", help="no progress display")
    if command in ("solve", "audit"):
        p.add_argument("--digits", type=int_option, default=8, help="decimals to print (default 8)")
    if command == "solve":
        p.add_argument("--full", action="store_true", help="print long numbers in full")
        add_all_states(p)
    if command == "audit":
        p.add_argument("--float-table", metavar="FILE",
                       help="audit this table instead of float value iteration: rows 'STATE VALUE', STATE the "
                            "state's name as solve --all prints it or its number (solve --json); a header 'name "
                            "value' or 'number value' says which; JSON rows [state, value]; '-' reads stdin")
    from ..api.model_source import add_drn_arguments

    add_drn_arguments(p)
    from .symbolic import add_symbolic_arguments

    add_symbolic_arguments(p, command)
    if command == "certify":
        p.add_argument("-o", "--output", metavar="FILE", help="certificate file to write ('-': stdout)")
        p.add_argument("--store", choices=("values", "policy"), default="values",
                       help="store every state's values and margins (default), or the policy only: the checker "
                            "then evaluates it exactly (smaller; a cycle of the policy through more than 5,000 "
                            "feedback states is refused by the checker: store the values)")
    if command in ("solve", "certify"):
        from ..distributed.options import add_options as add_distributed_options

        add_distributed_options(p, tile=False)
    if command == "report":
        p.add_argument("-o", "--output", metavar="DIR", help="directory for the HTML file and PNGs")


def add_max_states(p):
    return p.add_argument("--max-states", type=int_option, default=None, metavar="N",
                          help="refuse games with more reachable states (default 3,000,000)")


def add_all_states(p):
    return p.add_argument("--all", dest="all_states", action="store_true",
                          help="list every state (value, action, margin); JSON always has them")


def run(args, parser) -> int:
    """``COMMAND --game|--model ...``, parsed (``parser``: the command's) and its options checked."""
    from ..progress import make_progress

    command = args.command
    if command == "report":
        from ..present.report import check_output_dir

        check_output_dir(args.output)
    if command in ("solve", "audit") and not 0 <= args.digits <= 10000:
        raise UsageError("--digits must be between 0 and 10000")
    if command == "certify" and args.output != "-":
        from ..paths import check_writable

        check_writable(args.output)
    ball = _ball_backend(args, command)
    progress = make_progress(args.quiet, args.json)
    try:
        from ..interop.file_kind import is_symbolic

        if ball is None and is_symbolic(args.model):  # a PRISM/JANI model and its property
            from .symbolic_commands import run_symbolic

            return run_symbolic(command, args, progress, parser)
        if ball is not None and command == "certify":
            from .dyadic import certify_ball

            return certify_ball(args, ball.prec, load_model, progress)
        if ball is not None:
            return emit(_run_ball(args, command, ball, progress), args.json)
        qvbs = getattr(args, "qvbs_result", None)
        if qvbs:
            from ..paths import check_writable

            check_writable(qvbs)  # before the work, not after
        try:
            model, source = load_model(args, progress)
            from ..engine import solve_model
            from ..distributed.options import engine_solution, requested

            sol = (engine_solution(model, args, progress) if requested(args)
                   else solve_model(model, args.backend, progress))  # every state is shown or written
        except ModelError as exc:
            raise UsageError(str(exc)) from None
        if command == "solve":
            from ..present.render.solution import solution_report

            report = solution_report(sol, args.digits, args.full, args.all_states, source, every_row=args.json)
            if qvbs:
                _write_qvbs(args, sol)
        elif command == "audit":
            report = _audit(args, model, sol, progress)
        elif command == "report":
            from .reproduce import command_words

            return _report(args, model, sol, source, progress, command_words(parser, args, [command]))
        else:
            return _certify(args, sol)
    finally:
        progress.close()
    return emit(report, args.json)




def _write_qvbs(args, sol) -> None:
    """``--qvbs-result FILE`` of a DRN model: its property's exact value at each initial state."""
    import hashlib
    import shlex
    from pathlib import Path

    from ..certify.write import write_text_atomic
    from ..interop.answers import InitialAnswer
    from ..interop.qvbs_result import qvbs_text, result_file
    from ..numbers.backends import as_fraction

    words = ["exactplay", "solve", "--model", args.model, "--objective", args.objective, "--target", args.target]
    for flag, value in (("--avoid", args.avoid), ("--reward", args.reward)):
        if value:
            words += [flag, value]
    words += ["--qvbs-result", args.qvbs_result]
    reach = f'F {args.target}' if not args.avoid else f'!({args.avoid}) U {args.target}'
    op = args.objective[0] + ("" if not args.reward else f'{{"{args.reward}"}}') + args.objective[1:]
    answers = [InitialAnswer(k, sol.model.state_name(k), None if sol.values[k] is None else as_fraction(sol.values[k][0]),
                             reason=sol.infinite_reason(k)) for k in sol.model.initial_states]
    sha = hashlib.sha256(Path(args.model).read_bytes()).hexdigest()
    text = qvbs_text(result_file(args.model, sha, {}, args.objective, f"{op}=? [{reach}]", len(sol.model), answers,
                                 False, shlex.join(words)))
    try:
        write_text_atomic(args.qvbs_result, text)
    except OSError as exc:
        raise UsageError(f"--qvbs-result {args.qvbs_result}: cannot write ({exc.strerror or exc})") from None


def _ball_backend(args, command: str):
    """The ball Backend of ``--backend ball|auto`` (None for the exact backends)."""
    from ..numbers.backends import Backend, get_backend

    if args.backend not in ("ball", "auto"):
        if args.prec is not None:
            raise UsageError(f"--prec sets the precision of --backend ball or auto, not of {args.backend}")
        return None
    if command == "certify" and args.backend == "auto":
        raise UsageError("certify writes a ball certificate with --backend ball, an exact one with --backend mpq; "
                         "not auto")
    if command not in ("solve", "audit", "certify"):
        raise UsageError(f"{command} runs in exact arithmetic: use --backend mpq")
    if getattr(args, "float_table", None):
        raise UsageError("--float-table is judged against exact values: use --backend mpq")
    B = get_backend("ball", args.prec)
    return B if args.backend == "ball" else Backend("auto", B.kind, False, B.make, B.prec, B.prec_default)


def _run_ball(args, command: str, B, progress):
    from ..engine.ball import Unresolved
    from ..audit.model_ball import audit_ball, solve_ball

    try:
        model, source = load_model(args, progress)
        progress.close()
        # never_ending "infinite" with an end component: exact only (auto goes there at once)
        exact_only = model.never_ending == "infinite" and model.has_end_component()
        if exact_only and args.backend != "auto":
            from ..engine.structure import EXACT_ONLY

            raise UsageError(f"--backend ball: {EXACT_ONLY}")
        if command == "solve":
            def exact_report():
                from ..engine import solve_model
                from ..present.render.solution import solution_report

                return solution_report(solve_model(model, "mpq", progress), args.digits, args.full,
                                       args.all_states, source)

            if exact_only:
                return exact_report()
            return solve_ball(model, B, args.digits, source, exact_report)
        from ..engine.value_iteration import value_iteration

        def exact_audit():
            from ..engine import solve_model

            from ..present.render import as_report

            return as_report(_audit(args, model, solve_model(model, "mpq", progress), progress))

        if exact_only:
            return exact_audit()
        flt = value_iteration(model, progress=progress)
        progress.close()

        return audit_ball(model, B, args.digits, flt, "float value iteration (Gauss-Seidel, stop when a sweep "
                          "changes < 1e-15)", exact_audit)
    except ModelError as exc:
        raise UsageError(str(exc)) from None
    except Unresolved as exc:
        raise UsageError(f"--backend ball: {exc}") from None


def _audit(args, model, sol, progress):
    from ..engine.value_iteration import value_iteration
    from ..audit.model import audit_model

    if args.float_table:
        from ..audit.model_table import read_model_table

        flt = read_model_table(args.float_table, model, sol.components[0])
        return audit_model(sol, flt, f"the float table {args.float_table}", args.digits)
    flt = value_iteration(model, progress=progress, infinite=sol.infinite)
    return audit_model(sol, flt, "float value iteration (Gauss-Seidel, stop when a sweep changes < 1e-15)",
                        args.digits)


def _certify(args, sol) -> int:
    from ..api.model_source import recorded_params
    from ..certify.model import write_certificate_file

    cert = write_certificate_file(sol, args.output, params=recorded_params(args), store=args.store)
    if args.output == "-":
        return EXIT_OK
    starts = cert.get("initial_states")
    if args.json:
        print(dumps({"written": args.output, "model": sol.model.name, "params": cert["params"],
                     "answer": cert["answer"], **({"initial_states": starts} if starts else {}),
                     "model_sha256": cert["model_sha256"]}))
    else:
        shown = "" if not starts else (f"; {len(starts['values']):,} initial states, values in "
                                       f"[{starts['smallest']['decimal']}, {starts['largest']['decimal']}]")
        print(f"wrote {args.output}: {cert['answer']['name']} = {cert['answer']['decimal']}{shown} "
              f"({len(sol.model):,} states, witness {sol.witness})")
    return EXIT_OK


def _report(args, model, sol, source, progress, command: list[str]) -> int:
    import re

    from ..engine.value_iteration import value_iteration
    from ..audit.model import audit_model
    from ..present.render.solution import solution_report
    from ..present.report.html import print_files, write_report
    from ..present.report.model import model_report

    flt = value_iteration(model, progress=progress, infinite=sol.infinite)
    result = audit_model(sol, flt, "float value iteration")
    rep = model_report(sol, flt, solution_report(sol, 8, False, False, source), result)
    slug = re.sub(r"[^A-Za-z0-9]+", "-", model.name).strip("-").lower() or "model"
    from pathlib import Path

    out = Path(args.output)
    out.mkdir(parents=True, exist_ok=True)
    files = write_report(out, slug, {"source": source}, args.backend, rep, None, progress, command)
    print_files(files, args.json)
    return EXIT_OK
