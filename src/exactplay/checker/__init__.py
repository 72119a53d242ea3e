"""The independent certificate checker.

This package re-verifies certificates written by :mod:`exactplay.certificate`
using only the standard library (``fractions.Fraction``, ``json``, ``gzip``,
``hashlib``).  It imports nothing from the solvers, so a bug in a solver cannot
hide itself by being shared with the check.

Each game has a module here with one function, ``verify(cert, table)``, which
receives the parsed certificate and its decoded, digest-checked table, checks
the game's optimality equations in every state and raises
:class:`~exactplay.errors.VerificationError` naming the field and the state of
the first failure.  It returns a one-line summary.

Every field of a certificate is verified or rejected: the envelope and each
game's fields are listed (:data:`ENVELOPE_FIELDS`, :data:`GAME_FIELDS`,
:data:`PARAMS`, :data:`ANSWER_FIELDS`, :data:`TABLE_FIELDS`) and any other key
fails, naming it.  The answer's name, digit counts, decimal, ``decimal_certain``
and ``distance_to_rounding_boundary`` are recomputed here from the verified
exact value; each game's module checks its policy (descriptive texts
included), smallest gap and own fields.

What is *not* re-verified: ``audit`` (the float-audit summary, which would need
the float programs the checker must not share), ``notes`` and ``tool_version``.
They are reported as unverified (:data:`UNVERIFIED_FIELDS`).

Certificates of version 2 are checked by the generic checker, which verifies
everything except ``notes`` and ``tool_version``: ``"kind": "model"`` (any game
written as a model, with its explicit model inside) by
:mod:`exactplay.checker.model`; ``"kind": "game"`` (a built-in game: its
parameters and the digest of its canonical model, which the checker rebuilds
from its own statement of the rules in :mod:`exactplay.checker.rules`) by
:mod:`exactplay.checker.game`.
"""

from __future__ import annotations

import importlib
import math
import re
from fractions import Fraction
from pathlib import Path

from ..errors import MalformedCertificate, UsageError, VerificationError
from ._bounds import instance_bounds
from ._load import Table, clip, digit_limit, integer, load_certificate, rational

CHECKERS = {
    "race": "exactplay.checker.race",
    "hold": "exactplay.checker.hold",
    "chefs": "exactplay.checker.chefs",
    "coins": "exactplay.checker.coins",
    "war": "exactplay.checker.war",
}

UNVERIFIED_FIELDS = ("audit", "notes", "tool_version")

# Every field a certificate may have: the envelope, then each game's own.  A key
# not listed here is rejected as unknown; every listed key is verified by the
# checker, except the informational UNVERIFIED_FIELDS.
ENVELOPE_FIELDS = ("format", "version", "game", "params", "tool_version", "answer", "table", "table_sha256",
                   "policy", "smallest_gap", "audit", "notes")
GAME_FIELDS = {
    "race": (),
    "hold": ("values_sha256", "values_rows"),
    "chefs": ("skills", "winner_vector", "winner_vector_decimal", "winner_vector_sha256", "ties", "full_table",
              "slow_check"),
    "coins": (),
    "war": ("expected_games",),
}
PARAMS = {
    "race": ("target",),
    "hold": ("target", "faces"),
    "chefs": ("n", "skills"),
    "coins": ("coins",),
    "war": ("ranks", "suits"),
}
ANSWER_FIELDS = ("name", "value", "numerator_digits", "denominator_digits", "decimal", "digits", "decimal_certain",
                 "distance_to_rounding_boundary")
TABLE_FIELDS = {"json": ("columns", "count", "encoding", "rows"), "gzip+base64": ("columns", "count", "encoding", "data")}
MAX_DIGITS = 100  # decimals in the answer's "decimal" (the tool writes 8 or 9)

__all__ = ["check_certificate", "check_file", "verify_file", "verify_certificate", "certificate_paths", "Table",
           "expected_params", "UNVERIFIED_FIELDS"]


MAX_MESSAGE_CHARS = 400  # an error line is cut to this length (values are clipped before, this is a backstop)


def _is_v2(cert: dict) -> bool:
    return type(cert.get("version")) is int and cert["version"] == 2


