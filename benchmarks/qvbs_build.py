"""Build more QVBS instances (other constants, other properties) in the format of ``../shared/benchmarks/qvbs``.

The 12 instances in the shared folder are a sample; this script makes others from the same QVBS
sources (``../shared/benchmarks/qvbs/src/``), in the same format, so that ``benchmarks/qvbs.py --dir
OUT`` measures exactplay against Storm's exact engine on them:

  * ``NAME.drn.gz``: the model built exactly by stormpy 2.0 (``build_model[stormpy.Rational]`` with the
    property, so its labels and reward model are kept), the property's target states labelled
    ``xgoal`` (the states satisfying ``phi`` of ``F phi``, or ``psi`` of ``phi U psi``), an until's
    avoided states (those not satisfying ``phi``) labelled ``xavoid``, exported by
    ``stormpy.io.export_to_drn`` (rational values);
  * ``index.json``: one entry per instance with the fields of the shared index (constants, the QVBS
    property name and formula, states, ``exact_value``, ``storm_property_on_drn``, the exactplay
    ``objective`` and labels, ``sources``, ``cli``).

The exact value is Storm's exact engine (``environments.exact()``, topological min-max) on the SOURCE
model with the property (not on the DRN), the largest over the initial states (herman marks all
states initial, as QVBS's ``filter(max, ..., "init")``).  A DTMC's ``P=?`` / ``R=?`` becomes ``Pmin`` /
``Rmin`` (the same on a DTMC).  Where a QVBS source fixes a constant in its text (herman's ring size,
leader_sync's N and K, consensus's N), the variant is generated from the text into the output folder
(``src/``) and named in ``sources``.  Each instance is built in its own process with a time limit
(``--timeout``, default 120 s of wall clock for build + Storm's check); one that exceeds it is skipped
and reported.

    python3 benchmarks/qvbs_build.py [--out /tmp/qvbs_more] [--only NAME[,NAME]] [--timeout S] [--keep-unchecked] [--list]

Never writes into the shared folder.

Measured 2026-12-03 14:19-14:29 UTC (branch more32 at 75087f5, src last changed at f793b11; the 2 shared cores'
load average 3.8 at the start, 1.4 at the end: other developers' benchmarks; stormpy 2.0.0, Python 3.11.7),
``benchmarks/qvbs.py --dir /tmp/qvbs_more --repeat 2 --timeout 150`` on the folder this script built (CPU seconds
of whole processes, DRN read included, minimum of 2 interleaved runs; property = QVBS name and exactplay
objective; value: exactplay's equal to Storm's exact value on the source)::

    name                   constants                property              states exactplay    storm  ratio  value
    brp-16-2-p1            N=16,MAX=2               p1 Pmin                  613    0.105s   0.126s  0.84x  exact
    brp-256-5-p1           N=256,MAX=5              p1 Pmin               19,720    0.731s   1.529s  0.48x  exact
    brp-64-4-p2            N=64,MAX=4               p2 Pmin                4,355    0.146s   0.198s  0.74x  exact
    brp-128-3-p4           N=128,MAX=3              p4 Pmin                7,044    0.151s   0.169s  0.89x  exact
    crowds-3-5             TotalRuns=3,CrowdSize=5  positive Pmin          1,145    0.118s   0.151s  0.78x  exact
    crowds-5-15            TotalRuns=5,CrowdSize=15 positive Pmin        572,153    9.795s   6.406s  1.53x  exact
    crowds-4-20            TotalRuns=4,CrowdSize=20 positive Pmin        329,470    5.600s   4.194s  1.34x  exact
    crowds-6-10            TotalRuns=6,CrowdSize=10 positive Pmin        321,751    4.699s   3.458s  1.36x  exact
    herman-7               (ring 7)                 steps Rmin               128    0.153s   0.184s  0.83x  exact
    herman-11              (ring 11)                steps Rmin             2,048    1.234s  TIMEOUT      -  (no ref)
    herman-13              (ring 13)                steps Rmin             8,192   40.871s  TIMEOUT      -  (no ref)
    leader_sync-3-4        (N-K 3-4)                time Rmin                147    0.106s   0.126s  0.84x  exact
    leader_sync-4-8        (N-K 4-8)                time Rmin             12,400    0.182s   0.211s  0.86x  exact
    leader_sync-6-3        (N-K 6-3)                time Rmin              3,759    0.137s   0.274s  0.50x  exact
    leader_sync-5-6        (N-K 5-6)                time Rmin             31,383    0.343s   1.913s  0.18x  exact
    leader_sync-6-4        (N-K 6-4)                time Rmin             20,884    0.277s   3.170s  0.09x  exact
    coupon-5-2-collect     B=5                      collect_all Pmin       5,397    0.161s   0.153s  1.05x  exact
    beb-3-4-N4-gaveup      N=4                      GaveUp Pmax           11,577    0.179s   0.236s  0.76x  exact
    beb-3-4-N5             N=5                      LineSeized Pmax       23,425    0.268s   0.309s  0.87x  exact
    consensus-4-2-c2       K=2                      c2 Pmin               22,656    0.993s   0.471s  2.11x  exact
    consensus-4-4-disagree K=4                      disagree Pmax         43,136    2.288s   6.155s  0.37x  exact
    consensus-4-2-smax     K=2                      steps_max Rmax        22,656    1.112s   0.927s  1.20x  exact
    consensus-4-8-smin     K=8                      steps_min Rmin        84,096    3.645s   6.635s  0.55x  exact
    csma-3-2-abmax         -                        all_before_max Pmax   36,850    0.367s   0.270s  1.36x  exact
    csma-3-2-some          -                        some_before Pmin      33,808    0.413s   0.262s  1.58x  exact
    csma-3-2-tmin          -                        time_min Rmin         36,850    0.495s   0.387s  1.28x  exact
    csma-3-2-tmax          -                        time_max Rmax         36,850    0.492s   0.360s  1.37x  exact
    eajs-2-e150            energy_capacity=150,B=5  ExpUtil Rmax          22,878    0.302s   0.283s  1.07x  exact
    eajs-2-e50             energy_capacity=50,B=5   ExpUtil Rmax           3,226    0.132s   0.161s  0.82x  exact
    echoring-1-maxoff1     ITERATIONS=1             MaxOffline1 Pmax      63,233    0.844s   0.349s  2.42x  exact
    echoring-2-minoff2     ITERATIONS=2             MinOffline2 Pmin     108,115    1.371s   0.495s  2.77x  exact
    echoring-3-minfailed   ITERATIONS=3             MinFailed Pmin       148,566    1.770s   0.758s  2.33x  exact

    ratio exactplay/storm over 30 of 32 rows: median 0.88x, worst 2.77x (echoring-2-minoff2), below 1.0: 16
    start-up: import exactplay.cli.main 0.069 s, import stormpy 0.126 s

Every value exact and equal to Storm's (Storm's too); no crash, no refusal on the DRN files.  herman 11 and 13
(dense cycles): Storm's exact engine timed out (150 s; it also did not finish within 150 s in the build), exactplay
1.2 s and 40.9 s (805 MB; almost all of it python-flint's dense rational solve of the 3,432-state component).
The worst rows are echoring (DRN reading about half of exactplay's time) and consensus c2 (float guess with
numpy's import, exact evaluation and the min reply, all of similar size).  Exactplay on the QVBS sources
themselves (``solve --model SRC --props ... --prop ... --const ...``, every instance here and the shared 12)
gives the same values; it refused beb's and echoring's JANI files (a UTF-8 byte-order mark) and eajs with its
QVBS parameter B (declared in eajs.props), both fixed on this branch (38aea6c, f793b11).
"""

