"""A model built by stormpy's exact builder, read into flat arrays in bulk.

:func:`extract` turns a sparse model of Storm (``stormpy.build_model[stormpy.Rational]``: a DTMC, an
MDP, an SMG, or a CTMC or Markov automaton as its embedded model, :mod:`.continuous`) into a
:class:`ChoiceArrays`, the explicit model as flat arrays, CSR with row groups::

    state s has the choices (rows)       group_start[s] .. group_start[s+1] - 1
    choice r goes to the entries         row_start[r] .. row_start[r+1] - 1
    entry e: successor column[e] with probability values[value_index[e]]

``values`` is the table of the distinct exact numbers of the model (probabilities and the rewards of
the reward model read): each is converted once, from Storm's exact text ``p/q`` into a
:class:`~fractions.Fraction` (never through a float).  Beside them: the player of each state (an
SMG), the initial states, the labels (the states where each holds), the action label of each
choice, the state and action rewards of one reward model (indices into ``values``) and the
variable valuation of each state.

Speed: Storm's Python bindings hand out one matrix entry at a time (about 15 us each); this reads
one whole row per call instead (``SparseMatrix.print_row``: ``(column, p/q), ...``, about 1 us per
entry), splits all the rows' text at once, and converts each distinct number once.  The arrays
are numpy ``int64`` arrays (``values`` a list), so that an array-based engine can use them as they
are; :mod:`exactplay.interop.objective` makes a :class:`~exactplay.model.Model` of them.
"""

from __future__ import annotations

from operator import itemgetter

import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from fractions import Fraction

from ..model import ModelError
from .continuous import CONTINUOUS

__all__ = ["ChoiceArrays", "Valuations", "extract", "exact_number"]

_EXACT = re.compile(r"-?\d+(/\d+)?")


def exact_number(text: str) -> Fraction:
    """Storm's exact text of a rational (``p/q`` or ``p``) as a Fraction; anything else is refused.

    >>> exact_number("123456789/1000000000"), exact_number("-3")
    (Fraction(123456789, 1000000000), Fraction(-3, 1))
    """
    text = text.strip()
    if not _EXACT.fullmatch(text):
        raise ModelError(f"Storm gave the number {text[:40]!r}, which is not an exact rational p/q")
    num, _, den = text.partition("/")
    return Fraction(int(num), int(den) if den else 1)


class Valuations(Sequence):
    """The name of each state: its variable valuation ``s=5 & srep=1`` (``b=true`` for a boolean),
    made when asked for (a few arrays, not a string per state, are kept).

    >>> v = Valuations(["s", "b"], [[0, 5], [True, False]])
    >>> len(v), v[1], list(v)
    (2, 's=5 & b=false', ['s=0 & b=true', 's=5 & b=false'])
    """

    def __init__(self, names: list[str], columns: list[list], order: list[int] | None = None):
        self.names = list(names)
        self.columns = columns
        self.order = order  # model state k is Storm's state order[k] (None: the same numbers)
        self.n = len(order) if order is not None else (len(columns[0]) if columns else 0)

    def __len__(self) -> int:
        return self.n

    def __getitem__(self, k):
        if isinstance(k, slice):
            return [self[i] for i in range(*k.indices(self.n))]
        if not -self.n <= k < self.n:
            raise IndexError(k)
        d = self.order[k] if self.order is not None else k % self.n
        if not self.names:
            return str(d)
        return " & ".join(f"{name}={_shown(col[d])}" for name, col in zip(self.names, self.columns))

    def __iter__(self):
        """Every name in order, made a block of states at a time column by column: each distinct value's
        ``name=value`` once per column, then one join per state (what writing the whole model asks for;
        ``v[k]`` one at a time formats every value again)."""
        order = self.order if self.order is not None else range(self.n)
        if not self.names:
            yield from map(str, order)
            return
        shown = [{v: f"{name}={_shown(v)}" for v in set(col)} for name, col in zip(self.names, self.columns)]
        for lo in range(0, self.n, _BLOCK):
            pick = itemgetter(*order[lo:lo + _BLOCK])
            block = [map(sh.__getitem__, _tuple(pick(col))) for sh, col in zip(shown, self.columns)]
            yield from map(" & ".join, zip(*block))

    def renumbered(self, order: list[int]) -> "Valuations":
        return Valuations(self.names, self.columns, order)

    def of_storm_state(self, d: int) -> str:
        """The name of Storm's state ``d``."""
        return Valuations(self.names, self.columns)[d]