def check_certificate(cert: dict, source: str = "<certificate>") -> str:
    """Verify a parsed certificate; return a summary line or raise.

    Version 2 (kind "model") goes to :mod:`.model`, the generic checker.  For
    version 1 the instance's bounds (parameters within the solver's limits,
    table size, digits per number) are checked before the table is decoded.
    """
    if _is_v2(cert):
        kind = cert.get("kind")
        if kind not in ("model", "game", "ball", "parametric"):
            raise VerificationError(f"unknown kind {clip(kind)} of a version 2 "
                                    "certificate (this checker knows 'model', 'game', 'ball' and 'parametric')", field="kind")
        if kind == "game":
            from . import game

            return game.verify(cert)
        if kind == "ball" and cert.get("recurrence") in ("model", "game"):  # games with cycles
            from . import ball_model

            return ball_model.verify(cert)
        if kind == "ball":  # exact dyadic intervals: checker.ball
            from . import ball

            return ball.verify(cert)
        if kind == "parametric":
            from . import parametric

            return parametric.verify(cert)
        from . import model

        return model.verify(cert)
    if cert.get("version") != 1 or type(cert.get("version")) is not int:
        raise VerificationError(f"version {clip(cert.get('version'))} is not 1 or 2", field="version")
    game = cert.get("game")
    if not isinstance(game, str) or game not in CHECKERS:
        raise VerificationError(f"unknown game {clip(game)}", field="game")
    _check_fields(cert, game)
    bounds = instance_bounds(cert)
    with digit_limit(bounds.digits):
        table = Table.from_certificate(cert, bounds.max_bytes, bounds.max_values)
        bounds.check_rows(table)
        module = importlib.import_module(CHECKERS[game])
        summary = module.verify(cert, table)
        _check_answer(cert, game)
    return summary


def check_file(path: str | Path) -> str:
    """Load and verify one certificate file; return the checker's summary."""
    return verify_file(path)["summary"]


def verify_file(path: str | Path, expect: dict | None = None) -> dict:
    """Load and verify one certificate file.

    With ``expect`` (parameter name -> value as text, see :func:`expected_params`)
    the certificate's parameters are compared first, before the long check.
    Returns the game, its parameters, the verified answer (``name``, ``value``
    as ``"p/q"`` and ``decimal`` as stored) and the checker's summary line.
    """
    cert = load_certificate(path)
    return verify_certificate(cert, str(path), expect)


def verify_certificate(cert: dict, source: str = "<certificate>", expect: dict | None = None) -> dict:
    """:func:`verify_file` for a certificate already parsed (its envelope checked)."""
    try:
        if expect:
            expected_params(cert, expect)
        summary = check_certificate(cert, source)
    except VerificationError as exc:
        raise _located(exc, source) from None
    except (KeyError, TypeError, ValueError, IndexError, AttributeError, OverflowError, RecursionError) as exc:
        raise VerificationError(_one_line(f"{source}: malformed certificate ({type(exc).__name__}: "
                                          f"{clip(str(exc), 120)})")) from None
    except MemoryError:
        raise MalformedCertificate(f"{source}: out of memory while checking; not verified") from None
    answer = cert.get("answer") if isinstance(cert.get("answer"), dict) else {}
    # a user's model records its factory's parameters: their form is checked, nothing ties them to the model
    recorded = ["params"] if _is_v2(cert) and "model" in cert and cert.get("params") else []
    if _is_v2(cert) and cert.get("kind") == "ball":
        rec = cert.get("recurrence")
        name = cert.get("game") if rec == "game" else (cert["model"].get("name", "model") if rec == "model" else rec)
        return {"game": name, "params": cert["params"],
                "answer": {k: answer.get(k) for k in ("name", "lower", "upper", "decimal")},
                "summary": summary,
                "unverified_fields": [f for f in ("notes", "tool_version") if f in cert] + recorded}
    if _is_v2(cert):  # everything, the decimal included, was verified by checker.model or checker.game
        from .model import UNVERIFIED

        built_in = cert["kind"] == "game"
        return {
            "game": cert["game"] if built_in else cert["model"].get("name", "model"),
            "params": cert.get("params", {}),
            "answer": {k: answer.get(k) for k in ("name", "value", "decimal")},
            "summary": summary,
            "unverified_fields": [f for f in UNVERIFIED if f in cert] + recorded,
        }
    return {
        "game": cert["game"],
        "params": cert["params"],
        "answer": {k: answer.get(k) for k in ("name", "value", "decimal")},
        "summary": summary,
        "unverified_fields": [f for f in UNVERIFIED_FIELDS if f in cert],
    }


def _located(exc: VerificationError, source: str) -> VerificationError:
    """The same error, its message prefixed with the file, its field and state kept."""
    new = type(exc)(_one_line(f"{source}: {exc}"))
    new.field, new.state = exc.field, exc.state
    return new