from __future__ import annotations

import argparse
import gzip
import json
import os
import re
import shutil
import subprocess
import sys
import time
from fractions import Fraction
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent


def shared_src() -> Path:
    candidates = [REPO.parent / "shared" / "benchmarks" / "qvbs" / "src"]
    try:
        common = subprocess.run(["git", "-C", str(REPO), "rev-parse", "--path-format=absolute", "--git-common-dir"],
                                capture_output=True, text=True, check=True).stdout.strip()
        candidates.append(Path(common).parent.parent / "shared" / "benchmarks" / "qvbs" / "src")
    except (OSError, subprocess.CalledProcessError):
        pass
    for c in candidates:
        if c.is_dir():
            return c
    return candidates[0]


# ---------------------------------------------------------------------------------------------------
# Generated variants of sources whose text fixes a size.

def herman_text(src: Path, n: int) -> str:
    """herman.9.prism with a ring of ``n`` processes (n odd)."""
    base = (src / "herman.9.prism").read_text(encoding="utf-8")
    head = base[:base.index("// module for process 1")]
    lines = [head, "// module for process 1", "module process1", "", "\tx1 : [0..1];", "",
             f"\t[step]  (x1=x{n}) -> p : (x1'=0) + 1-p : (x1'=1);",
             f"\t[step] !(x1=x{n}) -> (x1'=x{n});", "", "endmodule", ""]
    for i in range(2, n + 1):
        lines.append(f"module process{i} = process1 [ x1=x{i}, x{n}=x{i - 1} ] endmodule")
    lines += ["", 'rewards "steps"', "\ttrue : 1;", "endrewards", "", "init", "\ttrue", "endinit", ""]
    tokens = "+".join(f"(x{i}=x{i % n + 1}?1:0)" for i in range(1, n + 1))
    lines += [f"formula num_tokens = {tokens};", "", 'label "stable" = num_tokens=1;', ""]
    return "\n".join(lines)


