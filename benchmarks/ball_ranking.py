"""Benchmark: the cost of ranking the ball writer's ends where plays may go on forever.

Where plays may go on forever, dyadic/fixpoint.py ranks each component's ends as the checker
will (dyadic/ranking.py) and settles an unranked one again from a start clipped at 0.  This runs
the enclosure of Hold (which has endless plays) with the ranking and with it switched off (the
ends of the old writer, which the checker may refuse), alternately, ``--repeat`` times each, and
prints the CPU times side by side, their ratio and how many components were settled again.

    python benchmarks/ball_ranking.py 40 6 --prec 64 --repeat 3
"""

from __future__ import annotations

import sys
import time


class _NoRanking:
    """``Rankings`` switched off: every end counts as ranked (the writer before the ranking)."""

    def __init__(self, form, k) -> None:
        pass

    def rank(self, comp, X, d) -> list:
        return []


def main(argv: list[str]) -> None:
    prec, repeat = 64, 3
    for flag in ("--prec", "--repeat"):
        if flag in argv:
            i = argv.index(flag)
            if flag == "--prec":
                prec = int(argv[i + 1])
            else:
                repeat = int(argv[i + 1])
            del argv[i:i + 2]
    T, F = (int(x) for x in argv[:2]) if len(argv) >= 2 else (40, 6)
    from exactplay.dyadic import IntForm, fixpoint
    from exactplay.games import MODELS
    from exactplay.model import build_model

    model = build_model(MODELS["hold"](target=T, faces=F))
    form = IntForm(model)
    print(f"hold target {T} faces {F}: {len(model):,} states; every play ends: {form.terminates}; grid 2^-{prec}; "
          f"{repeat} runs each, alternating", flush=True)
    ranked_class = fixpoint.Rankings
    times = {"ranked": [], "not ranked": []}
    reranked = None
    for _ in range(repeat):
        for name, cls in (("ranked", ranked_class), ("not ranked", _NoRanking)):
            fixpoint.Rankings = cls
            t = time.process_time()
            E = fixpoint.dyadic_enclosure(form, prec)
            times[name].append(time.process_time() - t)
            if name == "ranked":
                reranked = E.reranked
    fixpoint.Rankings = ranked_class
    a, b = min(times["ranked"]), min(times["not ranked"])
    print(f"  enclosure, ranked     : best {a:.2f} s CPU  (all: {', '.join(f'{x:.2f}' for x in times['ranked'])}); "
          f"{reranked} component end(s) settled again from the clipped start", flush=True)
    print(f"  enclosure, not ranked : best {b:.2f} s CPU  (all: {', '.join(f'{x:.2f}' for x in times['not ranked'])})",
          flush=True)
    print(f"  ratio ranked / not    : {a / b:.3f}", flush=True)


if __name__ == "__main__":
    main(sys.argv[1:])
