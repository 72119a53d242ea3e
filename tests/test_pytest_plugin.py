"""The pytest plugin: ``pytest --exactplay-check DIR`` makes every certificate under DIR a test item
(good and tampered certificates in a directory made here, run by pytester in-process)."""

import importlib
import json
import tomllib
from pathlib import Path

import pytest

import exactplay as xp

pytest_plugins = ["pytester"]

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture
def certs(tmp_path_factory):
    """``certs/race-2.json`` (good), ``certs/tampered.json`` (a value changed: fails at state 3),
    ``certs/models/loop.json`` (good)."""
    d = tmp_path_factory.mktemp("certs")
    good = xp.certify("race", d / "race-2.json", target=2)
    cert = json.loads(good.read_text())
    cert["solution"]["values"][3] = ["1/2", "1/2"]
    (d / "tampered.json").write_text(json.dumps(cert))
    xp.certify(str(ROOT / "examples" / "loop-or-gamble.json"), d / "models" / "loop.json")
    return d


@pytest.fixture
def run(pytester, monkeypatch):
    """pytest in-process with this plugin alone (an installed entry point is not loaded twice)."""
    monkeypatch.setenv("PYTEST_DISABLE_PLUGIN_AUTOLOAD", "1")

    def go(*args):
        return pytester.runpytest_inprocess("-p", "exactplay.pytest_plugin", *map(str, args))

    return go


def test_every_certificate_is_an_item_and_a_failure_names_the_field_and_the_state(run, certs):
    result = run("--exactplay-check", certs)
    result.assert_outcomes(passed=2, failed=1)
    out = result.stdout.str()
    assert "FAIL " in out and "tampered.json" in out and "(field 'solution.values', state 3)" in out
    assert "Traceback" not in out
    assert result.ret == pytest.ExitCode.TESTS_FAILED


def test_good_certificates_pass_beside_the_usual_tests(run, certs, pytester):
    (certs / "tampered.json").unlink()
    pytester.makepyfile(test_mine="def test_mine():\n    assert True\n")
    result = run("--exactplay-check", certs, "-v")
    result.assert_outcomes(passed=3)
    result.stdout.fnmatch_lines(["*test_mine.py::test_mine PASSED*", "*models/loop.json::check PASSED*",
                                 "*race-2.json::check PASSED*"])
    assert result.ret == pytest.ExitCode.OK


def test_a_directory_also_given_as_an_argument_is_collected_once(run, certs):
    run("--exactplay-check", certs, certs).assert_outcomes(passed=2, failed=1)
    run("--exactplay-check", certs / "models", certs).assert_outcomes(passed=1)  # only what is under DIR


def test_a_directory_reached_through_a_symbolic_link_is_collected_once(run, certs, pytester):
    (pytester.path / "linked").symlink_to(certs, target_is_directory=True)
    result = run("--exactplay-check", "linked", "--collect-only", "-q")
    assert sorted(result.stdout.lines[:3]) == ["linked/models/loop.json::check", "linked/race-2.json::check",
                                              "linked/tampered.json::check"], result.stdout.lines
    run("--exactplay-check", "linked").assert_outcomes(passed=2, failed=1)


def test_the_items_carry_a_marker(run, certs):
    result = run("--exactplay-check", certs, "-m", "not exactplay_certificate")
    assert result.ret == pytest.ExitCode.NO_TESTS_COLLECTED
    run("--exactplay-check", certs, "-m", "exactplay_certificate").assert_outcomes(passed=2, failed=1)


def test_json_files_elsewhere_are_not_collected(run, certs, pytester):
    (pytester.path / "data.json").write_text("{}")
    run("--exactplay-check", certs).assert_outcomes(passed=2, failed=1)


def test_a_missing_directory_is_a_usage_error(run, tmp_path):
    result = run("--exactplay-check", tmp_path / "nowhere")
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    assert "--exactplay-check" in result.stderr.str() and "no such directory" in result.stderr.str()


def test_the_plugin_is_registered_as_a_pytest11_entry_point():
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    target = project["entry-points"]["pytest11"]["exactplay"]
    module = importlib.import_module(target)
    assert callable(module.pytest_addoption) and callable(module.pytest_collect_file)
