"""Strict JSON for every file a user hands the tool: certificates, model files, float tables.

Standard library only.  One reader, three guarantees:

* **no name twice in one object.**  RFC 8259 (section 4) leaves open which of two members
  with the same name a parser keeps (Python's keeps the last), so a file that depends on it
  means different things to different readers; such a file is refused with the name, the
  line and the column of its second occurrence (:class:`DuplicateName`);
* **bounded integer literals**: JSON is parsed with Python's int/str digit guard set to a
  limit (the package lifts the guard for its own long numbers; untrusted text never gets
  that), so a 10^7-digit literal fails at once instead of converting in quadratic time;
* **one value at a time, when asked** (:class:`Cursor`): a reader may walk an object's
  members and an array's elements and parse each with Python's C scanner on its own, so
  that it can refuse a count (states, players) before the values past it are built.
"""

from __future__ import annotations

import contextlib
import gc
import json
import re
import sys
from json.scanner import make_scanner
from typing import Any, Callable, Iterator

__all__ = ["JSON_INT_DIGITS", "DuplicateName", "Cursor", "bounded_int_digits", "parse_json", "scanner",
           "line_column"]

# Integers in a certificate's JSON are states, counts and turns (chefs masks < 2^16);
# numbers are "p/q" strings.  640 is the smallest guard Python accepts.
JSON_INT_DIGITS = 640

_WS = re.compile(r"[ \t\n\r]*")
# the tokens that locate a name: a string (a name when ':' follows), ':' and the brackets
_TOKEN = re.compile(r'"(?:[^"\\]|\\.)*"|[{}\[\]:]', re.S)


def line_column(text: str, pos: int) -> tuple[int, int]:
    """The 1-based line and column of offset ``pos`` in ``text``."""
    return text.count("\n", 0, pos) + 1, pos - text.rfind("\n", 0, pos)


def _short(name: str) -> str:
    return repr(name) if len(name) <= 60 else repr(name[:60]) + f"... ({len(name)} characters)"


class DuplicateName(ValueError):
    """A name given twice in one JSON object; ``pos`` is the offset of its second occurrence, once located."""

    def __init__(self, name: str, pos: int | None = None, text: str | None = None):
        self.name, self.pos = name, pos
        where = ""
        if pos is not None and text is not None:
            where = " (line {}, column {})".format(*line_column(text, pos))
        super().__init__(f"the name {_short(name)} appears twice in one object{where}")

    def located(self, text: str, start: int = 0) -> "DuplicateName":
        """The same error with the position of the second occurrence, found by walking ``text``
        from ``start`` (where the value that holds it begins) to it."""
        pos = _second_occurrence(text, start, self.name)
        return DuplicateName(self.name, pos, text) if pos is not None else self


def _second_occurrence(text: str, start: int, wanted: str) -> int | None:
    """The offset where ``wanted`` is first given a second time in one object, walking the value at
    ``start``.

    Only on the error path: each object's names are kept while it is open (the stack holds the
    open containers: a set of names for an object, ``None`` for an array)."""
    stack: list = []
    last = None
    for m in _TOKEN.finditer(text, start):
        tok = m.group()
        c = tok[0]
        if c == '"':
            last = m
        elif c == ":":
            if stack and stack[-1] is not None and last is not None:
                try:
                    name = json.loads(last.group())
                except ValueError:
                    return None
                if name == wanted and name in stack[-1]:
                    return last.start()
                stack[-1].add(name)
            last = None
        elif c in "{[":
            stack.append(set() if c == "{" else None)
        else:
            if not stack:
                return None
            stack.pop()
            if not stack:
                return None  # the value ended without a name twice
    return None


def unique_names(pairs: list) -> dict:
    """An object's members as a dict, refusing a name given twice (:class:`DuplicateName`)."""
    obj = dict(pairs)
    if len(obj) != len(pairs):
        seen: set = set()
        raise DuplicateName(next(k for k, _ in pairs if k in seen or seen.add(k)))
    return obj


@contextlib.contextmanager
def bounded_int_digits(limit: int = JSON_INT_DIGITS):
    """Python's int/str digit guard set to ``limit`` for the block (restored after).

    The package lifts the guard for its own long numbers (``exactplay/__init__``);
    untrusted text is parsed inside this block so that ``json`` refuses a huge
    integer literal at once instead of converting it in quadratic time.
    """
    if not hasattr(sys, "get_int_max_str_digits"):  # Python < 3.11: no guard to set
        yield
        return
    old = sys.get_int_max_str_digits()
    sys.set_int_max_str_digits(max(limit, 640))
    try:
        yield
    finally:
        sys.set_int_max_str_digits(old)


