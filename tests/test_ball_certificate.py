"""Ball certificates of the Race: written, re-verified by the stdlib checker, and tampering is
rejected naming the field and the state."""

from __future__ import annotations

import copy
import json
import subprocess
import sys

import pytest

from exactplay.checker import check_certificate
from exactplay.cli.main import main
from exactplay.errors import VerificationError
from exactplay.games.race.ball_certificate import certify_ball, rows_digest


pytestmark = pytest.mark.xdist_group("test_ball_certificate")  # one worker for this file: its module-scoped fixtures
# are built once per suite, not once in each of the two xdist workers (--dist loadgroup)


@pytest.fixture(scope="module")
def cert():
    return certify_ball(12, 64)


def _resealed(cert, edit):
    c = copy.deepcopy(cert)
    edit(c)
    c["table_sha256"] = rows_digest(c["rows"])
    return c


def test_ball_certificate_verifies(cert):
    summary = check_certificate(copy.deepcopy(cert))
    assert "144 dyadic intervals" in summary and "144 decisions certified" in summary
    assert cert["answer"]["decimal"] is not None


def test_checker_uses_no_ball_library():
    code = ("import sys, exactplay.checker.ball as b; "
            "print(any(m.startswith('flint') for m in sys.modules))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"


def _raise_lower(c):  # the lower end of F(5, 7) moved above the exact value
    row = c["rows"][4 * 12 + 6]
    m, e = row[3]
    row[2] = [m, e]


def _drop_upper(c):  # the upper end of F(3, 3) moved below the exact value
    row = c["rows"][2 * 12 + 2]
    m, e = row[2]
    row[3] = [m, e]


def _claim_certified(c):  # a decision flagged certified with another t
    row = c["rows"][7 * 12 + 3]
    row[4] = 1 if row[4] != 1 else 2


@pytest.mark.parametrize("edit, field, state", [
    (_raise_lower, "F_lower", (5, 7)),
    (_drop_upper, "F_upper", (3, 3)),
    (_claim_certified, "certified", (8, 4)),
])
def test_tampered_interval_is_rejected_naming_field_and_state(cert, edit, field, state):
    bad = _resealed(cert, edit)
    with pytest.raises(VerificationError) as err:
        check_certificate(bad)
    # the tampered cell may also break a later cell; the first failure is the tampered one
    assert err.value.field == field and err.value.state == state, str(err.value)


def test_tampered_rows_without_new_digest_and_answer_are_rejected(cert):
    bad = copy.deepcopy(cert)
    bad["rows"][0][2] = [0, 0]
    with pytest.raises(VerificationError) as err:
        check_certificate(bad)
    assert err.value.field == "table_sha256"
    bad = copy.deepcopy(cert)
    bad["answer"]["decimal"] = "0.12345678"
    with pytest.raises(VerificationError) as err:
        check_certificate(bad)
    assert err.value.field == "answer.decimal"


def test_cli_certify_and_check_a_ball_certificate(tmp_path, capsys):
    out = tmp_path / "race-ball.json"
    assert main(["certify", "race", "--target", "8", "--backend", "ball", "--prec", "64", "-o", str(out), "-q"]) == 0
    assert main(["check", str(out)]) == 0
    assert "64 decisions certified" in capsys.readouterr().out
    data = json.loads(out.read_text())
    data["rows"][10][3] = data["rows"][10][2]  # F(2, 3)'s upper end moved down to its lower end
    data["table_sha256"] = rows_digest(data["rows"])
    out.write_text(json.dumps(data))
    assert main(["check", str(out)]) == 1
    text = "".join(capsys.readouterr())
    assert "field 'F_upper', state (2, 3)" in text


@pytest.mark.parametrize("argv, message", [
    (["solve", "race", "--prec", "64"], "--prec sets the precision"),
    (["solve", "war", "--backend", "ball"], "not war"),
    (["solve", "race", "--target", "2001"], "beyond the exact limit 2000"),
    (["solve", "race", "--backend", "ball", "--prec", "8"], "between 16 and"),
    (["certify", "hold", "--target", "150", "--backend", "ball", "-o", "-"], "target <= 113"),
    (["certify", "--game", "examples/piglet.py:make_game", "--backend", "auto", "-o", "-"], "not auto"),
])
def test_ball_usage_errors_are_one_line(argv, message, capsys):
    assert main(argv + ["-q"]) == 2
    err = capsys.readouterr().err
    assert message in err and len(err.strip().splitlines()) == 1, err
