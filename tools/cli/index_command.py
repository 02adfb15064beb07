"""`oneclaw-search index`: build or catch up the keyword index now, instead of in the background of
the first searches, with progress bars on a terminal (tools/cli/progress.py).

Prints where the index lives, how many rows it holds, its size and how long the work took.
"""
from __future__ import annotations

import sys
import time
from pathlib import Path

from oneclaw_search.data.index.keyword_index import WriterBusy
from oneclaw_search.data.index.schema import MESSAGES, SESSIONS
from oneclaw_search.data.index.side_index import damaged_index
from oneclaw_search.data.index.sync import KEYWORDS, IndexSync
from oneclaw_search.di import create_injector
from oneclaw_search.di.index_module import IndexParts
from oneclaw_search.tools.cli.history_location import PostgresLocation
from oneclaw_search.tools.cli.progress import CountBar, progress_bars

STAGES = {KEYWORDS: "indexing messages"}
BUSY_POLL_SECONDS = 0.5


def run_index(db: Path | PostgresLocation, time_zone: str | None, index_path: str | None) -> int:
    if isinstance(db, PostgresLocation):
        print(f"Nothing to index: {db} is searched on the server, and a committed row is searchable at once")
        return 0
    settings = {"time_zone": time_zone} if index_path is None else {"time_zone": time_zone, "index_path": index_path}
    parts = create_injector(db, **settings).get(IndexParts)
    if parts.lookup is None or parts.side is None:
        print("no side index: search runs the spec's scans")
        return 0
    sync, keyword = parts.lookup.sync, parts.lookup.keyword
    started = time.perf_counter()
    try:
        edited = _rebuilt_when_damaged(sync, keyword.folder)
    except Exception as error:  # noqa: BLE001 - a full disk, a read-only folder: one line, exit 1
        print(f"could not update the index at {keyword.folder}: {error}", file=sys.stderr)
        return 1
    seconds = time.perf_counter() - started
    counts = [keyword.searcher(kind, fresh=True).num_docs for kind in (MESSAGES, SESSIONS)]
    files = [parts.side.path, *parts.side.path.parent.glob(parts.side.path.name + "-*"), *keyword.folder.rglob("*")]
    size = sum(path.stat().st_size for path in files if path.is_file())
    changed = f", {edited} edited messages indexed again" if edited else ""
    print(f"side index {parts.side.path}: {counts[0]} messages, {counts[1]} sessions, "
          f"{size / 1e6:.1f} MB, up to date in {seconds:.2f} s{changed}")
    return 0


def _rebuilt_when_damaged(sync: IndexSync, folder: Path) -> int:
    """_when_free; when a part of the index is damaged (tantivy's folder or the side file), both are
    deleted and built anew."""
    try:
        return _when_free(sync, folder)
    except Exception as damage:
        if not damaged_index(damage):
            raise
        print(f"the index at {folder} is damaged ({str(damage).splitlines()[0][:120]}); building it anew", file=sys.stderr)
        sync.start_over(side_file=True)
        return _catch_up(sync)


def _when_free(sync: IndexSync, folder: Path) -> int:
    """_catch_up once no other process writes the index (a search starts a build in the background:
    this waits for it, then takes in what it left)."""
    said = False
    while True:
        try:
            return _catch_up(sync)
        except WriterBusy:
            if not said:
                print(f"waiting for the build another process is running on {folder}", file=sys.stderr)
                said = True
            time.sleep(BUSY_POLL_SECONDS)


def _catch_up(sync: IndexSync) -> int:
    """Catch up with a bar on a terminal, then compare every
    message with the history; how many had been edited."""
    with progress_bars(transient=True) as bars:
        shown: dict[str, CountBar | None] = {}

        def report(stage: str, done: int, top: int) -> None:
            if stage not in shown:  # a bar once its stage starts: its rate and time left are its own
                shown[stage] = bars.count(STAGES[stage], "rows", total=top, start=done) if done < top else None
            if (bar := shown[stage]) is not None:
                bar(done)

        read, top = sync.backlog()
        report(KEYWORDS, read, top)
        sync.catch_up(progress=report if bars.progress is not None else None)
        bars.stage("comparing every message with the history")
        return sync.verify()
