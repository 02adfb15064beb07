"""Summaries a slow model makes in the background (the SummaryLater port of domain/session_summary.py):
one worker thread takes the sessions asked for, oldest request first, and keeps each digest in the
summary cache, where the next get_session_summary call finds it.

A digest the model could not make (it failed, or was unavailable) is not kept, and a warning says
why, so the session is asked for again on a later call; one whose every sentence named what the
session never said is kept, so the model is not asked again about a session it gets wrong. A session
asked for again after it changed is made once, under its newest key: the older request is dropped.
The worker is a daemon: a one-shot command does not wait for it (`oneclaw-search summarize` does the
work in its own thread instead).
"""
from __future__ import annotations

import logging
import queue
import threading
from collections.abc import Callable

from oneclaw_search.domain.session_summary import Summarizer, SummaryCache, Transcript

_LOG = logging.getLogger(__name__)


class BackgroundSummaries:
    def __init__(self, summarizer: Summarizer, cache: SummaryCache, method_key: str, name: str) -> None:
        self.method_key, self.name = method_key, name
        self._summarizer, self._cache = summarizer, cache
        self._work: queue.Queue[tuple[str, str, Callable[[], Transcript]]] = queue.Queue()
        self._asked: set[str] = set()
        self._newest: dict[str, str] = {}  # session id -> the key it was last asked for under
        self._lock = threading.Lock()
        self._worker: threading.Thread | None = None

    def ask(self, session_id: str, key: str, read: Callable[[], Transcript]) -> None:
        with self._lock:
            self._newest[session_id] = key
            if key in self._asked:
                return
            self._asked.add(key)
            self._work.put((session_id, key, read))
            if self._worker is None:
                # A daemon: a host that exits does not wait for summaries nobody is waiting for.
                self._worker = threading.Thread(target=self._run, name="oneclaw-summaries", daemon=True)
                self._worker.start()

    def summarize_now(self, key: str, transcript: Transcript) -> bool:
        """Make and keep one session's summary in this thread (the `summarize` command); whether it was kept."""
        digest = self._summarizer.summarize(transcript)
        if "unavailable" in digest.method:
            _LOG.warning("no model summary of session %s: %s", transcript.session.id, digest.method)
            return False
        self._cache.put(key, digest)
        return True

    def wait(self) -> None:
        """Return once every summary asked for so far is made (or failed)."""
        self._work.join()

    def _run(self) -> None:
        while True:
            session_id, key, read = self._work.get()
            try:
                with self._lock:
                    current = self._newest.get(session_id) == key
                if current:  # else the session changed since: its newer request is in the queue
                    self.summarize_now(key, read())
            except Exception:  # noqa: BLE001 - a worker that dies would leave every later session unsummarised
                _LOG.exception("a background summary failed")
            finally:
                with self._lock:
                    self._asked.discard(key)
                self._work.task_done()
