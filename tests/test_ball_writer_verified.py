"""The ball writer (exactplay.dyadic) produces only certificates its checker accepts, and `certify`
writes none that the checker refuses.

Where plays may go on forever the checker requires a ranking of every ``L > 0`` and ``U < 0``
(checker/ball_model.py); the writer ranks each component's ends and settles an unranked one
again from a start clipped at 0 (dyadic/ranking.py).  The models below are found by a random
search of the writer before that fix (a minimiser's self-loop holding ``U`` below the action that
leaves it; a maximiser's cycle holding ``L`` above it).
"""

from __future__ import annotations

import contextlib
import json
from fractions import Fraction
from unittest import mock

import pytest

from cli_run import run
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_ball_model_forgeries import UNRANKABLE, game_values

from exactplay.checker import check_certificate
from exactplay.dyadic import IntForm, fixpoint
from exactplay.dyadic.certificate import model_ball_certificate
from exactplay.dyadic.fixpoint import NotEnclosed
from exactplay.errors import UsageError
from exactplay.model import ModelError, model_from_json

# seed 81 of a search over tests/test_model_checker.random_model: state 4 is the minimiser's
# "a0: go to 1 (worth -1/2), a1: stay"; from near the centres U_4 stays one step below ceil(U_1),
# kept there by the self-loop alone, at every precision (8 to 24 bits tried).  The search drew two
# players; "min" is for one (issue 22), so the second payoff component, which nothing read, is gone.
SELF_LOOP_HOLDS_U = {
    "format": "exactplay-model", "version": 1, "name": "random", "players": 1, "objective": "min",
    "states": [{"id": 0, "mover": None, "actions": [{"next": [["1/1", 0]]}]},
               {"id": 1, "mover": None, "actions": [{"next": [["1/6", 0], ["1/3", 1], ["1/2", 2]]}]},
               {"id": 2, "mover": None, "actions": [{"next": [["1/2", 3], ["1/2", 5]]}]},
               {"id": 3, "mover": None, "actions": [{"next": [["1/2", 3], ["1/2", 5]]}]},
               {"id": 4, "mover": 0, "actions": [{"next": [["1/1", 1]], "name": "a0"},
                                                 {"next": [["1/1", 4]], "name": "a1"}]},
               {"id": 5, "payoff": ["-2/3"]}, {"id": 6, "payoff": ["1/3"]}]}


def _no_ranking(monkeypatch):
    """The writer as it was: the ends settled from near the centres, never ranked."""
    monkeypatch.setattr(fixpoint.Rankings, "rank", lambda self, comp, X, d: [])


def test_a_self_loop_holding_the_upper_end_is_settled_again_and_verifies(monkeypatch):
    model = model_from_json(SELF_LOOP_HOLDS_U)
    cert, run_ = model_ball_certificate(model, 16)
    assert run_.enclosure.reranked >= 1
    assert "ranking verified" in check_certificate(cert)
    V = game_values(model, IntForm(model))
    assert V[4] == Fraction(-1, 2)  # the minimiser leaves: the play from 1 ends in -2/3 with probability 3/4
    assert run_.enclosure.lower[4] <= V[4] * (1 << 16) <= run_.enclosure.upper[4]