def leader_sync_text(n: int, k: int) -> str:
    """Itai & Rodeh's synchronous leader election (leader_sync.5-4.prism) for ``n`` processes, choice range ``k``."""
    us = "|".join(f"u{i}" for i in range(1, n + 1))
    picks = "\n\t             + ".join(f"1/K : (s1'=1) & (p1'={j}) & (v1'={j}) & (u1'=true)" for j in range(k))
    out = [f"""// synchronous leader election protocol  (itai & Rodeh), generated from leader_sync.5-4.prism
dtmc

const int N = {n};
const int K = {k};

module counter
	c : [1..N-1];
	[read] c<N-1 -> (c'=c+1);
	[read] c=N-1 -> (c'=c);
	[done] {us} -> (c'=c);
	[retry] !({us}) -> (c'=1);
	[loop] s1=3 -> (c'=c);
endmodule

module process1
	s1 : [0..3];
	u1 : bool;
	v1 : [0..K-1];
	p1 : [0..K-1];
	[pick] s1=0 -> {picks};
	[read] s1=1 &  u1 & c<N-1 -> (u1'=(p1!=v2)) & (v1'=v2);
	[read] s1=1 & !u1 & c<N-1 -> (u1'=false) & (v1'=v2) & (p1'=0);
	[read] s1=1 &  u1 & c=N-1 -> (s1'=2) & (u1'=(p1!=v2)) & (v1'=0) & (p1'=0);
	[read] s1=1 & !u1 & c=N-1 -> (s1'=2) & (u1'=false) & (v1'=0);
	[done] s1=2 -> (s1'=3) & (u1'=false) & (v1'=0) & (p1'=0);
	[retry] s1=2 -> (s1'=0) & (u1'=false) & (v1'=0) & (p1'=0);
	[loop] s1=3 -> (s1'=3);
endmodule
"""]
    for i in range(2, n + 1):
        nxt = i % n + 1
        out.append(f"module process{i} = process1 [ s1=s{i},p1=p{i},v1=v{i},u1=u{i},v2=v{nxt} ] endmodule")
    out += ["", 'rewards "num_rounds"', "\t[pick] true : 1;", "endrewards", "",
            'label "elected" = ' + "&".join(f"s{i}=3" for i in range(1, n + 1)) + ";", ""]
    return "\n".join(out)


# ---------------------------------------------------------------------------------------------------
# The instances: name -> (kind, source file (or generator), props file or None, property name, constants).

