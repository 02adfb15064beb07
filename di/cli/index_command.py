"""`oneclaw-search index`: build or catch up the keyword index now, instead of in the background of
the first searches, with a progress bar on a terminal.

Prints where the index lives, how many rows it holds, its size and how long the work took.
"""
from __future__ import annotations

import sys
import time
from pathlib import Path

from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

from oneclaw_search.data.index.keyword_index import WriterBusy
from oneclaw_search.data.index.schema import MESSAGES, SESSIONS
from oneclaw_search.di import create_injector
from oneclaw_search.di.index_module import IndexParts


def run_index(db: Path, time_zone: str | None, index_path: str | None) -> int:
    settings = {"time_zone": time_zone} if index_path is None else {"time_zone": time_zone, "index_path": index_path}
    parts = create_injector(db, **settings).get(IndexParts)
    if parts.lookup is None or parts.side is None:
        print("no side index: search runs the spec's scans")
        return 0
    sync, keyword = parts.lookup.sync, parts.lookup.keyword
    started = time.perf_counter()
    try:
        edited = _catch_up(sync)
    except WriterBusy:
        print(f"another process is writing the index at {keyword.folder}; try again when it is done", file=sys.stderr)
        return 1
    except ValueError as damage:  # tantivy cannot read the folder
        print(f"the index at {keyword.folder} is damaged ({str(damage).splitlines()[0][:120]}); building it anew",
              file=sys.stderr)
        sync.start_over()
        edited = _catch_up(sync)
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


def _catch_up(sync) -> int:
    """Catch up with a progress bar on a terminal, then compare every message; how many were edited."""
    columns = (TextColumn("indexing messages"), BarColumn(), MofNCompleteColumn(), TimeRemainingColumn())
    with Progress(*columns, transient=True, disable=not sys.stderr.isatty()) as progress:
        read, _, top = sync.backlog()
        task = progress.add_task("messages", total=top, completed=read)
        sync.catch_up(progress=lambda done, total: progress.update(task, completed=done, total=total))
    return sync.verify()
