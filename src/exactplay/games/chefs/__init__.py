"""Chef Showdown (Project Euler 481): exact winner vectors, E(n), ties.

n chefs sit in a cycle; chef k eliminates the opponent it chooses with
probability S(k).  The mover maximises its own eventual winning probability,
which only depends on the success branch::

    target(M, t) = argmax_{j in M, j != t}  W_{M\\{j}, next_{M\\{j}}(t)}(t)

ties broken by the smallest positive cyclic distance from t (the seed's rule) --
or, to test whether the answer depends on it, the largest.  Each turn is one
dish; ``E(n) = D_{{1..n}, 1}`` with ``S(k) = F_k / F_{n+1}``.

* :mod:`.chefs_cycle` -- the seed's closed-form cycle recurrence over a backend:
  in ``float`` the published solver, in ``mpq``/``Fraction`` the exact reference;
* :mod:`.chefs_fast` -- the same recurrence in integer numerators over one
  denominator per alive set (the fast exact solver, used for ``--backend mpq``;
  ``--backend fraction`` runs the reference recurrence instead, see :data:`BACKEND_HELP`);
* :mod:`.chefs_bound` -- the a-priori error bound of the float solver;
* :mod:`.chefs_brute` -- the whole game as one linear system, strategies, simulation;
* :mod:`.chefs_claims` -- the seed's claims and their checks;
* this module -- parameters, solve / audit / certify.

Findings: every published number holds, but the answer depends on the tie rule
(E(7) = 42.28176050 nearest, 41.94526778 farthest; chefs 1 and 2 have the same
skill F_1 = F_2, so exact ties occur in every n >= 3: 2965 tied states at n = 14,
where E(14) = 729.12106947 nearest and 728.80122255 farthest).  The seed's memory
claim is refuted (two layers suffice) and its time bound only counts operations:
the exact values have ~2.2-2.9x more bits per extra chef (517,897-bit
denominators at n = 14), so the exact time grows ~3-6x per chef.

Speed (benchmarks/chefs.py): E(14) in ~15 s and ~0.75 GB with :mod:`.chefs_fast`
against ~110 s for the seed's recurrence in mpq (two layers) -- no gcd per
operation, one denominator per alive set, target choice by proved enclosures.
"""

from __future__ import annotations

import hashlib
from fractions import Fraction

try:
    from gmpy2 import mpq, mpz
except ImportError:  # the fraction backend still works; mpq is refused by get_backend
    mpq, mpz = None, int

from exactplay.audit import audit_decisions, audit_values, rounding_report
from exactplay.certificate import build_certificate
from exactplay.errors import UsageError
from exactplay.numbers import Backend, format_pq, get_backend, read_int, read_rational
from exactplay.progress import SILENT
from exactplay.render import exact_number
from exactplay.games import Game, Param, Report, heavy_note
from exactplay.games.chefs import cycle
from exactplay.games.chefs import fast
from exactplay.games.chefs.bound import a_priori_bounds
from exactplay.games.chefs.skills import fibonacci, fibonacci_skills, float_skills  # noqa: F401  (re-exported)

# Exact values here have up to ~160,000 decimal digits (n = 14); Python 3.11 refuses
# to print integers beyond 4300 digits unless told otherwise.

MIN_N = 2
MAX_N = 16  # solve (the fast solver): measured in benchmarks/bigexact.py
# certify stops at 15: the stdlib checker rebuilds every value from the policy (n = 14: 15 s of CPU
# and 0.69 GB with gmpy2), ~4-5x the time and ~3x the memory per chef; checker/_bounds.py agrees
MAX_CERTIFY_N = 15
# audit (and its value tables) runs the reference recurrence keeping every layer: ~3.6 min and
# 2.2 GB at n = 14, each chef ~4.5x the time and ~2-3x the memory, so it stops here
MAX_AUDIT_N = 15
DEFAULT_N = 14
FULL_TABLE_MAX_N = 8
SLOW_CHECK_N = 13  # certificates from here on take the stdlib checker minutes  # certificates store every value up to here, policy + digest above


# ------------------------------------------------------------------ parameters


def parse_n(text: str) -> int:
    n = read_int(text, "n (the number of chefs)")
    if n < MIN_N:
        raise UsageError(f"n must be at least {MIN_N} chefs, got {n}")
    if n > MAX_N:
        raise UsageError(f"n {n} is beyond the supported limit {MAX_N} (cost grows ~4.5x per chef)")
    return n