def instances() -> dict[str, dict]:
    I = {}

    def add(name, model, prop, const="", props=None, gen=None, note=None):
        I[name] = {"model": model, "props": props, "prop": prop, "const": const, "gen": gen, "note": note}

    # DTMCs
    add("brp-16-2-p1", "brp.prism", "p1", "N=16,MAX=2", props="brp.props")
    add("brp-256-5-p1", "brp.prism", "p1", "N=256,MAX=5", props="brp.props")
    add("brp-64-4-p2", "brp.prism", "p2", "N=64,MAX=4", props="brp.props")
    add("brp-128-3-p4", "brp.prism", "p4", "N=128,MAX=3", props="brp.props")
    add("crowds-3-5", "crowds.prism", "positive", "TotalRuns=3,CrowdSize=5", props="crowds.props")
    add("crowds-5-15", "crowds.prism", "positive", "TotalRuns=5,CrowdSize=15", props="crowds.props")
    add("crowds-4-20", "crowds.prism", "positive", "TotalRuns=4,CrowdSize=20", props="crowds.props")
    add("crowds-6-10", "crowds.prism", "positive", "TotalRuns=6,CrowdSize=10", props="crowds.props")
    add("herman-7", "herman.7.prism", "steps", props="herman.props", gen=("herman", 7))
    # herman 11 (2,048 states) and 13 (8,192): Storm's exact engine did not finish within 150 s (dense
    # cycles); kept with --keep-unchecked, without an exact value
    add("herman-11", "herman.11.prism", "steps", props="herman.props", gen=("herman", 11))
    add("herman-13", "herman.13.prism", "steps", props="herman.props", gen=("herman", 13))
    add("leader_sync-3-4", "leader_sync.3-4.prism", "time", props="leader_sync.props", gen=("leader_sync", 3, 4))
    add("leader_sync-4-8", "leader_sync.4-8.prism", "time", props="leader_sync.props", gen=("leader_sync", 4, 8))
    add("leader_sync-6-3", "leader_sync.6-3.prism", "time", props="leader_sync.props", gen=("leader_sync", 6, 3))
    add("leader_sync-5-6", "leader_sync.5-6.prism", "time", props="leader_sync.props", gen=("leader_sync", 5, 6))
    add("leader_sync-6-4", "leader_sync.6-4.prism", "time", props="leader_sync.props", gen=("leader_sync", 6, 4))
    add("coupon-5-2-collect", "coupon.5-2.jani", "collect_all", "B=5")  # B bounds collect_all_bounded only
    # MDPs
    add("beb-3-4-N4-gaveup", "beb.3-4.jani", "GaveUp", "N=4")
    add("beb-3-4-N5", "beb.3-4.jani", "LineSeized", "N=5")
    add("consensus-4-2-c2", "consensus.4.prism", "c2", "K=2", props="consensus.props")
    add("consensus-4-4-disagree", "consensus.4.prism", "disagree", "K=4", props="consensus.props")
    add("consensus-4-2-smax", "consensus.4.prism", "steps_max", "K=2", props="consensus.props")
    add("consensus-4-8-smin", "consensus.4.prism", "steps_min", "K=8", props="consensus.props")
    add("csma-3-2-abmax", "csma.3-2.prism", "all_before_max", props="csma.props")
    add("csma-3-2-some", "csma.3-2.prism", "some_before", props="csma.props")
    add("csma-3-2-tmin", "csma.3-2.prism", "time_min", props="csma.props")
    add("csma-3-2-tmax", "csma.3-2.prism", "time_max", props="csma.props")
    add("eajs-2-e150", "eajs.2.prism", "ExpUtil", "energy_capacity=150,B=5", props="eajs.props")
    add("eajs-2-e50", "eajs.2.prism", "ExpUtil", "energy_capacity=50,B=5", props="eajs.props")
    add("echoring-1-maxoff1", "echoring.jani", "MaxOffline1", "ITERATIONS=1")
    add("echoring-2-minoff2", "echoring.jani", "MinOffline2", "ITERATIONS=2")
    add("echoring-3-minfailed", "echoring.jani", "MinFailed", "ITERATIONS=3")
    return I


# ---------------------------------------------------------------------------------------------------
# One instance, built in its own process.

def to_fraction(v) -> Fraction:
    """Storm's exact value as a Fraction; anything but a stormpy Rational (a float) stops the run."""
    import stormpy

    if not isinstance(v, stormpy.Rational):
        raise SystemExit(f"Storm's value {v!r} is a {type(v).__name__}, not a stormpy Rational")
    return Fraction(int(str(v.numerator)), int(str(v.denominator)))


def label_targets(stormpy, sparse, formula, name: str) -> str | None:
    """Label the states of ``F phi`` / ``psi U phi``'s target ``xgoal`` (and the states outside ``psi``
    ``xavoid``) in the built model; return ``"xavoid"`` or None."""
    path = formula.subformula
    if path.is_until_formula:
        goal_f, stay_f = path.right_subformula, path.left_subformula
    elif path.is_eventually_formula:
        goal_f, stay_f = path.subformula, None
    else:
        raise SystemExit(f"{name}: not an until or eventually formula: {formula}")
    goal = stormpy.model_checking(sparse, goal_f).get_truth_values_vector()
    labeling = sparse.labeling
    labeling.add_label("xgoal")
    for s in range(sparse.nr_states):
        if goal[s]:
            labeling.add_label_to_state("xgoal", s)
    if stay_f is None:
        return None
    stay = stormpy.model_checking(sparse, stay_f).get_truth_values_vector()
    labeling.add_label("xavoid")
    for s in range(sparse.nr_states):
        if not stay[s]:
            labeling.add_label_to_state("xavoid", s)
    return "xavoid"


