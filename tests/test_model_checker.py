"""The generic checker of certificate v2 (kind "model"): real certificates verify,
fake fixed points and >= 1,000 random semantic mutations are rejected, each naming
a field (and the state where there is one), none with a traceback."""

from __future__ import annotations

import ast
import copy
import json
import random
from collections import Counter
from fractions import Fraction
from pathlib import Path

import pytest

from exactplay.checker import model as checker
from exactplay.checker import verify_file
from exactplay.engine import solve
from exactplay.errors import VerificationError
from exactplay.model import ModelError, load_factory, model_from_json
from exactplay.certify.model import model_certificate, model_digest

ROOT = Path(__file__).resolve().parent.parent


# ---------------------------------------------------------------- the models


def explicit(states, players=1, objective="auto", name="test model"):
    return model_from_json({"format": "exactplay-model", "version": 1, "name": name, "players": players,
                            "objective": objective, "states": states})


def pig(goal):
    return load_factory(str(ROOT / "examples" / "pig.py") + ":make_game")(goal=goal)


def act(name, *outcomes, reward=None):
    a = {"name": name, "next": [[p, t] for p, t in outcomes]}
    if reward is not None:
        a["reward"] = reward
    return a


WIN = {"id": "win", "payoff": ["1/1"]}
LOSE = {"id": "lose", "payoff": ["0/1"]}

# a state with 'loop to itself' (listed first) and 'win with probability 1/2': the value is 1/2
LOOP_WIN = [
    {"id": "s", "mover": 0, "actions": [act("loop", ("1/1", "s")), act("gamble", ("1/2", "win"), ("1/2", "lose"))]},
    WIN, LOSE]
# the same through a chance state: the loop is a 2-cycle
LOOP_WIN_2 = [
    {"id": "s", "mover": 0, "actions": [act("loop", ("1/1", "u")), act("gamble", ("1/2", "win"), ("1/2", "lose"))]},
    {"id": "u", "mover": None, "next": [["1/1", "s"]]},
    WIN, LOSE]
# both players can pass forever (a draw worth 0 to both); payoffs sum to 1 only where play ends, so
# 'auto' is not zero-sum here: the model declares it
PASS_FOREVER = [
    {"id": "A", "mover": 0, "actions": [act("pass", ("1/1", "B")), act("bet", ("1/2", "w"), ("1/2", "l"))]},
    {"id": "B", "mover": 1, "actions": [act("pass", ("1/1", "A")), act("bet", ("2/3", "w"), ("1/3", "l"))]},
    {"id": "w", "payoff": ["1/1", "0/1"]}, {"id": "l", "payoff": ["0/1", "1/1"]}]
PASS_FOREVER_3 = [
    {"id": "A", "mover": 0, "actions": [act("pass", ("1/1", "C")), act("bet", ("1/3", "w"), ("2/3", "l"))]},
    {"id": "C", "mover": None, "next": [["1/2", "B"], ["1/4", "A"], ["1/4", "w"]]},
    {"id": "B", "mover": 1, "actions": [act("bet", ("1/5", "w"), ("4/5", "l")), act("pass", ("1/1", "A"))]},
    {"id": "w", "payoff": ["1/1", "0/1"]}, {"id": "l", "payoff": ["0/1", "1/1"]}]
# a Markov chain with a closed recurrent class that never ends, behind a choice; a reward only where
# every play ends (a reward at a state that can reach the closed class is refused)
CHAIN = [
    {"id": "start", "mover": 0, "actions": [act("enter", ("1/1", "s0")), act("safe", ("1/1", "t35")),
                                            act("paid", ("1/1", "s1"))]},
    {"id": "s0", "mover": None, "next": [["1/2", "t1"], ["1/4", "c1"], ["1/4", "s0"]]},
    {"id": "s1", "mover": None, "actions": [{"next": [["1/2", "t0"], ["1/2", "t1"]], "reward": ["1/2"]}]},
    {"id": "c1", "mover": None, "next": [["1/1", "c2"]]},
    {"id": "c2", "mover": None, "next": [["1/3", "c1"], ["2/3", "c2"]]},
    {"id": "t1", "payoff": ["1/1"]}, {"id": "t0", "payoff": ["0/1"]}, {"id": "t35", "payoff": ["3/5"]}]


