"""The Race's filled table: F and G, the best t of every cell, the candidates kept, the answer."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


@dataclass
class RaceTable:
    """F and G for ``0 <= a, b <= N``, the chosen T per cell, and candidates."""

    target: int
    backend: str
    t_max: int
    F: list
    G: list
    best_t: dict = field(default_factory=dict)  # (a, b) -> t
    candidates: dict = field(default_factory=dict)  # (a, b) -> {t: value}
    unresolved: set = field(default_factory=set)  # ball backend: cells whose best t is not certified

    @property
    def answer(self) -> Any:
        return self.G[self.target][self.target]

    def cells(self):
        N = self.target
        return [(a, b) for a in range(1, N + 1) for b in range(1, N + 1)]

    def F_map(self) -> dict:
        return {(a, b): self.F[a][b] for a, b in self.cells()}
