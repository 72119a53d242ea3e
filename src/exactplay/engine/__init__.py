"""The exact engine: strongly connected components, exact policy and strategy iteration.

``solve(game) -> Solution`` is the Python API; the CLI only wraps it.
"""

from .solution import SCCStats, Solution
from .solve import solve, solve_model

__all__ = ["solve", "solve_model", "Solution", "SCCStats"]