_NUMBER = re.compile(r"-?(\d+(/\d+)?|\d*\.\d+)")


def _numbers(value) -> list | None:
    """A parameter value as a list of exact numbers (``3``, ``1/4,0.5,1``, ``["1/2", "1/1"]``),
    or None when it is not one; long or exotic texts (``1e999999``) are not numbers here."""
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return [value] if value.bit_length() <= 10_000 else None
    items = value if isinstance(value, list) else value.split(",") if isinstance(value, str) else None
    if items is None:
        return None
    out = []
    for item in items:
        if not isinstance(item, str) or len(item) > 200 or not _NUMBER.fullmatch(item.strip()):
            return None
        out.append(Fraction(item.strip()))
    return out


def _shown(value) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int) and not isinstance(value, bool) and value.bit_length() > 300:
        return f"a {value.bit_length()}-bit number"
    text = ",".join(map(str, value)) if isinstance(value, list) else str(value)
    return text if len(text) <= 80 else text[:77] + "..."


def expected_params(cert: dict, expect: dict) -> None:
    """Raise naming the first parameter whose value differs from ``expect`` (name -> text).

    The parameters are the certificate's own: a built-in game's (verified: the checker rebuilds the
    game from them) or, for a user's model, the factory's as recorded (``--param goal=5``).  Numbers
    are compared exactly (``0.25`` matches ``"1/4"``, ``1`` matches ``"1/1"``), booleans as
    ``true``/``false``, other values as text; an expected number that is no exact number says so."""
    params = cert.get("params")
    if params is None and isinstance(cert.get("model"), dict):
        first = next(iter(expect))
        raise VerificationError(f"expected parameter {first}={expect[first]}, but the certificate records no "
                                "parameters (a model file's, or a factory's written before exactplay recorded "
                                "them: certify it again)", field="params")
    if not isinstance(params, dict):
        raise VerificationError("parameters are not an object", field="params")
    for key, want in expect.items():
        if key not in params:
            raise VerificationError(f"expected parameter {key}={want}, but the certificate has no parameter {key!r} "
                                    f"(it has: {', '.join(map(str, params)) or 'none'})", field=f"params.{key}")
        found = params[key]
        mismatch = f"expected parameter {key}={want}, found {key}={_shown(found)}"
        a, b = _numbers(found), _numbers(want)
        if isinstance(found, bool):
            if want.lower() not in ("true", "false"):
                raise VerificationError(f"{mismatch}: {want[:40]!r} is not true or false", field=f"params.{key}")
            same = found == (want.lower() == "true")
        elif a is not None and b is None:
            raise VerificationError(f"{mismatch}: {want[:40]!r} is not an exact number (write 3, 1/4 or 0.25"
                                    f"{', or a comma-separated list' if len(a) > 1 else ''})", field=f"params.{key}")
        else:
            same = a == b if a is not None else isinstance(found, str) and found == want
        if not same:
            raise VerificationError(mismatch, field=f"params.{key}")


def _check_fields(cert: dict, game: str) -> None:
    """No unknown field anywhere the checker does not look further (envelope, params, answer, table)."""
    known = ENVELOPE_FIELDS + GAME_FIELDS[game]
    for key in cert:
        if key not in known:
            raise VerificationError(f"unknown field {str(key)[:40]!r} in a {game} certificate", field=str(key)[:40])
    if "smallest_gap" not in cert:
        raise VerificationError("missing field (null when the game has none)", field="smallest_gap")
    _exact_keys(cert["params"], PARAMS[game], "params")
    _exact_keys(cert["answer"], ANSWER_FIELDS, "answer")
    table = cert["table"]
    if not isinstance(table, dict) or table.get("encoding") not in TABLE_FIELDS:
        raise VerificationError("table must be an object with encoding 'json' or 'gzip+base64'", field="table")
    _exact_keys(table, TABLE_FIELDS[table["encoding"]], "table")
    if not isinstance(table["columns"], list):
        raise VerificationError("columns must be a list", field="table.columns")
    integer(table["count"], "table.count")


def _exact_keys(obj, keys, field: str) -> None:
    if not isinstance(obj, dict):
        raise VerificationError("not an object", field=field)
    for key in obj:
        if key not in keys:
            raise VerificationError(f"unknown key {str(key)[:40]!r}", field=f"{field}.{str(key)[:40]}")
    for key in keys:
        if key not in obj:
            raise VerificationError("missing key", field=f"{field}.{key}")


