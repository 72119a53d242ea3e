"""The package's shape: no import cycle (imports inside functions count too) and small modules.

Both rules are from the developer guide (issue 11, item 1): a module of one job stays under
~400 lines; a submodule never imports the package that imports it.
"""

from __future__ import annotations

import ast
import functools
from pathlib import Path

from exactplay.graph import tarjan

SRC = Path(__file__).resolve().parent.parent / "src"
PACKAGE = SRC / "exactplay"
MAX_LINES = 400


@functools.lru_cache(maxsize=None)
def _import_nodes_cached(path: Path, mtime_ns: int, size: int) -> tuple[ast.stmt, ...]:
    return tuple(node for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path)))
                 if isinstance(node, (ast.Import, ast.ImportFrom)))


def import_nodes(path: Path) -> tuple[ast.stmt, ...]:
    """Every import statement of ``path``, anywhere in the file (each file parsed once per process
    while it is unchanged: the tests below walk the same sources)."""
    stat = path.stat()
    return _import_nodes_cached(path, stat.st_mtime_ns, stat.st_size)

# Modules still over MAX_LINES, with their line count when this list was written.  Shrink it:
# split a module, then delete its line here (the test fails while a listed module is no longer
# over the limit, so the list cannot go stale).
OVER_LIMIT: dict[str, int] = {}


def modules(root: Path) -> dict[str, tuple[Path, bool]]:
    """Dotted module name -> (file, is a package ``__init__``) for every ``.py`` under ``root``."""
    out = {}
    for path in sorted(root.rglob("*.py")):
        parts = list(path.relative_to(root).with_suffix("").parts)
        is_package = parts[-1] == "__init__"
        if is_package:
            parts = parts[:-1]
        out[".".join(parts)] = (path, is_package)
    return out


def import_graph(root: Path) -> dict[str, set[str]]:
    """``module -> modules it imports`` (within ``root``), from every import statement anywhere in
    the file: top level, inside functions, inside ``try``/``if``.  ``from P import name`` points at
    the submodule ``P.name`` when that is a module, else at ``P`` itself."""
    mods = modules(root)
    edges: dict[str, set[str]] = {m: set() for m in mods}
    for name, (path, is_package) in mods.items():
        here = name if is_package else name.rpartition(".")[0]
        for node in import_nodes(path):
            if isinstance(node, ast.ImportFrom):
                if node.level:
                    base = here.split(".")
                    base = base[:len(base) - (node.level - 1)]
                    target = ".".join(base + ([node.module] if node.module else []))
                else:
                    target = node.module or ""
                for alias in node.names:
                    sub = f"{target}.{alias.name}"
                    edges[name].add(sub if sub in mods else target)
            elif isinstance(node, ast.Import):
                edges[name].update(alias.name for alias in node.names)
        edges[name] = {t for t in edges[name] if t in mods and t != name}
    return edges


