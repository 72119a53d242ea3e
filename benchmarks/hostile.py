"""Benchmark: hostile inputs at full size, refused in bounded time and memory (issue 22, items 2-4).

Each case writes its file into a temporary directory, then runs one ``exactplay`` command on it
in a child process (``PYTHONPATH`` = this checkout's ``src``, or ``--src``) and prints the exit
status, the wall-clock and CPU seconds of the child and its peak memory (``/usr/bin/time -f %M``),
with the first line of its error.  The tests (``tests/test_input_bounds.py``) prove the
same mechanisms on small files against lowered limits; this is the measurement at the issue's sizes.

    python3 benchmarks/hostile.py [--only players,ids,...] [--src OTHER_CHECKOUT/src]

Cases: ``players`` a 95-byte model declaring 10^9 players; ``ids`` 10^7 id-only states (149 MB);
``terms`` 10^7 terminal states (279 MB: over the default 3,000,000-state limit, counted first);
``chain`` a 10^6-state JSON chain with ``--max-states 1000``; ``drn`` the same chain as DRN (36 MB);
``game`` a Python game of 10^6 states with ``--max-states 1000``; ``bomb`` a 3 MB ``.json.gz``
certificate inflating to 3 GB.

Measured 2026-12-01 (2 cores shared with other sessions, load average 5-6: wall-clock is the
machine's, CPU seconds and peak memory the child's); before = main at 58346ff (``players`` and
``ids`` under ``ulimit -v`` 1.5 and 3 GB: both end in MemoryError, the issue measured 3.9 GB):

    case     file    before                                     after (exit 2; check: 1)
    players  94 B    9.2 s wall, 1.47 GB (ulimit): MemoryError  0.2 s CPU,  26 MB: 10^9 players refused
    ids      149 MB  19.4 s wall, 2.79 GB (ulimit): MemoryError 0.5 s CPU, 309 MB: refused at state 0
    terms    279 MB  not run (the whole file parsed)            10.1 s CPU, 557 MB: counted, refused at 3,000,001
    chain    51 MB   56.6 s wall, 1.44 GB                       0.4 s CPU, 122 MB: refused at state 1,001
    drn      36 MB   37.1 s CPU, 1.52 GB                        0.3 s CPU,  94 MB: refused at @nr_states
    game     294 B   refused at the limit already               0.2 s CPU,  26 MB
    bomb     3 MB    6.4 s CPU, 2.13 GB                         9.0 s CPU,  33 MB: 2 GiB inflated, dropped

The memory left is the file's text (its bytes and its ``str``, twice its size); the CPU of ``bomb``
is zlib inflating 2 GiB (about 400 MB/s here), counted and dropped in 1 MB chunks.
"""

from __future__ import annotations

import argparse
import gzip
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

SRC = Path(__file__).resolve().parent.parent / "src"
HEAD = '{"format":"exactplay-model","version":1,"players":1,"states":['


def _players(d: Path) -> list:
    p = d / "players.json"
    p.write_text('{"format":"exactplay-model","version":1,"players":1000000000,"states":[{"id":0,"payoff":[1]}]}')
    return ["solve", "--model", p]


def _write(p: Path, head: str, items, tail: str) -> Path:
    """``head``, the ``items`` joined by commas, ``tail``; written a piece at a time (this process stays
    small: a child's peak memory is measured from it)."""
    with open(p, "w") as f:
        f.write(head)
        for i, item in enumerate(items):
            f.write("," + item if i else item)
        f.write(tail)
    return p


def _states(d: Path, name: str, state: str, n: int = 10**7) -> Path:
    return _write(d / name, HEAD, (state % i for i in range(n)), "]}")


def _ids(d: Path) -> list:
    return ["solve", "--model", _states(d, "ids.json", '{"id":%d}')]


def _terms(d: Path) -> list:
    return ["solve", "--model", _states(d, "terms.json", '{"id":%d,"payoff":[0]}')]


