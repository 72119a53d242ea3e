"""``exactplay judge hold``: the contest's input format, answered exactly.

Input: ``Q`` (1 <= Q <= 1000), checked before the rest is read, then ``Q``
lines ``C H X`` (at most 200 characters each) with
``0 <= C, H <= T-2``, ``X >= 2``, ``C + X <= T`` (T = 75 in the contest).
Output: one line per query, ``H`` when holding gives the larger winning
probability, ``C`` when continuing does.  The exact policy decides; on an
exact tie (which the statement excludes) ``H`` is printed and ``--explain``
says so.
"""

from __future__ import annotations

import sys

from exactplay.audit.judge import decimal_digits
from exactplay.errors import EXIT_OK, UsageError, VerificationError
from exactplay.numbers.backends import Backend, int_option, refuse_non_ascii_digits
from exactplay.strict_json import dumps

MAX_QUERIES = 1000
MAX_LINE_CHARS = 200  # a line 'C H X' of small integers (spaces are free, not unbounded)
MAX_NUMBER_CHARS = 18  # an integer word; longer ones are refused before int()
MAX_LEADING_CHARS = 65536  # blank lines and spaces allowed before the line with Q


def parse_queries(text: str, target: int = 75, source: str = "input") -> list[tuple[int, int, int]]:
    """The queries of a contest input; a :class:`UsageError` naming the line otherwise.

    ``Q`` is read and checked first; then at most ``Q`` query lines, each of at
    most :data:`MAX_LINE_CHARS` characters with numbers of at most
    :data:`MAX_NUMBER_CHARS` characters.
    """
    lines = iter(enumerate(text.splitlines(), 1))
    first = None
    for n, line in lines:
        words = _words(line, source, n)
        if words:
            first = (n, words)
            break
    if first is None:
        raise UsageError(f"{source}: empty input (expected Q, then Q lines 'C H X')")
    n0, words = first
    q = _parse_q(words, source, n0)
    top = target - 2
    out = []
    last = n0
    for n, line in lines:
        words = _words(line, source, n)
        if not words:
            continue
        if len(out) == q:
            raise UsageError(f"{source} line {n}: more query lines than Q = {q}")
        last = n
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
    if len(out) < q:
        raise UsageError(f"{source} line {last + 1}: Q = {q} but only {len(out)} query lines follow")
    return out


def _parse_q(words: list[str], source: str, line: int) -> int:
    if len(words) != 1:
        raise UsageError(f"{source} line {line}: expected the number of queries Q alone, got {' '.join(words)[:60]!r}")
    q = _int(words[0], source, line, "Q")
    if not 1 <= q <= MAX_QUERIES:
        raise UsageError(f"{source} line {line}: Q must be between 1 and {MAX_QUERIES}, got {q}")
    return q


def _words(line: str, source: str, n: int) -> list[str]:
    if len(line) > MAX_LINE_CHARS:
        raise UsageError(f"{source} line {n}: longer than {MAX_LINE_CHARS} characters ({line[:30]!r}...)")
    return line.split()


def _int(word: str, source: str, line: int, name: str) -> int:
    refuse_non_ascii_digits(word, f"{source} line {line}: {name}")
    w = word[1:] if word[:1] in "+-" else word
    if not (w.isascii() and w.isdigit()):
        raise UsageError(f"{source} line {line}: {name} must be an integer, got {word[:30]!r}")
    if len(w) > MAX_NUMBER_CHARS:
        raise UsageError(f"{source} line {line}: {name} has more than {MAX_NUMBER_CHARS} digits "
                         f"({word[:20]!r}...)")
    return int(word)


