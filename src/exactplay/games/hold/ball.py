"""Hold or Continue? in balls: enclosures of every V(c, h) and certified hold/continue decisions.

Pairs are solved in the exact solver's order (decreasing ``c + h``), with the
same equations (:mod:`exactplay.games.hold.recurrence`) evaluated in ``arb``
balls.  A pair of alive scores is a 2-cycle: its centre comes from the float
solver's policies (:func:`~exactplay.games.hold.solver._solve_cycle`, one
linear solve in balls), and it is *verified* by an interval fixed-point step:
with ``Phi(U, W) = (start_c(1 - W), start_h(1 - U))`` the pair's Bellman map
(each start value a turn evaluated with ``max`` enclosed by
:func:`~exactplay.numbers.backends.best_of`, at both ends of the box: it is
nondecreasing in the lost-turn value), a box ``X`` around the centre with
``Phi(X) inside X`` (interval evaluation) contains a fixed point of ``Phi`` by
Brouwer's theorem; the fixed point is unique (proved in
:mod:`exactplay.checker.hold`), so it is the exact ``(V(c, h), V(h, c))``, which
then also lies in ``Phi(X)``, the enclosure kept.  This works whether or not the
float policies are optimal or the comparisons are decidable (exact ties), so
every value is an enclosure; a box that fails is widened (x16, up to
:data:`WIDEN` times) and, after that, the policy is replaced by the
greedy policy at the balls' midpoints (:data:`ROUNDS` times).  A pair with a
dead score has the exact values 0 and 1 (as in the exact solver).

A decision ``(c, h, x)`` is *certified* when the balls of hold and continue are
separated, otherwise *unresolved at this precision*.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field

from flint import arb

from exactplay.numbers.backends import get_backend
from exactplay.progress import SILENT

from .recurrence import CONTINUE, HOLD, alive_scores, hold_values, pass_value, turn_table
from .solver import _solve_cycle, pair_order

WIDEN = 8
ROUNDS = 4
SAMPLE = 10


class BoxNotVerified(ArithmeticError):
    """No box around the pair's centre was mapped into itself (raise --prec)."""


@dataclass
class BallHold:
    target: int
    faces: int
    prec: int
    V: list  # balls
    policy: list  # 'H'/'C'/'?' per x = 2..T-c ('?': unresolved)
    decisions: int = 0
    certified: int = 0
    unresolved: list = field(default_factory=list)
    widenings: int = 0
    policy_rounds: int = 0
    seconds: float = 0.0

    @property
    def unresolved_count(self) -> int:
        return self.decisions - self.certified


def _box(x: arb, r: arb) -> arb:
    return x + arb(0, r)


def _turn_over(B, F, hv, L: arb):
    """``(start, v, cont)`` enclosing the turn for every lost-turn value in the ball ``L``.

    The start value and every ``cont[x]`` are nondecreasing in ``L`` (a maximum of
    affine maps with slopes in [0, 1], see :mod:`exactplay.checker.hold`), so the
    turn evaluated at the two ends of ``L`` bounds it; evaluating at ``L`` itself
    would lose the correlation (the window sums subtract suffix sums that all
    carry ``L``'s width) and widen it about five-fold.
    """
    lo = turn_table(B, F, hv, L.lower())
    hi = turn_table(B, F, hv, L.upper())
    cont = [None, None] + [lo[2][x].union(hi[2][x]) for x in range(2, len(hv))]
    return lo[0].union(hi[0]), None, cont


def _verify_pair(B, F, hv_c, hv_h, U, W, same, prec):
    """``(U, W, turn_c, turn_h, widenings)`` enclosing the exact pair values, or None.

    The box starts at the centre's own radius and grows to twice the width of its image (or x4)
    until it is mapped into itself; the fixed point then lies in the image ``X1``, and in
    ``Phi(X1)`` too, so one more step from ``X1`` (intersected with it) tightens the enclosure
    without compounding the widths pair after pair.
    """
    r = max(U.rad(), W.rad(), arb(2) ** (16 - prec))
    for k in range(WIDEN):
        Ub, Wb = _box(U, r), _box(W, r)
        images = _images(B, F, hv_c, hv_h, Ub, Wb, same)
        if Ub.contains(images[0][0]) and Wb.contains(images[1][0]):
            X1 = images
            X2 = _images(B, F, hv_c, hv_h, X1[0][0], X1[1][0], same)
            U2, W2 = X2[0][0].intersection(X1[0][0]), X2[1][0].intersection(X1[1][0])
            return U2, W2, X2[0], X2[1], k
        r = max(4 * r, 2 * images[0][0].rad(), 2 * images[1][0].rad())
    return None


