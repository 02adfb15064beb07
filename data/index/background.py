"""BackgroundBuild: builds or catches up the keyword index on a thread of its own, so no search
waits for it; searches meanwhile read what the last commit holds.

One build per process at a time; across processes tantivy's writer lock decides, and a process
that loses only reads.
"""
from __future__ import annotations

import logging
import threading

from oneclaw_search.data.index.keyword_index import WriterBusy
from oneclaw_search.data.index.sync import IndexSync

_log = logging.getLogger(__name__)


class BackgroundBuild:
    def __init__(self, sync: IndexSync) -> None:
        self._sync = sync
        self._thread: threading.Thread | None = None
        self._stop = threading.Event()
        self._lock = threading.Lock()

    @property
    def running(self) -> bool:
        return self._thread is not None and self._thread.is_alive()

    def start(self) -> None:
        with self._lock:
            if not self.running:
                self._thread = threading.Thread(target=self._run, name="oneclaw-index-build", daemon=True)
                self._thread.start()

    def stop(self, timeout: float | None = None) -> None:
        """Ask the build to stop after its current batch (what it committed stays) and wait for it."""
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout)
        self._stop.clear()

    def _run(self) -> None:
        try:
            self._sync.catch_up(stop=self._stop.is_set)
        except WriterBusy:
            _log.debug("another process is building the keyword index; reading its commits")
        except Exception:  # a failed build must not take the host down: searches keep reading what exists
            _log.warning("building the keyword index failed", exc_info=True)