def read_queries(path: str | None, target: int) -> tuple[list[tuple[int, int, int]], str]:
    """The queries of the contest input at ``path`` (``None`` or ``-``: standard input).

    Reads up to the line with ``Q`` first and checks ``Q``; then reads only as
    much as ``Q`` query lines can fill, so a huge or endless input is refused
    after a bounded read.
    """
    with _opened(path, "the contest input") as (fh, source):
        head = []
        size = 0
        while True:
            line = fh.readline(MAX_LINE_CHARS + 2)
            if not line:
                break
            head.append(line)
            n = len(head)
            if len(line.rstrip("\r\n")) > MAX_LINE_CHARS:
                raise UsageError(f"{source} line {n}: longer than {MAX_LINE_CHARS} characters ({line[:30]!r}...)")
            if line.split():
                _parse_q(line.split(), source, n)  # Q checked before anything else is read
                break
            size += len(line)
            if size > MAX_LEADING_CHARS:
                raise UsageError(f"{source}: more than {MAX_LEADING_CHARS} characters before the line with Q")
        rest = ""
        if head and head[-1].split():
            q = int(head[-1].split()[0])
            cap = (q + 1) * (MAX_LINE_CHARS + 2) + 4096  # Q full lines, and some blank ones
            rest = fh.read(cap + 1)
            if len(rest) > cap:
                raise UsageError(f"{source}: more input than Q = {q} query lines of at most "
                                 f"{MAX_LINE_CHARS} characters can hold")
    return parse_queries("".join(head) + rest, target, source), source


class _opened:
    """``(text stream, name)`` of a path, or of standard input; one-line errors."""

    def __init__(self, path: str | None, what: str):
        self.path, self.what, self.fh = path, what, None

    def __enter__(self):
        if self.path is None or self.path == "-":
            return sys.stdin, "stdin"
        try:
            self.fh = open(self.path, encoding="utf-8")
        except OSError as exc:
            raise UsageError(f"{self.path}: cannot read {self.what}: {exc.strerror or exc}") from None
        return self.fh, self.path

    def __exit__(self, kind, exc, tb):
        if self.fh is not None:
            self.fh.close()
        if kind is UnicodeDecodeError:
            raise UsageError(f"{self.path}: {self.what} is not UTF-8 text") from None
        if kind is not None and issubclass(kind, OSError) and not issubclass(kind, BrokenPipeError):
            raise UsageError(f"{self.path}: cannot read {self.what}: {exc.strerror or exc}") from None
        return False


def parse_answers(text: str, count: int, source: str) -> list[str]:
    """A contestant's output: exactly ``count`` lines ``H`` or ``C``."""
    if len(text) > (count + 1) * (MAX_LINE_CHARS + 2):
        raise UsageError(f"{source}: longer than {count} answer lines can be")
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
    parser.add_argument("--digits", type=int_option, default=12, help="decimals for --explain (default 12)")


def _read(path: str | None, what: str, limit: int) -> tuple[str, str]:
    """The text at ``path`` (or standard input), refused past ``limit`` characters."""
    with _opened(path, what) as (fh, source):
        text = fh.read(limit + 1)
    if len(text) > limit:
        raise UsageError(f"{source}: {what} is longer than {limit} characters")
    return text, source


def judge(args, backend: Backend) -> int:
    from exactplay.games.hold.solver import turn_of  # lazy: import-light
    from exactplay.games.hold.tables import exact_table, parse_faces, parse_target

    target = parse_target(args.target)
    faces = parse_faces(args.faces)
    if not 0 <= args.digits <= 1000:
        raise UsageError("--digits must be between 0 and 1000")
    queries, source = read_queries(args.file, target)
    expected = None
    if args.check:
        # one short line per query (with generous room for spaces and blank lines)
        ans_text, ans_source = _read(args.check, "the answers", (len(queries) + 1) * (MAX_LINE_CHARS + 2))
        expected = parse_answers(ans_text, len(queries), ans_source)
    table = exact_table(target, faces, backend)
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
                cache[(c, h)] = turn_of(table, c, h)
            _, hv, cont, _ = cache[(c, h)]
            margin = hv[x] - cont[x]
            rows.append({"query": [c, h, x], "answer": a, "hold": hv[x], "continue": cont[x], "margin": margin})
        if args.json:
            from exactplay.numbers.backends import format_pq
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


__all__ = ["judge", "judge_arguments", "parse_queries", "parse_answers", "read_queries"]
