"""A pytest plugin: every certificate under a directory is a test item, re-verified by the checker.

::

    python3 -m pytest --exactplay-check proofs/            # the usual tests, and one item per certificate
    python3 -m pytest --exactplay-check proofs/ proofs/    # the certificates alone

Registered as the ``pytest11`` entry point ``exactplay`` (``-p no:exactplay`` turns it off).  Each
``*.json`` file below each ``--exactplay-check DIR`` (the files ``exactplay check DIR`` checks) is
one item, named by its path, marked ``exactplay_certificate``.  It passes when the independent
checker verifies the certificate (:func:`exactplay.check`) and fails with the checker's message,
which names the field and the state where the certificate is wrong::

    FAIL proofs/race/race-10-v2.json: Bellman: ... (field 'solution.values', state 3) [state 3 is ...]

A directory that does not exist is a usage error before anything runs.  The plugin imports nothing
of exactplay until an item runs.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

__all__ = ["pytest_addoption", "pytest_configure", "pytest_collect_file", "CertificateItem", "CertificateFile"]

MARKER = "exactplay_certificate"
_DIRS = pytest.StashKey[list]()


def pytest_addoption(parser: pytest.Parser) -> None:
    group = parser.getgroup("exactplay", "exactplay certificates")
    group.addoption("--exactplay-check", action="append", default=[], metavar="DIR",
                    help="re-verify every certificate (*.json) under DIR, one test item each (repeatable)")


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", f"{MARKER}: an exactplay certificate re-verified by the checker "
                                       "(--exactplay-check DIR)")
    here = Path(config.invocation_params.dir)
    dirs = []
    for given in config.getoption("exactplay_check") or []:
        d = _absolute(here / given)  # as given: a symbolic link is followed where the collection meets it
        if not d.is_dir():
            raise pytest.UsageError(f"--exactplay-check {given}: no such directory")
        dirs.append(d)
    config.stash[_DIRS] = dirs
    # a directory the collection does not reach already is collected too
    reached = [_absolute(here / a.split("::")[0]) for a in config.args]
    for given, d in zip(config.getoption("exactplay_check") or [], dirs):
        if not any(d == r or r in d.parents for r in reached):
            config.args.append(str(d))
            reached.append(d)


def pytest_collect_file(file_path: Path, parent: pytest.Collector):
    if file_path.suffix != ".json":
        return None
    dirs = parent.config.stash.get(_DIRS, [])
    path = _absolute(file_path)
    if any(d in path.parents for d in dirs):
        return CertificateFile.from_parent(parent, path=file_path)
    return None


def _absolute(path: Path) -> Path:
    """``path`` made absolute and normalised, its symbolic links kept (the paths pytest collects)."""
    return Path(os.path.abspath(path))


class CertificateFile(pytest.File):
    """A certificate file: one item."""

    def collect(self):
        yield CertificateItem.from_parent(self, name="check")


class CertificateFailed(Exception):
    """The checker's message for a certificate that does not verify."""


class CertificateItem(pytest.Item):
    """One certificate, verified by :func:`exactplay.check`."""

    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        self.add_marker(MARKER)

    def runtest(self) -> None:
        import exactplay

        result = exactplay.check(self.path)
        if not result.ok:
            raise CertificateFailed(result.message)

    def repr_failure(self, excinfo, style=None):
        if isinstance(excinfo.value, CertificateFailed):
            return str(excinfo.value)
        return super().repr_failure(excinfo, style)

    def reportinfo(self):
        return self.path, None, f"certificate {self.path.name}"