def _audit_limit(n: int, command: str = "audit") -> None:
    if command == "audit" and n > MAX_AUDIT_N:
        raise UsageError(f"chefs audit keeps every layer of the reference recurrence: n {n} is beyond its limit "
                         f"{MAX_AUDIT_N} (solve goes to {MAX_N})")
    if command == "certify" and n > MAX_CERTIFY_N:
        raise UsageError(f"chefs certify: n {n} is beyond its limit {MAX_CERTIFY_N}, what the checker verifies "
                         f"in minutes (solve goes to {MAX_N})")


def parse_skill(text: str) -> Fraction:
    """One skill: ``p/q``, an integer or a decimal, read exactly; must lie in (0, 1]."""
    t = text.strip()
    if len(t.split()) > 1:
        raise UsageError(f"skills {t[:40]!r}: separate the skills with commas, e.g. 1/4,1/2,1")
    value = read_rational(t, "skill")
    _check_skill(value, t)
    return value


def _check_skill(value: Fraction, shown=None) -> None:
    """A skill is a chef's probability of success: in (0, 1], with a reason that fits the value."""
    shown = value if shown is None else shown
    if value == 0:
        raise UsageError(f"skill {shown} is outside (0, 1]: a chef of skill 0 never succeeds")
    if value < 0:
        raise UsageError(f"skill {shown} is outside (0, 1]: a skill is a probability, not negative")
    if value > 1:
        raise UsageError(f"skill {shown} is outside (0, 1]: a skill is a probability, at most 1")


def parse_skills(text: str) -> tuple[Fraction, ...]:
    """A comma-separated list of skills, e.g. ``1/4,1/2,1``."""
    if isinstance(text, (list, tuple)):
        text = ",".join(text)
    parts = [p for p in str(text).split(",")]
    if not parts or any(not p.strip() for p in parts):
        raise UsageError(f"skills must be a comma-separated list like 1/4,1/2,1, got {text!r}")
    return tuple(parse_skill(p) for p in parts)


def instance(n: int | None = None, skills=None) -> tuple[int, tuple[Fraction, ...], bool]:
    """Resolve and validate ``(n, skills, fibonacci?)``; one-line UsageError otherwise."""
    if skills is None:
        n = DEFAULT_N if n is None else n
        parse_n(str(n))
        return n, fibonacci_skills(n), True
    if isinstance(skills, str):
        skills = parse_skills(skills)
    skills = tuple(parse_skill(str(s)) if not isinstance(s, Fraction) else s for s in skills)
    for s in skills:
        _check_skill(s)
    if n is None:
        n = len(skills)
        if not MIN_N <= n <= MAX_N:
            raise UsageError(f"--skills lists {n} chef{'s' * (n != 1)}: give {MIN_N} to {MAX_N} skills, one per chef")
    parse_n(str(n))
    if len(skills) != n:
        raise UsageError(f"--skills lists {len(skills)} skills but n is {n}: give exactly one skill per chef")
    return n, skills, skills == fibonacci_skills(n)


def in_backend(B: Backend, skills) -> list:
    return [B.q(s.numerator, s.denominator) for s in skills]


# ------------------------------------------------------------------ exact solving


def solve_exact(skills, backend: Backend | str = "mpq", tie: str = "nearest", progress=SILENT, solver=None):
    """The exact solution: the fast integer solver for ``mpq`` (``solver``, default
    :func:`fast.solve_fast`; ``exactplay.distributed`` has one on Dask), the reference
    recurrence in ``Fraction`` otherwise.  Both expose ``E``, ``W1``, ``ties``, ``full``."""
    B = get_backend(backend)
    if not B.exact:
        raise UsageError("solve_exact needs an exact backend")
    if B.name == "mpq":
        return (solver or fast.solve_fast)(list(skills), tie=tie, progress=progress)
    return cycle.solve(in_backend(B, skills), B, tie=tie, progress=progress)


def chef_set(mask: int) -> str:
    """An alive set as text, chefs numbered from 1: ``{1,2,3}``."""
    return "{" + ",".join(str(i + 1) for i in cycle.members(mask)) + "}"


def _tie_json(ties, limit: int = 20) -> list:
    return [{"alive": chef_set(m), "mover": t + 1, "tied_targets": [j + 1 for j in js]} for m, t, js in ties[:limit]]


