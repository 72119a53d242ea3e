"""The independent certificate checker.

This package re-verifies certificates using only the standard library
(``fractions.Fraction``, ``json``, ``gzip``, ``hashlib``; gmpy2's integers when
installed, only for speed).  It imports nothing from the solvers, so a bug in a
solver cannot hide itself by being shared with the check.

A certificate is version 2 of ``"exactplay-certificate"``; its ``kind`` names
its checker: ``"game"`` (a built-in game: its parameters and the digest of its
canonical model, which the checker rebuilds from its own statement of the rules
in :mod:`exactplay.checker.rules`) by :mod:`exactplay.checker.game`; ``"model"``
(any game written as a model, with its explicit model inside) by
:mod:`exactplay.checker.model`; ``"ball"`` (exact dyadic enclosures) by
:mod:`.ball_model` or :mod:`.ball`; ``"parametric"`` by :mod:`.parametric`.  Each
verifies every field except the informational ``notes`` and ``tool_version``
and raises :class:`~exactplay.errors.VerificationError` naming the field (and
the state) of the first failure, or returns a one-line summary.
"""

from __future__ import annotations

import re
from fractions import Fraction
from pathlib import Path

from ..errors import MalformedCertificate, UsageError, VerificationError
from ._load import clip, load_certificate
from ._strict import MAX_STATES  # noqa: F401 (the checker's limit on a certificate's states, for the writers)

UNVERIFIED_FIELDS = ("notes", "tool_version")

__all__ = ["check_certificate", "check_file", "verify_file", "verify_certificate", "certificate_paths",
           "expected_params", "UNVERIFIED_FIELDS", "PARAMS"]


MAX_MESSAGE_CHARS = 400  # an error line is cut to this length (values are clipped before, this is a backstop)


def _params_of_games() -> dict:
    from .rules import RULES, rules_module

    return {game: rules_module(game).PARAMS for game in RULES}


def __getattr__(name: str):
    if name == "PARAMS":  # each built-in game's parameter names (check --expect), read from its rules
        return _params_of_games()
    raise AttributeError(name)


def check_certificate(cert: dict, source: str = "<certificate>") -> str:
    """Verify a parsed certificate; return a summary line or raise."""
    if type(cert.get("version")) is not int or cert["version"] != 2:
        raise VerificationError(f"version {clip(cert.get('version'))} is not 2", field="version")
    kind = cert.get("kind")
    if kind not in ("model", "game", "ball", "parametric"):
        raise VerificationError(f"unknown kind {clip(kind)} (this checker knows 'model', 'game', 'ball' and "
                                "'parametric')", field="kind")
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
    recorded = ["params"] if "model" in cert and cert.get("params") else []
    unverified = [f for f in UNVERIFIED_FIELDS if f in cert] + recorded
    if cert.get("kind") == "ball":
        rec = cert.get("recurrence")
        name = cert.get("game") if rec == "game" else (cert["model"].get("name", "model") if rec == "model" else rec)
        return {"game": name, "params": cert["params"],
                "answer": {k: answer.get(k) for k in ("name", "lower", "upper", "decimal")},
                "summary": summary, "unverified_fields": unverified}
    built_in = cert["kind"] == "game"  # everything, the decimal included, was verified by its checker
    starts = {} if "initial_states" not in cert else {"initial_states": {
        "count": len(cert["initial_states"]["values"]),
        **{end: cert["initial_states"][end] for end in ("smallest", "largest")}}}  # verified by checker.model
    return {
        "game": cert["game"] if built_in else cert["model"].get("name", "model"),
        "params": cert.get("params", {}),
        "answer": {k: answer.get(k) for k in ("name", "value", "decimal")},
        **starts,
        "summary": summary,
        "unverified_fields": unverified,
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
