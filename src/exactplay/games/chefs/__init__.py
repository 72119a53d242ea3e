"""Chef Showdown (Project Euler 481): exact winner vectors, E(n), ties.

n chefs sit in a cycle; chef k eliminates the opponent it chooses with
probability S(k).  The mover maximises its own eventual winning probability,
which only depends on the success branch::

    target(M, t) = argmax_{j in M, j != t}  W_{M\\{j}, next_{M\\{j}}(t)}(t)

ties broken by the smallest positive cyclic distance from t (the seed's rule) --
or, to test whether the answer depends on it, the largest.  Each turn is one
dish; ``E(n) = D_{{1..n}, 1}`` with ``S(k) = F_k / F_{n+1}``.

* :mod:`.cycle` -- the seed's closed-form cycle recurrence over a backend:
  in ``float`` the published solver, in ``mpq``/``Fraction`` the exact reference;
* :mod:`.fast` -- the same recurrence in integer numerators over one
  denominator per alive set (the fast exact solver, used for ``--backend mpq``;
  ``--backend fraction`` runs the reference recurrence instead, see :data:`BACKEND_HELP`);
* :mod:`.bound` -- the a-priori error bound of the float solver;
* :mod:`.brute` -- the whole game as one linear system and every strategy of a chef;
* :mod:`.claims` -- the seed's claims and their checks;
* this module -- parameters, solve / audit / certify.

Findings: every published number holds, but the answer depends on the tie rule
(E(7) = 42.28176050 nearest, 41.94526778 farthest; chefs 1 and 2 have the same
skill F_1 = F_2, so exact ties occur in every n >= 3: 2965 tied states at n = 14,
where E(14) = 729.12106947 nearest and 728.80122255 farthest).  The seed's memory
claim is refuted (two layers suffice) and its time bound only counts operations:
the exact values have ~2.2-2.9x more bits per extra chef (517,897-bit
denominators at n = 14), so the exact time grows ~3-6x per chef.

Speed (benchmarks/chefs.py): E(14) in ~15 s and ~0.75 GB with :mod:`.fast`
against ~110 s for the seed's recurrence in mpq (two layers) -- no gcd per
operation, one denominator per alive set, target choice by proved enclosures.
"""

from __future__ import annotations

try:
    from gmpy2 import mpq, mpz
except ImportError:  # the fraction backend still works; mpq is refused by get_backend
    mpq, mpz = None, int

from exactplay.numbers.backends import Backend, format_pq, get_backend
from exactplay.progress import SILENT
from exactplay.games import Game, Param, Report, game_model, heavy_note
from exactplay.present.render.solve import solve_report
from exactplay.solve_result import Decision, Fact, SolveResult
from exactplay.games.chefs import cycle  # noqa: F401 (its submodules, re-exported)
from exactplay.games.chefs import model
from exactplay.games.chefs import fast  # noqa: F401
from exactplay.games.chefs.skills import fibonacci, fibonacci_skills, float_skills  # noqa: F401  (re-exported)
from exactplay.games.chefs.audit import audit_result, run_audit  # noqa: F401
from exactplay.games.chefs.fmt import _decimals, decimal_text  # noqa: F401
from exactplay.games.chefs.instance import (DEFAULT_N, MAX_AUDIT_N, MAX_CERTIFY_N, MAX_N, MIN_N,  # noqa: F401
                                            _audit_limit, _params, _tie_json, chef_set, in_backend, instance,
                                            parse_n, parse_skill, parse_skills, solve_exact)


# ------------------------------------------------------------------ solve


def solve(n: int | None = None, skills=None, backend: Backend | str = "mpq", digits: int = 8, full: bool = False,
          progress=SILENT, solver=None) -> Report:
    n, skills, fib = instance(n, skills)
    sol = solve_exact(skills, backend, "nearest", progress, solver)
    return solve_report(solve_result(n, skills, fib, sol, get_backend(backend).name, digits, full))


