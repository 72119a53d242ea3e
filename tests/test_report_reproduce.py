"""A report's "Reproduce" line is a command that reproduces it (issue 22 item 13): the line is
read back with shlex, run in-process, and writes the same page and figures."""

import html
import re
import shlex
from pathlib import Path

import pytest

from cli_run import run

ROOT = Path(__file__).resolve().parent.parent
PIG = str(ROOT / "examples" / "pig.py") + ":make_game"
PIG_LOADED = str(ROOT / "examples" / "pig_loaded.py") + ":make_game"
LOOP = str(ROOT / "examples" / "loop-or-gamble.json")
RUIN = str(ROOT / "tests" / "fixtures" / "storm" / "gamblers_ruin.drn")


def _reproduce_line(page: Path) -> str:
    m = re.search(r"<h2>Reproduce</h2>\n<pre>(.*?)</pre>", page.read_text(encoding="utf-8"))
    assert m, page
    return html.unescape(m.group(1))


def _files(out: Path) -> dict:
    """Every file written, the page without the time it was built."""
    built = re.compile(r"built \d{4}-\d\d-\d\d \d\d:\d\d UTC")
    return {p.name: built.sub("built ...", p.read_text(encoding="utf-8")) if p.suffix == ".html" else p.read_bytes()
            for p in sorted(out.iterdir())}


@pytest.mark.parametrize("argv", [
    ["--game", PIG, "--param", "goal=4", "--max-states", "5000"],
    ["--model", LOOP, "--backend", "fraction"],
    ["--model", RUIN, "--objective", "Pmax", "--target", "goal & !broke"],
    ["--game", PIG_LOADED, "--param", "goal=3", "--param-symbol", "p", "--range", "1/4,3/4"],
    ["race", "--target", "5", "--no-claims"],
    ["chefs", "--n", "3", "--skills", "1/4,1/2,1", "--no-claims"],
    ["coins", "3", "9", "1", "2", "--no-claims"],
], ids=["factory", "json", "drn", "parametric", "race", "chefs", "coins"])
def test_the_reproduce_line_of_a_report_runs_and_writes_the_same_report(capsys, tmp_path, argv):
    first, again = tmp_path / "first", tmp_path / "again"
    status, _, err = run(capsys, "report", *argv, "-o", first, "-q")
    assert status == 0, err
    [page] = first.glob("*-report.html")
    words = shlex.split(_reproduce_line(page))
    assert words[0] == "exactplay" and words[1] == "report" and words[-2:] == ["-o", "DIR"]
    assert "--source" not in words
    status, _, err = run(capsys, *words[1:-1], again, "-q")
    assert status == 0, err
    assert _files(again) == _files(first)
