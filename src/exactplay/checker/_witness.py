"""The objective and the witness a model calls for, recomputed from the model alone.

``auto`` is ``zero-sum`` for two players whose terminal payoffs all sum to one
constant and whose rewards all sum to 0, in a game where every play ends, else
``max``.  The witness: ``termination`` when every play ends under all
strategies (the attractor of the terminal states is everything); otherwise
``policy`` when no choice state lies on a cycle where it feeds back; otherwise
``reward`` when a reward lies at a state from which play can go on forever, or in the key
component of choices on a cycle (one key component c shared by every chooser, or by every player
where none chooses; payoffs and rewards of c >= 0); otherwise ``reachability`` (one key
component shared by every chooser, payoffs >= 0).  A model with ``never_ending`` ``"infinite"`` has ``proper``
(:mod:`exactplay.checker._proper`), or ``termination`` when every play ends.  See :mod:`exactplay.checker.model` for why each suffices.
"""

from __future__ import annotations

from ._graph import sccs
from ._strict import OBJECTIVE_PLAYERS, fail


class Witness:
    def resolve_objective(self) -> None:
        self.at("model.objective")
        obj = self.declared_objective
        fits = OBJECTIVE_PLAYERS.get(obj)
        if fits is not None and self.P != fits:
            fail(f"objective {obj!r} is for {fits} player(s), the model has {self.P}", "model.objective")
        if obj == "auto":
            sums = {p[0] + p[1] for p in self.payoff if p is not None} if self.P == 2 else set()
            rewards_ok = self.P == 2 and all(r is None or r[0] + r[1] == 0 for rs in self.rewards for r in rs)
            obj = "zero-sum" if self.P == 2 and len(sums) <= 1 and rewards_ok and self.terminates else "max"
        self.objective = obj
        if obj == "zero-sum":
            self.keys = [(0, 1), (0, -1)]
        elif obj == "min":
            self.keys = [(0, -1)]
        else:
            self.keys = [(i, 1) for i in range(self.P)]
        for s, m in enumerate(self.mover):
            if m is not None and m >= len(self.keys):
                fail(f"mover {m} has no objective under {obj!r} (players 0..{len(self.keys) - 1} choose)",
                      "model.states.mover", s)

    def local_choice(self, s: int) -> bool:
        c = self.comp[s]
        parts = {tuple(sorted((t, p) for t, p in d if self.comp[t] == c)) for d in self.trans[s]}
        return len(parts) == 1

    def is_choice(self, s: int) -> bool:
        return self.mover[s] is not None and len(self.trans[s]) > 1

    # ------------------------------------------------------------ graph and witness

    def graph(self) -> None:
        self.at("model.states")
        n = self.n
        trans = self.trans
        self.succ = succ = [([d[0][0][0]] if len(d[0]) == 1 else sorted([t for t, _ in d[0]])) if len(d) == 1
                            else sorted({t for a in d for t, _ in a}) for d in trans]
        comp = sccs(succ)
        ncomp = 1 + max(comp, default=-1)
        members: list[list[int]] = [[] for _ in range(ncomp)]
        for s, c in enumerate(comp):
            members[c].append(s)
        self.on_cycle = [len(members[comp[s]]) > 1 or s in succ[s] for s in range(n)]
        self.comp = comp
        # the attractor of the terminal states (every play ends under all strategies iff it is
        # everything): a state joins when every action has a successor in it; component by
        # component, sinks first, so only a component's own edges wait
        reached = [p is not None for p in self.payoff]
        for c, M in enumerate(members):
            if len(M) == 1:
                s = M[0]
                if not reached[s]:  # every action has a successor reached (loops: no generators, the common case)
                    for d in trans[s]:
                        for t, _ in d:
                            if reached[t]:
                                break
                        else:
                            break
                    else:
                        reached[s] = True
                continue
            need: dict[int, int] = {}
            waits: dict[int, list] = {}
            queue = []
            for s in M:
                k = 0
                for a, d in enumerate(trans[s]):
                    if any(reached[t] for t, _ in d):
                        continue
                    k += 1
                    for t, _ in d:
                        if comp[t] == c:
                            waits.setdefault(t, []).append((s, a))
                need[s] = k
                if not k:
                    queue.append(s)
            done = set()
            while queue:
                t = queue.pop()
                reached[t] = True
                for s, a in waits.get(t, ()):
                    if reached[s] or (s, a) in done:
                        continue
                    done.add((s, a))
                    need[s] -= 1
                    if not need[s]:
                        queue.append(s)
        del members
        self.terminates = all(reached)
        if self.terminates:  # every play ends: no end component, every state surely ends
            self.surely_ends = [True] * n
            return
        if not any(r is not None for rs in self.rewards for r in rs):
            self.surely_ends = None  # read only where there is a reward: no end components to find
            return
        # a reward needs every play from its state to end: the state must not reach a set where
        # some choice of actions keeps play forever (an end component)
        forever = self._end_component_states()
        rpreds: list[list[int]] = [[] for _ in range(n)]
        for s in range(n):
            for t in self.succ[s]:
                rpreds[t].append(s)
        can_stay = [s in forever for s in range(n)]
        stack = list(forever)
        while stack:
            t = stack.pop()
            for s in rpreds[t]:
                if not can_stay[s]:
                    can_stay[s] = True
                    stack.append(s)
        self.surely_ends = [not x for x in can_stay]

    def _end_component_states(self) -> set[int]:
        """States of some end component: keep the actions staying in the state's own block (at first
        every live state), drop states without one, split into SCCs of the kept actions (the new
        blocks), drop single states without a staying self-loop; repeat until nothing changes."""
        current = {s for s in range(self.n) if self.payoff[s] is None}
        block = {s: 0 for s in current}
        while current:
            kept = {s: [{t for t, _ in d} for d in self.trans[s] if all(block.get(t, -1) == block[s] for t, _ in d)]
                    for s in current}
            kept = {s: acts for s, acts in kept.items() if acts}
            nodes = sorted(kept)
            index = {s: i for i, s in enumerate(nodes)}
            succ = [sorted({index[t] for a in kept[s] for t in a if t in index}) for s in nodes]
            comp = sccs(succ)
            size: dict[int, int] = {}
            for c in comp:
                size[c] = size.get(c, 0) + 1
            survivors = {nodes[i] for i in range(len(nodes))
                         if size[comp[i]] > 1 or any(a == {nodes[i]} for a in kept[nodes[i]])}
            new_block = {nodes[i]: comp[i] for i in range(len(nodes)) if nodes[i] in survivors}
            if survivors == current and len(set(new_block.values())) == len(set(block.values())):
                return current
            current, block = survivors, new_block
        return set()

    def check_witness(self) -> None:
        self.at("model")
        if self.never_ending == "infinite":  # (:mod:`._proper`): where every play ends, the semantics agree
            self.witness = "termination" if self.terminates else "proper"
            self.components = [0]
            return
        choosers = [s for s in range(self.n) if self.is_choice(s)]
        key_comps = sorted({self.keys[self.mover[s]][0] for s in choosers})
        # a choice on a cycle whose actions all move inside the cycle's component with the same
        # probabilities does not feed back into it (it is decided by its exits): it does not count
        cycling = (s for s in choosers if self.on_cycle[s] and not self.local_choice(s))
        if len(key_comps) <= 1:  # one objective: whether there is such a choice, and the first
            first = next(cycling, None)
            cyclic_choice = [] if first is None else [first]
        else:
            cyclic_choice = list(cycling)
            per_component: dict[int, set[int]] = {}
            for s in cyclic_choice:
                per_component.setdefault(self.comp[s], set()).add(self.keys[self.mover[s]][0])
            mixed = [s for s in cyclic_choice if len(per_component[self.comp[s]]) > 1]
            if mixed:
                fail("players with different objectives choose on a cycle of play: such a game has no single "
                      "value", "model", mixed[0])
        # a reward where play can go on forever, or where choices on a cycle can make it: the reward witness
        forever = None if self.terminates else next(
            (s for s in range(self.n) if any(r is not None for r in self.rewards[s]) and not self.surely_ends[s]), None)
        if forever is None and cyclic_choice and len(key_comps) == 1:
            forever = next((s for s in range(self.n) for r in self.rewards[s]
                            if r is not None and r[key_comps[0]] != 0), None)
        if self.terminates:
            witness, components = "termination", list(range(self.P))
        elif forever is not None or cyclic_choice:
            witness = "reward" if forever is not None else "reachability"
            comps = key_comps or sorted({k for k, _ in self.keys})
            if len(comps) > 1:
                fail("a reward where play can go on forever, in a game whose players have different objectives "
                      "(the reward witness certifies one objective)" if witness == "reward" else
                      "choices on a cycle where play can go on forever, by players of different objectives: the "
                      "reachability witness certifies one objective", "model",
                      forever if witness == "reward" else cyclic_choice[0])
            (c,) = comps
            components = [c]
            for s in range(self.n):
                if self.payoff[s] is not None and self.payoff[s][c] < 0:
                    fail(f"a negative payoff for {self.player_names[c]} where plays can go on forever "
                          f"(the {witness} witness needs payoffs >= 0)", "model", s)
                for r in self.rewards[s] if witness == "reward" else ():
                    if r is not None and r[c] < 0:
                        fail(f"a negative reward for {self.player_names[c]} where plays can go on forever "
                              "(the reward witness needs rewards >= 0)", "model", s)
        else:
            witness, components = "policy", list(range(self.P))
        self.witness = witness
        self.components = components

    # ------------------------------------------------------------ solution
