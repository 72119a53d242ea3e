"""Benchmark: ball certificates of games with cycles (Pig, Hold) on the dyadic grid.

For each precision (grid bits k): the time of the enclosure (dyadic/fixpoint.py), the decisions
certified, the answer's enclosure and its 8 decimals; the process's peak RSS.  With --certify FILE
the certificate at the first precision is written (FILE.gz: compressed) and checked by
``python -m exactplay check FILE`` in a child process, whose CPU time and peak RSS are printed.

    python benchmarks/ball_cert.py pig 100 --precs 64,128 --certify /tmp/pig-100-ball.json.gz
    python benchmarks/ball_cert.py hold 100 6 --precs 64,128
"""

from __future__ import annotations

import os
import resource
import subprocess
import sys
import time
from fractions import Fraction


def _rss_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def _cpu() -> float:
    return time.process_time()


def main(argv: list[str]) -> None:
    precs, out = [64, 128], None
    if "--precs" in argv:
        i = argv.index("--precs")
        precs = [int(x) for x in argv[i + 1].split(",")]
        del argv[i:i + 2]
    if "--certify" in argv:
        i = argv.index("--certify")
        out = argv[i + 1]
        del argv[i:i + 2]
    from exactplay.dyadic import IntForm, dyadic_enclosure
    from exactplay.dyadic.certificate import (
        decisions,
        game_ball_certificate,
        model_ball_certificate,
    )
    from exactplay.model import build_model

    t = _cpu()
    if argv[0] == "pig":
        sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "examples"))
        from pig import make_game

        goal = int(argv[1])
        label = f"Pig to {goal}"
        model = build_model(make_game(goal=goal))
    else:
        from exactplay.games import MODELS

        T, F = int(argv[1]), int(argv[2])
        label = f"hold target {T} faces {F}"
        model = build_model(MODELS["hold"](target=T, faces=F))
    print(f"{label}: {len(model):,} states, {len(model.choice_states()):,} choice states; model built in "
          f"{_cpu() - t:.1f} s CPU, peak RSS {_rss_mb():.0f} MB", flush=True)
    t = _cpu()
    form = IntForm(model)
    print(f"  integer form        : {_cpu() - t:7.1f} s CPU; every play ends: {form.terminates}", flush=True)
    for k in precs:
        t = _cpu()
        E = dyadic_enclosure(form, k)
        t_enc = _cpu() - t
        t = _cpu()
        _, unresolved = decisions(form, model, E)
        t_dec = _cpu() - t
        s0 = model.initial
        lo, hi = Fraction(E.lower[s0], 1 << k), Fraction(E.upper[s0], 1 << k)
        n_dec = len(model.choice_states())
        widest = max(u - l for u, l in zip(E.upper, E.lower))
        print(f"  grid 2^-{k:<4}        : {t_enc:7.1f} s CPU (+{t_dec:.1f} s decisions)  certified "
              f"{n_dec - len(unresolved):,} of {n_dec:,}, unresolved {len(unresolved):,}; answer in "
              f"[{float(lo):.15f}, {float(hi):.15f}] (width {float(hi - lo):.1e}, {E.upper[s0] - E.lower[s0]} grid steps; "
              f"widest {widest}); {E.cyclic:,} cyclic components, {len(E.feedback):,} feedback states, "
              f"{E.sweeps:,} sweeps, {E.policy_rounds:,} policy rounds, largest start shift {E.max_shift}, "
              f"{E.reranked} end(s) settled again from the clipped start (unranked); "
              f"peak RSS {_rss_mb():.0f} MB", flush=True)
        print(f"      8 decimals: {_dec(lo, 8)} / {_dec(hi, 8)}; 12 decimals: {_dec(lo, 12)} / {_dec(hi, 12)}", flush=True)
    if out:
        from exactplay.certify.write import write_ball_certificate

        t = _cpu()
        if argv[0] == "pig":
            cert, _ = model_ball_certificate(model, precs[0])
        else:
            params = {"target": T, "faces": F}
            cert, _ = game_ball_certificate("hold", params, params, "V(0,0)", precs[0])
        del model, form
        write_ball_certificate(cert, out)
        del cert
        print(f"  certificate         : {_cpu() - t:7.1f} s CPU, {os.path.getsize(out) / 1e6:.1f} MB on disk ({out}); "
              f"peak RSS {_rss_mb():.0f} MB", flush=True)
        cmd = ["/usr/bin/time", "-f", "%U %S %M", sys.executable, "-m", "exactplay", "check", out]
        r = subprocess.run(cmd, capture_output=True, text=True, check=False)
        user, sys_, rss = r.stderr.strip().splitlines()[-1].split()
        print(f"  check               : exit {r.returncode}, {float(user) + float(sys_):.1f} s CPU, peak RSS "
              f"{int(rss) / 1024:.0f} MB", flush=True)
        print("      " + "\n      ".join((r.stdout.strip() + "\n" + r.stderr.strip()).strip().splitlines()[:6]), flush=True)


def _dec(x: Fraction, digits: int) -> str:
    n = round(x * 10**digits)
    s = str(n).rjust(digits + 1, "0")
    return f"{s[:-digits]}.{s[-digits:]}"


if __name__ == "__main__":
    main(sys.argv[1:])