def _params(n: int, skills, fib: bool) -> dict:
    return {"n": n, "skills": "fibonacci" if fib else ",".join(format_pq(s) for s in skills)}


def pq(x) -> str:
    """:func:`format_pq`, fast for huge values: an mpq is already in lowest terms and
    GMP prints it in subquadratic time (``Fraction`` would redo a quadratic gcd)."""
    if mpq is not None and type(x) is type(mpq(0)):
        return f"{x.numerator}/{x.denominator}"
    return format_pq(x)


def decimal_text(x, digits: int) -> str:
    """``x`` correctly rounded to ``digits`` decimals, ties to even (as
    :func:`exactplay.audit.decimal_digits`), in GMP integer arithmetic."""
    num, den = mpz(x.numerator), mpz(x.denominator)
    q, r = divmod(abs(num) * 10**digits, den)
    if 2 * r > den or (2 * r == den and q % 2 == 1):
        q += 1
    sign = "-" if num < 0 and q else ""
    text = str(q).rjust(digits + 1, "0")
    return f"{sign}{text[:-digits]}.{text[-digits:]}" if digits > 0 else f"{sign}{text}"


def _decimals(xs, digits: int) -> list[str]:
    return [decimal_text(x, digits) for x in xs]


# ------------------------------------------------------------------ solve


def solve(n: int | None = None, skills=None, backend: Backend | str = "mpq", digits: int = 8, full: bool = False,
          progress=SILENT, solver=None) -> Report:
    n, skills, fib = instance(n, skills)
    sol = solve_exact(skills, backend, "nearest", progress, solver)
    E = sol.E
    answer, lines = exact_number(E, digits, full)
    W1 = list(sol.W1)
    targets = sol.full.target
    data = {
        "game": "chefs",
        "params": _params(n, skills, fib),
        "backend": get_backend(backend).name,
        "tie_rule": "nearest (smallest positive cyclic distance)",
        "answer_name": f"E({n})",
        "answer": answer,
        "winner_vector_chef1_first": {"values": [pq(x) for x in W1], "decimal": _decimals(W1, digits),
                                      "sum": pq(sum(W1))},
        "first_round_targets": [None if j is None else j + 1 for j in targets],
        "exact_ties": {"count": len(sol.ties), "first": _tie_json(sol.ties)},
    }
    out = [f"Chef Showdown, n = {n} ({'Fibonacci skills F_k/F_{n+1}' if fib else 'skills ' + data['params']['skills']}):"
           f" expected number of dishes E({n}) from the full table, chef 1 first"] + lines
    out.append("winner vector (chef 1 first): " + " ".join(_decimals(W1, digits)) + f"  (sum {pq(sum(W1))})")
    out.append("targets in the full table: " + ", ".join(
        f"chef {m + 1} -> {j + 1}" for m, j in zip(sol.full.members, targets) if j is not None))
    out.append(f"exact ties (best target not unique): {len(sol.ties)} states; the nearest target is taken "
               "(run `exactplay audit chefs` to see whether the answer depends on it)")
    return Report(data, out)


# ------------------------------------------------------------------ audit


def _state(mask: int, mover: int) -> tuple:
    return (chef_set(mask), mover + 1)


def _tables(sol: cycle.Solution):
    """W values, D values, candidates and choices of a kept solution, keyed by state."""
    W, D, cands, choice = {}, {}, {}, {}
    for q, layer in sol.layers.items():
        for mask, st in layer.items():
            for r, t in enumerate(st.members):
                s = _state(mask, t)
                D[s] = st.D[r]
                for k, i in enumerate(st.members):
                    W[s + (i + 1,)] = st.W[r][k]
                if q > 1:
                    cands[s] = {j + 1: v for j, v in st.cands[r].items()}
                    choice[s] = st.target[r] + 1
    return W, D, cands, choice


