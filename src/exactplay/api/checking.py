""":func:`check`: a certificate re-verified by the independent checker (:mod:`exactplay.checker`), as a value.

A certificate that does not verify (tampered, corrupt, not a certificate) is a result with ``ok``
False and the checker's message, which names the field and the state where it failed; only a path
that cannot be read at all (missing, unreadable) raises.

>>> import exactplay as xp, tempfile, pathlib
>>> path = pathlib.Path(tempfile.mkdtemp()) / "race-2.json"
>>> r = xp.check(xp.certify("race", path, target=2))
>>> r.ok, r.answer["decimal"], r.message.splitlines()[1]
(True, '0.52592593', '     race target=2: G(2,2) = 0.52592593')
>>> import json
>>> cert = json.loads(path.read_text())
>>> cert["solution"]["values"][3] = ["1/2", "1/2"]
>>> _ = path.write_text(json.dumps(cert))
>>> r = xp.check(path)
>>> r.ok, r.field
(False, 'solution.values')
"""

from __future__ import annotations

import errno
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

__all__ = ["check", "CheckResult", "CheckResults"]


@dataclass(frozen=True)
class CheckResult:
    """One certificate checked: ``ok``, and ``message`` as ``exactplay check`` prints it (``ok   PATH``
    and the verified answer, or the failure: ``FAIL ...`` with the field and the state)."""

    path: Path
    ok: bool
    message: str
    game: str | None = None
    params: dict = field(default_factory=dict)
    answer: dict | None = None  # the verified answer: name, value "p/q", decimal
    summary: str | None = None  # the checker's summary line
    field: str | None = None  # where a failure was found
    state: Any = None
    unverified_fields: tuple = ()

    def __bool__(self) -> bool:
        return self.ok

    def __repr__(self) -> str:
        from .display import short_text

        return f"<CheckResult {'ok' if self.ok else 'FAIL'} {short_text(self.message.replace(chr(10), ' '), 150)}>"

    def _repr_html_(self) -> str:
        from .display import check_html

        return check_html([self])


class CheckResults(list):
    """The results of every certificate under a directory (``ok``: all of them verified)."""

    @property
    def ok(self) -> bool:
        return all(r.ok for r in self)

    @property
    def failed(self) -> list[CheckResult]:
        return [r for r in self if not r.ok]

    def __bool__(self) -> bool:
        return self.ok

    def __repr__(self) -> str:
        return f"<CheckResults {len(self) - len(self.failed)} of {len(self)} verified>"

    def _repr_html_(self) -> str:
        from .display import check_html

        return check_html(self)


def check(path: str | Path, *, expect: dict | None = None) -> CheckResult | CheckResults:
    """Verify the certificate at ``path`` (a directory: every ``*.json`` below it, a
    :class:`CheckResults`).  ``expect``: parameters the certificate must have (``{"target": 100}``),
    compared before the long check, as ``exactplay check --expect target=100``.

    Raises :class:`FileNotFoundError` (or another :class:`OSError`) when ``path`` cannot be read; a
    certificate that does not verify is a result, never an exception.
    """
    p = Path(path)
    if not p.exists():
        raise FileNotFoundError(errno.ENOENT, "no such certificate or directory", str(p))
    if p.is_dir():
        from ..checker import certificate_paths

        return CheckResults(check(f, expect=expect) for f in certificate_paths([p]))
    with open(p, "rb"):  # an unreadable file raises here, not as a failed check
        pass
    return _verify(p, {k: str(v) for k, v in (expect or {}).items()})


def _verify(p: Path, expect: dict) -> CheckResult:
    from ..checker import verify_file
    from ..errors import VerificationError

    try:
        found = verify_file(p, expect)
    except VerificationError as exc:
        return CheckResult(p, False, f"FAIL {exc}", field=exc.field, state=exc.state)
    return CheckResult(p, True, ok_message(p, found), found["game"], dict(found["params"]), dict(found["answer"]),
                       found["summary"],
                       unverified_fields=tuple(found.get("unverified_fields", ())))


def ok_message(path, found: dict) -> str:
    """What ``check`` prints for a certificate that verified (``found``: :func:`~exactplay.checker.verify_file`'s).

    >>> print(ok_message("r.json", {"game": "race", "params": {"target": 2}, "summary": "...",
    ...                             "answer": {"name": "G(2,2)", "decimal": "0.52592593"}}))
    ok   r.json
         race target=2: G(2,2) = 0.52592593
         ...
    """
    params = "".join(f" {k}={v}" for k, v in found["params"].items())
    ans = found["answer"]
    return (f"ok   {path}\n     {found['game']}{params}: {ans['name']} {certified_text(ans)}{initial_range_text(found)}"
            f"\n     {found['summary']}")


def initial_range_text(found: dict) -> str:
    """``; 512 initial states, values in [a, b]`` for a model with several initial states (verified).

    >>> initial_range_text({"initial_states": {"count": 2, "smallest": {"decimal": "0.1"}, "largest": {"decimal": "0.9"}}})
    '; 2 initial states, values in [0.1, 0.9]'
    """
    r = found.get("initial_states")
    if not r:
        return ""
    return f"; {r['count']:,} initial states, values in [{r['smallest']['decimal']}, {r['largest']['decimal']}]"


def certified_text(answer: dict) -> str:
    """What the certificate proves of its answer: ``= decimal``, or, for a ball certificate whose
    enclosure does not fix the decimal, ``in [a, b]`` with the dyadic ends ``[m, e]`` (``m 2^e``)
    written with 12 decimals rounded outward (``a`` down, ``b`` up: still an enclosure).

    >>> certified_text({"decimal": "0.77777778"})
    '= 0.77777778'
    >>> certified_text({"decimal": None, "lower": [199, -8], "upper": [201, -8]})
    'in [0.777343750000, 0.785156250000] (the certified enclosure; its decimal is not certified)'
    >>> certified_text({"decimal": None, "lower": [-1, -40], "upper": [1, -40]})
    'in [-0.000000000001, 0.000000000001] (the certified enclosure; its decimal is not certified)'
    """
    if answer.get("decimal") is not None or not all(isinstance(answer.get(e), list) for e in ("lower", "upper")):
        return f"= {answer.get('decimal')}"
    from fractions import Fraction

    from ..checker.readers import outward_text

    lo, hi = (Fraction(m) * Fraction(2) ** e for m, e in (answer["lower"], answer["upper"]))
    return f"in {outward_text(lo, hi)} (the certified enclosure; its decimal is not certified)"
