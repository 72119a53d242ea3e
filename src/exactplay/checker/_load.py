"""Reading a certificate without trusting it: JSON, table decoding, digest.

Standard library only; shares nothing with :mod:`exactplay.certificate`.

Everything read here is bounded *before* it is computed with, so that a hostile
file is refused in bounded time and memory with one line (the limits below, and
per instance in :mod:`._bounds`):

* the file is read only up to :data:`MAX_FILE_BYTES` (a gzip file inflated
  within the same limit, counted in chunks before anything is kept:
  :mod:`._input`), and parsed only if it has at most :data:`MAX_JSON_VALUES`
  commas (the memory of parsed JSON grows with the number of values, not only
  the bytes); a table's commas are bounded by its instance's rows;
* JSON is parsed by :mod:`._json`: Python's int/str digit guard set to
  :data:`JSON_INT_DIGITS` (the package lifts the guard for its own long numbers;
  untrusted text never gets that), so a 10^7-digit integer fails at once, and a
  name given twice in one object is refused;
* a gzip table is inflated as a stream, stopping one byte past its cap;
* a ``"p/q"`` string longer than the cap is refused before ``int()`` (whose
  cost is quadratic in the digits on Python < 3.12);
* messages echo values through :func:`clip` and :func:`approx` (a float of a
  huge or tiny rational never raises ``OverflowError``).
"""

from __future__ import annotations

import base64
import binascii
import contextlib
import gzip
import hashlib
import io
import json
import math
import zlib
from fractions import Fraction
from pathlib import Path
from typing import Any

from ..errors import MalformedCertificate, VerificationError
from ._input import read_bounded
from ._json import JSON_INT_DIGITS, bounded_int_digits, parse_json  # noqa: F401  (re-exported)

REQUIRED = ("format", "version", "game", "params", "answer", "table", "table_sha256", "policy")
REQUIRED_V2 = ("format", "version", "kind")  # version 2: the rest is checked by checker.model / checker.game
SUPPORTED_VERSIONS = (1, 2)

# The largest certificate the tool writes within its limits is race at target
# 500: about 0.6 GB of base64 and 1.2 GB of table rows (measured growth ~N^3.3
# from 5.9 MB of rows at N = 100 and 28 MB of F values alone at N = 200).
MAX_FILE_BYTES = 2 * 1024**3
MAX_TABLE_BYTES = 2 * 1024**3  # decompressed rows, whatever the instance allows
# JSON values (counted by their commas, before parsing): a file of 2 GB of "[0],"
# would take ~40 GB as Python lists.  The tool's certificates have at most about
# a million outside the table (coins at 1,000 coins: the list of ties).
MAX_JSON_VALUES = 40_000_000  # a ball certificate of Pig to 100 carries its 960,896-state model: ~19M values
# Digits of a numerator or denominator, whatever the instance: the ceiling of the
# per-instance bounds of ._bounds, which rational() applies while a certificate is
# checked (digit_limit).  The largest the tool writes within its limits is the
# answer of chefs at n = 15, about 350,000 digits (155,000 at n = 14).
MAX_DIGITS = 1_000_000
_digit_limit = MAX_DIGITS
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


def approx(x: Any, digits: int = 6, style: str = "e") -> str:
    """A rational as a float in text, never raising: huge or tiny values are
    printed from their exact base-10 exponent (``1.0e+400``) instead of
    overflowing; ``style`` is ``"e"``, ``"f"`` or ``"g"`` as in ``format``."""
    x = Fraction(x)
    if x == 0:
        return format(0.0, f".{digits}{style}")
    try:
        f = float(x)  # correctly rounded; OverflowError past ~1.8e308
    except OverflowError:
        f = math.inf
    if math.isfinite(f) and (style == "f" or abs(f) >= 1e-300):
        return format(f, f".{digits}{style}")
    # outside the comfortable double range: scale by an exact power of ten
    sign = "-" if x < 0 else ""
    a = abs(x)
    e = int((a.numerator.bit_length() - a.denominator.bit_length()) * 0.30102999566398120)
    m = a / Fraction(10) ** e
    while m >= 10:
        m, e = m / 10, e + 1
    while m < 1:
        m, e = m * 10, e - 1
    places = max(digits - 1, 1) if style == "g" else max(digits, 1)  # as format's e and g count them
    mant = format(float(m), f".{places}f")
    if mant.startswith("10"):
        mant, e = format(1.0, f".{places}f"), e + 1
    return f"{sign}{mant}e{e:+d}"


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
    v2 = type(cert.get("version")) is int and cert["version"] == 2
    if v2 and "kind" not in cert and "game" in cert:
        raise MalformedCertificate(f"{path}: version 2 certificates have a 'kind' (this one is shaped like "
                                   "version 1)", field="version")
    if not v2 and "kind" in cert:
        raise MalformedCertificate(f"{path}: a certificate with a 'kind' is version 2", field="version")
    for key in REQUIRED_V2 if v2 else REQUIRED:
        if key not in cert:
            raise MalformedCertificate(f"{path}: missing field", field=key)
    if cert["format"] != "exactplay-certificate":
        raise MalformedCertificate(f"{path}: not an exactplay certificate", field="format")
    if cert["version"] not in SUPPORTED_VERSIONS:
        raise MalformedCertificate(f"{path}: unsupported version {clip(cert['version'])}", field="version")
    return cert


