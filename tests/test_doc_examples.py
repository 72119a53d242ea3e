"""Every example in README.md and docs/*.md is run and its output compared (tests/doc_examples.py
says how: commands in-process, timings normalised, ``...`` elides); the slow ones with -m slow."""

from pathlib import Path

import pytest

from claim_findings import ONE_WORKER
from doc_examples import (Block, blocks, commands, documents, expected_status, matches, normalise,
                          run_document)

DOCS = documents()


# commands.md's `judge hold` answers from Hold's exact table at 75: in the one worker that builds it
@pytest.mark.parametrize("doc", [pytest.param(d, marks=ONE_WORKER) if d.name == "commands.md" else d for d in DOCS],
                         ids=lambda p: p.name)
def test_the_examples_of(doc, tmp_path, capsys, monkeypatch):
    failures = run_document(doc, tmp_path, capsys, monkeypatch, slow=False)
    assert not failures, "\n\n".join(failures)


@pytest.mark.slow
@pytest.mark.parametrize("doc", [d for d in DOCS if any(b.slow for b in blocks(d))], ids=lambda p: p.name)
def test_the_slow_examples_of(doc, tmp_path, capsys, monkeypatch):
    failures = run_document(doc, tmp_path, capsys, monkeypatch, slow=True)
    assert not failures, "\n\n".join(failures)


@pytest.mark.seeds
@pytest.mark.parametrize("doc", [d for d in DOCS if any(b.seeds for b in blocks(d))], ids=lambda p: p.name)
def test_the_examples_that_read_the_shared_folder_of(doc, tmp_path, capsys, monkeypatch):
    from doc_examples import SHARED

    assert SHARED.is_dir(), f"{SHARED} is missing: the seeds tests need ../shared beside the checkout"
    failures = run_document(doc, tmp_path, capsys, monkeypatch, slow=False, seeds=True)
    assert not failures, "\n\n".join(failures)


WITHOUT_EXAMPLES = {"benchmarks.md", "internals.md"}  # figures and the layout: nothing to run


def test_the_documents_have_examples_and_the_readme_is_a_guide():
    readme = Path(DOCS[0])
    assert readme.name == "README.md" and len(readme.read_text(encoding="utf-8").splitlines()) <= 400
    assert len(DOCS) >= 13 and all(blocks(d) for d in DOCS if d.name not in WITHOUT_EXAMPLES)


def test_every_page_the_readme_links_to_exists_and_every_page_is_linked():
    import re

    text = DOCS[0].read_text(encoding="utf-8")
    linked = set(re.findall(r"\]\((docs/[a-z-]+\.md)(?:#[a-z0-9-]*)?\)", text))
    assert linked == {f"docs/{d.name}" for d in DOCS[1:]}


def test_elisions_and_timings():
    assert matches(["a", "...", "d"], ["a", "b", "c", "d"]) and matches(["a", "...", "b"], ["a", "b"])
    assert matches(["value: 0.5..."], ["value: 0.5 and more"]) and not matches(["value: 0.6..."], ["value: 0.5"])
    assert matches(["took 1.5 s"], ["took 12.25 s"]) and normalise(["(build 0.07 s, check 8s) "]) == \
        ["(build <T> s, check <T> s)"]
    assert not matches(["a"], ["a", "b"]) and not matches(["a", "b"], ["a"]) and matches(["..."], [])
    assert expected_status(["exactplay: error: x"]) == 2 and expected_status(["FAIL a.json: x"]) == 1
    assert expected_status(["ok"]) == 0


def test_a_fence_is_an_example_or_names_its_language(tmp_path, monkeypatch):
    import doc_examples

    monkeypatch.setattr(doc_examples, "ROOT", tmp_path)
    doc = tmp_path / "x.md"
    doc.write_text("```\nsome output nobody runs\n```\n")
    with pytest.raises(ValueError, match="must name its language"):
        blocks(doc)
    doc.write_text("<!-- slow -->\n```\n$ exactplay list \\\n  --json\nout\n$ true\n```\n```yaml\nk: v\n```\n")
    (b,) = blocks(doc)
    assert b.slow and not b.seeds and commands(b) == [(3, "exactplay list --json", ["out"]), (6, "true", [])]
    doc.write_text("<!-- seeds -->\n```console\n$ ls ../shared\nseeds\n\n$ true\n```\n")
    (b,) = blocks(doc)
    assert b.seeds and not b.slow and commands(b) == [(3, "ls ../shared", ["seeds"]), (6, "true", [])]
    assert isinstance(b, Block)


def _anchors(path: Path) -> set[str]:
    """GitHub's anchors of the headings of a Markdown file."""
    import re

    out = set()
    for line in path.read_text(encoding="utf-8").splitlines():
        if line.startswith("#"):
            title = line.lstrip("#").strip().lower()
            out.add(re.sub(r"[^a-z0-9 _-]", "", title).replace(" ", "-"))
    return out


def test_every_relative_link_of_the_documents_reaches_a_file_and_a_heading():
    import re

    broken = []
    for doc in DOCS:
        for target in re.findall(r"\]\(([^)\s]+)\)", doc.read_text(encoding="utf-8")):
            if "://" in target:
                continue
            file, _, anchor = target.partition("#")
            path = (doc.parent / file).resolve() if file else doc
            if not path.exists() or (anchor and path.suffix == ".md" and anchor not in _anchors(path)):
                broken.append(f"{doc.name}: {target}")
    assert not broken, broken
