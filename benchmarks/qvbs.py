"""Benchmark: exactplay against Storm's exact engine on QVBS instances, whole processes (issue 26).

What is measured: for every instance of ``../shared/benchmarks/qvbs/index.json`` (or ``--dir DIR``,
another folder in the same format: the 12 there are a sample of the Quantitative Verification Benchmark
Set), the CPU time (user + sys, ``os.wait4``) and the peak RSS of two WHOLE processes, each reading the
same decompressed DRN file and computing the same property exactly:

  exactplay  ``python3 -m exactplay solve --model X.drn --objective OBJ --target xgoal [--avoid xavoid]
             [--reward NAME] --qvbs-result X.result.json`` with ``PYTHONPATH`` set to this checkout's ``src``
             (the tree the script lives in is the one measured); the value read from the QVBS result
             file (of several initial states the largest), the text output as a user sees it on stdout.
             ``--every-state``: ``--json`` instead (the value read from the JSON's ``answer``), which
             also prints every state's value, policy, margin and rank (echoring: about 1 s more).
  storm      ``python3 -c PROGRAM X.drn PROPERTY``: stormpy 2.0 in exact mode,
             ``build_model_from_drn[stormpy.Rational]``, ``parse_properties(storm_property_on_drn)``,
             ``environments.exact()`` with the min-max method TOPOLOGICAL, ``model_checking``; it prints
             the value of the initial state (of several, as herman's DRN has, the largest, as QVBS does).

Interpreter start-up, imports, DRN reading and the output are included (stdout goes to a file; both
tools compute every state's value, each prints the answer). Each ``.drn.gz`` is decompressed once into a temporary
directory beforehand (not timed). Runs are interleaved (exactplay, storm, exactplay, storm, ...),
``--repeat N`` times (default 3), and the minimum CPU per tool is kept (the machine is shared); the
peak RSS is that of the same run (``ru_maxrss`` of the child alone, reported by a tiny fork + exec
runner: Linux carries the forking process's RSS high-water mark into the child's ``ru_maxrss`` across
exec). Both values are compared exactly with the index's ``exact_value``.
A non-zero exit, a wrong value or a timeout (``--timeout``, default 600 s of wall clock) is shown in
its row and the script goes on; a tool that failed is not run again on that instance. ratio =
exactplay CPU / Storm CPU (below 1: exactplay faster); median and worst are over the rows where both
tools gave a value. Two extra lines: the bare start-up, ``python3 -c 'import exactplay.cli.main'`` (with
this ``src``) against ``python3 -c 'import stormpy'``, interleaved, minimum of ``--repeat``.

    python3 benchmarks/qvbs.py [--only NAME[,NAME]] [--dir DIR] [--repeat N] [--timeout S] [--json FILE] [--every-state]

Measured 2026-12-01 22:45-22:55 UTC (main at 58346ff; 2 shared cores, load average 8.1 at the start and
8.2 at the end: other jobs running; stormpy 2.0.0, Python 3.11.7; CPU seconds, minimum of 3 interleaved
runs; the whole run took 10 minutes)::

    name                 type    states  exactplay     storm   ratio   ep MB storm MB  value ok (ep/storm)
    ------------------------------------------------------------------------------------------------------
    brp-64-5             DTMC     4,936     1.035s    0.324s   3.20x      68       80  yes/yes
    coupon-5-2           DTMC     5,397     0.854s    0.322s   2.65x      50       70  yes/yes
    crowds-4-10          DTMC    28,975     3.439s    0.641s   5.37x     131       87  yes/yes
    herman-9             DTMC       512       FAIL    8.102s       -      25       81  fail/yes *
    beb-3-4              MDP      4,660     0.643s    0.268s   2.40x      47       66  yes/yes
    consensus-4-2-smin   MDP     22,656    10.833s    1.421s   7.62x     263      124  yes/yes
    csma-3-2-abmin       MDP     36,850     2.782s    0.384s   7.25x     152       92  yes/yes
    eajs-2               MDP     12,828     1.628s    0.349s   4.67x      77       78  yes/yes
    echoring-2           MDP    104,114    25.775s    0.772s  33.37x     390      139  yes/yes
    tireworld-17         MDP      8,670     1.576s    0.377s   4.18x      72       73  yes/yes
    leader_sync-5-4      DTMC     4,244     0.614s    0.344s   1.79x      45       71  yes/yes
    cdrive-10            MDP      2,193     1.530s    0.261s   5.87x      55       67  yes/yes
    ------------------------------------------------------------------------------------------------------
    ratio exactplay/storm over 11 of 12 rows: median 4.67x, worst 33.37x (echoring-2), below 1.0: 0
    rows without a ratio: herman-9; wrong values: none
    start-up  python3 -c 'import exactplay.cli.main'    0.233s  21 MB
    start-up  python3 -c 'import stormpy'          0.255s  58 MB   (ratio 0.91x)
      * herman-9: exactplay: exit 2: exactplay: error: herman-9.drn:528: more than one initial state (label init)

Every value exact and equal to the index's where there is one.  Far from issue 26's targets (median
<= 1.0x, worst <= 3x, herman 9 below Storm): median 4.67x, worst 33x (echoring, 104k states: 25.8 s against
0.77 s), no row below 1.0.  herman-9 has no exactplay figure: its DRN marks all 512 states initial, and
exactplay's DRN reader refuses several initial states (exit 2 at once).  The bare start-up costs about the
same for both (0.23 s vs 0.26 s).  An earlier full run the same evening at load 3-6 gave the same
picture in CPU (median 4.93x, echoring 30.7x, herman refused; its peak RSS figures were the forking
script's, hence the runner).

Measured 2026-12-03 15:32 UTC (main at 34f4771, after that day's branches; load average 0.08 at the start and
0.67 at the end, on a machine then about 1.3x slower than in the morning; ``--repeat 3``)::

    name                 type    states  exactplay     storm   ratio   ep MB storm MB  value ok (ep/storm)
    ------------------------------------------------------------------------------------------------------
    brp-64-5             DTMC     4,936     0.156s    0.228s   0.68x      27       80  yes/yes
    coupon-5-2           DTMC     5,397     0.167s    0.197s   0.85x      27       69  yes/yes
    crowds-4-10          DTMC    28,975     0.442s    0.408s   1.08x      43       87  yes/yes
    herman-9             DTMC       512     0.214s    7.554s   0.03x      38       81  yes/yes
    beb-3-4              MDP      4,660     0.134s    0.173s   0.78x      26       66  yes/yes
    consensus-4-2-smin   MDP     22,656     1.041s    0.935s   1.11x      77      124  yes/yes
    csma-3-2-abmin       MDP     36,850     0.344s    0.285s   1.21x      48       92  yes/yes
    eajs-2               MDP     12,828     0.217s    0.233s   0.93x      34       79  yes/yes
    echoring-2           MDP    104,114     1.219s    0.543s   2.24x     115      139  yes/yes
    tireworld-17         MDP      8,670     0.356s    0.336s   1.06x      33       73  yes/yes
    leader_sync-5-4      DTMC     4,244     0.137s    0.231s   0.59x      26       71  yes/yes
    cdrive-10            MDP      2,193     0.174s    0.180s   0.96x      26       67  yes/yes
    ------------------------------------------------------------------------------------------------------
    ratio exactplay/storm over 12 of 12 rows: median 0.95x, worst 2.24x (echoring-2), below 1.0: 7
    start-up  python3 -c 'import exactplay.cli.main'    0.067s  17 MB
    start-up  python3 -c 'import stormpy'          0.124s  58 MB   (ratio 0.54x)

The runs between (2026-12-02 and the morning of 2026-12-03) are in ``docs/benchmarks.md``; the same measurement
on 32 other instances of the same sources: ``benchmarks/qvbs_build.py``.
"""

