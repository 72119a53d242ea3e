"""``--backend ball|auto`` without ``--prec`` runs the fastest method that certifies, then the next
(measured by benchmarks/ball_default.py); ``--help`` says what runs and why."""

from __future__ import annotations

import pytest

from exactplay.games import get_game
from exactplay.numbers.backends import get_backend
from cli_run import run, strict


def _solve(capsys, *extra):
    status, out, err = run(capsys, "solve", "race", "--target", "30", "-q", "--json", *extra)
    assert status == 0, err
    return strict(out)


def test_solve_race_ball_without_prec_runs_the_float64_intervals(capsys):
    data = _solve(capsys, "--backend", "ball")
    assert data["prec_bits"] == 53 and data["backend"] == "ball"
    assert data["default_method"]["ran"] == "float64 intervals (--prec 53)"
    assert data["decisions"]["certified"] == data["decisions"]["total"] == 900
    assert data["answer"]["decimal"] == "0.76315297"
    status, out, _ = run(capsys, "solve", "race", "--target", "30", "--backend", "ball", "-q")
    assert "[ball: 53-bit float64 intervals]" in out and "the fastest method that certifies" in out


def test_auto_without_prec_also_runs_the_intervals_when_they_certify_every_decision(capsys):
    data = _solve(capsys, "--backend", "auto")
    assert data["prec_bits"] == 53 and data["backend"] == "auto" and data["decisions"]["unresolved"] == 0


def test_when_the_intervals_leave_the_decimals_uncertain_arb_balls_take_over(capsys):
    from exactplay.numbers.decimals import decimal_digits
    from exactplay.games.race import solve_table

    data = _solve(capsys, "--backend", "ball", "--digits", "16")  # the intervals' width is ~9e-15 at 30
    exact = decimal_digits(solve_table(30, "mpq").answer, 16)
    assert data["prec_bits"] >= 128 and data["answer"]["decimal"] == exact
    first, then = data["default_method"]["tried"]
    assert first["method"] == "float64 intervals (--prec 53)" and first["certified"] is False
    assert "certifies 13 of the 16 decimals" in first["reason"] and then["certified"] is True
    assert data["default_method"]["ran"] == "arb balls (128 bits)"


def test_auto_falls_back_to_its_arb_chain_when_the_intervals_leave_a_decision_open(capsys, monkeypatch):
    from exactplay.games.race import interval

    real = interval.interval_run

    def one_open(*a, **k):
        r = real(*a, **k)
        r.certified -= 1  # as if one cell were unresolved at 53 bits
        return r

    monkeypatch.setattr(interval, "interval_run", one_open)
    data = _solve(capsys, "--backend", "auto")
    first = data["default_method"]["tried"][0]
    assert first["certified"] is False and first["reason"] == "1 decisions unresolved at 53 bits"
    assert data["prec_bits"] > 53 and data["decisions"]["unresolved"] == 0  # arb rounds raised the precision
    data = _solve(capsys, "--backend", "ball")  # ball: the decimals are certified, the open cell is reported
    assert data["prec_bits"] == 53 and data["decisions"]["unresolved"] == 1


@pytest.mark.parametrize("prec,bits,method", [("128", 128, None), ("53", 53, None), ("64", 64, None)])
def test_an_explicit_prec_runs_that_method_alone(capsys, prec, bits, method):
    data = _solve(capsys, "--backend", "ball", "--prec", prec)
    assert data["prec_bits"] == bits and "default_method" not in data


def test_the_python_api_default_is_the_cli_default():
    r = get_game("race").solve(target=10, backend="ball")
    assert r.prec == 53 and get_backend("ball").prec_default and not get_backend("ball", 128).prec_default


def test_the_help_says_what_runs_without_prec_and_why(capsys):
    status, out, _ = run(capsys, "solve", "race", "--help")
    text = " ".join(out.split())
    assert status == 0 and "Without it the fastest method that certifies runs: float64 intervals" in text
    assert "benchmarks/ball_default.py" in text
    status, out, _ = run(capsys, "audit", "race", "--help")
    assert "Default 128: audit runs arb balls" in " ".join(out.split())


def test_the_heavy_note_of_a_default_ball_solve_estimates_the_intervals():
    race = get_game("race")
    note = race.heavy("solve", {"target": 10000, "backend": "ball", "prec": None})
    assert "float64 intervals" in note
    assert "float64 intervals" not in (race.heavy("solve", {"target": 10000, "backend": "ball", "prec": 128}) or "")


def test_hold_and_model_help_say_128_bits_run_and_why(capsys):
    for argv in (["solve", "hold", "--help"], ["certify", "hold", "--help"],
                 ["solve", "--model", "x.json", "--help"]):
        status, out, _ = run(capsys, *argv)
        text = " ".join(out.split())
        assert status == 0 and "Without it:" in text and "cost the same" in text, argv
    status, out, _ = run(capsys, "certify", "hold", "--help")
    assert "the grid 2^-128 of the ball certificate" in " ".join(out.split())
