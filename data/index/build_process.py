"""The background build's own process: `python -m oneclaw_search.data.index.build_process HISTORY SIDE EMBEDDER`
(with `vectors` after them: the message vectors alone, embedded beside a build indexing words).

So that no search waits for a build (Q-11), it opens the history read-only, catches the keyword
index (and, with the default embedder, message vectors) up to it, and exits; SIGTERM, or the end of
the process that started it, stops it after the batch in hand, its commits kept (the next search
resumes it): a killed host leaves no build behind.
"""
from __future__ import annotations

import os
import signal
import sys
import threading
from pathlib import Path

from oneclaw_search.data.embedding.static_embedder import StaticEmbedder
from oneclaw_search.data.history.database import HistoryDatabase
from oneclaw_search.data.index.background import vectors_command
from oneclaw_search.data.index.keyword_index import WriterBusy
from oneclaw_search.data.index.lookup import KeywordLookup
from oneclaw_search.data.index.side_index import SideIndex
from oneclaw_search.data.index.vectors import MessageVectors

DEFAULT_EMBEDDER = "default"
VECTORS_ONLY = "vectors"


BUILD_NICENESS = 10  # the searches beside a build come first: they are what someone is waiting for


def main(argv: list[str]) -> int:
    """HISTORY SIDE EMBEDDER [vectors]: the whole catch-up, or (`vectors`) the message vectors alone,
    as a build running in another process asks."""
    history_path, side_path, embedder, *mode = argv
    if hasattr(os, "nice"):
        os.nice(BUILD_NICENESS)
    stop, parent = threading.Event(), os.getppid()
    signal.signal(signal.SIGTERM, lambda *_: stop.set())
    side = SideIndex(Path(side_path))
    history = HistoryDatabase.open_read_only(history_path)
    stopped = lambda: stop.is_set() or os.getppid() != parent  # noqa: E731
    if mode == [VECTORS_ONLY]:
        return 0 if MessageVectors(side, StaticEmbedder()).catch_up(history, stopped) else 1
    vectors = MessageVectors(side, StaticEmbedder()) if embedder == DEFAULT_EMBEDDER else None
    lookup = KeywordLookup.open(history, side, vectors, vectors_command=vectors_command(history_path, side_path, embedder))
    try:
        return 0 if lookup.sync.catch_up(stop=stopped) else 1
    except WriterBusy:  # another process builds it
        return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
