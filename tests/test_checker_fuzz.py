"""Semantic mutations of the small certificates in proofs/ are all rejected.

A seeded fuzz test: from every small certificate of every game it builds
mutations that change what the certificate *says* (a number, a state, a
choice, a rank, a name, a margin, a decimal, a parameter, a key dropped or
added, two entries of an ordered list swapped, an entry dropped or repeated)
and runs the independent checker on each.  Every one must be rejected with a
one-line :class:`~exactplay.errors.VerificationError` (or its subclass
:class:`~exactplay.errors.MalformedCertificate`) whose message names a field;
anything else -- acceptance, another exception -- fails the test.

Excluded by construction, because they leave the meaning unchanged: the fields
the checker lists as unverified (``notes``, ``tool_version``) and everything
inside them, and a mutation whose result equals the original (e.g. swapping
equal entries).  Every list of a certificate is ordered (the states by their
canonical numbers, the ties by state, a tie's actions increasing).

The same value written against the format (``"2/4"``, a float for ``"1/2"``)
is counted apart, as ``number format``: rejected too, but not a semantic change.

Run ``PYTHONPATH=src python3 tests/test_checker_fuzz.py`` to print the counts
per kind and the false acceptances.
"""

from __future__ import annotations

import copy
import json
import random
import time
from collections import Counter
from fractions import Fraction
from pathlib import Path

import pytest

from exactplay.checker import UNVERIFIED_FIELDS, verify_file
from exactplay.errors import VerificationError

PROOFS = Path(__file__).resolve().parent.parent / "proofs"
SMALL = [
    "race/race-1.json", "race/race-2.json", "race/race-3.json", "race/race-4.json",
    "hold/hold-5-3.json", "hold/hold-8-2.json",
    "chefs/chefs-fib-3.json", "chefs/chefs-fib-4.json", "chefs/chefs-s-1_4-1_2-1.json",
    "coins/coins-seed-example.json", "coins/coins-decimals.json", "coins/coins-near-tie.json",
    "war/war-4x2.json", "war/war-5x2.json", "war/war-2x5.json",
]
SEED = 20261130
PER_CERT_AND_KIND = 12  # the slow test's sample: about 2200 semantic mutations, 3 s of CPU
PER_CERT_AND_KIND_DEFAULT = 5  # the default suite's: about 1000, every kind of every certificate
TIME_LIMIT = 120.0  # seconds for the whole run (2 to 10 s measured on a shared 2-core machine)

CHOICE_WORDS = ["left", "right", "tie", "single", "H", "C"]


def _is_pq(x) -> bool:
    if not isinstance(x, str):
        return False
    num, slash, den = x.partition("/")
    return bool(slash) and num.lstrip("-").isdigit() and den.isdigit()


def _pq(f: Fraction) -> str:
    return f"{f.numerator}/{f.denominator}"


def _walk(node, path=()):
    """Every (path, value) below ``node``, the unverified fields left out."""
    yield path, node
    if isinstance(node, dict):
        for k, v in node.items():
            if not path and k in UNVERIFIED_FIELDS:
                continue
            yield from _walk(v, path + (k,))
    elif isinstance(node, list):
        for k, v in enumerate(node):
            yield from _walk(v, path + (k,))


def _get(cert, path):
    for k in path:
        cert = cert[k]
    return cert


def _kind(cert, path, base: str) -> str:
    """Name the mutation after where it lands (state, choice, rank, name, margin, param...)."""
    if path[:1] == ("params",):
        return "param"
    if path[:1] == ("smallest_margin",) or path[:2] == ("solution", "margins"):
        return "state" if path[-1] == "state" else "gap"
    if path == ("answer", "name"):
        return "name"
    if path == ("answer", "state"):
        return "state"
    if path[:2] == ("solution", "policy") and base in ("integer", "null"):
        return "choice"
    if path[:2] == ("solution", "ranks") and base in ("integer", "null"):
        return "rank"
    return base


def _leaf_mutations(cert, path, value, rng):
    """(kind, new value) for one leaf; never the same value."""
    out = []
    if isinstance(value, bool):
        out.append(("bool", not value))
    elif isinstance(value, int):
        for new in (value + 1, value - 1, 0, -value, 2 * value + 3):
            if new != value:
                out.append(("integer", new))
    elif isinstance(value, float):
        out += [("float", v) for v in (value * 2, value + abs(value) * 1e-15 + 5e-324, -value, 0.0) if v != value]
    elif _is_pq(value):
        x = Fraction(value)
        for new in (x + 1, x - Fraction(1, x.denominator + 1), -x, x / 2 if x else Fraction(1, 3),
                    x + Fraction(1, 10**30)):
            if new != x:
                out.append(("number", _pq(new)))
        num, _, den = value.partition("/")
        # the same value, but not as the format says: counted apart, not as semantic mutations
        out.append(("number format", f"{int(num) * 2}/{int(den) * 2}"))  # not in lowest terms
        out.append(("number format", float(x)))
    elif isinstance(value, str):
        if value in CHOICE_WORDS:
            out += [("text", w) for w in CHOICE_WORDS if w != value]
        elif set(value) <= {"H", "C"} and value:
            k = rng.randrange(len(value))
            out.append(("text", value[:k] + ("C" if value[k] == "H" else "H") + value[k + 1:]))
        if any(ch.isdigit() for ch in value):
            digits = [k for k, ch in enumerate(value) if ch.isdigit()]
            k = rng.choice(digits)
            out.append(("text", value[:k] + str((int(value[k]) + 1) % 10) + value[k + 1:]))
            out.append(("text", value + "0"))
        out.append(("text", value + "x"))
        out.append(("text", value[:-1] if value else "x"))
    elif value is None:
        out += [("null", 0), ("null", {"value": "1/2", "state": 0}), ("null", "")]
    return [(base if base == "number format" else _kind(cert, path, base), new) for base, new in out]


