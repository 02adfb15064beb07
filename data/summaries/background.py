"""Summaries a slow model makes in the background (the SummaryLater port of domain/session_summary.py):
one worker thread takes the sessions asked for, oldest request first, and keeps each digest in the
summary cache, where the next get_session_summary call finds it.

A digest the model could not make (it failed, or was unavailable) is not kept, and a warning says
why; the session is asked for again after QUIET_SECONDS (a model that is down, or a key refused, costs
no request per call), and until then `why_not` says why. One whose every sentence named what the
session never said is kept, so the model is not asked again about a session it gets wrong. A session
asked for again after it changed is made once, under its newest key: the older request is dropped.
The worker is a daemon: a one-shot command does not wait for it (`oneclaw-search summarize` does the
work in its own thread instead).
"""
from __future__ import annotations

import logging
import queue
import threading
import time
from collections.abc import Callable

from oneclaw_search.data.summaries.quiet_watch import QUIET_SECONDS
from oneclaw_search.domain.session_summary import Summarizer, SummaryCache, Transcript

_LOG = logging.getLogger(__name__)




class BackgroundSummaries:
    def __init__(self, summarizer: Summarizer, cache: SummaryCache, method_key: str, name: str,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.method_key, self.name = method_key, name
        self._summarizer, self._cache, self._clock = summarizer, cache, clock
        self._failed: dict[str, tuple[float, str]] = {}  # key -> when the model last failed on it, and why
        self._work: queue.Queue[tuple[str, str, Callable[[], Transcript]]] = queue.Queue()
        self._asked: set[str] = set()
        self._newest: dict[str, str] = {}  # session id -> the key it was last asked for under
        self._lock = threading.Lock()
        self._worker: threading.Thread | None = None

    def ask(self, session_id: str, key: str, read: Callable[[], Transcript]) -> None:
        with self._lock:
            self._newest[session_id] = key
            if key in self._asked or self._why_not(key) is not None:
                return
            self._asked.add(key)
            self._work.put((session_id, key, read))
            if self._worker is None:
                # A daemon: a host that exits does not wait for summaries nobody is waiting for.
                self._worker = threading.Thread(target=self._run, name="oneclaw-summaries", daemon=True)
                self._worker.start()

    def why_not(self, key: str) -> str | None:
        """Why the model failed on `key` when it did so lately, else None."""
        with self._lock:
            return self._why_not(key)

    def summarize_now(self, key: str, transcript: Transcript) -> bool:
        """Make and keep one session's summary in this thread (the `summarize` command); whether it was kept."""
        digest = self._summarizer.summarize(transcript)
        if "unavailable" in digest.method:
            _LOG.warning("no model summary of session %s: %s", transcript.session.id, digest.method)
            with self._lock:  # the method ends "(<model> unavailable: <reason>)"
                self._failed[key] = (self._clock(), digest.method.rsplit(" (", 1)[-1].removesuffix(")"))
            return False
        self._cache.put(key, digest)
        with self._lock:
            self._failed.pop(key, None)
        return True

    def _why_not(self, key: str) -> str | None:
        when, why = self._failed.get(key, (None, None))
        return why if when is not None and self._clock() - when < QUIET_SECONDS else None

    def wait(self) -> None:
        """Return once every summary asked for so far is made (or failed)."""
        self._work.join()

    def _run(self) -> None:
        while True:
            session_id, key, read = self._work.get()
            try:
                with self._lock:
                    current = self._newest.get(session_id) == key
                # Not when the session changed since (its newer request is in the queue), nor when a
                # `summarize` beside this worker kept it already.
                if current and self._cache.get(key) is None:
                    self.summarize_now(key, read())
            except Exception:  # noqa: BLE001 - a worker that dies would leave every later session unsummarised
                _LOG.exception("a background summary failed")
            finally:
                with self._lock:
                    self._asked.discard(key)
                self._work.task_done()