@st.composite
def endless_models(draw):
    """Small explicit models with cycles: one maximiser, one minimiser or two players zero-sum,
    chance, payoffs of both signs, choosers that may stay where they are; most have plays that
    never end."""
    n = draw(st.integers(2, 7))
    terminals = draw(st.integers(1, max(1, n // 2)))
    objective = draw(st.sampled_from(["max", "min", "zero-sum"]))
    movers = [0, 1] if objective == "zero-sum" else [0]
    states = []
    for s in range(n):
        if s >= n - terminals:
            x = Fraction(draw(st.integers(-3, 3)), draw(st.integers(1, 3)))
            payoff = [str(x), str(-x)] if objective == "zero-sum" else [str(x)]
            states.append({"id": s, "payoff": payoff})
            continue
        mover = draw(st.sampled_from(movers + [None]))
        acts = []
        for a in range(1 if mover is None else draw(st.integers(1, 3))):
            den = draw(st.sampled_from([1, 2, 3, 4, 6]))
            targets = draw(st.lists(st.integers(0, n - 1), min_size=1, max_size=min(3, den), unique=True))
            cuts = sorted(draw(st.lists(st.integers(1, den - 1), min_size=len(targets) - 1,
                                        max_size=len(targets) - 1, unique=True))) if den > 1 else []
            parts = [b - a_ for a_, b in zip([0] + cuts, cuts + [den])]
            action = {"next": [[f"{p}/{den}", t] for p, t in zip(parts, targets)]}
            if mover is not None:
                action["name"] = f"a{a}"
            acts.append(action)
        if mover is not None and draw(st.booleans()):  # "stay": where the traps the ranking refuses live
            acts.append({"next": [["1/1", s]], "name": "stay"})
        states.append({"id": s, "mover": mover, "actions": acts})
    return {"format": "exactplay-model", "version": 1, "name": "random", "players": len(movers),
            "objective": objective, "states": states}


def _clipped_always():
    """The writer with every cyclic component settled from the clipped start (the fallback, which
    near the centres is taken for about 1 model in 250 of this strategy): its first ranking of a
    cyclic component reports an unranked state; every later ranking is the real one."""
    real = fixpoint.Rankings.rank
    seen = set()

    def rank(self, comp, X, d):
        key = (comp[0], d)
        if key in seen or (len(comp) == 1 and comp[0] not in self.form.succ[comp[0]]):
            return real(self, comp, X, d)
        seen.add(key)
        real(self, comp, X, d)
        return [comp[0]]

    return mock.patch.object(fixpoint.Rankings, "rank", rank)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.filter_too_much])
@given(data=endless_models(), k=st.sampled_from([8, 9, 10, 12, 16]), clipped=st.booleans())
def test_every_certificate_the_writer_produces_verifies_where_plays_may_go_on_forever(data, k, clipped):
    with _clipped_always() if clipped else contextlib.nullcontext():
        try:
            model = model_from_json(data)
            form = IntForm(model)
            cert, run_ = model_ball_certificate(model, k)
        except (ModelError, UsageError, NotEnclosed):
            return  # refused in one line, nothing written (not a certificate)
    if clipped and not form.terminates:  # both ends of every cyclic component from the clipped start
        assert run_.enclosure.reranked == 2 * run_.enclosure.cyclic
    assert json.loads(json.dumps(cert)) == cert  # what certify verifies is what the file holds
    check_certificate(cert)  # raises VerificationError if refused
    V = game_values(model, form)  # brute force over pure stationary profiles (None when too many)
    if V is not None:
        one = 1 << k
        E = run_.enclosure
        assert all(Fraction(E.lower[s], one) <= V[s] <= Fraction(E.upper[s], one) for s in range(len(model)))


@pytest.mark.slow
@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.filter_too_much])
@given(data=endless_models(), k=st.sampled_from([8, 9, 10, 12, 16]), clipped=st.booleans())
def test_every_certificate_the_writer_produces_verifies_where_plays_may_go_on_forever_many_examples(data, k, clipped):
    """The same property on 150 examples (60 in the default suite since 2026-12-04)."""
    test_every_certificate_the_writer_produces_verifies_where_plays_may_go_on_forever.hypothesis.inner_test(data=data, k=k, clipped=clipped)


def test_endless_models_mostly_have_plays_that_never_end():
    """The strategy above is not vacuous: of the models it draws that the writer takes, most have
    plays that may go on forever (the case the ranking is for; about 3 in 4 over 3,000 draws)."""
    seen = {"forever": 0, "ends": 0}

    @settings(max_examples=80, deadline=None, database=None, derandomize=True)
    @given(data=endless_models())
    def count(data):
        try:
            form = IntForm(model_from_json(data))
        except (ModelError, UsageError):
            return
        seen["ends" if form.terminates else "forever"] += 1

    count()
    assert seen["forever"] >= 30 and seen["forever"] > seen["ends"], seen


# ------------------------------------------------------------------ certify: the last line of defence