def run_audit(n=None, skills=None, backend: Backend | str = "mpq", digits: int = 8, progress=SILENT) -> dict:
    """Float solver vs the exact reference (all values and decisions), and both tie rules."""
    n, skills, fib = instance(n, skills)
    _audit_limit(n)
    B = get_backend(backend)
    flt = cycle.solve(float_skills(skills), "float", keep=True, keep_cands=True, progress=progress)
    ref = cycle.solve(in_backend(B, skills), B, keep=True, keep_cands=True, progress=progress)
    progress.start("rounding bounds of the float solver", None)
    bound_w, bound_d, label = a_priori_bounds(float_skills(skills), flt)
    progress.start("collecting the exact and float tables", None)
    eW, eD, ecands, _ = _tables(ref)
    fW, fD, fcands, fchoice = _tables(flt)
    del flt
    progress.start(f"comparing {len(eW):,} win probabilities and {len(eD):,} dish counts", None)
    values = audit_values(eW, fW, bound_w, label)
    dishes = audit_values(eD, fD, bound_d, label + "; dishes scaled by the largest D of each layer")
    progress.start("judging the float decisions", len(ecands))
    decisions = audit_decisions(ecands, fcands, fchoice, bound_w, progress=progress)
    E, fE = ref.E, fD[_state((1 << n) - 1, 0)]
    W1 = list(ref.W1)
    ties = list(ref.ties)
    del eW, fW, eD, fD, ecands, fcands, ref
    far = solve_exact(skills, B, "farthest", progress)  # the other tie rule
    return {
        "n": n, "skills": skills, "fib": fib,
        "values": values, "dishes": dishes, "decisions": decisions,
        "rounding": rounding_report(E, digits, fE, bound_d),
        "E": E, "W1": W1, "ties": ties,
        "E_far": far.E, "W1_far": list(far.W1), "ties_far": list(far.ties),
        "float_E": fE,
    }


def _tie_rule_json(r: dict, digits: int) -> dict:
    return {
        "nearest": {"E": pq(r["E"]), "E_decimal": _decimals([r["E"]], digits)[0],
                    "W": _decimals(r["W1"], digits), "exact_ties": len(r["ties"])},
        "farthest": {"E": pq(r["E_far"]), "E_decimal": _decimals([r["E_far"]], digits)[0],
                     "W": _decimals(r["W1_far"], digits), "exact_ties": len(r["ties_far"])},
        "E_depends_on_tie_rule": r["E"] != r["E_far"],
        "W_depends_on_tie_rule": r["W1"] != r["W1_far"],
        "ties_nearest_first": _tie_json(r["ties"]),
    }


def audit(n=None, skills=None, backend: Backend | str = "mpq", digits: int = 8, progress=SILENT) -> Report:
    r = run_audit(n, skills, backend, digits, progress)
    n = r["n"]
    values, dishes, decisions, rr = r["values"], r["dishes"], r["decisions"], r["rounding"]
    tr = _tie_rule_json(r, digits)
    data = {
        "game": "chefs",
        "params": _params(n, r["skills"], r["fib"]),
        "solver_under_audit": "published closed-form cycle solver in float, nearest-target tie rule on float comparisons",
        "winner_values": values.to_dict(),
        "dish_values": dishes.to_dict(),
        "decisions": decisions.to_dict(),
        "rounding": rr.to_dict(),
        "tie_rule": tr,
    }
    c = decisions.counts
    lines = [
        f"Audit of the published Chef Showdown solver, n = {n} ({values.cells} winner probabilities W_M,t(i), "
        f"{dishes.cells} expected dish counts D_M,t)",
        f"W max abs error : {values.max_abs:.3e} at {values.max_abs_at}; max ulps {values.max_ulps:.1f}",
        f"W a-priori bound: {values.bound:.3e} ({values.bound_label}); bound/measured "
        + ("inf (float table exact)" if values.bound_ratio is None else f"{values.bound_ratio:.1f}"),
        f"D max abs error : {dishes.max_abs:.3e} at {dishes.max_abs_at}; max rel {dishes.max_rel:.3e};"
        f" bound {dishes.bound:.3e}",
        "decisions       : " + ", ".join(f"{k} {v}" for k, v in c.items()),
        f"                  float choice differs from an exact best in {decisions.decisions_differ} states",
    ]
    if c["exact tie"]:
        lines.append(f"                  exact ties: the float solver's pick follows its float comparison, "
                     f"{decisions.unresolvable_on_best} unresolvable states still on an exact best")
    lines.append(
        f"E({n}): exact {rr.rounded}, float prints {rr.float_rounded} "
        f"({'agree' if rr.float_digits_agree else 'DIFFER'}); float digits "
        f"{'certain' if rr.float_digits_certain else 'NOT certain'} from the bound alone"
    )
    lines.append(
        f"tie rule: nearest E({n}) = {tr['nearest']['E_decimal']} ({tr['nearest']['exact_ties']} tied states), "
        f"farthest E({n}) = {tr['farthest']['E_decimal']} ({tr['farthest']['exact_ties']} tied states): "
        + ("E DEPENDS on the tie rule" if tr["E_depends_on_tie_rule"] else "E does not depend on the tie rule")
        + ("; W DEPENDS on it" if tr["W_depends_on_tie_rule"] else "; W does not depend on it")
    )
    lines.append("W (nearest) : " + " ".join(tr["nearest"]["W"]))
    lines.append("W (farthest): " + " ".join(tr["farthest"]["W"]))
    return Report(data, lines)