from __future__ import annotations

import argparse
import gzip
import json
import os
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from fractions import Fraction
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
SRC = REPO / "src"

STORM_PROGRAM = r"""
import json, sys
from fractions import Fraction
import stormpy
from stormpy import environments as E
sys.set_int_max_str_digits(0)
path, formula = sys.argv[1], sys.argv[2]
model = stormpy.build_model_from_drn[stormpy.Rational](path)
prop = stormpy.parse_properties(formula)[0]
env = E.exact()
if not env.solver().force_exact:
    sys.exit("stormpy's exact environment does not force exact computation")
env.solver().min_max().method = E.MinMaxMethod.TOPOLOGICAL
result = stormpy.model_checking(model, prop, environment=env)
inits = list(model.initial_states)
vals = [result.get_value(s) for s in inits]
vals = [Fraction(int(str(v.numerator)), int(str(v.denominator))) for v in vals]
print(json.dumps({"value": str(max(vals)), "initial_states": len(inits), "states": model.nr_states}))
"""


def default_dir() -> Path:
    """``shared/benchmarks/qvbs`` beside this checkout, or beside the main checkout of a git worktree."""
    candidates = [REPO.parent / "shared" / "benchmarks" / "qvbs"]
    try:
        common = subprocess.run(["git", "-C", str(REPO), "rev-parse", "--path-format=absolute", "--git-common-dir"],
                                capture_output=True, text=True, check=True).stdout.strip()
        candidates.append(Path(common).parent.parent / "shared" / "benchmarks" / "qvbs")
    except (OSError, subprocess.CalledProcessError):
        pass
    for c in candidates:
        if (c / "index.json").is_file():
            return c
    return candidates[0]