def solve_result(n: int, skills, fib: bool, sol, backend: str, digits: int = 8, full: bool = False) -> SolveResult:
    """The solve of Chef Showdown from its exact solution under the nearest tie rule (``sol``)."""
    W1 = list(sol.W1)
    targets = sol.full.target
    params = _params(n, skills, fib)
    chef1 = dict(zip(sol.full.members, targets)).get(0)
    label = game_model("chefs")(n, skills).state_label  # the model's state names (games/chefs/model.py)
    first = [] if chef1 is None else [Decision(label(("hit", (1 << n) - 1, 0)), chef1,  # the model's action: 0-based
                                               text=f"target chef {chef1 + 1}")]
    decimals = _decimals(W1, digits)
    return SolveResult(
        "chefs", params, backend,
        f"Chef Showdown, n = {n} ({'Fibonacci skills F_k/F_{n+1}' if fib else 'skills ' + params['skills']}):"
        f" expected number of dishes E({n}) from the full table, chef 1 first",
        f"E({n})", sol.E, digits, full, decisions=first, facts=[
            Fact("tie_rule", None, "nearest (smallest positive cyclic distance)"),
            Fact("winner_vector_chef1_first", "winner vector (chef 1 first)",
                 {"values": [format_pq(x) for x in W1], "decimal": decimals, "sum": format_pq(sum(W1))},
                 " ".join(decimals) + f"  (sum {format_pq(sum(W1))})"),
            Fact("first_round_targets", "targets in the full table", [None if j is None else j + 1 for j in targets],
                 ", ".join(f"chef {m + 1} -> {j + 1}" for m, j in zip(sol.full.members, targets) if j is not None)),
            Fact("exact_ties", "exact ties (best target not unique)",
                 {"count": len(sol.ties), "first": _tie_json(sol.ties)},
                 f"{len(sol.ties)} states; the nearest target is taken (run `exactplay audit chefs` to see "
                 "whether the answer depends on it)")])


# ------------------------------------------------------------------ audit


def audit(n=None, skills=None, backend: Backend | str = "mpq", digits: int = 8, progress=SILENT):
    """The audit of the published float solver (an :class:`~exactplay.audit.result.AuditResult`)."""
    return audit_result(run_audit(n, skills, backend, digits, progress), digits)


# ------------------------------------------------------------------ the game

BACKEND_HELP = (
    "exact arithmetic, and with it the solver: mpq (default) runs the fast integer solver "
    "(targets chosen by proved enclosures, exact comparison where they overlap); fraction runs "
    "the plain reference recurrence in fractions.Fraction (an independent cross-check, several "
    "times slower). audit (its value tables) runs the reference recurrence in the chosen backend; "
    "certify solves the game's model with the engine in it"
)


# Measured (CPU seconds, peak MB) at n = 14 with mpq on the 2-core test machine (growth per chef:
# GROWTH_PER_CHEF).  The report solves every size 2..n twice (both tie rules).
# solve: benchmarks/bigexact.py with sets dropped as soon as they are read for the last time
# (11.2 s, 530 MB; n = 15: 53 s, 1.95 GB; n = 16: 259 s, 7.5 GB); report: measured before that change
# (an upper bound); certify: the game's model solved by the engine, every number kept (n = 12: 11 s,
# 0.39 GB; n = 14: 179 s, 2.8 GB: GROWTH_PER_CHEF["engine"])
HEAVY_AT_14 = {"solve": (11.2, 530), "certify": (179.0, 2760), "audit": (217.0, 2110), "report": (37.0, 800)}
# --backend fraction runs the reference recurrence on Fractions instead of the fast integer
# solver: 14.9 s instead of 1.14 s for solve at n = 12 (the audit runs the reference recurrence
# with either backend)
FRACTION_SLOWDOWN = 13.0
# growth per extra chef (time, memory): the fast solver (benchmarks/bigexact.py, n = 12..16) and
# the reference recurrence (the audit, and --backend fraction)
GROWTH_PER_CHEF = {"fast": (4.8, 3.8), "reference": (4.5, 2.0), "engine": (4.0, 2.7)}


def heavy(command: str, params: dict) -> str | None:
    """A note for the CLI when ``command`` at these parameters takes about a minute or more."""
    skills = params.get("skills")
    n = params.get("n") or (len(parse_skills(skills)) if isinstance(skills, str) else len(skills or ()) or DEFAULT_N)
    if command in ("audit", "certify"):
        _audit_limit(n, command)
    seconds, mb = HEAVY_AT_14.get(command, HEAVY_AT_14["solve"])
    slower = params.get("backend") == "fraction" and command not in ("audit", "certify")
    solver = "engine" if command == "certify" else "reference" if command == "audit" or slower else "fast"
    time_growth, memory_growth = GROWTH_PER_CHEF[solver]
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
    certify=model.certify,
    backend_help=BACKEND_HELP,
    heavy=heavy,
    description="Chefs in a cycle eliminate a chosen opponent with probability S(k); "
                "E(n) is the expected number of dishes.",
    proofs=model.PROOFS,
)

from exactplay.games.chefs.claims import CLAIMS  # noqa: E402, F401  (the claims use the functions above; the ledger reads CLAIMS here)