# ------------------------------------------------------------------ certify


def certify(n=None, skills=None, backend: Backend | str = "mpq", progress=SILENT, solver=None) -> dict:
    """Small n: every value; larger n: the policy (one target per state) and the answer.

    The checker rebuilds every value from the policy exactly and verifies it.
    """
    n, skills, fib = instance(n, skills)
    _audit_limit(n, "certify")
    full_table = n <= FULL_TABLE_MAX_N
    B = get_backend(backend)
    rows = []
    ties = []
    if full_table:
        sol = cycle.solve(in_backend(B, skills), B, keep=True, keep_cands=False, progress=progress)
        for q in range(1, n + 1):
            for mask, st in sol.layers[q].items():
                for r, t in enumerate(st.members):
                    tgt = -1 if st.target[r] is None else st.target[r] + 1
                    rows.append([mask, t + 1, tgt, format_pq(st.D[r])] + [format_pq(x) for x in st.W[r]])
        columns = ["alive_mask", "mover", "target", "D", "W(members in cyclic order)..."]
        E, W1, ties = sol.E, sol.W1, sol.ties
    else:
        policy = _policy_of(skills, B, progress, solver)
        progress.start("collecting the policy", None)
        for (mask, t), j in sorted(policy.pop("policy").items()):
            rows.append([mask, t + 1, j + 1])
        columns = ["alive_mask", "mover", "target"]
        E, W1, ties = policy["E"], policy["W1"], policy["ties"]
    progress.start(f"encoding {len(rows):,} certificate rows", None)
    answer, _ = exact_number(E, 8)
    W1 = list(W1)
    return build_certificate(
        game="chefs",
        params=_params(n, skills, fib),
        answer={"name": f"E({n})", **answer},
        columns=columns,
        rows=rows,
        policy={"tie_rule": "nearest", "stored_in": "table column 'target' (chef numbers from 1)"},
        smallest_gap=None,
        audit=None,
        notes=("alive_mask: bit i-1 set when chef i is alive; mover and target are chef numbers (1..n); "
               "target -1 when the mover is alone. "
               + ("Rows hold D and W_{M,mover}(m) for the members m of M in increasing order."
                  if full_table else "Values are not stored: the checker rebuilds them from the policy.")),
        extra={
            "skills": [format_pq(s) for s in skills],
            **_winner_fields(W1, full_table),
            "ties": [[m, t + 1, [j + 1 for j in js]] for m, t, js in ties],
            "full_table": full_table,
            # the independent (stdlib-only) checker needs minutes from n = 13 on (n = 14: ~4 min)
            "slow_check": n >= SLOW_CHECK_N,
        },
    )


def _policy_of(skills, B: Backend, progress=SILENT, solver=None) -> dict:
    """The optimal policy {(mask, mover): target}, E, W1 and the ties, by the solver
    ``--backend`` names: the fast integer solver for ``mpq``, the reference recurrence
    in ``Fraction`` (two layers at a time, the policy read off each layer) otherwise."""
    if B.name == "mpq":
        sol = (solver or fast.solve_fast)(list(skills), keep_policy=True, progress=progress)
        return {"policy": sol.policy, "E": sol.E, "W1": sol.W1, "ties": sol.ties}
    policy = {}

    def visit(q, layer):
        for mask, st in layer.items():
            for t, j in zip(st.members, st.target):
                if j is not None:
                    policy[(mask, t)] = j

    sol = cycle.solve(in_backend(B, skills), B, visit=visit, progress=progress)
    return {"policy": policy, "E": sol.E, "W1": sol.W1, "ties": sol.ties}


