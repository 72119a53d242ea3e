"""A model's Bellman operator on the dyadic grid ``2^-k``, in integer arithmetic.

A vector ``X`` on the grid is a list of integers ``m`` meaning ``m 2^-k``.  For an
action ``a`` of state ``s`` with probabilities ``n_t / D`` (one common
denominator) and reward ``r`` in the value component ``c``,

    Q_a(X) 2^k = r 2^k + (sum_t n_t m_t) / D,

an exact rational; :meth:`IntForm.floor` and :meth:`IntForm.ceil` return the
grid's rounding down and up of the mover's optimum ``opt_a Q_a(X)`` (``max`` for
a mover whose key sign is ``+1``, ``min`` for ``-1``; rounding is monotone, so
``floor(max Q) = max floor(Q)``).

Only games with a single value are covered: every chooser optimises the same
payoff component ``c`` (one player; two players zero-sum; chance only).
Where a play can go on forever (it is then worth 0), rewards in ``c`` are
refused: the lower-bound argument of the checker needs terminal payoffs only.

>>> from fractions import Fraction as F
>>> from exactplay.model import Model
>>> m = Model("m", 1, ["p"], "auto", ["s", "w", "l"], [None, (F(1),), (F(0),)], [None, None, None],
...           [[None], [], []], [[((1, F(1, 3)), (2, F(2, 3)))], [], []], [[None], [], []])
>>> form = IntForm(m)
>>> form.floor(0, [0, 8, 0], 3), form.ceil(0, [0, 8, 0], 3)   # Q = 1/3 on the grid of eighths
(2, 3)
"""

from __future__ import annotations

from fractions import Fraction

from ..errors import UsageError
from ..model import Model

__all__ = ["IntForm"]


class IntForm:
    """The integer form of ``model``'s Bellman operator in its single value component."""

    def __init__(self, model: Model) -> None:
        keys = model.keys()
        n = len(model)
        choosers = {keys[model.mover[s]] for s in range(n)
                    if model.terminal[s] is None and model.mover[s] is not None and len(model.trans[s]) > 1}
        comps = {c for c, _ in choosers}
        if len(comps) > 1:
            raise UsageError("ball certificates cover games with one value (one player, two players zero-sum, or "
                             f"chance only); here the choosers optimise {len(comps)} different payoff components")
        self.c = c = comps.pop() if comps else 0
        self.terminates = model.every_play_ends()
        if model.never_ending == "infinite" and not self.terminates:
            from ..engine.structure import EXACT_ONLY

            raise UsageError(EXACT_ONLY)
        self.term: list[Fraction | None] = [None if p is None else p[c] for p in model.terminal]
        self.sign = [1 if model.mover[s] is None else keys[model.mover[s]][1] for s in range(n)]
        self.acts: list[list[tuple]] = []
        for s in range(n):
            acts = []
            for a, dist in enumerate(model.trans[s]):
                D = 1
                for _, p in dist:
                    D = D * p.denominator // _gcd(D, p.denominator)
                pairs = tuple((t, p.numerator * (D // p.denominator)) for t, p in dist)
                r = model.rewards[s][a]
                rew = None if r is None or r[c] == 0 else Fraction(r[c])
                if rew is not None and not self.terminates:
                    raise UsageError(f"state {model.state_name(s)}: a reward where plays can go on forever; ball "
                                     "certificates of such games take terminal payoffs only")
                acts.append((D, pairs, rew))
            self.acts.append(acts)
        self.succ = [sorted({t for _, pairs, _ in acts for t, _ in pairs}) for acts in self.acts]

    def __len__(self) -> int:
        return len(self.acts)

    def q_exact(self, s: int, a: int, X: list, k: int) -> tuple[int, int]:
        """``Q_a(X) 2^k`` as ``(numerator, denominator)``, denominator > 0."""
        D, pairs, rew = self.acts[s][a]
        S = 0
        for t, w in pairs:
            S += w * X[t]
        if rew is None:
            return S, D
        return rew.numerator * D * (1 << k) + rew.denominator * S, rew.denominator * D

    def floor(self, s: int, X: list, k: int) -> int:
        """``floor(opt_a Q_a(X) 2^k)``."""
        best = None
        for a in range(len(self.acts[s])):
            num, den = self.q_exact(s, a, X, k)
            v = num // den
            if best is None or (v > best if self.sign[s] > 0 else v < best):
                best = v
        return best

    def ceil(self, s: int, X: list, k: int) -> int:
        """``ceil(opt_a Q_a(X) 2^k)``."""
        best = None
        for a in range(len(self.acts[s])):
            num, den = self.q_exact(s, a, X, k)
            v = -((-num) // den)
            if best is None or (v > best if self.sign[s] > 0 else v < best):
                best = v
        return best

    def terminal_ends(self, s: int, k: int) -> tuple[int, int]:
        x = self.term[s] * (1 << k)
        return x.numerator // x.denominator, -((-x.numerator) // x.denominator)


def _gcd(a: int, b: int) -> int:
    while b:
        a, b = b, a % b
    return a
