"""``exactplay certify --game ... --backend ball`` and ``certify hold --backend ball``: write a ball
certificate (``-o FILE``; a name ending in ``.gz`` is written gzip-compressed, which ``check`` reads)."""

from __future__ import annotations

import gzip
import sys

from ..errors import EXIT_OK, UsageError
from ..model import ModelError
from ..present.strict_json import dumps
from ..dyadic.fixpoint import NotEnclosed

__all__ = ["certify_ball", "refuse_unverified", "summary_line", "write_ball_certificate"]


def refuse_unverified(cert: dict, progress, writer: str = "exactplay.dyadic") -> None:
    """The last line of defence before a ball certificate is written: the stdlib checker verifies
    it; if it refuses, one error line (exit status 1) and nothing is written.  The dict is checked
    as it is (the checker does not modify it; the writer's dicts hold only JSON values, so the file
    parses back to the same dict: tests/test_ball_writer_verified.py), not its text parsed again,
    which would hold a second copy of a certificate of millions of states in memory."""
    from ..checker import verify_certificate
    from ..errors import VerificationError

    progress.start("verifying the certificate with the stdlib checker before writing it", None)
    try:
        verify_certificate(cert, "the ball certificate")
    except VerificationError as exc:
        raise VerificationError(f"not written: the checker refuses {exc} (a bug of the writer, "
                                f"{writer}; please report it with the model)") from None


def write_ball_certificate(cert: dict, output: str) -> None:
    from ..certify.write import write_text_atomic

    text = dumps(cert, indent=None) + "\n"
    if output == "-":
        sys.stdout.write(text)
        return
    if output.endswith(".gz"):
        import os
        import tempfile
        from pathlib import Path

        path = Path(output)
        path.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
        try:
            with os.fdopen(fd, "wb") as fh:
                fh.write(gzip.compress(text.encode("utf-8"), 6))
            mask = os.umask(0)
            os.umask(mask)
            os.chmod(tmp, 0o666 & ~mask)
            os.replace(tmp, path)
        except BaseException:
            os.unlink(tmp)
            raise
        return
    write_text_atomic(output, text)


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
