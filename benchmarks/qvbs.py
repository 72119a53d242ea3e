"""Benchmark: exactplay against Storm's exact engine on QVBS instances, whole processes (issue 26).

What is measured: for every instance of ``../shared/benchmarks/qvbs/index.json`` (or ``--dir DIR``,
another folder in the same format: the 12 there are a sample of the Quantitative Verification Benchmark
Set), the CPU time (user + sys, ``os.wait4``) and the peak RSS of two WHOLE processes, each reading the
same decompressed DRN file and computing the same property exactly:

  exactplay  ``python3 -m exactplay solve --model X.drn --objective OBJ --target xgoal [--avoid xavoid]
             [--reward NAME] --json`` with ``PYTHONPATH`` set to this checkout's ``src`` (the tree the
             script lives in is the one measured); the value read from the JSON's ``answer``.
  storm      ``python3 -c PROGRAM X.drn PROPERTY``: stormpy 2.0 in exact mode,
             ``build_model_from_drn[stormpy.Rational]``, ``parse_properties(storm_property_on_drn)``,
             ``environments.exact()`` with the min-max method TOPOLOGICAL, ``model_checking``; it prints
             the value of the initial state (of several, as herman's DRN has, the largest, as QVBS does).

Interpreter start-up, imports, DRN reading and the output are included (stdout goes to a file; the
exactplay JSON holds every state's value). Each ``.drn.gz`` is decompressed once into a temporary
directory beforehand (not timed). Runs are interleaved (exactplay, storm, exactplay, storm, ...),
``--repeat N`` times (default 3), and the minimum CPU per tool is kept (the machine is shared); the
peak RSS is that of the same run. Both values are compared exactly with the index's ``exact_value``.
A non-zero exit, a wrong value or a timeout (``--timeout``, default 600 s of wall clock) is shown in
its row and the script goes on; a tool that failed is not run again on that instance. ratio =
exactplay CPU / Storm CPU (below 1: exactplay faster); median and worst are over the rows where both
tools gave a value. Two extra lines: the bare start-up, ``python3 -c 'import exactplay.cli'`` (with
this ``src``) against ``python3 -c 'import stormpy'``, interleaved, minimum of ``--repeat``.

    python3 benchmarks/qvbs.py [--only NAME[,NAME]] [--dir DIR] [--repeat N] [--timeout S] [--json FILE]

Measured 2026-12-01 (main at 58346ff, 2 shared cores, load average LOAD; stormpy 2.0.0, Python 3.11.7;
CPU seconds, minimum of 3 interleaved runs)::

MEASURED
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


def run(argv: list[str], env: dict, timeout: float, tmp: str) -> dict:
    """Run ``argv`` as a whole process; its CPU (user + sys), peak RSS, exit status, stdout and stderr."""
    out_path, err_path = os.path.join(tmp, "stdout"), os.path.join(tmp, "stderr")
    with open(out_path, "wb") as out, open(err_path, "wb") as err:
        t0 = time.monotonic()
        proc = subprocess.Popen(argv, env=env, stdout=out, stderr=err, stdin=subprocess.DEVNULL,
                                start_new_session=True)
        timed_out = False
        while True:  # poll, so that a timeout can kill the child before it is reaped
            pid, status, ru = os.wait4(proc.pid, os.WNOHANG)
            if pid:
                break
            if time.monotonic() - t0 > timeout:
                timed_out = True
                os.killpg(proc.pid, signal.SIGKILL)
                pid, status, ru = os.wait4(proc.pid, 0)
                break
            time.sleep(0.01)
        proc.returncode = os.waitstatus_to_exitcode(status)  # reaped here: Popen must not wait again
    wall = time.monotonic() - t0
    with open(out_path, "rb") as f:
        stdout = f.read()
    with open(err_path, "rb") as f:
        stderr = f.read().decode("utf-8", "replace")
    return {"cpu": ru.ru_utime + ru.ru_stime, "rss_mb": ru.ru_maxrss / 1024, "wall": wall,
            "rc": proc.returncode, "timed_out": timed_out, "stdout": stdout, "stderr": stderr}


def last_line(text: str) -> str:
    lines = [ln.strip() for ln in text.strip().splitlines() if ln.strip()]
    return lines[-1] if lines else ""


def value_of_exactplay(stdout: bytes) -> Fraction:
    data = json.loads(stdout)
    v = data["answer"]["value"]
    return Fraction(v)


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


def exactplay_argv(entry: dict, drn: str) -> list[str]:
    argv = [sys.executable, "-m", "exactplay", "solve", "--model", drn, "--objective", entry["objective"],
            "--target", entry["drn_target_label"]]
    if entry.get("drn_avoid_label"):
        argv += ["--avoid", entry["drn_avoid_label"]]
    if entry.get("drn_reward_model"):
        argv += ["--reward", entry["drn_reward_model"]]
    return argv + ["--json"]


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
        dirty = subprocess.run(["git", "-C", str(REPO), "status", "--porcelain", "--", "src"],
                               capture_output=True, text=True).stdout.strip()
        return c + (" (src modified)" if dirty else "")
    except (OSError, subprocess.CalledProcessError):
        return "?"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--dir", type=Path, default=None, help="a folder with index.json and the .drn.gz files "
                    "(default: ../shared/benchmarks/qvbs beside the checkout)")
    ap.add_argument("--only", default=None, help="NAME[,NAME]: these instances only")
    ap.add_argument("--repeat", type=int, default=3, help="interleaved runs per tool; the least CPU is kept")
    ap.add_argument("--timeout", type=float, default=600.0, help="wall-clock seconds per run (default 600)")
    ap.add_argument("--json", type=Path, default=None, help="save the rows to FILE")
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
        startup = measure({"exactplay": ([sys.executable, "-c", "import exactplay.cli"], ep_env, None),
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
            res = measure({"exactplay": (exactplay_argv(e, e["_drn"]), ep_env, value_of_exactplay),
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
        print(f"start-up  python3 -c 'import exactplay.cli'  {fmt_cpu(epu):>8}  {epu['rss_mb']:.0f} MB")
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