# The child is started by this small runner (fork + exec, then os.wait4 on it), which writes the child's
# exit status, CPU and peak RSS to a file.  Not forked from this script directly: Linux carries the RSS
# high-water mark of the forking process into the child's ru_maxrss across exec, so every child would
# show at least this script's peak (after it has read a large JSON); the runner's own is ~13 MB, no more
# than any python3 process's.  Its CPU is not counted (only the child's rusage is).
RUNNER = r"""
import os, sys
out, argv = sys.argv[1], sys.argv[2:]
pid = os.fork()
if pid == 0:
    try:
        os.execv(argv[0], argv)
    finally:
        os._exit(127)
_, status, ru = os.wait4(pid, 0)
with open(out, "w") as f:
    f.write(f"{os.waitstatus_to_exitcode(status)} {ru.ru_utime!r} {ru.ru_stime!r} {ru.ru_maxrss}\n")
sys.exit(0 if status == 0 else 1)
"""


def run(argv: list[str], env: dict, timeout: float, tmp: str) -> dict:
    """Run ``argv`` as a whole process; its CPU (user + sys), peak RSS, exit status, stdout and stderr."""
    out_path, err_path = os.path.join(tmp, "stdout"), os.path.join(tmp, "stderr")
    usage_path = os.path.join(tmp, "rusage")
    if os.path.exists(usage_path):
        os.unlink(usage_path)
    with open(out_path, "wb") as out, open(err_path, "wb") as err:
        t0 = time.monotonic()
        proc = subprocess.Popen([sys.executable, "-S", "-c", RUNNER, usage_path] + argv, env=env, stdout=out,
                                stderr=err, stdin=subprocess.DEVNULL, start_new_session=True)
        timed_out = False
        while True:  # poll, so that a timeout can kill the child before it is reaped
            pid, status, ru = os.wait4(proc.pid, os.WNOHANG)
            if pid:
                break
            if time.monotonic() - t0 > timeout:
                timed_out = True
                os.killpg(proc.pid, signal.SIGKILL)  # the runner and the child (one process group)
                pid, status, ru = os.wait4(proc.pid, 0)
                break
            time.sleep(0.01)
        proc.returncode = os.waitstatus_to_exitcode(status)  # reaped here: Popen must not wait again
    wall = time.monotonic() - t0
    with open(out_path, "rb") as f:
        stdout = f.read()
    with open(err_path, "rb") as f:
        stderr = f.read().decode("utf-8", "replace")
    try:
        with open(usage_path, encoding="utf-8") as f:
            rc, utime, stime, maxrss = f.read().split()
        rc, cpu, rss_kb = int(rc), float(utime) + float(stime), int(maxrss)
    except (OSError, ValueError):  # killed (timeout) or the runner failed: the whole group's figures
        rc, cpu, rss_kb = proc.returncode, ru.ru_utime + ru.ru_stime, ru.ru_maxrss
    return {"cpu": cpu, "rss_mb": rss_kb / 1024, "wall": wall,
            "rc": rc, "timed_out": timed_out, "stdout": stdout, "stderr": stderr}


