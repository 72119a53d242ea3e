"""Solving Hold or Continue? pair by pair: policy iteration on each 2-cycle.

For a score pair ``{c, h}`` (both alive, ``c != h``) the unknowns are
``U = V(c, h)`` and ``W = V(h, c)``; every hold leads to a pair already solved.
Fix the two turn policies: by :func:`~.hold_model.turn_affine` each start value
is affine in the pass value, ``U = a_c + b_c (1 - W)`` and
``W = a_h + b_h (1 - U)``, so::

    U = (a_c + b_c (1 - a_h - b_h)) / (1 - b_c b_h),   W = a_h + b_h (1 - U)

(``b`` is a probability of losing the turn, below 1 for any policy that ever
holds, so the determinant is positive).  At equal scores ``U = a + b (1 - U)``,
``U = (a + b) / (1 + b)``.  Then both turns are evaluated with these pass
values and hold is compared with continue in every state: if each policy
attains the maximum everywhere, ``(U, W)`` solves the equations, and they have
only one solution (see :mod:`exactplay.checker.hold`), so it is the value.
Otherwise the greedy policies replace the guesses and the pair is solved again
(policy iteration).

In floats, started from ``L = 1/2``, this is the correct float solver.  In
exact arithmetic it starts from the float solver's policies, so almost every
pair is solved by one exact linear solve instead of a bisection, and the
comparisons are made in a 128-bit fixed-point shadow of the exact values with
a proved error bound (:func:`~.hold_model.turn_fixed`), falling back to exact
arithmetic for any comparison closer than the bound: evaluating every
hold/continue value exactly (numbers of up to ~24,000 bits) is what makes a
straightforward exact solver slow, and it is needed only where values are
close.  :attr:`HoldTable.repairs` counts the pairs where the float policy was
wrong, :attr:`HoldTable.exact_fallbacks` the turns compared exactly.  A pair
where one player is dead needs no solve: the alive player wins with
probability 1, and the dead one 0 (both 0 if both are dead).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable

from exactplay.audit.enclosure import undecided
from exactplay.numbers.backends import Backend, get_backend
from exactplay.progress import SILENT
from exactplay.games.hold.recurrence import (
    PRECISION,
    alive_scores,
    fixed_error,
    greedy_policy,
    hold_values,
    pass_value,
    to_fixed,
    turn_affine,
    turn_fixed,
    turn_table,
)

MAX_POLICY_ROUNDS = 60


class PolicyIterationStalled(RuntimeError):
    """Policy iteration on one pair did not settle (never observed; a guard, not a result)."""


@dataclass
class HoldTable:
    """``V[c][h]`` for ``0 <= c, h < T`` and the optimal policy (``'H'``/``'C'`` for x = 2..T-c)."""

    target: int
    faces: int
    backend: str
    alive: list
    V: list
    policy: list  # policy[c][h]: str over x = 2..T-c, ties hold
    repairs: int = 0  # pairs whose first policy guess failed the exact comparison
    exact_fallbacks: int = 0  # turns whose fixed-point comparisons were too close to call
    rounds: dict = field(default_factory=dict)  # (c, h), c <= h -> policy rounds used

    def pairs(self):
        return [(c, h) for c in range(self.target) for h in range(self.target)]


def pair_order(target: int):
    """Unordered pairs ``(c, h)``, ``c <= h < T``, by decreasing ``c + h``."""
    for s in range(2 * target - 2, -1, -1):
        for c in range(max(0, s - target + 1), s // 2 + 1):
            yield c, s - c


def _solve_cycle(B: Backend, F: int, hv_c, hv_h, pol_c: str, pol_h: str, same: bool):
    one = B.one
    a_c, b_c = turn_affine(B, F, hv_c, pol_c)
    if same:
        U = (a_c + b_c) / (one + b_c)
        return U, U
    a_h, b_h = turn_affine(B, F, hv_h, pol_h)
    U = (a_c + b_c * (one - a_h - b_h)) / (one - b_c * b_h)
    W = a_h + b_h * (one - U)
    return U, W


def solve_table(
    target: int,
    faces: int = 6,
    backend: Backend | str = "mpq",
    guide: HoldTable | None = None,
    visit: Callable[[int, int, list, list], Any] | None = None,
    progress=SILENT,
    shadow: bool = True,
) -> HoldTable:
    """The whole game, pair by pair.

    ``guide``: a solved table (the float one) whose policies are the first
    guesses; without one the first guess is greedy for the pass value 1/2.
    ``visit(c, h, hold, cont)`` is called once per ordered pair with the hold
    and continue values of that turn, indexed by ``x``: floats in float, and in
    exact arithmetic integers ``n`` standing for ``n / 2**PRECISION``, each
    within ``fixed_error(T)`` units of the exact value.

    In exact arithmetic the values ``V`` are exact rationals; the hold/continue
    comparisons that prove the policy optimal are decided in fixed point with
    that rigorous error bound, and any comparison closer than the bound is
    redone exactly (:func:`turn_table`), so the result is exact either way.
    ``shadow=False`` makes an exact run compare every hold/continue value exactly
    (the plain exact path, against which the shadow is tested; ``visit`` then
    gets exact values).
    """
    B = get_backend(backend)
    T, F = target, faces
    alive = alive_scores(T, F)
    V = [[B.zero] * T for _ in range(T)]
    policy = [[""] * T for _ in range(T)]
    table = HoldTable(T, F, B.name, alive, V, policy)
    fx = Fixed(T, alive) if B.exact and shadow else None
    progress.start(f"hold target {T} faces {F} ({B.name})", T * (T + 1) // 2)
    for c, h in pair_order(T):
        guess = (guide.policy[c][h], guide.policy[h][c]) if guide is not None and alive[c] and alive[h] else None
        U, W, pol_c, pol_h, turn_c, turn_h, rounds, repaired = solve_pair(B, F, V, alive, fx, c, h, guess)
        table.repairs += repaired
        if rounds:
            table.rounds[(c, h)] = rounds
        store_pair(B, V, fx, c, h, U, W)
        policy[c][h], policy[h][c] = pol_c, pol_h
        if visit is not None:
            visit(c, h, turn_c[3], turn_c[2])
            if c != h:
                visit(h, c, turn_h[3], turn_h[2])
        progress.advance()
    if fx is not None:
        table.exact_fallbacks = fx.fallbacks
    return table


def solve_pair(B: Backend, F: int, V, alive, fx, c: int, h: int, guess=None):
    """Solve the pair ``{c, h}`` (``c <= h``) from the values of the pairs of larger score sum in ``V``.

    ``guess``: the first policies ``(pol_c, pol_h)`` (the float table's), else greedy for the
    pass value 1/2; ``fx``: the fixed-point shadow (None: compare exactly, or in float).
    Returns ``(U, W, pol_c, pol_h, turn_c, turn_h, rounds, repaired)`` with ``U = V(c, h)``,
    ``W = V(h, c)``, ``rounds`` of policy iteration (0 where a player is dead) and
    ``repaired`` 1 when the first guess failed the exact comparison.  Writes ``V`` only at a
    dead pair (its own two values); :func:`store_pair` stores the result.
    """
    T = len(V)
    zero, one = B.zero, B.one
    rounds, repaired = 0, 0
    same = c == h
    hv_c = hold_values(B, T, V, alive, c, h)
    hv_h = hv_c if same else hold_values(B, T, V, alive, h, c)
    if alive[c] and alive[h]:
        if guess is not None:
            pol_c, pol_h = guess
        else:
            half = B.q(1, 2)
            pol_c = greedy_policy(hv_c, turn_table(B, F, hv_c, half)[2])
            pol_h = pol_c if same else greedy_policy(hv_h, turn_table(B, F, hv_h, half)[2])
        seen = set()
        for rounds in range(1, MAX_POLICY_ROUNDS + 1):
            U, W = _solve_cycle(B, F, hv_c, hv_h, pol_c, pol_h, same)
            if fx is None:
                turn_c = _plain_turn(B, F, hv_c, one - W)
                turn_h = turn_c if same else _plain_turn(B, F, hv_h, one - U)
                new_c, new_h = greedy_policy(hv_c, turn_c[2]), greedy_policy(hv_h, turn_h[2])
            else:
                turn_c, new_c = fx.turn(B, F, c, h, hv_c, one - W, U, W, pol_c)
                turn_h, new_h = (turn_c, new_c) if same else fx.turn(B, F, h, c, hv_h, one - U, W, U, pol_h)
            if _attains(turn_c, pol_c, new_c) and _attains(turn_h, pol_h, new_h):
                break
            if B.exact and rounds == 1:
                repaired = 1
            seen.add((pol_c, pol_h))
            pol_c, pol_h = new_c, new_h
            if (pol_c, pol_h) in seen:
                if not B.exact:  # rounding makes two float policies alternate: accept
                    break
                raise PolicyIterationStalled(f"policy iteration cycles at pair {(c, h)}")
        else:
            raise PolicyIterationStalled(f"policy iteration did not settle at pair {(c, h)}")
        pol_c, pol_h = new_c, new_h  # ties hold
    else:
        # one player dead: the alive one wins with probability 1; both dead: nobody wins
        U = one if alive[c] and not alive[h] else zero
        W = one if alive[h] and not alive[c] else zero
        V[c][h], V[h][c] = U, W
        turn_c = _plain_turn(B, F, hv_c, pass_value(B, V, alive, h, c))
        turn_h = _plain_turn(B, F, hv_h, pass_value(B, V, alive, c, h))
        if B.exact and (turn_c[0] != U or turn_h[0] != W):  # pragma: no cover - a proof failed
            raise AssertionError(f"dead-score values do not solve the equations at {(c, h)}")
        pol_c, pol_h = greedy_policy(hv_c, turn_c[2]), greedy_policy(hv_h, turn_h[2])
        if fx is not None:
            turn_c, turn_h = fx.from_exact(hv_c, turn_c), fx.from_exact(hv_h, turn_h)
    return U, W, pol_c, pol_h, turn_c, turn_h, rounds, repaired


def store_pair(B: Backend, V, fx, c: int, h: int, U, W) -> None:
    """``V(c, h) = U``, ``V(h, c) = W`` (exact values checked for float leaks; the fixed-point shadow too)."""
    if B.exact:
        B.check(U, (c, h))
        B.check(W, (h, c))
        if fx is not None:
            fx.store(c, h, U, W)
    V[c][h], V[h][c] = U, W


def _plain_turn(B, F, hv, L):
    """``(start, v, cont, hold, ties)`` of a turn evaluated in the backend's own numbers."""
    start, v, cont = turn_table(B, F, hv, L)
    ties = tuple(x for x in range(2, len(hv)) if hv[x] == cont[x])
    return start, v, cont, hv, ties


def _attains(turn, policy: str, greedy: str) -> bool:
    """Does ``policy`` choose an action attaining the maximum in every state?

    ``greedy`` is the tie-holding greedy policy of the same turn; where they
    differ the policy continues while holding is at least as good, which is
    fine only on an exact tie (``turn[4]`` lists the tied states, if known).
    """
    if policy == greedy:
        return True
    ties = turn[4]
    return all(p == g or x + 2 in ties for x, (p, g) in enumerate(zip(policy, greedy)))


class Fixed:
    """Fixed-point shadow of the exact table, to decide comparisons cheaply.

    ``Vf[c][h] = floor(V(c, h) 2^P)``; a hold value ``1 - V`` is then
    ``2^P - Vf`` within one unit.  Each fixed-point hold/continue value is within
    :func:`fixed_error` units of the exact one, so the certified comparison
    (:func:`exactplay.audit.enclosure.undecided`) orders a pair unless its margin is at
    most twice that; a turn with such a pair is decided exactly instead.
    """

    def __init__(self, target: int, alive):
        self.T = target
        self.alive = alive
        self.one = 1 << PRECISION
        self.err = fixed_error(target)
        self.Vf = [[0] * target for _ in range(target)]
        self.fallbacks = 0

    def store(self, c, h, U, W):
        self.Vf[c][h] = to_fixed(U)
        self.Vf[h][c] = to_fixed(W)

    def hold_fixed(self, c, h):
        T, alive, one, Vf = self.T, self.alive, self.one, self.Vf
        m = T - c
        hv = [0] * (m + 1)
        row = Vf[h]
        for x in range(2, m):
            y = c + x
            hv[x] = 0 if not alive[h] and not alive[y] else one - row[y]
        hv[m] = one
        return hv

    def turn(self, B, F, c, h, hv_exact, L, U, W, policy):
        """Fixed-point turn of ``(c, h)``; returns ``(turn, greedy policy)``.

        ``turn = (start, v, cont, hold, ties)`` with ``hold``/``cont`` fixed-point
        integers.  When some comparison is within the error bound, the turn is
        recomputed exactly and its comparisons (and exact ties) taken from there.
        """
        hv = self.hold_fixed(c, h)
        Lf = self.one - to_fixed(W)  # both players alive here: L = 1 - W
        start, v, cont = turn_fixed(F, hv, Lf)
        if not undecided(hv, cont, self.err, range(2, len(hv))):  # every hold/continue order proved
            return (start, v, cont, hv, ()), greedy_policy(hv, cont)
        self.fallbacks += 1
        ex = turn_table(B, F, hv_exact, L)
        ties = tuple(x for x in range(2, len(hv)) if hv_exact[x] == ex[2][x])
        return (start, v, cont, hv, ties), greedy_policy(hv_exact, ex[2])

    def from_exact(self, hv_exact, turn):
        hv = [to_fixed(y) for y in hv_exact]
        cont = [0, 0] + [to_fixed(y) for y in turn[2][2:]]
        return (to_fixed(turn[0]), None, cont, hv, turn[4])


def turn_of(table: HoldTable, c: int, h: int, backend: Backend | str | None = None):
    """``(start, hv, cont, v)`` of the turn at ``(c, h)`` recomputed from the solved ``V``."""
    B = get_backend(backend or table.backend)
    hv = hold_values(B, table.target, table.V, table.alive, c, h)
    L = pass_value(B, table.V, table.alive, h, c)
    start, v, cont = turn_table(B, table.faces, hv, L)
    return start, hv, cont, v