def three_players(closed: bool):
    """Three players maximise their own payoffs; choices off cycles, a chance cycle between them."""
    p2 = [act("a", ("1/1", "t201")), act("b", ("1/1", "X" if closed else "t000")), act("c", ("1/1", "t001"))]
    states = [
        {"id": "root", "mover": 0, "actions": [act("left", ("1/1", "L")), act("right", ("1/1", "R"))]},
        {"id": "L", "mover": None, "next": [["1/2", "L2"], ["1/2", "P1"]]},
        {"id": "L2", "mover": None, "next": [["1/3", "L"], ["2/3", "P2"]]},
        {"id": "R", "mover": None, "next": [["1/2", "t111"], ["1/2", "P1"]]},
        {"id": "P1", "mover": 1, "actions": [act("a", ("1/1", "t120")), act("b", ("1/2", "P2"), ("1/2", "t031"))]},
        {"id": "P2", "mover": 2, "actions": p2},
        {"id": "t201", "payoff": ["2/1", "0/1", "1/1"]}, {"id": "t001", "payoff": ["0/1", "0/1", "1/1"]},
        {"id": "t000", "payoff": ["0/1", "0/1", "0/1"]}, {"id": "t111", "payoff": ["1/1", "1/1", "1/1"]},
        {"id": "t120", "payoff": ["1/1", "2/1", "0/1"]}, {"id": "t031", "payoff": ["0/1", "3/1", "1/1"]}]
    if closed:
        states.append({"id": "X", "mover": None, "next": [["1/1", "X"]]})
    return explicit(states, players=["ann", "bob", "cy"], name="three players" + (" (closed)" if closed else ""))


# rewards: expected reward with a self-loop (margins compare the values of keeping an action)
REWARDS = [
    {"id": "s", "mover": 0, "actions": [act("slow", ("1/2", "end"), ("1/2", "s"), reward=["1/1"]),
                                        act("roll", ("1/6", "end"), ("5/6", "s"), reward=["1/1"]),
                                        act("quit", ("1/1", "end"), reward=["3/1"])]},
    {"id": "end", "payoff": ["0/1"]}]
# a stochastic shortest path (objective min) with an exact tie
SHORTEST = [
    {"id": "home", "mover": 0, "actions": [act("walk", ("1/1", "stop"), reward=["2/1"]),
                                           act("bus", ("1/2", "town"), ("1/2", "home"), reward=["1/1"])]},
    {"id": "town", "mover": None, "next": [["1/1", "stop"]]},
    {"id": "stop", "payoff": ["0/1"]}]
# a two-player zero-sum game with rewards (1, -1): p0 collects, p1 stops
ZERO_SUM_REWARDS = [
    {"id": "a", "mover": 0, "actions": [act("take", ("1/2", "b"), ("1/2", "end"), reward=["1/1", "-1/1"]),
                                        act("stop", ("1/1", "end"))]},
    {"id": "b", "mover": 1, "actions": [act("give", ("1/1", "a"), reward=["1/3", "-1/3"]),
                                        act("stop", ("1/1", "end"), reward=["1/2", "-1/2"])]},
    {"id": "end", "payoff": ["0/1", "0/1"]}]
# a minimiser who can loop forever (reachability, objective min): the loop is worth 0
MIN_LOOP = [
    {"id": "s", "mover": 0, "actions": [act("gamble", ("1/2", "win"), ("1/2", "lose")), act("loop", ("1/1", "s"))]},
    WIN, LOSE]
# a plain tie without cycles
TIE = [
    {"id": "s", "mover": 0, "actions": [act("sure", ("1/1", "half")), act("coin", ("1/2", "win"), ("1/2", "lose"))]},
    {"id": "half", "payoff": ["1/2"]}, WIN, LOSE]


def models():
    out = {f"pig{g}": pig(g) for g in (3, 4, 5, 6)}
    out.update({
        "loop_win": explicit(LOOP_WIN),
        "loop_win_2cycle": explicit(LOOP_WIN_2),
        "pass_forever": explicit(PASS_FOREVER, players=["first", "second"], objective="zero-sum"),
        "pass_forever_3": explicit(PASS_FOREVER_3, players=2, objective="zero-sum"),
        "closed_chain": explicit(CHAIN),
        "three_players": three_players(closed=False),
        "three_players_closed": three_players(closed=True),
        "rewards": explicit(REWARDS),
        "shortest_path": explicit(SHORTEST, objective="min"),
        "zero_sum_rewards": explicit(ZERO_SUM_REWARDS, players=2),
        "min_loop": explicit(MIN_LOOP, objective="min"),
        "tie": explicit(TIE),
    })
    return out


_CERTS: dict[str, dict] = {}


def certificates() -> dict[str, dict]:
    if not _CERTS:
        for name, m in models().items():
            _CERTS[name] = model_certificate(solve(m), digits=6, notes=name)
    return _CERTS


def cert(name):
    return copy.deepcopy(certificates()[name])


def rehash(c):
    c["model_sha256"] = model_digest(c["model"])
    return c


def rejected(c) -> VerificationError:
    with pytest.raises(VerificationError) as info:
        checker.verify(c)
    assert info.value.field, str(info.value)
    return info.value


# ---------------------------------------------------------------- real certificates verify


@pytest.mark.parametrize("name", sorted(models()))
def test_engine_certificates_verify(name):
    summary = checker.verify(cert(name))
    assert summary.startswith("model ") and "verified" in summary and "\n" not in summary


