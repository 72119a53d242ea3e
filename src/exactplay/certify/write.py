"""Writing certificates: strict JSON with exact numbers as ``"p/q"``, written atomically.

A certificate is version 2 of the format ``"exactplay-certificate"``; its kind says what it
proves and who wrote it: ``"game"`` (a built-in game, :mod:`exactplay.certify.game`),
``"model"`` (any model, :mod:`exactplay.certify.model`), ``"ball"`` and ``"parametric"``.
The independent reader lives in :mod:`exactplay.checker`; it shares no code with the writers.
"""

from __future__ import annotations

import contextlib
from pathlib import Path

from ..strict_json import dumps


def write_certificate(cert: dict, path: str | Path) -> Path:
    """Write ``cert`` as JSON (indented, keys in a fixed order) and return the path."""
    return write_text_atomic(path, dumps(cert, indent=1) + "\n")


def write_ball_certificate(cert: dict, output: str) -> None:
    """Write a ball certificate on one line: to stdout for ``-``, gzip-compressed (level 6) for a
    name ending in ``.gz`` (which ``check`` reads), else as text."""
    import sys

    text = dumps(cert, indent=None) + "\n"
    if output == "-":
        sys.stdout.write(text)
    else:
        write_text_atomic(output, text, gzipped=output.endswith(".gz"))


def write_text_atomic(path: str | Path, text: str, gzipped: bool = False) -> Path:
    """Write ``text`` (UTF-8; gzip-compressed if ``gzipped``) to a temporary file beside ``path``,
    then rename it: never a half-written file."""
    import gzip

    data = text.encode("utf-8")
    with open_atomic(path, binary=True) as f:
        f.write(gzip.compress(data, 6) if gzipped else data)
    return Path(path)


@contextlib.contextmanager
def open_atomic(path: str | Path, binary: bool = False):
    """A text file (UTF-8; bytes if ``binary``) to write ``path`` through, piece by piece: a temporary
    file beside it, renamed to ``path`` when the block ends normally, removed if it raises (never a
    half-written file)."""
    import os
    import tempfile

    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        with (os.fdopen(fd, "wb") if binary else os.fdopen(fd, "w", encoding="utf-8")) as f:
            yield f
        umask = os.umask(0)
        os.umask(umask)
        os.chmod(tmp, 0o666 & ~umask)  # the mode an ordinary open() would give, not mkstemp's 0600
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
