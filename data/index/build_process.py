"""The background build's own process: `python -m oneclaw_search.data.index.build_process HISTORY SIDE --window=1-1-1`.

So that no search waits for a build (Q-11), it opens the history read-only, catches the keyword
index up to it, and exits; SIGTERM, or the end of the process that started it, stops it after the
batch in hand, its commits kept (the next search resumes it): a killed host leaves no build behind.
A build a first search waits for (`--waited`) keeps the search's priority.
"""
from __future__ import annotations

import os
import signal
import sys
import threading
from pathlib import Path

from oneclaw_search.data.history.database import HistoryDatabase
from oneclaw_search.data.index.background import BUILD_NICENESS, LOST_THE_WRITER, WAITED, WINDOW_FLAG
from oneclaw_search.data.index.keyword_index import WriterBusy
from oneclaw_search.data.index.lookup import KeywordLookup
from oneclaw_search.data.index.side_index import SideIndex
from oneclaw_search.domain.window_bm25 import WindowLayout


def main(argv: list[str]) -> int:
    history_path, side_path, *flags = argv
    if hasattr(os, "nice") and WAITED not in flags:
        os.nice(BUILD_NICENESS)
    stop, parent = threading.Event(), os.getppid()
    signal.signal(signal.SIGTERM, lambda *_: stop.set())
    layouts = [WindowLayout.from_token(flag.partition("=")[2]) for flag in flags if flag.startswith(f"{WINDOW_FLAG}=")]
    lookup = KeywordLookup.open(HistoryDatabase.open_read_only(history_path), SideIndex(Path(side_path)), None,
                                layouts[-1] if layouts else WindowLayout())
    try:
        return 0 if lookup.sync.catch_up(stop=lambda: stop.is_set() or os.getppid() != parent) else 1
    except WriterBusy:  # another process builds it; a search waiting for this one waits for that one instead
        return LOST_THE_WRITER


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
