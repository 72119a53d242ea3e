"""Continuous-time DRN files (CTMC, Markov automaton) are solved through their embedded discrete-time model:
a CTMC's rates over their sum, a state reward (a rate) times the mean sojourn ``1 / E``, a probabilistic
state of a Markov automaton taking no time; ``Tmin``/``Tmax`` the expected time.  Hand-derived values,
random models against the discrete model written with the embedded numbers and against Storm, the
refusals (one line each), and a certificate that verifies."""

from __future__ import annotations

import json
import random
from fractions import Fraction as Q

import pytest

from exactplay.cli.main import main
from exactplay.engine import solve_model
from exactplay.interop.drn import drn_to_model, parse_drn
from exactplay.interop.storm import storm_check_drn
from exactplay.model import ModelError

# rate 2 up a ladder 0 -> 1 -> 2 -> 3 (done), rate 1/2 back to 0; a state reward "time" 1 everywhere but at done,
# an impulse "tr" 3 on leaving state 1
CTMC = """@type: CTMC
@value_type: rational
@parameters

@reward_models
tr time
@nr_states
4
@nr_choices
4
@model
state 0 !5/2 [0, 1] init
\taction 0 [0, 0]
\t\t0 : 1/2
\t\t1 : 2
state 1 !5/2 [0, 1]
\taction 0 [3, 0]
\t\t0 : 1/2
\t\t2 : 2
state 2 !5/2 [0, 1]
\taction 0 [0, 0]
\t\t0 : 1/2
\t\t3 : 2
state 3 !1 [0, 0] done
\taction 0 [0, 0]
\t\t3 : 1
"""

# Markovian 0 (rate 5: to 1 with 2/5, to 2 with 3/5) and 2 (rate 2: back to 0 or done); 1 is probabilistic:
# a (impulse 5) to 0 or done, or b to 2
MA = """@type: Markov Automaton
@value_type: rational
@parameters

@reward_models
im time
@nr_states
4
@nr_choices
5
@model
state 0 !5 [0, 1] init
\taction __NOLABEL__ [0, 0]
\t\t1 : 2/5
\t\t2 : 3/5
state 1 !0 [0, 1]
\taction a [5, 0]
\t\t0 : 1/2
\t\t3 : 1/2
\taction b [0, 0]
\t\t2 : 1
state 2 !2 [0, 1]
\taction __NOLABEL__ [0, 0]
\t\t0 : 1/2
\t\t3 : 1/2
state 3 !1 [0, 0] deadlock done
\taction __NOLABEL__ [0, 0]
\t\t3 : 1
"""


def values(text: str, objective: str, target: str = "done", reward: str | None = None) -> list:
    """Every DRN state's exact value (``None``: infinite), in the file's numbering."""
    model, order = drn_to_model(parse_drn(text, "m.drn"), objective, target, reward=reward)
    sol = solve_model(model)
    out = [None] * len(order)
    for k, d in enumerate(order):
        out[d] = None if sol.values[k] is None else Q(sol.values[k][0])
    return out


def test_a_ctmc_takes_its_embedded_chain_and_earns_a_rate_reward_over_the_mean_sojourn():
    # each state of 0..2 is left at E = 5/2 after 2/5 on average, back to 0 with 1/5, up with 4/5:
    # T2 = 2/5 + T0/5, T1 = 2/5 + T0/5 + 4/5 T2, T0 = 2/5 + T0/5 + 4/5 T1  ->  T0 = 61/32, T1 = 45/32, T2 = 25/32
    assert values(CTMC, "Tmin") == [Q(61, 32), Q(45, 32), Q(25, 32), 0] == values(CTMC, "Tmax")
    assert values(CTMC, "Rmin", reward="time") == values(CTMC, "Tmin")  # the reward rate 1 is the time
    # the impulse 3 on each departure from 1: R0 = R0/5 + 4/5 R1, R1 = 3 + R0/5 + 4/5 R2, R2 = R0/5
    assert values(CTMC, "Rmin", reward="tr") == [Q(75, 16), Q(75, 16), Q(15, 16), 0]
    assert values(CTMC, "Pmin") == [1, 1, 1, 1]
    d = parse_drn(CTMC)
    assert d.type == "CTMC" and d.sojourn == [Q(2, 5)] * 3 + [1] and d.probs[d.pk[0]] == Q(1, 5)


def test_a_markov_automaton_s_probabilistic_states_take_no_time_and_its_choices_are_an_mdp_s():
    # T0 = 1/5 + 2/5 T1 + 3/5 T2, T2 = 1/2 + T0/2, T1 = min or max of (T0/2 by a, T2 by b)
    assert values(MA, "Tmin") == [1, Q(1, 2), 1, 0]  # a at 1
    assert values(MA, "Tmax") == [Q(7, 5), Q(6, 5), Q(6, 5), 0]  # b at 1
    assert values(MA, "Rmin", reward="time") == values(MA, "Tmin")  # the rate 1 at 1 earns nothing there
    # the impulse 5 of a: R1 = 5 + R0/2, R0 = 2/5 R1 + 3/5 R0/2  ->  R0 = 4, R1 = 7
    assert values(MA, "Rmax", reward="im") == [4, 7, 2, 0]
    assert parse_drn(MA).sojourn == [Q(1, 5), 0, Q(1, 2), 1]


