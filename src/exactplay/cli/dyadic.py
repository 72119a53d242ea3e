"""``exactplay certify --game ... --backend ball`` and ``certify hold --backend ball``: write a ball
certificate (``-o FILE``; a name ending in ``.gz`` is written gzip-compressed, which ``check`` reads)."""

from __future__ import annotations

from ..certify.write import write_ball_certificate
from ..dyadic.certificate import refuse_unverified
from ..dyadic.fixpoint import NotEnclosed
from ..errors import EXIT_OK, UsageError
from ..model import ModelError
from ..strict_json import dumps

__all__ = ["certify_ball", "summary_line"]


def summary_line(cert: dict, run, states: int) -> str:
    E = run.enclosure
    total = run.certified + cert["decisions"]["unresolved"]
    dec = cert["answer"]["decimal"]
    shown = dec if dec is not None else "not certified to 8 decimals at this precision"
    return (f"{cert['answer']['name']} = {shown} ({states:,} states; ball certificate on the grid 2^-{E.k}: "
            f"{run.certified:,} of {total:,} decisions certified, {len(E.feedback):,} feedback states stored; "
            f"{run.seconds:.1f} s)")


def certify_ball(args, prec: int, load_model, progress) -> int:
    from ..dyadic.certificate import model_ball_certificate

    try:
        from ..api.model_source import recorded_params

        model, _ = load_model(args, progress)
        cert, run = model_ball_certificate(model, prec, progress=progress, params=recorded_params(args))
    except ModelError as exc:
        raise UsageError(str(exc)) from None
    except NotEnclosed as exc:
        raise UsageError(f"--backend ball: {exc}") from None
    name, states = model.name, len(model)
    del model  # the certificate carries the model as JSON: one copy less while the checker runs
    refuse_unverified(cert, progress)
    progress.close()
    write_ball_certificate(cert, args.output)
    if args.output == "-":
        return EXIT_OK
    if args.json:
        print(dumps({"written": args.output, "model": name, "answer": cert["answer"],
                     "decisions": cert["decisions"], "model_sha256": cert["model_sha256"]}))
    else:
        print(f"wrote {args.output}: {summary_line(cert, run, states)}")
    return EXIT_OK
