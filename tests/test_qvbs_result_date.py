"""The QVBS result file's date: today's, as datetime writes it, without importing datetime."""

import datetime
import subprocess
import sys
from fractions import Fraction
from pathlib import Path
from types import SimpleNamespace

from exactplay.interop.qvbs_result import result_file

SRC = str(Path(__file__).resolve().parent.parent / "src")


def test_the_date_is_todays_in_iso_form():
    before = datetime.date.today().isoformat()
    res = result_file("m.drn", "0" * 64, {}, "Pmax", "Pmax=? [F g]", 3, [SimpleNamespace(value=Fraction(1, 3))],
                      False, "exactplay solve")
    assert res["date"] in (before, datetime.date.today().isoformat())
    assert res["data"][0]["value"]["num"].text == "1"


def test_the_result_module_does_not_import_datetime():
    out = subprocess.run([sys.executable, "-c", "import sys, exactplay.interop.qvbs_result; print('datetime' in sys.modules)"],
                         env={"PYTHONPATH": SRC, "PATH": "/usr/bin:/bin"}, capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"