def cycles(edges: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components with more than one module (:func:`exactplay.graph.tarjan`
    on the modules numbered in sorted order)."""
    names = sorted(edges)
    number = {name: i for i, name in enumerate(names)}
    adj = [sorted(number[t] for t in edges[name]) for name in names]
    return sorted(sorted(names[i] for i in comp) for comp in tarjan(adj) if len(comp) > 1)


def line_count(path: Path) -> int:
    return len(path.read_text(encoding="utf-8").splitlines())


def test_no_import_cycle_in_exactplay_counting_imports_inside_functions():
    found = cycles(import_graph(SRC))
    assert not found, "import cycles (a submodule must not import the package that imports it): " + "; ".join(
        " <-> ".join(c) for c in found)


def test_the_cycle_finder_sees_a_lazy_import_and_a_relative_one(tmp_path):
    pkg = tmp_path / "p"
    (pkg / "sub").mkdir(parents=True)
    (pkg / "__init__.py").write_text("from p.sub.a import f\n")
    (pkg / "sub" / "__init__.py").write_text("")
    (pkg / "sub" / "a.py").write_text("def f():\n    from .. import g  # lazy, relative\n    return g\n")
    (pkg / "sub" / "b.py").write_text("from . import a\n")
    edges = import_graph(tmp_path)
    assert edges["p.sub.b"] == {"p.sub.a"}  # `from . import a` is the submodule, not the package
    assert cycles(edges) == [["p", "p.sub.a"]]
    (pkg / "sub" / "a.py").write_text("def f():\n    return 1\n")
    assert cycles(import_graph(tmp_path)) == []


def test_no_module_over_400_lines_but_the_listed_ones():
    over = {str(p.relative_to(SRC)): line_count(p) for p in PACKAGE.rglob("*.py") if line_count(p) > MAX_LINES}
    new = {p: n for p, n in over.items() if p not in OVER_LIMIT}
    assert not new, f"modules over {MAX_LINES} lines (split them into modules of one job): {new}"


def test_every_listed_module_is_still_over_the_limit():
    stale = [p for p in OVER_LIMIT if not (SRC / p).exists() or line_count(SRC / p) <= MAX_LINES]
    assert not stale, f"no longer over {MAX_LINES} lines (or gone): delete them from OVER_LIMIT: {stale}"


def test_no_test_can_be_skipped_away_by_an_import_failure():
    """Issue 11: a test that an import failure skips asserts nothing; every dependency the tests
    need is in the test extra, so an import that fails must fail the test."""
    tests = Path(__file__).resolve().parent
    offenders = [p.name for p in tests.rglob("*.py") if p.name != Path(__file__).name
                 and "importorskip" in p.read_text(encoding="utf-8")]
    assert offenders == []


# ------------------------------------------------------------ the layers (issue 24)

MAX_FLAT = 12  # modules left directly in src/exactplay/ (the rest live in folders named for their layer)


def room(module: str) -> str:
    """The top-level folder (or flat module) of ``exactplay`` a module lives in: ``exactplay.cli.main`` ->
    ``cli``."""
    parts = module.split(".")
    return parts[1] if len(parts) > 1 else "exactplay"


def test_at_most_twelve_modules_are_left_flat():
    flat = sorted(p.name for p in PACKAGE.glob("*.py"))
    assert len(flat) <= MAX_FLAT, f"{len(flat)} flat modules (put them in the folder of their layer): {flat}"


def test_no_folder_imports_a_folder_that_imports_it_back():
    """The folders and flat modules of ``exactplay`` form layers: their import graph has no cycle, so
    no import climbs back up (e.g. into games/ from a layer the games use: the games are found by
    name in :mod:`exactplay.registry`)."""
    rooms: dict[str, set[str]] = {}
    for module, targets in import_graph(SRC).items():
        for target in targets:
            if room(target) not in (room(module), "exactplay"):
                rooms.setdefault(room(module), set()).add(room(target))
    found = cycles({r: rooms.get(r, set()) for r in set(rooms).union(*rooms.values())})
    assert not found, "folders that import each other: " + "; ".join(" <-> ".join(c) for c in found)


def test_the_room_check_sees_a_folder_cycle():
    assert cycles({"a": {"b"}, "b": {"a"}, "c": {"a"}}) == [["a", "b"]]


def private_imports(root: Path) -> list[str]:
    """``module -> name`` for every import of a private name (``_x``, a module or an object) from
    outside the package that defines it (a private name of ``P.m`` or ``P._m`` belongs to ``P``)."""
    mods = modules(root)
    out = []
    for name, (path, is_package) in mods.items():
        here = name if is_package else name.rpartition(".")[0]
        for node in import_nodes(path):
            if not isinstance(node, ast.ImportFrom):
                continue
            base = here.split(".")[:len(here.split(".")) - (node.level - 1)] if node.level else []
            target = ".".join(base + ([node.module] if node.module else []))
            for alias in node.names:
                parts = f"{target}.{alias.name}".split(".")
                first = next((i for i, p in enumerate(parts) if p.startswith("_") and not p.startswith("__")), None)
                if first is None:
                    continue
                owner = ".".join(parts[:first])
                package = owner if owner in mods and mods[owner][1] else owner.rpartition(".")[0]
                if not (here == package or here.startswith(package + ".")):
                    out.append(f"{name} -> {'.'.join(parts)}")
    return out


def test_no_private_name_is_imported_across_packages():
    found = private_imports(SRC)
    assert not found, "private names imported from another package (make them public there): " + "; ".join(found)


def test_the_private_import_check_sees_one(tmp_path):
    pkg = tmp_path / "p"
    (pkg / "a").mkdir(parents=True)
    (pkg / "b").mkdir()
    for d in (pkg, pkg / "a", pkg / "b"):
        (d / "__init__.py").write_text("")
    (pkg / "a" / "m.py").write_text("_secret = 1\n")
    (pkg / "a" / "n.py").write_text("from .m import _secret\n")  # within its package: fine
    (pkg / "b" / "k.py").write_text("from ..a.m import _secret\nfrom ..a import _m\n")
    assert private_imports(tmp_path) == ["p.b.k -> p.a.m._secret", "p.b.k -> p.a._m"]