def answer_name(cert: dict, game: str) -> str:
    """The name of the answer, from the (verified) parameters."""
    params = cert["params"]
    if game == "race":
        return f"G({params['target']},{params['target']})"
    if game == "hold":
        return "V(0,0)"
    if game == "chefs":
        return f"E({params['n']})"
    if game == "coins":
        return f"V(0,{len(params['coins']) - 1})"
    return "P(A wins every turn)"


def _check_answer(cert: dict, game: str) -> None:
    """Every field of the answer follows from its verified exact value (and the game's name for it)."""
    answer = cert["answer"]
    name = answer_name(cert, game)
    if answer["name"] != name:
        raise VerificationError(f"answer is named {str(answer['name'])[:40]!r}, not {name!r}", field="answer.name")
    value = rational(answer["value"], "answer.value")
    num, den = _digit_count(abs(value.numerator)), _digit_count(value.denominator)
    for key, want in (("numerator_digits", num), ("denominator_digits", den)):
        if integer(answer[key], f"answer.{key}") != want:
            raise VerificationError(f"stored {answer[key]}, the value has {want}", field=f"answer.{key}")
    digits = integer(answer["digits"], "answer.digits")
    if not 0 <= digits <= MAX_DIGITS:
        raise VerificationError(f"digits must be 0..{MAX_DIGITS}", field="answer.digits")
    text = answer["decimal"]
    if not isinstance(text, str):
        raise VerificationError("the decimal must be a string", field="answer.decimal")
    if len(text.partition(".")[2]) != digits or (digits == 0) != ("." not in text):
        raise VerificationError(f"digits says {digits}, the decimal {text[:40]!r} has {len(text.partition('.')[2])}",
                                field="answer.digits")
    expected = _rounded(value, digits)
    if text != expected:
        raise VerificationError(f"stored decimal {text[:40]!r} is not the exact value rounded ({expected})",
                                field="answer.decimal")
    scaled = value * 10**digits
    distance = abs(scaled - math.floor(scaled) - Fraction(1, 2)) / 10**digits
    certain = answer["decimal_certain"]
    if not isinstance(certain, bool) or certain != (distance > 0):
        raise VerificationError(f"must be {str(distance > 0).lower()}: the exact value is "
                                f"{'not ' if distance else ''}on a rounding boundary", field="answer.decimal_certain")
    stored = answer["distance_to_rounding_boundary"]
    if not isinstance(stored, float) or stored != float(distance):
        raise VerificationError(f"stored {str(stored)[:40]}, the exact distance rounds to {float(distance)!r}",
                                field="answer.distance_to_rounding_boundary")


def _digit_count(n: int) -> int:
    """Decimal digits of ``n >= 0``, by comparing with powers of ten (no int -> str conversion,
    which is quadratic and may be limited by ``sys.set_int_max_str_digits``)."""
    if n < 10:
        return 1
    d = int((n.bit_length() - 1) * 0.30102999566398120) + 1  # 10^(d-1) <= n up to float error
    while d > 1 and 10 ** (d - 1) > n:
        d -= 1
    while 10**d <= n:
        d += 1
    return d


def _rounded(value: Fraction, digits: int) -> str:
    """``value`` correctly rounded to ``digits`` decimals, ties to even."""
    scaled = round(value * 10**digits)
    sign = "-" if scaled < 0 else ""
    body = str(abs(scaled)).rjust(digits + 1, "0")
    return f"{sign}{body[:-digits]}.{body[-digits:]}" if digits else f"{sign}{body}"


def certificate_paths(paths) -> list[Path]:
    """Expand directories to the ``*.json`` files below them, sorted."""
    out: list[Path] = []
    for p in paths:
        p = Path(p)
        if p.is_dir():
            found = sorted(p.rglob("*.json"))
            if not found:
                raise UsageError(f"{p}: no certificates (*.json) in this directory")
            out.extend(found)
        elif p.exists():
            out.append(p)
        else:
            raise UsageError(f"{p}: no such file or directory")
    return out


def _one_line(message: str) -> str:
    """The message on one line, at most :data:`MAX_MESSAGE_CHARS` characters."""
    message = " ".join(message.split())
    if len(message) > MAX_MESSAGE_CHARS:
        half = MAX_MESSAGE_CHARS // 2 - 10
        message = f"{message[:half]} ...[{len(message) - 2 * half} characters cut]... {message[-half:]}"
    return message
