"""Shared by the benchmark scripts (run them as ``python benchmarks/NAME.py``)."""

from __future__ import annotations

import time


def best_of(f, repeat: int = 3) -> float:
    """The shortest of ``repeat`` wall-clock runs of ``f()``, in seconds: the least noisy figure."""
    times = []
    for _ in range(repeat):
        t = time.perf_counter()
        f()
        times.append(time.perf_counter() - t)
    return min(times)
