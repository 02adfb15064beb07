"""QuietSessionWatch: a long-running host's background summarizer starts on a session once it goes
quiet, so its model summary is kept before anyone asks (beyond FEAT-032: summaries made in the
background). The host starts the watch; a one-shot command never does.
"""
from __future__ import annotations

import logging
import threading
from collections.abc import Callable

_LOG = logging.getLogger(__name__)
# The background's one wait, a claim about people rather than a measured figure: a session with no new
# turn for this long is taken as finished for now (a reply a few minutes away does not restart a model's
# seconds of work), the recent sessions are looked at this often (a session's summary is kept within
# twice this of its last turn), and a session the model failed on waits this long to be asked again.
QUIET_SECONDS = 600.0


class QuietSessionWatch:
    def __init__(self, sweep: Callable[[], int], every_seconds: float = QUIET_SECONDS) -> None:
        """`sweep()` asks for the quiet sessions' summaries and returns how many it asked for."""
        self._sweep, self._every = sweep, every_seconds
        self._stopped = threading.Event()
        self._thread: threading.Thread | None = None

    def start(self) -> None:
        """Look now and then every so often, on a daemon thread, until stop(); a second start does nothing."""
        if self._thread is None:
            self._thread = threading.Thread(target=self._run, name="oneclaw-quiet-sessions", daemon=True)
            self._thread.start()

    def stop(self) -> None:
        self._stopped.set()
        if self._thread is not None:
            self._thread.join()

    def _run(self) -> None:
        while not self._stopped.is_set():
            try:
                asked = self._sweep()
                if asked:
                    _LOG.info("asked for the summaries of %d quiet sessions", asked)
            except Exception:  # noqa: BLE001 - a watch that dies would leave every later session unsummarised
                _LOG.exception("looking for quiet sessions failed")
            self._stopped.wait(self._every)