_BLOCK = 65_536  # states named at once by :meth:`Valuations.__iter__`


def _tuple(x) -> tuple:
    """``itemgetter``'s result as a tuple (it gives the bare item for one index)."""
    return x if isinstance(x, tuple) else (x,)


def _shown(x) -> str:
    if isinstance(x, bool):
        return "true" if x else "false"
    return str(x)


@dataclass
class ChoiceArrays:
    """An explicit model as flat arrays (see the module docstring); states are Storm's numbers."""

    kind: str  # "dtmc" | "mdp" | "smg"
    group_start: np.ndarray  # n + 1 rows
    row_start: np.ndarray  # R + 1 entries
    column: np.ndarray  # E successors
    value_index: np.ndarray  # E indices into values
    values: list[Fraction]  # the distinct exact numbers
    initial: list[int]
    player: np.ndarray | None = None  # n: the player (0, 1, ...) owning each state, for an SMG
    player_names: list[str] = field(default_factory=list)
    labels: dict[str, list[int]] = field(default_factory=dict)  # label -> its states, increasing
    choice_label: list[str | None] | None = None  # R: the action label of each choice (None: unlabelled)
    reward_name: str | None = None
    state_reward: np.ndarray | None = None  # n indices into values (the reward model read)
    action_reward: np.ndarray | None = None  # R indices into values
    valuations: Valuations | None = None
    # a CTMC or Markov automaton (read as its embedded model, :mod:`.continuous`): "CTMC" | "MA", and each
    # state's mean sojourn 1/E (0 in a probabilistic state) as indices into values; None for discrete time
    continuous: str | None = None
    sojourn: np.ndarray | None = None

    @property
    def n(self) -> int:
        return len(self.group_start) - 1

    @property
    def rows(self) -> int:
        return len(self.row_start) - 1

    def value_of(self, text: str, table: dict[str, int]) -> int:
        """The index of the exact number ``text`` in ``values``, adding it if new."""
        i = table.get(text)
        if i is None:
            i = table[text] = len(self.values)
            self.values.append(exact_number(text))
        return i


def _bits(bv) -> list[int]:
    """The set positions of a Storm BitVector, increasing."""
    return list(bv)


def _matrix(matrix, n: int):
    """Row groups, row starts, columns and value texts of Storm's sparse matrix, one call per row."""
    import numpy as np

    rows = matrix.nr_rows
    group_start = np.fromiter((matrix.get_row_group_start(s) for s in range(n)), dtype=np.int64, count=n)
    group_start = np.append(group_start, rows)
    texts = list(map(matrix.print_row, range(rows)))  # "(3, 1/6), (4, 1/6), "
    counts = np.fromiter(map(str.count, texts, ["("] * rows), dtype=np.int64, count=rows)
    row_start = np.zeros(rows + 1, dtype=np.int64)
    np.cumsum(counts, out=row_start[1:])
    joined = "".join(texts)
    if joined:
        tokens = joined[1:-3].split("), (")  # "3, 1/6" per entry
        pairs = ", ".join(tokens).split(", ")
    else:
        pairs = []
    if len(pairs) != 2 * int(row_start[-1]):
        raise ModelError("Storm's transition matrix could not be read (unexpected row text)")
    try:
        column = np.array(pairs[0::2], dtype=np.int64)
    except ValueError:
        raise ModelError("Storm's transition matrix could not be read (a column is not a number)") from None
    return group_start, row_start, column, pairs[1::2]


def _rewards(reward_model, n: int, rows: int, arrays: ChoiceArrays, table: dict[str, int]):
    """State and action rewards of one reward model, as indices into ``values`` (0 where none)."""
    import numpy as np

    zero = arrays.value_of("0", table)
    state = np.full(n, zero, dtype=np.int64)
    action = np.full(rows, zero, dtype=np.int64)
    if reward_model.has_state_rewards:
        state = np.array([arrays.value_of(t, table) for t in map(str, reward_model.state_rewards)], dtype=np.int64)
    if reward_model.has_state_action_rewards:
        action = np.array([arrays.value_of(t, table) for t in map(str, reward_model.state_action_rewards)],
                          dtype=np.int64)
    if len(state) != n or len(action) != rows:
        raise ModelError("Storm's reward model has not one reward per state and per choice")
    return state, action


