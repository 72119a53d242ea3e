"""Build QVBS instances of continuous-time models (CTMC, Markov automata) with unbounded properties.

The output folder has the format of ``../shared/benchmarks/qvbs`` and of ``benchmarks/qvbs_build.py`` (one
``NAME.drn.gz`` per instance and an ``index.json`` with the same fields), so that ``benchmarks/qvbs.py --dir OUT``
measures exactplay against Storm's exact engine on it.  Only QVBS properties of the types ``prob-reach``,
``exp-reward`` and ``exp-time`` (unbounded) are used; never time-bounded or steady-state ones.

  * ``NAME.drn.gz``: the model built exactly by stormpy 2.0 (``build_model[stormpy.Rational]`` with builder
    options for the property's formula, state valuations, all labels and all reward models), the property's
    target states labelled ``xgoal`` (``phi`` of ``F phi``, ``psi`` of ``phi U psi``), an until's avoided
    states (not ``phi``) labelled ``xavoid``, exported by ``stormpy.io.export_to_drn`` (rational values; the
    state valuations are ``//[...]`` comment lines under each state line);
  * ``index.json``: per instance the fields of qvbs_build.py's index (``type`` is ``CTMC`` or ``MA``),
    plus ``qvbs_reference`` (the value QVBS's ``index.json`` gives for these parameters, ``p/q`` where it
    is exact, else its number as text, or null) and ``drn_check`` (Storm's exact engine on the exported
    DRN with ``storm_property_on_drn``: its value and whether it equals ``exact_value``); the JANI source is
    copied to ``src/`` (``cli``: ``src/FILE``, the QVBS property name and the constants).

``objective``: ``Pmin/Pmax/Rmin/Rmax`` as in qvbs_build.py (a CTMC's ``P=?`` / ``R=?`` always as ``Pmin`` /
``Rmin``: no nondeterminism), and QVBS ``exp-time`` properties (stormpy's ``T`` operator) as ``Tmin`` /
``Tmax`` (a CTMC's as ``Tmin``) with ``drn_reward_model`` null and ``storm_property_on_drn`` ``Tmin=? [F
"xgoal"]``.  ``exact_value`` is Storm's exact engine (``environments.exact()``, topological min-max, the
same as qvbs_build.py) on the SOURCE model (the JANI file with the constants instantiated), the largest
over the initial states; the script refuses a value that is not a stormpy Rational.  Each instance is built
in its own process with a CPU time limit (``--timeout``, default 120 s of CPU for Storm's exact build and
check on the source; the process may take 2.5 times that, for the check on the DRN, under RLIMIT_CPU; CPU
rather than wall clock, as the machine is shared); one that exceeds it is reported as skipped.

The QVBS sources: ``--qvbs DIR`` is the ``benchmarks`` folder of the QVBS repository, e.g.

    git clone https://github.com/ahartmanns/qcomp && python3 benchmarks/qvbs_continuous.py --qvbs qcomp/benchmarks

(or from a bare mirror: ``git -C MIRROR archive HEAD benchmarks/ctmc benchmarks/ma | tar -x -C /tmp/qvbs_src``,
then ``--qvbs /tmp/qvbs_src/benchmarks``; only ``ctmc/`` and ``ma/`` are read).

    python3 benchmarks/qvbs_continuous.py --qvbs DIR [--out /tmp/qvbs_ct] [--only NAME[,NAME]] [--timeout S] [--list]
    python3 benchmarks/qvbs.py --dir /tmp/qvbs_ct      # once exactplay reads CTMC / MA DRN files

Never writes into the shared folder.

Built 2026-12-04 19:03-19:15 UTC (at c4e7327) (stormpy 2.0.0, Python 3.11.7, QVBS at c7324a3; 2 cores shared with other
developers' tests, hence wall clock well above CPU; CPU seconds of Storm's exact engine: build and check on the
JANI source, and build + check on the exported DRN; QVBS: Storm's value equals the exact value of QVBS's
index.json for these parameters)::

    name                     type   states  choices property               obj  exact value                build  check  on DRN QVBS
    mapk_cascade-1           CTMC       78       78 activated_time         Rmin 391458243042...(169 ch)    0.07s  0.01s   0.01s equal
    polling-9                CTMC    6,912    6,912 s1_before_s2           Pmin 515246020082...(6923 ch)   0.40s 27.04s  27.66s equal
    embedded-2-actuators     CTMC    3,478    3,478 actuators              Pmin 165274237424...(1122 ch)   0.76s  0.04s   0.26s equal
    embedded-6-danger_time   CTMC    4,572    4,572 danger_time            Rmin 180261595722...(2791 ch)   0.98s  0.16s   0.43s equal
    philosophers-4-time      CTMC       34       34 MinExpTimeDeadlock     Tmin 550/101                    0.02s  0.00s   0.00s equal
    philosophers-12-deadlock CTMC   39,202   39,202 MaxPrReachDeadlock     Pmin 1                          1.11s  0.33s   0.60s equal
    bitcoin-attack-20-6      MA        177      227 T_MWinMin              Tmin 4194984840/1122677         0.02s  0.00s   0.01s equal
    breakdown-queues-8-min   MA     20,583   22,137 Min                    Pmin 211962389022...(290 ch)    0.23s  0.07s   0.19s equal
    breakdown-queues-16-max  MA     41,463   44,681 Max                    Pmax 655069461927...(559 ch)    0.45s  0.20s   0.45s equal
    dpm-4-4-pmin             MA     34,570   41,610 PminQueuesFull         Pmin 265365585413...(4723 ch)   0.35s 10.31s  11.47s equal
    erlang-5000-10           MA     10,011   10,012 TminReach              Tmin 501                        0.04s  0.02s   0.06s equal
    flexible-manufacturing-3 MA      1,636    1,636 M2Fail_E               Tmin 412446354890...(1854 ch)   0.14s 43.19s  41.59s (none)
    ftwc-4-tmax              MA      3,259    3,883 TimeMax                Tmax 889450083841...(975 ch)    0.05s 23.32s  23.12s equal
    jobs-10-3-completion     MA     16,439   30,831 completiontime         Tmin 4852666717/1975680000      0.54s  0.09s   0.32s equal
    jobs-5-2-avgtime         MA        117      171 avgtime                Rmax 9/10                       0.02s  0.00s   0.00s equal
    readers-writers-5-time   MA        830      830 exp_time_many_requests Tmin 957243805203...(527 ch)    0.08s  1.22s   1.24s equal
    stream-100-buffertime    MA     15,251   20,201 exp_buffertime         Rmin 282964108300...(121 ch)    0.31s  0.07s   0.62s equal
    stream-500-restarts      MA    376,251  501,001 exp_restarts           Rmax 506978818112...(600 ch)    8.36s  2.74s  16.39s equal

On every instance Storm's exact value on the DRN equals its value on the source.  Skipped (see ``instances()``):
stormpy cannot parse polling-system and reentrant-queues (JANI feature nondet-selection); Storm's exact engine
did not finish: mapk_cascade-3 (killed at 305 s CPU with --timeout 120), dpm-4-4 TminQueuesFull, ftwc-8 TimeMin,
vgs-5 and philosophers-12 MinExpTimeDeadlock (killed at 130 s CPU with --timeout 50, and over 150 s of wall clock
in a first run), polling-13 (159,744 states; over 150 s of wall clock in a first run, not measured further:
polling-9 already takes 27 s).  QVBS's state counts are sometimes mcsta's or another Storm build's (erlang,
readers-writers, flexible-manufacturing, embedded with MAX_COUNT > 2 differ from stormpy's).

What Storm writes (``export_to_drn``), for a reader of these files:
  * ``@type: CTMC`` / ``@type: Markov Automaton``; every state line is ``state N !E [rewards] labels`` with ``!E``
    the exit rate;
  * a CTMC's transitions are RATES, not probabilities (the embedded chain's probability is rate/E); E includes
    a self-loop's rate; a deadlock state gets a self-loop of rate 1 (``!1``, ``N : 1``);
  * an MA's Markovian states have ``!E`` with E > 0 and exactly one choice whose transitions are already
    PROBABILITIES (rate/E); its probabilistic (immediate) states have ``!0`` and one or more choices with
    probabilities; no state mixes both (Storm's builder applies maximal progress); choice names are numbers;
  * state rewards are rates: Storm's expected reward (and time) counts a Markovian state's (a CTMC state's)
    state reward times 1/E per visit and IGNORES state rewards of an MA's probabilistic states (jobs-5-2
    avgtime writes state reward 1 on probabilistic states: multiplying them by 7 or setting them to 0 leaves
    Storm's 9/10 unchanged); action rewards (``action 0 [r]``, stream's numrestarts) count once per choice;
  * ``Tmin/Tmax`` = the expected time: 1/E per visit of a Markovian state, 0 for probabilistic states;
  * the state valuations are comment lines ``//[x=1 & ...]`` under each state line.
Checked independently (python-flint, the embedded chain solved as above) on the models with one choice per
state: mapk_cascade-1, polling-5, philosophers-4-time, readers-writers-5 (both properties) and
flexible-manufacturing-3 give Storm's exact values.
"""

