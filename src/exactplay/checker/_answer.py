"""The answer and the smallest margin, recomputed from the verified solution.

The answer is one component of the initial state's value: its exact value, the
decimal correctly rounded half-to-even to ``digits`` places, and its name (for a
model: ``value of <initial state> to <player>``; for a built-in game: the name
the game's rules give it).  ``smallest_margin`` is the smallest non-zero margin
at its lowest state, or ``null``.  An infinite value (witness ``proper``) is ``"value": null``
with ``value_reason`` and the decimal ``"inf"``.
"""

from __future__ import annotations

from ._strict import ANSWER_KEYS, MAX_DIGITS, decimal, fail, integer, keys, listed, pq, rational, show

# why a value is infinite (witness "proper"), as the writer words it: the checker's own copy
INFINITE_REASON = {
    "min": "infinite: no strategy reaches a terminal state with probability 1 from here",
    "max": "infinite: some strategy avoids every terminal state with positive probability from here",
}


class Answer:
    def check_answer(self, name: str | None = None, component: int | None = None) -> None:
        """``name`` and ``component`` default to a model's: ``value of <initial> to <player c>`` of
        the first certified component ``c``; a built-in game's rules give their own."""
        self.at("answer")
        infinite = self.witness == "proper" and self.V[self.initial] is None
        ans = keys(self.cert["answer"], ANSWER_KEYS, ("value_reason",) if infinite else (), "answer")
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
        if infinite:
            self._check_infinite_answer(ans, name, c)
            return
        value = rational(ans["value"], "answer.value", s0)
        verified = self.V[s0][self.components.index(c)]
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
        self._check_name(ans, name, c, digits, dec)

    def _check_name(self, ans: dict, name: str | None, c: int, digits: int, dec: str) -> None:
        """``answer.name`` (None: a model's, ``value of <initial> to <player c>``); the summary's answer."""
        self.at("answer.name")
        if name is None:
            name = f"value of {self.state_names[self.initial]} to {self.player_names[c]}"
        if ans["name"] != name:
            fail(f"name {show(ans['name'])} is not {name!r}", "answer.name")
        self.answer_text = f"{name} = {dec}"
        self.answer_digits, self.answer_component = digits, c

    def check_initial_states(self) -> None:
        """A model with several initial states: the certificate's ``initial_states`` lists each one's
        value (``answer.component``, in the model's order of ``initial_states``) and the smallest and
        the largest (the first initial state with that value), each with its decimal at ``answer.digits``."""
        starts = self.initial_states
        self.at("initial_states")
        if len(starts) == 1:
            if "initial_states" in self.cert:
                fail("the model has one initial state: no 'initial_states' field", "initial_states")
            return
        if "initial_states" not in self.cert:
            fail(f"the model has {len(starts):,} initial states: their values are required", "initial_states")
        got = keys(self.cert["initial_states"], ("values", "smallest", "largest"), (), "initial_states")
        k, digits = self.components.index(self.answer_component), self.answer_digits
        stored = listed(got["values"], "initial_states.values", None, len(starts))
        values = [None if self.V[s] is None else self.V[s][k] for s in starts]  # None: +infinity (proper)
        for s, x, v in zip(starts, stored, values):
            self.at("initial_states.values", s)
            if v is None:
                if x is not None:
                    fail(f"value {show(x)}: the verified value is infinite (null)", "initial_states.values", s)
            elif x is None or rational(x, "initial_states.values", s) != v:
                fail(f"value {show(x)} is not the verified value {pq(v)}", "initial_states.values", s)
        ends = {}
        order = [(1, 0) if v is None else (0, v) for v in values]  # infinity above every number
        for end, pick in (("smallest", min), ("largest", max)):
            f = f"initial_states.{end}"
            self.at(f)
            i = order.index(pick(order))
            best, s = values[i], starts[i]
            e = keys(got[end], ("state", "value", "decimal"), (), f)
            if integer(e["state"], f + ".state") != s:
                fail(f"state {show(e['state'])} is not the first initial state with the {end} value ({s})",
                     f + ".state", s)
            if best is None:
                if e["value"] is not None:
                    fail(f"value {show(e['value'])}: the {end} value is infinite (null)", f + ".value", s)
            elif e["value"] is None or rational(e["value"], f + ".value", s) != best:
                fail(f"value {show(e['value'])} is not the {end} value {pq(best)}", f + ".value", s)
            dec = "inf" if best is None else decimal(best, digits)
            if e["decimal"] != dec:
                fail(f"decimal {show(e['decimal'])} is not the value correctly rounded ({dec[:40]})", f + ".decimal", s)
            ends[end] = (s, dec)
        (lo_s, lo), (hi_s, hi) = ends["smallest"], ends["largest"]
        self.answer_text += (f"; {len(starts):,} initial states, values in [{lo}, {hi}] (smallest at state "
                             f"{self.state_names[lo_s]}, largest at state {self.state_names[hi_s]})")

    def _check_infinite_answer(self, ans: dict, name: str | None, c: int) -> None:
        """The initial state's value is +infinity (witness ``proper``): ``value`` null, its reason, ``inf``."""
        s0 = self.initial
        if ans["value"] is not None:
            fail(f"value {show(ans['value'])}: the verified value is infinite (null)", "answer.value", s0)
        self.at("answer.value_reason")
        want = INFINITE_REASON[self.objective]
        if ans.get("value_reason") != want:
            fail(f"value_reason {show(ans.get('value_reason'))} is not {want!r}", "answer.value_reason", s0)
        self.at("answer.digits")
        digits = integer(ans["digits"], "answer.digits")
        if not 0 <= digits <= MAX_DIGITS:
            fail(f"digits {show(digits)} is not in 0..{MAX_DIGITS}", "answer.digits")
        self.at("answer.decimal")
        if ans["decimal"] != "inf":
            fail(f"decimal {show(ans['decimal'])} is not 'inf'", "answer.decimal", s0)
        self._check_name(ans, name, c, digits, "inf")

    def check_smallest_margin(self) -> None:
        """The smallest non-zero margin at its lowest state: exactly among the candidates the margins'
        fixed-point bounds leave (every choice state when the margins are stored; witness ``proper``:
        the margins among the actions of finite value)."""
        self.at("smallest_margin")
        if self.witness == "proper":  # the margins among the actions of finite value (._proper)
            nonzero = [(m, s) for s, m in self.margin.items() if m]
        else:
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
