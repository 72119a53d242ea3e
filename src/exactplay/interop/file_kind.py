"""Whether a file is a PRISM or JANI model, without importing the symbolic reader (:mod:`.symbolic`):
the command line asks it of every ``--model`` file, a DRN or JSON one included."""

from __future__ import annotations

import re

__all__ = ["PRISM_SUFFIXES", "is_symbolic"]

PRISM_SUFFIXES = (".prism", ".pm", ".nm", ".sm", ".smg", ".prism-games")


def is_symbolic(path: str | None) -> bool:
    """A PRISM or JANI file: by extension, or (other than .json and .drn) by its first character."""
    if not path:
        return False
    low = str(path).lower()
    if low.endswith(PRISM_SUFFIXES) or low.endswith(".jani"):
        return True
    if low.endswith((".json", ".drn", ".gz")):
        return False
    try:
        with open(path, "rb") as f:
            head = f.read(4096)
    except OSError:
        return False
    head = head.removeprefix(b"\xef\xbb\xbf")  # a UTF-8 byte-order mark
    text = head.lstrip()
    if text.startswith(b"{"):
        return b'"jani-version"' in head
    return re.search(rb"^\s*(dtmc|mdp|smg|probabilistic|nondeterministic)\b", head, re.M) is not None
