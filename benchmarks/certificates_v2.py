"""Certificates v1 against v2 of the built-in games: certify and check CPU time, file size.

Run ``PYTHONPATH=src python benchmarks/certificates_v2.py`` (the instances of proofs/
that have a v2 certificate, race 100 and chefs n = 10 among them, which store the policy
only) or ``... --large`` (also hold 75/6, which proofs/ keeps as v1 only: see the README's
certificates section; its v2 would hold 1.55 GB of exact margins).  CPU seconds
(``time.process_time``), one run each; the checker with gmpy2 when installed.
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "src"))

from exactplay.certificate import write_certificate  # noqa: E402
from exactplay.checker import verify_file  # noqa: E402
from exactplay.games import certify_v2, game_names, get_game, proofs_v2  # noqa: E402

LARGE = [("hold", {"target": 75, "faces": 6})]


def cpu(f):
    t = time.process_time()
    out = f()
    return out, time.process_time() - t


def measure(game: str, params: dict, tmp: Path) -> dict:
    row = {"game": game, "params": params}
    for version, make in (("v1", lambda: get_game(game).certify(**params)),
                          ("v2", lambda: certify_v2(game)(**params))):
        cert, row[f"certify_{version}"] = cpu(make)
        path = write_certificate(cert, tmp / f"{game}-{version}.json")
        row[f"bytes_{version}"] = path.stat().st_size
        _, row[f"check_{version}"] = cpu(lambda path=path: verify_file(path))
        if version == "v2":
            row["states"] = len(cert["solution"]["policy"])
    return row


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--large", action="store_true", help="also the instances kept as v1 only")
    args = parser.parse_args()
    cases = [(g, p) for g in game_names() for _, p in proofs_v2(g)] + (LARGE if args.large else [])
    print(f"{'instance':34} {'states':>7} {'certify v1':>10} {'v2':>7} {'check v1':>9} {'v2':>7} {'v2/v1':>6} "
          f"{'bytes v1':>10} {'v2':>11}")
    totals = [0.0, 0.0]
    with tempfile.TemporaryDirectory() as tmp:
        for game, params in cases:
            r = measure(game, params, Path(tmp))
            totals[0] += r["check_v1"]
            totals[1] += r["check_v2"]
            ratio = r["check_v2"] / r["check_v1"] if r["check_v1"] > 0.005 else float("nan")
            name = game + " " + json.dumps(params, default=str)[1:-1].replace('"', "")
            print(f"{name[:34]:34} {r['states']:>7,} {r['certify_v1']:>10.2f} {r['certify_v2']:>7.2f} "
                  f"{r['check_v1']:>9.2f} {r['check_v2']:>7.2f} {ratio:>6.1f} {r['bytes_v1']:>10,} "
                  f"{r['bytes_v2']:>11,}", flush=True)
    print(f"total check CPU: v1 {totals[0]:.2f} s, v2 {totals[1]:.2f} s")


if __name__ == "__main__":
    main()
