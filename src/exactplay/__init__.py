"""exactplay: exact optimal-play values of games of chance, and audits of float solvers."""

import sys

__version__ = "0.1.0"

# Exact values here routinely have more than 4300 digits, Python's default guard
# on int <-> str conversion; the solvers and the printing of their results need
# them, so the guard is lifted for the package.  The guard exists for untrusted
# input, and untrusted text never reaches int() unbounded: certificates and
# float tables are parsed with the guard set back (exactplay.checker._load.
# bounded_int_digits), and every other reader (``p/q`` strings in certificates,
# float-table fields, contest input, typed numbers) checks a number's length
# before converting it.
if hasattr(sys, "set_int_max_str_digits"):
    sys.set_int_max_str_digits(0)