from __future__ import annotations

import argparse
import gzip
import json
import resource
import shutil
import signal
import subprocess
import sys
import time
from fractions import Fraction
from pathlib import Path

from qvbs_build import label_targets, to_fraction  # (the same labels and exact values as the DTMC/MDP folder)

# ---------------------------------------------------------------------------------------------------
# The instances: name -> QVBS folder (type/short), JANI file, QVBS property name, constants (QVBS's open
# parameters of that file, as in its index.json).

def instances() -> dict[str, dict]:
    """Every instance tried; those with ``skip`` (the reason) are built only when named in ``--only``."""
    I = {}

    def add(name, folder, model, prop, const="", skip=None):
        I[name] = {"folder": folder, "model": model, "prop": prop, "const": const, "skip": skip}

    slow = "Storm's exact engine did not finish build + check on the source in time (see the docstring)"
    # CTMCs
    add("mapk_cascade-1", "ctmc/mapk_cascade", "mapk_cascade.jani", "activated_time", "N=1,T=30")
    add("mapk_cascade-3", "ctmc/mapk_cascade", "mapk_cascade.jani", "activated_time", "N=3,T=30", skip=slow)
    add("polling-5", "ctmc/polling", "polling.5.jani", "s1_before_s2", "T=16", skip="polling-9 instead")
    add("polling-9", "ctmc/polling", "polling.9.jani", "s1_before_s2", "T=16")
    add("polling-13", "ctmc/polling", "polling.13.jani", "s1_before_s2", "T=16", skip=slow)
    add("embedded-2-actuators", "ctmc/embedded", "embedded.jani", "actuators", "MAX_COUNT=2,T=12")
    add("embedded-6-danger_time", "ctmc/embedded", "embedded.jani", "danger_time", "MAX_COUNT=6,T=12")
    add("embedded-8-up_time", "ctmc/embedded", "embedded.jani", "up_time", "MAX_COUNT=8,T=12",
        skip="two embedded instances are enough (built and checked in 2 s)")
    add("philosophers-4-time", "ctmc/philosophers", "philosophers.4.jani", "MinExpTimeDeadlock", "TIME_BOUND=1")
    add("philosophers-12-deadlock", "ctmc/philosophers", "philosophers.12.jani", "MaxPrReachDeadlock",
        "TIME_BOUND=1")
    add("philosophers-12-time", "ctmc/philosophers", "philosophers.12.jani", "MinExpTimeDeadlock", "TIME_BOUND=1",
        skip=slow)
    # Markov automata
    add("bitcoin-attack-20-6", "ma/bitcoin-attack", "bitcoin-attack.jani", "T_MWinMin", "MALICIOUS=20,CD=6")
    add("breakdown-queues-8-min", "ma/breakdown-queues", "breakdown-queues.jani", "Min", "K=8")
    add("breakdown-queues-16-max", "ma/breakdown-queues", "breakdown-queues.jani", "Max", "K=16")
    add("dpm-4-4-pmin", "ma/dpm", "dpm.jani", "PminQueuesFull", "N=4,C=4,TIME_BOUND=5")
    add("dpm-4-4-tmin", "ma/dpm", "dpm.jani", "TminQueuesFull", "N=4,C=4,TIME_BOUND=5", skip=slow)
    add("erlang-5000-10", "ma/erlang", "erlang.jani", "TminReach", "K=5000,R=10,TIME_BOUND=5")
    add("flexible-manufacturing-3", "ma/flexible-manufacturing", "flexible-manufacturing.3.jani", "M2Fail_E", "T=1")
    add("ftwc-4-tmax", "ma/ftwc", "ftwc.jani", "TimeMax", "N=4,TIME_BOUND=5")
    add("ftwc-8-tmin", "ma/ftwc", "ftwc.jani", "TimeMin", "N=8,TIME_BOUND=5", skip=slow)
    add("jobs-10-3-completion", "ma/jobs", "jobs.10-3.jani", "completiontime")
    add("jobs-5-2-avgtime", "ma/jobs", "jobs.5-2.jani", "avgtime")
    add("polling-system-3-3-tmin", "ma/polling-system", "polling-system.jani", "TminBothFull",
        "JOB_TYPES=3,C=3,TIME_BOUND=5", skip="stormpy: Storm does not support the JANI model feature nondet-selection")
    add("readers-writers-5-time", "ma/readers-writers", "readers-writers.5.jani", "exp_time_many_requests")
    add("readers-writers-5-network", "ma/readers-writers", "readers-writers.5.jani", "pr_network",
        skip="the same model as readers-writers-5-time")
    add("reentrant-queues-3-3-3-tmax", "ma/reentrant-queues", "reentrant-queues.jani", "TmaxBothQueuesFull",
        "JOB_TYPES=3,C_LEFT=3,C_RIGHT=3,TIME_BOUND=5",
        skip="stormpy: Storm does not support the JANI model feature nondet-selection")
    add("stream-100-buffertime", "ma/stream", "stream.jani", "exp_buffertime", "N=100")
    add("stream-500-restarts", "ma/stream", "stream.jani", "exp_restarts", "N=500")
    add("vgs-5", "ma/vgs", "vgs.5.jani", "MinExpTimeFailed", "TIME_BOUND=10000", skip=slow)
    # Not tried: QVBS's cluster, fms, hill-toggle, kanban, majority, p53, speed-ind, tandem, toggle-switch (CTMC) and
    # cabinets, ftpp, hecs, mcs, sf, sms (MA) have no prob-reach / exp-reward / exp-time property.
    return I


