"""Chef Showdown: the alive-set recurrence, written once over a number backend.

Chefs are numbered 0..n-1 here (chef k+1 in the text).  A state is an alive
set ``M`` (a bit mask) and the mover ``t`` in ``M``.  With ``M\\{j}`` written
``S_j`` and ``next_S(t)`` the first member of ``S`` after ``t`` in cyclic order,
the mover's target is::

    j*(M, t) = argmax_j  W_{S_j, next_{S_j}(t)}(t)      (success branch only)

ties broken by the smallest positive cyclic distance from ``t`` (the seed's
rule, ``tie="nearest"``) or the largest (``tie="farthest"``).  With the members
of ``M`` in cyclic order ``m_0 < ... < m_{q-1}``, ``U_r, V_r`` the winner vector
and the expected remaining dishes of the chosen success state, ``b_r = 1 - p_r``::

    X_r = p_r U_r + b_r X_{r+1},        Y_r = 1 + p_r V_r + b_r Y_{r+1}

(indices mod q), solved by the seed's closed form::

    X_0 = sum_r (b_0 ... b_{r-1}) p_r U_r / (1 - b_0 ... b_{q-1})

and back substitution ``X_r = A_r + b_r X_{r+1}`` for r = q-1 .. 1.
In ``float`` this *is* the published solver (same formulas, same order of
operations, the tie rule applied to float comparisons); in ``mpq`` or
``Fraction`` it is the exact reference solver.

Layers are processed by size; a layer of size q needs only layer q-1, so only
two layers are ever held (the seed stores all of them).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from itertools import combinations
from typing import Any, Callable

from exactplay.errors import UsageError
from exactplay.numbers.backends import Backend, get_backend
from exactplay.progress import SILENT

TIE_RULES = ("nearest", "farthest")


class SingularCycle(UsageError):
    """The closed form's ``1 - b_0 ... b_{q-1}`` is 0: possible in floats only (every skill is > 0,
    so exactly it is > 0), when each ``b_r = 1 - p_r`` of the alive set rounds to 1 (skills of about
    1e-16 or less) -- the published float solver divides by zero there and has no table."""

    def __init__(self, mem: list[int]):
        chefs = ", ".join(str(m + 1) for m in mem)
        super().__init__(f"the float solver divides by zero at the alive set {{{chefs}}}: 1 - (1 - p_1)...(1 - p_q) "
                         "rounds to 0 in doubles (skills of about 1e-16 or less vanish against 1), so the published float "
                         "program has no table to compare (solve and certify are exact)")


def members(mask: int) -> list[int]:
    """The chefs of ``mask`` in cyclic (increasing) order."""
    out = []
    i = 0
    while mask:
        if mask & 1:
            out.append(i)
        mask >>= 1
        i += 1
    return out


def masks_of_size(n: int, q: int) -> list[int]:
    """All alive sets of ``q`` chefs among ``n``, in lexicographic order of members."""
    return [sum(1 << i for i in c) for c in combinations(range(n), q)]


@dataclass
class MaskState:
    """All turn states of one alive set: ``W[r][s]`` = W_{M,m_r}(m_s), ``D[r]`` = D_{M,m_r}.

    ``target[r]`` is the chef the mover ``m_r`` attacks (None when q = 1);
    ``cands[r]`` maps each possible target to its success-branch value (kept on request).
    """

    members: list[int]
    W: list[list[Any]]
    D: list[Any]
    target: list[int | None]
    cands: list[dict] | None = None
    ties: list = field(default_factory=list)  # (mover, [targets with the best value]) when > 1


@dataclass
class Solution:
    n: int
    backend: str
    tie: str
    full: Any = None  # MaskState of the full set
    layers: dict = field(default_factory=dict)  # q -> {mask: MaskState}, when kept
    ties: list = field(default_factory=list)  # (mask, mover, [tied best targets]) in every state

    @property
    def E(self) -> Any:
        """E(n) = D_{full, chef 1}."""
        return self.full.D[0]

    @property
    def W1(self) -> list:
        """The winner vector from the full table with chef 1 to move."""
        return self.full.W[0]


def success_state(mem: list[int], r: int, d: int) -> tuple[int, int, int]:
    """For mover ``mem[r]`` attacking the member at cyclic distance ``d``:
    (mask of S = M minus target, index of next_S(mover) in S, index of mover in S)."""
    q = len(mem)
    j_idx = (r + d) % q
    S = [m for i, m in enumerate(mem) if i != j_idx]
    t = mem[r]
    t_pos = S.index(t)
    nxt = (t_pos + 1) % (q - 1)
    return sum(1 << m for m in S), nxt, t_pos


def choose_target(values: list[tuple[int, Any]], tie: str) -> int:
    """Pick from ``(distance, value)`` pairs listed by increasing distance.

    ``nearest`` keeps the first maximum (strict ``>``), ``farthest`` the last (``>=``).
    """
    best_d, best_v = None, None
    for d, v in values:
        if best_v is None or v > best_v or (tie == "farthest" and v == best_v):
            best_d, best_v = d, v
    return best_d


def solve_mask(B: Backend, skills: list, mem: list[int], prev: dict, tie: str, keep_cands: bool) -> MaskState:
    """Solve one alive set from the solved layer below (the seed's Steps 4-5)."""
    q = len(mem)
    one = B.one
    A, C, b, target, ties = [], [], [], [], []
    cands = [] if keep_cands else None
    for r in range(q):
        p = skills[mem[r]]
        values = []
        succ = {}
        for d in range(1, q):
            S, nxt, t_pos = success_state(mem, r, d)
            st = prev[S]
            values.append((d, st.W[nxt][t_pos]))
            succ[d] = (st, nxt, (r + d) % q)
        dbest = choose_target(values, tie)
        top = dict(values)[dbest]
        tied = [mem[(r + d) % q] for d, v in values if v == top]
        if len(tied) > 1:
            ties.append((mem[r], sorted(tied)))
        st, nxt, j_idx = succ[dbest]
        U = list(st.W[nxt])
        U.insert(j_idx, B.zero)  # the eliminated chef never wins
        A.append([p * u for u in U])
        C.append(one + p * st.D[nxt])
        b.append(one - p)
        target.append(mem[j_idx])
        if keep_cands:
            cands.append({mem[(r + d) % q]: v for d, v in values})
    # closed form for X_0, Y_0
    coef = one
    num = [B.zero] * q
    ynum = B.zero
    for r in range(q):
        num = [x + coef * a for x, a in zip(num, A[r])]
        ynum = ynum + coef * C[r]
        coef = coef * b[r]
    den = one - coef
    if not den:
        raise SingularCycle(mem)
    X = [None] * q
    Y = [None] * q
    X[0] = [x / den for x in num]
    Y[0] = ynum / den
    for r in range(q - 1, 0, -1):
        nxt = X[(r + 1) % q]
        X[r] = [a + b[r] * x for a, x in zip(A[r], nxt)]
        Y[r] = C[r] + b[r] * Y[(r + 1) % q]
    return MaskState(mem, X, Y, target, cands, ties)


def solve(
    skills: list,
    backend: Backend | str = "mpq",
    tie: str = "nearest",
    keep: bool = False,
    keep_cands: bool = False,
    visit: Callable[[int, dict], None] | None = None,
    progress=SILENT,
) -> Solution:
    """Solve every alive set, layer by layer.  ``skills`` are backend numbers.

    ``keep`` stores every layer in ``Solution.layers``; otherwise only two layers
    are alive at a time.  ``visit(q, layer)`` is called on each finished layer.
    """
    B = get_backend(backend)
    if tie not in TIE_RULES:
        raise ValueError(f"tie rule must be one of {TIE_RULES}")
    n = len(skills)
    if B.exact:
        for i, s in enumerate(skills):
            B.check(s, f"skill of chef {i + 1}")
    sol = Solution(n, B.name, tie)
    prev = {1 << i: MaskState([i], [[B.one]], [B.zero], [None], [{}] if keep_cands else None) for i in range(n)}
    if visit:
        visit(1, prev)
    if keep:
        sol.layers[1] = prev
    progress.start(f"chefs n={n} ({B.name})", 2**n - 1 - n)
    for q in range(2, n + 1):
        layer = {}
        for mask in masks_of_size(n, q):
            st = solve_mask(B, skills, members(mask), prev, tie, keep_cands)
            if B.exact:
                B.check(st.D[0], (mask, st.members[0]))
            layer[mask] = st
            sol.ties.extend((mask, t, tied) for t, tied in st.ties)
            progress.advance()
        if visit:
            visit(q, layer)
        if keep:
            sol.layers[q] = layer
        prev = layer
    sol.full = prev[(1 << n) - 1] if n > 1 else prev[1]
    return sol
