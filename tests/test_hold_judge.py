"""``exactplay judge hold``: exact answers, --explain, --check, and one-line errors on bad input."""

from __future__ import annotations

import io
import sys

import pytest
from claim_findings import ONE_WORKER

from exactplay.cli.main import main

pytestmark = ONE_WORKER  # the judge answers from exact_table() at 75, built once per process

SAMPLE = "3\n15 0 3\n35 50 40\n15 0 30\n"


def run(argv, stdin="", capsys=None, monkeypatch=None):
    monkeypatch.setattr(sys, "stdin", io.StringIO(stdin))
    status = main(argv)
    out, err = capsys.readouterr()
    return status, out, err


def test_judge_reads_stdin_and_prints_the_sample_answers(capsys, monkeypatch):
    status, out, err = run(["judge", "hold"], SAMPLE, capsys, monkeypatch)
    assert status == 0 and out == "C\nH\nH\n" and err == ""


def test_judge_reads_a_file_and_the_article_edge_cases(tmp_path, capsys, monkeypatch):
    f = tmp_path / "in.txt"
    f.write_text("5\n73 0 2\n72 0 2\n72 0 3\n73 73 2\n73 73 2\n")
    status, out, _ = run(["judge", "hold", str(f)], "", capsys, monkeypatch)
    assert status == 0 and out.split() == ["H", "C", "H", "H", "H"]


def test_explain_shows_exact_probabilities_and_the_margin(capsys, monkeypatch):
    status, out, _ = run(["judge", "hold", "--explain", "--digits", "6"], "1\n15 0 30\n", capsys, monkeypatch)
    assert status == 0
    assert out.startswith("H  # 15 0 30: hold 0.766010  continue 0.753606  margin +1.240e-02")


def test_check_accepts_right_answers_and_names_the_first_wrong_line(tmp_path, capsys, monkeypatch):
    good = tmp_path / "good.txt"
    good.write_text("C\nH\nH\n")
    bad = tmp_path / "bad.txt"
    bad.write_text("C\nH\nC\n")  # what the published program prints
    status, out, _ = run(["judge", "hold", "--check", str(good)], SAMPLE, capsys, monkeypatch)
    assert status == 0 and "all 3 answers" in out
    status, out, err = run(["judge", "hold", "--check", str(bad)], SAMPLE, capsys, monkeypatch)
    assert status == 1
    assert err.count("\n") == 1 and "line 3" in err and "15 0 30" in err and "exact answer is H" in err


@pytest.mark.parametrize(
    "text,needle",
    [
        ("", "empty input"),
        ("0\n", "line 1: Q must be between 1 and 1000"),
        ("1001\n", "line 1: Q must be between 1 and 1000"),
        ("x\n1 2 3\n", "line 1: Q must be an integer"),
        ("2\n1 2 3\n", "line 3: Q = 2 but only 1 query lines follow"),
        ("1\n1 2 3\n4 5 6\n", "line 3: more query lines than Q = 1"),
        ("1\n74 0 2\n", "line 2: C = 74 is outside 0..73"),
        ("1\n0 -1 2\n", "line 2: H = -1 is outside 0..73"),
        ("1\n0 0 1\n", "line 2: X = 1 is below 2"),
        ("1\n10 0 66\n", "line 2: C + X = 76 exceeds 75"),
        ("1\n1 2.5 3\n", "line 2: H must be an integer"),
        ("1\n1 2\n", "line 2: expected 3 integers"),
    ],
)
def test_malformed_input_is_one_error_line_naming_the_line_with_status_2(text, needle, capsys, monkeypatch):
    status, out, err = run(["judge", "hold"], text, capsys, monkeypatch)
    assert status == 2 and out == ""
    assert err.count("\n") == 1 and needle in err and "Traceback" not in err


def test_check_file_with_a_bad_token_or_count_is_rejected(tmp_path, capsys, monkeypatch):
    f = tmp_path / "a.txt"
    f.write_text("C\nX\nH\n")
    status, _, err = run(["judge", "hold", "--check", str(f)], SAMPLE, capsys, monkeypatch)
    assert status == 2 and "line 2: expected H or C" in err
    f.write_text("C\nH\n")
    status, _, err = run(["judge", "hold", "--check", str(f)], SAMPLE, capsys, monkeypatch)
    assert status == 1 and "2 answer lines for 3 queries" in err