# ---------------------------------------------------------------------------------------------------
# One instance, built in its own process.

def qvbs_reference(qdir: Path, spec: dict) -> str | None:
    """The value QVBS's index.json gives for this file, these open parameters and this property."""
    index = json.loads((qdir / spec["folder"] / "index.json").read_text(encoding="utf-8"))
    want = {}
    for kv in filter(None, spec["const"].split(",")):
        k, v = kv.split("=")
        want[k] = v
    for f in index.get("files", []):
        if f["file"] != spec["model"]:
            continue
        for o in f.get("open-parameter-values", [{}]) or [{}]:
            if {v["name"]: str(v["value"]) for v in o.get("values", [])} != want:
                continue
            for r in o.get("results", []):
                if r["property"] == spec["prop"]:
                    v = r["value"]
                    if isinstance(v, dict) and "num" in v:
                        return str(Fraction(int(v["num"]), int(v["den"])))
                    return str(v)
    return None


def storm_on_drn(path: str, prop: str) -> tuple[Fraction, float]:
    """Storm's exact engine on the DRN file, as benchmarks/qvbs.py runs it."""
    import stormpy
    from stormpy import environments as E
    t0 = time.process_time()
    model = stormpy.build_model_from_drn[stormpy.Rational](path)
    p = stormpy.parse_properties(prop)[0]
    env = E.exact()
    env.solver().min_max().method = E.MinMaxMethod.TOPOLOGICAL
    result = stormpy.model_checking(model, p, environment=env)
    value = max(to_fraction(result.get_value(s)) for s in model.initial_states)
    return value, time.process_time() - t0


