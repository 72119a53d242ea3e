"""The ranking, decisions and answer of a ball certificate (see :mod:`.ball_model` for what they prove).

Standard library only; a mixin of the checker in :mod:`.ball_model`, which has read the model,
derived the ends ``L``, ``U`` (integers on the grid ``2^-k``) and the integer form ``q``.
"""

from __future__ import annotations

from fractions import Fraction

from . import _strict
from ._strict import fail, integer, keys, listed, show

__all__ = ["BallSolution"]

ANSWER = ("name", "state", "component", "lower", "upper", "digits", "decimal")


class BallSolution:
    def _ranking(self) -> None:
        """Plays may go on forever (worth 0): every state with ``L > 0`` ranked towards a positive payoff
        for the maximiser, every non-terminal state with ``U < 0`` ranked towards a negative payoff for
        the minimiser (the same rule, mirrored)."""
        n = self.n
        preds: list[list[tuple[int, int]]] = [[] for _ in range(n)]
        for s in range(n):
            if self.payoff[s] is None:
                for a, (_, pairs, _, _) in enumerate(self.acts[s]):
                    for t, _ in pairs:
                        preds[t].append((s, a))
        for d, X, field in ((1, self.L, "feedback.lower"), (-1, self.U, "feedback.upper")):
            self.at(field)
            need = [s for s in range(n) if self.payoff[s] is None and d * X[s] > 0]
            if not need:  # e.g. every payoff >= 0: no upper end below 0, no ranking of U to compute
                continue
            ranked = self._attractor(d, X, preds)
            for s in need:
                if not ranked[s]:
                    if d > 0:
                        fail("a positive lower end at a state no ranking leads to a positive payoff (a fake "
                             "enclosure inside an end component?)", field, s)
                    fail("a negative upper end at a state from which no ranking leads the minimiser to a negative "
                         "payoff (where play can stay forever it is worth 0)", field, s)

    def _attractor(self, d: int, X: list, preds: list) -> list[bool]:
        """``d = 1``: terminals with a positive payoff first; a choice state of the maximiser joins when
        some action ``a`` with ``Q_a(X) >= X_s`` has a successor already in; any other state (chance,
        minimiser, a single action) when every action has one.  ``d = -1``: the mirror (negative payoffs,
        the minimiser's actions with ``Q_a(X) <= X_s``)."""
        n = self.n
        ranked = [self.payoff[s] is not None and d * self.payoff[s][self.c] > 0 for s in range(n)]
        hit = [[False] * len(self.acts[s]) for s in range(n)]
        missing = [len(self.acts[s]) for s in range(n)]
        stack = [s for s in range(n) if ranked[s]]
        while stack:
            t = stack.pop()
            for s, a in preds[t]:
                if ranked[s] or hit[s][a]:
                    continue
                hit[s][a] = True
                missing[s] -= 1
                if self.mover[s] is not None and d * self.sign[s] > 0 and len(self.acts[s]) > 1:
                    num, den = self.q(s, a, X)
                    join = d * num >= d * X[s] * den
                else:
                    join = missing[s] == 0
                if join:
                    ranked[s] = True
                    stack.append(s)
        return ranked

    # ------------------------------------------------------------ decisions and answer

    def _decisions(self) -> int:
        self.at("policy")
        policy = listed(self.cert["policy"], "policy", None, self.n)
        unresolved = set()
        certified = 0
        for s in range(self.n):
            want = None
            if self.is_choice(s):
                lo = [self.q(s, a, self.L) for a in range(len(self.acts[s]))]
                hi = [self.q(s, a, self.U) for a in range(len(self.acts[s]))]
                if self.sign[s] < 0:
                    lo, hi = [(-n, d) for n, d in hi], [(-n, d) for n, d in lo]
                bn, bd = lo[0]
                for n_, d_ in lo[1:]:
                    if n_ * bd > bn * d_:
                        bn, bd = n_, d_
                maybe = [a for a, (n_, d_) in enumerate(hi) if n_ * bd >= bn * d_]
                want = maybe[0]
                if len(maybe) == 1:
                    certified += 1
                else:
                    unresolved.add(s)
            elif self.payoff[s] is None:
                want = 0
            got = policy[s]
            if got is not want and not (type(got) is int and got == want):
                fail(f"policy {show(got)}, but the first possibly optimal action on the enclosures is {want}",
                     "policy", s)
        self.at("unresolved")
        stored = listed(self.cert["unresolved"], "unresolved")
        want = sorted(unresolved)
        if stored != want or any(type(x) is not int for x in stored):
            extra = sorted({x for x in stored if type(x) is int} - unresolved)
            miss = sorted(unresolved - {x for x in stored if type(x) is int})
            fail("the unresolved decisions are exactly the choice states with two possibly optimal actions or more, "
                 f"in increasing order ({len(unresolved):,} here)", "unresolved", (extra or miss or [None])[0])
        self.unresolved = unresolved
        self.at("decisions")
        d = keys(self.cert["decisions"], ("certified", "unresolved"), (), "decisions")
        if (integer(d["certified"], "decisions.certified") != certified
                or integer(d["unresolved"], "decisions.unresolved") != len(unresolved)):
            fail(f"counts are certified {certified}, unresolved {len(unresolved)}", "decisions")
        return certified

    def _answer(self) -> None:
        self.at("answer")
        ans = keys(self.cert["answer"], ANSWER, (), "answer")
        s0, c, k = self.initial, self.c, self.k
        if integer(ans["state"], "answer.state") != s0 or integer(ans["component"], "answer.component") != c:
            fail(f"the answer is the initial state {s0}, component {c}", "answer")
        if self.answer_name is not None:
            if c != self.rules_component:
                fail(f"the rules name component {self.rules_component}", "answer.component")
            name = self.answer_name
        else:
            name = f"value of {self.state_names[s0]} to {self.player_names[c]}"
        if ans["name"] != name:
            fail(f"the answer's name is {name!r}", "answer.name")
        ends = [ans["lower"], ans["upper"]]
        if not all(isinstance(e, list) and all(type(x) is int for x in e) for e in ends):  # no float, no bool
            fail("the answer's ends are [m, e] with integers m, e", "answer.lower")
        if ends != [[self.L[s0], -k], [self.U[s0], -k]]:
            fail(f"the answer's ends are [{self.L[s0]}, {-k}] and [{self.U[s0]}, {-k}]", "answer.lower")
        digits = integer(ans["digits"], "answer.digits")
        if not 0 <= digits <= 100:
            fail("digits in [0, 100]", "answer.digits")
        lo, hi = Fraction(self.L[s0], 1 << k), Fraction(self.U[s0], 1 << k)
        a, b = _strict.decimal(lo, digits), _strict.decimal(hi, digits)
        want = a if a == b else None
        if ans["decimal"] != want:
            fail(f"the decimal is {want!r} (both ends rounded half to even, or null when they differ)",
                 "answer.decimal")
        self.answer_text = f"{name} in {outward_text(lo, hi)}" + (f" = {a}" if want else "")


def outward_text(lo: Fraction, hi: Fraction, places: int = 12) -> str:
    """``[a, b]`` with ``places`` decimals, ``a`` rounded down and ``b`` up: still an enclosure
    (a float's nearest rounding could print a lower end above the true one).

    >>> outward_text(Fraction(199, 256), Fraction(201, 256))
    '[0.777343750000, 0.785156250000]'
    >>> outward_text(Fraction(7, 9) - Fraction(1, 10**13), Fraction(7, 9) + Fraction(1, 10**13))
    '[0.777777777777, 0.777777777778]'
    >>> outward_text(Fraction(-1, 3), Fraction(1, 3), 3)
    '[-0.334, 0.334]'
    """
    scale = 10**places
    a = (lo.numerator * scale) // lo.denominator
    b = -((-hi.numerator * scale) // hi.denominator)

    def text(n: int) -> str:
        digits = str(abs(n)).rjust(places + 1, "0")
        return f"{'-' if n < 0 else ''}{digits[:-places]}.{digits[-places:]}"

    return f"[{text(a)}, {text(b)}]"
