"""Hold or Continue? (ICPC Latin America 2019, problem H): the rules as equations.

Rules.  Two players alternate turns.  In a turn the mover rolls a fair die
with faces ``1..F`` as often as they like: a 1 ends the turn scoring nothing,
``d`` in ``2..F`` adds ``d`` to the turn total ``x``; a roll taking
``score + x`` past the target ``T`` ends the turn scoring nothing (a bust);
holding adds ``x`` to the score and passes the turn; scoring exactly ``T``
wins.

States.  ``(c, h, x)``: the mover's score ``c``, the opponent's ``h``
(``0 <= c, h < T``) and the turn total ``2 <= x <= T - c``.  ``V(c, h)`` is the
mover's winning probability at the start of a turn, ``v(c, h, x)`` inside it.

Dead scores.  From score ``s`` the target is reachable iff ``T - s`` is a sum
of faces ``2..F`` (the empty sum included): for ``F >= 3`` every distance but
1, for ``F = 2`` the even ones (:func:`alive_scores`).  A dead player never
wins, and every score a dead player can reach is dead.

Equations.  With ``Q(a, b)`` the winning probability of the player *not* to
move at ``(a, b)``::

    hold(c, h, x) = 1 if c + x = T  else  Q(h, c + x)
    cont(c, h, x) = ( sum_{d=2..F, x+d <= T-c} v(c, h, x+d) + k_x Q(h, c) ) / F
    v(c, h, x)    = max(hold, cont)
    V(c, h)       = ( sum_{d=2..F, d <= T-c} v(c, h, d) + k_0 Q(h, c) ) / F

where ``k`` counts the outcomes that lose the turn (the 1 and the busts), and

    Q(a, b) = 1 - V(a, b)   unless a and b are both dead;   Q(a, b) = 0 if both are.

Why ``1 - V``.  The rules reward only winning, and a game where neither player
can reach ``T`` never ends: both then win with probability 0, so in general
``V(a, b) + Q(a, b) = 1 - P(never ends)``.  If exactly one player is alive,
that player wins with probability 1 (every turn has a positive chance of
reaching ``T`` and the other can never win), so ``V = 1`` for the alive mover
and ``0`` for the dead one.  If both are alive, optimal play never holds onto
a dead score (that is worth 0 while continuing is worth the positive pass
value) and, holding on ties, every turn holds with positive probability
(``V(c, h) > Q(h, c)``, see :mod:`exactplay.checker.hold`); holds are finitely
many, so the game ends with probability 1 and ``P(never ends) = 0``.

Order.  A hold from ``(c, h)`` leads to ``(h, c + x)``, whose score sum is
larger; a lost turn leads to ``(h, c)``.  So the score pairs ``{c, h}`` are
solved by decreasing ``c + h``, each as a 2-cycle in the two unknowns
``V(c, h)`` and ``V(h, c)`` (:func:`solve_pair`).
"""

from __future__ import annotations

from typing import Any, Sequence

from exactplay.numbers.backends import Backend, best_of

HOLD, CONTINUE = "H", "C"


def reachable_distances(target: int, faces: int) -> list[bool]:
    """``ok[r]``: can a total of exactly ``r`` be built from faces ``2..F``? (``ok[0]`` True)."""
    ok = [False] * (target + 1)
    ok[0] = True
    for r in range(2, target + 1):
        ok[r] = any(ok[r - d] for d in range(2, min(faces, r) + 1))
    return ok


def alive_scores(target: int, faces: int) -> list[bool]:
    """``alive[s]`` for ``0 <= s < T``: can a player on score ``s`` still score exactly ``T``?"""
    ok = reachable_distances(target, faces)
    return [ok[target - s] for s in range(target)]


def pass_value(B: Backend, V, alive, a: int, b: int) -> Any:
    """``Q(a, b)``: the non-mover's winning probability at ``(a, b)`` (0 if both are dead)."""
    if not alive[a] and not alive[b]:
        return B.zero
    return B.one - V[a][b]


def hold_values(B: Backend, target: int, V, alive, c: int, h: int) -> list:
    """``hv[x]`` = value of holding at ``(c, h, x)`` for ``2 <= x <= T - c`` (entries 0, 1 unused)."""
    m = target - c
    hv = [B.zero] * (m + 1)
    for x in range(2, m):
        hv[x] = pass_value(B, V, alive, h, c + x)
    hv[m] = B.one
    return hv