def build_one(name: str, spec: dict, qdir: Path, out: Path, cpu_budget: float) -> dict:
    import stormpy
    from stormpy import environments as E

    sys.set_int_max_str_digits(0)
    model_path = qdir / spec["folder"] / spec["model"]
    t0 = time.process_time()
    model, props = stormpy.parse_jani_model(str(model_path), property_filter=[spec["prop"]])
    if len(props) != 1:
        raise SystemExit(f"{name}: property {spec['prop']} not found")
    if spec["const"]:
        model, props = stormpy.instantiate_constants(model, spec["const"], props)
    formula = props[0].get_raw_formula()
    qvbs_formula = str(formula)
    options = stormpy.BuilderOptions([formula])
    options.set_build_state_valuations()
    options.set_build_all_labels()
    options.set_build_all_reward_models()
    sparse = stormpy.build_model[stormpy.Rational](model, options=options)
    t_build = time.process_time() - t0
    kind_of_model = sparse.model_type.name  # the enum stormpy.developer.storage...ModelType
    if kind_of_model not in ("CTMC", "MA"):
        raise SystemExit(f"{name}: a {kind_of_model}, not a CTMC or MA")

    env = E.exact()
    if not env.solver().force_exact:
        raise SystemExit("stormpy's exact environment does not force exact computation")
    env.solver().min_max().method = E.MinMaxMethod.TOPOLOGICAL
    t1 = time.process_time()
    inits = list(sparse.initial_states)
    result = stormpy.model_checking(sparse, formula, environment=env)
    value = max(to_fraction(result.get_value(s)) for s in inits)
    t_check = time.process_time() - t1
    if t_build + t_check > cpu_budget:
        print(f"OVER-TIME {t_build:.1f} s build + {t_check:.1f} s check")
        raise SystemExit(3)

    avoid_label = label_targets(stormpy, sparse, formula, name)
    reward = None
    if formula.is_probability_operator_formula:
        kind = "P"
    elif formula.is_reward_operator_formula:
        kind = "R"
        reward = formula.reward_name if formula.has_reward_model_name() else next(iter(sparse.reward_models))
    elif isinstance(formula, stormpy.logic.TimeOperatorFormula):
        kind = "T"
    else:
        raise SystemExit(f"{name}: neither P, R nor T: {formula}")
    if kind_of_model == "MA" and formula.has_optimality_type:
        opt = "max" if "max" in str(formula.optimality_type).lower() else "min"
    else:
        opt = "min"  # a CTMC: no nondeterminism, min and max coincide
    objective = kind + opt
    op = f'R{{"{reward}"}}{opt}=?' if kind == "R" else f"{kind}{opt}=?"
    storm_prop = f'{op} [!"xavoid" U "xgoal"]' if avoid_label else f'{op} [F "xgoal"]'
    if kind == "T" and avoid_label:
        raise SystemExit(f"{name}: an expected time until an avoided set: {formula}")

    drn = out / f"{name}.drn"
    stormpy.io.export_to_drn(sparse, str(drn))
    on_drn, t_drn = storm_on_drn(str(drn), storm_prop)
    with open(drn, "rb") as f_in, gzip.open(str(drn) + ".gz", "wb", compresslevel=6) as f_out:
        shutil.copyfileobj(f_in, f_out)
    drn.unlink()
    ref = qvbs_reference(qdir, spec)
    (out / "src").mkdir(exist_ok=True)
    if not (out / "src" / spec["model"]).is_file():  # the source, as the shared folder keeps it (its src/)
        shutil.copyfile(model_path, out / "src" / spec["model"])
    entry = {"name": name, "qvbs_file": spec["model"], "constants": spec["const"], "qvbs_property": spec["prop"],
             "formula": qvbs_formula, "type": kind_of_model,
             "states_built_by_stormpy": sparse.nr_states, "choices": sparse.nr_choices,
             "initial_states": len(inits), "exact_value": str(value),
             "drn": f"{name}.drn.gz",
             "drn_target_label": "xgoal", "drn_avoid_label": avoid_label, "drn_reward_model": reward,
             "objective": objective, "storm_property_on_drn": storm_prop, "sources": [spec["model"]],
             "storm_build_s": round(t_build, 3), "storm_check_s": round(t_check, 3),
             "qvbs_reference": ref,
             "drn_check": {"value": str(on_drn), "equal": on_drn == value, "storm_cpu_s": round(t_drn, 3)},
             "cli": {"model": f"src/{spec['model']}", "props": None,
                     "prop": spec["prop"], "const": spec["const"]}}
    if kind_of_model == "MA":
        entry["markovian_states"] = sparse.markovian_states.get_number_of_set_bits()
    if len(inits) > 1:
        entry["note"] = f"{len(inits)} initial states; the value is the largest over them"
    return entry