def _structural_mutations(cert, path, node, rng):
    """Keys dropped and added, ordered entries swapped, rows dropped or repeated."""
    out = []
    if isinstance(node, dict):
        for k in node:
            if not path and k in UNVERIFIED_FIELDS:
                continue
            new = {kk: vv for kk, vv in node.items() if kk != k}
            out.append(("drop key", new))
        out.append(("add key", {**node, "extra": 1}))
        out.append(("add key", {**node, "comment": "x"}))
    elif isinstance(node, list) and node:
        if len(node) > 1:
            for _ in range(3):
                a, b = rng.sample(range(len(node)), 2)
                if node[a] != node[b]:
                    new = list(node)
                    new[a], new[b] = new[b], new[a]
                    out.append(("swap", new))
        k = rng.randrange(len(node))
        out.append(("drop row", node[:k] + node[k + 1:]))
        out.append(("add row", node[:k] + [node[k]] + node[k:]))
    kinds = []
    for base, new in out:
        kind = "param" if path[:1] == ("params",) else "gap" if path[:1] == ("smallest_margin",) else base
        kinds.append((kind, new))
    return kinds


def _apply(cert, path, new):
    out = copy.deepcopy(cert)
    if not path:
        return new
    node = out
    for k in path[:-1]:
        node = node[k]
    node[path[-1]] = new
    return out


def mutations(name: str, rng: random.Random, per_kind: int = PER_CERT_AND_KIND):
    """(kind, path, mutated certificate) for one certificate, sampled per kind."""
    cert = json.loads((PROOFS / name).read_text())
    by_kind: dict = {}
    for path, value in _walk(cert):
        for kind, new in _leaf_mutations(cert, path, value, rng) + _structural_mutations(cert, path, value, rng):
            by_kind.setdefault(kind, []).append((path, new))
    for kind in sorted(by_kind):
        cands = by_kind[kind]
        for path, new in rng.sample(cands, min(per_kind, len(cands))):
            mutated = _apply(cert, path, new)
            if mutated != cert:
                yield kind, path, mutated


def run(tmp: Path, per_kind: int = PER_CERT_AND_KIND):
    """Check every mutation (``per_kind`` sampled per certificate and kind); return (counts by kind,
    failures as (kind, name, path, outcome))."""
    rng = random.Random(SEED)
    counts, failures = Counter(), []
    for name in SMALL:
        fields = set(json.loads((PROOFS / name).read_text())) | {"certificate"}  # an error names one of them
        for n, (kind, path, mutated) in enumerate(mutations(name, rng, per_kind)):
            f = tmp / f"m{n}.json"
            f.write_text(json.dumps(mutated), encoding="utf-8")
            counts[kind] += 1
            try:
                verify_file(f)
            except VerificationError as exc:
                message = str(exc)
                top = str(exc.field).split(".")[0]
                if exc.field is None or top not in fields | set(mutated) \
                        or f"field {exc.field!r}" not in message or "\n" in message:
                    failures.append((kind, name, path, f"rejected without naming a field: {message[:200]}"))
            except Exception as exc:  # noqa: BLE001 - a crash is what the test hunts
                failures.append((kind, name, path, f"crashed: {type(exc).__name__}: {exc}"[:300]))
            else:
                failures.append((kind, name, path, "accepted"))
    return counts, failures


def _assert_every_mutation_rejected(tmp_path, per_kind, at_least):
    start = time.monotonic()
    counts, failures = run(tmp_path, per_kind)
    elapsed = time.monotonic() - start
    assert sum(n for kind, n in counts.items() if kind != "number format") >= at_least, counts
    assert {"number", "state", "choice", "rank", "name", "gap", "param", "drop key", "add key", "swap"} <= set(counts)
    assert not failures, f"{len(failures)} of {sum(counts.values())} mutations not rejected, e.g. {failures[:5]}"
    assert elapsed < TIME_LIMIT, f"fuzz run took {elapsed:.0f} s"


def test_every_semantic_mutation_of_a_small_certificate_is_rejected_naming_a_field(tmp_path):
    """Every kind of mutation of every small certificate, a smaller sample of each (the slow twin
    below draws 12 per certificate and kind)."""
    _assert_every_mutation_rejected(tmp_path, PER_CERT_AND_KIND_DEFAULT, 1000)


@pytest.mark.slow
def test_every_one_of_many_more_semantic_mutations_is_rejected_naming_a_field(tmp_path):
    _assert_every_mutation_rejected(tmp_path, PER_CERT_AND_KIND, 2000)


def test_the_fuzzed_certificates_themselves_verify():
    for name in SMALL:
        assert verify_file(PROOFS / name)["summary"]


if __name__ == "__main__":
    import tempfile

    with tempfile.TemporaryDirectory() as d:
        t0 = time.monotonic()
        counts, failures = run(Path(d))
        print(f"{sum(counts.values())} mutations in {time.monotonic() - t0:.1f} s")
        bad = Counter(k for k, *_ in failures)
        for kind in sorted(counts):
            print(f"  {kind:10} {counts[kind]:5}  not rejected: {bad[kind]}")
        for f in failures:
            print("   ", f[0], f[1], "/".join(map(str, f[2])), f[3])
