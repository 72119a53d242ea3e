"""Solving Hold or Continue? pair by pair: policy iteration on each 2-cycle.

For a score pair ``{c, h}`` (both alive, ``c != h``) the unknowns are
``U = V(c, h)`` and ``W = V(h, c)``; every hold leads to a pair already solved.
Fix the two turn policies: by :func:`~.hold_model.turn_affine` each start value
is affine in the pass value, ``U = a_c + b_c (1 - W)`` and
``W = a_h + b_h (1 - U)``, so::

    U = (a_c + b_c (1 - a_h - b_h)) / (1 - b_c b_h),   W = a_h + b_h (1 - U)

(``b`` is a probability of losing the turn, below 1 for any policy that ever
holds, so the determinant is positive).  At equal scores ``U = a + b (1 - U)``,
``U = (a + b) / (1 + b)``.  Then :func:`~.hold_model.turn_table` evaluates both
turns with these pass values and compares hold and continue in every state:
if each policy attains the maximum everywhere, ``(U, W)`` solves the equations,
and they have only one solution (see :mod:`exactplay.checker.hold`), so it is
the value.  Otherwise the greedy policies replace the guesses and the pair is
solved again (policy iteration).

In floats, started from ``L = 1/2``, this is the correct float solver.  In
exact arithmetic it starts from the float solver's policies, so almost every
pair is solved by one linear solve and one checking pass instead of a
bisection; :attr:`HoldTable.repairs` counts the pairs where the float policy
was wrong.  A pair where one player is dead needs no solve: the alive player
wins with probability 1, and the dead one 0 (both 0 if both are dead).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable

from ..numbers import Backend, get_backend
from ..progress import SILENT
from .hold_model import alive_scores, greedy_policy, hold_values, pass_value, turn_affine, turn_table

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
    rounds: dict = field(default_factory=dict)  # (c, h), c <= h -> policy rounds used

    def pairs(self):
        return [(c, h) for c in range(self.target) for h in range(self.target)]


def pair_order(target: int):
    """Unordered pairs ``(c, h)``, ``c <= h < T``, by decreasing ``c + h``."""
    for s in range(2 * target - 2, -1, -1):
        for c in range(max(0, s - target + 1), s // 2 + 1):
            yield c, s - c


def _consistent(hv, cont, policy: str) -> bool:
    """Does ``policy`` attain ``max(hold, continue)`` in every state of the turn?"""
    for x in range(2, len(hv)):
        if policy[x - 2] == "H":
            if hv[x] < cont[x]:
                return False
        elif cont[x] < hv[x]:
            return False
    return True


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
    visit: Callable[[int, int, list, list, list], Any] | None = None,
    progress=SILENT,
) -> HoldTable:
    """The whole game, pair by pair.

    ``guide``: a solved table (the float one) whose policies are the first
    guesses; without one the first guess is greedy for the pass value 1/2.
    ``visit(c, h, hv, cont, v)`` is called once per ordered pair with that
    turn's final hold values, continue values and values (indexed by x), so a
    caller can audit states without keeping them all.
    """
    B = get_backend(backend)
    T, F = target, faces
    alive = alive_scores(T, F)
    zero, one = B.zero, B.one
    V = [[zero] * T for _ in range(T)]
    policy = [[""] * T for _ in range(T)]
    table = HoldTable(T, F, B.name, alive, V, policy)
    half = B.q(1, 2)
    progress.start(f"hold target {T} faces {F} ({B.name})", T * (T + 1) // 2)
    for c, h in pair_order(T):
        same = c == h
        hv_c = hold_values(B, T, V, alive, c, h)
        hv_h = hv_c if same else hold_values(B, T, V, alive, h, c)
        if alive[c] and alive[h]:
            if guide is not None:
                pol_c, pol_h = guide.policy[c][h], guide.policy[h][c]
            else:
                pol_c = greedy_policy(hv_c, turn_table(B, F, hv_c, half)[2])
                pol_h = pol_c if same else greedy_policy(hv_h, turn_table(B, F, hv_h, half)[2])
            seen = set()
            for rounds in range(1, MAX_POLICY_ROUNDS + 1):
                U, W = _solve_cycle(B, F, hv_c, hv_h, pol_c, pol_h, same)
                start_c, v_c, cont_c = turn_table(B, F, hv_c, one - W)
                start_h, v_h, cont_h = (start_c, v_c, cont_c) if same else turn_table(B, F, hv_h, one - U)
                if _consistent(hv_c, cont_c, pol_c) and _consistent(hv_h, cont_h, pol_h):
                    break
                if B.exact and rounds == 1:
                    table.repairs += 1
                seen.add((pol_c, pol_h))
                pol_c, pol_h = greedy_policy(hv_c, cont_c), greedy_policy(hv_h, cont_h)
                if (pol_c, pol_h) in seen:
                    if not B.exact:  # rounding makes two float policies alternate: accept
                        break
                    raise PolicyIterationStalled(f"policy iteration cycles at pair {(c, h)}")
            else:
                raise PolicyIterationStalled(f"policy iteration did not settle at pair {(c, h)}")
            table.rounds[(c, h)] = rounds
            # the values of the policies that attain the maximum (ties hold)
            pol_c, pol_h = greedy_policy(hv_c, cont_c), greedy_policy(hv_h, cont_h)
        else:
            # one player dead: the alive one wins with probability 1; both dead: nobody wins
            U = one if alive[c] and not alive[h] else zero
            W = one if alive[h] and not alive[c] else zero
            V[c][h], V[h][c] = U, W
            start_c, v_c, cont_c = turn_table(B, F, hv_c, pass_value(B, V, alive, h, c))
            start_h, v_h, cont_h = turn_table(B, F, hv_h, pass_value(B, V, alive, c, h))
            if B.exact and (start_c != U or start_h != W):  # pragma: no cover - a proof failed
                raise AssertionError(f"dead-score values do not solve the equations at {(c, h)}")
            pol_c, pol_h = greedy_policy(hv_c, cont_c), greedy_policy(hv_h, cont_h)
        if B.exact:
            B.check(U, (c, h))
            B.check(W, (h, c))
        V[c][h], V[h][c] = U, W
        policy[c][h], policy[h][c] = pol_c, pol_h
        if visit is not None:
            visit(c, h, hv_c, cont_c, v_c)
            if not same:
                visit(h, c, hv_h, cont_h, v_h)
        progress.advance()
    return table


def turn_of(table: HoldTable, c: int, h: int, backend: Backend | str | None = None):
    """``(start, hv, cont, v)`` of the turn at ``(c, h)`` recomputed from the solved ``V``."""
    B = get_backend(backend or table.backend)
    hv = hold_values(B, table.target, table.V, table.alive, c, h)
    L = pass_value(B, table.V, table.alive, h, c)
    start, v, cont = turn_table(B, table.faces, hv, L)
    return start, hv, cont, v
