"""The optional ``source`` of a model certificate: what the explicit model was built from (a PRISM,
PRISM-games or JANI file, its constants and the property) and the property's answer.

Recorded, not re-derived (the checker reads no PRISM and runs no model builder): ``language``,
``file``, ``file_sha256`` (the SHA-256 of the file's bytes, 64 lowercase hex digits), ``constants``
(name -> value as given), ``property`` (as written), ``property_read`` (as Storm read it).  What
is verified, from the verified values: ``model_type`` against the model (``dtmc``: no state has
two actions; ``mdp``: one player; ``smg``: two players, zero-sum; a ``ctmc``'s model is its embedded
DTMC's, an ``ma``'s its embedded MDP's, as the tool maps them: that mapping of the file is recorded, like the
model's build, not re-derived); ``initial_states``: distinct
existing states, the first the model's initial state, each with the model's name of the state and
its verified value of the certified first component (an infinite value, witness ``proper``:
``null`` with its ``value_reason``); a threshold (``comparison`` one of ``>=``,
``>``, ``<=``, ``<`` and an exact ``bound``): each initial state's ``holds`` is the comparison of
its value with the bound, its ``distance`` is ``value - bound``, and ``threshold.holds`` is true
exactly when it holds in every initial state (at an infinite value ``>=`` and ``>`` hold, ``<=``
and ``<`` do not, and the distance is ``null``).
"""

from __future__ import annotations

from ._answer import INFINITE_REASON
from ._strict import fail, integer, keys, listed, pq, rational, show

SOURCE_KEYS = ("language", "file", "file_sha256", "constants", "property", "property_read", "model_type",
               "initial_states", "threshold")
COMPARE = {">=": lambda v, b: v >= b, ">": lambda v, b: v > b, "<=": lambda v, b: v <= b, "<": lambda v, b: v < b}


class Source:
    def check_source(self) -> str:
        """Verify ``source`` (when present); return the summary's words about it."""
        if "source" not in self.cert:
            return ""
        self.at("source")
        src = keys(self.cert["source"], SOURCE_KEYS, (), "source")
        for key in ("language", "file", "property", "property_read", "model_type"):
            self.at(f"source.{key}")
            if not isinstance(src[key], str) or len(src[key]) > 100_000:
                fail("expected a string (at most 100,000 characters)", f"source.{key}")
        if src["language"] not in ("prism", "jani"):
            fail(f"language {show(src['language'])} is not 'prism' or 'jani'", "source.language")
        self.at("source.file_sha256")
        sha = src["file_sha256"]
        if not isinstance(sha, str) or len(sha) != 64 or not set(sha) <= set("0123456789abcdef"):
            fail("not a SHA-256 (64 lowercase hex digits)", "source.file_sha256")
        self.at("source.constants")
        consts = keys(src["constants"], (), tuple(src["constants"]) if isinstance(src["constants"], dict) else (),
                      "source.constants")
        if not all(isinstance(v, str) for v in consts.values()):
            fail("constant values are strings", "source.constants")
        self._check_model_type(src["model_type"])
        values = self._check_initial_states(src["initial_states"])
        holds = self._check_threshold(src["threshold"], src["initial_states"], values)
        verdict = "" if holds is None else f", threshold {'holds' if holds else 'fails'} exactly"
        return (f"; the property's answer at {len(values)} initial state(s) verified{verdict} (source "
                f"{src['file']!r} sha256 {src['file_sha256'][:12]}..., its constants and property recorded, not "
                "re-derived)")

    def _check_model_type(self, kind: str) -> None:
        self.at("source.model_type")
        choosers = {self.mover[s] for s in range(self.n) if self.mover[s] is not None and len(self.trans[s]) > 1}
        if kind in ("dtmc", "ctmc"):
            if choosers:
                fail(f"a {kind.upper()} has no state with two actions", "source.model_type")
        elif kind in ("mdp", "ma"):
            if self.P != 1:
                fail(f"an MDP's model has one player, not {self.P}", "source.model_type")
        elif kind == "smg":
            if self.P != 2 or self.objective != "zero-sum":
                fail("a game's model has two players, zero-sum (the coalition against the rest)", "source.model_type")
        else:
            fail(f"model type {show(kind)} is not dtmc, mdp, smg, ctmc or ma", "source.model_type")

    def _check_initial_states(self, rows) -> list:
        f = "source.initial_states"
        self.at(f)
        rows = listed(rows, f)
        if not rows:
            fail("no initial state", f)
        c = 0  # the first certified component: the property's value
        seen, values = set(), []
        for i, row in enumerate(rows):
            self.at(f, i)
            keys(row, ("state", "name", "value"), ("holds", "distance", "value_reason"), f, i)
            s = integer(row["state"], f + ".state", i)
            if not 0 <= s < self.n or s in seen:
                fail(f"state {show(s)} is not a distinct existing state", f + ".state", i)
            if i == 0 and s != self.initial:
                fail(f"the first initial state is the model's initial state {self.initial}, not {s}", f + ".state", i)
            seen.add(s)
            if row["name"] != self.state_names[s]:
                fail(f"name {show(row['name'])} is not the state's name {self.state_names[s]!r}", f + ".name", s)
            if self.V[s] is None:  # +infinity (witness "proper")
                want = INFINITE_REASON[self.objective]
                if row["value"] is not None or row.get("value_reason") != want:
                    fail(f"the verified value is infinite: value null, value_reason {want!r}", f + ".value", s)
                values.append(None)
                continue
            if "value_reason" in row:
                fail("value_reason is for an infinite value", f + ".value_reason", s)
            value = rational(row["value"], f + ".value", s)
            if value != self.V[s][c]:
                fail(f"value {pq(value)} is not the verified value {pq(self.V[s][c])}", f + ".value", s)
            values.append(value)
        return values

    def _check_threshold(self, threshold, rows, values) -> bool | None:
        f = "source.threshold"
        self.at(f)
        if threshold is None:
            for i, row in enumerate(rows):
                if "holds" in row or "distance" in row:
                    fail("holds and distance are for a property with a threshold", "source.initial_states", i)
            return None
        keys(threshold, ("comparison", "bound", "holds"), (), f)
        op = threshold["comparison"]
        if op not in COMPARE:
            fail(f"comparison {show(op)} is not one of >=, >, <=, <", f + ".comparison")
        bound = rational(threshold["bound"], f + ".bound")
        every = True
        for i, (row, v) in enumerate(zip(rows, values)):
            self.at("source.initial_states", i)
            if "holds" not in row or "distance" not in row:
                fail("a threshold's initial state has holds and distance", "source.initial_states", i)
            if v is None:  # +infinity
                holds = op in (">=", ">")
                if row["holds"] is not holds or row["distance"] is not None:
                    fail(f"an infinite value: holds {holds}, distance null", "source.initial_states.holds", i)
                every = every and holds
                continue
            holds = COMPARE[op](v, bound)
            if row["holds"] is not holds:
                fail(f"holds {show(row['holds'])} is not {holds} ({pq(v)} {op} {pq(bound)})",
                     "source.initial_states.holds", i)
            if rational(row["distance"], "source.initial_states.distance", i) != v - bound:
                fail(f"distance {show(row['distance'])} is not value - bound = {pq(v - bound)}",
                     "source.initial_states.distance", i)
            every = every and holds
        self.at(f + ".holds")
        if threshold["holds"] is not every:
            fail(f"holds {show(threshold['holds'])} is not {every} (it holds when it holds at every initial state)",
                 f + ".holds")
        return every
