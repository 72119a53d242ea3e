"""Chef Showdown's instance: its limits, the parameters (n or the skills) read exactly, and the
exact solution (the fast integer solver in ``mpq``, the reference recurrence otherwise)."""

from __future__ import annotations

from fractions import Fraction

from exactplay.errors import UsageError
from exactplay.games.chefs import cycle, fast
from exactplay.games.chefs.skills import fibonacci_skills
from exactplay.numbers.backends import Backend, format_pq, get_backend, read_int, read_rational
from exactplay.progress import SILENT

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
