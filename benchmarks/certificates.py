"""The certificates of proofs/: certify and check CPU time, peak memory, file size, states.

Run ``PYTHONPATH=src python benchmarks/certificates.py`` (every instance a game lists in its
``PROOFS``) or ``... --only hold-75-6.json chefs-fib-14.json``.  Each certify and each check runs in
a process of its own (``/usr/bin/time``-like: CPU seconds, user + system, and the peak resident
memory from ``resource``), so that one measurement does not inherit the memory of another; the
checker uses gmpy2 when installed.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "src"))

from exactplay.games import game_names, get_game  # noqa: E402

CHILD = """
import resource, sys, time
sys.path.insert(0, {src!r})
from exactplay.certify.write import write_certificate
from exactplay.checker import verify_file
from exactplay.games import get_game
import json
game, index, path, what = sys.argv[1], int(sys.argv[2]), sys.argv[3], sys.argv[4]
params = get_game(game).proofs[index][1]
if what == "certify":
    write_certificate(get_game(game).certify(**params), path)
else:
    verify_file(path)
r = resource.getrusage(resource.RUSAGE_SELF)
print(json.dumps({{"cpu": r.ru_utime + r.ru_stime, "peak_mb": r.ru_maxrss / 1024}}))
"""


def run(what: str, game: str, index: int, path: Path) -> dict:
    code = CHILD.format(src=str(ROOT / "src"))
    out = subprocess.run([sys.executable, "-c", code, game, str(index), str(path), what],
                         capture_output=True, text=True, check=True)
    return json.loads(out.stdout.strip().splitlines()[-1])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--only", nargs="*", help="file names of proofs/ to measure (default: all)")
    args = parser.parse_args()
    print(f"{'instance':26} {'states':>9} {'stored':>7} {'bytes':>11} {'certify s':>10} {'MB':>6} {'check s':>8} {'MB':>6}")
    totals = [0.0, 0.0]
    with tempfile.TemporaryDirectory() as tmp:
        for game in game_names():
            for index, (name, _) in enumerate(get_game(game).proofs):
                if args.only and name not in args.only:
                    continue
                path = Path(tmp) / name
                c = run("certify", game, index, path)
                k = run("check", game, index, path)
                cert = json.loads(path.read_text())
                stored = "values" if "values" in cert["solution"] else "policy"
                totals[0] += c["cpu"]
                totals[1] += k["cpu"]
                print(f"{game + '/' + name:26} {len(cert['solution']['policy']):>9,} {stored:>7} "
                      f"{path.stat().st_size:>11,} {c['cpu']:>10.2f} {c['peak_mb']:>6.0f} {k['cpu']:>8.2f} "
                      f"{k['peak_mb']:>6.0f}")
    print(f"total CPU: certify {totals[0]:.1f} s, check {totals[1]:.1f} s (each check in its own process)")


if __name__ == "__main__":
    main()
