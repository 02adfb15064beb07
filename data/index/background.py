"""BackgroundBuild: builds or catches up the keyword index away from the searches, so none waits
for it; searches meanwhile read the last commit (Q-11, Q-12). The first search of a small history
has it build now and waits for the end.

The build runs in a process of its own (build_process.py): a thread would hold the interpreter's
lock for most of a build and slow every search beside it, and a process goes on after a one-shot
command has answered and exited (a lookup made without a command, as tests make one, builds on a
thread). Across processes tantivy's writer lock decides who builds; one that loses only reads.
"""
from __future__ import annotations

import contextlib
import logging
import os
import subprocess
import sys
import threading
import time
from pathlib import Path

from oneclaw_search.data.index.keyword_index import WriterBusy
from oneclaw_search.data.index.sync import IndexSync
from oneclaw_search.domain.window_bm25 import DEFAULT_WINDOW, WindowLayout

_log = logging.getLogger(__name__)
RESTART_AFTER_SECONDS = 30.0
# A first build of at most this many rows runs in the searching thread: a process takes about as long
# to start as this many rows take to build.
IN_THREAD_ROWS = 10_000
WAITED = "--waited"  # the build process's flag: a search waits for it, so it keeps its priority
WINDOW_FLAG = "--window"  # the build process's flag naming the windows' layout (WindowLayout.token)
BUILD_NICENESS = 10  # the searches beside a build come first: they are what someone is waiting for
LOST_THE_WRITER = 3  # a build process's exit code when another process holds the writer
BUILT, BUSY, STOPPED = "built", "busy", "stopped"


class BackgroundBuild:
    def __init__(self, sync: IndexSync, command: list[str] | None = None) -> None:
        """`command`: the build_process command line for this history, or None to build on a thread."""
        self._sync = sync
        self._command = command
        self._thread: threading.Thread | None = None
        self._process: subprocess.Popen[bytes] | None = None
        self._stop = threading.Event()
        self._lock = threading.Lock()
        self._started_at: float | None = None
        self._thread_caught_up = False

    def _rested_too_little(self) -> bool:
        """A build that ended with the index still behind most often lost the writer's lock to another
        process's build: starting one per search would only pay a process's start-up each time. One
        that caught up is followed at once by the next, when the history changed after it looked."""
        return (self._started_at is not None and time.monotonic() - self._started_at < RESTART_AFTER_SECONDS
                and not self._caught_up())

    def _caught_up(self) -> bool:
        """Whether the last build ended having taken in every row it saw."""
        if self._process is not None:
            return self._process.poll() == 0
        return self._thread_caught_up

    @property
    def running(self) -> bool:
        if self._process is not None:
            return self._process.poll() is None
        return self._thread is not None and self._thread.is_alive()

    def start(self, waited: bool = False) -> bool:
        """Start a build unless one runs or one started moments ago; whether it started. `waited`: a
        search waits for it, so its process keeps the search's priority."""
        with self._lock:
            if self.running or self._rested_too_little():
                return False
            self._started_at = time.monotonic()
            if self._command is not None:
                command = [*self._command, WAITED] if waited else self._command
                self._process = subprocess.Popen(command, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                                                 stderr=subprocess.DEVNULL, start_new_session=True)
                return True
            self._thread = threading.Thread(target=self._run, name="oneclaw-index-build", daemon=True)
            self._thread.start()
            return True

    def build_now(self, rows: int, timeout: float) -> str:
        """Build `rows` rows now and wait for the end, at most `timeout` seconds: the first search of a
        small history. Past IN_THREAD_ROWS in a process of its own, so the search's other sources go
        on beside it on another core; fewer are built in the caller's thread, sooner than a process
        starts. BUILT, BUSY (a build runs already, here or in another process) or STOPPED."""
        if self._command is None or rows <= IN_THREAD_ROWS:
            until = time.monotonic() + timeout
            with self._lock:
                if self.running:
                    return BUSY
                try:
                    return BUILT if self._sync.catch_up(stop=lambda: time.monotonic() > until) else STOPPED
                except WriterBusy:
                    return BUSY
        if not self.start(waited=True) or self._process is None:
            return BUSY  # one runs, or ended moments ago: most often another process holds the writer
        try:
            return {0: BUILT, LOST_THE_WRITER: BUSY}.get(self._process.wait(timeout), STOPPED)
        except subprocess.TimeoutExpired:
            _renice(self._process.pid)  # it goes on as a background build, no longer waited for
            return STOPPED

    def wait(self, timeout: float | None = None) -> None:
        """Wait for the running build to end (a process's or a thread's)."""
        if self._process is not None:
            self._process.wait(timeout)
        elif self._thread is not None:
            self._thread.join(timeout)

    def stop(self, timeout: float | None = None) -> None:
        """Ask the build to stop after its current batch (what it committed stays) and wait for it."""
        self._stop.set()
        if self._process is not None and self._process.poll() is None:
            self._process.terminate()
        self.wait(timeout)
        self._stop.clear()

    def _run(self) -> None:
        self._thread_caught_up = False
        try:
            self._thread_caught_up = self._sync.catch_up(stop=self._stop.is_set)
        except WriterBusy:
            _log.debug("another process is building the keyword index; reading its commits")
        except Exception:  # a failed build must not take the host down: searches keep reading what exists
            _log.warning("building the keyword index failed", exc_info=True)


def _renice(pid: int) -> None:
    if hasattr(os, "setpriority"):
        with contextlib.suppress(OSError):  # it ended meanwhile
            os.setpriority(os.PRIO_PROCESS, pid, BUILD_NICENESS)


def build_command(history_path: str | Path, side_path: str | Path, layout: WindowLayout = DEFAULT_WINDOW) -> list[str]:
    """The command line that builds this history's index, its windows written as `layout` says, in a
    process of its own."""
    return [sys.executable, "-m", "oneclaw_search.data.index.build_process", str(history_path), str(side_path),
            f"{WINDOW_FLAG}={layout.token}"]