@contextlib.contextmanager
def _collector_paused():
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()


def _digit_guard(exc: ValueError, limit: int) -> ValueError:
    if "limit" in str(exc) and "digits" in str(exc):
        return ValueError(f"an integer literal longer than {limit} digits")
    return exc


def _decoder(parse_float: Callable | None, parse_constant: Callable | None) -> json.JSONDecoder:
    return json.JSONDecoder(object_pairs_hook=unique_names, parse_float=parse_float, parse_constant=parse_constant)


def parse_json(data: str | bytes) -> Any:
    """``json.loads`` with bounded integer literals and no name twice in an object; raises
    ``ValueError`` (with a short message; :class:`DuplicateName` saying where) or ``RecursionError``
    on bad input.

    The cyclic garbage collector is paused meanwhile: parsed JSON holds no reference cycles, and the
    collector's passes over the millions of containers of a big certificate took three quarters of its
    parse (a 349 MB certificate of 907,993 states: 9.3 s of CPU with them, about 2.5 s without)."""
    with bounded_int_digits(JSON_INT_DIGITS), _collector_paused():
        try:
            return json.loads(data, object_pairs_hook=unique_names)
        except DuplicateName as exc:
            text = data.decode("utf-8", "replace") if isinstance(data, (bytes, bytearray)) else data
            raise exc.located(text) from None
        except json.JSONDecodeError:
            raise
        except ValueError as exc:  # the digit guard
            raise _digit_guard(exc, JSON_INT_DIGITS) from None


def scanner(parse_float: Callable | None = None, parse_constant: Callable | None = None) -> Callable:
    """``scan_once(text, pos) -> (value, end)``: one JSON value by Python's C scanner, with no name
    twice in an object (the digit guard is the caller's: :func:`bounded_int_digits`)."""
    return make_scanner(_decoder(parse_float, parse_constant))


class Cursor:
    """A position in a JSON text, read one member or element at a time.

    :meth:`members` and :meth:`elements` walk an object or an array and yield before each
    member's value or each element, which the caller then reads with :meth:`value` (or walks
    further); :meth:`peek` says what the next value is before anything of it is built.  Syntax
    errors are ``json.JSONDecodeError`` (with the line), as ``json.loads`` raises them.
    """

    def __init__(self, text: str, scan: Callable, int_digits: int = JSON_INT_DIGITS):
        self.text, self.scan, self.pos, self.int_digits = text, scan, 0, int_digits

    def error(self, msg: str, pos: int | None = None):
        raise json.JSONDecodeError(msg, self.text, self.pos if pos is None else pos)

    def peek(self) -> str:
        """The next character that is not whitespace ('' at the end)."""
        self.pos = _WS.match(self.text, self.pos).end()
        return self.text[self.pos:self.pos + 1]

    def take(self, char: str, what: str) -> None:
        if self.peek() != char:
            self.error(f"Expecting {what}")
        self.pos += 1

    def value(self) -> Any:
        """The value at the cursor, parsed whole."""
        start = self.pos = _WS.match(self.text, self.pos).end()
        try:
            value, self.pos = self.scan(self.text, start)
        except StopIteration:
            self.error("Expecting value", start)
        except DuplicateName as exc:
            raise exc.located(self.text, start) from None
        except json.JSONDecodeError:
            raise
        except ValueError as exc:
            raise _digit_guard(exc, self.int_digits) from None
        return value

    def members(self) -> Iterator[tuple[str, int]]:
        """``(name, offset of the name)`` for each member of the object at the cursor; the caller reads
        the value before the next step.  A name given twice is a :class:`DuplicateName`."""
        self.take("{", "'{'")
        if self.peek() == "}":
            self.pos += 1
            return
        seen: set = set()
        while True:
            if self.peek() != '"':
                self.error("Expecting property name enclosed in double quotes")
            at = self.pos
            name = self.value()
            if name in seen:
                raise DuplicateName(name, at, self.text)
            seen.add(name)
            self.take(":", "':' delimiter")
            yield name, at
            c = self.peek()
            self.pos += 1
            if c == "}":
                return
            if c != ",":
                self.error("Expecting ',' delimiter", self.pos - 1)

    def elements(self) -> Iterator[int]:
        """The index of each element of the array at the cursor; the caller reads it before the next step."""
        self.take("[", "'['")
        if self.peek() == "]":
            self.pos += 1
            return
        i = 0
        while True:
            yield i
            i += 1
            c = self.peek()
            self.pos += 1
            if c == "]":
                return
            if c != ",":
                self.error("Expecting ',' delimiter", self.pos - 1)

    def end(self) -> None:
        """Nothing but whitespace is left."""
        if self.peek():
            self.error("Extra data")