def turn_table(B: Backend, faces: int, hv: Sequence, L: Any):
    """The turn of a mover whose holds are worth ``hv[x]`` and whose lost turn is worth ``L``.

    Returns ``(start, v, cont)`` with ``cont[x] = (sum_{d} v[x+d] + k_x L) / F``
    and ``v[x] = max(hv[x], cont[x])`` for ``x = m..2`` (``m = len(hv) - 1``),
    ``start`` the value before the first roll.  The window sum
    ``v[x+2] + ... + v[x+F]`` is a difference of suffix sums, as in the seed.
    """
    F = faces
    m = len(hv) - 1
    v = [None] * (m + 1)
    cont = [None] * (m + 1)
    suffix = [B.zero] * (m + 2)
    kL = [k * L for k in range(F + 1)]
    for x in range(m, 1, -1):
        lo, hi = x + 2, min(x + F, m)
        if lo <= hi:
            c_x = (_window(B, v, suffix, lo, hi) + kL[F - (hi - lo + 1)]) / F
        else:
            c_x = kL[F] / F
        h_x = hv[x]
        cont[x] = c_x
        v[x] = best_of(B, (h_x, c_x))[0]  # h_x if h_x >= c_x else c_x; in balls an enclosure of the max
        suffix[x] = suffix[x + 1] + v[x]
    hi = min(F, m)
    start = (_window(B, v, suffix, 2, hi) + kL[F - (hi - 1)]) / F
    return start, v, cont


def _window(B: Backend, v: Sequence, suffix: Sequence, lo: int, hi: int) -> Any:
    """``v[lo] + ... + v[hi]``: a difference of suffix sums (as the seed does), except in balls,
    where that difference would add the radii of every later value (the two sums share them)."""
    if B.prec is None:
        return suffix[lo] - suffix[hi + 1]
    if lo > hi:
        return B.zero
    total = v[lo]
    for y in range(lo + 1, hi + 1):
        total = total + v[y]
    return total


def greedy_policy(hv: Sequence, cont: Sequence) -> str:
    """``'H'``/``'C'`` for ``x = 2..m``: hold when holding is at least as good (ties hold)."""
    return "".join(HOLD if hv[x] >= cont[x] else CONTINUE for x in range(2, len(hv)))


def turn_affine(B: Backend, faces: int, hv: Sequence, policy: str):
    """Start value of a turn played by ``policy``, as ``alpha + beta * L`` in the pass value L.

    ``p[x]``, the probability of reaching turn total ``x``, is a forward pass:
    ``p[x] = [2 <= x <= F] / F + sum_{d=2..F} [policy at x-d continues] p[x-d] / F``.
    Then ``alpha = sum_{x held} p[x] hv[x]`` and ``beta = 1 - sum_{x held} p[x]``
    (the probability of losing the turn).  Only ``alpha`` involves large numbers.
    """
    F = faces
    m = len(hv) - 1
    inv = B.q(1, F)
    p = [B.zero] * (m + 1)
    for x in range(2, min(F, m) + 1):
        p[x] = inv
    alpha, held = B.zero, B.zero
    for x in range(2, m + 1):
        px = p[x]
        if not px:
            continue
        if policy[x - 2] == HOLD:
            alpha += px * hv[x]
            held += px
        else:
            step = px * inv
            for y in range(x + 2, min(x + F, m) + 1):
                p[y] += step
    return alpha, B.one - held


# ---------------------------------------------------------------- fixed point

PRECISION = 128  # bits after the binary point of the fixed-point shadow


def to_fixed(x: Any, bits: int = PRECISION) -> int:
    """``floor(x * 2**bits)`` of an exact rational ``x``."""
    return (int(x.numerator) << bits) // int(x.denominator)


def fixed_error(target: int) -> int:
    """Bound, in units of ``2**-bits``, on the error of every value of :func:`turn_fixed`.

    Inputs are within 1 unit; ``cont`` is a weighted mean (weights summing to
    1) of values one roll deeper plus one floor division, and ``max`` does not
    increase errors, so a value ``j`` rolls from the end of the turn is within
    ``j + 2`` units; ``j <= T``.
    """
    return target + 3


def turn_fixed(faces: int, hv: Sequence[int], L: int):
    """:func:`turn_table` in fixed point: ``(start, v, cont)`` as integers, floor division by F."""
    F = faces
    m = len(hv) - 1
    v = [0] * (m + 1)
    cont = [0] * (m + 1)
    suffix = [0] * (m + 2)
    kL = [k * L for k in range(F + 1)]
    for x in range(m, 1, -1):
        hi = x + F if x + F < m else m
        lo = x + 2
        if lo <= hi:
            c_x = (suffix[lo] - suffix[hi + 1] + kL[F - (hi - lo + 1)]) // F
        else:
            c_x = L
        cont[x] = c_x
        h_x = hv[x]
        v[x] = h_x if h_x >= c_x else c_x
        suffix[x] = suffix[x + 1] + v[x]
    hi = min(F, m)
    start = (suffix[2] - suffix[hi + 1] + kL[F - (hi - 1)]) // F
    return start, v, cont
