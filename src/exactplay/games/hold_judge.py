"""``exactplay judge hold``: the contest's input format, answered exactly.

Input: ``Q`` (1 <= Q <= 1000), then ``Q`` lines ``C H X`` with
``0 <= C, H <= T-2``, ``X >= 2``, ``C + X <= T`` (T = 75 in the contest).
Output: one line per query, ``H`` when holding gives the larger winning
probability, ``C`` when continuing does.  The exact policy decides; on an
exact tie (which the statement excludes) ``H`` is printed and ``--explain``
says so.
"""

from __future__ import annotations

import sys
from pathlib import Path

from ..audit import decimal_digits
from ..errors import EXIT_OK, UsageError, VerificationError
from ..numbers import Backend
from ..strict_json import dumps

MAX_QUERIES = 1000


def parse_queries(text: str, target: int = 75, source: str = "input") -> list[tuple[int, int, int]]:
    """The queries of a contest input; a :class:`UsageError` naming the line otherwise."""
    lines = text.splitlines()
    numbered = [(i + 1, ln.split()) for i, ln in enumerate(lines)]
    content = [(n, words) for n, words in numbered if words]
    if not content:
        raise UsageError(f"{source}: empty input (expected Q, then Q lines 'C H X')")
    n0, first = content[0]
    if len(first) != 1:
        raise UsageError(f"{source} line {n0}: expected the number of queries Q alone, got {' '.join(first)[:60]!r}")
    q = _int(first[0], source, n0, "Q")
    if not 1 <= q <= MAX_QUERIES:
        raise UsageError(f"{source} line {n0}: Q must be between 1 and {MAX_QUERIES}, got {q}")
    body = content[1:]
    if len(body) < q:
        last = content[-1][0]
        raise UsageError(f"{source} line {last + 1}: Q = {q} but only {len(body)} query lines follow")
    if len(body) > q:
        raise UsageError(f"{source} line {body[q][0]}: more query lines than Q = {q}")
    top = target - 2
    out = []
    for n, words in body:
        if len(words) != 3:
            raise UsageError(f"{source} line {n}: expected 3 integers 'C H X', got {' '.join(words)[:60]!r}")
        c, h, x = (_int(w, source, n, name) for w, name in zip(words, "CHX"))
        if not 0 <= c <= top:
            raise UsageError(f"{source} line {n}: C = {c} is outside 0..{top}")
        if not 0 <= h <= top:
            raise UsageError(f"{source} line {n}: H = {h} is outside 0..{top}")
        if x < 2:
            raise UsageError(f"{source} line {n}: X = {x} is below 2")
        if c + x > target:
            raise UsageError(f"{source} line {n}: C + X = {c + x} exceeds {target}")
        out.append((c, h, x))
    return out


def _int(word: str, source: str, line: int, name: str) -> int:
    w = word[1:] if word[:1] in "+-" else word
    if not (w.isascii() and w.isdigit()):
        raise UsageError(f"{source} line {line}: {name} must be an integer, got {word[:30]!r}")
    return int(word)


def parse_answers(text: str, count: int, source: str) -> list[str]:
    """A contestant's output: exactly ``count`` lines ``H`` or ``C``."""
    words = [(i + 1, ln.strip()) for i, ln in enumerate(text.splitlines())]
    while words and not words[-1][1]:
        words.pop()
    for n, w in words:
        if w not in ("H", "C"):
            raise UsageError(f"{source} line {n}: expected H or C, got {w[:30]!r}")
    if len(words) != count:
        raise VerificationError(f"{source}: {len(words)} answer lines for {count} queries", field="answers")
    return [w for _, w in words]


def judge_arguments(parser) -> None:
    parser.add_argument("file", nargs="?", metavar="FILE", help="contest input (default: standard input)")
    parser.add_argument("--explain", action="store_true",
                        help="add each query's exact hold and continue probabilities and the margin")
    parser.add_argument("--check", metavar="ANSWERS",
                        help="compare a contestant's output file and name the first wrong line")
    parser.add_argument("--target", default="75", help="points to win (default 75, the contest)")
    parser.add_argument("--faces", default="6", help="faces of the die (default 6, the contest)")
    parser.add_argument("--digits", type=int, default=12, help="decimals for --explain (default 12)")


def _read(path: str | None, what: str) -> tuple[str, str]:
    if path is None or path == "-":
        return sys.stdin.read(), "stdin"
    try:
        return Path(path).read_text(encoding="utf-8"), path
    except OSError as exc:
        raise UsageError(f"{path}: cannot read {what}: {exc.strerror or exc}") from None
    except UnicodeDecodeError:
        raise UsageError(f"{path}: {what} is not UTF-8 text") from None


def judge(args, backend: Backend) -> int:
    from . import hold  # the game module (lazy: keeps this module import-light)

    target = hold.parse_target(args.target)
    faces = hold.parse_faces(args.faces)
    if not 0 <= args.digits <= 1000:
        raise UsageError("--digits must be between 0 and 1000")
    text, source = _read(args.file, "the contest input")
    queries = parse_queries(text, target, source)
    expected = None
    if args.check:
        ans_text, ans_source = _read(args.check, "the answers")
        expected = parse_answers(ans_text, len(queries), ans_source)
    table = hold.exact_table(target, faces, backend)
    answers = [table.policy[c][h][x - 2] for c, h, x in queries]
    if expected is not None:
        for i, (got, right) in enumerate(zip(expected, answers)):
            if got != right:
                c, h, x = queries[i]
                raise VerificationError(
                    f"{ans_source} line {i + 1}: answered {got} for query '{c} {h} {x}', the exact answer is {right}",
                    field="answers", state=(c, h, x))
        if args.json:
            print(dumps({"ok": True, "queries": len(queries)}, indent=None))
        else:
            print(f"ok: all {len(queries)} answers are exactly right")
        return EXIT_OK
    if args.explain or args.json:
        rows = []
        cache: dict = {}
        for (c, h, x), a in zip(queries, answers):
            if (c, h) not in cache:
                cache[(c, h)] = hold.exact_turn(table, c, h)
            _, hv, cont, _ = cache[(c, h)]
            margin = hv[x] - cont[x]
            rows.append({"query": [c, h, x], "answer": a, "hold": hv[x], "continue": cont[x], "margin": margin})
        if args.json:
            from ..numbers import format_pq
            print(dumps([{**r, "hold": format_pq(r["hold"]), "continue": format_pq(r["continue"]),
                               "margin": format_pq(r["margin"]),
                               "margin_float": float(r["margin"])} for r in rows], indent=1))
        else:
            d = args.digits
            for r in rows:
                tie = "  EXACT TIE" if r["margin"] == 0 else ""
                print(f"{r['answer']}  # {' '.join(map(str, r['query']))}: hold {decimal_digits(r['hold'], d)}"
                      f"  continue {decimal_digits(r['continue'], d)}  margin {float(r['margin']):+.3e}{tie}")
        return EXIT_OK
    sys.stdout.write("".join(a + "\n" for a in answers))
    return EXIT_OK


__all__ = ["judge", "judge_arguments", "parse_queries", "parse_answers"]