def build_one(name: str, spec: dict, src: Path, out: Path, check: bool = True) -> dict:
    import stormpy
    from stormpy import environments as E

    sys.set_int_max_str_digits(0)  # brp's exact values have thousands of digits

    t0 = time.process_time()
    sources = [spec["model"]] + ([spec["props"]] if spec["props"] else [])
    model_path = src / spec["model"]
    if spec["gen"]:
        gsrc = out / "src"
        gsrc.mkdir(parents=True, exist_ok=True)
        model_path = gsrc / spec["model"]
        if spec["gen"][0] == "herman":
            model_path.write_text(herman_text(src, spec["gen"][1]), encoding="utf-8")
        else:
            model_path.write_text(leader_sync_text(*spec["gen"][1:]), encoding="utf-8")
        sources[0] = "src/" + spec["model"] + " (generated)"
    if model_path.suffix == ".jani":
        model, props = stormpy.parse_jani_model(str(model_path), property_filter=[spec["prop"]])
    else:
        model = stormpy.parse_prism_program(str(model_path))
        props = stormpy.parse_properties((src / spec["props"]).read_text(encoding="utf-8"), model,
                                         property_filter=[spec["prop"]])
    if len(props) != 1:
        raise SystemExit(f"{name}: property {spec['prop']} not found")
    if spec["const"]:
        model, props = stormpy.instantiate_constants(model, spec["const"], props)
    formula = props[0].get_raw_formula()
    qvbs_formula = str(formula)
    # herman's filter(max, R=? [F "stable"], "init"): the inner formula, the maximum over the initial states
    while not (formula.is_probability_operator_formula or formula.is_reward_operator_formula):
        formula = formula.subformula
    sparse = stormpy.build_model[stormpy.Rational](model, props if str(formula) == qvbs_formula else
                                                  stormpy.parse_properties(str(formula), model))
    t_build = time.process_time() - t0

    env = E.exact()
    env.solver().min_max().method = E.MinMaxMethod.TOPOLOGICAL
    t1 = time.process_time()
    inits = list(sparse.initial_states)
    value = None
    if check:
        result = stormpy.model_checking(sparse, formula, environment=env)
        value = max(to_fraction(result.get_value(s)) for s in inits)
    t_check = time.process_time() - t1

    avoid_label = label_targets(stormpy, sparse, formula, name)
    reward = None
    if formula.is_reward_operator_formula:
        reward = formula.reward_name if formula.has_reward_model_name() else next(iter(sparse.reward_models))
    is_dtmc = sparse.model_type == stormpy.models.ModelType.DTMC if hasattr(stormpy.models, "ModelType") else \
        "DTMC" in type(sparse).__name__
    kind = "P" if formula.is_probability_operator_formula else "R"
    if formula.has_optimality_type:
        opt = "max" if "max" in str(formula.optimality_type).lower() else "min"
    else:
        opt = "min"  # a DTMC: min and max coincide
    objective = kind + opt
    op = f'R{{"{reward}"}}{opt}=?' if kind == "R" else f"P{opt}=?"
    storm_prop = f'{op} [!"xavoid" U "xgoal"]' if avoid_label else f'{op} [F "xgoal"]'

    drn = out / f"{name}.drn"
    stormpy.io.export_to_drn(sparse, str(drn))
    with open(drn, "rb") as f_in, gzip.open(str(drn) + ".gz", "wb", compresslevel=6) as f_out:
        shutil.copyfileobj(f_in, f_out)
    drn.unlink()
    cli_model = ("src/" + spec["model"]) if not spec["gen"] else str(model_path)
    entry = {"name": name, "qvbs_file": spec["model"], "constants": spec["const"], "qvbs_property": spec["prop"],
             "formula": qvbs_formula, "type": "DTMC" if is_dtmc else "MDP",
             "states_built_by_stormpy": sparse.nr_states, "choices": sparse.nr_choices,
             "initial_states": len(inits), "exact_value": None if value is None else str(value),
             "drn": f"{name}.drn.gz",
             "drn_target_label": "xgoal", "drn_avoid_label": avoid_label, "drn_reward_model": reward,
             "objective": objective, "storm_property_on_drn": storm_prop, "sources": sources,
             "storm_build_s": round(t_build, 3), "storm_check_s": round(t_check, 3),
             "cli": {"model": cli_model, "props": ("src/" + spec["props"]) if spec["props"] else None,
                     "prop": spec["prop"], "const": spec["const"]}}
    if len(inits) > 1:
        entry["note"] = f"{len(inits)} initial states; the value is the largest over them"
    return entry


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--out", type=Path, default=Path("/tmp/qvbs_more"))
    ap.add_argument("--src", type=Path, default=None, help="the QVBS sources (default ../shared/benchmarks/qvbs/src)")
    ap.add_argument("--only", default=None)
    ap.add_argument("--timeout", type=float, default=120.0)
    ap.add_argument("--list", action="store_true")
    ap.add_argument("--one", default=None, help=argparse.SUPPRESS)  # internal: build one instance, print its entry
    ap.add_argument("--no-check", action="store_true", help=argparse.SUPPRESS)  # internal: without Storm's value
    ap.add_argument("--keep-unchecked", action="store_true", help="an instance whose Storm check exceeds --timeout "
                    "is built again without it and kept, with no exact value (the benchmark's row: '?')")
    args = ap.parse_args(argv)
    src = (args.src or shared_src()).resolve()
    out = args.out.resolve()
    if str(out).startswith(str(src.parent)) or "/shared/" in str(out) + "/":
        print("qvbs_build.py: refusing to write into the shared folder", file=sys.stderr)
        return 2
    specs = instances()
    if args.list:
        for n, s in specs.items():
            print(f"{n:<26} {s['model']:<22} {s['prop']:<16} {s['const']}")
        return 0
    out.mkdir(parents=True, exist_ok=True)
    if args.one:
        print("ENTRY " + json.dumps(build_one(args.one, specs[args.one], src, out, check=not args.no_check)))
        return 0
    names = list(specs) if not args.only else [w.strip() for w in args.only.split(",") if w.strip()]
    index_path = out / "index.json"
    index = json.loads(index_path.read_text(encoding="utf-8")) if index_path.is_file() else []
    by_name = {e["name"]: e for e in index}
    for n in names:
        t0 = time.monotonic()
        cmd = [sys.executable, __file__, "--one", n, "--out", str(out), "--src", str(src)]
        note = None
        try:
            p = subprocess.run(cmd, capture_output=True, text=True, timeout=args.timeout)
        except subprocess.TimeoutExpired:
            if not args.keep_unchecked:
                print(f"{n:<26} SKIPPED: build + Storm's exact check over {args.timeout:g} s", flush=True)
                by_name.pop(n, None)
                continue
            note = f"Storm's exact engine did not finish within {args.timeout:g} s (wall clock): no exact value"
            p = subprocess.run(cmd + ["--no-check"], capture_output=True, text=True)
        lines = [ln for ln in p.stdout.splitlines() if ln.startswith("ENTRY ")]
        if p.returncode != 0 or not lines:
            err = [ln for ln in p.stderr.splitlines() if ln.strip() and "WARN" not in ln]
            print(f"{n:<26} FAILED: {(err or ['?'])[-1][:200]}", flush=True)
            by_name.pop(n, None)
            continue
        e = json.loads(lines[-1][6:])
        if note:
            e["note"] = (e["note"] + "; " if e.get("note") else "") + note
        by_name[n] = e
        v = e["exact_value"] or "(none: Storm too slow)"
        print(f"{n:<26} {e['type']:<5} {e['states_built_by_stormpy']:>8,} states  build {e['storm_build_s']:7.2f}s  "
              f"check {e['storm_check_s']:7.2f}s  ({time.monotonic() - t0:5.1f}s wall)  {e['objective']}  "
              f"{v if len(v) < 40 else v[:20] + '...(' + str(len(v)) + ' chars)'}", flush=True)
        order = list(specs)
        index_path.write_text(json.dumps(sorted(by_name.values(), key=lambda x: order.index(x["name"])
                                                if x["name"] in order else len(order)), indent=1) + "\n",
                              encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
