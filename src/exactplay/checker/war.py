"""Independent check of a War-sweep certificate.

The certificate stores, for every turn ``t`` and abstract deck ``d`` (sorted
counts per rank), the probability ``P_t(d)`` that A has won the first ``t``
turns and the deck left is ``d``; the answer ``p = sum_d P_T(d)``,
``T = n / 2``; and ``expected_games = 1 / (2 p)``.

War has no choices, so there is no optimality equation to solve and no
uniqueness question: the check recomputes every stored number from the rules,
by a method that shares nothing with the solver.  The solver propagates
probabilities over sorted count tuples; this checker counts *card-level deals*
with integers over a different state, the multiplicity vector
``m = (m_1, ..., m_S)`` (``m_k`` ranks have exactly ``k`` cards left; the
seed's discarded second representation).  A turn won by A picks two different
ranks with ``a`` and ``b`` cards (``a <= b``); the cards can be chosen in

    m_a m_b a b      ways if a != b,     C(m_a, 2) a^2   ways if a == b,

and of the two ways to hand them to A and B exactly one is a win for A.  So
``W_t(m)``, the number of ordered card sequences of ``t`` A-won turns leading to
``m``, obeys ``W_{t+1}(m') = sum W_t(m) * ways``, and

    P_t(d) = W_t(m(d)) / (n (n - 1) ... (n - 2t + 1)).

Every stored row must equal that, every reachable state must be stored, and the
answer and the expected number of games must follow.  Standard library only.
"""

from __future__ import annotations

from fractions import Fraction

from ..errors import VerificationError
from ._load import Table, approx, integer, rational

COLUMNS = ["turn", "deck", "P"]


def _successors(m: tuple) -> list:
    """``(m', ways)`` for every pair of distinct ranks, ``m[k-1]`` ranks with k cards."""
    S = len(m)
    out = []
    for a in range(1, S + 1):
        for b in range(a, S + 1):
            ma, mb = m[a - 1], m[b - 1]
            ways = ma * (ma - 1) // 2 * a * a if a == b else ma * mb * a * b
            if ways == 0:
                continue
            v = list(m)
            for k in (a, b):
                v[k - 1] -= 1
                if k > 1:
                    v[k - 2] += 1
            out.append((tuple(v), ways))
    return out


def _multiplicities(deck: tuple, suits: int) -> tuple:
    return tuple(deck.count(k) for k in range(1, suits + 1))


def verify(cert: dict, table: Table) -> str:
    params = cert["params"]
    if not isinstance(params, dict) or "ranks" not in params or "suits" not in params:
        raise VerificationError("missing ranks or suits", field="params")
    R = integer(params["ranks"], "params.ranks")
    S = integer(params["suits"], "params.suits")
    if R < 1 or S < 1 or (R * S) % 2:
        raise VerificationError(f"{R} ranks x {S} suits is not a deck of War", field="params")
    n, T = R * S, R * S // 2
    if table.columns != COLUMNS:
        raise VerificationError(f"columns {table.columns} are not {COLUMNS}", field="table.columns")

    stored: dict = {}
    for row in table.rows:
        if len(row) != 3:
            raise VerificationError("row has not 3 entries", field="table", state=row[:2])
        t = integer(row[0], "table.turn")
        deck = row[1]
        if not isinstance(deck, list) or not all(isinstance(c, int) and not isinstance(c, bool) for c in deck):
            raise VerificationError("deck is not a list of integers", field="table.deck", state=(t, deck))
        state = (t, tuple(deck))
        if not 0 <= t <= T:
            raise VerificationError(f"turn out of range 0..{T}", field="table.turn", state=state)
        if list(deck) != sorted(deck) or any(not 1 <= c <= S for c in deck) or len(deck) > R:
            raise VerificationError("not an abstract deck (sorted counts 1..suits)", field="table.deck", state=state)
        if sum(deck) != n - 2 * t:
            raise VerificationError(f"deck has {sum(deck)} cards, turn {t} leaves {n - 2 * t}",
                                    field="table.deck", state=state)
        if state in stored:
            raise VerificationError("repeated row", field="table", state=state)
        stored[state] = rational(row[2], "table.P", state)

    start = tuple([0] * (S - 1) + [R])
    W = {start: 1}
    falling = 1  # n (n-1) ... (n - 2t + 1)
    p = Fraction(0)
    for t in range(T + 1):
        if t > 0:
            nxt: dict = {}
            for m, w in W.items():
                for m2, ways in _successors(m):
                    nxt[m2] = nxt.get(m2, 0) + w * ways
            W = nxt
            left = n - 2 * (t - 1)
            falling *= left * (left - 1)
        reached = {}
        for m, w in W.items():
            deck = tuple(k for k in range(1, S + 1) for _ in range(m[k - 1]))
            reached[deck] = Fraction(w, falling)
        rows_t = {d: x for (tt, d), x in stored.items() if tt == t}
        for deck, x in reached.items():
            if deck not in rows_t:
                raise VerificationError(f"reachable deck missing (P = {x})", field="table", state=(t, list(deck)))
            if rows_t[deck] != x:
                raise VerificationError(f"stored P = {rows_t[deck]} but counting deals gives {x}",
                                        field="table.P", state=(t, list(deck)))
        for deck in rows_t:
            if deck not in reached:
                raise VerificationError("stored deck is not reachable with A winning every turn",
                                        field="table", state=(t, list(deck)))
        if t == T:
            p = sum(reached.values(), Fraction(0))

    if cert["policy"] is not None:
        raise VerificationError("War has no choices: policy must be null", field="policy")
    if cert["smallest_gap"] is not None:
        raise VerificationError("War has no choices: smallest_gap must be null", field="smallest_gap")
    answer = cert["answer"]
    if not isinstance(answer, dict) or "value" not in answer:
        raise VerificationError("answer has no value", field="answer")
    value = rational(answer["value"], "answer.value")
    if value != p:
        raise VerificationError(f"answer {value} is not the sum of the last turn's P = {p}", field="answer.value")
    games = cert.get("expected_games")
    if p:
        g = rational(games, "expected_games")
        if g != 1 / (2 * p):
            raise VerificationError(f"expected_games {g} is not 1/(2p) = {1 / (2 * p)}", field="expected_games")
    elif games is not None:
        raise VerificationError("expected_games given although p = 0", field="expected_games")
    return (f"war {R}x{S}: {len(stored)} (turn, deck) probabilities re-derived by counting deals; "
            f"p = {approx(p, 6)}, 1/(2p) = {approx(1 / (2 * p), 6, 'g') if p else 'inf'}")
