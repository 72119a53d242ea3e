"""Reading a certificate without trusting it: bounded input, strict JSON, the envelope.

Standard library only; shares nothing with :mod:`exactplay.certify.write`.

Everything read here is bounded *before* it is computed with, so that a hostile
file is refused in bounded time and memory with one line:

* the file is read only up to :data:`MAX_FILE_BYTES` (a gzip file inflated
  within the same limit, counted in chunks before anything is kept:
  :mod:`._input`), and parsed only if it has at most :data:`MAX_JSON_VALUES`
  commas (the memory of parsed JSON grows with the number of values, not only
  the bytes);
* JSON is parsed by :mod:`._json`: Python's int/str digit guard set to
  :data:`JSON_INT_DIGITS` (the package lifts the guard for its own long numbers;
  untrusted text never gets that), so a 10^7-digit integer fails at once, and a
  name given twice in one object is refused;
* the numbers, states and parameters inside are bounded by the checkers that
  read them (:mod:`._strict`, the rules' ``read_params`` and ``state_bound``);
* messages echo values through :func:`clip` (a huge value is never printed).
"""

from __future__ import annotations

import json
from fractions import Fraction
from pathlib import Path
from typing import Any

from ..errors import MalformedCertificate
from ._input import read_bounded
from ._json import JSON_INT_DIGITS, bounded_int_digits, parse_json  # noqa: F401  (re-exported)

REQUIRED = ("format", "version", "kind")  # the rest is read by the checker of the kind

MAX_FILE_BYTES = 2 * 1024**3
# JSON values (counted by their commas, before parsing): a file of 2 GB of "[0],"
# would take ~40 GB as Python lists.
MAX_JSON_VALUES = 40_000_000  # a ball certificate of Pig to 100 carries its 960,896-state model: ~19M values
SHOW_CHARS = 60  # an echoed value is cut to about this many characters


def clip(value: Any, limit: int = SHOW_CHARS) -> str:
    """``repr``-like text of ``value``, at most about ``limit`` characters.

    Strings are cut before ``repr``; a long integer or rational is summarised by
    its digit count without converting it to decimal.
    """
    if isinstance(value, str):
        if len(value) <= limit:
            return repr(value)
        return repr(value[:limit]) + f"... ({len(value)} characters)"
    if isinstance(value, bool) or value is None:
        return repr(value)
    if isinstance(value, int):
        return _clip_int(value, limit)
    if isinstance(value, Fraction):
        if value.denominator == 1:
            return _clip_int(value.numerator, limit)
        num, den = _clip_int(value.numerator, limit // 2), _clip_int(value.denominator, limit // 2)
        return f"{num}/{den}"
    if isinstance(value, (list, tuple, dict)):
        text = _short_repr(value, limit)
        return text
    text = repr(value)
    return text if len(text) <= limit else text[:limit] + "..."


def _clip_int(n: int, limit: int) -> str:
    bits = n.bit_length()
    if bits * 0.30103 < limit - 2:
        return str(n)
    return f"{'-' if n < 0 else ''}<integer of about {int(bits * 0.30103) + 1} digits>"


def _short_repr(value, limit: int) -> str:
    """``repr`` of a container, built piece by piece and abandoned past ``limit``."""
    out: list[str] = []
    size = 0

    def walk(v):
        nonlocal size
        if size > limit:
            raise StopIteration
        if isinstance(v, (list, tuple)):
            out.append("[")
            for k, x in enumerate(v):
                if k:
                    out.append(", ")
                walk(x)
            out.append("]")
        elif isinstance(v, dict):
            out.append("{")
            for k, (key, x) in enumerate(v.items()):
                if k:
                    out.append(", ")
                walk(key)
                out.append(": ")
                walk(x)
            out.append("}")
        else:
            out.append(clip(v, limit))
        size = sum(map(len, out))

    try:
        walk(value)
    except (StopIteration, RecursionError):
        pass
    text = "".join(out)
    return text if len(text) <= limit else text[:limit] + "..."


def load_certificate(path: str | Path) -> dict:
    """Parse a certificate file, checking its envelope fields."""
    path = Path(path)
    # a gzip-compressed certificate (certify -o FILE.gz) is inflated within the same limits
    data = read_bounded(path, MAX_FILE_BYTES, "the file", max_commas=MAX_JSON_VALUES)
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        raise MalformedCertificate(f"{path}: not UTF-8 text") from None
    del data
    try:
        cert = parse_json(text)
    except json.JSONDecodeError as exc:
        raise MalformedCertificate(f"{path}: not JSON ({exc.msg} at line {exc.lineno})") from None
    except ValueError as exc:
        raise MalformedCertificate(f"{path}: not a certificate ({exc})") from None
    except RecursionError:
        raise MalformedCertificate(f"{path}: not a certificate (JSON nested too deeply)") from None
    except MemoryError:
        raise MalformedCertificate(f"{path}: out of memory while parsing; not a certificate this machine can check") \
            from None
    if not isinstance(cert, dict):
        raise MalformedCertificate(f"{path}: not a certificate (top level is not an object)")
    if cert.get("format") != "exactplay-certificate":
        raise MalformedCertificate(f"{path}: not an exactplay certificate", field="format")
    version = cert.get("version")
    if type(version) is not int or version != 2:
        old = " (version 1 is no longer read: write it again with exactplay certify)" if version == 1 else ""
        raise MalformedCertificate(f"{path}: unsupported version {clip(version)}{old}", field="version")
    for key in REQUIRED:
        if key not in cert:
            raise MalformedCertificate(f"{path}: missing field", field=key)
    return cert
