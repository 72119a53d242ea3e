"""exactplay.numbers.gmp: gmpy2 imported without importlib.metadata, with its real __version__."""

import subprocess
import sys
from pathlib import Path

SRC = str(Path(__file__).resolve().parent.parent / "src")

PROGRAM = r"""
import sys
import exactplay.numbers.backends, exactplay.model.protocol, exactplay.checker._ints
import gmpy2
loaded = "importlib.metadata" in sys.modules
import importlib, importlib.metadata
assert importlib.metadata.version("gmpy2") == gmpy2.__version__ == gmpy2.version() == sys.modules["gmpy2.gmpy2"].__version__ != ""
assert hasattr(importlib.metadata, "distributions")  # the real module, not the stand-in
x = gmpy2.mpq(1, 3) + gmpy2.mpq(1, 6)
print(loaded, x)
"""


def test_gmpy2_is_imported_without_importlib_metadata_and_keeps_its_version():
    out = subprocess.run([sys.executable, "-S", "-c", PROGRAM], env={"PYTHONPATH": SRC + ":" + ":".join(
        p for p in sys.path if p.endswith("site-packages"))}, capture_output=True, text=True, check=True).stdout
    assert out.split() == ["False", "1/2"]


FAKE_GMPY2 = """
import importlib.metadata
importlib.metadata.packages_distributions()  # more than the stand-in's version: AttributeError there
from fractions import Fraction as mpq
__version__ = "fake"
"""


def test_a_gmpy2_that_needs_more_of_importlib_metadata_gets_the_plain_import(tmp_path):
    """A gmpy2 whose import asks the stand-in for more than ``version`` is imported again the plain way
    (the stand-in gone), not left half-imported or turned into an error."""
    (tmp_path / "gmpy2").mkdir()
    (tmp_path / "gmpy2" / "__init__.py").write_text(FAKE_GMPY2)
    program = ("import sys\nfrom exactplay.numbers.gmp import gmpy2\nimport importlib.metadata\n"
               "assert hasattr(importlib.metadata, 'distributions')\nprint(gmpy2.__version__, gmpy2.mpq(1, 3))\n")
    out = subprocess.run([sys.executable, "-S", "-c", program], env={"PYTHONPATH": f"{tmp_path}:{SRC}:" + ":".join(
        p for p in sys.path if p.endswith("site-packages"))}, capture_output=True, text=True, check=True).stdout
    assert out.split() == ["fake", "1/3"]
