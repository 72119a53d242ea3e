"""Progress reporting for long computations.

Solvers accept a ``progress`` object with two methods, ``start(label, total)``
and ``advance(n=1)``; :data:`SILENT` does nothing.  The CLI passes a
:class:`RichProgress` only when both stdout and stderr are terminals and
neither ``--quiet`` nor ``--json`` was given, so progress never mixes with
machine-readable output and never lands in a pipe or a log file.
"""

from __future__ import annotations

import sys
import threading
import time


def _is_terminal(stream) -> bool:
    try:
        return bool(stream.isatty())
    except (AttributeError, ValueError):  # replaced or closed streams
        return False


class Silent:
    def start(self, label: str, total: int | None = None) -> None:
        pass

    def print(self, text: str, err: bool = False) -> None:
        """Print a result line while work goes on (above the bar, never hard-wrapped)."""
        print(text, file=sys.stderr if err else sys.stdout)

    def advance(self, n: int = 1) -> None:
        pass

    def close(self) -> None:
        pass


SILENT = Silent()


class RichProgress(Silent):  # pragma: no cover - needs a terminal
    """A rich progress bar on stderr, shown only once the work has taken about two seconds.

    One task is reused: ``start`` relabels and resets it.  A timer shows the bar
    even while a single long step runs without calling ``advance``.
    """

    DELAY = 2.0

    def __init__(self) -> None:
        self._bar = None
        self._task = None
        self._t0 = time.monotonic()
        self._label = ""
        self._total = None
        self._done = 0
        self._lock = threading.Lock()
        self._timer = None
        self._closed = False

    def _show(self) -> None:
        with self._lock:
            if self._bar is not None or self._closed:
                return
            from rich.console import Console
            from rich.progress import BarColumn, Progress, TextColumn, TimeElapsedColumn

            self._bar = Progress(TextColumn("{task.description}"), BarColumn(), TimeElapsedColumn(),
                                 console=Console(file=sys.stderr), transient=True)
            self._bar.start()
            self._task = self._bar.add_task(self._label, total=self._total, completed=self._done)

    def start(self, label: str, total: int | None = None) -> None:
        self._label, self._total, self._done = label, total, 0
        if self._bar is not None:
            self._bar.update(self._task, description=label, total=total, completed=0)
        elif self._timer is None:
            wait = max(0.0, self.DELAY - (time.monotonic() - self._t0))
            self._timer = threading.Timer(wait, self._show)
            self._timer.daemon = True
            self._timer.start()

    def advance(self, n: int = 1) -> None:
        self._done += n
        if self._bar is not None:
            self._bar.update(self._task, advance=n)
        elif time.monotonic() - self._t0 > self.DELAY:
            self._show()

    def print(self, text: str, err: bool = False) -> None:
        if self._bar is not None and not err:
            self._bar.console.print(text, soft_wrap=True, highlight=False, markup=False)
        else:
            print(text, file=sys.stderr if err else sys.stdout)

    def close(self) -> None:
        with self._lock:
            self._closed = True
            if self._timer is not None:
                self._timer.cancel()
        if self._bar is not None:
            self._bar.stop()


def make_progress(quiet: bool, json_output: bool):
    """:data:`SILENT` for ``--quiet``, ``--json`` or output that is not a terminal."""
    if quiet or json_output or not _is_terminal(sys.stdout) or not _is_terminal(sys.stderr):
        return SILENT
    try:
        import rich  # noqa: F401
    except ImportError:  # pragma: no cover
        return SILENT
    return RichProgress()
