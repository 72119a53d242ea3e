"""Progress reporting for long computations.

Solvers accept a ``progress`` object with two methods, ``start(label, total)``
and ``advance(n=1)``; :data:`SILENT` does nothing.  The CLI passes a
:class:`RichProgress` only when both stdout and stderr are terminals and
neither ``--quiet`` nor ``--json`` was given, so progress never mixes with
machine-readable output and never lands in a pipe or a log file.

What a bar shows is honest:

* ``start`` begins a new step: label, total, count and clock all start again
  (a bar is never left at 100 % by the step before);
* a step with no total shows a moving bar and its running clock;
* when a step reaches its total and work goes on without a new ``start``,
  the bar says so ("... done; still working") and the clock keeps running:
  no bar sits at 100 % with a frozen clock;
* the clock is the step's own, read from :attr:`RichProgress.clock` (not
  rich's, which stops when a task is finished).

Results printed while a bar is up go through :meth:`RichProgress.print`
(above the bar, soft-wrapped: a long line is never cut into pieces).
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


def format_elapsed(seconds: float) -> str:
    """``m:ss`` (or ``h:mm:ss``) of a step's running clock.

    >>> format_elapsed(0.4), format_elapsed(75), format_elapsed(3725)
    ('0:00', '1:15', '1:02:05')
    """
    s = int(max(0.0, seconds))
    h, rest = divmod(s, 3600)
    m, s = divmod(rest, 60)
    return f"{h}:{m:02d}:{s:02d}" if h else f"{m}:{s:02d}"


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


class RichProgress(Silent):
    """A rich progress bar on stderr, shown only once the work has taken :attr:`DELAY` seconds.

    One task is reused: ``start`` relabels it and resets count and clock.  A timer
    shows the bar even while a single long step runs without calling ``advance``,
    and keeps the clock moving while the bar is up.

    ``clock`` (default :func:`time.monotonic`) and ``console`` (a rich Console,
    default one on stderr) can be replaced, and ``timer=False`` leaves the showing
    to :meth:`tick`: the unit tests drive a bar with a fake clock that way.
    """

    DELAY = 2.0
    STILL_WORKING = "done; still working"

    def __init__(self, clock=time.monotonic, console=None, timer: bool = True) -> None:
        self.clock = clock
        self._console = console
        self._use_timer = timer
        self._bar = None
        self._task = None
        self._t0 = clock()
        self._label = ""
        self._total = None
        self._done = 0
        self._step_t0 = self._t0
        self._lock = threading.RLock()
        self._timer = None
        self._closed = False

    # ---------------------------------------------------------------- what the bar shows

    def state(self) -> dict:
        """What the bar shows now: ``label``, ``total`` (None: a moving bar), ``completed``,
        ``elapsed`` (seconds of the current step, never frozen) and ``visible``.

        Takes no lock: rich's refresh thread reads it while the main thread holds ours.
        """
        total, done, label = self._total, self._done, self._label
        if total is not None and done >= total:
            # the step is complete but no new step was started: work goes on
            label, total = f"{label}: {self.STILL_WORKING}" if label else self.STILL_WORKING, None
        return {"label": label, "total": total, "completed": done if total is not None else 0,
                "elapsed": self.clock() - self._step_t0, "visible": self._bar is not None}

    def elapsed_text(self) -> str:
        return format_elapsed(self.state()["elapsed"])

    # ---------------------------------------------------------------- the solvers' calls

    def start(self, label: str, total: int | None = None) -> None:
        with self._lock:
            self._label, self._total, self._done = label, total, 0
            self._step_t0 = self.clock()
            if self._bar is not None:
                self._refresh(reset=True)
            elif self._use_timer and self._timer is None and not self._closed:
                self._start_timer(max(0.0, self.DELAY - (self.clock() - self._t0)))
        self.tick()

    def advance(self, n: int = 1) -> None:
        with self._lock:
            self._done += n
        self.tick()

    def tick(self) -> None:
        """Show the bar once :attr:`DELAY` has passed, and bring it up to date."""
        with self._lock:
            if self._closed:
                return
            if self._bar is None:
                if self.clock() - self._t0 < self.DELAY:
                    return
                self._show()
            else:
                self._refresh()

    def print(self, text: str, err: bool = False) -> None:
        with self._lock:
            bar = self._bar
        if bar is not None:  # above the bar, on the bar's console, one logical line per line
            bar.console.print(text, soft_wrap=True, highlight=False, markup=False, emoji=False)
        else:
            print(text, file=sys.stderr if err else sys.stdout)

    def close(self) -> None:
        with self._lock:
            self._closed = True
            if self._timer is not None:
                self._timer.cancel()
            bar, self._bar = self._bar, None
        if bar is not None:
            bar.stop()

    # ---------------------------------------------------------------- rich

    def _start_timer(self, wait: float) -> None:
        def run():
            with self._lock:
                self._timer = None
            if self._closed:
                return
            self.tick()
            with self._lock:
                if not self._closed:  # keep the clock and the "still working" state moving
                    self._start_timer(0.5)

        self._timer = threading.Timer(wait, run)
        self._timer.daemon = True
        self._timer.start()

    def _show(self) -> None:
        from rich.console import Console
        from rich.progress import BarColumn, Progress, ProgressColumn, TextColumn
        from rich.text import Text

        owner = self

        class _StepClock(ProgressColumn):
            def render(self, task):  # the step's own clock: runs while work goes on
                return Text(owner.elapsed_text(), style="progress.elapsed")

        class _Count(ProgressColumn):
            def render(self, task):
                return Text("" if task.total is None else f"{int(task.completed):,}/{int(task.total):,}",
                            style="progress.download")

        console = self._console or Console(file=sys.stderr)
        self._bar = Progress(TextColumn("{task.description}"), BarColumn(), _Count(), _StepClock(),
                             console=console, transient=True, auto_refresh=self._use_timer)
        self._bar.start()
        s = self.state()
        self._task = self._bar.add_task(s["label"], total=s["total"], completed=s["completed"])

    def _refresh(self, reset: bool = False) -> None:
        s = self.state()
        shown = next((t for t in self._bar.tasks if t.id == self._task), None)
        if shown is None or reset or (s["total"] is None) != (shown.total is None):
            # rich cannot set a total back to None: a new task for a new step or a moving bar
            if shown is not None:
                self._bar.remove_task(self._task)
            self._task = self._bar.add_task(s["label"], total=s["total"], completed=s["completed"])
        else:
            self._bar.update(self._task, total=s["total"], completed=s["completed"], description=s["label"])
        if not self._use_timer:
            self._bar.refresh()


def make_progress(quiet: bool, json_output: bool):
    """:data:`SILENT` for ``--quiet``, ``--json`` or output that is not a terminal."""
    if quiet or json_output or not _is_terminal(sys.stdout) or not _is_terminal(sys.stderr):
        return SILENT
    try:
        import rich  # noqa: F401
    except ImportError:  # pragma: no cover
        return SILENT
    return RichProgress()


def heavy_notice(note: str | None, quiet: bool, json_output: bool) -> None:
    """One line on stderr before a command that takes minutes (not with ``--quiet`` or ``--json``)."""
    if note and not quiet and not json_output:
        print(f"exactplay: note: {note}", file=sys.stderr, flush=True)
