"""The answer and the smallest margin, recomputed from the verified solution.

The answer is one component of the initial state's value: its exact value, the
decimal correctly rounded half-to-even to ``digits`` places, and its name (for a
model: ``value of <initial state> to <player>``; for a built-in game: the name
the game's rules give it).  ``smallest_margin`` is the smallest non-zero margin
at its lowest state, or ``null``.
"""

from __future__ import annotations

from ._strict import ANSWER_KEYS, MAX_DIGITS, decimal, fail, integer, keys, pq, rational, show
from ._values import exact


class Answer:
    def check_answer(self, name: str | None = None, component: int | None = None) -> None:
        """``name`` and ``component`` default to a model's: ``value of <initial> to <player c>`` of
        the first certified component ``c``; a built-in game's rules give their own."""
        self.at("answer")
        ans = keys(self.cert["answer"], ANSWER_KEYS, (), "answer")
        s0 = self.initial
        self.at("answer.state")
        if integer(ans["state"], "answer.state") != s0:
            fail(f"state {show(ans['state'])} is not the initial state {s0}", "answer.state")
        self.at("answer.component")
        c = self.components[0] if component is None else component
        if c not in self.components:
            fail(f"component {c} is not certified (the solution holds {self.components})", "answer.component")
        if integer(ans["component"], "answer.component") != c:
            fail(f"component {show(ans['component'])} is not {c}", "answer.component")
        self.at("answer.value")
        value = rational(ans["value"], "answer.value", s0)
        verified = exact(self.V[s0], self.components.index(c))
        if value != verified:
            fail(f"value {pq(value)} is not the verified value {pq(verified)}", "answer.value", s0)
        self.at("answer.digits")
        digits = integer(ans["digits"], "answer.digits")
        if not 0 <= digits <= MAX_DIGITS:
            fail(f"digits {show(digits)} is not in 0..{MAX_DIGITS}", "answer.digits")
        self.at("answer.decimal")
        dec = decimal(value, digits)
        if ans["decimal"] != dec:
            fail(f"decimal {show(ans['decimal'])} is not the value correctly rounded ({dec[:40]})",
                  "answer.decimal", s0)
        self.at("answer.name")
        if name is None:
            name = f"value of {self.state_names[s0]} to {self.player_names[c]}"
        if ans["name"] != name:
            fail(f"name {show(ans['name'])} is not {name!r}", "answer.name")
        self.answer_text = f"{name} = {dec}"

    def check_smallest_margin(self) -> None:
        """The smallest non-zero margin at its lowest state: exactly among the candidates the margins'
        fixed-point bounds leave (every choice state when the margins are stored)."""
        self.at("smallest_margin")
        if self.margins_in is not None:
            cands = [s for s in range(self.n) if self.payoff[s] is None and self.is_choice(s)]
        else:
            cands = sorted(s for s, low in self.margin_bounds if low <= self.low_high)
        nonzero = [(m, s) for m, s in ((self.margin_of(s), s) for s in cands) if m]
        stored = self.cert["smallest_margin"]
        if not nonzero:
            if stored is not None:
                fail("there is no non-zero margin (null)", "smallest_margin")
            return
        m, s = min(nonzero)
        if stored is None:
            fail(f"the smallest non-zero margin is {pq(m)} at state {s}, not null", "smallest_margin", s)
        keys(stored, ("value", "state"), (), "smallest_margin")
        got = rational(stored["value"], "smallest_margin.value")
        if got != m:
            fail(f"value {pq(got)} is not the smallest non-zero margin {pq(m)}", "smallest_margin.value", s)
        if integer(stored["state"], "smallest_margin.state") != s:
            fail(f"state {show(stored['state'])} is not the lowest state with the smallest margin ({s})",
                  "smallest_margin.state", s)