@contextlib.contextmanager
def digit_limit(digits: int):
    """Within the block, :func:`rational` refuses numbers with more than ``digits``
    digits per part (the bound of the instance being checked)."""
    global _digit_limit
    old = _digit_limit
    _digit_limit = min(digits, MAX_DIGITS)
    try:
        yield
    finally:
        _digit_limit = old


def rational(text: Any, field: str, state: Any = None, max_digits: int | None = None) -> Fraction:
    """Parse ``"p/q"`` strictly (lowest terms, q > 0); raise naming field and state.

    Refused before any conversion if either part has more than ``max_digits``
    digits (default: the instance's bound set by :func:`digit_limit`, else
    :data:`MAX_DIGITS`).
    """
    if max_digits is None:
        max_digits = _digit_limit
    if not isinstance(text, str):
        raise VerificationError(f"expected a 'p/q' string, found {type(text).__name__}", field, state)
    if len(text) > 2 * max_digits + 2:
        raise VerificationError(f"number of {len(text)} characters: more than {max_digits} digits "
                                f"per numerator or denominator, the limit for this instance", field, state)
    num, slash, den = text.partition("/")
    digits = num[1:] if num[:1] == "-" else num  # one sign at most ("--5" is not a number)
    ok = digits.isdigit() and digits.isascii() and (not slash or (den.isdigit() and den.isascii()))
    if not ok:
        raise VerificationError(f"malformed rational {clip(text, 40)}", field, state)
    if len(digits) > max_digits or len(den) > max_digits:
        raise VerificationError(f"number with more than {max_digits} digits in its numerator or denominator, "
                                f"the limit for this instance", field, state)
    d = int(den) if slash else 1
    if d == 0:
        raise VerificationError(f"malformed rational {clip(text, 40)}", field, state)
    value = Fraction(int(num), d)
    if value.denominator != d:
        raise VerificationError(f"rational {clip(text, 40)} not in lowest terms", field, state)
    return value


def integer(value: Any, field: str, state: Any = None) -> int:
    if not isinstance(value, int) or isinstance(value, bool):
        raise VerificationError(f"expected an integer, found {clip(value)}", field, state)
    return value


def inflate(data: str, limit: int) -> bytes:
    """Decode base64 and gunzip as a stream, refusing output beyond ``limit`` bytes."""
    try:
        compressed = base64.b64decode(data, validate=True)
    except (binascii.Error, ValueError):
        raise VerificationError("table data is not base64", field="table") from None
    try:
        with gzip.GzipFile(fileobj=io.BytesIO(compressed)) as fh:
            raw = fh.read(limit + 1)
    except (OSError, EOFError, zlib.error, ValueError):
        raise VerificationError("table data does not decode (not gzip)", field="table") from None
    if len(raw) > limit:
        raise VerificationError(f"table inflates to more than {limit} bytes, the limit for this instance; "
                                "not decoded further", field="table")
    return raw


class Table:
    """The decoded rows of a certificate's ``table`` field, digest checked."""

    def __init__(self, columns: list[str], rows: list[list[Any]]):
        self.columns = columns
        self.rows = rows

    @classmethod
    def from_certificate(cls, cert: dict, max_bytes: int = MAX_TABLE_BYTES,
                         max_values: int = MAX_JSON_VALUES) -> "Table":
        """Decode and digest-check the table; ``max_bytes`` bounds its canonical rows,
        ``max_values`` the number of values in them (commas, counted before parsing)."""
        t = cert["table"]
        if not isinstance(t, dict) or "columns" not in t or "encoding" not in t:
            raise VerificationError("malformed table", field="table")
        if not isinstance(t["columns"], list) or not all(isinstance(c, str) and len(c) <= 40 for c in t["columns"]) \
                or len(t["columns"]) > 64:
            raise VerificationError("table columns are not a short list of names", field="table.columns")
        if t["encoding"] == "json":
            rows = t.get("rows")
            if not isinstance(rows, list):
                raise VerificationError("table rows are not a list of lists", field="table")
            raw = json.dumps(rows, separators=(",", ":")).encode("utf-8")
            if len(raw) > max_bytes:
                raise VerificationError(f"table has more than {max_bytes} bytes of rows, the limit for this "
                                        "instance", field="table")
        elif t["encoding"] == "gzip+base64":
            data = t.get("data", "")
            if not isinstance(data, str):
                raise VerificationError("table data is not a base64 string", field="table")
            raw = inflate(data, max_bytes)
            if raw.count(b",") > max_values:
                raise VerificationError(f"table has more than {max_values} values, more than the rows of this "
                                        "instance hold; not parsed", field="table")
            try:
                rows = parse_json(raw)
            except (ValueError, RecursionError):
                raise VerificationError("table data does not decode (not JSON rows)", field="table") from None
        else:
            raise VerificationError(f"unknown table encoding {clip(t['encoding'])}", field="table")
        if not isinstance(rows, list) or not all(isinstance(r, list) for r in rows):
            raise VerificationError("table rows are not a list of lists", field="table")
        digest = hashlib.sha256(raw).hexdigest()
        if digest != cert["table_sha256"]:
            raise VerificationError(
                f"table digest {digest[:16]}... does not match the stored table_sha256",
                field="table_sha256",
            )
        if "count" in t and t["count"] != len(rows):
            raise VerificationError(f"table has {len(rows)} rows, count says {clip(t['count'])}", field="table")
        return cls(list(t["columns"]), rows)