def _images(B, F, hv_c, hv_h, Ub, Wb, same):
    """The turns of the pair over the box ``Ub x Wb`` (its image is their start values)."""
    one = B.one
    turn_c = _turn_over(B, F, hv_c, one - (Ub if same else Wb))
    return turn_c, (turn_c if same else _turn_over(B, F, hv_h, one - Ub))


def _greedy_mid(hv, cont) -> str:
    return "".join(HOLD if hv[x].mid() >= cont[x].mid() else CONTINUE for x in range(2, len(hv)))


def ball_table(target: int, faces: int, prec: int, guide=None, visit=None, progress=SILENT) -> BallHold:
    """The whole game in ``prec``-bit balls; ``guide``: a float table whose policies centre the pairs."""
    if guide is None:
        from .tables import float_table

        guide = float_table(target, faces, progress)
    B = get_backend("ball", prec)
    with B.precision():
        return _fill(B, target, faces, guide, visit, progress)


def _fill(B, T, F, guide, visit, progress) -> BallHold:
    alive = alive_scores(T, F)
    zero, one = B.zero, B.one
    V = [[zero] * T for _ in range(T)]
    out = BallHold(T, F, B.prec, V, [[""] * T for _ in range(T)])
    start = time.perf_counter()
    progress.start(f"hold target {T} faces {F} in {B.prec}-bit balls", T * (T + 1) // 2)
    for c, h in pair_order(T):
        same = c == h
        hv_c = hold_values(B, T, V, alive, c, h)
        hv_h = hv_c if same else hold_values(B, T, V, alive, h, c)
        if alive[c] and alive[h]:
            pol_c, pol_h = guide.policy[c][h], guide.policy[h][c]
            for rounds in range(ROUNDS):
                U, W = _solve_cycle(B, F, hv_c, hv_h, pol_c, pol_h, same)
                got = _verify_pair(B, F, hv_c, hv_h, U, W, same, B.prec)
                if got is not None:
                    break
                out.policy_rounds += 1
                pol_c = _greedy_mid(hv_c, turn_table(B, F, hv_c, one - W)[2])
                pol_h = pol_c if same else _greedy_mid(hv_h, turn_table(B, F, hv_h, one - U)[2])
            else:
                raise BoxNotVerified(f"pair {(c, h)}: no box was mapped into itself at {B.prec} bits; raise --prec")
            U, W, turn_c, turn_h, widened = got
            out.widenings += widened
        else:
            U = one if alive[c] and not alive[h] else zero
            W = one if alive[h] and not alive[c] else zero
            V[c][h], V[h][c] = U, W
            turn_c = turn_table(B, F, hv_c, pass_value(B, V, alive, h, c))
            turn_h = turn_c if same else turn_table(B, F, hv_h, pass_value(B, V, alive, c, h))
        V[c][h], V[h][c] = U, W
        for (a, b, hv, turn) in ((c, h, hv_c, turn_c),) + (() if same else ((h, c, hv_h, turn_h),)):
            out.policy[a][b] = _decide(out, a, b, hv, turn[2])
            if visit is not None:
                visit(a, b, hv, turn[2])
        progress.advance()
    out.seconds = time.perf_counter() - start
    return out


def _decide(out: BallHold, c: int, h: int, hv, cont) -> str:
    letters = []
    for x in range(2, len(hv)):
        out.decisions += 1
        if hv[x] > cont[x]:
            letters.append(HOLD)
        elif cont[x] > hv[x]:
            letters.append(CONTINUE)
        else:
            letters.append("?")
            if len(out.unresolved) < SAMPLE:
                out.unresolved.append((c, h, x))
            continue
        out.certified += 1
    return "".join(letters)