def _chain(d: Path) -> list:
    n = 10**6
    states = ('{"id":%d,"mover":null,"next":[["1/1",%d]]}' % (i, i + 1) for i in range(n - 1))
    p = _write(d / "chain.json", HEAD, states, ',{"id":%d,"payoff":["1/1"]}]}' % (n - 1))
    return ["solve", "--model", p, "--max-states", "1000"]


def _drn(d: Path) -> list:
    n = 10**6
    p = d / "chain.drn"
    with open(p, "w") as f:
        f.write(f"@type: DTMC\n@value_type: rational\n@nr_states\n{n}\n@nr_choices\n{n}\n@model\n")
        for i in range(n):
            f.write(f"state {i}{' init' if i == 0 else ''}{' done' if i == n - 1 else ''}\n\taction 0\n"
                    f"\t\t{min(i + 1, n - 1)} : 1\n")
    return ["solve", "--model", p, "--objective", "Pmax", "--target", "done", "--max-states", "1000"]


def _game(d: Path) -> list:
    p = d / "long.py"
    p.write_text("class Long:\n"
                 "    def initial_state(self): return 0\n"
                 "    def is_terminal(self, s): return s == 10**6\n"
                 "    def payoff(self, s): return (1,)\n"
                 "    def mover(self, s): return None\n"
                 "    def actions(self, s): return [None]\n"
                 "    def transitions(self, s, a): return [(1, s + 1)]\n"
                 "def make():\n"
                 "    return Long()\n")
    return ["solve", "--game", f"{p}:make", "--max-states", "1000"]


def _bomb(d: Path) -> list:
    p = d / "bomb.json.gz"
    p.write_bytes(gzip.compress(b" " * (10 * 1024**2), compresslevel=9, mtime=0) * 300)  # 3 MB -> 3 GB
    return ["check", p]


CASES = {"players": _players, "ids": _ids, "terms": _terms, "chain": _chain, "drn": _drn, "game": _game,
         "bomb": _bomb}


def run(argv: list, src: Path, tmp: Path) -> tuple:
    """``(status, wall s, CPU s, peak MB, first line of stderr)`` of ``exactplay ARGV`` in a child, under
    ``/usr/bin/time`` (Linux keeps a process's peak memory across exec, so a child started from this
    process directly would report this process's peak if it were larger)."""
    env = dict(os.environ, PYTHONPATH=str(src))
    report = tmp / "time.txt"
    start = time.perf_counter()
    done = subprocess.run(["/usr/bin/time", "-o", str(report), "-f", "%U %S %M", sys.executable, "-m", "exactplay",
                           *map(str, argv)], env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    wall = time.perf_counter() - start
    user, system, peak_kb = report.read_text().split()[-3:]
    err = done.stderr.decode("utf-8", "replace")
    line = next((x for x in err.splitlines() if x.strip() and not x.startswith("Command exited")), "")
    return done.returncode, wall, float(user) + float(system), int(peak_kb) / 1024, line


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--only", help="comma-separated cases (" + ", ".join(CASES) + ")")
    ap.add_argument("--src", type=Path, default=SRC, help="the exactplay sources to run (default: this checkout's)")
    args = ap.parse_args()
    names = args.only.split(",") if args.only else list(CASES)
    print(f"{'case':8} {'file':>10} {'status':>6} {'wall s':>7} {'cpu s':>7} {'peak MB':>8}  message")
    with tempfile.TemporaryDirectory() as tmp:
        for name in names:
            d = Path(tmp) / name
            d.mkdir()
            argv = CASES[name](d)
            size = sum(f.stat().st_size for f in d.iterdir())
            status, wall, cpu, peak, line = run(argv, args.src, Path(tmp))
            print(f"{name:8} {size:>10,} {status:>6} {wall:>7.1f} {cpu:>7.1f} {peak:>8.0f}  {line[:110]}", flush=True)
            for f in d.iterdir():
                f.unlink()


if __name__ == "__main__":
    main()
