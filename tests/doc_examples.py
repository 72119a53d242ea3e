"""The examples of README.md and docs/*.md, read out of their fenced blocks and run.

Two kinds of fenced block are examples:

* a **console** block (its first line starts with ``$ ``): each ``$ COMMAND`` line is run and the
  lines after it, up to the next ``$`` line, are its output.  ``exactplay ...`` runs in-process
  (``tests/cli_run.py``), also at the end of a pipe (``printf ... | exactplay judge hold``: the
  left side's output is its standard input) or with its output sent to a file (``> FILE``); any
  other command runs in a shell.  What a command writes on stderr comes first, then its stdout.
  The exit status expected is 2 when the output has an ``exactplay: error:`` line, 1 when it has a
  ``FAIL`` line, else 0.
* a **python** block: ``>>>`` examples run as doctests (``...`` elides), other code is executed;
  the blocks of one document share their names.

Output is compared line by line after normalising: trailing spaces dropped, timings (``0.07 s``)
written ``<T> s``, the workspace's absolute path dropped (``/tmp/.../checkout/certs/a.json`` is
``certs/a.json``).  A line ``...`` matches any number of lines; a line ending in ``...`` matches
every line that starts with what comes before it; blank lines that end a command's output only
separate it from the next command.  A block preceded by the line ``<!-- slow -->`` runs only with
``pytest -m slow``, one preceded by ``<!-- seeds -->`` only with ``pytest -m seeds`` (it reads
``../shared/`` beside the checkout, which the workspace has as ``../shared`` too); every other
fence must name a language that is not an example (``yaml``, ``toml``, ``json``, ``text``).
"""

from __future__ import annotations

import doctest
import io
import os
import re
import shlex
import shutil
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
NOT_EXAMPLES = ("yaml", "toml", "json", "text")
SLOW = "<!-- slow -->"
SEEDS = "<!-- seeds -->"
SHARED = ROOT.parent / "shared"
_TIME = re.compile(r"\b\d+(?:\.\d+)? ?s\b")


@dataclass
class Block:
    doc: str
    line: int  # of the opening fence
    kind: str  # "console" or "python"
    lines: list[str]
    slow: bool
    seeds: bool = False

    @property
    def where(self) -> str:
        return f"{self.doc}:{self.line}"


def documents() -> list[Path]:
    return [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]


def blocks(path: Path) -> list[Block]:
    """The examples of one document, in order; a fence that is no example and names no other
    language is an error (an example nobody would run)."""
    text = path.read_text(encoding="utf-8").splitlines()
    name = str(path.relative_to(ROOT))
    out, i = [], 0
    while i < len(text):
        line = text[i]
        if not line.startswith("```"):
            i += 1
            continue
        lang = line[3:].strip()
        j = i + 1
        while j < len(text) and not text[j].startswith("```"):
            j += 1
        if j == len(text):
            raise ValueError(f"{name}:{i + 1}: a fence that is never closed")
        body = text[i + 1:j]
        slow = i > 0 and text[i - 1].strip() == SLOW
        seeds = i > 0 and text[i - 1].strip() == SEEDS
        if lang == "python":
            out.append(Block(name, i + 1, "python", body, slow, seeds))
        elif lang in ("", "console") and body and body[0].startswith("$ "):
            out.append(Block(name, i + 1, "console", body, slow, seeds))
        elif lang not in NOT_EXAMPLES:
            raise ValueError(f"{name}:{i + 1}: a fenced block that is no example must name its language "
                             f"({', '.join(NOT_EXAMPLES)}); got {lang!r} (a console example starts with '$ ')")
        i = j + 1
    return out


def commands(block: Block) -> list[tuple[int, str, list[str]]]:
    """``(line, command, expected output lines)`` of a console block (``\\`` continues a command)."""
    out = []
    k = 0
    while k < len(block.lines):
        line = block.lines[k]
        if not line.startswith("$ "):
            raise ValueError(f"{block.doc}:{block.line + k + 1}: output before any command")
        cmd, start = line[2:], k
        while cmd.endswith("\\"):
            k += 1
            cmd = cmd[:-1] + block.lines[k].strip()
        k += 1
        expected = []
        while k < len(block.lines) and not block.lines[k].startswith("$ "):
            expected.append(block.lines[k])
            k += 1
        while expected and not expected[-1].strip():  # a blank line between two commands is no output
            expected.pop()
        out.append((block.line + start + 1, cmd, expected))
    return out


def normalise(lines: list[str]) -> list[str]:
    return [_TIME.sub("<T> s", x.rstrip()) for x in lines]