def test_expected_witnesses_and_values():
    c = certificates()
    got = {k: (v["solution"]["witness"], v["answer"]["value"]) for k, v in c.items()}
    assert got["loop_win"] == ("reachability", "1/2")
    assert got["loop_win_2cycle"] == ("reachability", "1/2")
    assert got["pass_forever"] == ("reachability", "1/2")
    assert got["closed_chain"][0] == "policy"
    assert got["three_players"][0] == "termination"
    assert got["three_players_closed"][0] == "policy"
    assert got["rewards"] == ("termination", "6/1")
    assert got["shortest_path"] == ("termination", "2/1")
    assert got["min_loop"] == ("reachability", "0/1")
    assert got["pig3"][0] == "termination"
    # the loop is listed first, and is not the policy
    assert c["loop_win"]["solution"]["policy"][0] == 1
    assert c["loop_win_2cycle"]["solution"]["policy"][0] == 1
    # the minimiser's loop is
    assert c["min_loop"]["solution"]["policy"][0] == 1
    assert [0, [0, 1]] in c["tie"]["solution"]["ties"]
    assert c["closed_chain"]["answer"]["value"] == "1/1"  # paid: 1/2 + (1/2 of 0, 1/2 of 1); enter 2/3; safe 3/5


def test_verify_file_and_cli(tmp_path, capsys):
    from exactplay.cli.main import main

    path = tmp_path / "pig4.json"
    path.write_text(json.dumps(cert("pig4")))
    found = verify_file(path)
    assert found["game"] == "Pig to 4" and found["params"] == {}
    assert found["answer"]["value"] == certificates()["pig4"]["answer"]["value"]
    assert found["unverified_fields"] == ["notes", "tool_version"]
    assert main(["check", str(path)]) == 0
    assert "Pig to 4" in capsys.readouterr().out
    bad = cert("pig4")
    bad["solution"]["values"][0] = ["1/2", "1/2"]
    path.write_text(json.dumps(bad))
    with pytest.raises(VerificationError, match="solution.values"):
        verify_file(path)
    assert main(["check", str(path)]) == 1
    capsys.readouterr()
    bad = cert("pig4")
    bad["kind"] = "other"
    path.write_text(json.dumps(bad))
    with pytest.raises(VerificationError, match="kind"):
        verify_file(path)


def test_the_checker_imports_only_the_standard_library_and_errors():
    """checker/model.py and every checker module it imports, transitively: the standard library
    (a few modules), exactplay.errors and each other, nothing else."""
    base = ROOT / "src" / "exactplay" / "checker"
    allowed = {"__future__", "hashlib", "json", "fractions", "typing", "..errors", "dataclasses", "math", "gc"}
    todo, seen = ["model"], set()
    while todo:
        name = todo.pop()
        if name in seen:
            continue
        seen.add(name)
        tree = ast.parse((base / (name.replace(".", "/") + ".py")).read_text())
        depth = name.count(".")
        for node in ast.walk(tree):
            if isinstance(node, ast.Import):  # gmpy2: only the optional fast integers of _ints
                extra = {"gmpy2"} if name == "_ints" else set()
                assert {a.name for a in node.names} <= allowed | extra, (name, [a.name for a in node.names])
            elif isinstance(node, ast.ImportFrom):
                if node.level == 0:
                    assert node.module in allowed, (name, node.module)
                elif node.level - depth == 1:  # inside the checker package
                    parts = [node.module] if node.module else [a.name for a in node.names]
                    prefix = name.rpartition(".")[0]
                    todo.extend(f"{prefix}.{p}" if prefix else p for p in parts)
                else:
                    assert node.level - depth == 2 and node.module == "errors", (name, node.module)
    assert {"model", "explicit", "_strict", "_witness", "_bellman", "_choices", "_answer", "_graph", "_ints"} <= seen


# ---------------------------------------------------------------- fake fixed points


@pytest.mark.parametrize("name", ["loop_win", "loop_win_2cycle"])
@pytest.mark.parametrize("fake", ["3/4", "1/1", "501/1000"])
def test_fake_fixed_point_is_rejected_by_the_rank_condition(name, fake):
    """V(s) in (1/2, 1] with the loop chosen satisfies Bellman exactly; only the ranks refuse it."""
    for ranks in ([1, 0, None], [None, 0, None], [2, 0, None], [0, 0, None]):
        c = cert(name)
        sol = c["solution"]
        n = len(sol["values"])
        sol["values"][0] = [fake]
        sol["policy"][0] = 0  # the loop
        sol["margins"][0] = f"{Fraction(fake) - Fraction(1, 2)}"
        if n == 4:  # the chance state of the 2-cycle carries the same value
            sol["values"][1] = [fake]
            ranks = [ranks[0], None if ranks[0] is None else ranks[0] + 1, 0, None]
        sol["ranks"] = ranks
        sol["ties"] = []
        c["answer"]["value"] = fake
        err = rejected(c)
        assert err.field == "solution.ranks" and err.state in (0, 1), str(err)
        assert "rank" in str(err)


def test_fake_fixed_point_of_a_minimiser_loop():
    """A minimiser state with a pure loop and V > 0: Bellman holds (min Q = V) but the loop never ends."""
    c = cert("min_loop")
    sol = c["solution"]
    sol["values"][0] = ["1/2"]  # the gamble's value, but the loop keeps the play at 0
    sol["policy"][0] = 0
    sol["ranks"][0] = 1
    err = rejected(c)
    assert err.field == "solution.ranks" and err.state == 0