def _valuations(model) -> Valuations | None:
    if not model.has_state_valuations():
        return None
    sv = model.state_valuations
    names, columns = [], []
    for var in sv.get_all_variables():
        if var.has_boolean_type():
            bits = sv.get_boolean_values(var)
            columns.append([bool(bits[i]) for i in range(len(bits))])
        elif var.has_integer_type():
            columns.append(list(sv.get_int64_values(var)))
        else:
            columns.append([exact_number(str(x)) for x in sv.get_rational_values(var)])
        names.append(var.name)
    keep = [i for i, (name, col) in enumerate(zip(names, columns))
            if not (name.startswith("_loc_") and len(set(col)) <= 1)]  # JANI's one-location automata
    return Valuations([names[i] for i in keep], [columns[i] for i in keep])


def _choice_labels(model, rows: int) -> list[str | None] | None:
    if not model.has_choice_labeling():
        return None
    labeling = model.choice_labeling
    out: list[str | None] = [None] * rows
    for label in sorted(labeling.get_labels()):
        for r in _bits(labeling.get_choices(label)):
            out[r] = label if out[r] is None else f"{out[r]},{label}"
    return out


def extract(model, reward_name: str | None = None, player_names: list[str] | None = None) -> ChoiceArrays:
    """The flat arrays of a sparse exact model of Storm (``reward_name``: the reward model to read)."""
    import numpy as np

    typ = str(model.model_type).rsplit(".", 1)[-1]
    if typ not in ("DTMC", "MDP", "SMG", *CONTINUOUS):
        raise ModelError(f"Storm built a {model.model_type} model: exactplay reads DTMCs, MDPs, SMGs "
                         "(turn-based stochastic games), CTMCs and Markov automata")
    if typ == "MA" and not model.is_closed:  # (a hybrid state's Markovian choice is never taken: maximal progress)
        raise ModelError("Storm built a Markov automaton that is not closed (a state with a Markovian and a "
                         "probabilistic choice): close it first (model.close(), as exactplay's build does)")
    kind = CONTINUOUS.get(typ, typ).lower()  # (a continuous-time model's arrays are its embedded model's)
    n = model.nr_states
    group_start, row_start, column, texts = _matrix(model.transition_matrix, n)
    table: dict[str, int] = {}
    arrays = ChoiceArrays(kind, group_start, row_start, column, np.empty(0, dtype=np.int64), [],
                          sorted(int(s) for s in model.initial_states))
    arrays.value_index = _indices(texts, arrays, table)
    if kind == "smg":
        # Storm's INVALID_PLAYER_INDEX (2^64 - 1) at a state no player owns (one choice, e.g. of an unowned
        # unlabelled command) reads as -1 here
        arrays.player = np.array(model.get_state_player_indications(), dtype=np.uint64).view(np.int64)
        count = int(arrays.player.max()) + 1 if n else 0
        names = list(player_names or [])
        arrays.player_names = names + [f"player {i + 1}" for i in range(len(names), count)]
    arrays.labels = {label: _bits(model.labeling.get_states(label)) for label in model.labeling.get_labels()}
    arrays.choice_label = _choice_labels(model, arrays.rows)
    if reward_name is not None:
        if reward_name not in model.reward_models:
            raise ModelError(f"the model has no reward model \"{reward_name}\"")
        reward_model = model.get_reward_model(reward_name)
        if reward_model.has_transition_rewards:
            raise ModelError(f"reward model \"{reward_name}\": transition rewards are not read (state and "
                             "action rewards are)")
        arrays.reward_name = reward_name
        arrays.state_reward, arrays.action_reward = _rewards(reward_model, n, arrays.rows, arrays, table)
    arrays.valuations = _valuations(model)
    if typ in CONTINUOUS:
        from .continuous import embed_arrays

        table = {}
        exit_of = [table.setdefault(t, len(table)) for t in map(str, model.exit_rates)]  # each distinct text once
        markovian = np.ones(n, dtype=bool)  # a CTMC's every state; an MA's Markovian states
        if typ == "MA":
            markovian = np.zeros(n, dtype=bool)
            markovian[_bits(model.markovian_states)] = True
        arrays.continuous = typ
        embed_arrays(arrays, [exact_number(t) for t in table], exit_of, markovian)
    return arrays


def _indices(texts: list[str], arrays: ChoiceArrays, table: dict[str, int]) -> np.ndarray:
    """``value_index`` of the entries' texts: each distinct text converted once, then one look-up
    per entry (in C: ``map`` over the dict)."""
    import numpy as np

    for t in sorted(set(texts)):
        arrays.value_of(t, table)
    return np.fromiter(map(table.__getitem__, texts), dtype=np.int64, count=len(texts))