def last_line(text: str) -> str:
    lines = [ln.strip() for ln in text.strip().splitlines() if ln.strip()]
    return lines[-1] if lines else ""


def value_of_exactplay(stdout: bytes) -> Fraction:
    """The answer of ``--json``; of several initial states (herman), the largest, as QVBS and the Storm side take."""
    data = json.loads(stdout)
    if "initial_states" in data:
        return Fraction(data["initial_states"]["largest"]["value"])
    return Fraction(data["answer"]["value"])


def value_of_result_file(path: str) -> Fraction:
    """The value in a QVBS result file; of several initial states, the largest."""
    (entry,) = json.loads(Path(path).read_text(encoding="utf-8"))["data"]
    values = [v["value"] for v in entry.get("initial-states", [])] or [entry["value"]]
    return max(Fraction(v["num"], v["den"]) for v in values)


def value_of_storm(stdout: bytes) -> Fraction:
    return Fraction(json.loads(stdout.decode().strip().splitlines()[-1])["value"])


def drn_states(path: str) -> int | None:
    with open(path, encoding="utf-8") as f:
        for line in f:
            if line.startswith("@nr_states"):
                return int(next(f).strip())
            if line.startswith("@model"):
                return None
    return None


def exactplay_argv(entry: dict, drn: str, every_state: bool = False) -> list[str]:
    argv = [sys.executable, "-m", "exactplay", "solve", "--model", drn, "--objective", entry["objective"],
            "--target", entry["drn_target_label"]]
    if entry.get("drn_avoid_label"):
        argv += ["--avoid", entry["drn_avoid_label"]]
    if entry.get("drn_reward_model"):
        argv += ["--reward", entry["drn_reward_model"]]
    return argv + (["--json"] if every_state else ["--qvbs-result", drn + ".result.json"])


def storm_argv(entry: dict, drn: str) -> list[str]:
    return [sys.executable, "-c", STORM_PROGRAM, drn, entry["storm_property_on_drn"]]


def environments() -> tuple[dict, dict]:
    base = dict(os.environ)
    base.pop("PYTHONPATH", None)
    ep = dict(base)
    ep["PYTHONPATH"] = str(SRC)
    return ep, base


def measure(tools: dict, repeat: int, timeout: float, tmp: str, expected: Fraction | None) -> dict:
    """Run each tool ``repeat`` times, interleaved; keep the least CPU per tool. ``tools``: name ->
    (argv, env, parse) with ``parse(stdout) -> Fraction`` (or None: no value to check)."""
    best: dict[str, dict] = {}
    failed: dict[str, dict] = {}
    runs: dict[str, list[float]] = {name: [] for name in tools}
    for _ in range(repeat):
        for name, (argv, env, parse) in tools.items():
            if name in failed:
                continue
            r = run(argv, env, timeout, tmp)
            r["value"] = None
            r["error"] = None
            if r["timed_out"]:
                r["error"] = f"timeout after {timeout:g} s"
            elif r["rc"] != 0:
                r["error"] = f"exit {r['rc']}: {last_line(r['stderr']).replace(tmp + os.sep, '')[:300]}"
            elif parse is not None:
                try:
                    r["value"] = parse(r["stdout"])
                except (ValueError, KeyError, TypeError, IndexError) as exc:
                    r["error"] = f"unreadable output: {exc!r}"[:300]
            del r["stdout"]
            if r["error"]:
                failed[name] = r
                continue
            runs[name].append(r["cpu"])
            if name not in best or r["cpu"] < best[name]["cpu"]:
                best[name] = r
    out = {}
    for name in tools:
        r = failed.get(name) if name not in best else best[name]
        res = {"cpu": r["cpu"], "rss_mb": r["rss_mb"], "runs": runs[name], "error": r["error"],
               "value": None if r["value"] is None else str(r["value"])}
        if name in failed and name in best:  # a later run failed after earlier successes
            res["error"] = "a later run failed: " + failed[name]["error"]
        if tools[name][2] is not None and r["value"] is not None and expected is not None:
            res["ok"] = r["value"] == expected
        else:
            res["ok"] = None
        out[name] = res
    return out