def test_policy_witness_unranked_states_must_be_worth_zero():
    c = cert("closed_chain")
    sol = c["solution"]
    closed = [s for s, r in enumerate(sol["ranks"]) if r is None]
    assert closed
    assert closed[0] not in (None,)
    # the closed class satisfies V = P V for any constant: claim 1 everywhere on it
    for t in closed:
        sol["values"][t] = ["1/1"]
    err = rejected(c)
    assert err.field in ("solution.ranks", "solution.values") and err.state is not None


# ---------------------------------------------------------------- limits and malformed input


def test_limits(monkeypatch):
    c = cert("pig3")
    c["solution"]["values"][1] = ["1" * (checker.MAX_NUMBER_CHARS + 1) + "/1", "0/1"]
    err = rejected(c)
    assert err.field == "solution.values" and "characters" in str(err)
    monkeypatch.setattr(checker, "MAX_STATES", 5)
    err = rejected(cert("pig3"))
    assert err.field == "model.states" and "limit" in str(err)


@pytest.mark.parametrize("junk", [None, 1, "x", [], {}, [[]], {"format": "exactplay-certificate"}])
def test_garbage_is_rejected_in_one_line(junk):
    with pytest.raises(VerificationError):
        checker.verify(junk)


def test_deeply_nested_junk_is_rejected():
    c = cert("tie")
    deep: list = []
    for _ in range(100_000):
        deep = [deep]
    c["model"]["states"][0]["labels"] = deep
    rehash_err = None
    try:
        rehash(c)
    except RecursionError:
        rehash_err = True
    err = rejected(c)
    assert err.field in ("model_sha256", "model.states.labels") or rehash_err


# ---------------------------------------------------------------- random mutations

JUNK = [1.5, True, {"junk": 1}, "junk", -7, None, [], "-0/1", "2/4", "1/0"]
# leaves whose content is informational or free text: changing them changes no claim
FREE = ("notes", "tool_version")


def leaves(obj, path=()):
    if isinstance(obj, dict):
        for k, v in obj.items():
            yield from leaves(v, path + (k,))
    elif isinstance(obj, list) and obj:
        for i, v in enumerate(obj):
            yield from leaves(v, path + (i,))
    else:
        yield path


def get(obj, path):
    for k in path:
        obj = obj[k]
    return obj


def put(obj, path, value):
    get(obj, path[:-1])[path[-1]] = value


def free_text(path) -> bool:
    """Paths whose value is a free name: another string there is no semantic change."""
    if not path or path[0] in FREE:
        return True
    if path[0] == "model":
        if path[1:] in (("name",),) or (len(path) >= 2 and path[1] == "players"):
            return True
        if len(path) >= 4 and path[1] == "states" and path[3] in ("name", "labels"):
            return True
        if len(path) >= 6 and path[3] == "actions" and path[5] == "name":
            return True
    return False


def frac_delta(rng):
    return Fraction(rng.choice([1, -1]) * rng.randint(1, 7), rng.randint(1, 9))


def pq(x):
    x = Fraction(x)
    return f"{x.numerator}/{x.denominator}"


def writer_agrees(c) -> bool:
    """Whether the certificate is exactly what the writer produces for its (mutated) model."""
    try:
        ref = model_certificate(solve(model_from_json(c["model"])), digits=c["answer"]["digits"])
    except (ModelError, ValueError, TypeError, KeyError, RuntimeError):
        return False
    return all(ref[k] == c[k] for k in ("model", "solution", "answer", "smallest_margin"))


