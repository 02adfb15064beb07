"""VectorsAlongside: message vectors embedded in a process of its own while the build indexes words
(Q-09, Q-11). Embedding a message costs about twice what indexing its words does, so on two cores a
large build takes about as long as its embedding alone rather than the two one after the other.

The process is build_process.py's vectors mode; it writes the vectors and its progress into the side
file, as an embedding in this process would, so whatever it leaves undone is embedded here after.
"""
from __future__ import annotations

import subprocess
import time
from collections.abc import Callable

ALONGSIDE_ROWS = 50_000  # a backlog worth a process of its own: a smaller one is embedded after the words
_POLL_SECONDS = 0.2


class VectorsAlongside:
    def __init__(self, process: subprocess.Popen[bytes] | None) -> None:
        self._process = process

    @classmethod
    def start(cls, command: list[str] | None, backlog: int) -> VectorsAlongside:
        """Start embedding in a process of its own when there is a command for it and enough to embed."""
        if command is None or backlog < ALONGSIDE_ROWS:
            return cls(None)
        return cls(subprocess.Popen(command, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                                    stderr=subprocess.DEVNULL, start_new_session=True))

    def wait(self, stop: Callable[[], bool]) -> bool:
        """Wait for the process to end; False when `stop` said so first (the process is stopped too)."""
        while self._process is not None and self._process.poll() is None:
            if stop():
                self.stop()
                return False
            time.sleep(_POLL_SECONDS)
        return True

    def stop(self) -> None:
        """Stop it after the batch in hand (what it wrote stays)."""
        if self._process is not None and self._process.poll() is None:
            self._process.terminate()
            self._process.wait()