def short(v: str | None) -> str:
    if v is None:
        return "-"
    return v if len(v) <= 24 else f"{v[:12]}...({len(v)} chars)"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--qvbs", type=Path, required=False, default=None,
                    help="the QVBS repository's benchmarks folder (with ctmc/ and ma/)")
    ap.add_argument("--out", type=Path, default=Path("/tmp/qvbs_ct"))
    ap.add_argument("--only", default=None)
    ap.add_argument("--timeout", type=float, default=120.0, help="CPU seconds for Storm's exact build + check "
                    "on the source (default 120); the instance's process may take 2.5 times that with the DRN check")
    ap.add_argument("--list", action="store_true")
    ap.add_argument("--one", default=None, help=argparse.SUPPRESS)  # internal: build one instance, print its entry
    args = ap.parse_args(argv)
    specs = instances()
    if args.list:
        for n, s in specs.items():
            print(f"{n:<30} {s['folder'] + '/' + s['model']:<48} {s['prop']:<24} {s['const']:<28} "
                  f"{'skipped: ' + s['skip'] if s['skip'] else ''}")
        return 0
    if args.qvbs is None:
        ap.error("--qvbs DIR is required (the benchmarks folder of a clone of https://github.com/ahartmanns/qcomp)")
    qdir = args.qvbs.resolve()
    if not (qdir / "ctmc").is_dir() or not (qdir / "ma").is_dir():
        ap.error(f"{qdir} has no ctmc/ and ma/ folders")
    out = args.out.resolve()
    if "/shared/" in str(out) + "/":
        print("qvbs_continuous.py: refusing to write into the shared folder", file=sys.stderr)
        return 2
    out.mkdir(parents=True, exist_ok=True)
    if args.one:
        print("ENTRY " + json.dumps(build_one(args.one, specs[args.one], qdir, out, args.timeout)))
        return 0
    names = [n for n, s in specs.items() if not s["skip"]] if not args.only else [w.strip() for w in args.only.split(",") if w.strip()]
    index_path = out / "index.json"
    index = json.loads(index_path.read_text(encoding="utf-8")) if index_path.is_file() else []
    by_name = {e["name"]: e for e in index}
    for n in names:
        t0 = time.monotonic()
        cmd = [sys.executable, __file__, "--one", n, "--out", str(out), "--qvbs", str(qdir)]
        cpu_limit = int(2.5 * args.timeout) + 5  # the source's build + check, then the check on the DRN

        def limit():
            resource.setrlimit(resource.RLIMIT_CPU, (cpu_limit, cpu_limit + 5))

        p = None
        try:
            p = subprocess.run(cmd + ["--timeout", str(args.timeout)], capture_output=True, text=True,
                               timeout=4 * cpu_limit, preexec_fn=limit)
            killed = p.returncode in (-signal.SIGXCPU, -signal.SIGKILL) or "OVER-TIME" in p.stdout
        except subprocess.TimeoutExpired:
            killed = True
        if killed:
            why = (p.stdout.split("OVER-TIME", 1)[1].strip() if p is not None and "OVER-TIME" in p.stdout else f"killed at {cpu_limit} s CPU (or {4 * cpu_limit} s wall)")
            print(f"{n:<30} SKIPPED: Storm's exact build + check on the source over {args.timeout:g} s CPU ({why})",
                  flush=True)
            by_name.pop(n, None)
            for leftover in (out / f"{n}.drn", out / f"{n}.drn.gz"):
                leftover.unlink(missing_ok=True)
            continue
        lines = [ln for ln in p.stdout.splitlines() if ln.startswith("ENTRY ")]
        if p.returncode != 0 or not lines:
            err = [ln for ln in (p.stderr + "\n" + p.stdout).splitlines() if ln.strip() and "WARN" not in ln]
            print(f"{n:<30} FAILED: {(err or ['?'])[-1][:300]}", flush=True)
            by_name.pop(n, None)
            continue
        e = json.loads(lines[-1][6:])
        by_name[n] = e
        ref = e["qvbs_reference"]
        refcmp = "no QVBS ref" if ref is None else ("= QVBS" if ref == e["exact_value"] else f"QVBS {short(ref)}")
        print(f"{n:<30} {e['type']:<4} {e['states_built_by_stormpy']:>8,} st  build {e['storm_build_s']:7.2f}s  "
              f"check {e['storm_check_s']:7.2f}s  drn {e['drn_check']['storm_cpu_s']:6.2f}s "
              f"{'same' if e['drn_check']['equal'] else 'DIFFERENT: ' + short(e['drn_check']['value'])}  "
              f"({time.monotonic() - t0:5.1f}s wall)  {e['objective']}  {short(e['exact_value'])}  {refcmp}", flush=True)
        order = list(specs)
        index_path.write_text(json.dumps(sorted(by_name.values(), key=lambda x: order.index(x["name"])
                                                if x["name"] in order else len(order)), indent=1) + "\n",
                              encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