def mutate(rng, base):
    """One random mutation: (kind, certificate, whether it must be screened by the writer oracle)."""
    c = copy.deepcopy(base)
    sol = c["solution"]
    n = len(sol["values"])
    states = c["model"]["states"]
    nonterminal = [s for s in range(n) if "payoff" not in states[s]]
    choice = [s for s in range(n) if sol["margins"][s] is not None]
    kind = rng.choice(["value", "value", "policy", "policy", "rank", "rank", "margin", "margin", "ties",
                       "answer", "smallest_margin", "digest", "model_number", "model_malformed",
                       "keys", "header", "junk", "structure", "suboptimal"])
    if kind == "suboptimal":
        # a self-consistent certificate of another policy: the values of the game where one choice
        # state keeps a single other action (solved by the engine), with that action as the policy
        if not choice:
            return kind, c, True
        s = rng.choice(choice)
        k = len(states[s]["actions"])
        b = rng.choice([a for a in range(k) if a != sol["policy"][s]])
        restricted = copy.deepcopy(c["model"])
        restricted["states"][s]["actions"] = [restricted["states"][s]["actions"][b]]
        try:
            other = model_certificate(solve(model_from_json(restricted)), digits=c["answer"]["digits"])
        except (ModelError, RuntimeError):
            return kind, c, True
        if other["solution"]["components"] != sol["components"]:
            return kind, c, True
        for key in ("values", "ranks", "policy"):
            sol[key] = other["solution"][key]
        sol["policy"][s] = b
        c["answer"]["value"] = other["answer"]["value"]
        c["answer"]["decimal"] = other["answer"]["decimal"]
        return kind, c, False
    if kind == "value":
        s = rng.randrange(n)
        i = rng.randrange(len(sol["values"][s]))
        old = Fraction(sol["values"][s][i])
        sol["values"][s][i] = rng.choice([pq(old + frac_delta(rng)), f"{old.numerator * 2}/{old.denominator * 2}",
                                          pq(-old) if old else "1/1"])
    elif kind == "policy":
        s = rng.randrange(n)
        if s in nonterminal:
            k = len(states[s].get("actions", [1]))
            options = [a for a in range(-1, k + 1) if a != sol["policy"][s]] + [None, True]
            sol["policy"][s] = rng.choice(options)
        else:
            sol["policy"][s] = rng.choice([0, 1])
    elif kind == "rank":
        s = rng.randrange(n)
        r = sol["ranks"][s]
        options = [None, 0, 1, 2, n + 5, -1, "1", True] if r is None else [r + 1, r + 2, r - 1, None, str(r), 1.0 * r]
        if r is not None and r > 1:
            options.append(r // 2)
        options = [x for x in options if not (type(x) is type(r) and x == r)]
        sol["ranks"][s] = rng.choice(options)
    elif kind == "margin":
        if choice and rng.random() < 0.8:
            s = rng.choice(choice)
            old = Fraction(sol["margins"][s])
            new = old + frac_delta(rng)
            sol["margins"][s] = rng.choice([pq(new), None, "1/1" if old != 1 else "0/1",
                                            f"{old.numerator * 3}/{old.denominator * 3}"])
        else:
            s = rng.choice([s for s in range(n) if s not in choice])
            sol["margins"][s] = "0/1"
    elif kind == "ties":
        ties = sol["ties"]
        if ties and rng.random() < 0.6:
            i = rng.randrange(len(ties))
            how = rng.choice(["drop", "shrink", "grow", "dup", "move"])
            if how == "drop":
                del ties[i]
            elif how == "shrink":
                ties[i][1] = ties[i][1][1:]
            elif how == "grow":
                ties[i][1] = ties[i][1] + [max(ties[i][1]) + 1]
            elif how == "dup":
                ties.insert(i, copy.deepcopy(ties[i]))
            else:
                ties[i][0] = (ties[i][0] + 1) % n
        else:
            s = rng.choice([s for s in range(n) if [s, [0, 1]] not in ties])
            ties.append([s, [0, 1]])
            ties.sort(key=lambda t: t[0])
    elif kind == "answer":
        a = c["answer"]
        field = rng.choice(["name", "state", "component", "value", "decimal", "digits"])
        if field == "name":
            a["name"] = a["name"] + " "
        elif field == "state":
            a["state"] = rng.choice([1, -1, None, "0"])
        elif field == "component":
            a["component"] = rng.choice([a["component"] + 1, -1, None])
        elif field == "value":
            a["value"] = pq(Fraction(a["value"]) + frac_delta(rng))
        elif field == "decimal":
            d = a["decimal"]
            last = str((int(d[-1]) + rng.randint(1, 9)) % 10)
            a["decimal"] = rng.choice([d[:-1] + last, d + "0", d[:-1], d.replace(".", ",")])
        else:
            a["digits"] = rng.choice([a["digits"] + 1, a["digits"] - 1, -1, checker.MAX_DIGITS + 1, "6"])
    elif kind == "smallest_margin":
        sm = c["smallest_margin"]
        if sm is None:
            c["smallest_margin"] = {"value": "1/1", "state": 0}
        else:
            how = rng.choice(["value", "state", "null"])
            if how == "value":
                sm["value"] = pq(Fraction(sm["value"]) + frac_delta(rng))
            elif how == "state":
                sm["state"] = (sm["state"] + rng.randint(1, n - 1)) % n
            else:
                c["smallest_margin"] = None
    elif kind == "digest":
        h = c["model_sha256"]
        i = rng.randrange(len(h))
        c["model_sha256"] = h[:i] + ("0" if h[i] != "0" else "1") + h[i + 1:]
    elif kind == "model_number":
        # a real change of the game (canonical numbers), digest recomputed: screened by the writer oracle
        how = rng.choice(["prob", "payoff", "reward"])
        if how == "prob":
            cands = [(s, k) for s in nonterminal for k, a in enumerate(states[s].get("actions", []))
                     if len(a["next"]) >= 2]
            if not cands:
                how = "payoff"
            else:
                s, k = rng.choice(cands)
                nxt = states[s]["actions"][k]["next"]
                i, j = rng.sample(range(len(nxt)), 2)
                pi, pj = Fraction(nxt[i][0]), Fraction(nxt[j][0])
                d = min(pi, 1 - pj) * Fraction(rng.randint(1, 3), 4)
                nxt[i][0], nxt[j][0] = pq(pi - d), pq(pj + d)
        if how == "reward":
            acts = [(s, k) for s in nonterminal for k in range(len(states[s]["actions"]))]
            s, k = rng.choice(acts)
            a = states[s]["actions"][k]
            P = len(states[next(t for t in range(n) if "payoff" in states[t])]["payoff"])
            old = [Fraction(x) for x in a.get("reward", ["0/1"] * P)]
            old[rng.randrange(P)] += Fraction(rng.randint(1, 5), rng.randint(2, 7))
            a["reward"] = [pq(x) for x in old]
        if how == "payoff":
            s = rng.choice([s for s in range(n) if "payoff" in states[s]])
            pay = states[s]["payoff"]
            i = rng.randrange(len(pay))
            pay[i] = pq(Fraction(pay[i]) + frac_delta(rng))
        rehash(c)
        return kind, c, True
    elif kind == "model_malformed":
        s = rng.choice(nonterminal)
        st = states[s]
        acts = st["actions"]
        k = rng.randrange(len(acts))
        nxt = acts[k]["next"]
        how = rng.choice(["sum", "noncanonical", "zero", "successor", "dup_successor", "payoff_len",
                          "state_key", "action_key", "dup_id", "mover", "chance_two", "float"])
        if how == "sum":
            nxt[0][0] = pq(Fraction(nxt[0][0]) / 2)
        elif how == "noncanonical":
            p = Fraction(nxt[0][0])
            nxt[0][0] = f"{p.numerator * 2}/{p.denominator * 2}"
        elif how == "zero":
            nxt.append(["0/1", nxt[0][1]])
        elif how == "successor":
            nxt[0][1] = rng.choice([n, -1, "0", None])
        elif how == "dup_successor":
            p = Fraction(nxt[0][0])
            nxt[0:1] = [[pq(p / 2), nxt[0][1]], [pq(p / 2), nxt[0][1]]]
        elif how == "payoff_len":
            t = rng.choice([t for t in range(n) if "payoff" in states[t]])
            states[t]["payoff"] = states[t]["payoff"] + ["0/1"]
        elif how == "state_key":
            st["extra"] = 1
        elif how == "action_key":
            acts[k]["probability"] = "1/1"
        elif how == "dup_id":
            states[rng.randrange(n)]["id"] = states[(s + 1) % n]["id"] if n > 1 else 7
        elif how == "mover":
            st["mover"] = rng.choice([len(c["model"]["players"]) if isinstance(c["model"]["players"], list)
                                      else c["model"]["players"], -1, "0", True])
        elif how == "chance_two":
            st["mover"] = None
            if len(acts) == 1:
                acts.append(copy.deepcopy(acts[0]))
        else:
            nxt[0][0] = float(Fraction(nxt[0][0]))
        rehash(c)
    elif kind == "keys":
        where = rng.choice([c, sol, c["answer"], c["model"], rng.choice(states)])
        if rng.random() < 0.5:
            where["unexpected"] = 0
        else:
            # solution.values is optional: without it the certificate is a policy-only one (its own test)
            required = {id(c): checker.TOP_REQUIRED, id(sol): tuple(k for k in checker.SOLUTION_KEYS if k != "values"),
                        id(c["answer"]): checker.ANSWER_KEYS, id(c["model"]): ("format", "version", "players", "states")}
            req = required.get(id(where), ("id",))
            del where[rng.choice(req)]
        if where is not c and where is not sol and where is not c["answer"]:
            rehash(c)
    elif kind == "header":
        how = rng.choice(["format", "version", "kind", "objective", "witness", "components", "model_format",
                          "model_version", "model_objective", "players"])
        if how == "format":
            c["format"] = "exactplay-certificat"
        elif how == "version":
            c["version"] = rng.choice([1, 3, "2", 2.0])
        elif how == "kind":
            c["kind"] = "game"
        elif how == "objective":
            sol["objective"] = rng.choice([o for o in ("max", "zero-sum", "min", "auto") if o != sol["objective"]])
        elif how == "witness":
            sol["witness"] = rng.choice([w for w in ("termination", "reachability", "policy", "ranks")
                                         if w != sol["witness"]])
        elif how == "components":
            sol["components"] = rng.choice([sol["components"][:1] + [9], sol["components"][::-1] + [0],
                                            [1] if sol["components"] != [1] else [0], []])
        elif how == "model_format":
            c["model"]["format"] = "exactplay-modell"
            rehash(c)
        elif how == "model_version":
            c["model"]["version"] = 2
            rehash(c)
        elif how == "model_objective":
            # a different declared objective with a different resolution (screened by the oracle)
            c["model"]["objective"] = rng.choice(["max", "zero-sum", "min", "auto", "maxi"])
            rehash(c)
            return kind, c, True
        else:
            pl = c["model"]["players"]
            c["model"]["players"] = pl + ["extra"] if isinstance(pl, list) else pl + 1
            rehash(c)
    elif kind == "junk":
        paths = [p for p in leaves(c) if not free_text(p)]
        path = rng.choice(paths)
        old = get(c, path)
        options = [j for j in JUNK if not (type(j) is type(old) and j == old)]
        put(c, path, rng.choice(options))
        if path[0] == "model":
            rehash(c)
            return kind, c, True
    else:  # structure
        field = rng.choice(["values", "policy", "ranks", "margins"])
        how = rng.choice(["truncate", "extend", "swap"])
        arr = sol[field]
        if how == "truncate":
            arr.pop()
        elif how == "extend":
            arr.append(copy.deepcopy(arr[-1]))
        else:
            pairs = [(i, j) for i in range(n) for j in range(i + 1, n) if arr[i] != arr[j]]
            if not pairs:
                arr.pop()
            else:
                i, j = rng.choice(pairs)
                arr[i], arr[j] = arr[j], arr[i]
    return kind, c, False


STATE_KINDS = {"value", "policy", "rank", "margin", "ties"}


def _assert_random_mutations_rejected(capsys, count: int) -> None:
    """``count`` seeded random mutations of the stored certificates (the same first ones at every
    count), each rejected naming its field (and its state for a state's entry), in 14 kinds or more."""
    rng = random.Random(20261130)
    bases = certificates()
    names = sorted(bases)
    tested, excluded = Counter(), Counter()
    fields = Counter()
    total = 0
    while sum(tested.values()) < count:
        total += 1
        name = names[total % len(names)]
        kind, c, screen = mutate(rng, bases[name])
        if screen and writer_agrees(c):
            excluded[kind] += 1  # the mutated certificate is a true certificate of the mutated model
            continue
        if json.dumps(c, sort_keys=True) == json.dumps(bases[name], sort_keys=True):
            excluded[kind] += 1
            continue
        try:
            checker.verify(c)
        except VerificationError as exc:
            assert exc.field, f"{name} {kind}: no field named: {exc}"
            if kind in STATE_KINDS:
                assert exc.state is not None, f"{name} {kind}: no state named: {exc}"
            assert "\n" not in str(exc)
            fields[exc.field] += 1
        except Exception as exc:  # a crash is a failure of the checker
            raise AssertionError(f"{name} {kind}: {type(exc).__name__}: {exc}") from exc
        else:
            raise AssertionError(f"{name} {kind}: the mutated certificate verified:\n"
                                 f"{json.dumps(c)[:3000]}")
        tested[kind] += 1
    with capsys.disabled():
        print(f"\nmutations rejected by kind ({sum(tested.values())} in all; excluded as non-semantic: "
              f"{dict(excluded)}):")
        for kind, k in sorted(tested.items()):
            print(f"  {kind:16} {k}")
        print(f"fields named: {dict(fields.most_common())}")
    assert sum(tested.values()) >= count
    assert len(tested) >= 14


def test_random_mutations_are_all_rejected(capsys):
    """600 mutations (the slow twin below runs 1,500, the first 600 of them these)."""
    _assert_random_mutations_rejected(capsys, 600)


@pytest.mark.slow
def test_many_more_random_mutations_are_all_rejected(capsys):
    _assert_random_mutations_rejected(capsys, 1500)


# ---------------------------------------------------------------- random models: engine and checker agree


def random_model(rng: random.Random) -> dict:
    """A small random explicit model: any objective, chance and choices, cycles, rewards, signs."""
    n = rng.randint(2, 8)
    players = rng.randint(1, 3)
    objective = rng.choice(["auto", "auto", "max", "zero-sum", "min"])
    players = {"min": 1, "zero-sum": 2}.get(objective, players)  # the objectives that fit (others are refused)
    movers = {"min": [0], "zero-sum": [0, 1]}.get(objective, list(range(players)))
    movers = [m for m in movers if m < players]
    low = 0 if rng.random() < 0.6 else -2
    terminals = max(1, int(n * rng.uniform(0.2, 0.5)))

    def number(lo, hi):
        return pq(Fraction(rng.randint(lo, hi), rng.randint(1, 3)))

    def dist():
        k = rng.randint(1, min(3, n))
        den = rng.choice([1, 2, 3, 4, 6])
        targets = rng.sample(range(n), min(k, den))
        cuts = sorted(rng.sample(range(1, den), len(targets) - 1))
        parts = [b - a for a, b in zip([0] + cuts, cuts + [den])]
        return [[pq(Fraction(p, den)), t] for p, t in zip(parts, targets)]

    states = []
    for s in range(n):
        if s >= n - terminals:
            states.append({"id": s, "payoff": [number(low, 3) for _ in range(players)]})
            continue
        m = rng.choice(movers + [None])
        acts = []
        for a in range(1 if m is None else rng.randint(1, 3)):
            action = {"next": dist()}
            if m is not None:
                action["name"] = f"a{a}"
            if rng.random() < 0.15:
                action["reward"] = [number(min(low, 0) // 2, 2) for _ in range(players)]
            acts.append(action)
        states.append({"id": s, "mover": m, "actions": acts})
    return {"format": "exactplay-model", "version": 1, "name": "random", "players": players,
            "objective": objective, "states": states}


def test_engine_certificates_of_random_models_verify():
    rng = random.Random(7)
    outcomes = Counter()
    for _ in range(400):
        data = random_model(rng)
        try:
            sol = solve(model_from_json(data))
        except ModelError:
            outcomes["refused by the engine"] += 1
            continue
        except RuntimeError as exc:  # the engine bug below (rewards before a play that never ends)
            assert "internal error: no" in str(exc) and "witness" in str(exc), exc
            outcomes["engine internal error"] += 1
            continue
        c = model_certificate(sol)
        try:
            checker.verify(c)
        except VerificationError as exc:
            raise AssertionError(f"{exc}\n{json.dumps(data)}") from None
        outcomes[sol.witness] += 1
    assert outcomes["termination"] and outcomes["policy"] and outcomes["reachability"], outcomes
    assert sum(outcomes[w] for w in ("termination", "policy", "reachability")) >= 200, outcomes


# A reward collected before a play that can never end (once an engine bug: the value 1 computed, then
# "internal error: no witness", later refused): the play keeps the reward it collected, certified by the
# reward witness, whose ranks lead to terminals and to states of value 0 (rank 0).
REWARD_THEN_FOREVER = {
    "chance": [{"id": "s", "mover": None, "actions": [{"next": [["1/1", "c"]], "reward": ["1/1"]}]},
               {"id": "c", "mover": None, "next": [["1/1", "c"]]},
               {"id": "t", "payoff": ["0/1"]}],
    "choice": [{"id": "s", "mover": None, "actions": [{"next": [["1/1", "c"]], "reward": ["1/1"]}]},
               {"id": "c", "mover": 0, "actions": [act("stay", ("1/1", "c")), act("end", ("1/1", "t"))]},
               {"id": "t", "payoff": ["0/1"]}],
}


@pytest.mark.parametrize("shape", sorted(REWARD_THEN_FOREVER))
def test_a_reward_before_a_play_that_can_go_on_forever_is_kept_and_certified(shape):
    sol = solve(explicit(REWARD_THEN_FOREVER[shape]))
    assert sol.witness == "reward" and sol.value == (1,) and sol.ranks == [1, 0, 0]
    cert = json.loads(json.dumps(model_certificate(sol)))
    assert "reward witness" in checker.verify(cert)
    cert["solution"]["ranks"][0] = None  # no rank at a state of positive value: refused, naming it
    with pytest.raises(VerificationError) as err:
        checker.verify(cert)
    assert (err.value.field, err.value.state) == ("solution.ranks", 0)


def test_margins_compare_one_step_values_everywhere():
    """A lone self-loop reads like the same decision through a longer cycle: Q_a = r_a + sum p V(t)."""
    c = certificates()
    lone, cycle = c["loop_win"]["solution"], c["loop_win_2cycle"]["solution"]
    assert (lone["margins"][0], lone["ties"]) == ("0/1", [[0, [0, 1]]])  # loop: Q = V(s) = 1/2, gamble 1/2
    assert (cycle["margins"][0], cycle["ties"]) == ("0/1", [[0, [0, 1]]])
    assert lone["policy"][0] == cycle["policy"][0] == 1  # the action that makes progress
    # slow 2, roll 6 (one step: 6 - 4 = 2 above the runner-up), quit 3
    assert c["rewards"]["solution"]["margins"][0] == "2/1"
    assert c["rewards"]["solution"]["policy"][0] == 1


HUGE_INT, HUGE_PQ = 10**5000, "7" * 5000 + "/3"


@pytest.mark.parametrize("path, value", [
    (("version",), HUGE_INT), (("solution", "policy", 0), HUGE_INT), (("solution", "ranks", 1), HUGE_INT),
    (("answer", "state"), HUGE_INT), (("answer", "digits"), HUGE_INT), (("model", "states", 0, "mover"), HUGE_INT),
    (("model", "initial"), HUGE_INT), (("solution", "values", 1, 0), HUGE_PQ), (("solution", "margins", 0), HUGE_PQ),
    (("answer", "value"), HUGE_PQ)], ids=lambda v: "10^5000" if v is HUGE_INT else None)
def test_huge_numbers_give_short_messages(path, value):
    c = cert("pig3")
    put(c, path, value)
    if path[0] == "model":
        rehash(c)
    err = rejected(c)
    assert len(str(err)) < 300, str(err)[:500]


def test_objectives_are_compared_per_component_not_over_the_whole_game():
    """Player 0 chooses on a cycle (a self-loop), player 1 only off cycles, every play ends: one value."""
    m = explicit([
        {"id": "a", "mover": 1, "actions": [act("left", ("1/1", "s")), act("right", ("1/1", "t10"))]},
        {"id": "s", "mover": 0, "actions": [act("again", ("1/2", "s"), ("1/2", "t01")), act("stop", ("1/1", "t11"))]},
        {"id": "t10", "payoff": ["1/1", "0/1"]}, {"id": "t01", "payoff": ["0/1", "1/1"]},
        {"id": "t11", "payoff": ["1/2", "1/2"]}], players=2, objective="max")
    sol = solve(m)
    assert sol.witness == "termination" and sol.action_name(1) == "stop" and sol.action_name(0) == "left"
    assert "verified" in checker.verify(model_certificate(sol))
