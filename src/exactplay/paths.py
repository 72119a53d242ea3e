"""Output paths, checked before any computing."""

from __future__ import annotations

from pathlib import Path

from .errors import UsageError

__all__ = ["check_writable"]


def check_writable(output: str) -> None:
    """One clear error now if ``output`` cannot become a file (directory, bad parent, no permission)."""
    path = Path(output)
    if not output or path.is_dir():
        raise UsageError(f"-o {output!r}: give a file name, not a directory")
    existed = path.exists()
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        with open(path, "a", encoding="utf-8"):
            pass
    except OSError as exc:
        raise UsageError(f"-o {output}: cannot write there ({exc.strerror or exc})") from None
    if not existed:
        path.unlink()
