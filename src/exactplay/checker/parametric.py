"""Checker of parametric certificates (version 2, kind ``"parametric"``): standard library only.

What is proved, for the open range ``(a, b)`` of the parameter ``p``:

1. The model: every action's probabilities are polynomials summing to 1 identically, each in
   ``(0, 1]`` on the whole range (Sturm counts: no root of ``q`` or ``q - 1`` inside, and a value
   in ``(0, 1]`` at one point), and every play ends whatever the players choose (every state is
   ranked: each action of a rank-``k`` state has a successor of lower rank), so at every ``p`` the
   Bellman optimality equations have exactly one solution.
2. The breakpoints: each polynomial is square-free with exactly one root in its interval, the
   intervals lie in the range in increasing order, the decimal is that root to within half a
   unit of its last digit; the flips are the states whose action differs between the regions.
3. On each region (between consecutive breakpoints): the Bellman equations under the policy hold
   as identities of rational functions (a polynomial identity of degree ``<= B`` checked at
   ``B + 1`` integer points); no value denominator vanishes on the region; each stored margin is
   the identity ``sign * (Q_policy - Q_a)`` and is ``> 0`` on the whole open region (numerator
   and denominator without roots there, Sturm counts with algebraic ends refined through their
   isolating intervals, and positive at one interior point), or identically 0 with the policy's
   action the earlier one (the tie rule).  Together: the policy is optimal on the region and
   the values are the game's values there.
"""

from __future__ import annotations

from fractions import Fraction as F
from typing import Any

from ..errors import VerificationError
from ._sturm import Endpoint, count_roots, evaluate, no_root_between, sign, sub
from ._strict import MAX_PLAYERS, OBJECTIVE_PLAYERS
from ._strict import decimal as _decimal, integer as _int, keys as _keys, listed as _list, rational as _rational
from ._strict import recorded_params
from ._param_region import RegionCheck, _fail, _poly

__all__ = ["verify"]

TOP = ("format", "version", "kind", "symbol", "range", "model", "objective", "components", "breakpoints",
       "regions", "answer")
INFO = ("tool_version", "notes")
RECORDED = ("params",)  # the factory's other parameters: their form is checked, nothing ties them to the model
MODEL = ("name", "num_players", "player_names", "objective", "initial", "states", "terminal", "mover", "actions",
         "trans", "rewards")
MAX_DECIMALS = 100


def verify(cert: Any) -> str:
    try:
        return _Checker(cert).run()
    except VerificationError:
        raise
    except RecursionError:
        raise VerificationError("malformed certificate (nested too deeply)") from None
    except Exception as exc:  # noqa: BLE001 - no traceback on malformed input
        raise VerificationError(f"malformed parametric certificate ({type(exc).__name__}: {str(exc)[:80]})") from None


