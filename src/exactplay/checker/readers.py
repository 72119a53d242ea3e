"""The checker's readers that the tool's own readers use too (float tables, explicit JSON models,
DRN files, ``exactplay check``): one strict JSON scanner with positions and a digit bound, bounded
reads of (possibly gzip-compressed) files, and the integer arithmetic switch.

Sharing runs one way: the tool reads untrusted text with the checker's code, the checker imports
nothing of the tool.
"""

from __future__ import annotations

from ._ball_solution import outward_text
from ._input import read_bounded, unpack
from ._ints import use_stdlib, using_gmpy2
from ._json import Cursor, DuplicateName, bounded_int_digits, line_column, scanner
from ._load import clip, parse_json

__all__ = ["Cursor", "DuplicateName", "bounded_int_digits", "clip", "line_column", "outward_text", "parse_json",
           "read_bounded", "scanner", "unpack", "use_stdlib", "using_gmpy2"]