def _winner_fields(W1, full_table: bool) -> dict:
    """The winner vector in full for small n; else its decimals and the SHA-256 of
    ``",".join(p/q strings)`` (at n = 14 the exact vector alone is 2.5 MB)."""
    exact = [pq(x) for x in W1]
    if full_table:
        return {"winner_vector": exact}
    return {"winner_vector_decimal": _decimals(W1, 8),
            "winner_vector_sha256": hashlib.sha256(",".join(exact).encode("ascii")).hexdigest()}


# ------------------------------------------------------------------ the game

BACKEND_HELP = (
    "exact arithmetic, and with it the solver: mpq (default) runs the fast integer solver "
    "(targets chosen by proved enclosures, exact comparison where they overlap); fraction runs "
    "the plain reference recurrence in fractions.Fraction (an independent cross-check, several "
    "times slower). audit (its value tables) and certify for n <= 8 (every value stored) run the "
    "reference recurrence in the chosen backend"
)


# Measured (CPU seconds, peak MB) at n = 14 with mpq on the 2-core test machine (growth per chef:
# GROWTH_PER_CHEF).  The report solves every size 2..n twice (both tie rules).
# solve: benchmarks/bigexact.py with sets dropped as soon as they are read for the last time
# (11.2 s, 530 MB; n = 15: 53 s, 1.95 GB; n = 16: 259 s, 7.5 GB); certify, report: measured before that change (upper bounds)
HEAVY_AT_14 = {"solve": (11.2, 530), "certify": (13.0, 800), "audit": (217.0, 2110), "report": (37.0, 800)}
# --backend fraction runs the reference recurrence on Fractions instead of the fast integer
# solver: 14.9 s instead of 1.14 s for solve at n = 12 (the audit runs the reference recurrence
# with either backend)
FRACTION_SLOWDOWN = 13.0
# growth per extra chef (time, memory): the fast solver (benchmarks/bigexact.py, n = 12..16) and
# the reference recurrence (the audit, and --backend fraction)
GROWTH_PER_CHEF = {"fast": (4.8, 3.8), "reference": (4.5, 2.0)}


def heavy(command: str, params: dict) -> str | None:
    """A note for the CLI when ``command`` at these parameters takes about a minute or more."""
    skills = params.get("skills")
    n = params.get("n") or (len(parse_skills(skills)) if isinstance(skills, str) else len(skills or ()) or DEFAULT_N)
    if command in ("audit", "certify"):
        _audit_limit(n, command)
    seconds, mb = HEAVY_AT_14.get(command, HEAVY_AT_14["solve"])
    slower = params.get("backend") == "fraction" and command != "audit"
    time_growth, memory_growth = GROWTH_PER_CHEF["reference" if command == "audit" or slower else "fast"]
    seconds *= time_growth ** (n - 14) * (FRACTION_SLOWDOWN if slower else 1)
    return heavy_note(f"{command} chefs at n = {n}", seconds, mb * memory_growth ** (n - 14))


GAME = Game(
    name="chefs",
    title="Chef Showdown (Project Euler 481): exact winner vectors and E(n)",
    params=(
        Param("n", parse_n, None, f"number of chefs, {MIN_N}..{MAX_N} (default {DEFAULT_N}, or the length of --skills)"),
        Param("skills", parse_skills, None,
              "comma list of skills in (0,1], e.g. 1/4,1/2,1 (default Fibonacci F_k/F_{n+1})"),
    ),
    solve=solve,
    audit=audit,
    certify=certify,
    backend_help=BACKEND_HELP,
    heavy=heavy,
    description="Chefs in a cycle eliminate a chosen opponent with probability S(k); "
                "E(n) is the expected number of dishes.",
    proofs=(
        ("chefs-s-1_4-1_2-1.json", {"skills": "1/4,1/2,1"}),
        ("chefs-fib-3.json", {"n": 3}),
        ("chefs-fib-4.json", {"n": 4}),
        ("chefs-fib-7.json", {"n": 7}),
        ("chefs-fib-10.json", {"n": 10}),
        ("chefs-fib-12.json", {"n": 12}),
        ("chefs-fib-14.json", {"n": 14}),  # its check takes minutes: see the notes field
    ),
)

from exactplay.games.chefs.claims import CLAIMS  # noqa: E402, F401  (the claims use the functions above; the ledger reads CLAIMS here)