class _Checker:
    def __init__(self, cert: Any) -> None:
        self.cert = _keys(cert, TOP, INFO + RECORDED, "certificate")
        if "params" in self.cert:
            recorded_params(self.cert["params"])

    def run(self) -> str:
        c = self.cert
        if c["format"] != "exactplay-certificate" or c["version"] != 2 or c["kind"] != "parametric":
            _fail("not a version 2 parametric exactplay certificate", "kind")
        self.symbol = c["symbol"]
        if not isinstance(self.symbol, str) or not self.symbol.isidentifier():
            _fail("the parameter's name must be an identifier", "symbol")
        lo, hi = (_rational(x, "range") for x in _list(c["range"], "range", None, 2))
        if not lo < hi:
            _fail("empty range", "range")
        self.lo, self.hi = lo, hi
        self.read_model()
        self.check_probabilities()
        self.check_termination()
        self.resolve_objective()
        self.read_breakpoints()
        self.check_regions()
        self.check_answer()
        m = self.model
        v0 = self.regions_checked
        return (f"parametric {m['name']}: {len(self.regions)} region(s) of {self.symbol} in ({lo}, {hi}), "
                f"{len(self.points)} breakpoint(s); Bellman identities and margins verified on every region "
                f"({self.n} states, {v0} margin(s))")

    def check_answer(self) -> None:
        ans = _keys(self.cert["answer"], ("name", "value", "decimal"), (), "answer")
        name = f"{len(self.regions)} region(s) of {self.symbol} in ({self.lo}, {self.hi}), breakpoints"
        decimal = ", ".join(self.decimals) or "none"
        if ans["name"] != name or ans["value"] is not None or ans["decimal"] != decimal:
            _fail(f"expected name {name!r}, value null and decimal {decimal[:60]!r}", "answer")

    # ------------------------------------------------------------------ the model
    def read_model(self) -> None:
        m = self.model = _keys(self.cert["model"], MODEL, (), "model")
        self.n = n = len(_list(m["states"], "model.states"))
        self.P = _int(m["num_players"], "model.num_players")
        if not 1 <= self.P <= MAX_PLAYERS or _int(m["initial"], "model.initial") != 0 or n < 1:
            _fail(f"needs 1 to {MAX_PLAYERS} players, >= 1 state, initial state 0", "model")
        self.terminal = []
        for s, t in enumerate(_list(m["terminal"], "model.terminal", None, n)):
            self.terminal.append(None if t is None else [_rational(x, "model.terminal", s)
                                                          for x in _list(t, "model.terminal", s, self.P)])
        self.mover = _list(m["mover"], "model.mover", None, n)
        acts = _list(m["actions"], "model.actions", None, n)
        trans = _list(m["trans"], "model.trans", None, n)
        rewards = _list(m["rewards"], "model.rewards", None, n)
        self.trans, self.rewards, self.n_actions = [], [], []
        for s in range(n):
            if self.terminal[s] is not None:
                if self.mover[s] is not None or trans[s] != [] or acts[s] != [] or rewards[s] != []:
                    _fail("a terminal state has a mover, actions or transitions", "model", s)
                self.trans.append([])
                self.rewards.append([])
                self.n_actions.append(0)
                continue
            mv = self.mover[s]
            if mv is not None and not (type(mv) is int and 0 <= mv < self.P):
                _fail(f"mover {mv!r} is not a player", "model.mover", s)
            k = len(_list(trans[s], "model.trans", s))
            if k < 1 or (mv is None and k != 1) or len(_list(acts[s], "model.actions", s)) != k:
                _fail("actions and transitions do not match (a chance state has one)", "model.trans", s)
            dists = []
            for d in trans[s]:
                dist = []
                for item in _list(d, "model.trans", s):
                    t, q = _list(item, "model.trans", s, 2)
                    t = _int(t, "model.trans", s)
                    if not 0 <= t < n:
                        _fail(f"successor {t} is not a state", "model.trans", s)
                    q = _poly(q, "model.trans", s)
                    if not q:
                        _fail("a zero probability is stored", "model.trans", s)
                    dist.append((t, q))
                if len({t for t, _ in dist}) != len(dist):
                    _fail("a successor is listed twice", "model.trans", s)
                total = []
                for _, q in dist:
                    total = sub(total, [-x for x in q])
                if total != [F(1)]:
                    _fail("probabilities do not sum to 1 identically", "model.trans", s)
                dists.append(dist)
            rs = _list(rewards[s], "model.rewards", s, k)
            self.rewards.append([None if r is None else [_rational(x, "model.rewards", s)
                                                         for x in _list(r, "model.rewards", s, self.P)] for r in rs])
            self.trans.append(dists)
            self.n_actions.append(k)

    def check_probabilities(self) -> None:
        seen = set()
        mid = (self.lo + self.hi) / 2
        for s in range(self.n):
            for d in self.trans[s]:
                for _, q in d:
                    key = tuple(q)
                    if key in seen:
                        continue
                    seen.add(key)
                    v = evaluate(q, mid)
                    ok = 0 < v <= 1 and (len(q) == 1 or (no_root_between(q, self.lo, self.hi)
                                                         and no_root_between(sub(q, [F(1)]), self.lo, self.hi)))
                    if not ok:
                        _fail(f"a probability leaves (0, 1] on the range ({self.lo}, {self.hi})", "model.trans", s)

    def check_termination(self) -> None:
        rank = [0 if self.terminal[s] is not None else None for s in range(self.n)]
        changed = True
        while changed:
            changed = False
            for s in range(self.n):
                if rank[s] is None and all(any(rank[t] is not None for t, _ in d) for d in self.trans[s]):
                    rank[s] = 1
                    changed = True
        bad = [s for s in range(self.n) if rank[s] is None]
        if bad:
            _fail("some play may never end (a state cannot be ranked): not a supported parametric model",
                  "model.trans", bad[0])

    def resolve_objective(self) -> None:
        declared = self.model["objective"]
        if declared == "auto":  # the engine's rule: two players, constant-sum payoffs, zero-sum rewards
            declared = "max"
            if self.P == 2:
                sums = {t[0] + t[1] for t in self.terminal if t is not None}
                if len(sums) <= 1 and all(r is None or r[0] + r[1] == 0 for rs in self.rewards for r in rs):
                    declared = "zero-sum"
        if declared not in ("zero-sum", "max", "min"):
            _fail(f"unknown objective {declared!r}", "model.objective")
        fits = OBJECTIVE_PLAYERS.get(declared)
        if fits is not None and self.P != fits:
            _fail(f"objective {declared!r} is for {fits} player(s), the model has {self.P}", "model.objective")
        if self.cert["objective"] != declared:
            _fail(f"objective {self.cert['objective']!r}, the model's is {declared!r}", "objective")
        self.keys = {"zero-sum": [(0, 1), (0, -1)], "min": [(0, -1)]}.get(declared) or [(i, 1) for i in range(self.P)]
        comps = _list(self.cert["components"], "components")
        if comps != list(range(self.P)):
            _fail(f"components {comps!r}: every play ends, so all {self.P} are certified", "components")
        for s in range(self.n):
            if self.mover[s] is not None and self.mover[s] >= len(self.keys):
                _fail(f"mover {self.mover[s]} has no objective under {declared!r}", "model.mover", s)

    # ------------------------------------------------------------------ breakpoints
    def read_breakpoints(self) -> None:
        self.points = []
        self.decimals: list[str] = []
        items = _list(self.cert["breakpoints"], "breakpoints")
        for k, b in enumerate(items):
            field = f"breakpoints[{k}]"
            b = _keys(b, ("poly", "interval", "decimal", "flips"), (), field)
            e = Endpoint(_poly(b["poly"], field + ".poly"),
                         *(_rational(x, field + ".interval") for x in _list(b["interval"], field + ".interval", None, 2)))
            e.check(field + ".interval")
            if e.lo < self.lo or e.hi > self.hi:
                _fail("the isolating interval is not inside the range", field + ".interval")
            if self.points and self.points[-1].hi > e.lo:
                _fail("the breakpoints' intervals are not in increasing order", field + ".interval")
            self.check_decimal(e, b["decimal"], field + ".decimal")
            self.decimals.append(b["decimal"])
            self.points.append(Endpoint(e.poly, e.lo, e.hi))
        self.flips = [b["flips"] for b in items]

    def check_decimal(self, e: Endpoint, text: Any, field: str) -> None:
        if not isinstance(text, str) or "." not in text:
            _fail("expected a decimal string", field)
        digits = len(text.partition(".")[2])
        if not 1 <= digits <= MAX_DECIMALS:
            _fail(f"1 to {MAX_DECIMALS} decimals", field)
        x = F(text)
        if _decimal(x, digits) != text:
            _fail(f"{text!r} is not a canonical decimal", field)
        half = F(1, 2 * 10**digits)
        a, b = max(e.lo, x - half), min(e.hi, x + half)
        ok = a < b and (count_roots(e.poly, a, b) + (1 if sign(e.poly, a) == 0 else 0)) == 1
        if not ok:
            _fail(f"the root in the interval is not {text} to within half a unit in the last place", field)

    # ------------------------------------------------------------------ regions
    def check_regions(self) -> None:
        regions = _list(self.cert["regions"], "regions", None, len(self.points) + 1)
        self.regions = regions
        self.regions_checked = 0
        ends = [self.lo] + self.points + [self.hi]
        policies = []
        for k, reg in enumerate(regions):
            check = RegionCheck(self, k, reg, ends[k], ends[k + 1])
            policies.append(check.run())
            self.regions_checked += check.margins_checked
        for k, flips in enumerate(self.flips):
            want = [[s, policies[k][s], policies[k + 1][s]] for s in range(self.n) if policies[k][s] != policies[k + 1][s]]
            if flips != want:
                _fail(f"flips {str(flips)[:60]} but the policies differ at {str(want)[:60]}", f"breakpoints[{k}].flips")
