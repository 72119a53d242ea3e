"""The typed result of ``solve`` for a built-in game: the exact answer and what the game names.

A :class:`SolveResult` holds the instance (game, parameters, backend), the answer (its name and
exact value), optionally the generic facts of an optimal solution that the game's exact table
already knows -- the first decision (:class:`Decision`) and the smallest non-zero margin between
the best action and the runner-up (:class:`Margin`) -- and the game's own findings: further exact
numbers (:class:`ExactQuantity`, shown with their certified decimals like the answer) and
:class:`~exactplay.audit.result.Fact` items (a JSON key, a text label, a value).

Nothing here renders: :mod:`exactplay.present.render.solve` turns a SolveResult into JSON, text and
HTML, the same way for every game.  Nothing here names a game.

The smallest margin can be read off the engine's :class:`~exactplay.engine.Solution` of the game's
model (:func:`margin_of`).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from .audit.result import Fact

__all__ = ["Decision", "ExactQuantity", "Fact", "Margin", "SolveResult", "Table", "margin_of"]


@dataclass
class Decision:
    """The optimal action at one state: ``state`` (its name), ``action`` (JSON-ready), and the
    exact ``margin`` best - runner-up there when known (0: an exact tie; None: not computed)."""

    state: str
    action: Any
    margin: Any = None
    text: str | None = None  # the action as text shows it (default: the action)
    note: str = ""  # when the state is reached, in words


@dataclass
class Margin:
    """The smallest non-zero margin best - runner-up over the choice states, exact, and the
    state having it (``state`` JSON-ready, ``name`` as text shows it)."""

    value: Any
    state: Any
    name: str


@dataclass
class Table:
    """Rows of a game's finding (e.g. a line of play): under ``key`` in JSON the list of rows
    (dicts over ``columns``, JSON-ready); in text ``label`` then one line per row, the first
    ``shown`` rows unless ``--full`` (None: all), the rest counted with ``more``."""

    key: str | None
    label: str
    columns: tuple[str, ...]
    rows: list[dict]
    shown: int | None = None
    more: str = "--full shows all"
    template: str | None = None  # a row's text: str.format over the row's cells as text (None: "column value ...")
    text_rows: list[dict] | None = None  # the rows text shows, cells as text (None: ``rows``)


@dataclass
class ExactQuantity:
    """A further exact number of the game, shown like the answer: under ``key`` in JSON (its
    :func:`~exactplay.present.render.exact_number` fields; None when ``value`` is None), ``label`` on the
    line before its text; ``places`` decimals (None: the command's ``--digits``); ``missing``: the
    text line shown when ``value`` is None."""

    key: str
    label: str
    value: Any
    places: int | None = None
    missing: str = ""


@dataclass
class SolveResult:
    """``solve`` of one instance.

    ``title`` is the first text line; ``answer_name`` names ``answer`` (exact) in JSON;
    ``places`` the decimals shown (default ``digits``); ``decisions`` the optimal actions the
    game points out (the first decision first); ``facts`` the game's own findings
    (:class:`~exactplay.audit.result.Fact` or :class:`Table`), shown after the answer and the
    quantities in this order; ``full``: long numbers in full (and every row of a table).
    """

    game: str | None  # None (a user's model): no "game" and "params" keys in JSON
    params: dict | None
    backend: str
    title: str
    answer_name: str
    answer: Any
    digits: int = 8
    full: bool = False
    places: int | None = None
    answer_label: str | None = None  # a text line between the title and the answer's value
    quantities: list[ExactQuantity] = field(default_factory=list)
    decisions: list[Decision] = field(default_factory=list)
    smallest_margin: Margin | None = None
    facts: list = field(default_factory=list)


def margin_of(sol) -> Margin | None:
    """The engine solution's smallest non-zero margin (None if every choice is tied or there is none)."""
    found = sol.smallest_margin()
    if found is None:
        return None
    return Margin(found[0], found[1], sol.model.state_name(found[1]))