def matches(expected: list[str], actual: list[str]) -> bool:
    """``expected`` (with ``...`` elisions) against ``actual``, both normalised."""
    e, a = normalise(expected), normalise(actual)
    memo: dict = {}

    def at(i: int, j: int) -> bool:
        if (i, j) in memo:
            return memo[i, j]
        if i == len(e):
            ok = j == len(a)
        elif e[i].strip() == "...":
            ok = any(at(i + 1, k) for k in range(j, len(a) + 1))
        elif j < len(a) and (e[i] == a[j] or (e[i].endswith("...") and a[j].startswith(e[i][:-3]))):
            ok = at(i + 1, j + 1)
        else:
            ok = False
        memo[i, j] = ok
        return ok

    return at(0, 0)


def expected_status(expected: list[str]) -> int:
    if any(x.startswith("exactplay: error:") for x in expected):
        return 2
    if any(x.startswith("FAIL") for x in expected):
        return 1
    return 0


def workspace(tmp: Path) -> Path:
    """A directory with the repository's examples/ (a copy: examples write files) and proofs/, and
    ``../shared`` beside it when the checkout has one."""
    here = tmp / "checkout"
    shutil.copytree(ROOT / "examples", here / "examples")
    (here / "proofs").symlink_to(ROOT / "proofs")
    if SHARED.is_dir():
        (tmp / "shared").symlink_to(SHARED)
    return here


def shell(cmd: str) -> subprocess.CompletedProcess:
    """``cmd`` in a shell here, with this checkout's exactplay importable, as a user runs it: without
    the PYTEST_* variables of the pytest running the examples (a pytest in an example would take an
    xdist worker's for its own)."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("PYTEST_")}
    env["PYTHONPATH"] = str(ROOT / "src")
    return subprocess.run(cmd, shell=True, capture_output=True, text=True, env=env, executable="/bin/bash")


def run_command(cmd: str, capsys, monkeypatch) -> tuple[int, str]:
    """``(exit status, output)`` of one console command (see the module's text)."""
    from cli_run import run

    left, bar, right = cmd.rpartition(" | ")
    tail = right if bar else cmd
    words = shlex.split(tail, comments=True)
    if not words or words[0] != "exactplay" or any(w in ("&&", ";", "|", "<", "&") for w in words):
        done = shell(cmd)
        return done.returncode, done.stderr + done.stdout
    redirect = None
    if ">" in words:
        at = words.index(">")
        words, redirect = words[:at], words[at + 1]
    if bar:
        done = shell(left)
        if done.returncode:
            return done.returncode, done.stderr + done.stdout
        monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(done.stdout.encode("utf-8")), encoding="utf-8"))
    capsys.readouterr()  # what earlier examples printed is not this command's
    status, out, err = run(capsys, *words[1:])
    if redirect is not None:
        Path(redirect).write_text(out, encoding="utf-8")
        out = ""
    return status, err + out


def run_python(block: Block, globs: dict) -> str:
    """The block's doctests (or its code); the failures' report, empty when all pass."""
    text = "\n".join(block.lines) + "\n"
    if ">>>" not in text:
        exec(compile(text, block.where, "exec"), globs)
        return ""
    test = doctest.DocTestParser().get_doctest(text, globs, block.where, block.doc, block.line)
    report = io.StringIO()
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS, verbose=False)
    runner.run(test, out=report.write, clear_globs=False)
    globs.update(test.globs)  # a DocTest works on a copy: the next block sees this one's names
    return report.getvalue() if runner.failures else ""


def run_document(doc: Path, tmp: Path, capsys, monkeypatch, slow: bool, seeds: bool = False) -> list[str]:
    """Every example of ``doc`` (the slow ones too if ``slow``, those that read ../shared if
    ``seeds``), in order, in a workspace under ``tmp``; the failures, each with what was expected
    and what came."""
    here = workspace(tmp)
    monkeypatch.chdir(here)
    globs: dict = {"__name__": "__doc_examples__"}
    saved = list(sys.path)
    failures = []
    try:
        for block in blocks(doc):
            if (block.slow and not slow) or (block.seeds and not seeds):
                continue
            if block.kind == "python":
                report = run_python(block, globs)
                if report:
                    failures.append(report)
                continue
            for line, cmd, expected in commands(block):
                status, out = run_command(cmd, capsys, monkeypatch)
                actual = out.replace(f"{here}{os.sep}", "").splitlines()  # paths as the commands were given
                want = expected_status(expected)
                if status != want or not matches(expected, actual):
                    failures.append(f"{block.doc}:{line}: $ {cmd}\n(exit status {status}, expected {want})\n"
                                    "--- expected\n" + "\n".join(expected) + "\n--- got\n" + "\n".join(actual))
    finally:
        sys.path[:] = saved
    return failures