def random_continuous(rng: random.Random, mtype: str) -> tuple[str, list, list, list]:
    """A random CTMC or MA in Storm's layout, and its embedded numbers computed here: per state the choices
    ``[(successor, probability), ...]``, the reward a visit earns (a reward rate over E, 0 where no time
    passes) and the mean sojourn."""
    n = rng.randint(2, 7)
    lines, choices, embedded, per_visit, sojourn = [], 0, [], [], []
    for d in range(n):
        markovian = mtype == "CTMC" or rng.random() < 0.6
        done = d == n - 1
        acts = 1 if markovian or done else rng.randint(1, 3)
        rho = Q(rng.choice([0, 1, Q(2, 3)]))
        rows = []
        for _ in range(acts):
            ts = [d] if done else rng.sample(range(n), rng.randint(1, min(3, n)))
            ws = [Q(rng.choice([1, 2, Q(1, 3), 5])) for _ in ts]
            rows.append((ts, ws, rng.choice([0, 0, 4])))
        rate = sum(rows[0][1]) if markovian else 0
        label = " done" if done else ""
        lines.append(f"state {d} !{rate} [{rho}, {rows[0][2]}]{' init' if d == 0 else ''}{label}")
        ch = []
        for i, (ts, ws, imp) in enumerate(rows):
            lines.append(f"\taction c{i} [0, {imp}]")
            choices += 1
            total = sum(ws)
            # a CTMC's numbers are the rates; a MA's Markovian state (as every choice of it) probabilities
            for t, w in zip(ts, ws):
                lines.append(f"\t\t{t} : {w if mtype == 'CTMC' else w / total}")
            ch.append(([(t, w / total) for t, w in zip(ts, ws)], imp))
        embedded.append(ch)
        per_visit.append(rho / rate if markovian else 0)
        sojourn.append(1 / rate if markovian else 0)
    head = (f"@type: {'Markov Automaton' if mtype == 'MA' else mtype}\n@value_type: rational\n@parameters\n\n@reward_models\nrho imp\n@nr_states\n{n}\n"
            f"@nr_choices\n{choices}\n@model\n")
    return head + "\n".join(lines) + "\n", embedded, per_visit, sojourn


def discrete(mtype: str, embedded, reward) -> str:
    """The DTMC or MDP with the embedded probabilities and one reward model, ``reward[d] + impulse`` a visit."""
    lines, choices = [], 0
    for d, ch in enumerate(embedded):
        lines.append(f"state {d} [{reward[d]}]{' init' if d == 0 else ''}{' done' if d == len(embedded) - 1 else ''}")
        for i, (row, imp) in enumerate(ch):
            lines.append(f"\taction c{i} [{imp}]")
            choices += 1
            lines += [f"\t\t{t} : {p}" for t, p in row]
    kind = "DTMC" if mtype == "CTMC" else "MDP"
    return (f"@type: {kind}\n@value_type: rational\n@parameters\n\n@reward_models\nr\n@nr_states\n{len(embedded)}\n"
            f"@nr_choices\n{choices}\n@model\n" + "\n".join(lines) + "\n")


@pytest.mark.parametrize("seed", range(60))
def test_a_random_continuous_model_has_the_values_of_its_embedded_model_written_out(seed):
    rng = random.Random(seed)
    mtype = "CTMC" if seed % 2 else "MA"
    text, embedded, per_visit, sojourn = random_continuous(rng, mtype)
    for obj in ("min", "max"):
        assert values(text, "P" + obj) == values(discrete(mtype, embedded, per_visit), "P" + obj)
        assert values(text, "T" + obj) == values(discrete(mtype, [[(r, 0) for r, _ in ch] for ch in embedded],
                                                          sojourn), "R" + obj)
        assert values(text, "R" + obj, reward="rho") == values(
            discrete(mtype, [[(r, 0) for r, _ in ch] for ch in embedded], per_visit), "R" + obj)


@pytest.mark.parametrize("seed", range(12))
def test_storm_gives_the_same_value_in_every_state_of_a_random_ctmc_and_markov_automaton(seed, tmp_path):
    rng = random.Random(1000 + seed)
    mtype = "CTMC" if seed % 2 else "MA"
    text, *_ = random_continuous(rng, mtype)
    path = tmp_path / "m.drn"
    path.write_text(text)
    for objective, formula in [("Pmax", 'Pmax=? [F "done"]'), ("Tmin", 'Tmin=? [F "done"]'),
                               ("Tmax", 'Tmax=? [F "done"]'), ("Rmin", 'R{"imp"}min=? [F "done"]')]:
        storm = storm_check_drn(str(path), formula)[0]
        assert values(text, objective, reward="imp" if objective[0] == "R" else None) == storm, (objective, text)


