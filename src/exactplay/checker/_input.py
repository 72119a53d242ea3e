"""Reading a user's file within a byte limit, gzip-compressed or not.

Standard library only; every file the tool reads from a user goes through :func:`read_bounded`
(certificates, model files, DRN files, float tables).

A file starting with the gzip magic bytes is inflated, and the limit applies to the inflated
bytes.  A small file can inflate to any size (3 MB of zeros inflate to 3 GB), so it is inflated
twice: first in chunks of :data:`CHUNK` bytes that are counted and dropped, stopping as soon as
the count passes the limit (memory: the compressed file and one chunk), and only when the whole
file is within the limit a second time, kept.  ``max_commas`` bounds the commas the same way,
before anything is kept (parsed JSON costs memory per value, not per byte: the commas bound the
values).
"""

from __future__ import annotations

import gzip
import io
import os
import zlib
from pathlib import Path

from ..errors import MalformedCertificate

__all__ = ["CHUNK", "GZIP_MAGIC", "read_bounded", "unpack"]

GZIP_MAGIC = b"\x1f\x8b"
CHUNK = 1 << 20


def read_bounded(path: str | Path, limit: int, what: str, error=MalformedCertificate,
                 max_commas: int | None = None) -> bytes:
    """The bytes of ``path`` (inflated if gzip), refused (one line) past ``limit`` bytes or
    ``max_commas`` commas."""
    try:
        with open(path, "rb") as fh:
            size = os.fstat(fh.fileno()).st_size  # 0 for a pipe
            if size > limit:
                raise error(f"{path}: {what} is larger than the limit of {limit} bytes; not read")
            # a buffer of the file's size, not of the limit (read(limit + 1) allocates the limit)
            data = fh.read(size + 1) if size else b""
            if len(data) > size or not size:  # a pipe, or a file that grew: the rest up to the limit
                data += fh.read(limit + 1 - len(data))
    except OSError as exc:
        raise error(f"{path}: cannot read: {exc.strerror or exc}") from None
    if len(data) > limit:
        raise error(f"{path}: {what} is larger than the limit of {limit} bytes; not read")
    return unpack(data, str(path), limit, what, error, max_commas)


def _chunks(data: bytes):
    """The inflated bytes of gzip ``data`` (every member), :data:`CHUNK` bytes at a time."""
    with gzip.GzipFile(fileobj=io.BytesIO(data)) as fh:
        while True:
            chunk = fh.read(CHUNK)
            if not chunk:
                return
            yield chunk


def unpack(data: bytes, name: str, limit: int, what: str, error=MalformedCertificate,
           max_commas: int | None = None) -> bytes:
    """``data`` as read from ``name``, inflated if it is gzip, within ``limit`` bytes and
    ``max_commas`` commas (checked before anything inflated is kept)."""
    if data[:2] != GZIP_MAGIC:
        if max_commas is not None and data.count(b",") > max_commas:
            raise error(f"{name}: {what} has more than {max_commas} JSON values; not parsed")
        return data
    size = commas = 0
    try:
        for chunk in _chunks(data):  # counted and dropped
            size += len(chunk)
            if size > limit:
                raise error(f"{name}: {what} inflates to more than {limit} bytes; not read")
            if max_commas is not None:
                commas += chunk.count(b",")
                if commas > max_commas:
                    raise error(f"{name}: {what} has more than {max_commas} JSON values; not parsed")
        out = io.BytesIO()
        for chunk in _chunks(data):  # within the limits: kept
            out.write(chunk)
    except (OSError, EOFError, zlib.error):
        raise error(f"{name}: {what} is not a readable gzip file") from None
    return out.getvalue()
