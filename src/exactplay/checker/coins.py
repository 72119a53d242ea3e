"""Independent check of a coin-row certificate.

The coins ``v_0 .. v_{n-1}`` are read from ``params.coins`` (``"p/q"``).  In
every state ``0 <= i <= j < n`` of the table, with :class:`fractions.Fraction`
only, the checker verifies the minimax equation of the game in its raw form:
the player to move takes an end coin and then gets what the opponent leaves,
and the opponent, moving next, gets the remaining total minus nothing more
than *its* value, so

    left  = v_i + (Sum(i+1, j) - V(i+1, j))
    right = v_j + (Sum(i, j-1) - V(i, j-1))
    V(i, j) = max(left, right),          V(i, i) = v_i,

with ``Sum(i, j) = P(j + 1) - P(i)`` from prefix sums ``P`` of the coins
recomputed here (so the check is quadratic in the number of coins, like the
table, not cubic).  It also checks that the stored
candidates are these, that the stored choice is ``tie`` exactly when
``left == right`` and otherwise names the larger side, that the answer is
``V(0, n-1)``, that the stored line of play starts at the whole row, follows a
best choice at every state (the left coin on a tie, as the certificate says),
gives the first player ``V(0, n-1)``, and that the list of ties is complete.

Why this suffices: each equation refers only to strictly shorter intervals, so
by induction on ``j - i`` exactly one table satisfies all of them, and that
table is the value of the game (the game tree's minimax value satisfies them).
"""

from __future__ import annotations

from fractions import Fraction

from ..errors import VerificationError
from ._load import Table, integer, rational

COLUMNS = ["i", "j", "V", "left", "right", "choice"]
TIE_RULE = "on a tie the line of play takes the left coin"


