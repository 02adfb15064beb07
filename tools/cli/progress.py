"""Progress bars for the commands that can run long (`import`, `index`; beyond FEAT-032): rich's bars
on stderr with a count, its rate and the time left, drawn only when stderr is a terminal so that
piped runs, logs and tests see the summary alone, and stdout never carries a bar."""
from __future__ import annotations

import sys
from collections.abc import Iterator
from contextlib import contextmanager

from rich.console import Console
from rich.progress import BarColumn, Progress, ProgressColumn, Task, TaskID, TextColumn
from rich.table import Column
from rich.text import Text


def terminal_console() -> Console | None:
    """Rich's console on stderr when stderr is a terminal, else None: nothing is drawn. Rich alone
    would also draw into a pipe when FORCE_COLOR is set, which CI runners often set."""
    if not sys.stderr.isatty():
        return None
    console = Console(stderr=True)
    return console if console.is_terminal else None


class _Count(ProgressColumn):
    def render(self, task: Task) -> Text:
        unit = task.fields.get("unit")
        if unit is None:  # a stage without a count
            return Text("")
        total = "" if task.total is None else f"/{task.total:,.0f}"
        return Text(f"{task.completed:,.0f}{total} {unit}", style="progress.download")


class _Rate(ProgressColumn):
    def render(self, task: Task) -> Text:
        unit = task.fields.get("unit")
        if unit is None:
            return Text("")
        speed = _speed(task)
        shown = "-" if speed is None else f"{speed:,.0f}"
        return Text(f"{shown} {unit}/s", style="progress.data.speed")


def _speed(task: Task) -> float | None:
    """Rich's estimate over the last 30 s once two reports have come; until then the count this
    run has added over its time so far; None before the first report."""
    if task.speed is not None:
        return task.speed
    added = task.completed - task.fields.get("first", 0)
    return added / task.elapsed if added > 0 and task.elapsed else None


class _Time(ProgressColumn):
    """The time left ("ETA") while a count with a known end runs, else the time taken so far."""

    def render(self, task: Task) -> Text:
        if task.fields.get("unit") is not None and task.total is not None and not task.finished:
            speed = _speed(task)
            left = "-:--:--" if speed is None else _clock(max(task.total - task.completed, 0) / speed)
            return Text(f"ETA {left}", style="progress.remaining")
        taken = task.finished_time if task.finished else task.elapsed
        return Text(_clock(taken or 0), style="progress.elapsed")


def _clock(seconds: float) -> str:
    minutes, second = divmod(int(seconds), 60)
    return f"{minutes // 60:d}:{minutes % 60:02d}:{second:02d}"


class CountBar:
    """One growing count, told by an importer or the index (`bar(count)`); `expect(total)` gives
    it an end once known. When the count reaches its end, the stage `then` names (the writing an
    import does after reading) gets a line of its own, so the full bar is not taken for the end."""

    def __init__(self, bars: Bars, progress: Progress, task: TaskID, total: int | None, then: str | None) -> None:
        self._bars, self._progress, self._task, self._total, self._then = bars, progress, task, total, then

    def __call__(self, count: int) -> None:
        self._progress.update(self._task, completed=count)
        if self._then is not None and self._total is not None and count >= self._total:
            self._bars.stage(self._then)
            self._then = None

    def expect(self, total: int) -> None:
        self._total = total
        self._progress.update(self._task, total=total)


class Bars:
    """The bars of one command, or none at all off a terminal (`count` then gives None, so an
    importer skips the work of finding its totals)."""

    def __init__(self, progress: Progress | None) -> None:
        self.progress = progress
        self._stages: list[TaskID] = []

    def count(self, description: str, unit: str, total: int | None = None, start: int = 0,
              then: str | None = None) -> CountBar | None:
        if self.progress is None:
            return None
        task = self.progress.add_task(description, total=total, completed=start, unit=unit, first=start)
        return CountBar(self, self.progress, task, total, then)

    def stage(self, description: str) -> None:
        """A line for work without a count (a bar that pulses, and the time it has taken); the
        stage before it ends here."""
        if self.progress is not None:
            self.finish()
            self._stages.append(self.progress.add_task(description, total=None))

    def finish(self) -> None:
        """Every stage shown as done, its time stopped."""
        if self.progress is not None:
            for task in self._stages:
                self.progress.update(task, total=1, completed=1)
        self._stages.clear()


@contextmanager
def progress_bars(transient: bool = False) -> Iterator[Bars]:
    """Bars on stderr for the work inside, left on screen (or wiped when `transient`) as it ends."""
    console = terminal_console()
    if console is None:
        yield Bars(None)
        return
    whole = Column(no_wrap=True)  # a narrow terminal cuts a figure short rather than break it in two
    columns = (TextColumn("{task.description}", table_column=whole), BarColumn(bar_width=24),
               _Count(table_column=whole), _Rate(table_column=whole), _Time(table_column=whole))
    # stdout stays where it was: rich would send it through the bars' console, onto stderr
    with Progress(*columns, console=console, transient=transient, redirect_stdout=False) as progress:
        bars = Bars(progress)
        yield bars
        bars.finish()
