"""exactplay: exact optimal-play values of games of chance, and audits of float solvers."""

import sys

__version__ = "0.1.0"

# Exact values here routinely have more than 4300 digits, Python's default guard
# on int <-> str conversion (meant for untrusted input); they are our data, in
# solvers and checker alike, so the guard is lifted for the whole package.
if hasattr(sys, "set_int_max_str_digits"):
    sys.set_int_max_str_digits(0)
