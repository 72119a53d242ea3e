"""``check --expect`` on the certificate of a user's own game (issue 22 item 12): the factory's
parameters, as the certificate records them, with one clear line for an unknown key, a value that
does not parse and a mismatch."""

import contextlib
import copy
import io
import json
from pathlib import Path

import pytest

from cli_run import run, strict
from exactplay.checker import verify_certificate
from exactplay.cli.main import main
from exactplay.errors import VerificationError

ROOT = Path(__file__).resolve().parent.parent
PIG = str(ROOT / "examples" / "pig.py") + ":make_game"
PIG_LOADED = str(ROOT / "examples" / "pig_loaded.py") + ":make_game"
LOOP = str(ROOT / "examples" / "loop-or-gamble.json")

COIN = '''
from fractions import Fraction

class Coin:  # one toss of a coin heads with probability p; heads pays 1 (nothing if not fair)
    def __init__(self, p, fair, label):
        self.p, self.fair, self.name = Fraction(p), fair, label
    def initial_state(self): return "toss"
    def is_terminal(self, s): return s != "toss"
    def payoff(self, s): return [1 if s == "heads" and self.fair else 0]
    def mover(self, s): return None
    def actions(self, s): return ["toss"]
    def transitions(self, s, a): return [(self.p, "heads"), (1 - self.p, "tails")]

def make_game(p=Fraction(1, 2), fair=True, label="coin"):
    return Coin(p, fair, label)
'''


pytestmark = pytest.mark.xdist_group("test_check_expect_models")  # one worker for this file: its module-scoped fixtures
# are built once per suite, not once in each of the two xdist workers (--dist loadgroup)


@pytest.fixture(scope="module")
def certs(tmp_path_factory):
    """Certificates of a factory with an integer, a fraction, a boolean and a text parameter."""
    d = tmp_path_factory.mktemp("expect")
    coin = d / "coin.py"
    coin.write_text(COIN)
    out = {}
    for name, argv in {
        "pig": ["certify", "--game", PIG, "--param", "goal=4", "--param", "faces=6"],
        "coin": ["certify", "--game", f"{coin}:make_game", "--param", "p=1/4", "--param", "fair=true",
                 "--param", "label=bent"],
        "ball": ["certify", "--game", PIG, "--param", "goal=4", "--backend", "ball"],
        "parametric": ["certify", "--game", PIG_LOADED, "--param", "goal=3", "--param-symbol", "p"],
        "file": ["certify", "--model", LOOP],
    }.items():
        path = d / f"{name}.json"
        with contextlib.redirect_stdout(io.StringIO()):
            assert main([*argv, "-o", str(path), "-q"]) == 0
        out[name] = path
    return out


@pytest.mark.parametrize("name, expect", [
    ("pig", ["goal=4", "faces=6"]), ("pig", ["goal=4/1"]), ("coin", ["p=0.25", "fair=true", "label=bent"]),
    ("coin", ["fair=TRUE"]), ("ball", ["goal=4"]), ("parametric", ["goal=3"]),
])
def test_check_expect_takes_the_factorys_own_parameters(capsys, certs, name, expect):
    argv = ["check", certs[name]] + [w for e in expect for w in ("--expect", e)]
    status, out, err = run(capsys, *argv)
    assert status == 0, err


def test_the_certificate_records_the_factorys_parameters_and_check_prints_them(capsys, certs):
    assert strict(certs["coin"].read_text())["params"] == {"p": "1/4", "fair": True, "label": "bent"}
    assert strict(certs["file"].read_text())["params"] == {}
    status, out, _ = run(capsys, "check", certs["pig"])
    assert status == 0 and "Pig to 4 goal=4 faces=6:" in out
    assert "informational fields not re-verified: notes, params, tool_version" in out


@pytest.mark.parametrize("name, expect, line", [
    ("pig", "target=abc", "expected parameter target=abc, but the certificate has no parameter 'target' "
                          "(it has: goal, faces)"),
    ("pig", "goal=abc", "expected parameter goal=abc, found goal=4: 'abc' is not an exact number"),
    ("pig", "goal=5", "expected parameter goal=5, found goal=4 (field 'params.goal')"),
    ("coin", "p=1/3", "expected parameter p=1/3, found p=1/4"),
    ("coin", "fair=yes", "expected parameter fair=yes, found fair=true: 'yes' is not true or false"),
    ("coin", "fair=false", "expected parameter fair=false, found fair=true"),
    ("coin", "label=fair", "expected parameter label=fair, found label=bent"),
    ("ball", "goal=5", "expected parameter goal=5, found goal=4"),
    ("parametric", "p=1/2", "has no parameter 'p' (it has: goal)"),
    ("file", "goal=4", "has no parameter 'goal' (it has: none)"),
])
def test_check_expect_fails_in_one_line_naming_the_key_expected_and_found(capsys, certs, name, expect, line):
    status, out, err = run(capsys, "check", certs[name], "--expect", expect)
    fail, summary = err.strip().splitlines()
    assert status == 1 and line in fail and summary == "1 of 1 certificate(s) failed", err
    assert "not an object" not in fail


def test_a_certificate_written_before_parameters_were_recorded_says_so(capsys, certs, tmp_path):
    cert = strict(certs["pig"].read_text())
    del cert["params"]
    old = tmp_path / "old.json"
    old.write_text(json.dumps(cert))
    status, _, err = run(capsys, "check", old, "--expect", "goal=4")
    assert status == 1 and "the certificate records no parameters" in err and "certify it again" in err


@pytest.mark.parametrize("params, words", [
    ({"goal": 4.0}, "found 4.0"), ({"goal": [4]}, "found [4]"), ({"goal": None}, "found None"),
    ({"two words": 4}, "is not a Python identifier"), ("goal=4", "expected an object"),
    ({"goal": "x" * 1001}, "more than 1000"), ({"goal": 10 ** 2000}, "longer than 1000 digits"),
])
def test_the_checker_refuses_recorded_parameters_of_the_wrong_form(certs, params, words):
    for name in ("pig", "ball", "parametric"):
        cert = copy.deepcopy(strict(certs[name].read_text()))
        cert["params"] = params
        with pytest.raises(VerificationError) as exc:
            verify_certificate(cert)
        assert words in str(exc.value) and "params" in str(exc.value), (name, str(exc.value))