def verify(cert: dict, table: Table) -> str:
    params = cert["params"]
    if not isinstance(params, dict) or not isinstance(params.get("coins"), list) or not params["coins"]:
        raise VerificationError("missing or empty coin row", field="params.coins")
    v = [rational(c, "params.coins", k) for k, c in enumerate(params["coins"])]
    n = len(v)
    if table.columns != COLUMNS:
        raise VerificationError(f"columns {table.columns} are not {COLUMNS}", field="table.columns")
    if len(table.rows) != n * (n + 1) // 2:
        raise VerificationError(f"{len(table.rows)} rows for {n * (n + 1) // 2} states", field="table")

    V, L, R, choice = {}, {}, {}, {}
    for row in table.rows:
        if len(row) != 6:
            raise VerificationError("row has not 6 entries", field="table", state=row[:2])
        i = integer(row[0], "table.i")
        j = integer(row[1], "table.j", i)
        state = (i, j)
        if not 0 <= i <= j < n or state in V:
            raise VerificationError("state out of range or repeated", field="table", state=state)
        V[state] = rational(row[2], "table.V", state)
        L[state] = rational(row[3], "table.left", state)
        R[state] = rational(row[4], "table.right", state)
        choice[state] = row[5]

    prefix = [Fraction(0)]
    for x in v:
        prefix.append(prefix[-1] + x)
    ties = set()
    smallest = None
    for length in range(1, n + 1):
        for i in range(n - length + 1):
            j = i + length - 1
            state = (i, j)
            if i == j:
                if not (V[state] == L[state] == R[state] == v[i]):
                    raise VerificationError(f"one coin: V must be v_i = {v[i]}", field="table.V", state=state)
                if choice[state] != "single":
                    raise VerificationError("one coin: choice must be 'single'", field="table.choice", state=state)
                continue
            rest_left = prefix[j + 1] - prefix[i + 1]  # v_{i+1} + ... + v_j
            rest_right = prefix[j] - prefix[i]  # v_i + ... + v_{j-1}
            left = v[i] + rest_left - V[(i + 1, j)]
            right = v[j] + rest_right - V[(i, j - 1)]
            if L[state] != left:
                raise VerificationError(f"stored left {L[state]} but v_i + Sum - V(i+1,j) = {left}",
                                        field="table.left", state=state)
            if R[state] != right:
                raise VerificationError(f"stored right {R[state]} but v_j + Sum - V(i,j-1) = {right}",
                                        field="table.right", state=state)
            best = max(left, right)
            if V[state] != best:
                raise VerificationError(f"V = {V[state]} but the minimax maximum is {best}",
                                        field="table.V", state=state)
            expected = "tie" if left == right else ("left" if left > right else "right")
            if choice[state] != expected:
                raise VerificationError(f"stored choice {choice[state]!r}, the equations give {expected!r}",
                                        field="table.choice", state=state)
            if left == right:
                ties.add(state)
            elif smallest is None or abs(left - right) < smallest[0]:
                smallest = (abs(left - right), [i, j])  # the first smallest, by length then i

    answer = cert["answer"]
    if not isinstance(answer, dict) or "value" not in answer:
        raise VerificationError("answer has no value", field="answer")
    value = rational(answer["value"], "answer.value")
    if value != V[(0, n - 1)]:
        raise VerificationError(f"answer {value} is not V(0,n-1) = {V[(0, n - 1)]}", field="answer.value",
                                state=(0, n - 1))

    sg = cert["smallest_gap"]
    if smallest is None:
        if sg is not None:
            raise VerificationError("every state is a tie: there is no smallest nonzero gap", field="smallest_gap")
    else:
        if not isinstance(sg, dict) or set(sg) != {"value", "state"}:
            raise VerificationError("smallest_gap must be {value, state}", field="smallest_gap")
        if rational(sg["value"], "smallest_gap.value") != smallest[0]:
            raise VerificationError(f"the smallest nonzero |left - right| is {smallest[0]}",
                                    field="smallest_gap.value")
        if sg["state"] != smallest[1]:
            raise VerificationError(f"the smallest gap is first reached (by length, then i) at {smallest[1]}",
                                    field="smallest_gap.state")

    policy = cert["policy"]
    if not isinstance(policy, dict) or set(policy) != {"line_of_play", "ties", "tie_rule"}:
        raise VerificationError("policy must have exactly the keys line_of_play, ties, tie_rule", field="policy")
    if policy["tie_rule"] != TIE_RULE:
        raise VerificationError(f"the line of play is checked with the rule {TIE_RULE!r}", field="policy.tie_rule")
    stored_ties = policy.get("ties")
    if not isinstance(stored_ties, list) or not all(
            isinstance(t, list) and len(t) == 2 and all(type(k) is int for k in t) for t in stored_ties) \
            or {tuple(t) for t in stored_ties} != ties \
            or len(stored_ties) != len(ties):
        raise VerificationError(f"the list of ties is not the {len(ties)} states with left == right",
                                field="policy.ties")
    line = policy.get("line_of_play")
    if not isinstance(line, list) or len(line) != n:
        raise VerificationError(f"line of play must have {n} moves", field="policy.line_of_play")
    i, j = 0, n - 1
    first = Fraction(0)
    for k, move in enumerate(line):
        if not isinstance(move, list) or len(move) != 3 or move[:2] != [i, j] or move[2] not in ("left", "right"):
            raise VerificationError(f"move {k + 1} is not a move from state ({i}, {j})",
                                    field="policy.line_of_play", state=(i, j))
        side = move[2]
        ok = choice[(i, j)] in ("single", "tie") and side == "left" or choice[(i, j)] == side
        if not ok:
            raise VerificationError(f"move {k + 1} takes the {side} coin, not a best choice",
                                    field="policy.line_of_play", state=(i, j))
        coin = v[i] if side == "left" else v[j]
        if k % 2 == 0:
            first += coin
        i, j = (i + 1, j) if side == "left" else (i, j - 1)
    if first != V[(0, n - 1)]:
        raise VerificationError(f"the line of play gives the first player {first}, not V(0,n-1)",
                                field="policy.line_of_play")
    return f"coins n={n}: {len(V)} minimax equations hold; V(0,{n - 1}) = {value}; {len(ties)} ties"