def test_a_certificate_of_a_markov_automaton_verifies(tmp_path, capsys):
    (tmp_path / "m.drn").write_text(MA)
    out = tmp_path / "m.json"
    assert main(["certify", "--model", str(tmp_path / "m.drn"), "--objective", "Tmax", "--target", "done",
                 "-o", str(out)]) == 0
    assert json.loads(out.read_text())["answer"]["value"] == "7/5"
    assert main(["check", str(out)]) == 0
    assert "1 of 1 certificate(s) verified" in capsys.readouterr().out


@pytest.mark.parametrize("change, message", [
    (("!5/2 [0, 1] init", "!3 [0, 1] init"), "m.drn:12: state 0: exit rate 3, but its rates sum to 5/2"),
    (("0 : 1/2\n\t\t1 : 2", "0 : -1/2\n\t\t1 : 2"), "m.drn:14: rate -1/2 is negative"),
    (("!5/2 [0, 1] init", "!-1 [0, 1] init"), "m.drn:12: state 0: exit rate -1 is negative"),
    (("!5/2 [0, 1] init", "!x [0, 1] init"), "m.drn:12: state 0: exit rate 'x' is not an exact rational p/q"),
    (("@type: CTMC", "@type: MA"), "m.drn:1: model type 'MA': exactplay reads DTMC, MDP, CTMC and Markov Automaton"),
])
def test_a_defective_continuous_time_file_is_refused_in_one_line_at_its_line(change, message):
    with pytest.raises(ModelError) as err:
        parse_drn(CTMC.replace(*change), "m.drn")
    assert str(err.value).startswith(message) and "\n" not in str(err.value)


HEAD = "@type: {}\n@value_type: rational\n@parameters\n\n@reward_models\n\n@nr_states\n2\n@model\n"


HYBRID = (HEAD.replace("@nr_states\n2", "@nr_states\n4").format("Markov Automaton")
          + "state 0 !1 init\n\taction __NOLABEL__\n\t\t3 : 1\n\taction go\n\t\t1 : 1\n"  # Markovian first, then go
          + "state 1 !1/2\n\taction __NOLABEL__\n\t\t2 : 1\nstate 2 !1 done\n\taction __NOLABEL__\n\t\t2 : 1\n"
          + "state 3 !1\n\taction __NOLABEL__\n\t\t2 : 1\n")


def test_a_hybrid_state_leaves_by_its_probabilistic_choice_at_once_as_storm_closes_it(tmp_path, capsys):
    # maximal progress: no time passes at 0 while go is enabled: 0 -> 1 at once, then 2 time units on average (the
    # Markovian choice to 3, 1 + 1 time units, is never taken; Storm drops 3, no longer reachable)
    assert values(HYBRID, "Tmin") == [2, 2, 0, 1] == values(HYBRID, "Tmax")
    assert parse_drn(HYBRID).first == [0, 1, 2, 3, 4] and parse_drn(HYBRID).sojourn == [0, 2, 1, 1]
    (tmp_path / "h.drn").write_text(HYBRID)
    assert main(["crosscheck", "--model", str(tmp_path / "h.drn"), "--objective", "Tmin", "--target", "done"]) == 0
    out = capsys.readouterr().out
    assert "initial states only (Storm closed the automaton to 3 states, the file has 4)" in out
    assert "1/1 states equal exactly" in out and "verdict: agree" in out


def test_a_discrete_file_has_no_exit_rate():
    timed = HEAD.format("MDP") + "state 0 init\n\taction m\n\t\t1 : 1\nstate 1 !1\n\taction m\n\t\t1 : 1\n"
    with pytest.raises(ModelError, match=r"^m.drn:13: state 1: an exit rate \(!\) in a MDP, which is a discrete"):
        parse_drn(timed, "m.drn")


def test_expected_time_in_a_discrete_file_counts_steps_and_takes_no_reward_model():
    dtmc = CTMC.replace("@type: CTMC", "@type: DTMC").replace(" !5/2", "").replace(" !1", "").replace(
        "\t\t0 : 1/2\n", "\t\t0 : 1/5\n").replace(" : 2\n", " : 4/5\n")  # the embedded chain, written out
    # a step each: S2 = 1 + S0/5, S1 = 1 + S0/5 + 4/5 S2, S0 = 1 + S0/5 + 4/5 S1 (the CTMC's times over 2/5)
    assert values(dtmc, "Tmin") == [Q(61, 32) * Q(5, 2), Q(45, 32) * Q(5, 2), Q(25, 32) * Q(5, 2), 0]
    with pytest.raises(ModelError, match="--reward is for the objectives Rmin and Rmax"):
        values(CTMC, "Tmin", reward="time")
