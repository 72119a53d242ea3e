"""A result rendered for both of its readers: ``data`` for machines, ``lines`` for people.

Every command's output is one :class:`Report`: ``data`` is JSON-ready (exact numbers as
``"p/q"`` strings, written by :func:`exactplay.strict_json.dumps`), ``lines`` the text a person
reads.  It lives below the renderers and the games, so both can name it without importing the
other.

>>> Report({"answer": "1/2"}, ["answer: 1/2"]).lines
['answer: 1/2']
"""

from __future__ import annotations

from dataclasses import dataclass, field

__all__ = ["Report"]


@dataclass
class Report:
    data: dict
    lines: list[str] = field(default_factory=list)
