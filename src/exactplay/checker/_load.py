"""Reading a certificate without trusting it: JSON, table decoding, digest.

Standard library only; shares nothing with :mod:`exactplay.certificate`.
"""

from __future__ import annotations

import base64
import binascii
import gzip
import hashlib
import json
from fractions import Fraction
from pathlib import Path
from typing import Any

from ..errors import MalformedCertificate, VerificationError

REQUIRED = ("format", "version", "game", "params", "answer", "table", "table_sha256", "policy")
REQUIRED_V2 = ("format", "version", "kind")  # version 2: the rest is checked by checker.model
SUPPORTED_VERSIONS = (1, 2)


def load_certificate(path: str | Path) -> dict:
    """Parse a certificate file, checking its envelope fields."""
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as exc:
        raise MalformedCertificate(f"{path}: cannot read: {exc.strerror or exc}") from None
    except UnicodeDecodeError:
        raise MalformedCertificate(f"{path}: not UTF-8 text") from None
    try:
        cert = json.loads(text)
    except json.JSONDecodeError as exc:
        raise MalformedCertificate(f"{path}: not JSON ({exc.msg} at line {exc.lineno})") from None
    except RecursionError:
        raise MalformedCertificate(f"{path}: not a certificate (JSON nested too deeply)") from None
    if not isinstance(cert, dict):
        raise MalformedCertificate(f"{path}: not a certificate (top level is not an object)")
    for key in REQUIRED_V2 if cert.get("version") == 2 else REQUIRED:
        if key not in cert:
            raise MalformedCertificate(f"{path}: missing field", field=key)
    if cert["format"] != "exactplay-certificate":
        raise MalformedCertificate(f"{path}: not an exactplay certificate", field="format")
    if cert["version"] not in SUPPORTED_VERSIONS:
        raise MalformedCertificate(f"{path}: unsupported version {cert['version']!r}", field="version")
    return cert


def rational(text: Any, field: str, state: Any = None) -> Fraction:
    """Parse ``"p/q"`` strictly (lowest terms, q > 0); raise naming field and state."""
    if not isinstance(text, str):
        raise VerificationError(f"expected a 'p/q' string, found {type(text).__name__}", field, state)
    num, slash, den = text.partition("/")
    ok = num.lstrip("-").isdigit() and num.isascii() and (not slash or (den.isdigit() and den.isascii()))
    if not ok or (slash and int(den) == 0):
        raise VerificationError(f"malformed rational {text[:40]!r}", field, state)
    value = Fraction(int(num), int(den) if slash else 1)
    if slash and value.denominator != int(den):
        raise VerificationError(f"rational {text[:40]!r} not in lowest terms", field, state)
    return value


def integer(value: Any, field: str, state: Any = None) -> int:
    if not isinstance(value, int) or isinstance(value, bool):
        raise VerificationError(f"expected an integer, found {value!r}", field, state)
    return value


class Table:
    """The decoded rows of a certificate's ``table`` field, digest checked."""

    def __init__(self, columns: list[str], rows: list[list[Any]]):
        self.columns = columns
        self.rows = rows

    @classmethod
    def from_certificate(cls, cert: dict) -> "Table":
        t = cert["table"]
        if not isinstance(t, dict) or "columns" not in t or "encoding" not in t:
            raise VerificationError("malformed table", field="table")
        if t["encoding"] == "json":
            rows = t.get("rows")
            raw = json.dumps(rows, separators=(",", ":")).encode("utf-8")
        elif t["encoding"] == "gzip+base64":
            try:
                raw = gzip.decompress(base64.b64decode(t.get("data", ""), validate=True))
                rows = json.loads(raw)
            except (binascii.Error, OSError, EOFError, ValueError, RecursionError):
                raise VerificationError("table data does not decode", field="table") from None
        else:
            raise VerificationError(f"unknown table encoding {t['encoding']!r}", field="table")
        if not isinstance(rows, list) or not all(isinstance(r, list) for r in rows):
            raise VerificationError("table rows are not a list of lists", field="table")
        digest = hashlib.sha256(raw).hexdigest()
        if digest != cert["table_sha256"]:
            raise VerificationError(
                f"table digest {digest[:16]}... does not match the stored table_sha256",
                field="table_sha256",
            )
        if "count" in t and t["count"] != len(rows):
            raise VerificationError(f"table has {len(rows)} rows, count says {t['count']}", field="table")
        return cls(list(t["columns"]), rows)
