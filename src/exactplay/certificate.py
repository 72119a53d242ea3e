"""Writing certificates: plain, versioned JSON with exact numbers as ``"p/q"``.

A certificate is a dict with these fields (every game fills the same ones)::

    format        "exactplay-certificate"
    version       FORMAT_VERSION
    game          the game id, e.g. "race"
    params        the game's parameters, e.g. {"target": 100}
    tool_version  the exactplay version that wrote it
    answer        {"name": ..., "value": "p/q", "decimal": ...}
    table         {"columns": [...], "encoding": "json" | "gzip+base64",
                   "rows": [...] | "data": "..."}
    table_sha256  SHA-256 of the canonical table rows (see :func:`canonical_rows`)
    policy        the optimal choice per state (game-defined shape)
    smallest_gap  {"value": "p/q", "state": [...]} or null
    audit         the float-audit summary (floats as JSON numbers)
    notes         free text

The table is a list of rows, each row a list of ints (the state, a choice)
and ``"p/q"`` strings.  Its canonical bytes are ``json.dumps(rows,
separators=(",", ":"))`` in UTF-8; the digest is their SHA-256.  Large tables
are stored gzip-compressed and base64-encoded, with the same digest.

The independent reader lives in :mod:`exactplay.checker`; it shares no code
with this writer on purpose.
"""

from __future__ import annotations

import base64
import gzip
import hashlib
import json
from pathlib import Path
from typing import Any, Sequence

from . import __version__
from .strict_json import dumps

FORMAT = "exactplay-certificate"
FORMAT_VERSION = 1
COMPRESS_ABOVE = 200_000  # bytes of canonical rows


def canonical_rows(rows: Sequence[Sequence[Any]]) -> bytes:
    """The bytes the table digest is taken of."""
    return json.dumps([list(r) for r in rows], separators=(",", ":"), allow_nan=False).encode("utf-8")


def encode_table(columns: Sequence[str], rows: Sequence[Sequence[Any]], compress: bool | None = None) -> tuple[dict, str]:
    """The ``table`` field and its SHA-256; compressed when large (or if asked)."""
    raw = canonical_rows(rows)
    digest = hashlib.sha256(raw).hexdigest()
    if compress is None:
        compress = len(raw) > COMPRESS_ABOVE
    table: dict[str, Any] = {"columns": list(columns), "count": len(rows)}
    if compress:
        table["encoding"] = "gzip+base64"
        table["data"] = base64.b64encode(gzip.compress(raw, mtime=0)).decode("ascii")
    else:
        table["encoding"] = "json"
        table["rows"] = [list(r) for r in rows]
    return table, digest


def build_certificate(
    *,
    game: str,
    params: dict,
    answer: dict,
    columns: Sequence[str],
    rows: Sequence[Sequence[Any]],
    policy: Any,
    smallest_gap: dict | None,
    audit: dict | None,
    notes: str = "",
    extra: dict | None = None,
    compress: bool | None = None,
) -> dict:
    """Assemble a certificate dict (not yet written)."""
    table, digest = encode_table(columns, rows, compress)
    cert = {
        "format": FORMAT,
        "version": FORMAT_VERSION,
        "game": game,
        "params": params,
        "tool_version": __version__,
        "answer": answer,
        "table": table,
        "table_sha256": digest,
        "policy": policy,
        "smallest_gap": smallest_gap,
        "audit": audit,
        "notes": notes,
    }
    if extra:
        cert.update(extra)
    return cert


def write_certificate(cert: dict, path: str | Path) -> Path:
    """Write ``cert`` as JSON (indented, keys in a fixed order) and return the path."""
    return write_text_atomic(path, dumps(cert, indent=1) + "\n")


def write_text_atomic(path: str | Path, text: str) -> Path:
    """Write ``text`` to a temporary file beside ``path``, then rename it: never a half-written file."""
    import os
    import tempfile

    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            f.write(text)
        umask = os.umask(0)
        os.umask(umask)
        os.chmod(tmp, 0o666 & ~umask)  # the mode an ordinary open() would give, not mkstemp's 0600
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
    return path