def fmt_cpu(res: dict) -> str:
    if res["error"] and not res["runs"]:
        return "FAIL" if "timeout" not in res["error"] else "TIMEOUT"
    return f"{res['cpu']:.3f}s"


def fmt_ok(res: dict) -> str:
    if res["error"] and not res["runs"]:
        return "fail"
    return {True: "yes", False: "WRONG", None: "?"}[res["ok"]]


def git_commit() -> str:
    try:
        c = subprocess.run(["git", "-C", str(REPO), "rev-parse", "--short", "HEAD"], capture_output=True,
                           text=True, check=True).stdout.strip()
        c += ", src last changed at " + subprocess.run(["git", "-C", str(REPO), "log", "-1", "--format=%h", "--", "src"],
                                                      capture_output=True, text=True, check=True).stdout.strip()
        dirty = subprocess.run(["git", "-C", str(REPO), "status", "--porcelain", "--", "src"],
                               capture_output=True, text=True).stdout.strip()
        return c + (" (src modified)" if dirty else "")
    except (OSError, subprocess.CalledProcessError):
        return "?"


def main(argv: list[str] | None = None) -> int:
    sys.set_int_max_str_digits(0)  # exact values with more than 4,300 digits (brp with N=256)
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--dir", type=Path, default=None, help="a folder with index.json and the .drn.gz files "
                    "(default: ../shared/benchmarks/qvbs beside the checkout)")
    ap.add_argument("--only", default=None, help="NAME[,NAME]: these instances only")
    ap.add_argument("--repeat", type=int, default=3, help="interleaved runs per tool; the least CPU is kept")
    ap.add_argument("--timeout", type=float, default=600.0, help="wall-clock seconds per run (default 600)")
    ap.add_argument("--json", type=Path, default=None, help="save the rows to FILE")
    ap.add_argument("--every-state", action="store_true", help="exactplay prints every state (--json), not the answer")
    args = ap.parse_args(argv)

    folder = args.dir or default_dir()
    index_path = folder / "index.json"
    if not index_path.is_file():
        print(f"qvbs.py: no {index_path} (give --dir)", file=sys.stderr)
        return 2
    entries = json.loads(index_path.read_text(encoding="utf-8"))
    if args.only:
        wanted = [w.strip() for w in args.only.split(",") if w.strip()]
        names = {e["name"] for e in entries}
        unknown = [w for w in wanted if w not in names]
        if unknown:
            print(f"qvbs.py: unknown instance(s) {', '.join(unknown)}; known: {', '.join(sorted(names))}",
                  file=sys.stderr)
            return 2
        entries = [e for e in entries if e["name"] in wanted]
    ep_env, storm_env = environments()
    load0 = os.getloadavg()
    started = time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime())
    commit = git_commit()
    shown = folder if args.dir else os.path.relpath(folder, REPO)
    print(f"exactplay {commit}, {shown}, {len(entries)} instances, repeat {args.repeat}, "
          f"timeout {args.timeout:g} s; {started}, load average {load0[0]:.2f} {load0[1]:.2f} {load0[2]:.2f}",
          flush=True)

    rows = []
    tmpdir = tempfile.mkdtemp(prefix="qvbs-bench-")
    try:
        startup = measure({"exactplay": ([sys.executable, "-c", "import exactplay.cli.main"], ep_env, None),
                           "storm": ([sys.executable, "-c", "import stormpy"], storm_env, None)},
                          args.repeat, args.timeout, tmpdir, None)
        for e in entries:  # decompress once, untimed
            drn = os.path.join(tmpdir, e["name"] + ".drn")
            with gzip.open(folder / e["drn"], "rb") as src, open(drn, "wb") as dst:
                shutil.copyfileobj(src, dst, 1 << 20)
            e["_drn"] = drn
        header = (f"{'name':<20} {'type':<5} {'states':>8} {'exactplay':>10} {'storm':>9} {'ratio':>7} "
                  f"{'ep MB':>7} {'storm MB':>8}  value ok (ep/storm)")
        print(header)
        print("-" * len(header))
        notes = []
        for e in entries:
            expected = Fraction(e["exact_value"]) if e.get("exact_value") is not None else None
            parse = value_of_exactplay if args.every_state else (
                lambda out, path=e["_drn"] + ".result.json": value_of_result_file(path))
            res = measure({"exactplay": (exactplay_argv(e, e["_drn"], args.every_state), ep_env, parse),
                           "storm": (storm_argv(e, e["_drn"]), storm_env, value_of_storm)},
                          args.repeat, args.timeout, tmpdir, expected)
            ep, st = res["exactplay"], res["storm"]
            both = ep["runs"] and st["runs"] and st["cpu"] > 0
            ratio = ep["cpu"] / st["cpu"] if both else None
            states = e.get("states_built_by_stormpy") or drn_states(e["_drn"])
            row = {"name": e["name"], "type": e.get("type", "?"), "states": states, "exact_value": e.get("exact_value"),
                   "exactplay": ep, "storm": st, "ratio": ratio,
                   "runs": {"exactplay": len(ep["runs"]), "storm": len(st["runs"])}}
            rows.append(row)
            mark = ""
            for tool, r in (("exactplay", ep), ("storm", st)):
                if r["error"]:
                    notes.append(f"{e['name']}: {tool}: {r['error']}")
                    mark = " *"
                elif r["ok"] is False:
                    notes.append(f"{e['name']}: {tool}: value {r['value'][:80]} is not the index's "
                                 f"{e['exact_value'][:80]}")
                    mark = " *"
            print(f"{e['name']:<20} {row['type']:<5} {(f'{states:,}' if states is not None else '?'):>8} {fmt_cpu(ep):>10} "
                  f"{fmt_cpu(st):>9} {(f'{ratio:.2f}x' if ratio is not None else '-'):>7} "
                  f"{ep['rss_mb']:>7.0f} {st['rss_mb']:>8.0f}  {fmt_ok(ep)}/{fmt_ok(st)}{mark}", flush=True)
        print("-" * len(header))
        ratios = [r["ratio"] for r in rows if r["ratio"] is not None]
        if ratios:
            worst = max(rows, key=lambda r: r["ratio"] if r["ratio"] is not None else -1)
            print(f"ratio exactplay/storm over {len(ratios)} of {len(rows)} rows: median {statistics.median(ratios):.2f}x, "
                  f"worst {worst['ratio']:.2f}x ({worst['name']}), below 1.0: {sum(x < 1.0 for x in ratios)}")
        else:
            print(f"no row has a ratio ({len(rows)} rows)")
        failed = [r["name"] for r in rows if r["ratio"] is None]
        wrong = [f"{r['name']} ({', '.join(t for t in ('exactplay', 'storm') if r[t]['ok'] is False)})"
                 for r in rows if any(r[t]["ok"] is False for t in ("exactplay", "storm"))]
        print(f"rows without a ratio: {', '.join(failed) or 'none'}; wrong values: {', '.join(wrong) or 'none'}")
        epu, stu = startup["exactplay"], startup["storm"]
        print(f"start-up  python3 -c 'import exactplay.cli.main'  {fmt_cpu(epu):>8}  {epu['rss_mb']:.0f} MB")
        print(f"start-up  python3 -c 'import stormpy'        {fmt_cpu(stu):>8}  {stu['rss_mb']:.0f} MB"
              + (f"   (ratio {epu['cpu'] / stu['cpu']:.2f}x)" if stu['cpu'] > 0 else ""))
        for n in notes:
            print("  * " + n)
        load1 = os.getloadavg()
        print(f"load average at the end {load1[0]:.2f} {load1[1]:.2f} {load1[2]:.2f}; "
              f"{time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}")
        if args.json:
            args.json.write_text(json.dumps({"commit": commit, "started": started, "repeat": args.repeat,
                                             "load_start": load0, "load_end": load1, "startup": startup,
                                             "rows": rows}, indent=1) + "\n", encoding="utf-8")
    finally:
        shutil.rmtree(tmpdir, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