def test_certify_writes_nothing_and_exits_1_when_the_checker_refuses_the_certificate(capsys, tmp_path,
                                                                                   monkeypatch):
    model = tmp_path / "m.json"
    model.write_text(json.dumps(SELF_LOOP_HOLDS_U))
    out_file = tmp_path / "m-ball.json"
    status, out, err = run(capsys, "certify", "--model", model, "--backend", "ball", "--prec", "16", "-o", out_file)
    assert status == 0 and out.startswith(f"wrote {out_file}") and "ranking verified" in check_certificate(
        json.loads(out_file.read_text()))
    out_file.unlink()
    _no_ranking(monkeypatch)  # the old writer: its certificate of this model is refused (field feedback.upper)
    for name in ("m-ball.json", "m-ball.json.gz"):
        status, out, err = run(capsys, "certify", "--model", model, "--backend", "ball", "--prec", "16", "-o",
                               tmp_path / name)
        assert status == 1 and out == "" and len(err.strip().splitlines()) == 1, (out, err)
        assert "not written: the checker refuses" in err and "feedback.upper" in err and "Traceback" not in err
    assert sorted(p.name for p in tmp_path.iterdir()) == ["m.json"]  # no file, no temporary file


def test_certify_hold_with_ball_is_verified_before_it_is_written(capsys, tmp_path, monkeypatch):
    from exactplay.dyadic import builtin

    real = builtin.game_ball_certificate

    def forged(*args, **kwargs):
        cert, run_ = real(*args, **kwargs)
        cert["feedback"]["lower"][0] += 1
        return cert, run_

    monkeypatch.setattr(builtin, "game_ball_certificate", forged)
    out_file = tmp_path / "hold.json"
    status, out, err = run(capsys, "certify", "hold", "--target", "4", "--faces", "6", "--backend", "ball",
                           "--prec", "32", "-o", out_file)
    assert status == 1 and out == "" and len(err.strip().splitlines()) == 1, (out, err)
    assert "not written: the checker refuses" in err and "feedback.lower" in err
    assert list(tmp_path.iterdir()) == []



def test_certify_race_with_ball_is_verified_before_it_is_written(capsys, tmp_path, monkeypatch):
    from exactplay.games.race import ball_certificate

    real = ball_certificate.certify_ball

    def forged(*args, **kwargs):
        cert = real(*args, **kwargs)
        cert["decisions"]["certified"] += 1  # a count the rows do not bear out
        return cert

    monkeypatch.setattr(ball_certificate, "certify_ball", forged)
    out_file = tmp_path / "race.json"
    status, out, err = run(capsys, "certify", "race", "--target", "6", "--backend", "ball", "--prec", "64",
                           "-o", out_file)
    assert status == 1 and out == "" and len(err.strip().splitlines()) == 1, (out, err)
    assert "not written: the checker refuses" in err and "race.ball_certificate" in err
    assert list(tmp_path.iterdir()) == []


# ------------------------------------------------------------------ check: what it prints


def test_check_prints_the_certified_enclosure_when_the_decimal_is_not_certified(capsys, tmp_path):
    model = tmp_path / "m.json"
    model.write_text(json.dumps(UNRANKABLE))
    cert = tmp_path / "m-ball.json"
    status, out, err = run(capsys, "certify", "--model", model, "--backend", "ball", "--prec", "16", "-o", cert)
    assert status == 0 and "not certified to 8 decimals" in out, err
    data = json.loads(cert.read_text())
    lo, hi = (Fraction(data["answer"][e][0], 1 << 16) for e in ("lower", "upper"))
    assert data["answer"]["decimal"] is None and lo <= Fraction(7, 9) <= hi
    status, out, err = run(capsys, "check", cert)
    assert status == 0, err
    line = out.splitlines()[1]
    assert "None" not in line
    assert line.endswith("value of 0 to player 0 in [0.777770996093, 0.777786254883] (the certified enclosure; "
                         "its decimal is not certified)")
    a, b = (Fraction(x) for x in line.split("in [")[1].split("]")[0].split(", "))
    assert a <= lo and hi <= b and b - a <= hi - lo + Fraction(2, 10**12)  # rounded outward, by one unit at most


def test_check_exits_1_for_a_file_that_is_not_a_certificate(capsys, tmp_path):
    """docs/certificates.md: exit 1 for a file that is not a certificate (not JSON, too large) as for one that does
    not verify; exit 2 is for usage errors only."""
    digits = tmp_path / "digits.json"
    digits.write_text('{"format": "exactplay-certificate", "version": ' + "9" * 700 + "}")
    status, _, err = run(capsys, "check", digits)
    assert status == 1 and "640 digits" in err and err.strip().splitlines()[-1] == "1 of 1 certificate(s) failed"
    status, _, err = run(capsys, "check", tmp_path / "no-such.json")
    assert status == 2 and len(err.strip().splitlines()) == 1
