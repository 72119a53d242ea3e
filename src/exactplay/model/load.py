"""Loading a user's game factory: ``module:function`` or ``path/to/file.py:function``.

Parameters given as ``--param name=value`` are passed to the factory as
keyword arguments, read exactly: an integer stays ``int``, ``p/q`` or a
decimal becomes a :class:`~fractions.Fraction` (never a float), ``true`` and
``false`` become booleans, anything else stays a string.
"""

from __future__ import annotations

import importlib
import importlib.util
import sys
from fractions import Fraction
from pathlib import Path
from typing import Any, Callable

from ..errors import UsageError
from ..numbers.backends import refuse_non_ascii_digits

__all__ = ["load_factory", "parse_params", "parse_value"]


def parse_value(text: str) -> Any:
    """A ``--param`` value, exactly.

    >>> parse_value("100"), parse_value("1/6"), parse_value("0.25"), parse_value("fair")
    (100, Fraction(1, 6), Fraction(1, 4), 'fair')
    """
    word = refuse_non_ascii_digits(text, "--param value").strip()
    low = word.lower()
    if low in ("true", "false"):
        return low == "true"
    body = word[1:] if word[:1] in "+-" else word
    if body.isascii() and body.isdigit():
        if len(body) > 1000:
            raise UsageError(f"--param value {word[:20]}... is longer than 1000 digits")
        return int(word)
    if len(word) <= 1000 and word.isascii() and any(c.isdigit() for c in word):
        try:
            return Fraction(word)
        except (ValueError, ZeroDivisionError):
            pass
    return word


def parse_params(pairs: list[str] | None) -> dict[str, Any]:
    """``["goal=100", "p=1/2"]`` -> ``{"goal": 100, "p": Fraction(1, 2)}``."""
    out: dict[str, Any] = {}
    for pair in pairs or []:
        name, eq, value = pair.partition("=")
        name = name.strip()
        if not eq or not name.isidentifier():
            raise UsageError(f"--param {pair[:60]!r}: write NAME=VALUE with NAME a Python identifier")
        if name in out:
            raise UsageError(f"--param {name} is given twice")
        out[name] = parse_value(value)
    return out


def load_factory(spec: str) -> Callable[..., Any]:
    """The callable named by ``module:function`` or ``path/file.py:function``."""
    target, colon, attr = spec.rpartition(":")
    if not colon or not target or not attr:
        raise UsageError(f"--game {spec!r}: write MODULE:FACTORY or path/to/file.py:FACTORY")
    if target.endswith(".py") or "/" in target or "\\" in target:
        path = Path(target)
        if not path.is_file():
            raise UsageError(f"--game {spec}: no such file {target}")
        mod_name = f"exactplay_user_{abs(hash(str(path.resolve())))}"
        loader_spec = importlib.util.spec_from_file_location(mod_name, path)
        if loader_spec is None or loader_spec.loader is None:
            raise UsageError(f"--game {spec}: cannot load {target} as a Python file")
        module = importlib.util.module_from_spec(loader_spec)
        sys.modules[mod_name] = module
        try:
            loader_spec.loader.exec_module(module)
        except Exception as exc:  # the user's code: report it in one line
            sys.modules.pop(mod_name, None)
            raise UsageError(f"--game {spec}: importing {target} failed: {type(exc).__name__}: {exc}") from None
    else:
        try:
            module = importlib.import_module(target)
        except ImportError as exc:
            raise UsageError(f"--game {spec}: cannot import module {target!r} ({exc})") from None
        except Exception as exc:
            raise UsageError(f"--game {spec}: importing {target} failed: {type(exc).__name__}: {exc}") from None
    factory = getattr(module, attr, None)
    if not callable(factory):
        raise UsageError(f"--game {spec}: {target} has no callable {attr!r}")
    return factory


def make_game(spec: str, params: dict[str, Any]) -> Any:
    """Call the factory with the parameters; its errors become one line."""
    factory = load_factory(spec)
    try:
        return factory(**params)
    except TypeError as exc:
        raise UsageError(f"--game {spec}: the factory does not take these parameters ({exc})") from None
    except Exception as exc:  # the user's factory: one line, never a traceback
        raise UsageError(f"--game {spec}: the factory failed: {type(exc).__name__}: {str(exc)[:200]}") from None
